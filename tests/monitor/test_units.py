"""Pure parts of WebMon: canonical URLs, link discovery, the address rule, Retry-After, backoff."""

import random
import socket

import pytest
from hypothesis import given
from hypothesis import strategies as st

from monitor import net, services
from monitor.canonical import canonicalise, origin_of, same_site
from monitor.discovery import (
    LinkRules,
    canonical_link,
    gives_time,
    links_from_feed,
    links_from_html,
    select_candidates,
)


@pytest.mark.parametrize(
    "url, expected",
    [
        ("HTTP://Example.COM:80/a/b.html#top", "http://example.com/a/b.html"),
        ("https://example.com:443", "https://example.com/"),
        ("https://example.com:8443/x", "https://example.com:8443/x"),
        ("http://example.com/a/./b/../c.html", "http://example.com/a/c.html"),
        ("http://example.com/sec/?utm_source=x&utm_medium=y&id=7", "http://example.com/sec/?id=7"),
        ("http://example.com/s?b=2&a=1&fbclid=zz&gclid=1", "http://example.com/s?a=1&b=2"),
        ("http://example.com/s?", "http://example.com/s"),
        ("http://user:pw@example.com/x", "http://example.com/x"),
        ("http://example.com/caf%c3%a9 x", "http://example.com/caf%C3%A9%20x"),
        ("http://bücher.example/", "http://xn--bcher-kva.example/"),
        ("http://example.com./x", "http://example.com/x"),
        ("mailto:someone@example.com", None),
        ("javascript:void(0)", None),
        ("ftp://example.com/file", None),
        ("http://example.com:99999/", None),
        ("", None),
    ],
)
def test_canonicalise(url, expected):
    assert canonicalise(url) == expected


def test_canonicalise_resolves_against_base_and_keeps_meaningful_query():
    base = "http://site.test/news/health/index.html?page=2"
    assert canonicalise("../research/story.html#c", base) == "http://site.test/news/research/story.html"
    assert canonicalise("/story.php?id=flu&utm_campaign=x", base) == "http://site.test/story.php?id=flu"
    assert canonicalise("?page=3", base) == "http://site.test/news/health/index.html?page=3"
    with pytest.raises(TypeError):
        canonicalise(None)


@given(st.sampled_from(["http://a.test/x/?id=1&utm_source=s", "HTTPS://A.test:443/y#f", "http://a.test/../z"]))
def test_canonicalise_is_idempotent(url):
    once = canonicalise(url)
    assert canonicalise(once) == once


def test_same_site_and_origin():
    assert same_site("http://www.example.com/a", "http://example.com/")
    assert not same_site("http://ads.example.net/a", "http://example.com/")
    assert origin_of("HTTP://Example.com:80/a?b") == "http://example.com"
    assert origin_of("https://example.com:8443/a") == "https://example.com:8443"


PAGE = b"""<html><head><base href="http://news.test/section/"><link rel="canonical" href="/a/story-1.html?utm_source=x">
</head><body>
<a href="a/story-1.html?utm_medium=rss#comments">Story 1</a>
<a href="http://news.test/a/story-2.html">Story 2</a>
<a href="/a/story-1.html">Story 1 again</a>
<a href="mailto:x@news.test">mail</a><a href="#top">top</a><a href="javascript:go()">js</a>
<a href="http://ads.example.net/click?x=1">ad</a><a href="/static/logo.png">logo</a>
<a href="/private/notes.html">private</a><a href="/section/">section</a>
</body></html>"""


def test_links_from_html_resolves_base_and_canonicalises():
    links = links_from_html(PAGE, "http://news.test/index.html")
    assert links[:2] == ["http://news.test/section/a/story-1.html", "http://news.test/a/story-2.html"]
    assert "http://news.test/a/story-1.html" in links
    assert canonical_link(PAGE, "http://news.test/index.html") == "http://news.test/a/story-1.html"
    assert links_from_html(b"", "http://news.test/") == []


def test_candidates_follow_patterns_and_ignore_position():
    rules = LinkRules(
        "http://news.test/",
        include=[r"/a/story-\d+\.html$"],
        exclude=[r"story-2"],
        watched=["http://news.test/section/"],
    )
    links = links_from_html(PAGE, "http://news.test/index.html")
    assert select_candidates(links, rules) == [
        "http://news.test/section/a/story-1.html",
        "http://news.test/a/story-1.html",
    ]
    shuffled = list(links)
    random.Random(3).shuffle(shuffled)
    assert set(select_candidates(shuffled, rules)) == set(select_candidates(links, rules))
    open_rules = LinkRules("http://news.test/", watched=["http://news.test/section/"])
    assert set(select_candidates(links, open_rules)) == {
        "http://news.test/section/a/story-1.html",
        "http://news.test/a/story-1.html",
        "http://news.test/a/story-2.html",
        "http://news.test/private/notes.html",
    }  # assets, ads, sections out


RSS = b"""<?xml version="1.0"?><rss version="2.0"><channel><title>T</title><link>http://news.test/</link>
<item><title>One</title><link>http://news.test/a/1.html?utm_source=rss</link></item>
<item><title>Two</title><guid isPermaLink="true">http://news.test/a/2.html</guid></item>
</channel></rss>"""
ATOM = b"""<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>T</title>
<entry><title>Three</title><link rel="alternate" href="/a/3.html"/><id>urn:x:3</id></entry></feed>"""


def test_links_from_rss_and_atom_feeds():
    assert links_from_feed(RSS, "http://news.test/rss.xml") == [
        "http://news.test/a/1.html",
        "http://news.test/a/2.html",
    ]
    assert links_from_feed(ATOM, "http://news.test/atom.xml") == ["http://news.test/a/3.html"]
    with pytest.raises(ValueError):
        links_from_feed(b"\x00\x01 not a feed <<<", "http://news.test/rss.xml")


JSON_FEED = b"""\xef\xbb\xbf {"version": "https://jsonfeed.org/version/1.1", "title": "T", "items": [
 {"id": "1", "url": "http://news.test/a/1.html?utm_source=feed", "date_published": "2026-11-28T10:00:00Z"},
 {"id": "2", "url": "/a/2.html", "date_modified": "2026-11-27"},
 {"id": "3", "external_url": "http://elsewhere.test/x.html"}, "not an item", {"id": "4", "url": 7}]}"""


def test_links_from_a_json_feed_with_their_dates():
    """A JSON Feed (issue 33 proposes the ones a page announces) is read as RSS and Atom are: feedparser 6.0
    read none ("not well-formed"), so a kept JSON Feed source yielded nothing."""
    dates: dict = {}
    assert links_from_feed(JSON_FEED, "http://news.test/feed.json", dates) == [
        "http://news.test/a/1.html",
        "http://news.test/a/2.html",
    ]
    assert dates["http://news.test/a/1.html"].isoformat() == "2026-11-28T10:00:00+00:00"
    assert gives_time(dates["http://news.test/a/2.html"]) is False  # a date alone stays a day


@pytest.mark.parametrize(
    ("body", "says"),
    [
        (b'{"items": []}', "no JSON Feed"),
        (b'{"version": "https://jsonfeed.org/version/1.1", "items": {}}', "no JSON Feed"),
        (b'{"version": "https://jsonfeed.org/version/1.1", "items": [', "JSON"),
        (b'{"version": "https://jsonfeed.org/version/1", "items": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", "JSON"),
    ],
)
def test_a_hostile_or_broken_json_feed_is_refused_with_its_reason(body, says):
    with pytest.raises(ValueError, match=f"not a readable feed: .*{says}"):
        links_from_feed(body, "http://news.test/feed.json")


@pytest.mark.parametrize(
    "address, allowed",
    [
        ("127.0.0.1", False),
        ("127.0.3.7", False),
        ("10.1.2.3", False),
        ("172.16.0.1", False),
        ("192.168.1.1", False),
        ("169.254.169.254", False),
        ("100.64.0.1", False),
        ("0.0.0.0", False),
        ("224.0.0.1", False),
        ("::1", False),
        ("fe80::1%eth0", False),
        ("fc00::1", False),
        ("::ffff:127.0.0.1", False),
        ("::ffff:10.0.0.1", False),
        ("93.184.216.34", True),
        ("8.8.8.8", True),
        ("2606:4700:4700::1111", True),
    ],
)
def test_address_rule(address, allowed):
    assert net.address_allowed(address) is allowed


@pytest.mark.parametrize(
    ("address", "allowed"),
    [
        ("127.0.0.11", True),  # the demo sites
        ("10.1.2.3", True),
        ("192.168.1.1", True),
        ("100.64.0.1", True),
        ("::1", True),
        ("169.254.169.254", False),  # cloud metadata: link-local, refused even for a private site
        ("fe80::1%eth0", False),
        ("fd00:ec2::254", False),  # AWS's IPv6 metadata address, in private (ULA) space
        ("0.0.0.0", False),
        ("224.0.0.1", False),
        ("8.8.8.8", True),
    ],
)
def test_address_rule_for_a_site_allowed_private_addresses(address, allowed):
    assert net.address_allowed(address, allow_private=True) is allowed


def test_a_settings_allow_list_opens_a_link_local_network(settings):
    assert not net.address_allowed("169.254.10.1", allow_private=True)
    settings.WIMS_ALLOWED_PRIVATE_NETWORKS = ["169.254.10.0/24"]
    assert net.address_allowed("169.254.10.1", allow_private=True)
    assert net.address_allowed("169.254.10.1")  # a network named there is allowed for every site
    assert not net.address_allowed("169.254.169.254", allow_private=True)


def test_a_site_allowed_private_addresses_still_never_reaches_the_metadata_service():
    with pytest.raises(net.AddressRefused, match="a refused address: 169.254.169.254"):
        net.fetch("http://169.254.169.254/latest/meta-data/", allow_private=True)


def test_check_host_refuses_names_that_resolve_to_loopback():
    with pytest.raises(net.AddressRefused, match="may not use: 127.0.0.1"):
        net.check_host("localhost", 80)
    with pytest.raises(net.FetchError) as info:
        net.check_host("no-such-host.invalid", 80)
    assert info.value.transient and not isinstance(info.value, net.AddressRefused)


def _listener():
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.settimeout(0.5)
    return listener


def _accepted(listener) -> bool:
    try:
        conn, _ = listener.accept()
    except TimeoutError:
        return False
    conn.close()
    return True


def test_dns_rebinding_never_reaches_a_tcp_connect(monkeypatch):
    """The name resolves to a public address when checked and to loopback when connecting: the connection
    vets what it resolves itself, so not even a TCP handshake reaches loopback (it used to, then the peer
    check refused it)."""
    listener = _listener()
    port = listener.getsockname()[1]
    real = socket.getaddrinfo
    answers = iter(["93.184.216.34", "127.0.0.1", "127.0.0.1"])

    def rebinding(host, *args, **kwargs):
        if host == "rebind.example":
            address = next(answers)
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))]
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", rebinding)
    try:
        with pytest.raises(net.AddressRefused, match="refused address: 127.0.0.1"):
            net.fetch(f"http://rebind.example:{port}/", allow_private=False)
        assert not _accepted(listener), "no connection reached the loopback listener"
    finally:
        listener.close()


@pytest.mark.parametrize(
    "template",
    [
        "http://127.0.0.1:{port}\\@8.8.8.8/",  # urllib.parse: 8.8.8.8; urllib3: 127.0.0.1
        "http://8.8.8.8@127.0.0.1:{port}/",
        "http://user:pw@127.0.0.1:{port}/",
        "http://127.0.0.1:{port}/a b",
    ],
)
def test_urls_that_parsers_read_differently_are_refused_before_any_connection(template):
    listener = _listener()
    port = listener.getsockname()[1]
    try:
        with pytest.raises(net.AddressRefused, match="refused: "):
            net.fetch(template.format(port=port), allow_private=True)
        assert not _accepted(listener)
    finally:
        listener.close()


def test_retry_after_parsing():
    assert net.parse_retry_after("120") == 120.0
    assert net.parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412470.0) == 10.0
    assert net.parse_retry_after("soon") is None
    assert net.parse_retry_after(None) is None


def test_backoff_grows_exponentially_with_jitter_and_honours_retry_after(settings):
    settings.WIMS_RETRY_BASE = 10.0
    settings.WIMS_RETRY_MAX_DELAY = 1000.0
    random.seed(1)
    for attempt in range(1, 6):
        delays = [services.backoff(attempt) for _ in range(200)]
        low, high = 10 * 2 ** (attempt - 1) * 0.5, 10 * 2 ** (attempt - 1) * 1.5
        assert all(low <= d <= min(high, 1000) for d in delays)
        assert len({round(d, 3) for d in delays}) > 100, "jitter spreads the retries"
    assert services.backoff(20) <= 1000
    assert 300 <= services.backoff(1, retry_after=300) <= 330


def test_user_agent_names_wims_and_its_url(settings):
    settings.WIMS_PUBLIC_URL = "https://wims.example.org"
    assert net.user_agent().startswith("WIMS/") and net.user_agent().endswith("(+https://wims.example.org)")
