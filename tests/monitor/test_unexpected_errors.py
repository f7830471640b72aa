"""An error nobody foresaw (a bug, input no test imagined) in a poll, fetch or processing: the row is failed
with the real message and freed, the site's health records it; nothing waits in a working state for its
lease to run out (quarantined after the last attempt). The errors are injected by replacing one inner step."""

import pytest

import filters
from monitor import services
from monitor.models import Article, Site
from processing import services as processing
from tests.monitor.conftest import register, run_tasks

pytestmark = pytest.mark.django_db(transaction=True)


def boom(*args, **kwargs):
    raise RuntimeError("something nobody foresaw")


def test_an_unexpected_error_in_a_poll_is_recorded_in_the_site_health(demo, fast_env, monkeypatch):
    site = register(demo, "healthwatch")
    monkeypatch.setattr(services, "create_pending", boom)
    outcome = services.poll_site(site.pk)
    site.refresh_from_db()
    assert outcome.result == "failed"
    assert site.last_poll_at is not None and site.consecutive_failures == 1
    assert "unexpected error: RuntimeError: something nobody foresaw" in site.last_error


def test_an_unexpected_error_reading_one_source_fails_that_source_only(demo, fast_env, monkeypatch):
    site = register(demo, "healthwatch")  # its section pages, and its feed
    monkeypatch.setattr(services, "links_from_html", boom)
    outcome = services.poll_site(site.pk)
    site.refresh_from_db()
    assert outcome.result == "polled" and outcome.enqueue, "the feed's articles are still found"
    assert site.consecutive_failures == 1 and site.last_success_at is not None
    lines = site.last_error.splitlines()
    assert len(lines) == len(site.watched_urls)
    assert all(line.endswith(": unexpected error: RuntimeError: something nobody foresaw") for line in lines)


def test_an_unexpected_error_in_a_fetch_fails_the_article_with_its_message(demo, fast_env, monkeypatch):
    site = register(demo, "healthwatch")
    first, *_rest = services.poll_site(site.pk).enqueue
    monkeypatch.setattr(services, "_store_page", boom)
    [(_, pk, fetched)] = run_tasks([first])
    assert fetched.result == "failed"
    article = Article.objects.get(pk=pk)
    assert (article.state, article.lease_until) == ("failed", None)
    assert article.last_error == "unexpected error: RuntimeError: something nobody foresaw"


def test_an_unexpected_error_in_processing_fails_the_article_with_its_message(demo, fast_env, monkeypatch):
    site = register(demo, "healthwatch")
    first, *_rest = services.poll_site(site.pk).enqueue
    [(_, pk, fetched)] = run_tasks([first], only=("fetch",))
    assert fetched.result == "fetched"
    monkeypatch.setattr(filters, "extract", boom)
    assert processing.process_article(pk).result == "failed"
    article = Article.objects.get(pk=pk)
    assert (article.state, article.lease_until) == ("failed", None)
    assert article.last_error == "unexpected error: RuntimeError: something nobody foresaw"
    assert Site.objects.get(pk=site.pk).consecutive_failures == 0, "one bad article is not a failing site"
