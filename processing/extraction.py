"""A fetched article's page, read once: its charset, one parse shared by the page's metadata (canonical link,
publication date) and the noise filters, its core text's fingerprints (the exact content hash and the
MinHash signature of near-duplicates) and its DocView elements (keywords, abstract, relevant links), kept in
the article's content row (``processing.models.ArticleContent``).

Shared by processing (processing/services.py) and re-filtering after site learning (processing/learning.py).
"""

from __future__ import annotations

import hashlib

from django.db import connection

import filters
from classifier.selectors import document_frequencies
from filters import docview
from filters.charset import charset_from_content_type, wide_codec
from filters.kind import Kind, page_kind
from filters.titles import TITLE_SEP
from monitor.canonical import canonicalise
from monitor.discovery import gives_time, page_metadata
from monitor.models import Article

from .models import ArticleContent, FingerprintBand

#: the ArticleContent columns processing writes (all but who confirmed its kind)
CONTENT_FIELDS = [
    "core_text",
    "tokens",
    "extraction",
    "keywords",
    "abstract",
    "relevant_links",
    "fingerprint",
    "kind",
    "kind_reason",
]


def save_content(content: ArticleContent) -> None:
    """Store the content row: one INSERT for a new one, one UPDATE for a stored one."""
    if content._state.adding:
        content.save(force_insert=True)
    else:
        content.save(update_fields=CONTENT_FIELDS)


def content_hash(core_text: str) -> str:
    """Fingerprint of the core text, blind to whitespace and case; '' for an empty text."""
    normal = " ".join(core_text.split()).casefold()
    return hashlib.sha256(normal.encode("utf-8")).hexdigest() if normal else ""


def page_charset(body: bytes, declared: str | None) -> str:
    """The charset to read a page with: UTF-8 when the bytes are valid UTF-8 beyond ASCII, else as declared.

    Bytes in another charset are almost never valid UTF-8 by accident, so valid multi-byte UTF-8 outweighs
    a declaration (pages re-encoded by a CMS keep their old ``<meta charset=windows-1252>``). The empty
    string lets the filters find the charset (BOM, meta tag, detection). A declared UTF-16/32 is kept:
    its ASCII text is all valid UTF-8 bytes, NULs included.
    """
    if wide_codec(declared):
        return declared or ""
    if not body.isascii():
        try:
            body.decode("utf-8")
            return "utf-8"
        except UnicodeDecodeError:
            pass
    return (declared or "")[:40]


def read_article(article: Article) -> filters.Page:
    """The article's stored page, decoded and parsed once (raises filters.ExtractionError when it is not
    HTML). Sets the article's charset (no save)."""
    body = article.get_raw_html()
    content_type = article.headers.get("content-type")
    charset = page_charset(body, charset_from_content_type(content_type))
    page = filters.read_page(body, content_type=content_type, charset=charset or None)
    article.charset = (page.encoding or charset or "")[:40]
    return page


def read_metadata(article: Article, page: filters.Page) -> str | None:
    """The page's canonical URL, and its publication date when the feed gave none (set on the article, no
    save); returns the canonical URL (None when the page names none)."""
    if page.root is None:
        return None
    canonical, published = page_metadata(page.root, article.final_url or article.url)
    if article.published_at is None:  # a feed's date, when the link came from one, comes first
        article.published_at, article.published_time_given = published, gives_time(published)
    if canonical:
        article.canonical_url = canonical[:2000]
    return canonical


def extract_article(article: Article, profile, page: filters.Page | None = None) -> filters.Extraction:
    """The noise filters on the article's page (read here unless given); sets the article's title and charset
    and its content's core text, tokens and stored extraction (no save)."""
    page = page if page is not None else read_article(article)
    extraction = filters.extract(page, url=article.url, profile=profile)
    fallback = _base_profile_fallback(page, article.url, profile, extraction)
    if fallback is not None:
        # filtered under the site's profile all the same: re-filtering and learning must not take it again
        base, extraction = fallback.profile, fallback
        extraction.profile = profile.name
    headline = " ".join(extraction.headline.split())
    article.title = article_title(extraction.title, headline, article.site.name)[:500]
    content = article.extracted
    content.core_text = extraction.body  # what the experts read below the title: the headline is not repeated
    content.tokens = extraction.tokens  # the headline's words too: word conditions still find them
    content.extraction = {
        "profile": extraction.profile,
        "headline": headline,  # the case's title words (classifier.services.cases.case_keywords)
        # which learning of the site's profile filtered it: a re-learned profile keeps its name
        "profile_learned_at": (getattr(profile, "provenance", None) or {}).get("learned_at"),
        "counts": extraction.counts,
        "phrases": [[p.text, p.removed_by, p.rescued_by, p.note] for p in extraction.phrases],
    }
    if fallback is not None:
        content.extraction["fallback"] = FALLBACK_NOTE.format(base=base)
    if extraction.token_weights:  # a site with a learned style tree: the rule page ranks words by them
        content.extraction["token_weights"] = extraction.token_weights
    return extraction


def article_title(title: str, headline: str, site_name: str = "") -> str:
    """The article's title: the page's ``<title>`` (its learned site affixes already stripped), but its headline
    when the title is missing, only the site's name, or the headline with the site's name around it ("Flu jabs
    open | Health Watch Daily"). A title the site wrote otherwise is kept."""
    if not headline:
        return title
    folded, head = title.casefold().strip(), headline.casefold()
    if not folded or folded in (head, site_name.casefold().strip()):
        return headline
    # only the site's name (and section) around it, at a separator: an <h1> "Health" is no headline of
    # "Health minister resigns | Daily News"
    if folded.startswith(head) and TITLE_SEP.match(folded[len(head) :]):
        return headline
    if folded.endswith(head) and any(m.end() == len(folded) - len(head) for m in TITLE_SEP.finditer(folded)):
        return headline
    return title


#: what the article says when its site's learned profile removed all of its text
FALLBACK_NOTE = (
    "The site's learned filter profile removed all of this page's text: it was filtered with the {base} profile."
)


def _base_profile_fallback(
    page: filters.Page, url: str, profile, extraction: filters.Extraction
) -> filters.Extraction | None:
    """The page filtered with the learned profile's base profile, when the learned one removed all of its text and
    the base keeps some: a site's template learned from other pages must never empty a page (one archived BBC
    page lost all its text as "site template (style tree)"). None otherwise."""
    base = (getattr(profile, "provenance", None) or {}).get("base")
    if extraction.text or not base or not extraction.phrases:
        return None
    plain = filters.extract(page, url=url, profile=base)
    return plain if plain.text else None


def relevant_links(links: list[tuple[str, str]]) -> list[list[str]]:
    """The links as stored and shown: canonical, without tracking parameters (a Wellbeing Times article listed
    "/mind/?utm_source=wbt&..."), each once."""
    out: dict[str, str] = {}
    for url, anchor in links:
        out.setdefault(canonicalise(url) or url, anchor)
    return [[url, anchor] for url, anchor in out.items()]


def set_docview(article: Article, extraction: filters.Extraction) -> docview.DocView:
    """The DocView elements of the article's core content (on its content row, no save): keywords weighted by
    block and by the inverse document frequency among the stored cases (one query), abstract, relevant links,
    fingerprint."""
    view = docview.docview(extraction)
    frequencies, cases = document_frequencies(view.weights) if view.weights else ({}, 0)
    content = article.extracted
    content.keywords = [[term, weight] for term, weight in view.keywords(frequencies, cases)]
    content.abstract = view.abstract
    content.relevant_links = relevant_links(view.links)
    content.fingerprint = docview.fingerprint_bytes(view.fingerprint) or None
    return view


#: the reason kept with a page an administrator said is an article (filters.kind does not judge it again)
CONFIRMED_ARTICLE = "an administrator said it is an article"


def judge_kind(article: Article, page: filters.Page) -> bool:
    """Whether the page is an article (filters.kind, from the tree the filters read: no second parse); its kind
    and reason are set on the article's content (no save), and shown whether or not its site keeps the pages
    that are not articles out (``Site.articles_only``). A page an administrator said is an article
    (``kind_confirmed_by``) is one, without a verdict."""
    content = article.extracted
    if content.kind_confirmed_by_id is not None:
        content.kind, content.kind_reason = Kind.ARTICLE.value, CONFIRMED_ARTICLE
        return True
    verdict = page_kind(page, article.final_url or article.url)
    content.kind, content.kind_reason = verdict.kind.value, verdict.reason[:300]
    return verdict.is_article


def lock_bands(article: Article) -> None:
    """Lock the article's LSH band keys until the transaction ends (PostgreSQL advisory locks, in key order
    so that two articles sharing keys never deadlock): a near-copy processed at the same moment waits here,
    then finds this article's bands. SQLite needs none: WIMS's transactions there take the database's write
    lock at BEGIN (``transaction_mode`` IMMEDIATE), and processing's claim already serialises them."""
    if connection.vendor != "postgresql":
        return
    keys = sorted(set(docview.band_keys(docview.fingerprint_from_bytes(article.extracted.fingerprint))))
    if keys:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(key) FROM (SELECT unnest(%s::bigint[]) AS key ORDER BY 1) AS keys", [keys]
            )


def near_duplicate_of(article: Article) -> tuple[Article, float] | None:
    """The earliest original article whose core text nearly equals this one's, with their resemblance.

    One query: the originals (of any site, as for exact copies) sharing an LSH band key with the article's
    fingerprint, then their resemblance estimated from the signatures; None when none reaches
    ``docview.NEAR_DUPLICATE``. Originals processed before fingerprints existed have no bands: only their
    exact copies are found (by the content hash).
    """
    signature = docview.fingerprint_from_bytes(article.extracted.fingerprint)
    keys = docview.band_keys(signature)
    if not keys:
        return None
    candidates = (
        Article.objects.filter(fingerprint_bands__key__in=keys, duplicate_of__isnull=True)
        .exclude(pk=article.pk)
        .select_related("content")
        .only("pk", "content__fingerprint")
        .order_by("pk")
    )
    seen = set()
    for candidate in candidates:  # an article sharing several bands comes once per band
        if candidate.pk in seen:
            continue
        seen.add(candidate.pk)
        score = docview.resemblance(signature, docview.fingerprint_from_bytes(candidate.extracted.fingerprint))
        if score >= docview.NEAR_DUPLICATE:
            return candidate, score
    return None


def store_bands(article: Article, *, replace: bool = False) -> None:
    """Index the article's fingerprint by its LSH band keys (originals only); ``replace``: drop its old ones
    first (re-filtering; a newly processed article has none, and the delete would be one more statement)."""
    if replace:
        FingerprintBand.objects.filter(article=article).delete()
    keys = docview.band_keys(docview.fingerprint_from_bytes(article.extracted.fingerprint))
    if keys:
        FingerprintBand.objects.bulk_create([FingerprintBand(article=article, key=key) for key in keys])
