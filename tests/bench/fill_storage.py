"""Fill a fresh database with processed demo articles and report the bytes stored per article (issue 31).

    WIMS_VAR_DIR=var/fill DEBUG=1 .venv/bin/python -m tests.bench.fill_storage [--synthetic 12] [--rounds 10]

Serves the three demo sites (or ``--synthetic`` N synthetic ones, whose articles are mostly re-publications
of the three's: duplicates), 16 articles each, all published; runs WebMon and processing in this
process (the tasks' own service functions, follow-ups run in order instead of through a broker), then prints
``manage.py storage``'s table twice: as stored, and after retention has dropped every raw page and fetch log row
(as it does once they are old enough), the database vacuumed. Uses whatever DATABASE_URL says, migrated
first; the database should be empty.

With ``--rounds R`` each site then publishes 8 follow-ups (new stories, not re-publications) R times, each round
polled and processed, and the growth is reported: bytes added per article added, after retention, between the
first fill and the last round. That is what a year of operation pays per article; the first table's figure
also carries every table's and index's first pages, which a few dozen articles share.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import deque
from datetime import timedelta
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from wims import storage

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


FOLLOW_UPS_PER_ROUND = 8


def _drain(todo: deque[tuple[str, int, float]]) -> int:
    done = 0
    while todo and done < 100_000:
        stage, pk, _countdown = todo.popleft()
        todo.extend(_run(stage, pk))
        done += 1
    return done


def fill(n_synthetic: int, rounds: int = 0, after_round=None) -> int:
    """Serve and take in the sites' articles; then ``rounds`` rounds of follow-ups, ``after_round()`` before the
    first and after each."""
    from demo import DEMO_SITES, DemoServer, synthetic_sites
    from demo.registration import demo_site_settings
    from monitor.models import Site

    specs = list(synthetic_sites(n_synthetic, FIRST_ADDRESS)) if n_synthetic else list(DEMO_SITES)
    with DemoServer(port=0, interval=None, start_published=16, sites=specs) as server:
        sites = {spec.key: Site.objects.create(**demo_site_settings(spec, server.base_url(spec.key))) for spec in specs}
        done = _drain(deque(("poll", site.pk, 0) for site in sites.values()))
        if rounds and after_round:
            after_round()
        for _ in range(rounds):
            for key in sites:
                for _ in range(FOLLOW_UPS_PER_ROUND):
                    server.publish(key)
            done += _drain(deque(("poll", site.pk, 0) for site in sites.values()))
            if after_round:
                after_round()
    return done


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--synthetic", type=int, default=0, metavar="N", help="N synthetic sites instead")
    parser.add_argument("--rounds", type=int, default=0, metavar="R", help="R rounds of 8 follow-ups per site")
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

    def retained() -> storage.Storage:
        """Storage once retention has run on everything (as it does once they are old enough), vacuumed."""
        detail = retention.apply_retention(now=timezone.now() + timedelta(days=10_000)).detail
        with connection.cursor() as cursor:  # free pages back to the file, as reuse does at steady state
            cursor.execute("VACUUM FULL" if connection.vendor == "postgresql" else "VACUUM")
        print(detail)
        return storage.measure()

    points: list[storage.Storage] = []
    runs = fill(args.synthetic, args.rounds, after_round=lambda: points.append(retained()))
    states = dict(Article.objects.values_list("state").annotate(n=Count("id")))
    print(f"{runs} task runs; articles by state: {states}\n")
    if not args.rounds:
        _report(storage.measure(), empty)
    print("after retention (raw pages and fetch log dropped; vacuumed):\n")
    points.append(retained())
    _report(points[-1], empty)
    if args.rounds:
        _growth(points[0], points[-1])
    return 0


def _growth(first: storage.Storage, last: storage.Storage) -> None:
    """Bytes added per article added between two measurements, by table: the marginal cost, free of the tables'
    first pages."""
    added = last.articles - first.articles
    before = {t.table: t.bytes for t in first.tables}
    print(f"growth from {first.articles:,} to {last.articles:,} articles, after retention:\n")
    print("| table | KB per added article |\n|---|---:|")
    rows = sorted(((t.bytes - before.get(t.table, 0), t.table) for t in last.tables), reverse=True)
    for grown, table in rows[:10]:
        print(f"| {table} | {grown / added / 1024:.2f} |")
    print(f"| **all tables** | **{(last.total - first.total) / added / 1024:.1f}** |\n")


def _report(measured, empty: int) -> None:
    """The table, and the bytes per article above the empty database's (its tables and indexes' first pages,
    which a small sample divides among few articles)."""
    from wims import storage

    print(storage.as_markdown(measured))
    grown = measured.per_article(measured.total - empty) / 1024
    print(f"\nempty database {empty / 1e6:.2f} MB; above it: {grown:.1f} KB per article\n")


if __name__ == "__main__":
    sys.exit(main())
