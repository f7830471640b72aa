"""Sources found for the administrator (monitor/sources.py): feeds a page announces, sitemaps (robots.txt, the
usual addresses, urlsets, indexes, Google News, gzip) read under hard bounds, and the section pages a home
page links to most prominently. Pure: no database, no network (walk takes a fake fetch).

Real pages: the crawl-to-the-future archived news pages of the shared datasets (skipped where absent).
"""

from __future__ import annotations

import gzip
import re
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from filters.kind import Kind, link_kind
from monitor.sources import (
    Feed,
    Sitemap,
    SitemapCandidate,
    SitemapLimits,
    SourceError,
    announced_feeds,
    parse_sitemap,
    prominent_sections,
    robots_sitemaps,
    sitemap_candidates,
    usual_sitemap_urls,
    walk,
)

FIXTURES = Path(__file__).parent / "sources_fixtures"
HOME = "https://www.example-times.com/"
NOW = datetime(2026, 11, 26, 12, tzinfo=UTC)
MiB = 1024 * 1024
NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
NEWS_NS = 'xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"'


def urlset(*locs: str, extra: str = "") -> bytes:
    body = "".join(f"<url><loc>{loc}</loc>{extra}</url>" for loc in locs)
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset {NS}>{body}</urlset>'.encode()


def index(*locs: str) -> bytes:
    body = "".join(f"<sitemap><loc>{loc}</loc><lastmod>2026-11-20</lastmod></sitemap>" for loc in locs)
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex {NS}>{body}</sitemapindex>'.encode()


# ----------------------------------------------------------------------------------------------- feeds


def test_feeds_announced_in_head_rss_atom_json_resolved_and_without_junk():
    feeds = announced_feeds((FIXTURES / "home.html").read_bytes(), "https://www.example-times.com/index.html")
    assert [(f.url, f.kind) for f in feeds] == [
        ("https://www.example-times.com/rss/top.xml", "rss"),  # relative, resolved against <base href>
        ("https://www.example-times.com/politics/atom.xml", "atom"),  # relative without a leading slash
        ("https://www.example-times.com/feed.json", "json"),
    ]  # not: the comments feed, the stylesheet, text/html and PDF alternates, the same feed with utm_source
    assert feeds[0].title == "The Example Times: top stories"
    assert feeds[0].reason == "announced in <head> as application/rss+xml ('The Example Times: top stories')"
    assert feeds[2].reason.startswith("announced in <head> as application/feed+json")


def test_feeds_types_and_edge_cases():
    page = b"""<html><head>
      <link rel="ALTERNATE" type="Application/RSS+XML; charset=utf-8" href="rss.xml">
      <link rel="alternate" type="application/rdf+xml" href="/index.rdf" title="RSS 1.0">
      <link rel="alternate" type="application/json" href="/feed/json" title="JSON Feed 1.0">
      <link rel="alternate" type="text/xml" href="/atom-feed" title="Atom">
      <link rel="alternate" type="text/xml" href="/data.xml" title="Our data">
      <link rel="alternate" type="application/rss+xml" href="">
      <link rel="alternate" type="application/rss+xml" href="javascript:alert(1)">
      <link rel="alternate" type="application/atom+xml" href="/2026/11/post/comments/feed">
      <link rel="alternate" type="application/rss+xml" href="/kommentare.rss">
      <link rel="alternate" type="application/rss+xml" href="/comment/rss" title="Comment and opinion">
      <link rel="alternate" href="/no-type.xml">
      <link rel="feed" type="application/rss+xml" href="/not-alternate.xml">
      <link rel="alternate" type="image/png" href="/logo.png">
    </head><body><link rel="alternate" type="application/rss+xml" href="https://cdn.example.net/body.rss"></body></html>"""
    feeds = announced_feeds(page, "https://example.com/news/")
    assert [(f.url, f.kind) for f in feeds] == [
        ("https://example.com/news/rss.xml", "rss"),
        ("https://example.com/index.rdf", "rss"),
        ("https://example.com/feed/json", "json"),
        ("https://example.com/atom-feed", "atom"),  # text/xml, but named a feed
        ("https://example.com/comment/rss", "rss"),  # an opinion section ("Comment"), not a comments feed
        ("https://cdn.example.net/body.rss", "rss"),  # another host is kept: feeds often live on a CDN
    ]
    assert feeds[-1].reason == "announced in the page as application/rss+xml"


@pytest.mark.parametrize("page", [b"", b"   ", b"\x00\xff\xfe garbage", "<html><head></head></html>", b"<<<>>>"])
def test_feeds_of_no_page_or_garbage_are_none(page):
    assert announced_feeds(page, HOME) == []


def test_feeds_announced_by_real_archived_news_pages(datasets):
    root = datasets / "crawl-to-the-future" / "sites"
    if not root.is_dir():
        pytest.skip("crawl-to-the-future absent")
    expected = {
        # site, year: a feed one page of that year announces (as archived: hrefs unrewritten or relative)
        ("news.bbc.co.uk", "2010"): "http://newsrss.bbc.co.uk/rss/newsonline_world_edition/americas/rss.xml",
        ("www.cnn.com", "2010"): "http://rss.cnn.com/rss/cnn_health.rss",
        ("thenation.com", "2005"): "http://thenation.com/rss/rap.mhtml",  # relative href resolved
    }
    for (site, year), feed in expected.items():
        pages = sorted((root / site / year).glob("*.html.gz"))
        assert pages, (site, year)
        found = {f.url for p in pages for f in announced_feeds(gzip.decompress(p.read_bytes()), f"http://{site}/")}
        assert feed in found, (site, year, sorted(found)[:5])
    # every page of every site: feeds found are absolute http(s) URLs of a known kind, and reading never fails
    total = 0
    for path in sorted(root.glob("*/*/*.html.gz")):
        for f in announced_feeds(gzip.decompress(path.read_bytes()), "http://example.org/"):
            assert isinstance(f, Feed) and f.url.startswith(("http://", "https://")) and f.kind in {"rss", "atom"}
            assert f.reason.startswith("announced in")
            total += 1
    assert total >= 200


# ----------------------------------------------------------------------------------------- where sitemaps are


def test_robots_sitemaps_named_canonical_once_absolute_only():
    assert robots_sitemaps((FIXTURES / "robots.txt").read_text()) == [
        "https://www.example-times.com/sitemap_index.xml",
        "https://www.example-times.com/news-sitemap.xml",
    ]  # repeated once, the relative and the ftp ones left out


@pytest.mark.parametrize("text", ["", "User-agent: *\nDisallow: /\n", "\x00\x01garbage\n" * 1000, "Sitemap:\n"])
def test_robots_without_sitemaps(text):
    assert robots_sitemaps(text) == []


def test_robots_read_up_to_its_cap():
    text = "# padding\n" * 60_000 + "Sitemap: https://example.com/late.xml\n"  # past the first 512 KiB
    assert robots_sitemaps("Sitemap: https://example.com/early.xml\n" + text) == ["https://example.com/early.xml"]


def test_usual_sitemap_urls_and_candidates():
    assert usual_sitemap_urls("https://www.Example-Times.com/some/page?x=1") == [
        "https://www.example-times.com/sitemap.xml",
        "https://www.example-times.com/sitemap_index.xml",
        "https://www.example-times.com/news-sitemap.xml",
        "https://www.example-times.com/sitemap-news.xml",
    ]
    named = sitemap_candidates((FIXTURES / "robots.txt").read_text(), HOME)
    assert [c.reason for c in named] == ["named in robots.txt"] * 2
    usual = sitemap_candidates(None, HOME)
    assert [c.url for c in usual] == usual_sitemap_urls(HOME)
    assert usual[0].reason == "at a usual address (robots.txt names none)"
    assert sitemap_candidates("User-agent: *\nDisallow:\n", HOME) == usual
    with pytest.raises(SourceError, match="not an http"):
        usual_sitemap_urls("ftp://example.com/")


# ------------------------------------------------------------------------------------------------ sitemaps


def test_google_news_sitemap():
    sitemap = parse_sitemap((FIXTURES / "news-sitemap.xml").read_bytes(), HOME + "news-sitemap.xml", now=NOW)
    assert sitemap.kind == "urlset" and sitemap.news and not sitemap.truncated
    first, second = sitemap.entries  # the blank and the ftp locs are left out
    assert first.url == "https://www.example-times.com/world/2026/11/25/summit-ends-without-agreement-on-climate-fund"
    assert first.news_title == "Summit ends without agreement on climate fund"
    assert first.news_published == datetime(2026, 11, 25, 20, 40, tzinfo=UTC)
    assert first.news_publication == "The Example Times"
    assert second.url == "https://www.example-times.com/business/markets-rally-as-rates-fall-8812345"  # utm dropped
    assert second.news_title == "Markets rally as rates fall & bonds slip"
    assert sitemap.reason == "Google News sitemap, 2 entries, newest 2026-11-25"
    sitemap.found = "named in robots.txt"
    assert sitemap.reason == "named in robots.txt: Google News sitemap, 2 entries, newest 2026-11-25"


def test_urlset_plain_relative_no_namespace_bom_and_dates():
    data = (
        b"\xef\xbb\xbf<?xml version='1.0'?><!-- generated --><urlset>"
        b"<url><loc>/a</loc><lastmod>2026-11-20T08:00:00Z</lastmod><changefreq>daily</changefreq></url>"
        b"<url><loc>https://example.com/b</loc><lastmod>not a date</lastmod></url>"
        b"<url><loc>https://example.com/c</loc><lastmod>2031-01-01</lastmod></url>"  # in the future: not believed
        b"<url><loc>https://example.com/a</loc></url></urlset>"
    )
    sitemap = parse_sitemap(data, "https://example.com/sitemap.xml", now=NOW)
    assert [e.url for e in sitemap.entries] == [
        "https://example.com/a",
        "https://example.com/b",
        "https://example.com/c",
        "https://example.com/a",
    ]  # as the file lists them (SitemapWalk.entries() keeps the first of each)
    assert [e.lastmod for e in sitemap.entries[:3]] == [datetime(2026, 11, 20, 8, tzinfo=UTC), None, None]
    assert not sitemap.news and sitemap.reason == "sitemap, 4 entries, newest 2026-11-20"


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "iso-8859-1"])
def test_declared_encodings(encoding):
    text = f'<?xml version="1.0" encoding="{encoding}"?><urlset {NS}><url><loc>https://example.com/café</loc></url></urlset>'
    sitemap = parse_sitemap(text.encode(encoding), "https://example.com/s.xml")
    assert [e.url for e in sitemap.entries] == ["https://example.com/caf%C3%A9"]
    assert sitemap.reason == "sitemap, 1 entry"


def test_sitemap_index():
    sitemap = parse_sitemap(index("https://example.com/s1.xml", "/s2.xml.gz"), "https://example.com/idx.xml", now=NOW)
    assert sitemap.kind == "index" and sitemap.entries == []
    assert [c.url for c in sitemap.children] == ["https://example.com/s1.xml", "https://example.com/s2.xml.gz"]
    assert sitemap.reason == "sitemap index, 2 sitemaps, newest 2026-11-20"


def test_gzip_and_concatenated_gzip_members():
    data = urlset(*(f"https://example.com/{i}" for i in range(100)))
    sitemap = parse_sitemap(gzip.compress(data), "https://example.com/s.xml.gz")
    assert len(sitemap.entries) == 100 and sitemap.compressed and sitemap.bytes_read == len(data)
    assert sitemap.reason == "sitemap, 100 entries, gzip"
    half = len(data) // 2
    two_members = gzip.compress(data[:half]) + gzip.compress(data[half:])
    assert len(parse_sitemap(two_members, "https://example.com/s.xml.gz").entries) == 100


def test_gzip_bomb_stops_at_the_byte_cap():
    # 256 MiB of elements compressed into 250 KB: read as far as the 50 MiB cap (default), no further
    bomb = gzip.compress(f"<urlset {NS}><url><loc>https://example.com/first</loc></url>".encode() + b"<x/>" * 2**26)
    assert len(bomb) < MiB // 2
    started = time.monotonic()
    sitemap = parse_sitemap(bomb, "https://example.com/bomb.xml.gz")
    assert sitemap.bytes_read == SitemapLimits().max_bytes == 50 * MiB
    assert [e.url for e in sitemap.entries] == ["https://example.com/first"]
    assert sitemap.truncated == ["50 MiB uncompressed read"]
    assert time.monotonic() - started < 60
    # a smaller cap stops sooner; a bomb of blanks is one text node, refused by libxml2's own 10 MB limit
    assert parse_sitemap(bomb, "https://example.com/b.gz", SitemapLimits(max_bytes=MiB)).bytes_read == MiB
    blanks = gzip.compress(f"<urlset {NS}>".encode() + b" " * 64 * MiB)
    with pytest.raises(SourceError, match="malformed XML"):
        parse_sitemap(blanks, "https://example.com/blanks.xml.gz")


def test_a_50_mb_sitemap_is_read_up_to_the_cap():
    head = urlset("https://example.com/early").removesuffix(b"</urlset>")
    data = head + b"<x/>" * (15 * MiB) + b"<url><loc>https://example.com/late</loc></url></urlset>"
    assert len(data) > 60 * MiB
    sitemap = parse_sitemap(data, "https://example.com/big.xml")
    assert [e.url for e in sitemap.entries] == ["https://example.com/early"]
    assert sitemap.bytes_read == 50 * MiB and sitemap.truncated == ["the first 50 MiB read"]
    # compressed input: the same cap applies to the bytes read before inflating
    small = SitemapLimits(max_bytes=1000)
    capped = parse_sitemap(gzip.compress(data[:5000]), "https://example.com/big.xml.gz", small)
    assert capped.bytes_read <= 1000 and capped.truncated


def test_100000_entries_keep_the_first_50000():
    data = urlset(*(f"https://example.com/a/{i}" for i in range(100_000)))
    sitemap = parse_sitemap(data, "https://example.com/s.xml")
    assert len(sitemap.entries) == 50_000 and sitemap.entries[-1].url == "https://example.com/a/49999"
    assert sitemap.truncated == ["50,000 entries kept"]
    assert "stopped early: 50,000 entries kept" in sitemap.reason
    assert sitemap.bytes_read < len(data)  # reading stopped there
    assert len(parse_sitemap(data, "https://example.com/s.xml", SitemapLimits(max_entries=10)).entries) == 10


def test_index_children_are_capped():
    data = index(*(f"https://example.com/s{i}.xml" for i in range(2_000)))
    sitemap = parse_sitemap(data, "https://example.com/idx.xml")
    assert len(sitemap.children) == 1_000 and sitemap.truncated == ["1,000 child sitemaps kept"]


BILLION_LAUGHS = (
    b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
    + b"".join(
        f'<!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">'.encode() for i in range(1, 10)
    )
    + f"]><urlset {NS}><url><loc>https://example.com/&lol9;</loc></url></urlset>".encode()
)


def test_billion_laughs_is_refused_quickly():
    started = time.monotonic()
    with pytest.raises(SourceError, match="amplification|entity|malformed"):
        parse_sitemap(BILLION_LAUGHS, "https://example.com/lol.xml")
    assert time.monotonic() - started < 5


def test_external_entities_are_never_resolved(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOPSECRET")
    data = (
        f'<?xml version="1.0"?><!DOCTYPE u [<!ENTITY x SYSTEM "file://{secret}">'
        f'<!ENTITY net SYSTEM "http://127.0.0.1:9/x">]>'
        f"<urlset {NS}><url><loc>https://example.com/&x;</loc></url><url><loc>&net;</loc></url>"
        f"<url><loc>https://example.com/ok</loc></url></urlset>"
    ).encode()
    sitemap = parse_sitemap(data, "https://example.com/xxe.xml")
    assert [e.url for e in sitemap.entries] == ["https://example.com/ok"]  # entries made of entities: left out
    assert "TOPSECRET" not in repr(sitemap)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "empty"),
        (b"  \n ", "empty"),
        (b"<html><body><h1>Not found</h1></body></html>", "root element is <html>"),
        (b"<!DOCTYPE html>\n<html><urlset></urlset></html>", "root element is <html>"),
        (b'<?xml version="1.0"?><rss version="2.0"><channel/></rss>', "root element is <rss>"),
        (b"<urlset><url><loc>https://example.com/</loc></url", "malformed XML"),
        (b"<urlset><url></urlset>", "malformed XML"),
        (b"<urlset><url><loc>https://example.com/a</loc></url>", "malformed XML"),  # cut short
        (b"just text", "malformed XML"),
        (b"\x1f\x8b\x08\x00garbage", "not readable gzip"),
        (gzip.compress(urlset("https://example.com/a"))[:-30], "ends inside the gzip stream"),  # cut short
        (b"<urlset>" + b"<a>" * 10_000 + b"</urlset>", "malformed XML"),  # nested past libxml2's depth limit
        (f"<urlset {NS}><url>".encode() + b"<x/>" * 100_000 + b"</url></urlset>", "more than 20,000 elements"),
    ],
)
def test_malformed_and_hostile_sitemaps_raise_source_error(data, message):
    with pytest.raises(SourceError, match=message):
        parse_sitemap(data, "https://example.com/sitemap.xml")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.binary(max_size=400), st.text(max_size=400).map(str.encode)), st.booleans())
def test_any_bytes_give_a_sitemap_or_source_error(data, compress):
    data = b"<urlset>" + data if len(data) % 2 else data
    try:
        result = parse_sitemap(gzip.compress(data) if compress else data, "https://example.com/s.xml")
    except SourceError:
        return
    assert isinstance(result, Sitemap)


# ------------------------------------------------------------------------------------------------- walk


class Site:
    """A fake fetch over a dict of URL -> body, recording what was asked."""

    def __init__(self, pages: dict[str, bytes]):
        self.pages = pages
        self.calls: list[tuple[str, int]] = []

    def __call__(self, url: str, max_bytes: int) -> bytes:
        self.calls.append((url, max_bytes))
        if url not in self.pages:
            raise SourceError("404 Not Found")
        return self.pages[url][:max_bytes]


def test_walk_follows_an_index_and_keeps_reasons():
    site = Site(
        {
            "https://example.com/idx.xml": index("https://example.com/a.xml", "https://example.com/b.xml.gz"),
            "https://example.com/a.xml": urlset("https://example.com/1", "https://example.com/2"),
            "https://example.com/b.xml.gz": gzip.compress(urlset("https://example.com/2", "https://example.com/3")),
        }
    )
    result = walk(SitemapCandidate("https://example.com/idx.xml", "named in robots.txt"), site, now=NOW)
    assert [s.url for s in result.sitemaps] == [
        "https://example.com/idx.xml",
        "https://example.com/a.xml",
        "https://example.com/b.xml.gz",
    ]
    assert result.sitemaps[0].reason == "named in robots.txt: sitemap index, 2 sitemaps, newest 2026-11-20"
    assert result.sitemaps[2].reason == (
        "listed in the sitemap index https://example.com/idx.xml: sitemap, 2 entries, gzip"
    )
    assert [e.url for e in result.entries()] == [f"https://example.com/{i}" for i in (1, 2, 3)]
    assert result.errors == [] and result.skipped == []
    # each file counts the larger of its fetched and uncompressed sizes
    unzipped = len(urlset("https://example.com/2", "https://example.com/3"))
    assert result.bytes_read == len(site.pages["https://example.com/idx.xml"]) + len(
        site.pages["https://example.com/a.xml"]
    ) + max(unzipped, len(site.pages["https://example.com/b.xml.gz"]))


def test_walk_an_index_pointing_at_itself_or_in_a_loop_reads_each_once():
    me = "https://example.com/loop.xml"
    site = Site(
        {
            me: index(me, "https://example.com/other.xml", me + "#top"),
            "https://example.com/other.xml": index(me, "https://example.com/other.xml"),
        }
    )
    result = walk(me, site)
    assert [url for url, _ in site.calls] == [me, "https://example.com/other.xml"]
    assert all("loop" in why for _, why in result.skipped) and len(result.skipped) == 4  # #top: the same URL
    assert result.skipped[0] == (me, f"already read (a loop: listed again by {me})")


def test_walk_an_index_10_deep_stops_at_max_depth():
    pages = {f"https://example.com/d{i}.xml": index(f"https://example.com/d{i + 1}.xml") for i in range(10)}
    pages["https://example.com/d10.xml"] = urlset("https://example.com/deep")
    site = Site(pages)
    result = walk("https://example.com/d0.xml", site)
    assert [url for url, _ in site.calls] == [f"https://example.com/d{i}.xml" for i in range(4)]  # depth 0..3
    assert result.skipped == [("https://example.com/d4.xml", "more than 3 index levels deep (max_depth)")]
    deeper = walk("https://example.com/d0.xml", Site(pages), SitemapLimits(max_depth=20))
    assert [e.url for e in deeper.entries()] == ["https://example.com/deep"]


def test_walk_count_bytes_entries_bounds():
    children = [f"https://example.com/s{i}.xml" for i in range(100)]
    pages = {"https://example.com/idx.xml": index(*children)}
    for i, url in enumerate(children):
        pages[url] = urlset(*(f"https://example.com/{i}/{j}" for j in range(10)))
    site = Site(pages)
    result = walk("https://example.com/idx.xml", site)
    assert len(site.calls) == 25 == len(result.sitemaps)  # max_sitemaps, the index included
    assert len(result.skipped) == 76 and result.skipped[0][1] == "25 sitemaps read (max_sitemaps)"

    size = len(pages[children[0]])
    budget = len(pages["https://example.com/idx.xml"]) + 3 * size + size // 2
    site = Site(pages)
    result = walk("https://example.com/idx.xml", site, SitemapLimits(max_total_bytes=budget))
    assert result.bytes_read <= budget
    assert [b for _, b in site.calls][-1] == size // 2  # the last fetch asked for no more than what was left
    # the last one was cut at what was left: read as far as that
    assert len(result.sitemaps) == 5 and result.errors == []
    assert result.sitemaps[-1].truncated == [f"the first {size // 2:,} bytes read"]
    assert result.skipped[0][1].endswith("read in all (max_total_bytes)")

    result = walk("https://example.com/idx.xml", Site(pages), SitemapLimits(max_total_entries=35))
    assert len(result.entries()) == 35 and len(result.sitemaps) == 5
    assert result.sitemaps[-1].truncated == ["5 entries kept"]
    assert result.skipped[0][1] == "35 entries kept in all (max_total_entries)"


def test_walk_records_errors_and_skips_other_sites():
    site = Site(
        {
            "https://example.com/idx.xml": index(
                "https://example.com/missing.xml",
                "https://example.com/broken.xml",
                "https://evil.example.net/s.xml",
                "https://www.example.com/ok.xml",
            ),
            "https://example.com/broken.xml": b"<html>soft 404</html>",
            "https://www.example.com/ok.xml": urlset("https://example.com/fine"),
        }
    )
    result = walk(["https://example.com/idx.xml", "not a url", "https://example.com/idx.xml"], site)
    assert result.errors == [
        ("not a url", "not an http(s) URL"),
        ("https://example.com/missing.xml", "404 Not Found"),
        ("https://example.com/broken.xml", "not a sitemap: the root element is <html>"),
    ]
    assert result.skipped == [
        ("https://evil.example.net/s.xml", "on another site than the index https://example.com/idx.xml")
    ]
    assert [e.url for e in result.entries()] == ["https://example.com/fine"]


def test_walk_a_fetch_returning_more_than_asked_counts_the_cap():
    big = urlset(*(f"https://example.com/{i}" for i in range(1000)))
    result = walk("https://example.com/s.xml", lambda url, n: big, SitemapLimits(max_bytes=5000))
    assert result.bytes_read == 5000 and result.sitemaps[0].truncated == ["the first 5,000 bytes read"]


# ------------------------------------------------------------------------------------------------ sections


def test_prominent_sections_of_a_crafted_home_page():
    sections = prominent_sections((FIXTURES / "home.html").read_bytes(), HOME)
    urls = [s.url for s in sections]
    assert urls[:5] == [
        "https://www.example-times.com/world/",  # in the navigation and linked again from the body
        "https://www.example-times.com/business/",
        "https://www.example-times.com/politics/",
        "https://www.example-times.com/sport/",
        "https://www.example-times.com/culture/books/",
    ]
    assert sections[0].text == "World"
    assert sections[0].reason == "in the navigation of the home page (link 1); linked 2 times; text 'World'"
    # the footer's puzzles (linked twice) come last; never: articles, sign in, about/privacy/contact, other sites,
    # the home page itself, the section linked once from the body
    assert urls[5:] == ["https://www.example-times.com/puzzles/"]
    assert prominent_sections((FIXTURES / "home.html").read_bytes(), HOME, limit=2) == sections[:2]


def test_sections_of_a_link_list_and_none_from_garbage():
    sidebar = "".join(f'<li><a href="/2/hi/{s}/default.stm">{s.title()}</a></li>' for s in ["africa", "europe", "asia"])
    page = (
        f"<html><body><div class=lhs><ul>{sidebar}<li><a href='/2/hi/uk/default.stm'>UK</a></li>"
        "<li><a href='/2/hi/europe/1234567.stm'>Long story</a></li></ul></div>"
        "<p>Some text about things and more text, lots of words here <a href='/2/hi/asia/default.stm'>Asia</a></p>"
        "</body></html>"
    )
    sections = prominent_sections(page, "http://news.example.co.uk/")
    assert [s.url for s in sections] == [
        "http://news.example.co.uk/2/hi/asia/default.stm",
        "http://news.example.co.uk/2/hi/africa/default.stm",
        "http://news.example.co.uk/2/hi/europe/default.stm",
        "http://news.example.co.uk/2/hi/uk/default.stm",
    ]
    assert sections[1].reason.startswith("in a list of links of the home page (link 1)")
    for junk in (b"", b"\x00\x01", "<html></html>", b"<a href='https://other.example/x'>Other</a>"):
        assert prominent_sections(junk, HOME) == []


_WAYBACK = re.compile(rb"(?:https?://web\.archive\.org)?/web/\d+(?:[a-z]{2}_)?\*?/")


def test_prominent_sections_of_real_archived_news_pages(datasets):
    root = datasets / "crawl-to-the-future" / "sites"
    if not root.is_dir():
        pytest.skip("crawl-to-the-future absent")
    expected = {
        # the archive's links (/web/<time>/http://…) turned back into the site's own
        ("www.cnn.com", "2010"): {"http://www.cnn.com/WORLD/", "http://www.cnn.com/POLITICS/"},
        ("news.bbc.co.uk", "2005"): {"http://news.bbc.co.uk/2/hi/africa/default.stm"},
        ("www.latimes.com", "2015"): {"http://www.latimes.com/local"},
    }
    for (site, year), wanted in expected.items():
        page = sorted((root / site / year).glob("*.html.gz"))[0]
        sections = prominent_sections(_WAYBACK.sub(b"", gzip.decompress(page.read_bytes())), f"http://{site}/")
        urls = {s.url for s in sections}
        assert wanted <= urls, (site, year, [s.url for s in sections])
        assert 1 <= len(sections) <= 8
        for s in sections:
            assert not re.search(r"\d{5,}|/(?:19|20)\d\d/\d\d/", s.url), s  # no article
            assert s.reason and s.text


def test_sections_proposed_for_the_demo_sites_are_their_section_fronts_only():
    """The demo home pages link tags, writers, the archive and further pages from their navigation as real
    fronts do; find-sources proposed tag and writer pages as sections (Health Watch's /tag/obesity/, the
    Courier's author.php?id=..., tags.php?tag=...). Only the site's section fronts are proposed now."""
    from demo.sites import get_site, render_home_page, template_for

    base = "http://127.0.0.1:9"
    for key in ("healthwatch", "courier", "wellbeing"):
        site = get_site(key)
        sections = [s.url for s in prominent_sections(render_home_page(key, base_url=base), base + "/", limit=8)]
        fronts = {base + template_for(site).section_path(s) for s in site.sections}
        assert fronts <= set(sections), (key, sections)
        for url in sections:
            assert not re.search(r"tags?[/.]|author|contributor|archive|page[=/]", url), (key, url)
            # no story: the Wellbeing Times links each one three times (headline, picture, "Comments")
            verdict = link_kind(url)
            assert verdict is not None and verdict.kind is Kind.LISTING, (key, url, verdict)
