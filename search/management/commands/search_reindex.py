"""manage.py search_reindex: rebuild the full-text index of every article (processed originals searchable,
everything else dropped). Migration search/0002 indexed the articles stored before search existed; this is
for an index that went out of step (e.g. articles changed outside processing)."""

from django.core.management.base import BaseCommand

from search import services


class Command(BaseCommand):
    help = "Index every processed original article again for full-text search (and drop the others)."

    def add_arguments(self, parser):
        parser.add_argument("--batch", type=int, default=services.REINDEX_BATCH, help="article ids per statement")

    def handle(self, *args, batch: int, **options):
        def progress(done: int, last: int) -> None:
            self.stdout.write(f"indexed up to article {done} of {last}")

        last = services.reindex(batch=batch, progress=progress if options["verbosity"] > 1 else None)
        self.stdout.write(self.style.SUCCESS(f"search index rebuilt ({last} article ids)"))
