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

import re
from dataclasses import dataclass
from enum import StrEnum
from urllib.parse import urlsplit

from .kind_evidence import Evidence, gather
from .pipeline import Page

__all__ = [
    "Kind",
    "PageKind",
    "Evidence",
    "UrlShape",
    "gather",
    "url_shape",
    "further_page",
    "facts",
    "settle",
    "weigh",
    "judge",
    "page_kind",
    "metadata_kind",
    "link_kind",
    "is_feed_address",
    "not_a_section",
    "forum_front",
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
        re.compile(r"/(?:collections|shop|category|categories|browse|c|sections?|departments?)/"),
        Kind.LISTING,
        "a collection's address",
    ),
    (
        re.compile(r"/(?:tags?|archives?|search)/|/(?:topics?|subjects?)/[^/]+/?$"),
        Kind.LISTING,
        "a tag's or archive's address",
    ),
)
_DOC_HOST = re.compile(r"^(?:docs?|developers?|wiki|man|manual)\.")
_FORUM_HOST = re.compile(r"^(?:forums?|community|discuss|discourse|answers)\.")
_ARTICLE_PATH = re.compile(
    r"/(?:blogs?|news|articles?|posts?|stories|story|insights?|press|magazine|features|opinion|columns?)/[^/]"
)


#: a listing's numbered pages: WordPress's /page/2/, a section's /care/p/2/ (under a section only, and a short
#: number: a site's /p/12345 is a story's id), and ?page=2, ?paged=2, ?pg=2 among any other parameters
_FURTHER_PATH = re.compile(r"/page/(\d+)/?$|[^/]/p/(\d{1,4})/?$")
_FURTHER_QUERY = re.compile(r"(?:^|&)(?:page|paged|pg)=(\d+)(?:&|$)")


def page_number(url: str) -> int | None:
    """The page number an address names (``/page/2/``, ``?page=2``), else None: the one definition by which
    discovery refuses such links (:func:`link_kind`, any number: ``?page=1`` is the listing again) and the page kind
    reads a page fetched anyway (:func:`further_page`)."""
    parts = urlsplit(url.strip().lower())
    found = _FURTHER_PATH.search(parts.path or "/") or _FURTHER_QUERY.search(parts.query)
    return int(found.group(found.lastindex or 1)) if found else None


def further_page(url: str) -> bool:
    """The address is a listing's further page (``/page/2/``, ``?page=2``; an include pattern lets them through:
    :func:`settle`). Not page 1: ``story?page=1`` is an article's own address as often as a listing's. A long
    article's further pages have such addresses too: the address alone never settles a page."""
    number = page_number(url)
    return number is not None and number >= 2


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
#: settles in the tuning split (``tests/bench/bench_sources.py --fit``), rounded to tenths.  og:type ``article`` is
#: not weighed: WordPress's SEO plugins give it to every page of a site, its services, shops and forms too, and the
#: weights fitted without it keep out more pages of sites no fit saw at the same article recall
WEIGHTS: dict[str, Weight] = {
    "schema_article": Weight(1.4, Kind.ARTICLE, "schema.org {schema}"),
    "byline_date": Weight(0.7, Kind.ARTICLE, "a dated byline"),
    "url_dated": Weight(0.9, Kind.ARTICLE, "a dated address"),
    "url_article_path": Weight(1.2, Kind.ARTICLE, "an address among articles"),
    "url_slug": Weight(1.0, Kind.ARTICLE, "a headline in the address"),
    "body": Weight(0.6, Kind.ARTICLE, "{ev.prose_run:,} characters of prose in one body"),
    "long_body": Weight(0.4, Kind.ARTICLE, "a long body"),
    "one_body": Weight(0.3, Kind.ARTICLE, "most of its prose in one body"),
    "long_headline": Weight(0.7, Kind.ARTICLE, "a long headline"),
    "headline_style": Weight(0.9, Kind.ARTICLE, "a headline"),
    "author": Weight(0.7, Kind.ARTICLE, "an author"),
    # the fact is the markup's (see facts()), never the page's date: a story of today on an old-style site has it
    "legacy": Weight(2.0, Kind.ARTICLE, "old-style markup: no og:type, schema.org type or viewport"),
    "dated_items": Weight(-0.7, Kind.LISTING, "{ev.times} dated items"),
    "title_docs": Weight(-1.4, Kind.DOCUMENTATION, "a documentation title"),
    "url_service": Weight(-1.4, Kind.SERVICE, "a service's address"),
    "url_listing": Weight(-1.6, Kind.LISTING, "a listing's address"),
    "prices": Weight(-0.8, Kind.PRODUCT, "{ev.prices} prices"),
    "heading_links": Weight(-0.2, Kind.LISTING, "{ev.heading_links} headline links"),
    "cards": Weight(-0.7, Kind.LISTING, "{ev.articles} <article> cards"),
    "scattered": Weight(-0.2, Kind.SERVICE, "its prose spread over sections"),
    "we": Weight(-0.6, Kind.SERVICE, "speaks of itself (we, our, us)"),
    "calls": Weight(-0.7, Kind.SERVICE, "{ev.calls} calls to act"),
    "offer_headline": Weight(-1.0, Kind.SERVICE, "a headline naming an offer"),
    "many_h1": Weight(-1.0, Kind.SERVICE, "{ev.h1} <h1>"),
    "body_share": Weight(0.9, Kind.ARTICLE, "its body is much of the page's text"),
    "thin_body": Weight(-0.8, Kind.LISTING, "its longest prose is a tenth of its text or less"),
}
#: where the weighing starts: the fitted intercept (to hundredths: a page with no evidence either way scores it, and
#: it sits just under THRESHOLD)
BIAS = -0.43
#: a page whose score reaches it is an article: below the fitted 0, so that a page in doubt leans to one.  Chosen on
#: the tuning split cross-validated by site (tests/bench/kind_cv.py, 8 seeds x 5 folds: article recall 0.975, kept out
#: 0.911; at -0.5: 0.977 and 0.907; --fit's folds at -0.4: 0.970 and 0.916)
THRESHOLD = -0.4


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
        "body_of_prose": ev.prose_run >= 1500 and ev.prose_run >= 0.6 * ev.prose_chars,
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
        "further_page": further_page(ev.url),
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
        # the body's share of all the page's text (links, menus, cards included): an article's page is mostly its
        # body, a listing's or a service's is mostly links and short blocks around a little prose
        "body_share": ev.prose_run >= 0.3 * ev.text_chars,
        "thin_body": ev.prose_run < 0.1 * ev.text_chars,
    }


#: the marks of an article beyond its prose: a page with none of them needs little more to be something else
_ARTICLE_MARKS = (
    "byline_date", "byline_by", "published", "time", "url_dated", "url_article_path", "schema_article",
    "headline_style", "url_slug", "legacy", "body_of_prose",
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
    # a blog's home page that shows its latest post in full (one <article> at most, one body of prose) is that post
    one_post = shape.article_path and ev.articles <= 1 and found["body_of_prose"] and not ev.dated_cards
    if shape.home and not one_post:
        return PageKind(Kind.SERVICE, "a site's home page")
    if ev.dated_cards >= 4 and not schema_article:  # counted on pages with little prose only
        return PageKind(Kind.LISTING, f"{ev.dated_cards} dated headline links and little prose")
    # fetched though discovery refuses its link (an include pattern lets it through): a long article's further page
    # has its body of prose, a listing's a few cards, whose first date reads as the headline's byline
    if found["further_page"] and not found["body_of_prose"]:
        return PageKind(Kind.LISTING, "a listing's further page, and no body of prose")
    strong = schema_article or found["byline_date"] or shape.dated
    blog = shape.article_path or found["byline_by"]
    # a short list is a list too (an old site's tag page of one or two stories): dated headline cards and no body
    if ev.dated_cards and (ev.dated_cards >= 2 or ev.prose_run < 200) and not strong:
        return PageKind(Kind.LISTING, f"{ev.dated_cards} dated headline links and no body of prose")
    if ev.edit_links and not strong:  # a wiki's or a documentation's page: readers may edit it
        return PageKind(Kind.DOCUMENTATION, "a link to edit the page, and no date")
    if ev.code_blocks >= 3 and not (strong or blog or found["og_article"]):
        return PageKind(Kind.DOCUMENTATION, f"{ev.code_blocks} code blocks and no date")
    if found["little_prose"] and found["url_service"] and not (strong or blog):  # an old site's about.php too
        return PageKind(Kind.SERVICE, f"a service's address and little prose ({ev.prose_run} characters)")
    if found["little_prose"] and not (found["legacy"] or strong or blog):
        return PageKind(Kind.OTHER, f"little prose ({ev.prose_run} characters) and no date")
    if ev.prices >= 5 and ev.carts and not (schema_article or blog or (found["body"] and found["one_body"])):
        return PageKind(Kind.PRODUCT, f"{ev.prices} prices and a cart")
    if (found["url_service"] or found["offer_headline"]) and not any(found[mark] for mark in _ARTICLE_MARKS):
        return PageKind(Kind.SERVICE, "names an offer, and nothing of an article")
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
    r"advertise|advertising|jobs|careers?|contact(?:-us)?|about(?:-us)?|corrections|ethics|services|search|atom|rss2)(?:\.\w{2,5})?/?$"
)
#: a feed's address (RSS, Atom, RDF): a segment naming one (/feed/, /rss/world/, /feeds/health/), a feed file
#: (/rss.xml, /news.rss, /atom.xml) or a feed query (WordPress's ?feed=rss2); never a page, whatever its path says
_FEED_SEGMENT = re.compile(r"/(?:feeds?|rss2?|atom|rdf)(?:/|$)")
_FEED_FILE = re.compile(r"/[^/]*(?:\.(?:rss|atom|rdf)|(?:rss2?|atom|feed)[\w-]*\.xml)$")
_FEED_QUERY = re.compile(r"(?:^|&)(?:feed|format|type)=(?:rss2?|atom|rdf|feed)\b")
#: a listing named by its last segment, whatever follows (``section.php?s=health``, ``category.aspx?id=3``)
_LISTING_PAGE = re.compile(r"/(?:sections?|category|categories|index)\.\w{2,5}$")
_TAG_PAGE = re.compile(r"/(?:tags?|topics?|subjects?|archives?)\.\w{2,5}$")
#: addresses that list stories or act on one without being one: a writer's page, a listing's further pages, a date
#: archive, an article's "e-mail it" or "print it" form
_NO_STORY: tuple[tuple[re.Pattern[str], Kind, str], ...] = (
    (
        re.compile(r"/(?:authors?|contributors?|writers?|columnists?)(?:/[^/]+/?|\.\w{2,5})$"),
        Kind.LISTING,
        "a writer's page",
    ),
    (  # a person's page: one name of four words at most (/people/jane-doe/); a story's slug there is longer
        re.compile(r"/(?:people|profiles?|staff)/[^\W\d_]+(?:[-_.'][^\W\d_]+){0,3}/?$"),
        Kind.LISTING,
        "a writer's page",
    ),
    (
        re.compile(r"/(?:19|20)\d\d/(?:[01]?\d/(?:[0-3]?\d/)?)?(?:index\.\w{2,5})?$"),
        Kind.LISTING,
        "a date archive's address",
    ),
    (re.compile(r"/(?:e-?mail|print|share)(?:\.\w{2,5})?/?$"), Kind.SERVICE, "an e-mail, print or share link"),
)
#: a path segment that names one story: a headline's slug (three words or more; two under a date, as CNN's
#: /2000/WORLD/europe/01/05/jordan.talks/) or a number of an id's length (five digits: a year is no id)
_STORY_SEGMENT = re.compile(r"^[^\W_]+(?:[-_.][^\W_]+){2,}$|\d{5,}")
_SLUG = re.compile(r"^[^\W_]+(?:[-_.][^\W_]+)+$")
_INDEX_FILE = re.compile(r"^(?:index|default)\.\w{2,5}$")


def link_kind(url: str) -> PageKind | None:
    """What a link's address alone says, before the page is fetched: another kind than an article (a home page,
    a section front, a site's furniture such as its privacy or contact page, a product's, forum's or collection's
    address), or None when the address may be an article's. The page's own kind (:func:`page_kind`) is judged
    again once fetched; this only spares fetching pages whose address leaves no doubt."""
    shape = url_shape(url)
    if shape.home:
        return PageKind(Kind.SERVICE, "a home page's address")
    parts = urlsplit(url.strip().lower())
    path = parts.path or "/"
    if is_feed_address(url):  # before the shape: /feeds/world/ reads as a section front, /comments/feed/ a forum's
        return PageKind(Kind.SERVICE, "a feed's address")
    if shape.kind is not None:
        return PageKind(shape.kind, shape.why)
    if _FURNITURE.search(path):
        return PageKind(Kind.SERVICE, "a site's own page (about, contact, privacy...)")
    segments = [s for s in path.split("/") if s]
    # a story's index page keeps any query it is linked with (CNN's /2013/11/27/.../slug/index.html?iref=...)
    story = any(_STORY_SEGMENT.search(s) or (shape.dated and _SLUG.match(s)) for s in segments[:-1])
    if _TAG_PAGE.search(path) and parts.query:
        return PageKind(Kind.LISTING, "a tag's or archive's address")
    if _LISTING_PAGE.search(path) and parts.query and not story:
        return PageKind(Kind.LISTING, "a listing's address")
    for pattern, kind, why in _NO_STORY:
        if pattern.search(path):
            return PageKind(kind, why)
    if page_number(url) is not None:
        return PageKind(Kind.LISTING, "a listing's further page")
    front = path.endswith("/") or (segments and _INDEX_FILE.match(segments[-1]))  # /world/ or /world/index.html
    segments = [s for s in segments if not _LOCALE.match(s)]
    one_word = all(len(_WORD.findall(s)) <= 1 and len(s) <= 14 for s in segments)  # "/world/europe/"
    if 1 <= len(segments) <= 2 and one_word and front and not any(c.isdigit() for c in path):
        return PageKind(Kind.LISTING, "a section front's address")
    return None


def is_feed_address(url: str) -> bool:
    """The address is a feed's, by a segment naming one (/feed/, /rss/world/), a feed file (/rss.xml, /news.rss)
    or a feed query (?feed=rss2): the preview says "a feed" of it, not a section front or a file."""
    parts = urlsplit(url.strip().lower())
    path = parts.path or "/"
    return bool(_FEED_SEGMENT.search(path) or _FEED_FILE.search(path) or _FEED_QUERY.search(parts.query))


#: what :func:`link_kind` says of the listings a site's sections are: its navigation's fronts and collections
_SECTION_REASONS = frozenset(("a section front's address", "a collection's address", "a listing's address"))


def not_a_section(url: str) -> PageKind | None:
    """Why a link is no section front to watch, from its address (:func:`link_kind`): a tag's, a writer's, an
    archive's, a listing's further page, or no listing at all; None when it may be a section front."""
    verdict = link_kind(url)
    if verdict is None or (verdict.kind is Kind.LISTING and verdict.reason in _SECTION_REASONS):
        return None
    return verdict


def forum_front(url: str, links: list[str]) -> PageKind | None:
    """Why a page read as a section front is a forum's front, from the links it lists under its own address: most
    are forum threads' (:func:`link_kind`), as the Wellbeing Times' ``/community/`` lists ``/community/t/…/1041/``.
    Its address alone reads as a section's (a local paper's ``/community/`` may be news), so the page must be
    read. None: no such evidence (a news section lists stories; a section with links under no path of its own,
    ``section.php?s=…``, says nothing)."""
    parts = urlsplit(url)
    prefix = parts.path if parts.path.endswith("/") else parts.path + "/"
    if prefix == "/":  # the home page: every link is under it
        return None
    under = []
    for link in links:
        target = urlsplit(link)
        if target.netloc == parts.netloc and target.path.startswith(prefix) and target.path != prefix:
            under.append(link)
    threads = sum(1 for link in under if (verdict := link_kind(link)) is not None and verdict.kind is Kind.FORUM)
    if threads < 2 or 2 * threads <= len(under):  # a story's "Comments" page under each story: half at most
        return None
    return PageKind(Kind.FORUM, f"{threads} of the {len(under)} links under its address are forum threads")
