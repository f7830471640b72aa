"""Processing use cases: a fetched article's page read once (metadata and filters), its stored extraction,
its case and inference, or the article its rel=canonical names.

Tasks (processing/tasks.py) are thin shells around these functions. Like WebMon's, each one claims its row
with a conditional UPDATE and a lease first (``foundation.work.claim("process", …)``, over the articles'
columns ``monitor.services.PROCESS_ROWS``), so a redelivered message does nothing, and the dispatcher's
sweep enqueues again what a killed worker left behind.
"""

from __future__ import annotations

import time

from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import ngettext

import filters
from classifier.models import Case
from classifier.services import ingest_case
from filters.services import profile_for_site
from foundation import metrics, work
from foundation.work import Outcome
from monitor.models import Article
from monitor.services import alias_to_canonical

from . import learning
from .extraction import (
    content_hash,
    extract_article,
    judge_kind,
    lock_bands,
    near_duplicate_of,
    read_article,
    read_metadata,
    save_content,
    set_docview,
    store_bands,
)
from .models import ArticleContent

S = Article.State

#: the article's columns processing writes (never the raw page, nor the experts' review state that ingestion
#: keeps); the rest of its output is the article's content row (processing.models.ArticleContent)
PROCESSED_FIELDS = [
    "title",
    "charset",
    "content_hash",
    "state",
    "lease_until",
    "processed_at",
    "published_at",
    "published_time_given",
    "canonical_url",
]


def process_article(article_id: int) -> Outcome:
    """Filters with the site's profile, then the case and inference, or a link to the original article."""
    started = time.perf_counter()
    outcome = work.run_claimed("process", article_id, _process)
    if outcome.result != "skipped":  # not claimed: nothing was processed
        metrics.PROCESSING_SECONDS.labels(outcome=outcome.result).observe(time.perf_counter() - started)
    return outcome


def _process(article_id: int) -> Outcome:
    # The site's filter profile and learning record, and the content row of an article processed before, come
    # in the same query (reverse one-to-ones), with whether it has a case already (a new case's review state
    # is saved with the article's final row).
    article = (
        Article.objects.select_related("site", "site__filter_profile", "site__learning", "content")
        .annotate(has_case=Exists(Case.objects.filter(article=OuterRef("pk"))))
        .get(pk=article_id)
    )
    site = article.site
    t0 = time.perf_counter()
    try:
        page = read_article(article)  # decoded and parsed once, for the metadata and the filters
        canonical = read_metadata(article, page)
        # judged before its canonical link is followed: an about or privacy page naming the home page as its
        # canonical is no re-publication of an article, but a page to keep out
        is_article = judge_kind(article, page) or not site.articles_only
        target = alias_to_canonical(article, canonical) if is_article else None
        if target is not None:
            return Outcome("alias", f"canonical is {canonical}", [("process", target.pk, 0)])
        extraction = extract_article(article, profile_for_site(site), page)
    except (filters.ExtractionError, ValueError) as exc:
        Article.objects.filter(pk=article_id, state=S.PROCESSING).update(
            state=S.FAILED, lease_until=None, last_error=f"filters: {exc}"[:2000]
        )
        metrics.EXTRACTION_REFUSALS.labels(reason=getattr(exc, "reason", "invalid")).inc()
        return Outcome("failed", str(exc))
    if not is_article:
        return _keep_out(article, round((time.perf_counter() - t0) * 1000, 3))
    t1 = time.perf_counter()
    set_docview(article, extraction)  # keywords, abstract, relevant links, fingerprint
    digest = content_hash(extraction.text)
    timings = {"filter_ms": round((t1 - t0) * 1000, 3), "docview_ms": round((time.perf_counter() - t1) * 1000, 3)}
    article.lease_until = None
    article.processed_at = timezone.now()
    article.content_hash = digest
    article.extracted.extraction["timings"] = timings  # the same dict: inference adds its time below

    follow_up = learning.after_processing  # after the transaction: it may read what others committed
    near = None
    try:
        # One transaction: the case, its suggestions and the article's final state. The content-hash claim
        # is part of the final save: the unique index on (content_hash) of originals refuses a second
        # original with the same core text, and the whole transaction, case included, is rolled back.
        with transaction.atomic():
            # A re-publication with a changed byline, date or a sentence more: the same article, not a new
            # case. Looked up under the locks of the article's band keys, so that of two near-copies processed
            # at the same moment the second waits for the first's bands and finds them.
            lock_bands(article)
            near = near_duplicate_of(article)
            if near is not None:
                _save_duplicate(article, near[0])
            else:
                _save_original(article, extraction.tokens, timings)
    except IntegrityError:
        original = (
            # the terms of unique_original_content's condition, so that its partial index serves the lookup
            Article.objects.filter(content_hash=digest, duplicate_of__isnull=True)
            .exclude(content_hash="")
            .exclude(pk=article_id)
            .first()
            if digest
            else None
        )
        if original is None:
            raise
        _save_duplicate(article, original)
        return Outcome("duplicate", f"re-publication of article {original.pk}", follow_up(site, extraction.profile))
    if near is not None:
        earlier, score = near
        return Outcome(
            "duplicate",
            f"near re-publication of article {earlier.pk} (resemblance {score:.2f})",
            follow_up(site, extraction.profile),
        )
    # The site's first pages: once enough are stored, learn its filter profile (processing/learning.py).
    return Outcome("processed", "", follow_up(site, extraction.profile))


def _keep_out(article: Article, filter_ms: float) -> Outcome:
    """The final row of a page that is not an article (filters.kind): its content and kind are stored, it gets no
    case and no search document, and the inbox leaves it out (an administrator may say it is an article)."""
    content = article.extracted
    content.extraction["timings"] = {"filter_ms": filter_ms}
    article.state, article.lease_until, article.processed_at = S.NOT_ARTICLE, None, timezone.now()
    article.content_hash = ""  # not an original: two identical listing pages are not one another's duplicates
    with transaction.atomic():
        article.save(update_fields=PROCESSED_FIELDS)
        save_content(content)  # the search index drops the document of a page processed before as an article
    return Outcome("not_article", f"{content.kind}: {content.kind_reason}")


def _save_duplicate(article: Article, original: Article) -> None:
    """The final row of a re-publication of ``original``: it keeps its content, has no case, is not searchable."""
    article.state, article.duplicate_of = S.DUPLICATE, original
    article.save(update_fields=[*PROCESSED_FIELDS, "duplicate_of"])
    save_content(article.extracted)  # a re-publication is not searchable: the index drops a document it had


def _save_original(article: Article, tokens: list[str], timings: dict) -> None:
    """The case and its suggestions, then the final row of an original article (its search document follows its
    content row: search/backends.py) and its bands."""
    t2 = time.perf_counter()
    # a new case's review state is saved with the article's final row (one statement less); an article read
    # without the annotation (_process's query) counts as one with a case: the classifier then writes the state
    new_case = not getattr(article, "has_case", True)
    ingest_case(article, tokens, caller_saves_review_state=new_case)
    timings["inference_ms"] = round((time.perf_counter() - t2) * 1000, 3)
    article.state = S.PROCESSED
    article.save(update_fields=[*PROCESSED_FIELDS, "review_state"] if new_case else PROCESSED_FIELDS)
    save_content(article.extracted)  # title, core text and keywords searchable with the case (search's triggers)
    store_bands(article)  # an original: later near-copies are found by its bands


def confirm_articles(article_ids, user) -> Outcome:
    """A site administrator says these pages, kept out as not articles, are articles: each is processed again
    as one (its kind is not judged again) and goes on to the experts. Returns what to enqueue."""
    ids = list(Article.objects.filter(pk__in=list(article_ids), state=S.NOT_ARTICLE).values_list("pk", flat=True))
    with transaction.atomic():
        ArticleContent.objects.filter(pk__in=ids).update(kind_confirmed_by=user)
        Article.objects.filter(pk__in=ids, state=S.NOT_ARTICLE).update(
            state=S.FETCHED, lease_until=None, process_attempts=0, last_error="", due_at=timezone.now()
        )
    return Outcome(
        "confirmed",
        f"{len(ids)} {ngettext('page', 'pages', len(ids))} to process as articles",
        [("process", pk, 0) for pk in ids],
    )
