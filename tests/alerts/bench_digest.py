"""A daily digest for 1,000 subscribers (issue 15, item 5: built in under a minute), on PostgreSQL.

On a throw-away test database next to DATABASE_URL's (default postgres://postgres@127.0.0.1:5432/wims):
1,000 experts each subscribed to a daily digest of one folder, 20 articles accepted into it (or below it)
during the day, one more folder of noise. Measured: the scan at digest time (records 20,000 deliveries and
finds 1,000 subscriptions due), then building and sending every digest (alerts.services.send: claim, render
the HTML and text e-mail, hand it to Django's locmem backend, mark sent), as the workers would, one after
the other in this one process. A real SMTP server or the file backend adds its own time per message.

Run: .venv/bin/python tests/alerts/bench_digest.py [--subscribers N] [--articles N]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from datetime import time as clock
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "wims.settings")
os.environ.setdefault("WIMS_ENV", "development")  # a benchmark on this machine (wims/settings.py)
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/wims")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core import mail  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import setup_databases, setup_test_environment, teardown_databases  # noqa: E402
from django.utils import timezone  # noqa: E402

from tests.articles import create_article  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--subscribers", type=int, default=1000)
    parser.add_argument("--articles", type=int, default=20)
    args = parser.parse_args()
    setup_test_environment()  # locmem e-mail backend
    names = setup_databases(verbosity=0, interactive=False)
    try:
        run(args.subscribers, args.articles)
    finally:
        teardown_databases(names, verbosity=0)


def run(subscribers: int, articles: int) -> None:
    from alerts import services
    from alerts.models import Delivery, Subscription
    from classifier import services as kb
    from classifier.models import Case, Classification
    from foundation.roles import EXPERTS, ensure_groups
    from monitor.models import Article, Site

    User = get_user_model()
    experts = ensure_groups()[EXPERTS]
    editor = User.objects.create_user("editor")
    health = kb.create_folder("Health", editor)
    measles = kb.create_folder("Health/Measles", editor)
    kb.create_folder("Sport", editor)
    users = User.objects.bulk_create(
        [User(username=f"reader{i}", email=f"reader{i}@example.org") for i in range(subscribers)]
    )
    experts.user_set.add(*users)
    # the digest time was a minute ago (UTC, to keep the arithmetic plain); the articles came half an hour before
    now = timezone.now()
    start, digest, accepted = now - timedelta(days=1), now - timedelta(minutes=1), now - timedelta(minutes=30)
    Subscription.objects.bulk_create(
        [
            Subscription(
                user=u,
                folder=health,
                frequency="daily",
                send_time=clock(digest.hour, digest.minute, digest.second),
                time_zone="UTC",
                created_at=start,
                cursor=start,
                next_digest_at=digest,
            )
            for u in users
        ]
    )
    site = Site.objects.create(name="Bench Daily", home_url="https://bench.example/")
    for n in range(articles):
        article = create_article(
            site=site,
            url=f"https://bench.example/{n}",
            title=f"Measles story {n} <b>untrusted</b>",
            abstract="Cases of measles rose sharply in the region, health officials said. " * 4,
            state=Article.State.PROCESSED,
        )
        case = Case.objects.create(article=article, keywords=["measles"])
        Classification.objects.create(case=case, folder=measles if n % 2 else health)
        kb.accept(case, editor)
    Classification.objects.update(decided_at=accepted, updated_at=accepted)

    t0 = time.perf_counter()
    due = services.scan()
    t1 = time.perf_counter()
    results = [services.send(pk) for pk in due]
    t2 = time.perf_counter()
    assert len(due) == subscribers, len(due)
    assert all(r == f"sent {articles} by email" for r in results), results[:3]
    assert len(mail.outbox) == subscribers
    assert Delivery.objects.filter(state=Delivery.State.SENT).count() == subscribers * articles
    print(f"database: {connection.vendor}; {subscribers} daily digests of {articles} articles")
    print(f"scan at digest time: {t1 - t0:.2f} s ({subscribers * articles} deliveries recorded)")
    print(f"build and send every digest: {t2 - t1:.2f} s ({(t2 - t1) / subscribers * 1000:.1f} ms each)")
    print(f"total: {t2 - t0:.2f} s (target: under 60 s)")


if __name__ == "__main__":
    main()
