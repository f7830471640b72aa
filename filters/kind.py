"""What kind of page a fetched page is: an article, or a listing, forum, product, documentation, service page.

Only articles go on to the experts (issue 33): a section front, a shop's product page or a forum thread
is not news to classify.  :func:`page_kind` judges a page read once (:func:`filters.read_page`) from its
metadata (``og:type``, JSON-LD and microdata ``@type``), its URL and its structure (one long body of prose
under a headline with a byline, against repeated cards and dated items, prices, code, calls to act), reusing
the page's HTML5 tree: no second parse.  Every verdict keeps a short reason.

Two stages: rules that settle a page as another kind when one piece of evidence is enough (it declares itself
a product, its address is a forum thread's, it is a home page...; :func:`settle`), then weighed facts for the
rest (:data:`WEIGHTS`, fitted on the benchmark's tuning split; :func:`weigh`).

When in doubt the page is an article: hiding an article from the experts costs more than showing them a
page that is not one (tests/bench/bench_sources.py measures both on pages never tuned on).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Any
from urllib.parse import urlsplit

from .pipeline import Page

__all__ = [
    "Kind",
    "PageKind",
    "Evidence",
    "UrlShape",
    "gather",
    "url_shape",
    "facts",
    "settle",
    "weigh",
    "judge",
    "page_kind",
    "metadata_kind",
    "link_kind",
]


class Kind(StrEnum):
    """The kinds of page, in the words of the issue: only ``article`` goes on to the experts."""

    ARTICLE = "article"
    LISTING = "listing"  # a section front, a category, search results, a shop's collection
    FORUM = "forum"  # a discussion thread, a question and its answers
    PRODUCT = "product"  # one product for sale
    DOCUMENTATION = "documentation"
    SERVICE = "service"  # a company's or a tool's own page: what it offers, a home page, a form
    OTHER = "other"


@dataclass(frozen=True, slots=True)
class PageKind:
    """A verdict: the kind and why, in a few words."""

    kind: Kind
    reason: str

    @property
    def is_article(self) -> bool:
        return self.kind is Kind.ARTICLE

    def __str__(self) -> str:
        return f"{self.kind} {self.reason}"


# --------------------------------------------------------------------------- vocabularies

#: schema.org types of an article (JSON-LD ``@type``, microdata ``itemtype``)
ARTICLE_TYPES = frozenset(
    (
        "Article", "NewsArticle", "BlogPosting", "TechArticle", "ReportageNewsArticle", "AnalysisNewsArticle",
        "OpinionNewsArticle", "BackgroundNewsArticle", "ReviewNewsArticle", "AskPublicDiscussionNewsArticle",
        "SatiricalArticle", "ScholarlyArticle", "LiveBlogPosting", "SocialMediaPosting", "Report", "Review",
        "MedicalWebPage", "Recipe", "HowTo",
    )
)  # fmt: skip
#: schema.org types that name another kind of page, each with its kind
OTHER_TYPES = {
    "Product": Kind.PRODUCT,
    "ProductGroup": Kind.PRODUCT,
    "IndividualProduct": Kind.PRODUCT,
    "Vehicle": Kind.PRODUCT,
    "DiscussionForumPosting": Kind.FORUM,
    "QAPage": Kind.FORUM,
    "CollectionPage": Kind.LISTING,
    "ItemList": Kind.LISTING,
    "SearchResultsPage": Kind.LISTING,
    "OfferCatalog": Kind.LISTING,
    "Service": Kind.SERVICE,
    "ProfessionalService": Kind.SERVICE,
    "SoftwareApplication": Kind.SERVICE,
    "WebApplication": Kind.SERVICE,
    "Course": Kind.SERVICE,
}
#: og:type values that name another kind of page (``product.group``, ``product:group``...)
_OG_OTHER = (("product.group", Kind.LISTING), ("product:group", Kind.LISTING), ("product", Kind.PRODUCT))


# --------------------------------------------------------------------------- evidence


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
    byline_date: bool = False  # a date in the text just after the first <h1>
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
_SENTENCE_END = re.compile(r"[.!?][\"'”’)]?(?:\s|$)")
_TITLE_PARTS = re.compile(r"\s[|\u2013\u2014\u00b7:-]\s|\s[|\u2013\u2014\u00b7]")
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_TEXT_DATE = re.compile(  # Sept. 4, 2025 / 4th September 2025 / 2025-09-04 / 9/4/2025
    rf"(?i)\b{_MONTH} \d{{1,2}}(?:st|nd|rd|th)?,? (?:19|20)\d\d\b|"
    rf"\b\d{{1,2}}(?:st|nd|rd|th)? {_MONTH},? (?:19|20)\d\d\b|"
    r"\b(?:19|20)\d\d[-/.][01]?\d[-/.][0-3]?\d\b|\b[01]?\d/[0-3]?\d/(?:19|20)?\d\d\b"
)
_BYLINE = re.compile(
    r"(?:^|\s)(?:[Bb]y|[Ww]ritten by|[Pp]osted by|[Aa]uthor:?)\s+[A-Z][a-z]+|\b\d+\s*min(?:ute)?s?\.? read\b"
)


class _Walk:
    """The state of one walk over the matched elements (see :func:`gather`)."""

    __slots__ = ("ev", "types", "items", "runs", "breaks", "prose", "links", "h1", "canonical", "og_url")

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

    def walk(self, nodes: list[Any]) -> None:
        """Visit the matched elements in document order: paragraphs and links here (most of them, so with
        locals only: the loop is most of :func:`gather`'s time; their attributes are not read), the rest in
        :meth:`other`."""
        ev = self.ev
        text_chars = prose_chars = heading_links = 0
        prose, links, runs = self.prose, self.links, self.runs
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
    calls = _CALL.findall("\n".join(walk.links).lower())
    ev.calls = len(calls)
    ev.carts = sum(1 for shop in calls if shop)
    _headline(walk)
    return ev


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
    ev.byline_date = _TEXT_DATE.search(zone) is not None
    ev.byline_by = _BYLINE.search(zone) is not None


# --------------------------------------------------------------------------- URL shape

_LOCALE = re.compile(r"^(?:[a-z]{2}(?:[-_][a-z]{2})?|index\.\w+|home|default\.\w+)$")
_WORD = re.compile(r"[a-z]+")
_URL_DATE = re.compile(r"/(?:19|20)\d\d/(?:[01]?\d/)?")
#: path patterns of other kinds of page, each with its kind and how the reason names it
_URL_KINDS: tuple[tuple[re.Pattern[str], Kind, str], ...] = (
    (re.compile(r"/(?:products?|dp|gp/product|pdp|itm)/[^/]"), Kind.PRODUCT, "a product's address"),
    (
        re.compile(
            r"/(?:t|threads?|discussions?|questions|comments|boards|forums?|showthread\.php|viewtopic\.php)/|"
            r"/d/\d|showtopic|[?&]topic=\d"
        ),
        Kind.FORUM,
        "a forum thread's address",
    ),
    (
        re.compile(r"/(?:docs?|documentation|manual|reference|api|wiki|handbook)/"),
        Kind.DOCUMENTATION,
        "a documentation address",
    ),
    (
        re.compile(
            r"/(?:collections|shop|category|categories|tags?|archives?|search|browse|c|sections?|departments?)/|"
            r"/topics?/[^/]+/?$"
        ),
        Kind.LISTING,
        "a collection's address",
    ),
)
_DOC_HOST = re.compile(r"^(?:docs?|developers?|wiki|man|manual)\.")
_FORUM_HOST = re.compile(r"^(?:forums?|community|discuss|discourse|answers)\.")
_ARTICLE_PATH = re.compile(
    r"/(?:blogs?|news|articles?|posts?|stories|story|insights?|press|magazine|features|opinion|columns?)/[^/]"
)


@dataclass(frozen=True, slots=True)
class UrlShape:
    """What a page's address says: a home page, a headline slug, a date, a section of articles, another kind."""

    home: bool = False  # a site's home page: no path (or a locale only)
    slug_words: int = 0  # words of the last path segment: an article's headline slug has many
    dated: bool = False  # a date in the path (/2025/09/...)
    article_path: bool = False  # under /blog/, /news/, /articles/... or on a blog's host
    kind: Kind | None = None  # the kind a path or host pattern names
    why: str = ""


def url_shape(url: str) -> UrlShape:
    if not url:
        return UrlShape()
    parts = urlsplit(url.strip().lower())
    path = parts.path or "/"
    query = f"?{parts.query}" if parts.query else ""
    host = parts.netloc.rsplit("@", 1)[-1].split(":", 1)[0]
    host = host[4:] if host.startswith("www.") else host
    segments = [s for s in path.split("/") if s]
    last = segments[-1] if segments else ""
    slug_words = len(_WORD.findall(re.sub(r"\.\w{2,5}$", "", last)))
    dated = _URL_DATE.search(path) is not None
    article_path = _ARTICLE_PATH.search(path) is not None or "blog" in host.split(".")[0]
    slash = path if path.endswith("/") else path + "/"
    for pattern, kind, why in _URL_KINDS:
        # an article's slug or date under /archives/ or /topics/ still names one article
        if pattern.search(slash + query) and not (kind is Kind.LISTING and (dated or slug_words >= 4)):
            return UrlShape(False, slug_words, dated, article_path, kind, why)
    home = not query and all(_LOCALE.match(s) for s in segments)
    if _DOC_HOST.match(host):
        return UrlShape(home, slug_words, dated, article_path, Kind.DOCUMENTATION, "a documentation site")
    if _FORUM_HOST.match(host):
        return UrlShape(home, slug_words, dated, article_path, Kind.FORUM, "a forum site")
    return UrlShape(home, slug_words, dated, article_path)


# --------------------------------------------------------------------------- the verdict

#: the schema.org types that settle the kind (the weaker ones, ItemList, Service..., say little: list articles and
#: company blogs use them too)
DECLARING_TYPES = frozenset(
    (
        "Product",
        "ProductGroup",
        "IndividualProduct",
        "Vehicle",
        "DiscussionForumPosting",
        "QAPage",
        "CollectionPage",
        "SearchResultsPage",
    )
)
_HEADLINE = re.compile(
    r"(?i)^\d+ |\?|\b(?:how|what|why|when|where|which|who|should|can|does|do|is|are|best|top|guide|tips|ways|"
    r"trends|vs|versus|things|ideas|reasons|steps|explained|introduction|beginners?|reviews?|ultimate|everything|"
    r"need to know|lessons|mistakes|facts|myths|(?:19|20)\d\d)\b"
)
_OFFER = re.compile(
    r"(?i)\b(?:services?|solutions?|consulting|consultants?|agency|pricing|plans?|packages?|courses?|programs?|"
    r"certifications?|insurance|calculator|software|platform|hire|rentals?|repair|deals|offers|coupons|company|"
    r"experts?|contact|about us|free)\b"
)
_DOCS_TITLE = re.compile(r"(?i)\b(?:docs|documentation|manual|api reference|handbook|tutorial|user guide)\b")
_SERVICE_PATH = re.compile(
    r"/(?:services?|solutions?|pricing|plans|features?|calculators?|tools|consulting|insurance|programs?|courses?|"
    r"training|careers?|about|contact)(?:/|$|\.)|/pages?/|calculator|-services?(?:/|$)"
)


@dataclass(frozen=True, slots=True)
class Weight:
    """What one fact weighs for an article (positive) or against one (negative), the kind it points to, and how
    the reason says it (``str.format`` with the page's evidence as ``ev`` and its article type as ``schema``)."""

    weight: float
    kind: Kind
    reason: str


#: what the facts of :func:`facts` weigh, and an intercept: fitted by logistic regression on the pages no rule
#: settles in the tuning split (``tests/bench/bench_sources.py --fit``), rounded to tenths
WEIGHTS: dict[str, Weight] = {
    "schema_article": Weight(1.3, Kind.ARTICLE, "schema.org {schema}"),
    "og_article": Weight(0.5, Kind.ARTICLE, "og:type article"),
    "byline_date": Weight(0.7, Kind.ARTICLE, "a dated byline"),
    "url_dated": Weight(0.8, Kind.ARTICLE, "a dated address"),
    "url_article_path": Weight(1.2, Kind.ARTICLE, "an address among articles"),
    "url_slug": Weight(0.9, Kind.ARTICLE, "a headline in the address"),
    "body": Weight(0.8, Kind.ARTICLE, "{ev.prose_run:,} characters of prose in one body"),
    "long_body": Weight(0.8, Kind.ARTICLE, "a long body"),
    "one_body": Weight(0.8, Kind.ARTICLE, "most of its prose in one body"),
    "long_headline": Weight(0.6, Kind.ARTICLE, "a long headline"),
    "headline_style": Weight(0.7, Kind.ARTICLE, "a headline"),
    "author": Weight(0.7, Kind.ARTICLE, "an author"),
    "legacy": Weight(2.2, Kind.ARTICLE, "an old page without metadata"),
    "dated_items": Weight(-0.7, Kind.LISTING, "{ev.times} dated items"),
    "title_docs": Weight(-1.1, Kind.DOCUMENTATION, "a documentation title"),
    "url_service": Weight(-1.1, Kind.SERVICE, "a service's address"),
    "url_listing": Weight(-1.5, Kind.LISTING, "a listing's address"),
    "prices": Weight(-1.0, Kind.PRODUCT, "{ev.prices} prices"),
    "heading_links": Weight(-0.3, Kind.LISTING, "{ev.heading_links} headline links"),
    "cards": Weight(-0.7, Kind.LISTING, "{ev.articles} <article> cards"),
    "scattered": Weight(-0.4, Kind.SERVICE, "its prose spread over sections"),
    "little_prose": Weight(-0.3, Kind.OTHER, "little prose"),
    "we": Weight(-0.6, Kind.SERVICE, "speaks of itself (we, our, us)"),
    "calls": Weight(-0.6, Kind.SERVICE, "{ev.calls} calls to act"),
    "offer_headline": Weight(-1.0, Kind.SERVICE, "a headline naming an offer"),
    "many_h1": Weight(-0.9, Kind.SERVICE, "{ev.h1} <h1>"),
}
#: where the weighing starts: the fitted intercept
BIAS = -0.6
#: a page whose score reaches it is an article: below the fitted 0, so that a page in doubt is one (the tuning
#: split's cross-validated article recall at 0: 0.952; at -0.5: 0.968, with 0.905 of the other pages kept out)
THRESHOLD = -0.5


def facts(ev: Evidence, shape: UrlShape) -> dict[str, bool]:
    """What the evidence says, as yes-or-no facts: those :data:`WEIGHTS` weighs, and those :func:`judge` reads
    first to settle a page (a publication date, a byline, a short headline, any <time>)."""
    headline_words = max(ev.headline_words, ev.title_words)
    path = urlsplit(ev.url.lower()).path if ev.url else ""
    return {
        "schema_article": bool(ARTICLE_TYPES & ev.types),
        "og_article": ev.og_type == "article",
        "published": ev.published,
        "byline_date": ev.byline_date,
        "byline_by": ev.byline_by,
        "url_dated": shape.dated,
        "url_article_path": shape.article_path,
        "url_slug": shape.slug_words >= 4,
        "body": ev.prose_run >= 1500,
        "long_body": ev.prose_run >= 4000,
        "one_body": ev.prose_chars >= 1000 and ev.prose_run >= 0.6 * ev.prose_chars,
        "long_headline": headline_words >= 6,
        "headline_style": _HEADLINE.search(ev.headline) is not None,
        "author": ev.author,
        "time": ev.times > 0,
        # no og:type, no schema.org, made before phones (no viewport): old pages, whose articles say little else
        "legacy": not ev.og_type and not ev.types and not ev.viewport,
        "dated_items": ev.times >= 4,
        "title_docs": _DOCS_TITLE.search(ev.title) is not None,
        "url_service": _SERVICE_PATH.search(path) is not None,
        "url_listing": shape.kind is Kind.LISTING,
        "prices": ev.prices >= 3,
        "heading_links": ev.heading_links >= 8,
        "cards": ev.articles >= 5,
        "scattered": ev.prose_chars >= 2000 and ev.prose_run < 0.3 * ev.prose_chars,
        "little_prose": ev.prose_run < 500,
        "we": ev.we_words >= 5 and ev.we_words * 500 > ev.prose_chars,
        "calls": ev.calls >= 5,
        "short_headline": headline_words < 4,
        "offer_headline": _OFFER.search(ev.headline) is not None,
        "many_h1": ev.h1 >= 3,
    }


#: the marks of an article beyond its prose: a page with none of them needs little more to be something else
_ARTICLE_MARKS = (
    "byline_date", "byline_by", "published", "time", "url_dated", "url_article_path", "schema_article",
    "headline_style", "url_slug", "legacy",
)  # fmt: skip


def judge(ev: Evidence) -> PageKind:
    """The page's kind from its evidence: what settles it (:func:`settle`), else the weighed facts (:func:`weigh`)."""
    shape = url_shape(ev.url)
    found = facts(ev, shape)
    return settle(ev, shape, found) or weigh(ev, found)


def settle(ev: Evidence, shape: UrlShape, found: dict[str, bool]) -> PageKind | None:  # noqa: C901 - a list of rules
    """The verdict one piece of evidence settles (none but for a page that is not an article), or None.

    Each rule wrongly hid at most one article of the tuning split's 503 (and each has a reason to be general:
    a page that declares itself a product, a thread's or a documentation address, a home page...).
    """
    schema_article = sorted(ARTICLE_TYPES & ev.types)
    if ev.text_chars < 200 and ev.prose_run == 0 and not schema_article:
        return PageKind(Kind.OTHER, "almost no text")
    declared = sorted(t for t in ev.types if t in DECLARING_TYPES)
    if declared and not schema_article:  # a review that marks up its product is still an article
        return PageKind(OTHER_TYPES[declared[0]], f"schema.org {declared[0]}")
    for value, kind in _OG_OTHER:
        if ev.og_type.startswith(value):
            return PageKind(kind, f"og:type {ev.og_type}")
    if shape.kind is not None and shape.kind is not Kind.LISTING and not shape.dated:
        return PageKind(shape.kind, shape.why)
    if shape.home:
        return PageKind(Kind.SERVICE, "a site's home page")
    strong = schema_article or found["byline_date"] or shape.dated
    blog = shape.article_path or found["byline_by"]
    if ev.code_blocks >= 3 and not (strong or blog or found["og_article"]):
        return PageKind(Kind.DOCUMENTATION, f"{ev.code_blocks} code blocks and no date")
    if found["little_prose"] and not (found["legacy"] or strong or blog):
        return PageKind(Kind.OTHER, f"little prose ({ev.prose_run} characters) and no date")
    if ev.prices >= 5 and ev.carts and not (schema_article or blog or (found["body"] and found["one_body"])):
        return PageKind(Kind.PRODUCT, f"{ev.prices} prices and a cart")
    if not any(found[mark] for mark in _ARTICLE_MARKS):
        if found["url_service"] or found["offer_headline"]:
            return PageKind(Kind.SERVICE, "names an offer, and nothing of an article")
        if found["short_headline"]:
            return PageKind(Kind.LISTING, "a short headline, and nothing of an article")
    return None


def score(found: dict[str, bool]) -> float:
    """The weighed facts' sum, from :data:`BIAS`."""
    return BIAS + sum(w.weight for name, w in WEIGHTS.items() if found[name])


def weigh(ev: Evidence, found: dict[str, bool]) -> PageKind:
    """An article when :func:`score` reaches :data:`THRESHOLD`, else the kind most of the weight against points to;
    the reason names the heaviest facts on the verdict's side."""
    total = score(found)
    weights = [w for name, w in WEIGHTS.items() if found[name]]
    schema = min(ARTICLE_TYPES & ev.types, default="article")
    if total >= THRESHOLD:
        side = sorted((w for w in weights if w.weight > 0), key=lambda w: -w.weight)
        kind = Kind.ARTICLE
    else:
        side = sorted((w for w in weights if w.weight < 0), key=lambda w: w.weight)
        against: dict[Kind, float] = {}
        for w in side:
            against[w.kind] = against.get(w.kind, 0.0) + w.weight
        kind = min(against, key=lambda k: against[k]) if against else Kind.OTHER
    reasons = ", ".join(w.reason.format(ev=ev, schema=schema) for w in side[:3]) or "no evidence either way"
    return PageKind(kind, f"{reasons} (score {total:+g})")


# --------------------------------------------------------------------------- the API


def page_kind(page: Page, url: str | None = None) -> PageKind:
    """The kind of a page read once by :func:`filters.read_page`, from its HTML5 tree (the one
    :func:`filters.extract` walks: no second parse).  ``url``: where it was fetched (default: its canonical link)."""
    return judge(gather(page, url))


def metadata_kind(ev: Evidence) -> PageKind:
    """The plain metadata rule, the benchmark's baseline: an article when ``og:type`` is ``article`` or a JSON-LD
    ``@type`` is an article type, else not one (no URL, no structure)."""
    schema = sorted(ARTICLE_TYPES & ev.ld_types)
    if schema:
        return PageKind(Kind.ARTICLE, f"schema.org {schema[0]}")
    if ev.og_type == "article":
        return PageKind(Kind.ARTICLE, "og:type article")
    declared = sorted(t for t in ev.ld_types if t in OTHER_TYPES)
    if declared:
        return PageKind(OTHER_TYPES[declared[0]], f"schema.org {declared[0]}")
    return PageKind(Kind.OTHER, f"og:type {ev.og_type}" if ev.og_type else "no article metadata")


# --------------------------------------------------------------------------- a link, before it is fetched

#: a site's furniture, named by the address's last segment: pages every site links to from each page, never news
_FURNITURE = re.compile(
    r"/(?:privacy|terms|cookies?|legal|imprint|impressum|accessibility|feedback|sitemap|rss|feeds?|newsletters?|"
    r"subscribe|subscriptions?|login|log-in|signin|sign-in|signup|register|account|my-?account|profile|help|faq|"
    r"advertise|advertising|jobs|careers?|contact(?:-us)?|about(?:-us)?|corrections|ethics|services|search)(?:\.\w{2,5})?/?$"
)
#: a listing named by its last segment, whatever follows (``section.php?s=health``, ``category.aspx?id=3``)
_LISTING_PAGE = re.compile(r"/(?:sections?|category|categories|tags?|topics?|archives?|index)\.\w{2,5}$")
#: addresses that list stories or act on one without being one: a writer's page, a listing's further pages, a date
#: archive, an article's "e-mail it" or "print it" form
_NO_STORY: tuple[tuple[re.Pattern[str], Kind, str], ...] = (
    (
        re.compile(r"/(?:authors?|contributors?|writers?|columnists?)(?:/[^/]+/?|\.\w{2,5})$"),
        Kind.LISTING,
        "a writer's page",
    ),
    (re.compile(r"/page/\d+/?$"), Kind.LISTING, "a listing's further page"),
    (re.compile(r"/(?:19|20)\d\d/(?:[01]?\d/(?:[0-3]?\d/)?)?$"), Kind.LISTING, "a date archive's address"),
    (re.compile(r"/(?:e-?mail|print|share)(?:\.\w{2,5})?/?$"), Kind.SERVICE, "an e-mail, print or share link"),
)
_PAGE_QUERY = re.compile(r"(?:^|&)(?:page|paged|pg)=\d+(?:&|$)")


def link_kind(url: str) -> PageKind | None:
    """What a link's address alone says, before the page is fetched: another kind than an article (a home page,
    a section front, a site's furniture such as its privacy or contact page, a product's, forum's or collection's
    address), or None when the address may be an article's. The page's own kind (:func:`page_kind`) is judged
    again once fetched; this only spares fetching pages whose address leaves no doubt."""
    shape = url_shape(url)
    if shape.home:
        return PageKind(Kind.SERVICE, "a home page's address")
    if shape.kind is not None:
        return PageKind(shape.kind, shape.why)
    parts = urlsplit(url.strip().lower())
    path = parts.path or "/"
    if _FURNITURE.search(path):
        return PageKind(Kind.SERVICE, "a site's own page (about, contact, privacy...)")
    if _LISTING_PAGE.search(path) and parts.query:
        return PageKind(Kind.LISTING, "a listing's address")
    for pattern, kind, why in _NO_STORY:
        if pattern.search(path):
            return PageKind(kind, why)
    if _PAGE_QUERY.search(parts.query):
        return PageKind(Kind.LISTING, "a listing's further page")
    segments = [s for s in path.split("/") if s and not _LOCALE.match(s)]
    one_word = all(len(_WORD.findall(s)) <= 1 and len(s) <= 14 for s in segments)  # "/world/europe/"
    if 1 <= len(segments) <= 2 and one_word and path.endswith("/") and not any(c.isdigit() for c in path):
        return PageKind(Kind.LISTING, "a section front's address")
    return None
