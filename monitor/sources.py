"""Sources found for the administrator: the feeds, sitemaps and section pages a news site offers.

Pure (no Django, no network): every function takes bytes or text the caller fetched and returns plain data,
each result with the reason it was proposed. The caller fetches (bounded, through robots.txt and politeness);
:func:`walk` takes its fetch function so that the bounds of a sitemap tree (depth, count, bytes, entries,
loops) are enforced here and testable without a network.

- :func:`announced_feeds`: ``<link rel="alternate">`` feeds of a page (RSS, Atom, JSON Feed); comments feeds
  are left out (they list comments, whose URLs canonicalise to old articles).
- :func:`robots_sitemaps`, :func:`usual_sitemap_urls`, :func:`sitemap_candidates`: where sitemaps may be.
- :func:`parse_sitemap`: one urlset (with Google News ``news:news`` entries) or sitemap index, gzip or not,
  read as a stream under :class:`SitemapLimits` (a gzip bomb stops at the byte cap), XML parsed without
  entities, DTDs or network (lxml: ``resolve_entities=False``, ``no_network=True``, ``load_dtd=False``,
  ``huge_tree=False``: libxml2's own depth and text-node limits stay on). Anything unreadable raises
  :class:`SourceError` (a ``ValueError``), never another exception.
- :func:`prominent_sections`: the same-site section pages a home page links to most prominently.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal
from urllib.parse import urlsplit

from lxml import etree, html
from protego import Protego

from filters.kind import link_kind, not_a_section

from .canonical import canonicalise, origin_of, same_site
from .discovery import LinkRules, _base, _parse, parse_date  # _parse, _base: the same page reading as links

__all__ = [
    "SourceError",
    "Feed",
    "announced_feeds",
    "robots_sitemaps",
    "usual_sitemap_urls",
    "SitemapCandidate",
    "sitemap_candidates",
    "SitemapLimits",
    "SitemapEntry",
    "Sitemap",
    "parse_sitemap",
    "SitemapWalk",
    "Fetch",
    "walk",
    "Section",
    "prominent_sections",
]

MiB = 1024 * 1024


class SourceError(ValueError):
    """A source that cannot be read: not a sitemap, malformed XML, unreadable gzip; the message says which."""


# ---------------------------------------------------------------------------------------------------- feeds

FeedKind = Literal["rss", "atom", "json"]

_FEED_TYPES: dict[str, FeedKind] = {
    "application/rss+xml": "rss",
    "application/rdf+xml": "rss",  # RSS 1.0
    "application/atom+xml": "atom",
    "application/feed+json": "json",  # JSON Feed 1.1
    "application/json": "json",  # JSON Feed 1.0 said this one
}
# announced as plain XML: a feed only when its title or address says so
_XML_TYPES = {"text/xml", "application/xml", "text/rss+xml", "text/atom+xml"}
_FEEDISH = re.compile(r"rss|atom|feed", re.IGNORECASE)
# plural only: a site's opinion section is often "Comment" (/comment/rss), a comments feed "Comments on …"
_COMMENTS = re.compile(r"(?<![a-z])(?:comments|kommentare|commentaires|comentarios|reacties)(?![a-z])", re.I)


@dataclass(frozen=True)
class Feed:
    """A feed a page announces."""

    url: str
    kind: FeedKind
    title: str
    reason: str


def announced_feeds(page: bytes | str, base_url: str) -> list[Feed]:
    """The feeds a page announces with ``<link rel="alternate" type=…>``, in document order, without repeats.

    RSS (``application/rss+xml``, RSS 1.0's ``application/rdf+xml``), Atom (``application/atom+xml``) and
    JSON Feed (``application/feed+json``, 1.0's ``application/json``); ``text/xml`` / ``application/xml``
    only when the title or address names RSS, Atom or a feed. Relative addresses are resolved against
    ``<base href>``, else ``base_url``. Comments feeds (title or address naming comments) are left out.
    """
    root = _parse(page)
    if root is None:
        return []
    base = _base(root, base_url)
    feeds: dict[str, Feed] = {}
    for link in root.xpath("//link[@href]"):
        rels = (link.get("rel") or "").lower().split()
        if "alternate" not in rels:
            continue
        mime = (link.get("type") or "").split(";", 1)[0].strip().lower()
        href = (link.get("href") or "").strip()
        title = " ".join((link.get("title") or "").split())[:200]
        kind = _FEED_TYPES.get(mime)
        if kind is None and mime in _XML_TYPES and (_FEEDISH.search(title) or _FEEDISH.search(href)):
            kind = "atom" if "atom" in (title + href).lower() else "rss"
        if kind is None or not href:
            continue
        url = canonicalise(href, base)
        if url is None or url in feeds or _COMMENTS.search(title) or _COMMENTS.search(urlsplit(url).path):
            continue
        where = "in <head>" if _in_head(link) else "in the page"
        feeds[url] = Feed(url, kind, title, f"announced {where} as {mime}" + (f" ({title!r})" if title else ""))
    return list(feeds.values())


def _in_head(element: html.HtmlElement) -> bool:
    return any(a.tag == "head" for a in element.iterancestors())


# ------------------------------------------------------------------------------------------- where sitemaps are

#: the first bytes of robots.txt read, as monitor.services reads it (RFC 9309: at least 500 KiB)
ROBOTS_MAX_CHARS = 512 * 1024

#: usual places of a sitemap, tried when robots.txt names none (short: each is a request to the site)
USUAL_SITEMAP_PATHS = ("/sitemap.xml", "/sitemap_index.xml", "/news-sitemap.xml", "/sitemap-news.xml")


def robots_sitemaps(robots_txt: str) -> list[str]:
    """The absolute http(s) sitemap URLs a robots.txt names (``Sitemap:`` lines), canonical, without repeats."""
    try:
        named = list(Protego.parse(robots_txt[:ROBOTS_MAX_CHARS]).sitemaps)
    except Exception:  # a third-party parser on hostile text: nothing named, never a crash
        return []
    seen: dict[str, None] = {}
    for url in named:
        canonical = canonicalise(url) if isinstance(url, str) else None
        if canonical:  # RFC 9309 asks for absolute URLs: a relative one has no base to trust
            seen.setdefault(canonical, None)
    return list(seen)


def usual_sitemap_urls(origin: str) -> list[str]:
    """The usual sitemap addresses at a site's origin (any URL of the site will do; SourceError if none)."""
    try:
        root = origin_of(origin)
    except ValueError as exc:
        raise SourceError(str(exc)) from None
    return [root + path for path in USUAL_SITEMAP_PATHS]


@dataclass(frozen=True)
class SitemapCandidate:
    """Where a sitemap may be, and why it is looked at."""

    url: str
    reason: str


def sitemap_candidates(robots_txt: str | None, origin: str) -> list[SitemapCandidate]:
    """The sitemaps robots.txt names, else (none named, or no robots.txt) the usual addresses."""
    named = robots_sitemaps(robots_txt) if robots_txt else []
    if named:
        return [SitemapCandidate(url, "named in robots.txt") for url in named]
    return [SitemapCandidate(url, "at a usual address (robots.txt names none)") for url in usual_sitemap_urls(origin)]


# ------------------------------------------------------------------------------------------------- sitemaps


@dataclass(frozen=True)
class SitemapLimits:
    """Hard bounds on reading sitemaps. Per file: ``max_bytes``, ``max_entries``, ``max_children``; the
    rest bound a :func:`walk` of an index tree."""

    #: bytes read of one file, compressed and uncompressed alike (the sitemap protocol's own cap is 50 MB)
    max_bytes: int = 50 * MiB
    #: URLs kept from one urlset (the protocol's cap; Google News sitemaps hold 1,000 at most)
    max_entries: int = 50_000
    #: child sitemaps kept from one index
    max_children: int = 1_000
    #: index levels followed below the first sitemap (the protocol allows none: an index lists urlsets)
    max_depth: int = 3
    #: sitemap files fetched by one walk
    max_sitemaps: int = 25
    #: bytes read by one walk (each file counts the larger of its fetched and uncompressed sizes)
    max_total_bytes: int = 100 * MiB
    #: URLs kept by one walk
    max_total_entries: int = 200_000


@dataclass(frozen=True)
class SitemapEntry:
    """A URL of a urlset (or a child sitemap of an index), with what the sitemap says of it."""

    url: str
    lastmod: datetime | None = None
    #: Google News: <news:title>, <news:publication_date>, <news:publication><news:name>
    news_title: str | None = None
    news_published: datetime | None = None
    news_publication: str | None = None

    @property
    def when(self) -> datetime | None:
        return self.news_published or self.lastmod


@dataclass
class Sitemap:
    """One sitemap file as read: a urlset's entries or an index's children, and where reading stopped."""

    url: str
    kind: Literal["urlset", "index"]
    entries: list[SitemapEntry] = field(default_factory=list)
    #: an index's child sitemaps (the caller, or walk, fetches them)
    children: list[SitemapEntry] = field(default_factory=list)
    #: uncompressed bytes read
    bytes_read: int = 0
    compressed: bool = False
    #: why reading stopped before the end (a bound), empty when the whole file was read
    truncated: list[str] = field(default_factory=list)
    #: why it was looked at ("named in robots.txt", "listed in the sitemap index …")
    found: str = ""

    @property
    def news(self) -> bool:
        """A Google News sitemap: its entries carry ``news:news``."""
        return any(e.news_published or e.news_title for e in self.entries)

    @property
    def newest(self) -> datetime | None:
        dates = [e.when for e in (self.entries or self.children) if e.when is not None]
        return max(dates) if dates else None

    @property
    def summary(self) -> str:
        if self.kind == "index":
            text = f"sitemap index, {_count(len(self.children), 'sitemap')}"
        else:
            text = f"{'Google News sitemap' if self.news else 'sitemap'}, {_count(len(self.entries), 'entry')}"
        newest = self.newest
        if newest is not None:
            text += f", newest {newest.date().isoformat()}"
        if self.compressed:
            text += ", gzip"
        if self.truncated:
            text += f" (stopped early: {'; '.join(self.truncated)})"
        return text

    @property
    def reason(self) -> str:
        return f"{self.found}: {self.summary}" if self.found else self.summary


def _count(n: int, noun: str) -> str:
    plural = noun[:-1] + "ies" if noun.endswith("y") else noun + "s"
    return f"{n:,} {noun if n == 1 else plural}"


_SITEMAP_ROOTS = {"urlset": "urlset", "sitemapindex": "index"}
_SITEMAP_TAGS = ("{*}urlset", "{*}sitemapindex", "{*}url", "{*}sitemap")
#: elements in one <url> (an image sitemap allows 1,000 images, of a few elements each)
_MAX_ENTRY_ELEMENTS = 20_000
# what may come before the root element: XML declaration, comments, PIs, a DOCTYPE (its internal subset too)
_PROLOG = re.compile(rb"\A(?:\s|<\?.*?\?>|<!--.*?-->|<!DOCTYPE[^\[>]*(?:\[.*?\])?\s*>)*", re.S | re.I)
_FIRST_TAG = re.compile(rb"<([A-Za-z_][\w.:-]*)")


def _check_root(chunk: bytes) -> None:
    """Refuse early a document whose root element is plainly not a sitemap (an HTML page, a feed)."""
    data = chunk.removeprefix(b"\xef\xbb\xbf")
    prolog = _PROLOG.match(data)
    tag = _FIRST_TAG.match(data, prolog.end() if prolog else 0)
    if tag is not None:
        name = tag.group(1).decode("ascii", "replace").rsplit(":", 1)[-1].lower()
        if name not in _SITEMAP_ROOTS:
            raise SourceError(f"not a sitemap: the root element is <{name}>")


_GZIP_MAGIC = b"\x1f\x8b"
_CHUNK = 64 * 1024


class _Stream:
    """The uncompressed bytes of ``data`` in chunks, never more than ``cap`` of them (gzip or not)."""

    def __init__(self, data: bytes, cap: int) -> None:
        self.data = data
        self.cap = cap
        self.compressed = data[:2] == _GZIP_MAGIC
        self.out = 0
        self.truncated: str | None = None
        #: the data fills the cap: whoever fetched it may have stopped there
        self.full = len(data) >= cap

    def __iter__(self) -> Iterator[bytes]:
        raw = memoryview(self.data)[: self.cap]  # compressed bytes read: the same cap
        if len(self.data) > self.cap:
            self.truncated = f"the first {_size(self.cap)} read"
        if not self.compressed:
            for start in range(0, len(raw), _CHUNK):
                chunk = bytes(raw[start : start + _CHUNK])
                self.out += len(chunk)
                yield chunk
            return
        yield from self._gunzip(raw)

    def _gunzip(self, raw: memoryview) -> Iterator[bytes]:
        inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        pos = 0
        pending = b""
        inside = False  # inside a gzip member: its end not read yet
        while True:
            if not pending:
                if pos >= len(raw):
                    break
                pending = bytes(raw[pos : pos + _CHUNK])
                pos += len(pending)
            room = self.cap - self.out
            if room <= 0:
                self.truncated = f"{_size(self.cap)} uncompressed read"
                return
            try:
                chunk = inflater.decompress(pending, min(room, _CHUNK))
            except zlib.error as exc:
                raise SourceError(f"not readable gzip: {exc}") from None
            pending = inflater.unconsumed_tail
            inside = not inflater.eof
            if inflater.eof:  # a member ends: another may follow (concatenated gzip)
                pending = inflater.unused_data + pending
                inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
                if pending and pending[:2] != _GZIP_MAGIC:
                    pending = b""  # trailing garbage after the last member: ignored, as gzip does
            if chunk:
                self.out += len(chunk)
                yield chunk
        if self.out >= self.cap and not self.truncated:
            self.truncated = f"{_size(self.cap)} uncompressed read"
        elif inside and not self.truncated:  # the input ended inside a member
            if not self.full:
                raise SourceError("not readable gzip: the data ends inside the gzip stream")
            self.truncated = f"the first {_size(self.cap)} read"


def _size(n: int) -> str:
    return f"{n / MiB:g} MiB" if n >= MiB else f"{n:,} bytes"


def _local(tag: object) -> str:
    if not isinstance(tag, str):  # comments, processing instructions, entity references
        return ""
    return tag.rsplit("}", 1)[-1].lower()


def _text(element: etree._Element) -> str:
    return " ".join((element.text or "").split())


def parse_sitemap(
    data: bytes, url: str, limits: SitemapLimits | None = None, *, now: datetime | None = None
) -> Sitemap:
    """Read one sitemap file: a ``<urlset>`` (Google News entries too) or a ``<sitemapindex>``, gzip or not.

    Bounded by ``limits`` (:class:`SitemapLimits`): at most ``max_bytes`` of ``data`` and of its
    uncompressed stream are read, at most ``max_entries`` URLs and ``max_children`` child sitemaps kept;
    reading stops at a bound and :attr:`Sitemap.truncated` says which. Entity references are not expanded
    (a billion-laughs or external-entity document yields nothing from them), no DTD or network is loaded.
    URLs are canonicalised (relative ones resolved against ``url``); unreadable ones and dates that
    :func:`monitor.discovery.parse_date` does not believe are left out. ``now``: for the dates' plausibility.

    Raises :class:`SourceError` when the data is not a sitemap: malformed XML, unreadable gzip, another
    root element (an HTML page served at the sitemap's address, a feed), empty data.
    """
    limits = limits or SitemapLimits()
    if not data.strip():
        raise SourceError("not a sitemap: the data is empty")
    stream = _Stream(data, max(0, limits.max_bytes))
    sitemap: Sitemap | None = None
    parser = _pull_parser()
    root: etree._Element | None = None
    stopped = False
    first = True
    try:
        for chunk in stream:
            if first:
                _check_root(chunk)
                first = False
            parser.feed(chunk)
            for event, element in parser.read_events():
                if not isinstance(element, etree._Element):  # start-ns events: not asked for
                    continue
                if root is None:  # the first sitemap element seen must be the document's root
                    top = element
                    while (parent := top.getparent()) is not None:
                        top = parent
                    kind = _SITEMAP_ROOTS.get(_local(top.tag))
                    if top is not element or event != "start" or kind is None:
                        raise SourceError(f"not a sitemap: the root element is <{_local(top.tag)}>")
                    root = element
                    sitemap = Sitemap(url, "index" if kind == "index" else "urlset")
                    continue
                if event != "end" or element.getparent() is not root or sitemap is None:
                    continue
                stopped = _take(sitemap, element, url, limits, now)
                if stopped:
                    break
            if stopped:
                break
            if root is not None and len(root):  # drop what was read: memory stays at the entry being read
                del root[:-1]
                if sum(1 for _ in root[-1].iter()) > _MAX_ENTRY_ELEMENTS:
                    raise SourceError(f"not a sitemap: an entry with more than {_MAX_ENTRY_ELEMENTS:,} elements")
        if not stopped and not stream.truncated:
            try:
                parser.close()
            except etree.XMLSyntaxError:
                if not stream.full:
                    raise
                # as long as the cap: the fetch stopped there, the rest of the file was not read
                stream.truncated = f"the first {_size(stream.cap)} read"
    except etree.XMLSyntaxError as exc:
        raise SourceError(f"malformed XML: {exc}") from None
    except etree.LxmlError as exc:
        raise SourceError(f"unreadable XML: {exc}") from None
    except RecursionError:
        raise SourceError("unreadable XML: nested too deep") from None
    if sitemap is None:
        raise SourceError("not a sitemap: no root element" + (f" in {_size(stream.out)} read" if stream.out else ""))
    sitemap.bytes_read = stream.out
    sitemap.compressed = stream.compressed
    if stream.truncated and not stopped:
        sitemap.truncated.append(stream.truncated)
    return sitemap


def _pull_parser() -> etree.XMLPullParser:
    """A parser of the four sitemap elements' events only: lxml filters the rest in C (a file of millions of
    unknown elements costs no Python per element); no entity, DTD or network is ever loaded."""
    return etree.XMLPullParser(
        events=("start", "end"),
        tag=_SITEMAP_TAGS,
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        remove_comments=True,
        remove_pis=True,
    )


def _take(sitemap: Sitemap, element: etree._Element, base: str, limits: SitemapLimits, now: datetime | None) -> bool:
    """Keep one ``<url>`` or ``<sitemap>`` element; True when a count bound is reached (stop reading)."""
    name = _local(element.tag)
    if sitemap.kind == "urlset" and name == "url":
        kept, cap, what = sitemap.entries, limits.max_entries, "entries"
    elif sitemap.kind == "index" and name == "sitemap":
        kept, cap, what = sitemap.children, limits.max_children, "child sitemaps"
    else:
        return False
    if len(kept) >= cap:
        sitemap.truncated.append(f"{cap:,} {what} kept")
        return True
    loc = lastmod = title = published = publication = None
    for child in element.iter():
        local = _local(child.tag)
        if local == "loc" and loc is None and child.getparent() is element:
            loc = "" if len(child) else _text(child)  # a child: an unexpanded entity reference, not a URL
        elif local == "lastmod" and child.getparent() is element:
            lastmod = _text(child)
        elif local == "publication_date":
            published = _text(child)
        elif local == "title" and _local(getattr(child.getparent(), "tag", "")) == "news":
            title = _text(child)[:500] or None
        elif local == "name" and _local(getattr(child.getparent(), "tag", "")) == "publication":
            publication = _text(child)[:200] or None
    link = canonicalise(loc[:4096], base) if loc else None
    if link is None:
        return False
    kept.append(
        SitemapEntry(
            link,
            lastmod=parse_date(lastmod, now),
            news_title=title,
            news_published=parse_date(published, now),
            news_publication=publication,
        )
    )
    if len(kept) >= cap:
        sitemap.truncated.append(f"{cap:,} {what} kept")
        return True
    return False


#: fetch(url, max_bytes) -> the body read (at most max_bytes; raise SourceError for a failed fetch)
Fetch = Callable[[str, int], bytes]


@dataclass
class SitemapWalk:
    """What a :func:`walk` read: the sitemaps in the order read, those it could not read, those it left."""

    sitemaps: list[Sitemap] = field(default_factory=list)
    #: (url, message): fetched or parsed with an error (SourceError)
    errors: list[tuple[str, str]] = field(default_factory=list)
    #: (url, why): not fetched because of a bound, a loop or another site
    skipped: list[tuple[str, str]] = field(default_factory=list)
    bytes_read: int = 0

    def entries(self) -> list[SitemapEntry]:
        """Every URL of the urlsets read, the first reading of each."""
        seen: dict[str, SitemapEntry] = {}
        for sitemap in self.sitemaps:
            for entry in sitemap.entries:
                seen.setdefault(entry.url, entry)
        return list(seen.values())


def walk(
    start: str | SitemapCandidate | Sequence[str | SitemapCandidate],
    fetch: Fetch,
    limits: SitemapLimits | None = None,
    *,
    now: datetime | None = None,
    skip_child: Callable[[SitemapEntry], str | None] | None = None,
) -> SitemapWalk:
    """Read sitemaps from ``start`` (one or more), following sitemap indexes breadth first, within bounds.

    Bounds (:class:`SitemapLimits`): index levels below a start (``max_depth``), files fetched
    (``max_sitemaps``), bytes read in all (``max_total_bytes``: each fetch is asked for no more than what is
    left, and each file counts the larger of its fetched and uncompressed sizes), URLs kept in all
    (``max_total_entries``), and per file those of :func:`parse_sitemap`. A sitemap already read (a loop,
    an index listing itself) is not read again, one on another site (``www.`` aside) is not fetched; both
    are listed in :attr:`SitemapWalk.skipped`. ``fetch`` raising :class:`SourceError` records an error and
    the walk goes on; other exceptions are the caller's (the walk does not hide a bug). ``skip_child``: the
    reason not to read an index's child sitemap (e.g. its lastmod is older than what a poll looks for), or None.
    """
    limits = limits or SitemapLimits()
    starts = [start] if isinstance(start, str | SitemapCandidate) else list(start)
    queue: list[tuple[str, int, str]] = []
    result = SitemapWalk()
    seen: set[str] = set()
    for item in starts:
        url, why = (item.url, item.reason) if isinstance(item, SitemapCandidate) else (item, "")
        canonical = canonicalise(url)
        if canonical is None:
            result.errors.append((url, "not an http(s) URL"))
        elif canonical not in seen:
            seen.add(canonical)
            queue.append((canonical, 0, why))
    total_entries = fetches = 0
    position = 0
    while position < len(queue):
        url, depth, why = queue[position]
        position += 1
        left = limits.max_total_bytes - result.bytes_read
        if fetches >= limits.max_sitemaps:
            result.skipped.append((url, f"{limits.max_sitemaps} sitemaps read (max_sitemaps)"))
            continue
        if left <= 0:
            result.skipped.append((url, f"{_size(limits.max_total_bytes)} read in all (max_total_bytes)"))
            continue
        if total_entries >= limits.max_total_entries:
            result.skipped.append((url, f"{limits.max_total_entries:,} entries kept in all (max_total_entries)"))
            continue
        cap = min(limits.max_bytes, left)
        file_limits = SitemapLimits(
            max_bytes=cap,
            max_entries=min(limits.max_entries, limits.max_total_entries - total_entries),
            max_children=limits.max_children,
        )
        fetches += 1
        try:
            data = fetch(url, cap)
        except SourceError as exc:
            result.errors.append((url, str(exc)))
            continue
        fetched = min(len(data), cap)
        try:
            sitemap = parse_sitemap(data, url, file_limits, now=now)
        except SourceError as exc:
            result.bytes_read += fetched
            result.errors.append((url, str(exc)))
            continue
        finally:
            del data
        result.bytes_read += max(fetched, sitemap.bytes_read)
        sitemap.found = why
        result.sitemaps.append(sitemap)
        total_entries += len(sitemap.entries)
        _queue_children(sitemap, depth, limits, seen, queue, result, skip_child)
    return result


def _queue_children(
    index: Sitemap,
    depth: int,
    limits: SitemapLimits,
    seen: set[str],
    queue: list[tuple[str, int, str]],
    result: SitemapWalk,
    skip_child: Callable[[SitemapEntry], str | None] | None = None,
) -> None:
    """Queue the child sitemaps of ``index`` that the walk may read; list the others in ``result.skipped``."""
    for child in index.children:
        skip = skip_child(child) if skip_child is not None else None
        if skip:
            result.skipped.append((child.url, skip))
        elif child.url in seen:
            result.skipped.append((child.url, f"already read (a loop: listed again by {index.url})"))
        elif not same_site(child.url, index.url):
            result.skipped.append((child.url, f"on another site than the index {index.url}"))
        elif depth + 1 > limits.max_depth:
            result.skipped.append((child.url, f"more than {limits.max_depth} index levels deep (max_depth)"))
        else:
            seen.add(child.url)
            queue.append((child.url, depth + 1, f"listed in the sitemap index {index.url}"))


# ------------------------------------------------------------------------------------------------- sections


@dataclass(frozen=True)
class Section:
    """A section page the home page links to prominently."""

    url: str
    text: str
    score: float
    reason: str


# navigation context: <nav>, <header>, role=navigation, or an id/class naming a menu
_NAV_TAGS = {"nav", "header"}
_NAV_NAMES = re.compile(r"(?<![a-z])(?:nav|navbar|navigation|menu|mainmenu|masthead|header|topbar|sections?)", re.I)
_FOOTER_NAMES = re.compile(r"(?<![a-z])(?:footer|foot|copyright|legal|social|share)", re.I)
# paths of pages that are not sections: articles (a date, a long number, a long slug) and service pages
_DATE_PATH = re.compile(r"/(?:19|20)\d\d[/-](?:0?[1-9]|1[0-2])(?:[/-]|$)")
_LONG_NUMBER = re.compile(r"\d{5,}")
_SERVICE = re.compile(
    r"(?<![a-z])(?:login|logout|signin|sign-in|signup|register|subscribe|subscription|account|profile|search|"
    r"contact|about|privacy|cookies?|terms|legal|imprint|impressum|help|faq|advertis\w*|jobs|careers|newsletters?|"
    r"rss|feeds?|sitemap|shop|store|donate|cart)(?![a-z])",
    re.I,
)
_WORDS = re.compile(r"[^/\W_]+", re.UNICODE)


def _nav_context(anchor: html.HtmlElement) -> tuple[bool, bool]:
    """(in navigation, in a footer or share box) from the anchor's ancestors."""
    nav = footer = False
    for ancestor in anchor.iterancestors():
        tag = ancestor.tag if isinstance(ancestor.tag, str) else ""
        names = f"{ancestor.get('id') or ''} {ancestor.get('class') or ''}"
        if tag == "footer" or _FOOTER_NAMES.search(names):
            footer = True
        if tag in _NAV_TAGS or (ancestor.get("role") or "").lower() == "navigation" or _NAV_NAMES.search(names):
            nav = True
    return nav, footer


def _in_link_list(anchor: html.HtmlElement, cache: dict[html.HtmlElement, bool]) -> bool:
    """The anchor is in a list of links (a menu without a name: a sidebar, a section bar): one of its three
    nearest ancestors holds 5 to 80 links whose words are at least 80 % of its words."""
    for level, ancestor in enumerate(anchor.iterancestors()):
        if level >= 3:
            return False
        if ancestor not in cache:
            anchors = ancestor.xpath(".//a[@href]")
            words = len(ancestor.text_content().split())
            if not 5 <= len(anchors) <= 80 or not words:
                cache[ancestor] = False
            else:
                link_words = sum(len(a.text_content().split()) for a in anchors)
                cache[ancestor] = link_words >= 0.8 * words
        if cache[ancestor]:
            return True
    return False


def _section_path(url: str) -> bool:
    """A path that may be a section's: short, no date, no article number, no long slug, no service page."""
    parts = urlsplit(url)
    segments = [s for s in parts.path.split("/") if s]
    if not segments or len(segments) > 4 or len(parts.query) > 40:
        return False
    if _DATE_PATH.search(parts.path) or _LONG_NUMBER.search(f"{parts.path}?{parts.query}"):
        return False
    if _SERVICE.search(parts.path):
        return False
    last = segments[-1].rsplit(".", 1)[0]
    if len(segments) == 1 and last.lower() in _HOME_NAMES:  # /index.html: the home page again
        return False
    return len(_WORDS.findall(last.replace("-", " ").replace("_", " "))) <= 4 and len(last) <= 40


_HOME_NAMES = {"index", "default", "home", "main", "start"}
# anchor texts that name no section: "more…", "read more", "31 images"
_GENERIC_TEXT = re.compile(
    r"(?:more|read more|see (?:all|more)|view all|all|next|previous|\d+ (?:images|photos|comments)|"
    r"(?:\d+ )?comments?(?: \(\d+\))?|leave a comment|reply)\W*$",
    re.I,
)


@dataclass
class _Candidate:
    text: str = ""
    count: int = 0
    #: place among the navigation links (1 = first), None when not in navigation
    nav: int | None = None
    #: in a list of links without a navigation name (a sidebar)
    listed: bool = False
    footer: bool = False


def prominent_sections(page: bytes | str, base_url: str, limit: int = 8) -> list[Section]:
    """The same-site section pages a home page links to most prominently, best first, ``limit`` at most.

    A candidate is a same-site link (:class:`monitor.discovery.LinkRules`: not the home page, not a
    file) with a section-like path (at most 4 segments, no date, no 5-digit number, no long slug, no
    service page such as login or contact, by path or anchor text; no tag's, writer's, archive's or further
    page's address: :func:`filters.kind.not_a_section`) and a short anchor text (1 to 4 words).
    It scores for being in the navigation (``<nav>``, ``<header>``, ``role="navigation"``, an id or class
    naming a menu) or in a list of links (a sidebar: mostly link text), for how early it comes there, for
    being linked again, and for a short path; links only in a footer or share box score less. Candidates
    outside navigation and lists count only when linked twice or more and their address reads as a listing's
    (:func:`filters.kind.link_kind`): a story's teaser links it two or three times too (headline, picture,
    "Comments"). ``/x`` and ``/x/`` count as one.
    """
    root = _parse(page)
    if root is None or limit <= 0:
        return []
    base = _base(root, base_url)
    rules = LinkRules(home_url=base_url)
    found: dict[str, tuple[str, _Candidate]] = {}
    lists: dict[html.HtmlElement, bool] = {}
    position = 0
    for anchor in root.xpath("//a[@href]"):
        href = (anchor.get("href") or "").strip()
        if not href or href.startswith(("#", "javascript:", "mailto:", "tel:", "data:")):
            continue
        url = canonicalise(href, base)
        if url is None or not rules.accepts(url) or not _section_path(url) or not_a_section(url) is not None:
            continue
        text = " ".join(anchor.text_content().split())
        if _SERVICE.search(text) or _GENERIC_TEXT.match(text):
            continue
        nav, footer = _nav_context(anchor)
        listed = not nav and not footer and _in_link_list(anchor, lists)
        if (nav or listed) and not footer:
            position += 1
        key = url.rstrip("/")
        _, item = found.setdefault(key, (url, _Candidate()))
        item.count += 1
        if (nav or listed) and not footer and item.nav is None:
            item.nav, item.listed = position, listed
        item.footer = item.footer or footer
        if not item.text and 0 < len(text.split()) <= 4 and len(text) <= 40:
            item.text = text
    sections: list[Section] = []
    for url, item in found.values():
        if not item.text or (item.nav is None and (item.count < 2 or link_kind(url) is None)):
            continue
        depth = len([s for s in urlsplit(url).path.split("/") if s])
        score = min(item.count, 3) - 1 + (1.0 if depth == 1 else 0.5 if depth == 2 else 0.0)
        reasons = []
        if item.nav is not None:
            score += (2 if item.listed else 3) + 2 / (1 + item.nav / 5)
            where = "a list of links" if item.listed else "the navigation"
            reasons.append(f"in {where} of the home page (link {item.nav})")
        elif item.footer:
            score -= 1
        if item.count > 1:
            reasons.append(f"linked {item.count} times")
        reasons.append(f"text {item.text!r}")
        sections.append(Section(url, item.text, round(score, 3), "; ".join(reasons)))
    sections.sort(key=lambda s: -s.score)
    return sections[:limit]
