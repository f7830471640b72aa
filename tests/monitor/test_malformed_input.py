"""Malformed input from a site gets a clear, recorded error and never an uncaught exception (issue: a
redirect to a port out of range, numbers in non-ASCII digits, a Retry-After in the year 9999)."""

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from monitor import net, services
from monitor.models import Article, Host, Site

pytestmark = pytest.mark.django_db(transaction=True)

PAGE = b"<html><head><title>A page</title></head><body><p>Some text of an article, long enough.</p></body></html>"
HTML = ("Content-Type", "text/html; charset=utf-8")


def test_retry_after_in_odd_forms_is_capped_or_ignored():
    assert net.parse_retry_after("\u00b2") is None  # "²".isdigit() is True; float() refuses it
    assert net.parse_retry_after("Fri, 31 Dec 9999 23:59:59 GMT", now=0.0) == net.MAX_RETRY_AFTER
    assert net.parse_retry_after("99999999999999999999") == net.MAX_RETRY_AFTER
    assert net.parse_retry_after("120") == 120.0


@pytest.fixture
def site(scripted, fast_env):
    return Site.objects.create(name="Odd", home_url=scripted.base + "/", allow_private_addresses=True)


def fetch(site, path):
    article = Article.objects.create(site=site, url=site.home_url.rstrip("/") + path)
    outcome = services.fetch_article(article.pk)
    article.refresh_from_db()
    return outcome, article


def test_a_redirect_to_a_port_out_of_range_fails_the_article_with_the_reason(scripted, site):
    scripted.routes["/a"] = (302, [("Location", "http://h:99999/")], b"")
    outcome, article = fetch(site, "/a")
    assert (outcome.result, article.state, article.lease_until) == ("failed", "failed", None)
    assert "invalid URL" in article.last_error and "99999" in article.last_error


def test_a_content_length_in_non_ascii_digits_is_ignored_and_the_page_read(scripted, site):
    scripted.routes["/b"] = (200, [HTML, ("Content-Length", "\u00b2")], PAGE)
    outcome, article = fetch(site, "/b")
    # http.client reads the body to the connection's end when the length is unreadable
    assert (outcome.result, article.state) == ("fetched", "fetched"), article.last_error
    assert article.get_raw_html() == PAGE


def test_a_retry_after_in_the_year_9999_slows_the_host_down_a_day_at_most(scripted, site):
    scripted.routes["/c"] = (503, [("Retry-After", "Fri, 31 Dec 9999 23:59:59 GMT")], b"")
    outcome, article = fetch(site, "/c")
    assert (outcome.result, article.state) == ("retry", "pending")
    assert article.due_at <= timezone.now() + timedelta(days=1.1, minutes=5)  # a day, plus up to 10 % jitter
    host = Host.objects.get(name="127.0.0.1")
    assert host.next_request_at <= timezone.now().timestamp() + 24 * 3600 + 60


def test_a_retry_after_holds_back_the_sources_preview_too(scripted, site):
    """The preview's requests take turns in a lane of their own (politeness.preview_lane): a host's Retry-After
    must reach that lane too, or an administrator's preview asks again 0.3 s after the host said to wait."""
    from monitor import politeness, previews

    scripted.routes["/d"] = (429, [("Retry-After", "600")], b"")
    outcome, _article = fetch(site, "/d")
    assert outcome.result == "retry"
    with pytest.raises(net.Deferred) as deferred:
        politeness.wait_turn("127.0.0.1", delay=0.3)
    assert deferred.value.delay > 500
    # the preview says so at once, rather than sleeping 600 s in a request (or answering 500)
    began = time.monotonic()
    proposal, _found_at = previews.preview(site, again=True)
    assert time.monotonic() - began < 5
    assert proposal.sources == [] and "asked WIMS to wait (Retry-After)" in proposal.notes[0]


@pytest.mark.parametrize("label", ["utf-16", "UTF-16LE", "utf-16be"])
def test_a_page_in_utf16_declared_by_the_header_is_fetched_and_read(scripted, site, label):
    """UTF-16 without a BOM is half NUL bytes: only the header's charset tells it from binary data."""
    from processing.services import process_article

    codec = "utf-16-le" if label.lower() in ("utf-16", "utf-16le") else "utf-16-be"
    text = "<html><head><title>Grippe</title></head><body><p>La grippe saisonnière arrive tôt cette année.</p>"
    scripted.routes["/u"] = (200, [("Content-Type", f"text/html; charset={label}")], text.encode(codec))
    outcome, article = fetch(site, "/u")
    assert (outcome.result, article.state) == ("fetched", "fetched"), article.last_error
    process_article(article.pk)
    article.refresh_from_db()
    assert article.state == "processed", article.last_error
    assert "grippe saisonnière arrive tôt" in article.content.core_text


def test_nul_heavy_bytes_with_a_utf8_header_stay_refused_as_binary(scripted, site):
    scripted.routes["/n"] = (200, [HTML], b"<p>" + b"\x00\x01" * 4000)
    outcome, article = fetch(site, "/n")
    assert (outcome.result, article.state) == ("failed", "failed")
    assert "control bytes" in article.last_error
