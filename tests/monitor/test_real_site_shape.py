"""The demo sites have the real web's shape (issue 33, item 4): navigation, tag, writer, archive and pagination
links, footers, share links, a shop or a forum, sitemaps and feeds. Registered as an administrator registers a real
site (no include pattern, *Only articles*), WebMon takes every article link of their home and section pages and
nothing else but a special report at a story's address, as on real sites (its page's kind keeps it out), and the inbox
holds only the articles."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import feedparser
import lxml.etree
import pytest
import requests

from classifier.selectors import inbox_queryset
from demo.articles import TOPICS
from demo.furniture import report_of, report_stories, writers_of
from demo.registration import demo_site_settings
from demo.sites import DEMO_SITES, SERVED_SITES, article_url, fixed_context, template_for
from filters import read_page
from filters.kind import link_kind, page_kind
from monitor import services
from monitor.canonical import canonicalise
from monitor.discovery import links_from_feed, links_from_html, select_candidates
from monitor.models import Article, Site
from tests.monitor.conftest import ground_truth, register, request_log, run_tasks

BASE = "http://127.0.0.1:9"
FURNITURE = re.compile(r"/(?:about|privacy|terms|contact|newsletter)(?:\.\w+|/)?$")


def known_links(spec) -> dict[str, set[str | None]]:
    """The site's addresses by what they are, up to their third page (the template names them)."""
    tpl, ctx = template_for(spec), fixed_context(spec, BASE)

    def at(paths) -> set[str | None]:
        return {canonicalise(BASE + p) for p in paths}

    pages = range(1, 4)
    return {
        "article": {article_url(spec, a, BASE) for a, _ in ctx.published},
        "section": at(tpl.section_path(s) for s in spec.sections),
        "tag": at(tpl.tag_path(t, p) for t in TOPICS for p in pages),
        "author": at(tpl.author_path(w.slug, p) for w in writers_of(spec.template) for p in pages),
        "pagination": at([tpl.front_path(p) for p in pages[1:]])
        | at(tpl.section_path(s, p) for s in spec.sections for p in pages[1:]),
        "archive": at(tpl.archive_path(m, p) for m in tpl.archive_months(ctx) for p in pages),
        "report": at([tpl.report_path(r)] if (r := report_of(spec)) else []),
    }  # fmt: skip


def pages_of(spec) -> dict[str, str]:
    """Its home page, every section's first and second page (where it has one) and a story, all stories published."""
    tpl, ctx = template_for(spec), fixed_context(spec, BASE)
    pages = {"home": tpl.home(ctx), "story": tpl.article(ctx, ctx.published[3][0])}
    for section in spec.sections:
        pages[section] = tpl.section(ctx, section)
        if len(ctx.published_in(section)) > tpl.page_size:
            pages[f"{section} page 2"] = tpl.section(ctx, section, 2)
    return pages


@pytest.mark.parametrize("spec", SERVED_SITES, ids=lambda s: s.key)
def test_every_article_link_is_a_candidate_and_nothing_else(spec):
    # a new site: nothing fetched yet, so no URL template learned; links read with their positions as a poll reads them
    rules = services._rules(Site(**demo_site_settings(spec, BASE)), learned=False)
    known = known_links(spec)
    for name, page in pages_of(spec).items():
        positions: dict = {}
        links = links_from_html(page, BASE + "/", positions)
        candidates = select_candidates(links, rules, positions)
        articles = [u for u in links if u in known["article"]]
        assert articles, (spec.key, name)
        # a special report's address is a story's: no address tells it, so it is fetched (and its kind keeps it out)
        expected = [u for u in links if u in known["article"] | known["report"]]
        assert candidates == expected, (spec.key, name, sorted(set(candidates) ^ set(expected)))
        if name == "home":
            assert set(candidates) >= known["report"], "the home page promotes the special report"
    # the pages are no cleaner than the web: each kind of link that is no article is there
    links = set(links_from_html(pages_of(spec)["home"], BASE + "/"))
    for kind in ("section", "tag", "author", "pagination", "archive"):
        assert links & known[kind], (spec.key, kind)
    assert len({u for u in links if FURNITURE.search(urlsplit(u).path)}) >= 4, spec.key
    story = pages_of(spec)["story"]
    assert "twitter.com/intent/tweet" in story and "facebook.com/sharer" in story
    assert set(links_from_html(story, BASE + "/")) & known["author"], "the byline links the writer's page"


def test_listings_shop_and_forum_pages_are_linked_and_not_candidates():
    for spec in DEMO_SITES:
        rules = services._rules(Site(**demo_site_settings(spec, BASE)), learned=False)
        home = links_from_html(template_for(spec).home(fixed_context(spec, BASE)), BASE + "/")
        shop_or_forum = [u for u in home if "/shop/" in u or "/community/" in u]
        assert bool(shop_or_forum) == (spec.key != "courier"), spec.key
        assert not select_candidates(shop_or_forum, rules)


@pytest.fixture
def demo_full():
    from demo import DemoServer

    with DemoServer(port=0, interval=None, start_published=10) as server:
        yield server


def test_a_special_report_is_a_candidate_by_its_address_and_a_listing_once_fetched(demo_full):
    """Real sites publish collections at a story's address ("special report", "in depth"): discovery cannot tell
    them by their address, the page-kind stage can, by the page (cards of dated headlines; a CollectionPage)."""
    http = requests.Session()
    verdicts = {}
    for spec in DEMO_SITES:
        report = report_of(spec)
        if report is None:
            continue
        base = demo_full.base_url(spec.key)
        rules = services._rules(Site(**demo_site_settings(spec, base)), learned=False)
        positions: dict = {}
        links = links_from_html(http.get(base + "/", timeout=5).content, base + "/", positions)
        url = base + template_for(spec).report_path(report)
        assert url in select_candidates(links, rules, positions), spec.key
        assert link_kind(url) is None, "its address alone says nothing against an article"
        answer = http.get(url, timeout=5)
        assert answer.status_code == 200 and report.title in answer.text
        cards = {u for u in links_from_html(answer.content, url) if u in ground_truth(demo_full, spec.key)}
        assert len(cards) >= 8, "its cards link the site's real stories"
        verdicts[spec.key] = page_kind(read_page(answer.content), url)
    assert set(verdicts) == {"healthwatch", "wellbeing"}
    assert all(v.kind == "listing" and not v.is_article for v in verdicts.values()), verdicts
    assert verdicts["healthwatch"].reason.endswith("dated headline links and little prose")  # by its structure
    assert verdicts["wellbeing"].reason == "schema.org CollectionPage"  # by what it says it is


@pytest.mark.parametrize("spec", [s for s in DEMO_SITES if report_of(s)], ids=lambda s: s.key)
def test_a_special_report_is_promoted_from_its_second_story_and_is_a_listing_from_then_on(spec):
    tpl, report = template_for(spec), report_of(spec)
    url = BASE + tpl.report_path(report)
    for upto in (1, 2, 3, 4, 16):
        ctx = fixed_context(spec, BASE, upto=upto)
        promoted = url in links_from_html(tpl.home(ctx), BASE + "/")
        assert promoted == (upto >= 2), (spec.key, upto)  # a series of one is no series yet
        if promoted:
            page = tpl.report(ctx, report, report_stories(report, ctx.published))
            assert page_kind(read_page(page), url).kind == "listing", (spec.key, upto)


def test_feeds_and_sitemaps_are_announced_and_in_step(demo_full):
    http = requests.Session()
    for spec in SERVED_SITES:
        base = demo_full.base_url(spec.key)
        demo_full.publish(spec.key)
        published = set(ground_truth(demo_full, spec.key))
        home = http.get(base + "/", timeout=5).text
        announced = re.findall(r'<link rel="alternate" type="application/(rss|atom)\+xml"[^>]*href="([^"]+)"', home)
        if spec.has_feed:
            [(kind, href)] = announced
            feed = http.get(base + href, timeout=5).content
            assert feedparser.parse(feed).version == {"rss": "rss20", "atom": "atom10"}[kind]
            assert set(links_from_feed(feed, base + href)) == published
        else:
            assert not announced
        robots = http.get(base + "/robots.txt", timeout=5).text
        [index_url] = re.findall(r"^Sitemap: (\S+)$", robots, re.M)
        index = lxml.etree.fromstring(http.get(index_url, timeout=5).content)
        assert index.tag == "{http://www.sitemaps.org/schemas/sitemap/0.9}sitemapindex"
        listed: set[str] = set()
        news: set[str] = set()
        for loc in index.iterfind(".//{*}sitemap/{*}loc"):
            urlset = lxml.etree.fromstring(http.get(loc.text, timeout=5).content)
            locs = {u.text for u in urlset.iterfind(".//{*}url/{*}loc")}
            if urlset.find(".//{http://www.google.com/schemas/sitemap-news/0.9}publication_date") is not None:
                news |= locs
            listed |= locs
        assert published <= listed and news and news <= published, spec.key


def test_every_page_the_sites_link_is_served(demo_full):
    """Two clicks from each home page (tags, writers, archives, further pages, shop, forum, footer pages): 200."""
    http = requests.Session()
    for spec in SERVED_SITES:
        base = demo_full.base_url(spec.key)
        status: dict[str, int] = {}
        todo = [base + "/"]
        for _ in range(3):
            found = []
            for url in dict.fromkeys(todo):
                if url in status:
                    continue
                answer = http.get(url, timeout=5)
                status[url] = answer.status_code
                if answer.headers["Content-Type"].startswith("text/html"):
                    found += [u for u in links_from_html(answer.content, url) if u.startswith(base + "/")]
            todo = found
        assert len(status) > 35, (spec.key, len(status))  # the Morning Pulse, the smallest, links 37
        assert {u: s for u, s in status.items() if s != 200} == {}, spec.key


@pytest.mark.django_db(transaction=True)
def test_a_poll_of_the_demo_sites_puts_only_their_articles_in_the_inbox(demo, fast_env):
    """Live: the three sites polled with their real rules (no include pattern, Only articles), every article
    link fetched and processed; no tag, writer, archive, pagination, shop, forum or footer page is fetched. The
    special reports, at a story's address, are fetched and kept out as listings, with the reason, in *Pages kept
    out*: what the demo shows the site administrator there."""
    for key, more in (("healthwatch", 5), ("courier", 3), ("wellbeing", 6)):  # enough for the home's page 2
        for _ in range(more):
            demo.publish(key)
    truth: dict[str, str] = {}
    reports: set[str] = set()
    for spec in DEMO_SITES:
        tpl = template_for(spec)
        home = requests.get(demo.home_url(spec.key), timeout=5).text
        assert tpl.front_path(2) in home, "the home page links its next page"
        site = register(demo, spec.key)
        run_tasks(services.poll_site(site.pk))
        truth |= {url: spec.key for url in ground_truth(demo, spec.key)}
        report = report_of(spec)
        reports |= {demo.url(spec.key, tpl.report_path(report))} if report else set()
        sources = {"/robots.txt", "/", *(tpl.section_path(s) for s in spec.sections), spec.feed_path}
        stories = {_path(u) for u in truth | dict.fromkeys(reports)}
        fetched = {_path(r["path"] + (f"?{r['query']}" if r["query"] else "")) for r in request_log(demo, spec.key)}
        assert fetched - sources <= stories, sorted(fetched - sources - stories)
    inbox = dict(inbox_queryset().values_list("canonical_url", "state"))
    assert set(inbox) == set(truth), sorted(set(inbox) ^ set(truth))
    assert set(inbox.values()) == {"processed"}
    kept_out = Article.objects.exclude(canonical_url__in=truth).select_related("content")
    assert {a.canonical_url for a in kept_out} == reports and len(reports) == 2
    for page in kept_out:
        assert page.state == Article.State.NOT_ARTICLE, (page.url, page.state)
        assert page.content.kind == "listing" and page.content.kind_reason, page.url


def _path(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")
