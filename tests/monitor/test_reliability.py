"""Reliability with real worker processes: a worker SIGKILLed mid-fetch loses nothing and duplicates nothing;
the per-host delay holds across two worker processes; a poll's many new articles cost no herd of deferrals."""

from urllib.parse import urlsplit

import pytest

from classifier.models import Case
from foundation.work import enqueue
from monitor import services
from monitor.models import Article
from monitor.tasks import fetch_article, poll_site
from tests.monitor.conftest import (
    FAST_ENV,
    control,
    ground_truth,
    register,
    request_log,
    run_until,
    special_report,
    wait_for,
)


@pytest.mark.worker
def test_worker_killed_mid_fetch_loses_and_duplicates_nothing(demo, start_worker, fast_env):
    site = register(demo, "healthwatch")
    urls = sorted(ground_truth(demo, "healthwatch"))
    slow = urls[0]
    control(demo, "healthwatch", "POST", "fault", mode="slow", seconds="20", count="1", path_prefix=urlsplit(slow).path)
    polled = services.poll_site(site.pk)
    report = special_report(demo, "healthwatch")  # a list of stories at a story's address: fetched, kept out
    assert len(polled.enqueue) == 4 + len(report) == 5

    # The first worker waits long enough to be caught inside the slow request; its lease is short so that
    # the test need not wait the production lease out, yet longer than its tasks' hard time limit (10 + 20 s),
    # as wims/settings.py requires, and that limit longer than the time it takes to catch the worker.
    doomed = start_worker(
        queues="fetch",
        concurrency=2,
        pool="threads",
        extra_env={**FAST_ENV, "WIMS_READ_TIMEOUT": "60", "WIMS_TASK_TIME_LIMIT": "10", "WIMS_LEASE_SECONDS": "31"},
    )
    enqueue(polled)  # each fetch with its countdown, as the poll task sends them
    wait_for(
        lambda: request_log(demo, "healthwatch", urlsplit(slow).path), timeout=30, message="the slow request to start"
    )
    assert Article.objects.get(url=slow).state == "fetching"
    doomed.kill()

    start_worker(queues="celery,poll,fetch,process", concurrency=2, pool="threads", extra_env=FAST_ENV)
    run_until(
        lambda: (
            Article.objects.filter(state="processed").count() == 4
            and Article.objects.filter(state="not_article").count() == 1
        ),
        timeout=90,  # the lost fetch is taken over once its lease (31 s) has run out
        message="all four articles processed after the crash, the special report kept out",
    )
    assert sorted(Article.objects.values_list("url", flat=True)) == sorted([*urls, *report]), "nothing duplicated"
    assert Case.objects.count() == 4
    lost = Article.objects.get(url=slow)
    assert lost.fetch_attempts == 2, "the killed attempt counts, the second one succeeded"
    assert lost.attempts.filter(outcome="ok").count() == 1


@pytest.mark.worker
def test_politeness_delay_is_shared_by_two_worker_processes(demo, start_worker, fast_env):
    delay = 0.5
    env = {**FAST_ENV, "WIMS_POLITENESS_DELAY": str(delay), "WIMS_POLITENESS_MAX_WAIT": "1"}
    for _ in range(6):
        demo.publish("wellbeing")
    site = register(demo, "wellbeing")
    services.robots_allows(site, site.home_url)  # robots.txt cached, so only article requests follow
    new = services.create_pending(site, sorted(ground_truth(demo, "wellbeing")))
    assert len(new) == 10
    control(demo, "wellbeing", "DELETE", "requests.json")
    workers = [start_worker(queues="fetch", concurrency=3, pool="threads", extra_env=env) for _ in range(2)]
    for pk in new:
        fetch_article.delay(pk)
    wait_for(
        lambda: not Article.objects.filter(state__in=["pending", "fetching"]).exists(),
        timeout=60,
        message="the ten fetches",
    )
    stamps = sorted(r["time"] for r in request_log(demo, "wellbeing"))
    assert len(stamps) == 10
    gaps = [b - a for a, b in zip(stamps, stamps[1:], strict=False)]
    # Slots are reserved `delay` apart; the server sees arrival times, which also carry each request's own
    # start-up lateness (thread wake-up, connect): on a loaded 2-core CI machine one request arrived 0.28 s
    # late (gaps 0.76 then 0.22). So no single gap is held to the delay; instead: no two requests together
    # (six threads without a shared slot fire at once: gaps of a few ms), and the run spans every slot (slots
    # kept per process only would interleave and span half of it); lateness counts only at the two ends.
    assert min(gaps) >= delay / 5, gaps
    assert sum(gaps) >= (len(gaps) * delay) - 0.3, gaps
    assert all("succeeded" in w.log() and "monitor.fetch_article" in w.log() for w in workers), (
        "both worker processes fetched"
    )


@pytest.mark.worker
def test_a_poll_with_many_new_articles_defers_few_fetches(demo, start_worker, fast_env):
    """A poll sent its N fetches at once: all but one were deferred to the same next slot, again and again,
    about N²/2 deferred tasks (508 for 62 articles in a live run). A deferred fetch now holds its slot."""
    env = {**FAST_ENV, "WIMS_POLITENESS_DELAY": "0.4", "WIMS_POLITENESS_MAX_WAIT": "0.2"}
    for _ in range(12):
        demo.publish("wellbeing")
    site = register(demo, "wellbeing")
    worker = start_worker(queues="poll,fetch", concurrency=4, pool="threads", extra_env=env)
    poll_site.delay(site.pk)
    wait_for(
        lambda: (
            Article.objects.filter(site=site).count() >= 17
            and not Article.objects.filter(site=site, state__in=["pending", "fetching"]).exists()
        ),
        timeout=90,
        message="the poll's seventeen fetches (sixteen stories and the special report)",
    )
    fetched = Article.objects.filter(site=site).exclude(state="failed").count()
    deferred = sum(1 for line in worker.log().splitlines() if "monitor.fetch_article" in line and "'deferred" in line)
    assert fetched == 16 + len(special_report(demo, "wellbeing")) == 17
    # 127 before (N²/2); now one each, two for a message so late that its held slot went by.
    assert deferred <= 2 * fetched, f"{deferred} deferred fetches for {fetched} articles"
