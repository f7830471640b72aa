"""Set up a WIMS database for use: role groups; with ``--demo``, the demo login, demo sites and starting folders.

Run by `make run` (with ``--demo``) after `migrate`, and once in production (without it). Safe to run again:
it only creates what is missing and never changes a password or a site that an administrator edited. The
periodic tasks are not set up here: the beat writes them from CELERY_BEAT_SCHEDULE (wims/settings.py) at its start.
"""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from foundation import roles


class Command(BaseCommand):
    help = "Create role groups; --demo adds the demo login, sites and folders (idempotent)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--demo",
            action="store_true",
            help="Also the demo login, demo sites and folders (make run; never in production).",
        )
        parser.add_argument(
            "--demo-port",
            type=int,
            default=settings.WIMS_DEMO_PORT,
            help="Port of the demo news sites server (default %(default)s).",
        )

    @transaction.atomic
    def handle(self, *args, demo, demo_port, **options):
        if demo and settings.PRODUCTION:
            raise CommandError("WIMS_ENV=production: the demo login and demo sites are never created there.")
        groups = roles.ensure_groups()
        if not demo:
            self.stdout.write("Groups are in place.")
            return
        try:
            # The demo package lives in the source checkout only (pip install . leaves it out).
            from demo import setup
        except ImportError as exc:
            raise CommandError(f"--demo needs the source checkout's demo package: {exc}") from exc
        user = setup.ensure_demo_user(groups.values())
        sites = setup.ensure_demo_sites(demo_port)
        setup.ensure_demo_folders(user)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo login: {setup.DEMO_USERNAME} / {setup.DEMO_PASSWORD}  "
                "(a superuser: expert and site administrator)\n"
                f"Demo sites: {', '.join(f'{s.name} <{s.home_url}>' for s in sites)}\n"
                f"Left for you to register by its home page (README, step 2): {setup.left_to_register(demo_port)}"
            )
        )
