"""``manage.py retention [--dry-run]``: apply the retention policy now (monitor/retention.py)."""

from django.core.management.base import BaseCommand

from monitor import retention


class Command(BaseCommand):
    help = "Drop raw pages and fetch log rows older than the retention settings (the beat does it daily)."

    def add_arguments(self, parser):
        parser.add_argument("--dry-run", action="store_true", help="Only count what would be dropped.")

    def handle(self, *args, dry_run, **options):
        if dry_run:
            pages, logs = retention.raw_pages_to_drop().count(), retention.fetch_log_to_drop().count()
            self.stdout.write(f"would drop {pages} raw pages and {logs} fetch log rows")
            return
        self.stdout.write(retention.apply_retention(limit=10**9).detail)
