"""Fill a fresh database with processed demo articles and report the bytes stored per article (issue 31).

    WIMS_VAR_DIR=var/fill DEBUG=1 .venv/bin/python -m tests.bench.fill_storage [--synthetic 12]

Serves the three demo sites (or ``--synthetic`` N synthetic ones, whose articles are mostly re-publications
of the three's: duplicates), 16 articles each, all published; runs WebMon and processing in this
process (the tasks' own service functions, follow-ups run in order instead of through a broker), then prints
``manage.py storage``'s table twice: as stored, and after retention has dropped every raw page and fetch log row
(as it does once they are old enough), the database vacuumed. Uses whatever DATABASE_URL says, migrated
first; the database should be empty.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import deque
from datetime import timedelta

FIRST_ADDRESS = "127.3.0.1"  # apart from bench_webmon's 127.0.1.x


def _run(stage: str, pk: int) -> list[tuple[str, int, float]]:
    from monitor import services as webmon
    from processing import learning
    from processing import services as processing

    run = {
        "poll": webmon.poll_site,
        "fetch": webmon.fetch_article,
        "process": processing.process_article,
        "learn": learning.learn_site,
    }.get(stage)
    return list(run(pk).enqueue) if run else []


def fill(n_synthetic: int) -> int:
    from demo import DEMO_SITES, DemoServer, synthetic_sites
    from demo.registration import demo_site_settings
    from monitor.models import Site

    specs = list(synthetic_sites(n_synthetic, FIRST_ADDRESS)) if n_synthetic else list(DEMO_SITES)
    with DemoServer(port=0, interval=None, start_published=16, sites=specs) as server:
        todo = deque(
            ("poll", Site.objects.create(**demo_site_settings(spec, server.base_url(spec.key))).pk, 0) for spec in specs
        )
        done = 0
        while todo and done < 100_000:
            stage, pk, _countdown = todo.popleft()
            todo.extend(_run(stage, pk))
            done += 1
    return done


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--synthetic", type=int, default=0, metavar="N", help="N synthetic sites instead")
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "wims.settings")
    os.environ.setdefault("WIMS_POLITENESS_DELAY", "0")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.db.models import Count
    from django.utils import timezone

    from monitor import retention
    from monitor.models import Article
    from wims import storage

    call_command("migrate", verbosity=0)
    empty = storage.measure().total
    runs = fill(args.synthetic)
    states = dict(Article.objects.values_list("state").annotate(n=Count("id")))
    print(f"{runs} task runs; articles by state: {states}\n")
    _report(storage.measure(), empty)
    print(retention.apply_retention(now=timezone.now() + timedelta(days=10_000)).detail)
    with connection.cursor() as cursor:  # free pages back to the file, as reuse does at steady state
        cursor.execute("VACUUM FULL" if connection.vendor == "postgresql" else "VACUUM")
    print("after retention (raw pages and fetch log dropped; vacuumed):\n")
    _report(storage.measure(), empty)
    return 0


def _report(measured, empty: int) -> None:
    """The table, and the bytes per article above the empty database's (its tables and indexes' first pages,
    which a small sample divides among few articles)."""
    from wims import storage

    print(storage.as_markdown(measured))
    grown = measured.per_article(measured.total - empty) / 1024
    print(f"\nempty database {empty / 1e6:.2f} MB; above it: {grown:.1f} KB per article\n")


if __name__ == "__main__":
    sys.exit(main())
