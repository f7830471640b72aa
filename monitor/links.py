"""Evidence about links before they are fetched: where on the page a link sits, and what the site's own pages
turned out to be (issue 33: article links without hand-written patterns).

Pure (no Django). Two pieces, each giving a reason in words for the site administrator:

* :func:`anchor_positions` - where each ``<a href>`` of a parsed page sits: in the navigation (``<nav>``,
  ``<header>``, ``role="navigation"``, an id or class naming a menu, or a list of short links such as a section
  bar or a sidebar), in a footer (or a share box), in an aside, in a story list (a link whose text is a headline,
  as the cards of a home page have; in an aside, a sidebar's list of headlines), in the main content
  (``<main>``, ``<article>``, ``role="main"``), or nowhere telling. A link found on a page more than once takes
  its best position (:func:`best`): a story linked from a card and from the menu is a story.
* :class:`UrlTemplates` - URL templates (:func:`url_template`: a path's numbers, slugs and words generalised,
  ``/news/{slug}-{n}``, ``/tag/{word}``) learned from the site's pages already fetched, each page an article
  or not (monitor's own ``Article.state``: ``not_article`` is what processing decided a page was not). A
  template whose pages were clearly not articles yields no more candidates; one whose pages were articles is
  accepted wherever its links sit.

Not used (yet): the site's learned template (the Site Style Tree of ``filters.sst``). It is learned from the
site's article pages on lexbor's block tree, while a poll reads its section pages with lxml; a home or section
page is laid out otherwise than the articles below the shared header, and the style tree's own check stops
mapping a page below the first block whose children differ from the learned styles, so most of a home page
would map nowhere. Structural evidence (tags, roles, names, link density, anchor text) is used instead.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from urllib.parse import parse_qsl, urlsplit

from lxml import html

__all__ = [
    "Position",
    "NOT_CANDIDATE",
    "best",
    "anchor_positions",
    "url_template",
    "TemplateVerdict",
    "UrlTemplates",
]


class Position(StrEnum):
    """Where a link sits on the page, in the order :func:`best` takes them: evidence of an article first, then
    evidence of none, then no evidence."""

    STORY = "story"  # its text is a headline: a card of a story list, a list of headlines
    CONTENT = "content"  # inside the page's main content
    #: a headline in an aside or sidebar ("Trending", "Most read"): an article still, but maybe of any part of the
    #: site (a site registered at a section takes it only under its section: monitor.discovery.LinkRules.judge_all)
    ASIDE_STORY = "aside story"
    ASIDE = "aside"  # in an aside or a sidebar (related links, promotions)
    NAVIGATION = "navigation"  # in a menu, the header, a list of short links
    FOOTER = "footer"  # in the footer, a legal or share box
    IMAGE = "image"  # an image with no words, outside the main content (a logo, a banner, a button)
    PAGE = "page"  # nowhere telling: no evidence either way (so the weakest: any other position wins over it)


#: positions that are not evidence of an article: a link only ever found there is no candidate on an
#: articles-only site
NOT_CANDIDATE = frozenset({Position.ASIDE, Position.NAVIGATION, Position.FOOTER, Position.IMAGE})
_ORDER = {p: i for i, p in enumerate(Position)}

#: what a position says, for a reason shown to the administrator
WHERE = {
    Position.STORY: "in a story list (its text is a headline)",
    Position.CONTENT: "in the page's main content",
    Position.ASIDE_STORY: "in a sidebar's list of headlines",
    Position.PAGE: "on the page",
    Position.ASIDE: "only in an aside or sidebar",
    Position.NAVIGATION: "only in the page's navigation",
    Position.FOOTER: "only in the page's footer",
    Position.IMAGE: "only as an image without words, outside the main content",
}


def best(a: Position | None, b: Position | None) -> Position | None:
    """The stronger of two positions of one link: a story beats the menu that links to it too, and a menu beats
    a place that says nothing (the same section links again in a bare bar at the page's foot)."""
    if a is None or b is None:
        return a or b
    return a if _ORDER[a] <= _ORDER[b] else b


# ------------------------------------------------------------------------------------------- position

_NAV_TAGS = frozenset({"nav", "header", "menu"})
_MAIN_TAGS = frozenset({"main", "article"})
# names of the regions in ids and classes (word starts, so "navigation" and "main-nav" match, "canvas" not)
_NAV_NAMES = re.compile(
    r"(?<![a-z])(?:nav|navbar|navigation|menu|mainmenu|topmenu|masthead|header|hdr|topbar|breadcrumbs?|pagination|"
    r"pager|tabs|toolbar|skip)",
    re.I,
)
_FOOTER_NAMES = re.compile(r"(?<![a-z])(?:footer|foot|ftr|copyright|legal|social|share|sharing)", re.I)
_ASIDE_NAMES = re.compile(r"(?<![a-z])(?:sidebar|side-bar|rail|aside|widget|promo|sponsor|advert|ads?(?![a-z]))", re.I)
_MAIN_NAMES = re.compile(r"(?<![a-z])(?:main|content|story|stories|article|headlines?|news|post|entry)", re.I)
_NAV_ROLES = frozenset({"navigation", "banner", "menu", "menubar"})
# a token naming a part of one item (a card, an entry), not a region of the page
_ITEM_PART = re.compile(r"^(?:entry|card|story|article|post|item|teaser|tile|promo|block|media|headline)[-_]", re.I)
# the page itself: never a region, whatever its id or class says
_PAGE_TAGS = frozenset({"html", "body"})
# elements that are never a list of links themselves: the page, its main content
_NOT_LISTS = _PAGE_TAGS | {"main", "article"}
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
#: a headline: at least this many words of anchor text (a card's headline; a menu's entries have one to three)
HEADLINE_WORDS = 4
#: a list of short links: this many links or more, nearly all its words theirs, their texts this short (median)
LIST_LINKS = 5
LIST_LINK_SHARE = 0.8
LIST_SHORT_WORDS = 3
#: how many of the nearest ancestors of a link may be its list (a table cell, a font, a paragraph between)
LIST_LEVELS = 3


@dataclass(frozen=True)
class _Region:
    """What an element's ancestors and itself say about where it is."""

    nav: bool = False
    footer: bool = False
    aside: bool = False
    main: bool = False
    heading: bool = False


def _named(pattern: re.Pattern[str], element: html.HtmlElement) -> bool:
    """An id or class token of the element names the region (``site-header``, ``mainNav``), not an item's own
    part (``card-header``, ``entry-footer``: a card's headline and its tags are no page header or footer)."""
    for token in f"{element.get('id') or ''} {element.get('class') or ''}".split():
        if pattern.search(token) and not _ITEM_PART.match(token):
            return True
    return False


def _region(anchor: html.HtmlElement, cache: dict[html.HtmlElement, _Region]) -> _Region:
    """The region of the anchor's parent: its ancestors' tags, roles and names, read once per element (cached:
    a page of a thousand links reads its tree about once)."""
    chain = []
    above = _Region()
    for ancestor in anchor.iterancestors():
        known = cache.get(ancestor)
        if known is not None:
            above = known
            break
        chain.append(ancestor)
    for ancestor in reversed(chain):  # from the top down, each element's region is its parent's and its own
        tag = ancestor.tag if isinstance(ancestor.tag, str) else ""
        if tag in _PAGE_TAGS:  # their names describe the whole page (a body "site-navigation-variant"), no region
            cache[ancestor] = above
            continue
        role = (ancestor.get("role") or "").lower()
        above = _Region(
            nav=above.nav or tag in _NAV_TAGS or role in _NAV_ROLES or _named(_NAV_NAMES, ancestor),
            footer=above.footer or tag == "footer" or role == "contentinfo" or _named(_FOOTER_NAMES, ancestor),
            aside=above.aside or tag == "aside" or role == "complementary" or _named(_ASIDE_NAMES, ancestor),
            main=above.main or tag in _MAIN_TAGS or role == "main" or _named(_MAIN_NAMES, ancestor),
            heading=above.heading or tag in _HEADINGS,
        )
        cache[ancestor] = above
    return above


def _text(anchor: html.HtmlElement) -> str:
    text = " ".join(anchor.text_content().split())
    if not text:  # an image link: its alternative text is what a reader sees named
        text = " ".join(" ".join(anchor.xpath(".//img/@alt | .//img/@title")).split())
    return text or (anchor.get("title") or anchor.get("aria-label") or "").strip()


def _in_short_link_list(anchor: html.HtmlElement, cache: dict[html.HtmlElement, bool]) -> bool:
    """The anchor is in a list of short links (a menu without a name: a section bar, a list of tags): one of
    its three nearest ancestors holds LIST_LINKS or more links, their words nearly all of its words and their
    texts short (a median of at most LIST_SHORT_WORDS words). A list of headlines is not one."""
    for level, ancestor in enumerate(anchor.iterancestors()):
        if level >= LIST_LEVELS or ancestor.tag in _NOT_LISTS:
            return False
        found = cache.get(ancestor)
        if found is None:
            anchors = ancestor.xpath(".//a[@href]")
            found = False
            if LIST_LINKS <= len(anchors) <= 200:
                words = len(ancestor.text_content().split())
                sizes = sorted(len(a.text_content().split()) for a in anchors)
                found = bool(words) and sum(sizes) >= LIST_LINK_SHARE * words
                found = found and sizes[len(sizes) // 2] <= LIST_SHORT_WORDS
            cache[ancestor] = found
        if found:
            return True
    return False


def _position(anchor: html.HtmlElement, region: _Region, text: str, lists: dict[html.HtmlElement, bool]) -> Position:
    words = len(text.split())
    if region.footer:
        return Position.FOOTER
    if region.nav and not (region.heading and words >= HEADLINE_WORDS):  # a headline in a menu's region: a story
        return Position.NAVIGATION
    if words >= HEADLINE_WORDS:
        return Position.ASIDE_STORY if region.aside else Position.STORY
    if region.aside:
        return Position.ASIDE
    if _in_short_link_list(anchor, lists):
        return Position.NAVIGATION
    if region.main:
        return Position.CONTENT
    return Position.PAGE if words else Position.IMAGE


def anchor_positions(anchors: Iterable[html.HtmlElement]) -> list[tuple[html.HtmlElement, Position]]:
    """Each anchor of a parsed page (lxml) with where it sits (:class:`Position`), in the order given.

    The ancestors of the anchors under one parent are read once (a page of a thousand links reads its tree
    about once), and each candidate list of links once."""
    regions: dict[html.HtmlElement, _Region] = {}
    lists: dict[html.HtmlElement, bool] = {}
    return [(a, _position(a, _region(a, regions), _text(a), lists)) for a in anchors]


# ------------------------------------------------------------------------------------------- URL templates

_NUMBER = re.compile(r"^\d+$")
_WORDS = re.compile(r"[^\W_]+", re.UNICODE)
_TAIL_ID = re.compile(r"^(.*?)[-_.]?(\d{4,})$")
_EXTENSION = re.compile(r"^(.*?)(\.(?:s?html?|php\d?|aspx?|jsp|cfm|stm|cms|ece|story))$", re.I)


def _segment(segment: str, first: bool) -> str:
    if _NUMBER.match(segment):
        return "{n}"
    stem, ext = segment, ""
    match = _EXTENSION.match(segment)
    if match:
        stem, ext = match.group(1), match.group(2).lower()
    tail = _TAIL_ID.match(stem)
    if tail and tail.group(1):  # "story-title-12345": a slug and its id
        slug = len(_WORDS.findall(tail.group(1))) >= 2
        return ("{slug}" if slug else "{word}") + "-{id}" + ext
    if tail:
        return "{id}" + ext
    words = _WORDS.findall(stem)
    if len(words) >= 2 or any(c.isdigit() for c in stem):
        return "{slug}" + ext
    if first or (ext and stem.lower() in ("index", "default", "main", "home")):
        return stem.lower() + ext  # the site's own word: /tag/, /news/, index.html
    return "{word}" + ext


def url_template(url: str) -> str:
    """A URL's template: its path with numbers (``{n}``, ``{id}``), slugs (``{slug}``: two words or more) and
    words past the first segment (``{word}``) generalised; the first segment's word and the query's keys kept.

    ``/news/uk-politics-12345`` -> ``/news/{slug}-{id}``; ``/tag/economy`` -> ``/tag/{word}``;
    ``/2013/12/17/politics/senate-budget-deal/index.html`` -> ``/{n}/{n}/{n}/{word}/{slug}/index.html``.
    The host is left out: the templates are a site's."""
    parts = urlsplit(url)
    segments = parts.path.split("/")
    out = []
    first = True
    for segment in segments:
        if not segment:
            out.append("")
            continue
        shaped = _segment(segment, first)
        first = first and shaped == "{n}"  # a date before the first word: the word is still the site's
        out.append(shaped)
    path = "/".join(out) or "/"
    keys = sorted({k for k, _ in parse_qsl(parts.query, keep_blank_values=True)})
    return path + ("?" + "&".join(f"{k}=" for k in keys) if keys else "")


@dataclass(frozen=True)
class TemplateVerdict:
    """What a template's pages turned out to be: an article or not, and why in words."""

    article: bool
    reason: str


#: a template stops yielding candidates when at least this many of its pages were not articles ...
MIN_NOT_ARTICLES = 3
#: ... and it is accepted when at least this many were articles; either when their share is at least
CLEAR_SHARE = 0.9
MIN_ARTICLES = 2


@dataclass
class UrlTemplates:
    """The site's URL templates with what their fetched pages were (article or not), for :meth:`verdict`."""

    articles: Counter[str] = field(default_factory=Counter)
    others: Counter[str] = field(default_factory=Counter)

    @classmethod
    def learn(cls, outcomes: Iterable[tuple[str, bool]]) -> UrlTemplates:
        """From ``(url, was an article)`` pairs: the site's pages that processing read."""
        templates = cls()
        for url, article in outcomes:
            (templates.articles if article else templates.others)[url_template(url)] += 1
        return templates

    def verdict(self, url: str) -> TemplateVerdict | None:
        """Whether pages like ``url`` were clearly articles, clearly not, or None (not clear, or never seen)."""
        template = url_template(url)
        yes, no = self.articles[template], self.others[template]
        if no >= MIN_NOT_ARTICLES and no >= CLEAR_SHARE * (yes + no):
            return TemplateVerdict(False, f"pages like {template} were not articles ({no} of {yes + no})")
        if yes >= MIN_ARTICLES and yes >= CLEAR_SHARE * (yes + no):
            return TemplateVerdict(True, f"pages like {template} were articles ({yes} of {yes + no})")
        return None

    def __bool__(self) -> bool:
        return bool(self.articles or self.others)
