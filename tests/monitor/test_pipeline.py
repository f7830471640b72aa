"""End to end with real Celery workers: the demo sites are polled, new articles fetched, filtered and
classified (a case with suggested folders), and articles published later are found by the next poll."""

import pytest

import filters
from classifier.models import Case, Classification
from filters.metrics import shingle_scores
from monitor.models import Article, FetchAttempt, Site
from tests.monitor.conftest import (
    FAST_ENV,
    TERMINAL,
    ground_truth,
    register,
    request_log,
    run_until,
    seed_rule,
    special_report,
)

KEYS = ("healthwatch", "courier", "wellbeing")


def processed_urls() -> set[str]:
    return set(Article.objects.filter(state="processed").values_list("url", flat=True))


def kept_out_urls() -> set[str]:
    return set(Article.objects.filter(state="not_article").values_list("url", flat=True))


@pytest.mark.worker
def test_new_articles_are_found_fetched_and_classified(demo, start_worker, fast_env):
    folder, rule = seed_rule("diabetes", "Health/Diabetes")
    for key in KEYS:
        register(demo, key)
    start_worker(concurrency=4, pool="threads", extra_env=FAST_ENV)

    truth = {url: item for key in KEYS for url, item in ground_truth(demo, key).items()}
    assert len(truth) == 12
    # and the special reports: lists of stories at a story's address, fetched and kept out as listings
    reports = {url for key in KEYS for url in special_report(demo, key)}
    run_until(
        lambda: set(truth) <= processed_urls() and reports <= kept_out_urls(),
        message="the 12 published articles and the 2 special reports",
    )

    # An article published later is found by the next poll, wherever it appears on the page.
    new = {key: demo.publish(key) for key in KEYS}
    Site.objects.exclude(name="Seed").update(next_poll_at=None)  # due now, as after the poll interval
    truth = {url: item for key in KEYS for url, item in ground_truth(demo, key).items()}
    assert len(truth) == 15
    run_until(lambda: set(truth) <= processed_urls(), message="the 3 new articles")

    # one row per article and special report (a listing at a story's address, kept out), nothing else (no section
    # pages, no /private/)
    assert len(reports) == 2 and Article.objects.filter(url__in=reports).count() == 2
    webmon = Article.objects.exclude(site__name="Seed").exclude(url__in=reports)
    assert webmon.count() == 15, "one row per article, nothing else (no section pages, no /private/)"
    assert not webmon.exclude(state__in=TERMINAL).exists()
    for article in webmon:
        expected = truth[article.url]
        # WebMon stores what the filters make of the stored page (filter quality is tested in tests/filters).
        assert article.content.core_text == filters.extract(article.get_raw_html(), profile="default").body
        score = shingle_scores(article.content.core_text, expected["core_text"])
        assert score.recall > 0.75, (article.url, score)
        assert article.get_raw_html() and article.raw_size > len(article.get_raw_html()) // 10
        assert article.charset and article.headers.get("content-type", "").startswith("text/html")
        case = Case.objects.get(article=article)
        assert case.keywords
    # Suggested folders: the rule "diabetes -> Health/Diabetes" fired on the diabetes articles.
    diabetic = [a for a in webmon if "diabetes" in a.content.tokens]
    assert diabetic
    for article in diabetic:
        assert Classification.objects.filter(
            case__article=article, folder=folder, rule=rule, state="suggested"
        ).exists()
    assert {n.slug for n in new.values() if n} <= {
        a.url.rstrip("/").rsplit("/", 1)[-1].removesuffix(".html").split("=")[-1] for a in webmon
    }

    # Health view data, and an honest User-Agent on every request.
    for site in Site.objects.exclude(name="Seed"):
        assert site.last_success_at and site.consecutive_failures == 0 and not site.last_error
        assert site.next_poll_at is not None
    for key in KEYS:
        log = request_log(demo, key)
        assert log and all(r["user_agent"].startswith("WIMS/") and "(+http" in r["user_agent"] for r in log)
        assert not [r for r in log if r["path"].startswith("/private/")]
        assert any(r["if_none_match"] for r in log), "the second poll sends its validators (conditional GET)"
    bad = FetchAttempt.objects.filter(outcome__in=["failed", "retry"])
    assert not bad.exists(), [(a.kind, a.url, a.error) for a in bad]
