"""Publication dates: from the feed item when the link came from a feed, else from the page; parsed leniently."""

import time
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

import filters
from demo import sites as demo_sites
from monitor import services
from monitor.discovery import gives_time, links_from_feed, page_metadata, parse_date, published_date
from monitor.models import Article, Site
from processing.extraction import read_metadata
from tests.monitor.conftest import ground_truth, poll_outcomes, register, run_tasks, special_report

NOW = datetime(2026, 1, 10, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    "value, expected",
    [
        ("2025-03-03T08:00:00+00:00", datetime(2025, 3, 3, 8, 0, tzinfo=UTC)),
        ("2025-03-03T10:00:00+02:00", datetime(2025, 3, 3, 8, 0, tzinfo=UTC)),
        ("2025-03-03T08:00:00Z", datetime(2025, 3, 3, 8, 0, tzinfo=UTC)),
        ("2025-03-03T08:00:00.123456Z", datetime(2025, 3, 3, 8, 0, 0, 123456, tzinfo=UTC)),
        ("2025-03-03", datetime(2025, 3, 3, tzinfo=UTC)),  # no zone: UTC
        ("  2025-03-03T08:00  ", datetime(2025, 3, 3, 8, 0, tzinfo=UTC)),
        ("Mon, 03 Mar 2025 08:00:00 GMT", datetime(2025, 3, 3, 8, 0, tzinfo=UTC)),
        ("Mon, 03 Mar 2025 09:00:00 +0100", datetime(2025, 3, 3, 8, 0, tzinfo=UTC)),
        (time.gmtime(1741000000), datetime.fromtimestamp(1741000000, UTC)),  # feedparser's *_parsed
        ("", None),
        (None, None),
        ("yesterday", None),
        ("2025-13-45", None),
        ("03/03/2025", None),
        ("1970-01-01T00:00:00Z", None),  # implausible: before 1990
        ("2026-03-01T00:00:00Z", None),  # more than two days ahead
        ("x" * 10_000 + "2025", None),
        (b"2025-03-03", None),
        (20250303, None),
    ],
)
def test_dates_are_parsed_leniently_and_timezone_aware(value, expected):
    when = parse_date(value, now=NOW)
    assert when == expected
    assert when is None or when.tzinfo is not None


@given(st.text(max_size=80))
def test_parse_date_never_raises(text):
    when = parse_date(text)
    assert when is None or when.utcoffset() is not None


def page(head: str = "", body: str = "<p>Story text.</p>") -> str:
    return f"<html><head><title>t</title>{head}</head><body>{body}</body></html>"


@pytest.mark.parametrize(
    "html, expected",
    [
        (page('<meta property="article:published_time" content="2025-03-03T08:00:00Z">'), "2025-03-03T08:00:00+00:00"),
        (page('<meta property="og:published_time" content="2025-03-04T08:00:00+01:00">'), "2025-03-04T07:00:00+00:00"),
        (page('<meta itemprop="datePublished" content="2025-03-05">'), "2025-03-05T00:00:00+00:00"),
        (page(body='<span itemprop="datePublished">2025-03-06T09:30:00Z</span>'), "2025-03-06T09:30:00+00:00"),
        (
            page(
                '<script type="application/ld+json">{"@type": "NewsArticle", "datePublished": "2025-03-07T08:00:00Z"}'
                "</script>"
            ),
            "2025-03-07T08:00:00+00:00",
        ),
        (
            page(
                '<script type="application/ld+json">[{"@context": "https://schema.org", '
                '"@graph": [{"@type": "WebPage"},'
                ' {"@type": "Article", "datePublished": "2025-03-08T08:00:00Z"}]}]</script>'
            ),
            "2025-03-08T08:00:00+00:00",
        ),
        (page(body='<p><time datetime="2025-03-09T08:00:00Z">9 March</time></p>'), "2025-03-09T08:00:00+00:00"),
        # The first readable source wins; unreadable ones are skipped.
        (
            page(
                '<meta property="article:published_time" content="soon">'
                '<script type="application/ld+json">{not json</script>',
                '<time datetime="2025-03-10T08:00:00Z">x</time><time datetime="2020-01-01">y</time>',
            ),
            "2025-03-10T08:00:00+00:00",
        ),
        (page(body='<time datetime="never">x</time>'), None),
        (page(), None),
        ("", None),
        (b"\x00\x01\x02binary", None),
        ("<<<>>>", None),
    ],
)
def test_the_page_date_comes_from_meta_microdata_json_ld_or_time(html, expected):
    when = published_date(html)
    assert (when.astimezone(UTC).isoformat() if when else None) == expected


def test_json_ld_nested_too_deep_is_skipped_not_raised():
    deep = "[" * 100_000 + "]" * 100_000
    html = page(f'<script type="application/ld+json">{deep}</script>', '<time datetime="2025-03-10T08:00:00Z">x</time>')
    assert published_date(html) == datetime(2025, 3, 10, 8, tzinfo=UTC)


def test_page_metadata_reads_the_canonical_link_and_the_date_from_one_parse():
    html = page(
        '<link rel="canonical" href="/news/a.html"><meta property="article:published_time" '
        'content="2025-03-03T08:00:00Z">'
    )
    assert page_metadata(html, "http://news.test/news/a.html?utm_source=x") == (
        "http://news.test/news/a.html",
        datetime(2025, 3, 3, 8, 0, tzinfo=UTC),
    )


def test_feed_items_give_their_dates():
    rss = """<?xml version="1.0"?><rss version="2.0"><channel><title>t</title>
    <item><link>http://news.test/a.html</link><pubDate>Mon, 03 Mar 2025 08:00:00 GMT</pubDate></item>
    <item><link>http://news.test/b.html</link><pubDate>not a date</pubDate></item>
    <item><link>http://news.test/c.html</link></item>
    </channel></rss>"""
    dates = {}
    assert links_from_feed(rss, "http://news.test/rss.xml", dates) == [
        "http://news.test/a.html",
        "http://news.test/b.html",
        "http://news.test/c.html",
    ]
    assert dates == {"http://news.test/a.html": datetime(2025, 3, 3, 8, 0, tzinfo=UTC)}
    atom = """<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>t</title>
    <entry><link href="http://news.test/d.html"/><updated>2025-03-04T10:00:00+02:00</updated></entry></feed>"""
    dates = {}
    links_from_feed(atom, "http://news.test/atom.xml", dates)
    assert dates == {"http://news.test/d.html": datetime(2025, 3, 4, 8, 0, tzinfo=UTC)}


def test_every_demo_template_exposes_its_articles_dates():
    for spec in demo_sites.SERVED_SITES:
        for article, when in demo_sites.fixed_context(spec).published[:3]:
            assert published_date(demo_sites.render_article_page(spec.key, article.slug)) == when, spec.key


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("key", ["healthwatch", "courier", "wellbeing"])
def test_fetched_articles_get_their_publication_date(demo, fast_env, key):
    """Health Watch and the Wellbeing Times have a feed (RSS, Atom: its items' dates), the Courier only its pages'
    dates (read when the page is processed: it is parsed once, for its metadata and the filters)."""
    site = register(demo, key)
    outcome = services.poll_site(site.pk)
    from_feed = {a.url: a.published_at for a in Article.objects.filter(site=site)}
    ran = run_tasks(outcome)
    reports = len(special_report(demo, key))
    assert sorted((name, outcome.result) for name, _, outcome in ran) == poll_outcomes(4, reports)
    truth = ground_truth(demo, key)
    assert len(truth) == 4
    for url, item in truth.items():
        article = Article.objects.get(site=site, url=url)
        expected = datetime.fromisoformat(item["published"])
        assert article.published_at is not None and article.published_at.utcoffset() == timedelta(0)
        assert abs(article.published_at - expected) < timedelta(seconds=1), (url, article.published_at, expected)
        if demo.sites[key].has_feed:  # the feed's date (RSS's RFC 822, to the second), set when the link was found
            assert from_feed[url] == expected.replace(microsecond=0)
        else:
            assert from_feed[url] is None


# --------------------------------------------------------------------------- a date alone, or a date and time
@pytest.mark.parametrize(
    "value, time_given",
    [
        ("2025-03-03", False),
        ("  2025-03-03 ", False),
        ("2025-03-03T00:00:00Z", True),  # midnight said in full is a time
        ("2025-03-03T08:00", True),
        ("Mon, 03 Mar 2025 00:00:00 GMT", True),
    ],
)
def test_a_date_alone_is_told_from_a_date_and_time(value, time_given):
    when = parse_date(value, now=NOW)
    assert when is not None and when.date() == datetime(2025, 3, 3).date()
    assert gives_time(when) is time_given
    assert gives_time(None) is None


def test_feed_and_page_dates_keep_whether_they_gave_a_time():
    atom = """<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>t</title>
    <entry><link href="http://news.test/d.html"/><published>2025-03-04</published></entry>
    <entry><link href="http://news.test/e.html"/><published>2025-03-04T10:00:00Z</published></entry></feed>"""
    dates = {}
    links_from_feed(atom, "http://news.test/atom.xml", dates)
    assert {url: gives_time(when) for url, when in dates.items()} == {
        "http://news.test/d.html": False,
        "http://news.test/e.html": True,
    }
    assert gives_time(published_date(page('<meta itemprop="datePublished" content="2025-03-05">'))) is False
    assert gives_time(published_date(page(body='<time datetime="2025-03-05T07:00Z">x</time>'))) is True


@pytest.mark.django_db
def test_stored_articles_keep_whether_their_date_gave_a_time():
    site = Site.objects.create(name="S", home_url="http://s.test/")
    day, timed = parse_date("2025-03-03"), parse_date("2025-03-03T08:00:00Z")
    services.create_pending(site, ["http://s.test/a", "http://s.test/b", "http://s.test/c"], {"http://s.test/a": day})
    services.create_pending(site, ["http://s.test/b"], {"http://s.test/b": timed})  # a known link gets the date
    stored = dict(Article.objects.values_list("url", "published_time_given"))
    assert stored == {"http://s.test/a": False, "http://s.test/b": True, "http://s.test/c": None}
    # processing: the page's date when the feed gave none
    article = Article.objects.get(url="http://s.test/c")
    read_metadata(article, filters.read_page(page('<meta itemprop="datePublished" content="2025-03-05">').encode()))
    assert (article.published_at, article.published_time_given) == (datetime(2025, 3, 5, tzinfo=UTC), False)
