"""A page that answers 404 or 410 although its link was listed within a day is asked for again before the
error is final (sites list a link before the page is up, or take a page down for a while); an old link's
404 is final at once."""

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from monitor import services
from monitor.models import Article, Site

pytestmark = pytest.mark.django_db(transaction=True)

PAGE = b"<html><head><title>Late</title></head><body><p>The page is up now, a little late.</p></body></html>"


@pytest.fixture
def site(scripted, fast_env):
    return Site.objects.create(name="Late", home_url=scripted.base + "/", allow_private_addresses=True)


def test_a_just_listed_page_that_is_missing_at_first_is_fetched_when_it_appears(scripted, site):
    scripted.routes["/late"] = (404, [], b"")
    article = Article.objects.create(site=site, url=scripted.base + "/late")
    first = services.fetch_article(article.pk)
    assert first.result == "retry" and Article.objects.get(pk=article.pk).state == "pending"
    [(_, _, delay)] = first.enqueue
    assert 0.1 < delay < 1.0  # WIMS_MISSING_PAGE_DELAY=0.2 in the tests; 15 minutes by default
    scripted.routes["/late"] = (200, [("Content-Type", "text/html")], PAGE)
    time.sleep(delay)
    assert services.fetch_article(article.pk).result == "fetched"


def test_a_missing_page_gives_up_after_its_attempts_and_an_old_link_at_once(scripted, site):
    article = Article.objects.create(site=site, url=scripted.base + "/gone")
    results = []
    for _ in range(5):
        outcome = services.fetch_article(article.pk)
        results.append(outcome.result)
        if outcome.result != "retry":
            break
        time.sleep(outcome.enqueue[0][2])
    assert results == ["retry", "retry", "failed"]  # WIMS_MISSING_PAGE_ATTEMPTS=3 in the tests
    assert Article.objects.get(pk=article.pk).last_error == "gave up after 3 attempts: HTTP 404"

    old = Article.objects.create(site=site, url=scripted.base + "/old")
    Article.objects.filter(pk=old.pk).update(collected_at=timezone.now() - timedelta(days=2))
    assert services.fetch_article(old.pk).result == "failed"
    assert Article.objects.get(pk=old.pk).last_error == "HTTP 404"
