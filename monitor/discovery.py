"""Link discovery: candidate article URLs from section pages and RSS/Atom feeds.

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
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime
from time import struct_time
from typing import cast

import feedparser
from lxml import etree, html

from filters.kind import link_kind

from .canonical import canonicalise, same_site

__all__ = [
    "links_from_html",
    "links_from_feed",
    "canonical_link",
    "published_date",
    "page_metadata",
    "parse_date",
    "LinkRules",
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


def links_from_html(page: bytes | str, url: str) -> list[str]:
    """Absolute canonical URLs of all ``<a href>`` links of a page, in document order, without repeats."""
    root = _parse(page)
    if root is None:
        return []
    base = _base(root, url)
    seen: dict[str, None] = {}
    for href in root.xpath("//a/@href | //area/@href"):
        href = href.strip()
        if not href or href.startswith(("#", "javascript:", "mailto:", "tel:", "data:")):
            continue
        link = canonicalise(href, base)
        if link:
            seen.setdefault(link, None)
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
    return when


def links_from_feed(feed: bytes | str, url: str, dates: dict[str, datetime] | None = None) -> list[str]:
    """Canonical article URLs of an RSS or Atom feed (entry links, else permalink GUIDs).

    ``dates``, when given, receives each link's publication date from its entry (published, else updated).
    """
    parsed = feedparser.parse(feed, response_headers={"content-location": url})
    if parsed.bozo and not parsed.entries:
        exc = parsed.get("bozo_exception")
        raise ValueError(f"not a readable feed: {exc}")
    seen: dict[str, None] = {}
    for entry in parsed.entries:
        candidates = [entry.get("link")]
        candidates += [ln.get("href") for ln in entry.get("links", []) if ln.get("rel", "alternate") == "alternate"]
        if entry.get("guidislink"):
            candidates.append(entry.get("id"))
        for href in candidates:
            link = canonicalise(href, url) if href else None
            if link:
                seen.setdefault(link, None)
                if dates is not None and link not in dates:
                    # dict.get: feedparser's own get maps a missing published to updated, with a warning
                    when = parse_date(dict.get(entry, "published_parsed") or dict.get(entry, "updated_parsed"))
                    if when is not None:
                        dates[link] = when
                break
    return list(seen)


@dataclass
class LinkRules:
    """Which links of a site are article candidates."""

    home_url: str
    include: list[str] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)
    #: watched pages (sections, feed): never candidates themselves
    watched: list[str] = field(default_factory=list)
    #: the site keeps pages that are not articles out (Site.articles_only): without include patterns, a link
    #: whose address alone says it is no article (filters.kind.link_kind: a home or section front, an about,
    #: privacy or contact page, a tag's or product's address) is not fetched at all
    articles_only: bool = False

    def __post_init__(self) -> None:
        self._include = [re.compile(p) for p in self.include]
        self._exclude = [re.compile(p) for p in self.exclude]
        self._watched = {canonicalise(u) for u in [self.home_url, *self.watched]}

    def accepts(self, url: str) -> bool:
        return self.judge(url)[0]

    def judge(self, url: str) -> tuple[bool, str]:
        """Whether the link is an article candidate, and why (the sources preview shows the reason)."""
        if url in self._watched:
            return False, "a watched page or feed itself"
        if not same_site(url, self.home_url):
            return False, "on another site"
        path = url.split("?", 1)[0]
        if _ASSET.search(path):
            return False, "a file, not a page (its extension)"
        if self._include and not any(p.search(url) for p in self._include):
            return False, "matches no include pattern"
        for pattern in self._exclude:
            if pattern.search(url):
                return False, f"matches the exclude pattern {pattern.pattern!r}"
        if self.articles_only and not self._include:
            kind = link_kind(url)
            if kind is not None:
                return False, f"not an article by its address: {kind.reason}"
        return True, "matches an include pattern" if self._include else "a page of the site"


def select_candidates(links: Iterable[str], rules: LinkRules) -> list[str]:
    """The links that are article candidates, without repeats, in first-seen order."""
    seen: dict[str, None] = {}
    for link in links:
        if link not in seen and rules.accepts(link):
            seen[link] = None
    return list(seen)
