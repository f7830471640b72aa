"""``manage.py backup [-o FILE]``: a consistent copy of the whole database (wims/backup.py)."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from wims import backup


class Command(BaseCommand):
    help = "Write a consistent backup of the database (SQLite online backup, or pg_dump) while WIMS runs."

    def add_arguments(self, parser):
        parser.add_argument("-o", "--output", type=Path, help="The file to write (default: var/backups/wims-<time>).")

    def handle(self, *args, output, **options):
        try:
            written = backup.backup(output)
        except backup.BackupError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"{written.vendor} backup written to {written.path} ({written.size:,} bytes)")
