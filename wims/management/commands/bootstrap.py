"""Set up a WIMS database for use: role groups, the demo account, the demo sites, the polling schedule.

Run by `make run` after `migrate`. Safe to run again: it only creates what is missing and never
changes a password or a site that an administrator edited.
"""

import os

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django_celery_beat.models import IntervalSchedule, PeriodicTask

from classifier import services
from classifier.models import Folder
from monitor.demo.articles import TOPICS
from monitor.demo.sites import DEFAULT_PORT, DEMO_SITES
from monitor.models import Site
from monitor.registration import demo_site_settings
from wims import roles

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "demo-wims"  # noqa: S105 - a local development login, refused in production
DISPATCH_TASK = "monitor.dispatch_due_polls"
DISPATCH_EVERY_SECONDS = 30


class Command(BaseCommand):
    help = "Create role groups, the demo account and demo sites, and the polling schedule (idempotent)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--no-demo", action="store_true", help="Only groups and schedule: no demo account or sites."
        )
        parser.add_argument(
            "--demo-port",
            type=int,
            default=int(os.environ.get("WIMS_DEMO_PORT", DEFAULT_PORT)),
            help="Port of the demo news sites server (default %(default)s).",
        )

    @transaction.atomic
    def handle(self, *args, no_demo=False, demo_port=DEFAULT_PORT, **options):
        groups = roles.ensure_groups()
        self.ensure_schedule()
        if no_demo:
            self.stdout.write("Groups and polling schedule are in place.")
            return
        if settings.PRODUCTION:
            self.stdout.write("WIMS_ENV=production: no demo account or demo sites created (use --no-demo).")
            return
        user = self.ensure_demo_user(groups)
        sites = self.ensure_demo_sites(demo_port)
        self.ensure_demo_folders(user)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo login: {DEMO_USERNAME} / {DEMO_PASSWORD}  (expert and site administrator)\n"
                f"Demo sites: {', '.join(f'{s.name} <{s.home_url}>' for s in sites)}"
            )
        )

    def ensure_schedule(self) -> None:
        every, _ = IntervalSchedule.objects.get_or_create(every=DISPATCH_EVERY_SECONDS, period=IntervalSchedule.SECONDS)
        PeriodicTask.objects.get_or_create(
            name="Dispatch due site polls",
            defaults={"task": DISPATCH_TASK, "interval": every},
        )

    def ensure_demo_user(self, groups):
        user_model = get_user_model()
        user, created = user_model.objects.get_or_create(
            username=DEMO_USERNAME, defaults={"is_staff": True, "is_superuser": True}
        )
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        user.groups.add(*groups.values())
        return user

    def ensure_demo_folders(self, user) -> None:
        """A starting folder per demo topic, so that a new expert has somewhere to file articles.

        Only on a knowledge base without folders: once experts have shaped the tree, it is theirs.
        """
        if Folder.objects.exists():
            return
        for topic in TOPICS:
            services.create_folder(f"Health/{topic.replace('-', ' ').capitalize()}", user)

    def ensure_demo_sites(self, port: int) -> list[Site]:
        sites = []
        for spec in DEMO_SITES:
            site = Site.objects.filter(home_url=spec.home_url(port)).first()
            if site is None:
                site = Site(name=spec.name, home_url=spec.home_url(port))
                configure_demo_site(site, spec, port)
                site.save()
            sites.append(site)
        return sites


def configure_demo_site(site: Site, spec, port: int) -> None:
    """WebMon settings for a demo site (sections, feed, article patterns; loopback addresses allowed)."""
    for field, value in demo_site_settings(spec, spec.base_url(port)).items():
        setattr(site, field, value)
