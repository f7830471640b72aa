"""Link discovery: candidate article URLs from section pages and RSS/Atom feeds.

Pure (no Django). A poll collects *every* link of every watched page into a set and compares that set with
the URLs already known for the site, so new articles are found wherever they appear on the page and in
whatever order (no "first item" or "newest on top" assumption).
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

import feedparser
from lxml import etree, html

from .canonical import canonicalise, same_site

__all__ = ["links_from_html", "links_from_feed", "canonical_link", "LinkRules", "select_candidates"]

# Links that are never articles: stylesheets, scripts, images, documents, archives, media.
_ASSET = re.compile(
    r"\.(?:css|js|mjs|json|xml|rss|atom|png|jpe?g|gif|webp|svg|ico|bmp|tiff?|woff2?|ttf|eot|pdf|docx?|xlsx?"
    r"|pptx?|zip|gz|tgz|bz2|7z|rar|mp3|mp4|m4a|ogg|webm|avi|mov|wav|exe|dmg|iso)$",
    re.IGNORECASE,
)


def _parse(page: bytes | str):
    if isinstance(page, bytes) and not page.strip():
        return None
    if isinstance(page, str) and not page.strip():
        return None
    try:
        return html.document_fromstring(page)
    except (etree.ParserError, ValueError):
        return None


def _base(root, url: str) -> str:
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
    root = _parse(page)
    if root is None:
        return None
    for link in root.xpath("//link[@href]"):
        rels = (link.get("rel") or "").lower().split()
        if "canonical" in rels:
            return canonicalise(link.get("href"), _base(root, url))
    return None


def links_from_feed(feed: bytes | str, url: str) -> list[str]:
    """Canonical article URLs of an RSS or Atom feed (entry links, else permalink GUIDs)."""
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

    def __post_init__(self) -> None:
        self._include = [re.compile(p) for p in self.include]
        self._exclude = [re.compile(p) for p in self.exclude]
        self._watched = {canonicalise(u) for u in [self.home_url, *self.watched]}

    def accepts(self, url: str) -> bool:
        if url in self._watched or not same_site(url, self.home_url):
            return False
        path = url.split("?", 1)[0]
        if _ASSET.search(path):
            return False
        if self._include and not any(p.search(url) for p in self._include):
            return False
        return not any(p.search(url) for p in self._exclude)


def select_candidates(links: Iterable[str], rules: LinkRules) -> list[str]:
    """The links that are article candidates, without repeats, in first-seen order."""
    seen: dict[str, None] = {}
    for link in links:
        if link not in seen and rules.accepts(link):
            seen[link] = None
    return list(seen)
