"""Link discovery: candidate article URLs from section pages and feeds (RSS, Atom, JSON Feed).

Pure (no Django). A poll collects *every* link of every watched page into a set and compares that set with
the URLs already known for the site, so new articles are found wherever they appear on the page and in
whatever order (no "first item" or "newest on top" assumption).
"""

from __future__ import annotations

import calendar
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from email.utils import parsedate_to_datetime
from time import struct_time
from typing import cast
from urllib.parse import parse_qsl, urlsplit

import feedparser
from lxml import etree, html

from filters.kind import is_feed_address, link_kind

from .canonical import canonicalise, same_site, sibling_host
from .links import NOT_CANDIDATE, WHERE, Position, UrlTemplates, anchor_positions, best

__all__ = [
    "links_from_html",
    "links_from_feed",
    "canonical_link",
    "published_date",
    "page_metadata",
    "parse_date",
    "PublishedDay",
    "gives_time",
    "LinkRules",
    "Section",
    "select_candidates",
]

# Links that are never articles: stylesheets, scripts, images, documents, archives, media.
_ASSET = re.compile(
    r"\.(?:css|js|mjs|json|xml|rss|atom|png|jpe?g|gif|webp|svg|ico|bmp|tiff?|woff2?|ttf|eot|pdf|docx?|xlsx?"
    r"|pptx?|zip|gz|tgz|bz2|7z|rar|mp3|mp4|m4a|ogg|webm|avi|mov|wav|exe|dmg|iso)$",
    re.IGNORECASE,
)


# html.HtmlElement: what lxml.html parses to (xpath(), text_content()); lxml-stubs leaves it untyped
def _parse(page: bytes | str) -> html.HtmlElement | None:
    if isinstance(page, bytes) and not page.strip():
        return None
    if isinstance(page, str) and not page.strip():
        return None
    try:
        return html.document_fromstring(page)
    except (etree.ParserError, ValueError):
        return None


def _base(root: html.HtmlElement, url: str) -> str:
    for href in root.xpath("//base/@href")[:1]:
        return canonicalise(href, url) or url
    return url


def links_from_html(page: bytes | str, url: str, positions: dict[str, Position] | None = None) -> list[str]:
    """Absolute canonical URLs of all ``<a href>`` links of a page, in document order, without repeats.

    ``positions``, when given, receives where on the page each link sits (:mod:`monitor.links`; a link found
    more than once, on this page or on another watched page read before, keeps its best position)."""
    root = _parse(page)
    if root is None:
        return []
    base = _base(root, url)
    seen: dict[str, None] = {}
    anchors = root.xpath("//a[@href] | //area[@href]")
    placed: list[tuple[html.HtmlElement, Position | None]] = []
    if positions is not None:
        placed += anchor_positions(anchors)
    else:
        placed += ((a, None) for a in anchors)
    for anchor, position in placed:
        href = (anchor.get("href") or "").strip()
        if not href or href.startswith(("#", "javascript:", "mailto:", "tel:", "data:")):
            continue
        link = canonicalise(href, base)
        if link:
            seen.setdefault(link, None)
            if positions is not None:
                positions[link] = best(positions.get(link), position) or Position.PAGE
    return list(seen)


def canonical_link(page: bytes | str, url: str) -> str | None:
    """The page's ``<link rel="canonical">`` as a canonical URL, or None."""
    return page_metadata(page, url)[0]


def published_date(page: bytes | str) -> datetime | None:
    """When the page says it was published (see :func:`page_metadata`), or None."""
    return page_metadata(page, "")[1]


def page_metadata(page: bytes | str | etree._Element, url: str) -> tuple[str | None, datetime | None]:
    """The page's canonical URL and publication date, from one parse of the page.

    ``page``: the page's bytes or text, or its tree when the caller parsed it already (processing
    parses each article once for this and for the noise filters: lxml elements of either parser).

    The date is the first readable one of: ``<meta property="article:published_time">`` (and its Open
    Graph and Dublin Core kin), ``itemprop="datePublished"``, JSON-LD ``datePublished``, then the first
    ``<time datetime>``. Unreadable or implausible dates are skipped (:func:`parse_date`).
    """
    # either parser's elements answer the same XPath (lxml-stubs type only the etree one)
    root = cast(html.HtmlElement, page) if isinstance(page, etree._Element) else _parse(page)
    if root is None:
        return None, None
    canonical = None
    for link in root.xpath("//link[@href]"):
        rels = (link.get("rel") or "").lower().split()
        if "canonical" in rels:
            canonical = canonicalise(link.get("href"), _base(root, url)) if url else None
            break
    return canonical, _page_date(root)


_META_DATES = (
    "article:published_time",
    "og:article:published_time",
    "og:published_time",
    "datepublished",
    "dc.date.issued",
    "dcterms.issued",
    "dc.date",
    "date",
    "pubdate",
    "publish-date",
    "publishdate",
)


def _page_date(root: html.HtmlElement) -> datetime | None:
    metas: dict[str, str | None] = {}
    for meta in root.xpath("//meta[@content]"):
        key = (meta.get("property") or meta.get("name") or meta.get("itemprop") or "").strip().lower()
        metas.setdefault(key, meta.get("content"))
    candidates = [metas.get(key) for key in _META_DATES]
    for node in root.xpath('//*[@itemprop="datePublished"]'):
        candidates.append(node.get("content") or node.get("datetime") or "".join(node.itertext()))
    for script in root.xpath('//script[@type="application/ld+json"]'):
        candidates += _json_ld_dates("".join(script.itertext()))
    candidates += root.xpath("//time/@datetime")[:1]
    for value in candidates:
        when = parse_date(value)
        if when is not None:
            return when
    return None


def _json_ld_dates(text: str) -> list[str]:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: nested too deep for the parser (a hostile page)
        return []
    found: list[str] = []
    stack = [data]
    while stack and len(found) < 5:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(reversed(item))
        elif isinstance(item, dict):
            if isinstance(item.get("datePublished"), str):
                found.append(item["datePublished"])
            stack.extend(v for k, v in item.items() if k == "@graph" or isinstance(v, list | dict))
    return found


_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")


class PublishedDay(datetime):
    """A publication date its source gave without a time of day (``2025-03-03``): midnight UTC stands for the
    day, and pages show the day alone (monitor.models.Article.published_time_given), never a made-up midnight.
    A datetime still, so it goes wherever a parsed date goes (feed and sitemap dates by URL) unchanged."""


def _names_a_day_only(text: str) -> bool:
    """Whether an ISO 8601 value is a calendar date with no time (``2025-03-03``, ``20250303``)."""
    try:
        date.fromisoformat(text.strip())
    except ValueError:
        return False
    return True


def gives_time(when: datetime | None) -> bool | None:
    """Whether a date from :func:`parse_date` came with its time of day (None for no date)."""
    return None if when is None else not isinstance(when, PublishedDay)


def parse_date(value: str | struct_time | None, now: datetime | None = None) -> datetime | None:
    """A timezone-aware datetime from an ISO 8601 or RFC 822 date (a time struct from feedparser too), else None.

    Lenient: never raises. A date without a time zone is taken as UTC; one before 1990 or more than two
    days ahead of ``now`` is not believed.
    """
    when = None
    if hasattr(value, "tm_year"):  # feedparser's *_parsed fields: a time.struct_time in UTC
        try:
            when = datetime.fromtimestamp(calendar.timegm(cast(struct_time, value)), UTC)
        except (OverflowError, ValueError, TypeError):
            return None
    elif isinstance(value, str):
        text = value.strip()
        if not text or len(text) > 64 or not _YEAR.search(text):
            return None
        try:
            when = datetime.fromisoformat(text.replace("Z", "+00:00").replace("z", "+00:00"))
        except ValueError:
            try:
                when = parsedate_to_datetime(text)
            except (TypeError, ValueError, IndexError):
                return None
    if when is None:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    now = now or datetime.now(UTC)
    if when.year < 1990 or when > now + timedelta(days=2):
        return None
    if isinstance(value, str) and _names_a_day_only(value):
        return PublishedDay(when.year, when.month, when.day, tzinfo=UTC)
    return when


def links_from_feed(feed: bytes | str, url: str, dates: dict[str, datetime] | None = None) -> list[str]:
    """Canonical article URLs of an RSS, Atom or JSON Feed (entry links, else permalink GUIDs).

    ``dates``, when given, receives each link's publication date from its entry (published, else updated).
    """
    seen: dict[str, None] = {}
    for candidates, when in _feed_entries(feed, url):
        for href in candidates:
            link = canonicalise(href, url) if isinstance(href, str) and href else None
            if link:
                seen.setdefault(link, None)
                if dates is not None and link not in dates and when is not None:
                    dates[link] = when
                break
    return list(seen)


def _feed_entries(feed: bytes | str, url: str) -> Iterable[tuple[list[object], datetime | None]]:
    """Each entry's candidate links, best first, and its date: a JSON Feed by :func:`_json_feed_entries`, any
    other by feedparser."""
    if isinstance(feed, bytes):
        json_feed = feed[:64].lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"{"
    else:
        json_feed = feed[:64].lstrip("\ufeff \t\r\n")[:1] == "{"
    if json_feed:  # feedparser 6.0 reads no JSON Feed (its JSON support is unreleased)
        return _json_feed_entries(feed)
    parsed = feedparser.parse(feed, response_headers={"content-location": url})
    if parsed.bozo and not parsed.entries:
        exc = parsed.get("bozo_exception")
        raise ValueError(f"not a readable feed: {exc}")
    entries = []
    for entry in parsed.entries:
        candidates = [entry.get("link")]
        candidates += [ln.get("href") for ln in entry.get("links", []) if ln.get("rel", "alternate") == "alternate"]
        if entry.get("guidislink"):
            candidates.append(entry.get("id"))
        # dict.get: feedparser's own get maps a missing published to updated, with a warning
        when = parse_date(dict.get(entry, "published_parsed") or dict.get(entry, "updated_parsed"))
        # feedparser's time struct says midnight for a date alone: its text tells
        text = dict.get(entry, "published" if dict.get(entry, "published_parsed") else "updated")
        if when is not None and _names_a_day_only(text or ""):
            when = PublishedDay(when.year, when.month, when.day, tzinfo=UTC)
        entries.append((candidates, when))
    return entries


def _json_feed_entries(feed: bytes | str) -> list[tuple[list[object], datetime | None]]:
    """The items of a JSON Feed (https://jsonfeed.org/version/1.1; 1.0 reads the same): each item's ``url``
    (its permalink; ``external_url`` names another site's page) and ``date_published``, else ``date_modified``.
    Anything else that parses as JSON is refused (ValueError), as an unreadable XML feed is."""
    try:
        document = json.loads(feed)
    except (ValueError, RecursionError) as exc:  # RecursionError: nesting deeper than the parser's stack
        raise ValueError(f"not a readable feed: JSON: {str(exc)[:200]}") from None
    version = document.get("version") if isinstance(document, dict) else None
    items = document.get("items") if isinstance(document, dict) else None
    if not (isinstance(version, str) and version.startswith("https://jsonfeed.org/version/")) or not isinstance(
        items, list
    ):
        raise ValueError("not a readable feed: JSON, but no JSON Feed (no jsonfeed.org version and items list)")
    entries: list[tuple[list[object], datetime | None]] = []
    for item in items:
        if isinstance(item, dict):
            stamp = item.get("date_published") or item.get("date_modified")
            entries.append(([item.get("url")], parse_date(stamp) if isinstance(stamp, str) else None))
    return entries


@dataclass(frozen=True)
class Section:
    """The part of a host that a site registered below its root covers: a path (``/mind/``) or a page and its
    query (``/section.php?s=prevention``)."""

    home_url: str  # the site's home page: a link on its host ("www." aside) may lie under the section
    path: str
    query: frozenset[tuple[str, str]]

    @classmethod
    def of(cls, home_url: str) -> Section | None:
        """The section of the home page's address; None for a site registered at its host's root (``/``,
        ``/index.html``)."""
        parts = urlsplit(home_url)
        query = frozenset(parse_qsl(parts.query))
        path = parts.path or "/"
        if not query:  # a page's address covers its folder: /mind/index.html is /mind/, /index.php the root
            last = path.rsplit("/", 1)[-1]
            path = path[: len(path) - len(last)] if "." in last else path.rstrip("/") + "/"
            if path == "/":
                return None
        return cls(home_url, path, query)

    @property
    def label(self) -> str:
        return self.path + ("?" + "&".join(f"{k}={v}" for k, v in sorted(self.query)) if self.query else "")

    def holds(self, url: str) -> bool:
        """Whether the link lies under the section: below its path, or the same page with its query."""
        if not same_site(url, self.home_url):  # a sitemap may name www.host for a site registered at host
            return False
        parts = urlsplit(url)
        if self.query:
            return parts.path == self.path and self.query <= frozenset(parse_qsl(parts.query))
        return (parts.path or "/").startswith(self.path) or parts.path == self.path.rstrip("/")

    def files_like(self, url: str) -> bool:
        """Whether the link lies below a folder like the section's, its own or another's (/family/ beside /mind/):
        as deep, named in words (a date's numbers, /2026/11/28/, are no section). A page linking such stories
        shows that the site files its stories under its sections."""
        if self.query or not same_site(url, self.home_url):
            return False
        depth = self.path.count("/") - 1
        folders = urlsplit(url).path.split("/")[1:-1]
        return len(folders) >= depth and not any(name.isdigit() for name in folders[:depth])


@dataclass
class LinkRules:
    """Which links of a site are article candidates, and why (:meth:`judge`)."""

    home_url: str
    include: list[str] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)
    #: watched pages (sections, feed): never candidates themselves
    watched: list[str] = field(default_factory=list)
    #: the site keeps pages that are not articles out (Site.articles_only): without include patterns, a link is a
    #: candidate from evidence: its address (filters.kind.link_kind: a home or section front, an about, privacy
    #: or contact page, a tag's or product's address is none), what the site's pages like it turned out to be
    #: (``templates``), and where it sits on the page (monitor.links: only in the navigation is none)
    articles_only: bool = False
    #: the site spans the hosts of its registrable domain (Site.sibling_hosts: uk.news.yahoo.com for uk.yahoo.com)
    sibling_hosts: bool = False
    #: the site's URL templates with what their fetched pages were (monitor.links.UrlTemplates)
    templates: UrlTemplates = field(default_factory=UrlTemplates)
    #: the part of its host the site covers when registered below the host's root (``/mind/``), else None
    section: Section | None = field(init=False, default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._include = [re.compile(p) for p in self.include]
        self._exclude = [re.compile(p) for p in self.exclude]
        self._watched = {canonicalise(u) for u in [self.home_url, *self.watched]}
        self.section = Section.of(self.home_url)

    def accepts(self, url: str, position: Position | None = None) -> bool:
        return self.judge(url, position)[0]

    def watches(self, url: str) -> bool:
        """Whether ``url`` is the home page or a page or feed typed in on the site (a poll reads it in any case)."""
        return canonicalise(url) in self._watched

    def judge(self, url: str, position: Position | None = None) -> tuple[bool, str]:
        """Whether ``url`` is an article candidate, with the reason in words (the admin's preview shows it).

        ``position``: where the link sits on the page it was found on (None: a feed's or sitemap's link, or not
        known). The administrator's include and exclude patterns decide where they are written; without include
        patterns, on a site of articles only, the evidence is read in this order: the address's shape, what
        the site's pages like it turned out to be, where the link sits."""
        if url in self._watched:
            return False, "a watched page or feed itself"
        host_reason = self._host(url)
        if host_reason is None:
            return False, "on another site"
        path = url.split("?", 1)[0]
        if _ASSET.search(path):
            return False, "a feed's address" if is_feed_address(url) else "a file, not a page"
        if self._include:
            matched = next((p.pattern for p in self._include if p.search(url)), None)
            if matched is None:
                return False, "matches no include pattern"
        excluded = next((p.pattern for p in self._exclude if p.search(url)), None)
        if excluded is not None:
            return False, f"matches the exclude pattern {excluded!r}"
        if self._include:
            return True, f"matches the include pattern {matched}"
        if not self.articles_only:
            return True, host_reason
        return self._evidence(url, position)

    def _host(self, url: str) -> str | None:
        if same_site(url, self.home_url):
            return "a link of the site"
        if self.sibling_hosts and sibling_host(url, self.home_url):
            return "a link of a sibling host"
        return None

    def _evidence(self, url: str, position: Position | None) -> tuple[bool, str]:
        shape = link_kind(url)
        if shape is not None:
            return False, f"its address: {shape.reason}"
        learned = self.templates.verdict(url) if self.templates else None
        if learned is not None:
            return learned.article, learned.reason
        if position in NOT_CANDIDATE:
            return False, WHERE[position]
        if position in (Position.STORY, Position.CONTENT, Position.ASIDE_STORY):
            return True, WHERE[position]
        return True, "its address may be an article's"

    def judge_all(
        self, links: Iterable[str], positions: dict[str, Position] | None = None
    ) -> dict[str, tuple[bool, str]]:
        """The verdict on each link of a poll's pages (:meth:`judge`), by link in first-seen order, with what the
        pages say as a whole: on a site registered at a section, the headlines of a sidebar outside the section."""
        where = positions or {}
        verdicts = {url: self.judge(url, where.get(url)) for url in links}
        if self.section is not None:
            outside = f"outside the section {self.section.label}, only in a sidebar's list of headlines"
            for url in self._others_sidebar(verdicts, where):
                verdicts[url] = (False, outside)
        return verdicts

    def _others_sidebar(self, verdicts: dict[str, tuple[bool, str]], where: dict[str, Position]) -> list[str]:
        """The candidates of a site registered at a section that lie outside it and sit only in a sidebar's list of
        headlines: a section page's "Trending" or "Most read" box lists the whole site's stories (a live trial:
        4 of the 6 articles of a /mind/ site were /family/'s). Not a filter on the path: a section front may list
        its own stories at addresses outside its path (/health/ listing /2026/11/28/a-story), so the page's own
        story lists (cards, main content) must show that the site files its stories under the section (at least
        SECTION_EVIDENCE of their candidates under it, and more than outside it) before the rest is left out;
        a story its cards or content link stays a candidate wherever its address lies. A section front that lists
        no story of its own (an empty section) has only its sidebar to show it: headlines filed under folders like
        the section's (/family/, /body/ beside /mind/; not dates), at least SECTION_EVIDENCE and half of them. Only
        on evidence (articles only, no include pattern: the administrator's patterns say what is taken)."""
        section = self.section
        if section is None or not self.articles_only or self._include:
            return []
        listed = [url for url, (ok, _) in verdicts.items() if ok and where.get(url) in _LISTED]
        sidebar = [url for url, (ok, _) in verdicts.items() if ok and where.get(url) is Position.ASIDE_STORY]
        if listed:
            under = sum(section.holds(url) for url in listed)
            if under < SECTION_EVIDENCE or under * 2 <= len(listed):
                return []
        elif sum(section.files_like(url) for url in sidebar) < max(SECTION_EVIDENCE, len(sidebar) / 2):
            return []
        return [url for url in sidebar if not section.holds(url)]


#: positions of a page's own story lists, whose candidates show where a section site files its stories
_LISTED = (Position.STORY, Position.CONTENT)
#: candidates of those lists under the section, at least, before a sidebar's headlines outside it are left out
SECTION_EVIDENCE = 2


def select_candidates(
    links: Iterable[str], rules: LinkRules, positions: dict[str, Position] | None = None
) -> list[str]:
    """The links that are article candidates, without repeats, in first-seen order; ``positions``: where each
    sits on the page it was found on (:func:`links_from_html`; a link missing from it has none known)."""
    return [url for url, (taken, _) in rules.judge_all(links, positions).items() if taken]
