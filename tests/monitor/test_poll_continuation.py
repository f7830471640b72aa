"""Polls that never sleep for a busy host: a poll that meets a host whose politeness slot is further away than
WIMS_POLITENESS_MAX_WAIT stores what its sources gave so far and re-queues itself for the rest.

Checked in this process (a lost continuation, resumed by the dispatcher after the lease) and with a real
worker of one thread: three sites polled at once, every source read once, politeness exact, health right."""

import time
from datetime import timedelta
from urllib.parse import urlsplit

import pytest
from django.db import models
from django.utils import timezone

from monitor import services
from monitor.models import Article, FetchAttempt, Site
from tests.monitor.conftest import (
    FAST_ENV,
    TERMINAL,
    control,
    ground_truth,
    register,
    request_log,
    run_until,
    special_report,
)

DELAY = 0.6
# A longer sweep grace than FAST_ENV's: with one thread, the embedded broker (about one message a second)
# must not fill the queue with the sweep's copies of fetches that are only waiting for their countdown.
ENV = {**FAST_ENV, "WIMS_POLITENESS_DELAY": str(DELAY), "WIMS_POLITENESS_MAX_WAIT": "0.05", "WIMS_SWEEP_GRACE": "30"}


def paths(server, key: str) -> list[str]:
    return [r["path"] + ("?" + r["query"] if r.get("query") else "") for r in request_log(server, key)]


def source_paths(site: Site) -> list[str]:
    urls = site.watched_urls + ([site.feed_url] if site.feed_url else [])
    return [urlsplit(u).path + ("?" + urlsplit(u).query if urlsplit(u).query else "") for u in urls]


@pytest.mark.django_db(transaction=True)
def test_a_lost_continuation_is_resumed_after_its_lease_without_reading_a_source_twice(demo, tunables):
    tunables(**ENV)
    site = register(demo, "healthwatch")
    sources = source_paths(site)
    assert len(sources) >= 3, "home page, sections and feed: several continuations"
    Site.objects.filter(pk=site.pk).update(next_poll_at=None)
    [(name, pk, _)] = services.dispatch_due_polls().enqueue
    assert (name, pk) == ("poll", site.pk)
    regular = Site.objects.get(pk=site.pk).next_poll_at  # set by the dispatcher's claim

    first = services.poll_site(site.pk)  # robots.txt takes the host's slot: the home page must wait
    assert first.result == "deferred" and first.enqueue[-1][:2] == ("poll", site.pk)
    assert 0 < first.enqueue[-1][2] <= DELAY
    time.sleep(first.enqueue[-1][2])  # the continuation's countdown: to the slot it holds
    second = services.poll_site(site.pk)  # the home page, then the next source must wait
    assert second.result == "deferred", (first, second)
    fetches = [pk for name, pk, _ in second.enqueue if name == "fetch"]
    assert fetches, "the home page's links are stored and their fetches enqueued at once"
    assert set(Article.objects.filter(site=site).values_list("pk", flat=True)) == set(fetches)
    stored = Site.objects.get(pk=site.pk)
    progress = stored.validators[services.PROGRESS_KEY]
    assert progress["done"] == [site.home_url] and progress["found"] == len(fetches)
    assert stored.validators[site.home_url].get("etag"), "the home page's validators are kept at once"
    lease = stored.next_poll_at
    assert timezone.now() < lease < regular, "a lease, not the regular schedule"

    # The continuation message is lost. After the lease the dispatcher polls the site again: it resumes.
    assert services.dispatch_due_polls().enqueue == [], "not due while the lease runs"
    Site.objects.filter(pk=site.pk).update(next_poll_at=timezone.now() - timedelta(seconds=1))
    assert [t[:2] for t in services.dispatch_due_polls().enqueue] == [("poll", site.pk)]
    outcomes = [services.poll_site(site.pk)]
    for _ in range(20):
        if outcomes[-1].result == "polled":
            break
        time.sleep(outcomes[-1].enqueue[-1][2])  # as the continuation would come
        outcomes.append(services.poll_site(site.pk))
    assert outcomes[-1].result == "polled", [o.result for o in outcomes]

    log = paths(demo, "healthwatch")
    assert sorted(log) == sorted(["/robots.txt", *sources]), "every source read once, robots.txt once"
    site.refresh_from_db()
    # the stories, and the special report (a list of stories at a story's address: fetched, then kept out)
    published = set(ground_truth(demo, "healthwatch")) | special_report(demo, "healthwatch")
    assert set(Article.objects.filter(site=site).values_list("url", flat=True)) == published
    assert site.articles_found_last_poll == len(published) == 5, "counted across the continuations"
    assert services.PROGRESS_KEY not in site.validators
    assert set(site.validators) == {site.home_url, *site.watched_urls, site.feed_url}
    assert site.consecutive_failures == 0 and not site.last_error and site.last_success_at
    assert site.next_poll_at > timezone.now() + timedelta(seconds=site.poll_interval - 120), (
        "back on the regular schedule (the lease ended)"
    )


@pytest.mark.worker
def test_one_thread_polls_three_busy_hosts_at_once_with_exact_politeness(demo, start_worker, fast_env):
    sites = {key: register(demo, key) for key in ("healthwatch", "courier", "wellbeing")}
    # One thread for everything: if a poll slept for its host's slot, the three polls would run one after
    # the other; continuations let them interleave.
    worker = start_worker(concurrency=1, pool="threads", extra_env=ENV)
    truth = {key: set(ground_truth(demo, key)) for key in sites}
    everything = set().union(*truth.values())
    # and the special reports of Health Watch and the Wellbeing Times: fetched as stories, kept out as listings
    reports = {key: special_report(demo, key) for key in sites}
    kept_out = set().union(*reports.values())
    # The articles may all be processed before the last poll has read its last section (the home page lists
    # them all): wait for both.
    run_until(
        lambda: (
            set(Article.objects.filter(state="processed").values_list("url", flat=True)) >= everything
            and set(Article.objects.filter(state="not_article").values_list("url", flat=True)) >= kept_out
            and Site.objects.filter(last_poll_at__isnull=False).count() == 3
        ),
        timeout=120,
        message="the 12 published articles, the 2 special reports and the three polls",
    )
    assert Article.objects.count() == 12 + len(kept_out) == 14
    assert "deferred" in worker.log(), "polls were continued"

    spans = {}
    for key, site in sites.items():
        site.refresh_from_db()
        log = request_log(demo, key)
        sources = source_paths(site)
        read = [r for r in log if (r["path"] + ("?" + r["query"] if r.get("query") else "")) in sources]
        assert sorted(r["path"] + ("?" + r["query"] if r.get("query") else "") for r in read) == sorted(sources), (
            f"{key}: every source read exactly once"
        )
        spans[key] = (min(r["time"] for r in read), max(r["time"] for r in read))
        stamps = sorted(r["time"] for r in log)
        gaps = [b - a for a, b in zip(stamps, stamps[1:], strict=False)]
        assert min(gaps) >= DELAY - 0.1, (key, gaps)  # see test_reliability: arrival-time slack
        found = 4 + len(reports[key])
        assert site.articles_found_last_poll == found and site.consecutive_failures == 0 and not site.last_error
        assert services.PROGRESS_KEY not in site.validators
    # The polls overlapped in time (one thread): none held the thread while waiting for its host.
    starts, ends = [s for s, _ in spans.values()], [e for _, e in spans.values()]
    assert max(starts) < min(ends), spans

    # Second cycle: one new article each, and the Health Watch feed broken. Conditional GET on every source,
    # the new article counted, the feed's error recorded, across the continuations.
    for key in sites:
        assert demo.publish(key)
    control(demo, "healthwatch", "POST", "fault", mode="500", count="all", path_prefix="/rss.xml")
    since = timezone.now()
    Site.objects.update(next_poll_at=None)
    run_until(
        lambda: (
            Site.objects.filter(last_poll_at__gte=since).count() == 3
            and not Article.objects.exclude(state__in=TERMINAL).exists()
            and Article.objects.count() == 15 + len(kept_out)
        ),
        timeout=120,
        message="the second cycle",
    )
    for key, site in sites.items():
        site.refresh_from_db()
        assert site.articles_found_last_poll == 1, key
        [added] = set(ground_truth(demo, key)) - truth[key]
        assert Article.objects.get(url=added).state == "processed", key
        second = [
            r
            for r in request_log(demo, key)
            if r["time"] >= since.timestamp()
            and (r["path"] + ("?" + r["query"] if r.get("query") else "")) in source_paths(site)
        ]
        assert len(second) == len(source_paths(site)), f"{key}: every source read once"
        assert all(r["if_none_match"] for r in second), f"{key}: conditional GET on every source"
        assert services.PROGRESS_KEY not in site.validators
    hw = sites["healthwatch"]
    assert hw.consecutive_failures == 1 and "rss.xml" in hw.last_error and "HTTP 500" in hw.last_error
    assert hw.last_success_at >= since, "the other sources worked: reachable"
    assert FetchAttempt.objects.filter(site=hw, kind="feed", outcome="retry", started_at__gte=since).count() == 1
    for key in ("courier", "wellbeing"):
        assert sites[key].consecutive_failures == 0 and not sites[key].last_error


@pytest.mark.django_db(transaction=True)
def test_a_site_is_not_dispatched_again_while_its_poll_runs_past_its_interval(demo, fast_env):
    """A slow (or hostile) site's polls never pile up: each would hold a network thread."""
    site = register(demo, "courier", poll_interval=30)
    Site.objects.filter(pk=site.pk).update(next_poll_at=None)
    assert [t[:2] for t in services.dispatch_due_polls().enqueue] == [("poll", site.pk)]
    claimed = Site.objects.get(pk=site.pk).next_poll_at
    # the poll is still running 31 s later (time moved by hand): the site is not due again
    Site.objects.filter(pk=site.pk).update(next_poll_at=models.F("next_poll_at") - timedelta(seconds=31))
    assert services.dispatch_due_polls().enqueue == [], "no second poll while the first one runs"
    Site.objects.filter(pk=site.pk).update(next_poll_at=claimed)
    assert services.poll_site(site.pk).result == "polled"
    # back on schedule: an interval after the claim, in the beat's rhythm (an interval after the poll's own
    # start fell just after a beat: 60 s polls came every 90 s with a 30 s beat, seen in the soak test)
    assert Site.objects.get(pk=site.pk).next_poll_at == claimed - services.POLL_LEASE


@pytest.mark.django_db(transaction=True)
def test_a_poll_due_just_after_this_beat_is_dispatched_now_not_a_beat_later(demo, fast_env):
    """The beat's latency varies by a few hundred milliseconds; a poll due 0.3 s after a tick waited for the next
    one, so 60 s polls came every 90 s (the soak test measured it)."""
    site = register(demo, "courier", poll_interval=60)
    Site.objects.filter(pk=site.pk).update(next_poll_at=timezone.now() + timedelta(seconds=3))
    assert [t[:2] for t in services.dispatch_due_polls().enqueue] == [("poll", site.pk)]
    Site.objects.filter(pk=site.pk).update(next_poll_at=timezone.now() + timedelta(seconds=20))
    assert services.dispatch_due_polls().enqueue == [], "a poll further away waits for its beat"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("late", "fetches", "max_wait"),
    # on time within the longer wait (a loaded test machine), late beyond the short one but within the delay
    [(0, True, "0.3"), (DELAY / 2, False, "0.05")],
    ids=["on time", "late"],
)
def test_a_continuation_comes_back_to_the_slot_it_holds_not_behind_the_fetches_it_enqueued(
    demo, tunables, late, fetches, max_wait
):
    """A live trial: 249 deferred polls against 59 done. A deferral enqueued the fetches of the links read so far,
    which reserved the host's next slots; the continuation came back when the host had been free, found it busy
    with those fetches and was deferred once more ("4 new, rest in 1.7s", then "rest in 7.9s"). A deferral holds
    the continuation's slot now: one deferral per source read after the first (and one for robots.txt). A
    continuation a little late (a busy worker) takes its slot still, when nobody reserved one after it (a fetch
    did, at once, in the first case)."""
    from monitor import politeness
    from monitor.canonical import host_of

    tunables(**{**ENV, "WIMS_POLITENESS_MAX_WAIT": max_wait})
    site = register(demo, "healthwatch")
    sources = source_paths(site)
    host = host_of(site.home_url)
    outcomes = []
    for _ in range(3 * len(sources)):
        outcome = services.poll_site(site.pk)
        outcomes.append(outcome)
        if outcome.result == "polled":
            break
        # a fetch worker takes each fetch at once: its slot is reserved (and held) before the continuation is due
        for _fetch in [task for task in outcome.enqueue if task[0] == "fetch" and fetches]:
            politeness.take_turn(host)
        [(name, pk, countdown)] = [task for task in outcome.enqueue if task[0] == "poll"]
        time.sleep(countdown + late)
    assert [o.result for o in outcomes] == ["deferred"] * len(sources) + ["polled"], [o.detail for o in outcomes]
    log = paths(demo, "healthwatch")
    assert sorted(p for p in log if p in sources) == sorted(sources), "every source read once"
    stamps = sorted(r["time"] for r in request_log(demo, "healthwatch"))
    assert min(b - a for a, b in zip(stamps, stamps[1:], strict=False)) >= DELAY - 0.1, "as polite as before"
