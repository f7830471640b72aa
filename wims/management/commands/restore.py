"""``manage.py restore FILE [--yes]``: put a backup back, then upgrade it (``migrate``); wims/backup.py."""

from pathlib import Path

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from wims import backup


class Command(BaseCommand):
    help = "Replace the database's content with a backup written by `manage.py backup`, then migrate it."

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path, help="A backup written by manage.py backup.")
        parser.add_argument(
            "--yes", action="store_true", help="Replace a database that holds data (sites, rules, folders, users)."
        )

    def handle(self, *args, file, yes, **options):
        try:
            if not yes and backup.holds_data():
                raise CommandError(
                    "This database holds data, which the restore replaces. Stop WIMS (make run, workers, beat), "
                    "back it up if needed, then run again with --yes."
                )
            self.stdout.write(backup.restore(file))
        except backup.BackupError as exc:
            raise CommandError(str(exc)) from exc
        call_command("migrate", interactive=False, verbosity=options["verbosity"], stdout=self.stdout)
        self.stdout.write("Restored and migrated: start WIMS again.")
