"""Every fault switch of the demo sites, against a real Celery worker: the right retry or the right recorded
error, and nothing lost: every article that can be fetched ends up processed, exactly once."""

from urllib.parse import urlsplit

import pytest

from classifier.models import Case
from demo.faults import WRONG_CHARSET_TEXT
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

KEYS = ("healthwatch", "courier", "wellbeing")

# (site, index of the published article, fault switch parameters, expected end state, attempts, error text)
# Courier's article URLs all share the path /story.php, and switches match paths, so the faults go to the
# other two sites (six articles each); Courier's articles are the control group.
FAULTS = [
    ("healthwatch", 0, {"mode": "slow", "seconds": "5", "count": "1"}, "processed", 2, "timeout"),
    ("healthwatch", 1, {"mode": "500", "count": "2"}, "processed", 3, "HTTP 500"),
    ("healthwatch", 2, {"mode": "429", "retry_after": "2", "count": "1"}, "processed", 2, "HTTP 429"),
    ("healthwatch", 3, {"mode": "reset", "count": "1"}, "processed", 2, "connection"),
    (
        "healthwatch",
        4,
        {"mode": "503", "retry_after": "1", "retry_after_as": "date", "count": "1"},
        "processed",
        2,
        "HTTP 503",
    ),
    ("healthwatch", 5, {"mode": "redirect-loop", "count": "all"}, "failed", 1, "redirect"),
    ("wellbeing", 0, {"mode": "huge", "count": "all"}, "failed", 1, "cap"),
    ("wellbeing", 1, {"mode": "binary", "count": "all"}, "failed", 1, "not an HTML page"),
    # a missing page whose link was just listed is asked for again before the 404 or 410 is final
    (
        "wellbeing",
        2,
        {"mode": "404", "count": "all"},
        "failed",
        int(FAST_ENV["WIMS_MISSING_PAGE_ATTEMPTS"]),
        "HTTP 404",
    ),
    (
        "wellbeing",
        3,
        {"mode": "410", "count": "all"},
        "failed",
        int(FAST_ENV["WIMS_MISSING_PAGE_ATTEMPTS"]),
        "HTTP 410",
    ),
    ("wellbeing", 4, {"mode": "wrong-charset", "declared": "utf-8", "count": "all"}, "processed", 1, ""),
    (
        "wellbeing",
        5,
        {"mode": "500", "count": "all"},
        "failed",
        int(FAST_ENV["WIMS_MAX_FETCH_ATTEMPTS"]),
        "gave up after",
    ),
]


@pytest.mark.worker
def test_each_fault_gives_the_right_retry_or_recorded_error(demo, start_worker, fast_env):
    sites = {key: register(demo, key) for key in KEYS}
    for key in ("healthwatch", "wellbeing"):
        demo.publish(key)
        demo.publish(key)
    urls = {key: sorted(ground_truth(demo, key)) for key in KEYS}
    expected = {}
    for key, index, params, state, attempts, error in FAULTS:
        url = urls[key][index]
        control(demo, key, "POST", "fault", path_prefix=urlsplit(url).path, **params)
        expected[url] = (params["mode"], state, attempts, error)
    # The fixed fault pages too: a page whose bytes are not in the declared charset, both ways round.
    fixed = {}
    for declared in ("utf-8", "windows-1252"):
        url = demo.url("wellbeing", f"/fault/wrong-charset?declared={declared}")
        fixed[url] = Article.objects.create(site=sites["wellbeing"], url=url).pk

    start_worker(concurrency=4, pool="threads", extra_env=FAST_ENV)
    # the special reports too: lists of stories at a story's address, fetched and kept out
    reports = {url for key in KEYS for url in special_report(demo, key)}
    everything = set(expected) | set(fixed) | set(urls["courier"]) | reports
    run_until(
        lambda: set(Article.objects.filter(state__in=TERMINAL).values_list("url", flat=True)) >= everything,
        timeout=120,
        message="every faulty article to reach a final state",
    )

    assert Article.objects.count() == len(everything), "nothing lost, nothing duplicated"
    assert set(Article.objects.filter(url__in=reports).values_list("state", flat=True)) == {"not_article"}
    assert set(Article.objects.filter(url__in=urls["courier"], state="processed").values_list("url", flat=True)) == set(
        urls["courier"]
    )
    for url, (mode, state, attempts, error) in expected.items():
        _assert_attempts(url, mode, state, attempts, error)
    _assert_retry_timing_and_caps(demo, urls, attempts_of_500=expected[urls["wellbeing"][5]][2])
    _assert_wrong_charsets_read_right(fixed)
    # One broken article never stops the rest of its site: every site was polled fine.
    for site in Site.objects.all():
        assert site.consecutive_failures == 0 and site.last_success_at


def _assert_attempts(url: str, mode: str, state: str, attempts: int, error: str) -> None:
    """The article of a faulty page ended in ``state`` after ``attempts`` fetches, each logged, with ``error``."""
    article = Article.objects.get(url=url)
    log = FetchAttempt.objects.filter(article=article, kind="article").order_by("started_at", "id")
    outcomes = [a.outcome for a in log]
    assert article.state == state, (mode, article.state, article.last_error, outcomes)
    assert article.fetch_attempts == attempts, (mode, outcomes)
    assert len(log) == attempts and all(a.duration_ms >= 0 for a in log), mode
    if state == "processed":
        assert outcomes == ["retry"] * (attempts - 1) + ["ok"], (mode, outcomes)
        assert Case.objects.filter(article=article).count() == 1
        if attempts > 1:
            assert error.lower() in log[0].error.lower(), (mode, log[0].error)
    else:
        assert error.lower() in article.last_error.lower(), (mode, article.last_error)
        assert not Case.objects.filter(article=article).exists()
        if attempts == 1:
            assert outcomes == ["failed"], (mode, outcomes)  # permanent: recorded, not retried
        else:
            assert outcomes == ["retry"] * (attempts - 1) + ["failed"], (mode, outcomes)


def _assert_retry_timing_and_caps(demo, urls: dict[str, list[str]], attempts_of_500: int) -> None:
    def times(key, url):
        return [r["time"] for r in request_log(demo, key, urlsplit(url).path)]

    # Retry-After is honoured (2 s as seconds, 1 s as an HTTP date, whole-second resolution).
    first, second = times("healthwatch", urls["healthwatch"][2])
    assert second - first >= 2.0
    first, second = times("healthwatch", urls["healthwatch"][4])
    assert second - first >= 0.9
    # Exponential backoff: gap n is at least base * 2**(n-1) * 0.5 (the low end of the jitter); queueing
    # adds to it. (The growth itself is checked without a worker in test_units.py.)
    stamps = times("wellbeing", urls["wellbeing"][5])
    gaps = [b - a for a, b in zip(stamps, stamps[1:], strict=False)]
    base = float(FAST_ENV["WIMS_RETRY_BASE"])
    assert len(stamps) == attempts_of_500
    assert all(gap >= base * 2**n * 0.5 for n, gap in enumerate(gaps)), gaps
    # The redirect loop is cut at the redirect cap, and the 50 MB body at the size cap.
    loop = request_log(demo, "healthwatch", "/")
    assert 2 <= len([r for r in loop if r["fault"] == "redirect-loop"]) <= 1 + 5
    huge = FetchAttempt.objects.get(article__url=urls["wellbeing"][0])
    assert huge.bytes <= 2 * int(FAST_ENV["WIMS_MAX_BYTES"]), "refused from Content-Length or cut at the cap"
    assert "50000000 bytes exceeds" in huge.error or "52428800 bytes exceeds" in huge.error or "cap" in huge.error


def _assert_wrong_charsets_read_right(fixed: dict[str, int]) -> None:
    """Wrong declared charsets are read right; both pages then hold the same core text: the second is linked to
    the first as a re-publication."""
    pages = [Article.objects.get(url=url) for url in fixed]
    for article in pages:
        assert WRONG_CHARSET_TEXT in " ".join(article.content.core_text.split()), article.content.core_text
    original, copy = sorted(pages, key=lambda a: a.state != "processed")
    assert (original.state, copy.state, copy.duplicate_of) == ("processed", "duplicate", original)
    assert Case.objects.filter(article=original).exists() and not Case.objects.filter(article=copy).exists()
