"""/metrics follows the real pipeline: a poll of a demo site, its articles fetched and processed (in this process,
as the workers' tasks do it), move the fetch and processing counts and the articles' states; a page refused at
the door counts by its reason."""

import pytest

from monitor import services
from monitor.models import Article, FetchAttempt
from processing.services import process_article
from tests.metrics import key, scrape
from tests.monitor.conftest import register, run_tasks, special_report

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_poll_its_fetches_and_processing_move_the_counts(demo, fast_env, client):
    site = register(demo, "healthwatch")
    before = scrape(client)
    ran = run_tasks(services.poll_site(site.pk))
    after = scrape(client)

    def moved(name: str, **labels: str) -> float:
        return after.get(key(name, **labels), 0) - before.get(key(name, **labels), 0)

    # the four stories and the special report (a listing at a story's address, kept out once processed)
    assert sorted(o.result for _, _, o in ran) == ["fetched"] * 5 + ["not_article"] + ["processed"] * 4
    fetches = FetchAttempt.objects.filter(site=site)
    # every request of the fetch log is counted, by kind and outcome, and timed
    for kind, outcome in set(fetches.values_list("kind", "outcome")):
        assert (
            moved("wims_fetches_total", kind=kind, outcome=outcome)
            == fetches.filter(kind=kind, outcome=outcome).count()
        )
    assert moved("wims_fetches_total", kind="article", outcome="ok") == 5
    assert moved("wims_fetch_duration_seconds_count", kind="article") == 5
    assert moved("wims_fetch_duration_seconds_bucket", kind="article", le="+Inf") == 5
    assert moved("wims_fetch_duration_seconds_sum", kind="article") > 0
    assert moved("wims_processing_duration_seconds_count", outcome="processed") == 4
    assert moved("wims_processing_duration_seconds_sum", outcome="processed") > 0
    assert after[key("wims_articles", state="processed")] == 4
    assert after[key("wims_articles", state="not_article")] == len(special_report(demo, "healthwatch")) == 1
    assert after[key("wims_articles", state="queued")] == 0
    assert after[key("wims_oldest_overdue_article_age_seconds")] == 0

    # the same article again: not claimed, so not processed, and not timed
    process_article(Article.objects.filter(site=site, state="processed").first().pk)
    assert (
        scrape(client)[key("wims_processing_duration_seconds_count", outcome="processed")]
        == after[key("wims_processing_duration_seconds_count", outcome="processed")]
    )


def test_a_page_refused_at_the_door_counts_by_its_reason(demo, fast_env, client):
    site = register(demo, "healthwatch")
    article = Article(site=site, url=demo.base_url("healthwatch") + "bomb", state=Article.State.FETCHED)
    article.set_raw_html(b"<html><body>" + b"<div>" * 3000 + b"deep</body></html>")
    article.headers = {"content-type": "text/html; charset=utf-8"}
    article.save()
    binary = Article(site=site, url=demo.base_url("healthwatch") + "binary", state=Article.State.FETCHED)
    binary.set_raw_html(bytes(range(256)) * 40)
    binary.save()
    deep, not_html = (
        key("wims_extraction_refusals_total", reason="too_deep"),
        key("wims_extraction_refusals_total", reason="not_html"),
    )
    before = scrape(client)
    assert process_article(article.pk).result == "failed"
    assert process_article(binary.pk).result == "failed"
    after = scrape(client)
    assert after[deep] - before.get(deep, 0) == 1
    assert after[not_html] - before.get(not_html, 0) == 1
    assert after[key("wims_processing_duration_seconds_count", outcome="failed")] >= 2
