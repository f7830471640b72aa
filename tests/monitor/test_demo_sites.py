"""The demo news sites: article pool, templates, publication over time, control endpoints, fault switches.

Plain pytest, no database: every test that needs HTTP starts its own DemoServer on a free port.
"""

from __future__ import annotations

import gzip
import itertools
import json
import re
import subprocess
import sys
import time
from collections import Counter
from datetime import datetime
from email.utils import parsedate_to_datetime
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import feedparser
import lxml.html
import pytest
import requests

from demo import (
    ARTICLES,
    DEMO_SITES,
    FAULT_MODES,
    TOPICS,
    DemoServer,
    articles_for_site,
    get_site,
    render_article_page,
    render_home_page,
    render_section_page,
    synthetic_sites,
)
from demo.editions import BACKGROUND_HEADINGS, MONTHS, VOCABULARY, angle_of, edition
from demo.faults import HUGE_BYTES, WRONG_CHARSET_TEXT
from demo.timeline import SiteState
from filters.docview import NEAR_DUPLICATE, fingerprint, resemblance

T = 5  # request timeout (s)
UA = "WIMS-test/1.0 (+https://example.org/wims)"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def server():
    with DemoServer(port=0, interval=None) as srv:
        yield srv


@pytest.fixture
def http():
    with requests.Session() as session:
        session.headers["User-Agent"] = UA
        yield session


def norm(text: str) -> str:
    return " ".join(text.split())


def page_text(html: str | bytes) -> str:
    return norm(lxml.html.fromstring(html).text_content())


def links(html: str | bytes) -> list[str]:
    return [a.get("href") for a in lxml.html.fromstring(html).iter("a") if a.get("href")]


def control(http, srv, key, name, method="GET", **params):
    resp = http.request(method, srv.url(key, "/_control/" + name), params=params, timeout=T)
    return resp


# ------------------------------------------------------------------------------------------------
# The article pool
# ------------------------------------------------------------------------------------------------


def test_pool_has_enough_labelled_articles_of_the_right_length():
    assert len(ARTICLES) >= 45
    for site in DEMO_SITES:
        assert len(site.articles) >= 15
    assert len({(a.site, a.slug) for a in ARTICLES}) == len(ARTICLES)
    for a in ARTICLES:
        assert 120 <= a.word_count <= 300, (a.slug, a.word_count)
        assert 1 <= len(a.topics) <= 3 and set(a.topics) <= set(TOPICS), a.slug
        assert a.title and a.standfirst and 2 <= sum(b.kind == "p" for b in a.blocks) <= 6, a.slug
    assert sum(len(a.topics) == 2 for a in ARTICLES) >= 10
    per_topic = Counter(t for a in ARTICLES for t in a.topics)
    assert all(per_topic[t] >= 3 for t in TOPICS), per_topic


def test_pool_has_short_subheadings_and_list_items():
    headings = [b.text for a in ARTICLES for b in a.blocks if b.kind in ("h2", "h3")]
    with_lists = [a for a in ARTICLES if any(b.items for b in a.blocks)]
    assert len({a.slug for a in ARTICLES if any(b.kind in ("h2", "h3") for b in a.blocks)}) >= 10
    assert len(with_lists) >= 15
    assert all(len(h) < 20 for h in headings), [h for h in headings if len(h) >= 20]
    items = [i for a in with_lists for b in a.blocks for i in b.items]
    assert sum(len(i.split()) <= 4 for i in items) >= 20  # the short core phrases filters must keep


def test_core_text_is_one_phrase_per_line_in_order():
    a = ARTICLES[0]
    lines = a.core_text.split("\n")
    assert lines[0] == a.title and lines[1] == a.standfirst
    assert lines == a.core_lines() and all(line.strip() == line and line for line in lines)


# ------------------------------------------------------------------------------------------------
# Pure rendering and templates
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("article", ARTICLES, ids=lambda a: f"{a.site}:{a.slug}")
def test_every_core_phrase_appears_in_its_page(article):
    html = render_article_page(article.site, article.slug)
    text = page_text(html)
    for phrase in article.core_lines():
        assert norm(phrase) in text, phrase
    doc = lxml.html.fromstring(html)
    canonical = doc.xpath('//link[@rel="canonical"]/@href')
    site = get_site(article.site)
    assert canonical and canonical[0].startswith(site.base_url())


def test_rendering_is_deterministic_and_base_url_is_honoured():
    a = articles_for_site("wellbeing")[3]
    assert render_article_page("wellbeing", a.slug) == render_article_page("wellbeing", a.slug)
    html = render_article_page("wellbeing", a.slug, base_url="http://example.test")
    assert f'<link rel="canonical" href="http://example.test/{a.section}/{a.slug}/">' in html
    with pytest.raises(KeyError):
        render_article_page("wellbeing", "no-such-story")
    with pytest.raises(KeyError):
        render_section_page("courier", "mind")


def _tag_paths(html: str) -> set[str]:
    doc = lxml.html.fromstring(html)
    return {"/".join(el.tag for el in reversed([e, *e.iterancestors()])) for e in doc.iter() if isinstance(e.tag, str)}


def test_the_three_templates_differ():
    pages = {s.key: render_article_page(s.key, s.articles[0].slug) for s in DEMO_SITES}
    docs = {k: lxml.html.fromstring(v) for k, v in pages.items()}
    assert docs["courier"].xpath("count(//table)") >= 5 and not docs["healthwatch"].xpath("//table")
    assert docs["wellbeing"].xpath("//main//article") and not docs["healthwatch"].xpath("//article")
    assert not docs["courier"].xpath("//article") and docs["healthwatch"].xpath("count(//div)") >= 30
    paths = {k: _tag_paths(v) for k, v in pages.items()}
    for a, b in [("healthwatch", "courier"), ("healthwatch", "wellbeing"), ("courier", "wellbeing")]:
        jaccard = len(paths[a] & paths[b]) / len(paths[a] | paths[b])
        assert jaccard < 0.4, (a, b, jaccard)


@pytest.mark.parametrize("site", DEMO_SITES, ids=lambda s: s.key)
def test_each_template_carries_the_usual_noise(site):
    html = render_article_page(site.key, site.articles[0].slug)
    doc = lxml.html.fromstring(html)
    low = html.lower()
    assert doc.xpath("//select/option")  # jump menu
    assert doc.xpath("//script[@src]") and doc.xpath("//script[not(@src)]")  # external and inline JS
    assert "onclick=" in low and "<!--" in html  # onclick handlers and comments
    assert "advertisement" in low or "sponsored" in low
    assert "cookie" in low and "privacy" in low and "&copy;" in html
    assert re.search(r"newsletter|bulletin|wellbeing edit", low)
    assert re.search(r"related stories|you might also like", low)
    assert doc.xpath("//form//input")  # newsletter / poll forms
    assert "facebook" in low or "print this story" in low  # share buttons
    assert doc.xpath('//link[@rel="canonical"]')


def test_wellbeing_links_carry_tracking_parameters_and_fragments():
    html = render_home_page("wellbeing")
    hrefs = links(html)
    tracked = [h for h in hrefs if "utm_source=" in h]
    assert len(tracked) >= 10
    assert any("#comments" in h for h in hrefs)
    assert not [h for h in links(render_home_page("healthwatch")) if "utm_" in h]
    article = articles_for_site("wellbeing")[0]
    canonical = lxml.html.fromstring(render_article_page("wellbeing", article.slug)).xpath(
        '//link[@rel="canonical"]/@href'
    )[0]
    assert "utm_" not in canonical and "#" not in canonical


def test_synthetic_sites_have_distinct_loopback_addresses_and_distinct_text():
    sites = list(synthetic_sites(1000))
    assert len({s.address for s in sites}) == 1000 and len({s.key for s in sites}) == 1000
    assert all(s.address.startswith("127.") and not s.address.endswith((".0", ".255")) for s in sites)
    assert {s.template for s in sites} == {"healthwatch", "courier", "wellbeing"}
    assert sites[0].articles[0].core_text != sites[3].articles[0].core_text  # not exact re-publications
    with pytest.raises(ValueError):
        next(synthetic_sites(1, "10.0.0.1"))


# ------------------------------------------------------------------------------------------------
# Serving: pages, robots, feed
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("site", DEMO_SITES, ids=lambda s: s.key)
def test_site_serves_home_sections_articles_and_robots(server, http, site):
    base = server.base_url(site.key)
    assert base.startswith(f"http://{site.address}:{server.port}")
    home = http.get(base + "/", timeout=T)
    assert home.status_code == 200 and home.headers["Content-Type"] == "text/html; charset=utf-8"
    robots = http.get(base + "/robots.txt", timeout=T)
    assert robots.headers["Content-Type"].startswith("text/plain") and "Disallow: /private/" in robots.text
    private = [h for h in links(home.content) if "/private/" in h]
    assert private, "home links to a page under /private/"
    assert http.get(base + urlsplit(private[0]).path, timeout=T).status_code == 200

    info = control(http, server, site.key, "site.json").json()
    published = control(http, server, site.key, "articles.json").json()["articles"]
    assert len(published) == 4
    for section_url in info["sections"]:
        page = http.get(section_url, timeout=T)
        assert page.status_code == 200 and page.headers["Content-Type"].startswith("text/html")
    for entry in published:
        page = http.get(entry["url"], timeout=T)
        assert page.status_code == 200
        text = page_text(page.content)
        assert all(norm(line) in text for line in entry["core_text"].split("\n"))
        canonical = lxml.html.fromstring(page.content).xpath('//link[@rel="canonical"]/@href')[0]
        assert canonical == entry["url"]
    # an article of the pool that is not yet published is not served
    unpublished = site.articles[4]
    from demo.sites import template_for

    assert http.get(base + template_for(site).article_path(unpublished), timeout=T).status_code == 404
    assert http.get(base + "/no/such/page.html", timeout=T).status_code == 404


def test_feed_is_valid_rss_newest_first(server, http):
    for _ in range(3):
        server.publish("healthwatch")
    resp = http.get(server.url("healthwatch", "/rss.xml"), timeout=T)
    assert resp.headers["Content-Type"] == "application/rss+xml; charset=utf-8"
    feed = feedparser.parse(resp.content)
    assert not feed.bozo, feed.get("bozo_exception")
    assert feed.version == "rss20" and feed.feed.title == "Health Watch Daily"
    published = control(http, server, "healthwatch", "articles.json").json()["articles"]
    assert [e.link for e in feed.entries] == [a["url"] for a in published]
    dates = [datetime(*e.published_parsed[:6]) for e in feed.entries]
    assert dates == sorted(dates, reverse=True) and len(set(dates)) == len(dates)
    # only one of the three sites has a feed
    assert http.get(server.url("courier", "/rss.xml"), timeout=T).status_code == 404


def test_section_pages_list_newest_first_with_pagination(server, http):
    while len(server.published("courier")) < len(get_site("courier").articles) + 3:  # into the second round
        server.publish("courier")
    published = control(http, server, "courier", "articles.json").json()["articles"]
    for section_url in control(http, server, "courier", "site.json").json()["sections"]:
        section = parse_qs(urlsplit(section_url).query)["s"][0]
        expected = [a["slug"] for a in published if a["section"] == section]
        seen, url = [], section_url
        while url:
            page = http.get(url, timeout=T)
            assert page.status_code == 200
            doc = lxml.html.fromstring(page.content)
            seen += [
                parse_qs(urlsplit(h).query)["id"][0]
                for h in doc.xpath('//table[@class="storylist"]//a[contains(@href, "story.php")]/@href')
            ]
            more = doc.xpath('//a[contains(., "More stories")]/@href')
            url = server.url("courier", more[0]) if more else None
        assert seen == expected  # newest first across all pages, nothing lost or repeated
    assert http.get(server.url("courier", "/section.php?s=patients&page=99"), timeout=T).status_code == 404


def test_article_dates_on_pages_are_newest_first(server, http):
    server.publish("wellbeing")
    server.publish("wellbeing")
    doc = lxml.html.fromstring(http.get(server.url("wellbeing", "/"), timeout=T).content)
    stamps = [datetime.fromisoformat(t) for t in doc.xpath("//article[@class='card']//time/@datetime")]
    assert len(stamps) == 6 and stamps == sorted(stamps, reverse=True)


def test_conditional_get_with_etag_and_last_modified(server, http):
    url = server.url("healthwatch", "/rss.xml")
    first = http.get(url, timeout=T)
    etag, modified = first.headers["ETag"], first.headers["Last-Modified"]
    assert http.get(url, headers={"If-None-Match": etag}, timeout=T).status_code == 304
    assert http.get(url, headers={"If-Modified-Since": modified}, timeout=T).status_code == 304
    server.publish("healthwatch")
    again = http.get(url, headers={"If-None-Match": etag}, timeout=T)
    assert again.status_code == 200 and again.headers["ETag"] != etag
    assert parsedate_to_datetime(again.headers["Last-Modified"]) >= parsedate_to_datetime(modified)


def test_host_header_selects_the_site(server, http):
    url = server.url("healthwatch", "/")
    resp = http.get(url, headers={"Host": f"courier.demo.test:{server.port}"}, timeout=T)
    assert "The Clinic Courier" in resp.text
    resp = http.get(url, headers={"Host": f"127.0.0.13:{server.port}"}, timeout=T)
    assert "Wellbeing Times" in resp.text
    assert "Health Watch Daily" in http.get(url, timeout=T).text


# ------------------------------------------------------------------------------------------------
# Publication over time and control endpoints
# ------------------------------------------------------------------------------------------------


def test_publish_control_adds_one_article(server, http):
    before = control(http, server, "wellbeing", "articles.json").json()["articles"]
    resp = control(http, server, "wellbeing", "publish", "POST")
    assert resp.status_code == 200
    new = resp.json()["published"]
    after = control(http, server, "wellbeing", "articles.json").json()["articles"]
    assert len(after) == len(before) + 1 and after[0]["slug"] == new["slug"]
    assert new["slug"] == get_site("wellbeing").articles[len(before)].slug  # deterministic order
    assert set(new) >= {"slug", "url", "title", "topics", "published", "core_text"}
    assert http.get(new["url"], timeout=T).status_code == 200
    assert new["url"].split(str(server.port))[1].split("?")[0] in http.get(server.url("wellbeing", "/")).text
    # other sites are unaffected; reset restores the start state
    assert len(control(http, server, "courier", "articles.json").json()["articles"]) == 4
    assert control(http, server, "wellbeing", "reset", "POST").json()["published"] == 4
    assert len(control(http, server, "wellbeing", "articles.json").json()["articles"]) == 4


def test_sites_keep_publishing_past_the_pool_with_new_urls_and_text(server, http):
    pool = get_site("courier").articles
    while len(server.published("courier")) < len(pool):  # the whole pool, then one more
        server.publish("courier")
    resp = control(http, server, "courier", "publish", "POST")
    assert resp.status_code == 200
    new = resp.json()["published"]
    first = pool[0]  # round two starts again at the top of the pool
    assert new["slug"] == f"{first.slug}-2" and new["title"] != first.title
    # a follow-up of that story (issue 30): it names the story and is written in its topic's words
    assert f"“{first.title}”" in new["core_text"]
    assert any(words in new["core_text"] for words in VOCABULARY[first.topics[0]])
    # a new story, not a near-duplicate: WIMS would mark a text this close to the first one's a re-publication
    assert resemblance(fingerprint(new["core_text"]), fingerprint(first.core_text)) < NEAR_DUPLICATE
    page = http.get(new["url"], timeout=T)
    assert page.status_code == 200 and any(f"<h2>{heading}</h2>" in page.text for heading in BACKGROUND_HEADINGS)
    urls = [a["url"] for a in control(http, server, "courier", "articles.json").json()["articles"]]
    assert len(urls) == len(set(urls)) == len(pool) + 1


#: follow-up rounds with no near-duplicate among them: at one story a minute a site's 16-story pool lasts 16
#: minutes a round, so the demo publishes new stories for 6 hours 40 minutes; from round 25 on, an angle, its
#: wordings and its background paragraph come back (demo/README.md says so)
NEW_ROUNDS = 25


def test_editions_stay_new_stories_for_many_rounds():
    """Every round up to NEW_ROUNDS of the whole pool: no two stories are near-duplicates (a long run shows new
    articles)."""
    signatures = [fingerprint(edition(a, r).core_text) for a in ARTICLES for r in range(NEW_ROUNDS)]
    closest = max(resemblance(a, b) for a, b in itertools.combinations(signatures, 2))
    assert closest < NEAR_DUPLICATE


def test_a_restart_with_a_state_file_keeps_what_was_published(tmp_path):
    """What a site published stays published, under the same URL and date, after the server restarts."""
    now = [1_700_000_000.0]
    state = tmp_path / "demo.json"
    with DemoServer(port=0, interval=60, start_published=2, clock=lambda: now[0], state_file=state) as srv:
        now[0] += 180
        srv.publish("courier")
        before = {key: srv.published(key) for key in srv.sites}
    assert len(before["healthwatch"]) == 5 and len(before["courier"]) == 6
    now[0] += 120  # down for two intervals: a real site published meanwhile
    with DemoServer(port=0, interval=60, start_published=2, clock=lambda: now[0], state_file=state) as srv:
        for key, published in before.items():
            after = srv.published(key)
            assert after[len(after) - len(published) :] == published
            assert len(after) == len(published) + 2
        # without the file the timeline starts afresh
    with DemoServer(port=0, interval=60, start_published=2, clock=lambda: now[0]) as srv:
        assert len(srv.published("courier")) == 2


def test_an_unreadable_state_file_starts_afresh(tmp_path):
    state = tmp_path / "demo.json"
    state.write_text("{not json")
    with DemoServer(port=0, interval=None, start_published=3, state_file=state) as srv:
        assert len(srv.published("wellbeing")) == 3
    assert json.loads(state.read_text())["sites"]["wellbeing"]["next_tick"] is None


def test_articles_appear_on_schedule():
    now = [1_700_000_000.0]
    with DemoServer(port=0, interval=60, start_published=2, clock=lambda: now[0]) as srv:
        assert len(srv.published("healthwatch")) == 2
        now[0] += 59
        assert len(srv.published("healthwatch")) == 2
        now[0] += 1
        assert len(srv.published("healthwatch")) == 3
        now[0] += 600  # ten more intervals: one article per site per interval
        published = srv.published("healthwatch")
        assert len(published) == 13 and len(srv.published("courier")) == 13
        dates = [d for _, d in published]
        assert dates == sorted(dates, reverse=True) and (dates[0] - dates[1]).total_seconds() == 60
        now[0] += 24 * 3600  # a day later the site is still publishing, one article a minute
        assert len(srv.published("wellbeing")) == 2 + 1 + 10 + 24 * 60


def test_request_log_counts_paths_with_time_and_user_agent(server, http):
    t0 = time.time()
    for _ in range(3):
        http.get(server.url("courier", "/robots.txt"), timeout=T)
    http.get(server.url("courier", "/"), headers={"User-Agent": "OtherBot/2"}, timeout=T)
    log = control(http, server, "courier", "requests.json").json()
    assert log["counts"] == {"/robots.txt": 3, "/": 1}  # control requests are not counted
    assert {r["user_agent"] for r in log["requests"]} == {UA, "OtherBot/2"}
    assert all(t0 - 1 <= r["time"] <= time.time() + 1 for r in log["requests"])
    assert control(http, server, "healthwatch", "requests.json").json()["total"] == 0
    assert control(http, server, "courier", "requests.json", "DELETE").status_code == 200
    assert control(http, server, "courier", "requests.json").json()["counts"] == {}


# ------------------------------------------------------------------------------------------------
# Fixed fault URLs
# ------------------------------------------------------------------------------------------------


def test_fault_slow(server, http):
    start = time.monotonic()
    resp = http.get(server.url("healthwatch", "/fault/slow?seconds=1"), timeout=T)
    assert resp.status_code == 200 and time.monotonic() - start >= 0.95
    with pytest.raises(requests.exceptions.ReadTimeout):
        http.get(server.url("healthwatch", "/fault/slow?seconds=1"), timeout=(T, 0.3))


@pytest.mark.parametrize("status", [500, 404, 410])
def test_fault_status(server, http, status):
    resp = http.get(server.url("courier", f"/fault/{status}"), timeout=T)
    assert resp.status_code == status and "Retry-After" not in resp.headers


@pytest.mark.parametrize("status", [429, 503])
def test_fault_retry_after(server, http, status):
    resp = http.get(server.url("courier", f"/fault/{status}?retry_after=7"), timeout=T)
    assert resp.status_code == status and resp.headers["Retry-After"] == "7"
    resp = http.get(server.url("courier", f"/fault/{status}?retry_after=30&retry_after_as=date"), timeout=T)
    wait = parsedate_to_datetime(resp.headers["Retry-After"]).timestamp() - time.time()
    assert 20 <= wait <= 31


def test_fault_reset(server, http):
    with pytest.raises(requests.exceptions.ConnectionError) as info:
        http.get(server.url("wellbeing", "/fault/reset"), timeout=T)
    assert "reset" in str(info.value).lower() or "aborted" in str(info.value).lower()
    assert http.get(server.url("wellbeing", "/"), timeout=T).status_code == 200  # server still fine


def test_fault_redirect_loop(server, http):
    with pytest.raises(requests.exceptions.TooManyRedirects):
        http.get(server.url("wellbeing", "/fault/redirect-loop"), timeout=T)
    first = http.get(server.url("wellbeing", "/fault/redirect-loop"), allow_redirects=False, timeout=T)
    assert first.status_code == 302


def test_fault_huge_declares_and_streams_50_mb(server, http):
    with http.get(server.url("healthwatch", "/fault/huge"), stream=True, timeout=T) as resp:
        assert resp.status_code == 200 and resp.headers["Content-Type"].startswith("text/html")
        assert int(resp.headers["Content-Length"]) == HUGE_BYTES == 50 * 1024 * 1024
        head = resp.raw.read(200_000)
        assert head.startswith(b"<!DOCTYPE html>") and len(head) == 200_000
    head_only = http.head(server.url("healthwatch", "/fault/huge"), timeout=T)
    assert int(head_only.headers["Content-Length"]) == HUGE_BYTES and head_only.content == b""
    # a smaller body with the same shape, read to the end, has exactly the declared size
    small = http.get(server.url("healthwatch", "/fault/huge?bytes=300000"), timeout=T)
    assert len(small.content) == 300_000 and small.content.endswith(b"</html>\n")


def test_fault_wrong_charset(server, http):
    resp = http.get(server.url("courier", "/fault/wrong-charset"), timeout=T)
    assert resp.headers["Content-Type"] == "text/html; charset=windows-1252"
    assert WRONG_CHARSET_TEXT in resp.content.decode("utf-8")  # really UTF-8
    assert WRONG_CHARSET_TEXT not in resp.text  # decoding as declared gives mojibake
    resp = http.get(server.url("courier", "/fault/wrong-charset?declared=utf-8"), timeout=T)
    assert resp.headers["Content-Type"] == "text/html; charset=utf-8"
    with pytest.raises(UnicodeDecodeError):
        resp.content.decode("utf-8")
    assert WRONG_CHARSET_TEXT in resp.content.decode("windows-1252")


def test_fault_binary(server, http):
    png = http.get(server.url("courier", "/fault/binary"), timeout=T)
    assert png.headers["Content-Type"].startswith("text/html")
    assert png.content.startswith(b"\x89PNG\r\n\x1a\n")
    gz = http.get(server.url("courier", "/fault/binary?kind=gzip"), timeout=T)
    assert gz.headers["Content-Type"].startswith("text/html") and gz.content[:2] == b"\x1f\x8b"
    assert b"<html>" in gzip.decompress(gz.content)


# ------------------------------------------------------------------------------------------------
# Per-site fault switch: the next N matching requests of a site fail
# ------------------------------------------------------------------------------------------------


def _article_url(http, server, key):
    return control(http, server, key, "articles.json").json()["articles"][0]["url"]


def test_fault_switch_fails_the_next_n_matching_requests(server, http):
    url = _article_url(http, server, "healthwatch")
    resp = control(
        http, server, "healthwatch", "fault", "POST", mode="503", count=2, path_prefix="/news/", retry_after=4
    )
    assert resp.status_code == 201
    assert http.get(server.url("healthwatch", "/"), timeout=T).status_code == 200  # prefix does not match
    assert http.get(server.url("courier", "/"), timeout=T).status_code == 200  # other site unaffected
    first, second, third = (http.get(url, timeout=T) for _ in range(3))
    assert [first.status_code, second.status_code, third.status_code] == [503, 503, 200]
    assert first.headers["Retry-After"] == "4"
    log = control(http, server, "healthwatch", "requests.json", path_prefix="/news/").json()
    assert log["total"] == 3 and [r["fault"] for r in log["requests"]] == ["503", "503", None]
    assert control(http, server, "healthwatch", "fault").json()["faults"][0]["remaining"] == 0


def test_fault_switch_until_cleared(server, http):
    url = _article_url(http, server, "courier")
    control(http, server, "courier", "fault", "POST", mode="429", count="all", retry_after=1)
    assert all(http.get(url, timeout=T).status_code == 429 for _ in range(4))
    assert control(http, server, "courier", "fault", "DELETE").json()["faults"] == []
    assert http.get(url, timeout=T).status_code == 200


def test_fault_switch_reset_and_slow_hit_real_pages(server, http):
    url = _article_url(http, server, "wellbeing")
    control(http, server, "wellbeing", "fault", "POST", mode="reset", count=1)
    with pytest.raises(requests.exceptions.ConnectionError):
        http.get(url, timeout=T)
    control(http, server, "wellbeing", "fault", "POST", mode="slow", seconds=1)
    start = time.monotonic()
    resp = http.get(url, timeout=T)
    assert resp.status_code == 200 and time.monotonic() - start >= 0.95
    assert '<article class="post">' in resp.text  # the real page, just late
    assert http.get(url, timeout=T).elapsed.total_seconds() < 0.9


def test_fault_switch_wrong_charset_and_binary_on_real_pages(server, http):
    while server.publish("healthwatch").slug != "hay-fever-pollen-forecast":
        pass  # its title has curly quotes, which differ between UTF-8 and windows-1252
    entry = control(http, server, "healthwatch", "articles.json").json()["articles"][0]
    url, title = entry["url"], entry["title"]
    control(http, server, "healthwatch", "fault", "POST", mode="wrong-charset")
    resp = http.get(url, timeout=T)
    assert resp.headers["Content-Type"] == "text/html; charset=utf-8"
    assert title.encode("windows-1252") in resp.content and title.encode("utf-8") not in resp.content
    with pytest.raises(UnicodeDecodeError):
        resp.content.decode("utf-8")
    control(http, server, "healthwatch", "fault", "POST", mode="binary")
    assert http.get(url, timeout=T).content.startswith(b"\x89PNG")
    control(http, server, "healthwatch", "fault", "POST", mode="redirect-loop")
    with pytest.raises(requests.exceptions.TooManyRedirects):
        http.get(url, timeout=T)
    control(http, server, "healthwatch", "fault", "POST", mode="huge", bytes=1000)
    assert len(http.get(url, timeout=T).content) == 1000
    assert http.get(url, timeout=T).status_code == 200


@pytest.mark.parametrize(
    "params",
    [
        {"mode": "explode"},
        {"mode": "500", "count": "0"},
        {"mode": "500", "count": "x"},
        {"mode": "slow", "seconds": "soon"},
        {"mode": "500", "path_prefix": "news"},
    ],
)
def test_fault_switch_rejects_bad_parameters(server, http, params):
    resp = control(http, server, "courier", "fault", "POST", **params)
    assert resp.status_code == 400 and "error" in resp.json()


def test_every_fault_mode_has_a_fixed_url(server, http):
    expected = {"slow": 200, "huge": 200, "wrong-charset": 200, "binary": 200, "redirect-loop": 302}
    for mode in set(FAULT_MODES) - {"reset"}:  # reset has its own test
        url = server.url("courier", f"/fault/{mode}?seconds=0&bytes=100")
        resp = http.get(url, timeout=T, allow_redirects=False)
        assert resp.status_code == expected.get(mode, int(mode) if mode.isdigit() else 0), mode
    assert http.get(server.url("courier", "/fault/teapot"), timeout=T).status_code == 404


# ------------------------------------------------------------------------------------------------
# Scale shape and CLI
# ------------------------------------------------------------------------------------------------


def test_many_synthetic_sites_on_their_own_addresses(http):
    sites = list(synthetic_sites(30))
    with DemoServer(port=0, interval=None, sites=sites) as srv:
        for spec in sites[::7]:
            resp = http.get(srv.home_url(spec.key), timeout=T)
            assert resp.status_code == 200 and spec.name in resp.text
        assert len(srv._listeners) == 30  # one listening socket per address, one accept thread


def test_cli_prints_the_three_site_urls():
    proc = subprocess.Popen(
        [sys.executable, "-m", "demo", "--port", "0", "--interval", "0"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        lines = [proc.stdout.readline() for _ in DEMO_SITES]
        urls = [line.split()[-1] for line in lines]
        for spec, url in zip(DEMO_SITES, urls, strict=True):
            assert spec.name in lines[DEMO_SITES.index(spec)] and url.startswith(f"http://{spec.address}:")
            assert requests.get(url, timeout=T).status_code == 200
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    assert proc.returncode == 0


def test_a_follow_ups_facts_have_numbers_of_their_own_and_what_comes_next_comes_later():
    """A live trial read "reach 23 households ... 23 drop-in sessions ... 23 volunteers" in one follow-up, and a
    trial recruiting "until the end of March" reviewed "in March, when its first results are known"."""
    months = {m: n for n, m in enumerate(MONTHS)}
    repeated, same_month = [], []
    for article in ARTICLES:
        for round_ in range(1, 13):
            text = " ".join(b.text for b in edition(article, round_).blocks[:2])
            numbers = re.findall(
                r"\b(\d+) (?:households|venues|pharmacies|drop-in sessions|extra sessions|volunteers|other towns)\b",
                text,
            )
            if len(numbers) != len(set(numbers)):
                repeated.append(text)
            named = re.findall(r"\b(" + "|".join(months) + r")\b", text)
            if len(named) >= 2 and len(set(named)) == 1 and ("review" in text or "report by" in text):
                same_month.append(text)
    assert repeated == [], repeated[:2]
    assert same_month == [], same_month[:2]


def test_a_follow_up_names_the_month_it_is_published_in_as_this_month():
    """A live trial read "more than for any story this September" in a follow-up published in November: the
    month a follow-up calls this one, the one a campaign starts from or a trial recruits until, is its own."""
    current = re.compile(r"\b(?:this|from|From|end of) (" + "|".join(MONTHS) + r")\b")
    clock = [datetime(2026, 11, 28, 9).timestamp()]
    spec = DEMO_SITES[0]
    state = SiteState(spec, 60.0, len(spec.articles), lambda: clock[0])
    named = []
    for _ in range(2 * len(spec.articles)):  # the pool again, then its follow-ups: a dozen of them at least
        clock[0] += 61
        state.published()
    for article, when in state.published():
        if article.slug in {a.slug for a in spec.articles}:
            continue
        text = " ".join([article.standfirst, *(b.text for b in article.blocks)])
        named += [(month, when.strftime("%B")) for month in current.findall(text)]
    assert len(named) >= 3, named  # the angles that name this month were published
    assert all(month == published for month, published in named), named
    # a campaign's lead names the month it starts from, in both wordings
    campaign = next((a, r) for r in range(1, 7) for a in ARTICLES if angle_of(a, r) == "campaign")
    july = edition(*campaign, datetime(2026, 7, 3))
    assert "July" in july.standfirst + " ".join(b.text for b in july.blocks)
