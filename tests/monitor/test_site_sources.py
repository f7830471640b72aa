"""A site's sources (monitor/finding.py, services.find_sources / keep_found, the poll's reading of sources), on a
real local HTTP server that answers conditional GET as a web server does (ETag, 304): sources found at a new
site's first poll, feeds and Google News sitemaps and sitemap indexes polled with conditional GET, the sitemaps'
bounds, hostile sources failing alone in the site's health, the admin's preview and the API's registration.
"""

from __future__ import annotations

import gzip
import hashlib
import threading
import time
from datetime import datetime, timedelta
from email.utils import format_datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from foundation import roles
from monitor import services
from monitor.discovery import LinkRules
from monitor.finding import Proposal, find, read_sitemap, recent_entries
from monitor.models import Article, FetchAttempt, Site, Source
from monitor.net import FetchError, Response
from monitor.sources import SitemapEntry, SitemapLimits

pytestmark = pytest.mark.django_db(transaction=True)

NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
NEWS_NS = 'xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"'


class SiteServer:
    """A local web server: ``routes[path] = (content type, body, extra headers)``, each answered with an ETag
    (a hash of the body) and 304 when the request's If-None-Match names it; ``log`` keeps (path, status)."""

    def __init__(self):
        server = self
        self.routes: dict[str, tuple[str, bytes, dict[str, str]]] = {}
        self.log: list[tuple[str, int]] = []

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 - http.server's name
                route = server.routes.get(self.path)
                if route is None:
                    server.log.append((self.path, 404))
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                kind, body, extra = route
                etag = '"' + hashlib.sha1(body).hexdigest()[:16] + '"'
                status = 304 if self.headers.get("If-None-Match") == etag else 200
                server.log.append((self.path, status))
                self.send_response(status)
                self.send_header("ETag", etag)
                for name, value in extra.items():
                    self.send_header(name, value)
                if status == 304:
                    self.end_headers()
                    return
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._httpd.serve_forever, daemon=True).start()
        self.base = f"http://127.0.0.1:{self._httpd.server_address[1]}"

    def asked(self, path: str) -> list[int]:
        """The statuses answered to each request for ``path``, in order."""
        return [status for p, status in self.log if p == path]

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()


@pytest.fixture
def web():
    server = SiteServer()
    yield server
    server.stop()


def iso(when: datetime) -> str:
    return when.isoformat(timespec="seconds")


def home_page(base: str) -> bytes:
    sections = "".join(f'<li><a href="/{name}/">{name.title()}</a></li>' for name in ("world", "politics", "sport"))
    stories = "".join(f'<li><a href="/2026/11/home-story-{n}.html">Home story number {n}</a></li>' for n in (1, 2))
    return f"""<!doctype html><html><head><title>The Local Times</title>
      <link rel="alternate" type="application/rss+xml" title="Top stories" href="/feed.xml">
      </head><body><nav><ul>{sections}</ul></nav><main><ul>{stories}</ul></main>
      <footer><a href="/about/">About us</a></footer></body></html>""".encode()


def rss(base: str, items: list[tuple[str, datetime]]) -> bytes:
    body = "".join(
        f"<item><title>{path}</title><link>{base}{path}</link><pubDate>{format_datetime(when)}</pubDate></item>"
        for path, when in items
    )
    return f'<?xml version="1.0"?><rss version="2.0"><channel><title>Top</title>{body}</channel></rss>'.encode()


def news_sitemap(base: str, items: list[tuple[str, datetime]]) -> bytes:
    body = "".join(
        f"<url><loc>{base}{path}</loc><news:news><news:publication><news:name>Local Times</news:name>"
        f"<news:language>en</news:language></news:publication><news:publication_date>{iso(when)}"
        f"</news:publication_date><news:title>{path}</news:title></news:news></url>"
        for path, when in items
    )
    return f'<?xml version="1.0" encoding="UTF-8"?><urlset {NS} {NEWS_NS}>{body}</urlset>'.encode()


def urlset(base: str, items: list[tuple[str, datetime | None]]) -> bytes:
    body = "".join(
        f"<url><loc>{base}{path}</loc>" + (f"<lastmod>{iso(when)}</lastmod>" if when else "") + "</url>"
        for path, when in items
    )
    return f'<?xml version="1.0" encoding="UTF-8"?><urlset {NS}>{body}</urlset>'.encode()


def sitemap_index(base: str, children: list[tuple[str, datetime | None]]) -> bytes:
    body = "".join(
        f"<sitemap><loc>{base}{path}</loc>" + (f"<lastmod>{iso(when)}</lastmod>" if when else "") + "</sitemap>"
        for path, when in children
    )
    return f'<?xml version="1.0" encoding="UTF-8"?><sitemapindex {NS}>{body}</sitemapindex>'.encode()


def serve_news_site(web: SiteServer, now: datetime) -> None:
    """A site with a feed announced in <head>, robots.txt naming a news sitemap and a sitemap index, whose
    children are one recent urlset and one of last year (its lastmod says so), and three section pages."""
    base, hour, day = web.base, timedelta(hours=1), timedelta(days=1)
    web.routes.update(
        {
            "/": ("text/html", home_page(base), {}),
            "/robots.txt": (
                "text/plain",
                f"User-agent: *\nDisallow: /private/\nSitemap: {base}/news-sitemap.xml\n"
                f"Sitemap: {base}/sitemap-index.xml\n".encode(),
                {},
            ),
            "/feed.xml": (
                "application/rss+xml",
                rss(base, [("/2026/11/feed-story-1.html", now - hour), ("/2026/11/feed-story-2.html", now - 2 * hour)]),
                {},
            ),
            "/news-sitemap.xml": (
                "application/xml",
                news_sitemap(base, [("/2026/11/news-story-1.html", now - 3 * hour), ("/about/", now - hour)]),
                {},
            ),
            "/sitemap-index.xml": (
                "application/xml",
                sitemap_index(base, [("/sitemap-recent.xml", now - hour), ("/sitemap-2025.xml", now - 300 * day)]),
                {},
            ),
            "/sitemap-recent.xml": (
                "application/xml",
                urlset(
                    base,
                    [("/2026/11/recent-story.html", now - 5 * hour), ("/2026/10/old-story.html", now - 40 * day)],
                ),
                {},
            ),
            "/sitemap-2025.xml": ("application/xml", urlset(base, [("/2025/01/ancient.html", None)]), {}),
        }
    )
    for name in ("world", "politics", "sport"):
        web.routes[f"/{name}/"] = ("text/html", f'<a href="/2026/11/{name}-story.html">A {name} story</a>'.encode(), {})


def sitemaps_asked(web: SiteServer) -> list[str]:
    return [path for path, _ in web.log if path.endswith(".xml")]


def new_site(web: SiteServer, **fields) -> Site:
    """A site as the admin's add form or the API registers it: its home page only, its sources to find."""
    values = {
        "name": "Local Times",
        "home_url": web.base + "/",
        "allow_private_addresses": True,
        "articles_only": True,
        "find_sources": True,
        **fields,
    }
    return Site.objects.create(**values)


# ------------------------------------------------------------------------------------------ the link rules' reasons


def test_link_rules_say_why_a_link_is_refused():
    rules = LinkRules("https://news.example/", exclude=["/live/"], watched=["https://news.example/feed.xml"])
    assert rules.judge("https://news.example/2026/11/a-story.html") == (True, "a link of the site")
    assert rules.judge("https://other.example/2026/11/a-story.html") == (False, "on another site")
    assert rules.judge("https://news.example/feed.xml") == (False, "a watched page or feed itself")
    assert rules.judge("https://news.example/logo.png") == (False, "a file, not a page")
    assert rules.judge("https://news.example/live/now") == (False, "matches the exclude pattern '/live/'")
    only = LinkRules("https://news.example/", articles_only=True)
    taken, reason = only.judge("https://news.example/world/")
    assert not taken and reason.startswith("its address: ")
    assert only.accepts("https://news.example/2026/11/a-story.html")


def find_on(pages: dict[str, bytes], **options) -> Proposal:
    """The sources ``finding.find`` proposes for https://well.example/ whose pages are ``pages`` (any other
    address answers 404), with no robots.txt."""

    def get(url, headers, cap, kind):
        if url not in pages:
            raise FetchError("HTTP 404", transient=False, status=404, url=url)
        return Response(url, 200, {"content-type": "text/html"}, pages[url])

    rules = LinkRules("https://well.example/", articles_only=True)
    args = {"robots_txt": None, "now": timezone.now(), "max_age": timedelta(days=2), "max_links": 100}
    return find("https://well.example/", get, rules, **args, **options)


def test_a_section_whose_address_may_be_an_articles_is_proposed_unticked():
    """Found on the demo's Wellbeing Times in the live stack: its articles' addresses (/mind/a-long-slug/) look like
    sections' to prominent_sections; the link rules would fetch them as articles, so they are not ticked."""
    nav = "".join(
        f'<li><a href="{path}">{text}</a></li>'
        for path, text in [("/body/", "Body"), ("/family/", "Family"), ("/mind/winter-blues-light-therapy/", "Winter")]
    )
    pages = {"https://well.example/": f"<html><body><nav><ul>{nav}</ul></nav></body></html>".encode()}

    proposal = find_on(pages, read=False)
    keep = {found.url: found.keep for found in proposal.sources}
    assert keep == {
        "https://well.example/body/": True,
        "https://well.example/family/": True,
        "https://well.example/mind/winter-blues-light-therapy/": False,
    }
    assert proposal.sources[-1].reason.endswith("its address may be an article's")
    assert len(proposal.notes) == 4 and all(note.startswith("no sitemap at ") for note in proposal.notes)


def test_a_forums_front_is_proposed_unticked_saying_it_is_a_forum():
    """The demo's Wellbeing Times links its forum (/community/) in its navigation: its address reads as a section
    front's, and it was proposed as a news section, ticked on a site without feed or sitemap. Read for the preview,
    it lists forum threads under its address: it is proposed unticked, the reason saying it is a forum (a local
    paper's "Community" section may be news: the administrator sees why, and may tick it)."""
    nav = "".join(
        f'<li><a href="{path}">{text}</a></li>' for path, text in [("/body/", "Body"), ("/community/", "Community")]
    )
    threads = "".join(
        f'<tr><td><a href="/community/t/{slug}/{n}/">{slug}</a></td></tr>'
        for n, slug in enumerate(["cant-switch-off-at-night", "starting-running-at-50", "toddler-wont-eat"], 1041)
    )
    stories = "".join(
        f'<h3><a href="/body/{slug}/">{slug}</a></h3>' for slug in ["a-long-walk-a-day", "sleep-well-now"]
    )
    pages = {
        "https://well.example/": f"<html><body><nav><ul>{nav}</ul></nav></body></html>".encode(),
        "https://well.example/community/": f"<html><body><nav><ul>{nav}</ul></nav><table>{threads}</table>"
        '<p><a href="/community/login/">Log in</a></p></body></html>'.encode(),
        "https://well.example/body/": f"<html><body><nav><ul>{nav}</ul></nav>{stories}</body></html>".encode(),
    }

    proposal = find_on(pages)
    found = {found.url: found for found in proposal.sources}
    assert found["https://well.example/body/"].keep, "a news section, ticked: no feed, no sitemap"
    forum = found["https://well.example/community/"]
    assert not forum.keep, "a forum is no news section"
    assert "a forum, not a news section: 3 of the 4 links under its address are forum threads" in forum.reason


# ------------------------------------------------------------------------------------------------------- polling


def test_a_new_site_gets_its_sources_at_its_first_poll_and_yields_their_articles(web, fast_env):
    now = timezone.now()
    serve_news_site(web, now)
    site = new_site(web)
    outcome = services.poll_site(site.pk)
    assert outcome.result == "polled", outcome.detail
    site.refresh_from_db()
    assert not site.find_sources and site.last_error == "", site.last_error
    sources = {s.url.removeprefix(web.base): (s.kind, s.active) for s in site.sources.all()}
    assert sources == {
        "/feed.xml": ("feed", True),
        "/news-sitemap.xml": ("sitemap", True),
        "/sitemap-index.xml": ("sitemap", True),
        # a feed and sitemaps list what the sections do: the sections are proposed, not polled
        "/world/": ("section", False),
        "/politics/": ("section", False),
        "/sport/": ("section", False),
    }
    assert "announced in <head>" in site.sources.get(kind="feed").found
    assert site.sources.get(url=web.base + "/news-sitemap.xml").found.startswith("named in robots.txt")
    found = {a.url.removeprefix(web.base): a.published_at for a in Article.objects.filter(site=site)}
    assert set(found) == {
        "/2026/11/home-story-1.html",
        "/2026/11/home-story-2.html",
        "/2026/11/feed-story-1.html",
        "/2026/11/feed-story-2.html",
        "/2026/11/news-story-1.html",
        "/2026/11/recent-story.html",
    }, "not the about page, the section fronts, the 40-day-old entry or last year's sitemap"
    assert abs(found["/2026/11/feed-story-1.html"] - (now - timedelta(hours=1))) < timedelta(seconds=2)
    assert abs(found["/2026/11/news-story-1.html"] - (now - timedelta(hours=3))) < timedelta(seconds=2)
    assert web.asked("/sitemap-2025.xml") == [], "an index's child not changed for 300 days is not read"
    assert web.asked("/world/") == [], "an inactive source is not polled (nor read at the first poll)"
    kinds = set(FetchAttempt.objects.filter(site=site).values_list("kind", flat=True))
    assert {"robots", "section", "feed", "sitemap"} <= kinds
    assert not FetchAttempt.objects.filter(site=site, kind="section", url__endswith=".xml").exists()
    # looking at the usual addresses is no failure: the site is not "degraded" by it
    assert not FetchAttempt.objects.filter(site=site, outcome="failed").exists()


def test_feeds_and_sitemaps_are_polled_with_conditional_get(web, fast_env):
    serve_news_site(web, timezone.now())
    site = new_site(web, find_sources=False)
    for path, kind in [("/feed.xml", "feed"), ("/news-sitemap.xml", "sitemap"), ("/sitemap-index.xml", "sitemap")]:
        Source.objects.create(site=site, url=web.base + path, kind=kind)
    services.poll_site(site.pk)
    first = len(Article.objects.filter(site=site))
    outcome = services.poll_site(site.pk)
    assert outcome.detail == "0 new"
    assert web.asked("/feed.xml") == [200, 304]
    assert web.asked("/news-sitemap.xml") == [200, 304]
    assert web.asked("/sitemap-recent.xml") == [200, 304]
    assert web.asked("/sitemap-index.xml") == [200, 200], "an index is read again: a child may change alone"
    site.refresh_from_db()
    assert site.last_error == "" and site.consecutive_failures == 0
    assert Article.objects.filter(site=site).count() == first
    outcomes = FetchAttempt.objects.filter(site=site, kind="sitemap", outcome="not_modified").count()
    assert outcomes == 2
    # a sitemap source keeps its files' validators under its own key: those of files no longer listed go with it
    assert set(site.validators) == {web.base + p for p in ("/", "/feed.xml", "/news-sitemap.xml", "/sitemap-index.xml")}
    assert set(site.validators[web.base + "/sitemap-index.xml"]["files"]) == {web.base + "/sitemap-recent.xml"}
    # a new story in the news sitemap: read again in full, only the new story is new
    base, now = web.base, timezone.now()
    web.routes["/news-sitemap.xml"] = (
        "application/xml",
        news_sitemap(base, [("/2026/11/news-story-1.html", now), ("/2026/11/news-story-9.html", now)]),
        {},
    )
    outcome = services.poll_site(site.pk)
    assert outcome.detail == "1 new"
    assert Article.objects.filter(site=site, url=base + "/2026/11/news-story-9.html").exists()


def test_a_large_sitemap_gives_only_its_recent_entries_newest_first(web, fast_env, settings):
    settings.WIMS_SITEMAP_MAX_LINKS = 20
    now = timezone.now()
    archive = [(f"/2019/01/archive-{n}.html", now - timedelta(days=2000 + n)) for n in range(3000)]
    recent = [(f"/2026/11/recent-{n}.html", now - timedelta(minutes=n)) for n in range(30)]
    undated = [(f"/pages/undated-{n}.html", None) for n in range(50)]
    web.routes["/"] = ("text/html", b"<p>no links</p>", {})
    web.routes["/sitemap.xml"] = ("application/xml", urlset(web.base, archive + recent + undated), {})
    site = new_site(web, find_sources=False)
    Source.objects.create(site=site, url=web.base + "/sitemap.xml", kind="sitemap")
    services.poll_site(site.pk)
    urls = set(Article.objects.filter(site=site).values_list("url", flat=True))
    assert urls == {web.base + f"/2026/11/recent-{n}.html" for n in range(20)}, "the 20 newest, nothing older"


def test_recent_entries_take_the_undated_entries_of_a_small_sitemap_only():
    now = timezone.now()
    small = [SitemapEntry(f"https://x.example/p{n}") for n in range(3)]
    taken, left = recent_entries(small, now=now, max_age=timedelta(days=2), max_links=5)
    assert [e.url for e in taken] == [e.url for e in small] and left == {}
    dated = [SitemapEntry(f"https://x.example/d{n}", lastmod=now - timedelta(hours=n)) for n in range(4)]
    taken, left = recent_entries(dated + small, now=now, max_age=timedelta(days=2), max_links=5)
    assert [e.url for e in taken] == [e.url for e in dated]
    assert left == {e.url: "no date, in a sitemap of more than 5 entries" for e in small}


def test_a_sitemap_index_is_read_within_its_bounds(web, fast_env):
    now = timezone.now()
    base = web.base
    # an index of 12 children, one of which is an index again (and lists itself: a loop), each child 1 story
    children = [(f"/child-{n}.xml", now) for n in range(12)]
    web.routes["/index.xml"] = ("application/xml", sitemap_index(base, [("/inner.xml", now), *children]), {})
    web.routes["/inner.xml"] = ("application/xml", sitemap_index(base, [("/deep.xml", now), ("/index.xml", now)]), {})
    web.routes["/deep.xml"] = ("application/xml", urlset(base, [("/2026/11/deep.html", now)]), {})
    for n in range(12):
        web.routes[f"/child-{n}.xml"] = ("application/xml", urlset(base, [(f"/2026/11/story-{n}.html", now)]), {})
    site = new_site(web, find_sources=False)
    get = services._getter(site)
    rules = LinkRules(site.home_url)
    limits = SitemapLimits(max_depth=1, max_sitemaps=6, max_total_bytes=10 * 1024 * 1024)
    args = {"now": now, "max_age": timedelta(days=2), "max_links": 100}
    read = read_sitemap(base + "/index.xml", {}, get, rules, limits=limits, **args)
    assert len(sitemaps_asked(web)) == 6, "max_sitemaps: 6 files fetched"
    assert web.asked("/deep.xml") == [], "max_depth: an index in an index is not followed further"
    assert read.links == [base + f"/2026/11/story-{n}.html" for n in range(4)]
    assert read.errors == []
    web.log.clear()
    size = len(web.routes["/child-0.xml"][1])
    bytes_bound = SitemapLimits(max_total_bytes=len(web.routes["/index.xml"][1]) + 2 * size)
    read = read_sitemap(base + "/index.xml", {}, get, rules, limits=bytes_bound, **args)
    assert len(read.links) <= 2 and len(sitemaps_asked(web)) <= 4, "max_total_bytes: the walk stops at its bytes"


# ------------------------------------------------------------------------------------------------ hostile sources


def _bomb(head: bytes, filler: bytes = b" ") -> bytes:
    """A gzip stream of 64 MiB of ``filler`` after ``head`` (about 64 KiB compressed)."""
    return gzip.compress(head + filler * (64 * 1024 * 1024 // len(filler)), 9)


LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
<!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
<!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
<!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
<!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
<!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
<!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">]>
"""


def test_hostile_feeds_and_sitemaps_fail_alone_with_a_clear_error_in_the_sites_health(web, fast_env):
    now = timezone.now()
    base = web.base
    web.routes.update(
        {
            "/": ("text/html", b'<a href="/2026/11/home-story.html">A story</a>', {}),
            "/good-feed.xml": ("application/rss+xml", rss(base, [("/2026/11/feed-story.html", now)]), {}),
            "/bomb.xml.gz": ("application/gzip", _bomb(f'<?xml version="1.0"?><urlset {NS}>'.encode(), b"<x/>"), {}),
            # served with Content-Encoding: gzip, which the HTTP client undoes (under the body's size cap)
            "/bomb-feed.xml": (
                "application/rss+xml",
                _bomb(b'<?xml version="1.0"?><rss version="2.0"><channel><title>'),
                {"Content-Encoding": "gzip"},
            ),
            "/laughs-sitemap.xml": (
                "application/xml",
                LAUGHS + f"<urlset {NS}><url><loc>&lol9;</loc></url></urlset>".encode(),
                {},
            ),
            "/laughs-feed.xml": (
                "application/rss+xml",
                LAUGHS
                + b'<rss version="2.0"><channel><item><title>&lol9;</title><link>&lol9;</link></item></channel></rss>',
                {},
            ),
            "/garbage-feed.xml": ("application/rss+xml", bytes(range(256)) * 64, {}),
            "/garbage-sitemap.xml": ("application/xml", b"<html><body>Not found, sorry</body></html>", {}),
        }
    )
    site = new_site(web, find_sources=False)
    for path, kind in [
        ("/bomb.xml.gz", "sitemap"),
        ("/bomb-feed.xml", "feed"),
        ("/laughs-sitemap.xml", "sitemap"),
        ("/laughs-feed.xml", "feed"),
        ("/garbage-feed.xml", "feed"),
        ("/garbage-sitemap.xml", "sitemap"),
        ("/good-feed.xml", "feed"),
    ]:
        Source.objects.create(site=site, url=base + path, kind=kind)
    outcome = services.poll_site(site.pk)
    assert outcome.result == "polled", outcome.detail
    site.refresh_from_db()
    errors = dict(line.split(": ", 1) for line in site.last_error.splitlines())
    assert set(errors) == {
        base + "/bomb.xml.gz",
        base + "/bomb-feed.xml",
        base + "/laughs-sitemap.xml",
        base + "/laughs-feed.xml",
        base + "/garbage-feed.xml",
        base + "/garbage-sitemap.xml",
    }, site.last_error
    assert "not a sitemap: the root element is <html>" in errors[base + "/garbage-sitemap.xml"]
    assert "not a readable feed" in errors[base + "/garbage-feed.xml"]
    assert errors[base + "/bomb.xml.gz"] == "nothing read: 10 MiB uncompressed read"
    assert "exceeds the 1000000-byte cap" in errors[base + "/bomb-feed.xml"]
    assert "declares XML entities" in errors[base + "/laughs-feed.xml"]
    assert "unexpected error" not in site.last_error
    assert site.consecutive_failures == 1 and site.last_success_at is not None, "the site itself answered"
    urls = set(Article.objects.filter(site=site).values_list("url", flat=True))
    assert base + "/2026/11/home-story.html" in urls and base + "/2026/11/feed-story.html" in urls
    assert not any("lol" in url for url in urls), "no entity reference became a link"


# --------------------------------------------------------------------------------------------- the admin, the API


@pytest.fixture
def site_admin(client):
    user = get_user_model().objects.create_user("siteadmin", password="pw-Long-enough-1", is_staff=True)
    user.groups.add(roles.ensure_groups()[roles.SITE_ADMINISTRATORS])
    client.force_login(user)
    return client


def test_registering_in_the_admin_leads_to_the_sources_preview_and_keeps_the_ticked_ones(web, fast_env, site_admin):
    serve_news_site(web, timezone.now())
    response = site_admin.post(
        "/admin/monitor/site/add/",
        {
            "name": "Local Times",
            "home_url": web.base + "/",
            "active": "on",
            "articles_only": "on",
            "poll_interval": "600",
        },
    )
    site = Site.objects.get(name="Local Times")
    assert site.find_sources, "found at its first poll if nobody chooses in the preview"
    assert response.status_code == 302 and response["Location"] == f"/admin/monitor/site/{site.pk}/sources/"
    # the demo-like site is on loopback: a superuser allows it (the site administrator may not)
    Site.objects.filter(pk=site.pk).update(allow_private_addresses=True)
    page = site_admin.get(response["Location"]).content.decode()
    assert Source.objects.count() == 0, "a preview saves nothing"
    assert "feed: " + web.base + "/feed.xml" in page and "announced in &lt;head&gt;" in page
    assert "sitemap: " + web.base + "/news-sitemap.xml" in page and "Google News sitemap, 2 entries" in page
    assert "section: " + web.base + "/world/" in page
    # per source, the links it yields and the verdict on each
    assert "<td>" + web.base + "/2026/11/news-story-1.html</td><td>yes</td><td>" in page
    assert "<td>" + web.base + "/about/</td><td>no</td><td>its address: " in page
    assert "<td>" + web.base + "/2026/10/old-story.html</td><td>no</td><td>dated 20" in page
    assert "older than 2 days" in page
    assert "<td>" + web.base + "/2026/11/world-story.html</td><td>yes</td>" in page, "a section page was read"
    assert page.count(" checked>") == 3, "the feed and both sitemaps ticked, the sections not"
    signed = page.split('name="proposal" value="', 1)[1].split('"', 1)[0]
    keep = [web.base + "/feed.xml", web.base + "/world/"]
    response = site_admin.post(f"/admin/monitor/site/{site.pk}/sources/", {"proposal": signed, "keep": keep})
    assert response.status_code == 302
    site.refresh_from_db()
    assert not site.find_sources
    active = set(site.sources.filter(active=True).values_list("url", flat=True))
    assert active == set(keep) and site.sources.count() == 6
    change = site_admin.get(f"/admin/monitor/site/{site.pk}/change/").content.decode()
    assert f'href="/admin/monitor/site/{site.pk}/sources/"' in change, "Find sources, on demand"
    assert web.base + "/news-sitemap.xml" in change, "the sources inline"
    # an altered proposal is refused
    response = site_admin.post(f"/admin/monitor/site/{site.pk}/sources/", {"proposal": signed + "x", "keep": keep})
    assert response.status_code == 302 and Source.objects.count() == 6


def test_a_site_registered_through_the_api_finds_its_sources_at_its_first_poll(web, fast_env, client):
    from rest_framework.test import APIClient

    serve_news_site(web, timezone.now())
    user = get_user_model().objects.create_superuser("root", password="pw-Long-enough-2")
    api = APIClient()
    api.force_authenticate(user)
    response = api.post(
        "/api/sites/",
        {"name": "Local Times", "home_url": web.base + "/", "allow_private_addresses": True},
        format="json",
    )
    assert response.status_code == 201, response.content
    assert response.json()["find_sources"] is True and response.json()["sources"] == []
    site_id = response.json()["id"]
    services.poll_site(site_id)
    sources = api.get(f"/api/sites/{site_id}/").json()["sources"]
    assert {(s["url"].removeprefix(web.base), s["active"]) for s in sources} >= {
        ("/feed.xml", True),
        ("/news-sitemap.xml", True),
        ("/world/", False),
    }
    # the administrator's choice stands when the sources are found again
    Source.objects.filter(url=web.base + "/feed.xml").update(active=False)
    response = api.post(f"/api/sites/{site_id}/find-sources/")
    assert response.status_code == 200 and response.json()["find_sources"] is True
    services.poll_site(site_id)
    assert not Source.objects.get(url=web.base + "/feed.xml").active
    assert not Site.objects.get(pk=site_id).find_sources


def test_typed_in_sections_and_feed_keep_working_beside_the_sources_found(web, fast_env):
    now = timezone.now()
    serve_news_site(web, now)
    site = new_site(web, find_sources=False, section_urls=web.base + "/world/", feed_url=web.base + "/feed.xml")
    Source.objects.create(site=site, url=web.base + "/feed.xml", kind="feed")  # the same feed, found as well
    assert site.polled_sources() == [(web.base + "/world/", "section"), (web.base + "/feed.xml", "feed")]
    services.poll_site(site.pk)
    assert web.asked("/feed.xml") == [200], "read once"
    assert web.asked("/") == [], "typed-in sections replace the home page, as before"
    urls = set(Article.objects.filter(site=site).values_list("url", flat=True))
    assert web.base + "/2026/11/world-story.html" in urls and web.base + "/2026/11/feed-story-1.html" in urls


def test_find_sources_leaves_out_the_section_pages_typed_in(web, fast_env):
    """A live trial: *Find sources* proposed the section pages typed in on the site (polled already) as new sources,
    unticked, as if they were not watched. They are left out: the preview lists them as polled in any case."""
    serve_news_site(web, timezone.now())
    site = new_site(web, find_sources=False, section_urls=f"{web.base}/\n{web.base}/world/")
    proposed = {found.url.removeprefix(web.base) for found in services.find_sources(site).sources}
    assert "/world/" not in proposed and {"/politics/", "/sport/"} <= proposed, proposed
    assert (web.base + "/world/", "section") in site.polled_sources()


def test_a_source_of_a_site_on_private_addresses_stays_on_its_host(web):
    from django.core.exceptions import ValidationError

    site = new_site(web, find_sources=False)
    with pytest.raises(ValidationError):
        Source(site=site, url="http://10.0.0.1/feed.xml", kind="feed").clean()
    Source(site=site, url=web.base + "/feed.xml", kind="feed").clean()


def test_a_busy_host_defers_a_sitemap_source_before_its_first_file_only(web, tunables):
    """A poll never sleeps for its host's first turn (it stores its progress and comes back), but within a sitemap's
    walk the next files wait their turn: a deferral would start the walk again, and a tree of sitemaps behind a
    busy host would never be read to its end."""
    delay = 0.5
    tunables(WIMS_POLITENESS_DELAY=str(delay), WIMS_POLITENESS_MAX_WAIT="0.05")
    now = timezone.now()
    base = web.base
    web.routes["/"] = ("text/html", b'<a href="/2026/11/home-story.html">A story</a>', {})
    web.routes["/index.xml"] = ("application/xml", sitemap_index(base, [("/a.xml", now), ("/b.xml", now)]), {})
    for name in ("a", "b"):
        web.routes[f"/{name}.xml"] = ("application/xml", urlset(base, [(f"/2026/11/{name}-story.html", now)]), {})
    site = new_site(web, find_sources=False)
    Source.objects.create(site=site, url=base + "/index.xml", kind="sitemap")
    outcomes = []
    for _ in range(6):
        outcome = services.poll_site(site.pk)
        outcomes.append(outcome.result)
        if outcome.result != "deferred":
            break
        time.sleep(outcome.enqueue[-1][2])
    assert outcomes[-1] == "polled" and "deferred" in outcomes, outcomes
    assert sitemaps_asked(web) == ["/index.xml", "/a.xml", "/b.xml"], "each file read once"
    urls = set(Article.objects.filter(site=site).values_list("url", flat=True))
    assert urls == {base + "/2026/11/home-story.html", base + "/2026/11/a-story.html", base + "/2026/11/b-story.html"}
    site.refresh_from_db()
    assert site.last_error == ""


def test_the_preview_judges_a_pages_links_where_they_sit_as_a_poll_does():
    """A link whose address reads as an article's but that sits only in the page's footer is no candidate for a
    poll (monitor.links); the preview showed it taken, judging the address alone."""
    nav = '<nav><ul><li><a href="/body/">Body</a></li></ul></nav>'
    story = '<main><h3><a href="/2026/11/27/a-long-walk-a-day-helps/">A long walk a day helps</a></h3></main>'
    footer = '<footer><a href="/2026/11/27/our-new-privacy-policy-explained/">Privacy</a></footer>'
    page = f"<html><body>{nav}{story}{footer}</body></html>".encode()
    pages = {"https://well.example/": page, "https://well.example/body/": page}

    proposal = find_on(pages)
    section = next(found for found in proposal.sources if found.url == "https://well.example/body/")
    for item in (proposal.home, section):
        verdicts = {link.url: (link.taken, link.reason) for link in item.links}
        assert verdicts["https://well.example/2026/11/27/a-long-walk-a-day-helps/"] == (
            True,
            "in a story list (its text is a headline)",
        )
        assert verdicts["https://well.example/2026/11/27/our-new-privacy-policy-explained/"] == (
            False,
            "only in the page's footer",
        )
        assert item.taken == 1
