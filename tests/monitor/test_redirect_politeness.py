"""A redirect to the same host with production politeness (delay longer than the maximum wait): the redirect
hop waits for its slot instead of deferring the fetch, which would start again at the first hop for ever."""

import time

import pytest

from monitor import services
from monitor.models import Article, Site

pytestmark = pytest.mark.django_db(transaction=True)


PAGE = b"<html><head><title>Moved</title></head><body><p>The article, at its new address.</p></body></html>"


def test_a_same_host_redirect_is_followed_when_the_delay_exceeds_the_maximum_wait(scripted, settings):
    scripted.routes["/old"] = (301, [("Location", "/new")], b"")
    scripted.routes["/new"] = (200, [("Content-Type", "text/html; charset=utf-8")], PAGE)
    server = scripted.base
    settings.WIMS_POLITENESS_DELAY = 0.6
    settings.WIMS_POLITENESS_MAX_WAIT = 0.1
    settings.WIMS_RETRY_BASE = 0.1
    site = Site.objects.create(name="Moved", home_url=server + "/", allow_private_addresses=True)
    article = Article.objects.create(site=site, url=server + "/old")
    results = []
    for _ in range(6):
        outcome = services.fetch_article(article.pk)
        results.append(outcome.result)
        if outcome.result != "deferred":
            break
        # the task's result line says why once ("deferred deferred for 2.0s" before)
        assert outcome.detail.startswith("the host is busy: again in "), outcome.detail
        [(_, _, countdown)] = outcome.enqueue
        time.sleep(countdown)  # what the re-queued task's countdown does
    assert results[-1] == "fetched", results
    # robots.txt, then one fetch that follows the redirect after waiting for its slot (never /old again)
    assert scripted.requests == ["/robots.txt", "/old", "/new"], scripted.requests
    assert Article.objects.get(pk=article.pk).final_url == server + "/new"
