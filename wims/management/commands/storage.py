"""``manage.py storage``: bytes stored by table and per article (wims/storage.py)."""

from django.core.management.base import BaseCommand

from wims import storage


class Command(BaseCommand):
    help = "Bytes stored by table (with indexes) and per article: what the retention policy bounds."

    def add_arguments(self, parser):
        parser.add_argument("--top", type=int, default=12, help="Show the largest N tables (default 12).")

    def handle(self, *args, top, **options):
        self.stdout.write(storage.as_markdown(storage.measure(), top=top))
