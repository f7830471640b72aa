"""The evidence of a page's kind (:mod:`filters.kind`), gathered in one walk of its HTML5 tree.

Metadata (``og:type``, JSON-LD and microdata ``@type``, publication date, author), the headline and its byline,
and counts and characters of the page's structure: its prose and the longest run of it in one element, links in
headings, ``<article>`` cards, headline links whose card carries a date, code, prices, calls to act.  Read on
the tree :func:`filters.read_page` parsed once (``page.tree``), the one :func:`filters.extract` walks.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from .article_parts import BYLINE as _BYLINE
from .article_parts import TEXT_DATE as _TEXT_DATE
from .pipeline import Page

__all__ = ["Evidence", "gather"]


@dataclass(slots=True)
class Evidence:
    """What a page says about its kind: its metadata, its URL, and counts and characters of its structure."""

    url: str = ""
    og_type: str = ""
    #: schema.org types of the JSON-LD objects that describe the page (top level, ``@graph``, ``mainEntity``)
    ld_types: frozenset[str] = frozenset()
    #: schema.org types of its microdata (``itemtype``)
    item_types: frozenset[str] = frozenset()
    #: a publication date in the metadata (``article:published_time``, ``datePublished``...)
    published: bool = False
    author: bool = False  # an author in the metadata (meta author, rel=author, itemprop=author)
    viewport: bool = False  # <meta name="viewport">: a page made since phones read the web (about 2010)
    title: str = ""
    #: the first <h1>, else the longest part of the <title> (the site's name split off)
    headline: str = ""
    headline_words: int = 0  # of the first <h1>
    title_words: int = 0  # of the longest part of the <title>
    byline_date: bool = False  # a date in the text just after the first <h1> (before a dated card's headline)
    byline_by: bool = False  # "By <Name>" or a reading time just after the first <h1>
    h1: int = 0
    times: int = 0  # <time> elements
    heading_links: int = 0  # links in h2-h4: story cards, thread lists, tables of contents
    articles: int = 0  # <article> elements
    code_blocks: int = 0  # <pre> elements
    text_chars: int = 0  # of the paragraphs, links and first headline
    prose_chars: int = 0  # of the paragraphs of sentences (80 characters or more)
    #: the most prose one element holds, up to three levels above its paragraphs (or between its <br>): the body
    prose_run: int = 0
    we_words: int = 0  # "we", "our", "us" in the prose: a company speaking of itself
    calls: int = 0  # links and buttons that call to act: contact us, get a quote, book a demo, add to cart...
    prices: int = 0  # elements marked as a price
    carts: int = 0  # links and buttons to a cart, basket or checkout
    #: links and buttons to edit the page or see its source: documentation and wikis ("Edit this page")
    edit_links: int = 0
    #: headline links (five words or more) whose card, the element around the link, carries a date: a story
    #: list's items (counted on pages with little prose only: an article's related links do not make it a list)
    dated_cards: int = 0

    @property
    def types(self) -> frozenset[str]:
        return self.ld_types | self.item_types


def _schema_types(value: dict[str, Any]) -> list[str]:
    types = value.get("@type")
    if isinstance(types, str):
        return [types.rsplit("/", 1)[-1]]
    if isinstance(types, list):
        return [t.rsplit("/", 1)[-1] for t in types if isinstance(t, str)]
    return []


def _json_ld(text: str, types: set[str]) -> bool:
    """Add the types of one JSON-LD script's page-level objects to ``types``; whether one has a publication date.

    Page-level: the top object(s), the members of ``@graph`` and a ``mainEntity``, not what they nest (the
    ``Person`` of an author, the ``ListItem`` of breadcrumbs say nothing about the page).
    """
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # not JSON, or nested past the parser's stack
        return False
    published = False
    todo = data if isinstance(data, list) else [data]
    seen = 0
    while todo and seen < 200:  # bounded: a script is the page's, not ours to trust
        item = todo.pop()
        seen += 1
        if not isinstance(item, dict):
            continue
        types.update(_schema_types(item))
        published = published or "datePublished" in item
        for key in ("@graph", "mainEntity"):
            nested = item.get(key)
            if isinstance(nested, list):
                todo.extend(nested)
            elif isinstance(nested, dict):
                todo.append(nested)
    return published


#: every element the evidence needs, found in one walk of the tree (each css() call walks all of it: plain tags
#: cost least, attributes are read here only where needed); shops mark their prices in class names
_SELECTOR = (
    "meta, script, link, title, h1, h2, h3, h4, time, pre, article, p, br, a, button, [itemtype], [itemprop], "
    '[class*="price" i]'
)
_PUBLISHED_META = frozenset(
    (
        "article:published_time", "og:published_time", "datepublished", "date", "pubdate", "publish-date",
        "publishdate", "dc.date", "dc.date.issued", "sailthru.date", "parsely-pub-date",
    )
)  # fmt: skip
_AUTHOR_META = frozenset(("author", "article:author", "parsely-author", "sailthru.author"))
_HEADINGS = frozenset(("h2", "h3", "h4"))
_CALL = re.compile(  # on lower-cased text; the first group: a shop's
    r"\b(?:(add to (?:cart|bag|basket)|buy now|cart|basket|checkout)|contact us|get (?:a|your) (?:free )?"
    r"(?:quote|estimate|demo)|request a|book (?:a|now|your)|schedule|get started|free trial|sign up|"
    r"start (?:now|free|your)|shop now|apply now|enroll|call (?:us|now)|talk to|learn more|"
    r"try (?:it )?(?:for )?free|pricing|plans)\b"
)
_EDIT = re.compile(  # on lower-cased link texts, one a line
    r"(?m)^\s*(?:edit (?:this )?page(?: on github)?|edit on github|improve this page|suggest an edit|view source)\s*$"
)
_SENTENCE_END = re.compile(r"[.!?][\"'”’)]?(?:\s|$)")
_TITLE_PARTS = re.compile(r"\s[|\u2013\u2014\u00b7:-]\s|\s[|\u2013\u2014\u00b7]")


class _Walk:
    """The state of one walk over the matched elements (see :func:`gather`)."""

    __slots__ = ("ev", "types", "items", "runs", "breaks", "prose", "links", "headlines", "h1", "canonical", "og_url")

    def __init__(self, ev: Evidence) -> None:
        self.ev = ev
        self.types: set[str] = set()
        self.items: set[str] = set()
        #: prose per element one, two and three levels above its paragraphs (by lexbor node address)
        self.runs: tuple[dict[int, int], dict[int, int], dict[int, int]] = ({}, {}, {})
        self.breaks: dict[int, list[Any]] = {}  # per element with <br> children: [count, element]
        self.prose: list[str] = []
        self.links: list[str] = []  # short link and button texts
        self.h1: Any = None
        self.canonical = ""
        self.og_url = ""
        self.headlines: list[Any] = []  # links of a headline's length (the first _CARDS of them)

    def walk(self, nodes: list[Any]) -> None:
        """Visit the matched elements in document order: paragraphs and links here (most of them, so with
        locals only: the loop is most of :func:`gather`'s time; their attributes are not read), the rest in
        :meth:`other`."""
        ev = self.ev
        text_chars = prose_chars = heading_links = 0
        prose, links, runs, headlines = self.prose, self.links, self.runs, self.headlines
        sentence_end = _SENTENCE_END.search
        heading = 0  # the address of the h2-h4 just visited: the links after it may be inside it
        for node in nodes:
            tag = node.tag
            if tag == "p":
                text = node.text(deep=True)
                n = len(text.strip())
                text_chars += n
                if n >= 80 and sentence_end(text):
                    prose_chars += n
                    prose.append(text)
                    up = node.parent
                    for level in runs:
                        if up is None:
                            break
                        key = up.mem_id
                        level[key] = level.get(key, 0) + n
                        up = up.parent
                heading = 0
            elif tag == "a" or tag == "button":
                text = node.text(deep=True)
                text_chars += len(text)
                if len(text) < 40:
                    links.append(text)
                if 20 <= len(text) < 200 and len(headlines) < _CARDS and text.count(" ") >= 4:
                    headlines.append(node)
                if heading:  # document order: the links inside a heading come right after it
                    up = node.parent
                    if up is not None and (
                        up.mem_id == heading or (up.parent is not None and up.parent.mem_id == heading)
                    ):
                        heading_links += 1
                        continue
                    heading = 0
            elif tag in _HEADINGS:
                heading = node.mem_id
            else:
                heading = 0
                self.other(tag, node)
        ev.text_chars += text_chars
        ev.prose_chars += prose_chars
        ev.heading_links += heading_links

    def other(self, tag: str, node: Any) -> None:
        """Every other element: metadata, headings, dates, code, cards, line breaks, microdata."""
        ev = self.ev
        if tag == "br":
            up = node.parent
            if up is not None:
                seen = self.breaks.get(up.mem_id)
                if seen is None:
                    self.breaks[up.mem_id] = [1, up]
                else:
                    seen[0] += 1
        elif tag == "meta":
            _meta(self, node.attributes)
        elif tag == "script":
            if node.attributes.get("type") == "application/ld+json":
                ev.published = _json_ld(node.text(deep=True), self.types) or ev.published
        elif tag == "h1":
            ev.h1 += 1
            if self.h1 is None:
                self.h1 = node
        elif tag == "title":
            ev.title = ev.title or " ".join(node.text(deep=True).split())
        elif tag == "link":
            attrs = node.attributes
            if attrs.get("rel") == "canonical" and not self.canonical:
                self.canonical = (attrs.get("href") or "").strip()
        else:  # time, pre, article, or an element matched for its attributes
            if tag == "time":
                ev.times += 1
            elif tag == "pre":
                ev.code_blocks += 1
            elif tag == "article":
                ev.articles += 1
            _marks(self, node.attributes)


def gather(page: Page, url: str | None = None) -> Evidence:
    """The evidence of one page, from its HTML5 tree (parsed once, shared with :func:`filters.extract`).

    Without ``url`` the page's canonical link (or ``og:url``) stands for it.
    """
    ev = Evidence(url=url or "")
    tree = page.tree
    if tree is None:
        return ev
    walk = _Walk(ev)
    walk.walk(tree.css(_SELECTOR))
    ev.ld_types = frozenset(walk.types)
    ev.item_types = frozenset(walk.items)
    ev.url = ev.url or walk.canonical or walk.og_url
    ev.prose_run = max(max(level.values(), default=0) for level in walk.runs)
    _broken_prose(walk)
    prose = " ".join(walk.prose).lower()
    ev.we_words = prose.count(" we ") + prose.count(" our ") + prose.count(" us ")  # str.count: 4x a regex
    links = "\n".join(walk.links).lower()
    calls = _CALL.findall(links)
    if "edit" in links or "view source" in links:  # most pages have neither: no regex
        ev.edit_links = len(_EDIT.findall(links))
    ev.calls = len(calls)
    ev.carts = sum(1 for shop in calls if shop)
    if ev.prose_run < _LIST_PROSE:
        ev.dated_cards = _dated_cards(walk.headlines)
    _headline(walk)
    return ev


#: the headline links read for a story list, at most; and the prose under which a page is read for one
_CARDS = 60
_LIST_PROSE = 500


def _dated_cards(headlines: list[Any]) -> int:
    """How many headline links sit in a card with a date: a story list (a section front, an archive) repeats
    headline, date and teaser, an article has one headline.  The card is the nearest of the link's three
    ancestors that holds more than the link; its text is read only when short (a card, not the page)."""
    dated = 0
    for link in headlines:
        own = len(link.text(deep=True))
        up = link.parent
        for _ in range(3):
            if up is None:
                break
            text = up.text(deep=True, separator=" ")  # a separator: "vaccinations6 March 2025" is no date
            if len(text) > own + 20:
                dated += len(text) < 600 and _TEXT_DATE.search(text) is not None
                break
            up = up.parent
    return dated


def _meta(walk: _Walk, attrs: dict[str, str | None]) -> None:
    ev = walk.ev
    name = (attrs.get("property") or attrs.get("name") or attrs.get("itemprop") or "").lower()
    if name == "og:type":
        ev.og_type = (attrs.get("content") or "").strip().lower()
    elif name in _PUBLISHED_META:
        ev.published = True
    elif name in _AUTHOR_META:
        ev.author = True
    elif name == "viewport":
        ev.viewport = True
    elif name == "og:url":
        walk.og_url = (attrs.get("content") or "").strip()


def _marks(walk: _Walk, attrs: dict[str, str | None]) -> None:
    """Microdata (the element's ``itemtype``, the page's date and author) and the class names of a shop."""
    ev = walk.ev
    itemtype = attrs.get("itemtype")
    if itemtype:
        for one in itemtype.split():  # several types may be given, space-separated
            walk.items.add(one.rstrip("/").rsplit("/", 1)[-1])
    prop = attrs.get("itemprop")
    if prop == "datePublished":
        ev.published = True
    elif prop == "author":
        ev.author = True
    marks = attrs.get("class")
    if prop == "price" or (marks and "price" in marks.lower()):
        ev.prices += 1


def _broken_prose(walk: _Walk) -> None:
    """Old pages part their paragraphs with <br> in one cell, no <p>: that cell's prose is the body.

    The prose is the cell's own text, or (paragraphs wrapped in <font>) its text less its links'; the cells with
    the most <br> are often menus, so every cell with two or more is read.
    """
    ev = walk.ev
    for count, element in walk.breaks.values():
        if count < 2:
            continue
        text = element.text(deep=False, separator=" ")
        prose = len(text.strip())
        if prose < 200 and count >= 4:
            text = element.text(deep=True, separator=" ")
            prose = len(text.strip()) - sum(len(a.text(deep=True)) for a in element.css("a"))
        if prose > ev.prose_run and prose >= 200 and len(_SENTENCE_END.findall(text)) >= 2:
            ev.prose_run = prose
            ev.prose_chars = max(ev.prose_chars, prose)
            ev.text_chars = max(ev.text_chars, prose)


def _headline(walk: _Walk) -> None:
    """The headline (first <h1>, else the <title> less the site's name) and the byline just after it."""
    ev = walk.ev
    parts = _TITLE_PARTS.split(ev.title)
    ev.title_words = max(len(p.split()) for p in parts)
    ev.headline = max(parts, key=lambda p: len(p.split())).strip()
    h1 = walk.h1
    if h1 is None:
        return
    headline = " ".join(h1.text(deep=True).split())
    ev.headline_words = len(headline.split())
    ev.text_chars += len(headline)
    if ev.headline_words >= 2:
        ev.headline = headline
    # the byline sits beside the headline: in its parent, or its grandparent when the parent holds little more
    around = h1.parent
    if around is None:
        return
    text = around.text(deep=True, separator=" ")
    if len(text) < 400 and around.parent is not None:
        text = around.parent.text(deep=True, separator=" ")
    text = " ".join(text.split())
    start = text.find(headline[:50])
    zone = text[start + len(headline) : start + len(headline) + 600] if start >= 0 else text[:800]
    # on a page of dated cards and little prose, a card's headline (a link in a heading) ends the zone: a section
    # front's <h1> ("Mind") is followed by its first card, whose date is that story's, no byline of the page (a
    # small section of two cards read as "an article: a dated byline"). Not on an article's page of prose: its
    # byline may link its author in a heading (the tuning split has two)
    for link in walk.headlines if ev.dated_cards else ():
        if not _in_heading(link):
            continue
        words = " ".join(link.text(deep=True).split())[:50]
        cut = zone.find(words) if words and words not in headline else -1  # not the <h1>'s own link
        if cut >= 0:
            zone = zone[:cut]
    ev.byline_date = _TEXT_DATE.search(zone) is not None
    ev.byline_by = _BYLINE.search(zone) is not None


def _in_heading(link: Any) -> bool:
    """The link sits in an <h2> to <h4>: its parent or grandparent is one (``<h3><span><a>``)."""
    up = link.parent
    return up is not None and (up.tag in _HEADINGS or (up.parent is not None and up.parent.tag in _HEADINGS))
