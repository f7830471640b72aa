"""Read-side queries for the experts' workspace: inbox pages, article states, folder tree, rule paths.

Views stay thin by calling these. Everything here is read-only; knowledge-base changes go through
classifier/services.py. Queries are shaped for 100,000 articles: keyset pagination on the inbox's
(collected_at, id) order, a capped count, and per-page bulk loads instead of per-row queries.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, time, timedelta

from django.db.models import Count, Q
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from classifier import kb
from classifier.models import Classification, Folder, ReviewState, Rule
from filters.services import profile_for_site
from monitor.models import Article

PAGE_SIZE = 50
#: The inbox counts matching articles only up to this many ("more than 1,000"): an exact COUNT(*)
#: over 100,000 filtered rows costs more than the page itself, and nobody pages that far.
COUNT_CAP = 1_000

UNREVIEWED, PENDING, CLASSIFIED = ReviewState.UNREVIEWED, ReviewState.PENDING, ReviewState.CLASSIFIED
STATES = dict(ReviewState.choices)


# --------------------------------------------------------------------------- article state
def filter_state(qs, state: str):
    """Articles in one review state (classifier.models.ReviewState: disjoint, covering every article).

    The state is stored on the article (Article.review_state, kept by services.refresh_review_states
    in the transaction of every classification change) and indexed in inbox order, so a filtered page
    is one index range scan however rare or common the state is.
    """
    if state not in STATES:
        raise ValueError(f"unknown state {state!r}; choose one of {', '.join(STATES)}")
    return qs.filter(review_state=state)


# --------------------------------------------------------------------------- inbox
@dataclass(frozen=True)
class Cursor:
    """A position in the inbox order (newest first): the (collected_at, id) of a row."""

    collected_at: datetime
    id: int

    def encode(self) -> str:
        return f"{self.collected_at.isoformat()}~{self.id}"

    @classmethod
    def decode(cls, value: str | None) -> Cursor | None:
        """The cursor in a URL, or None for a missing or malformed one (the first page is shown)."""
        if not value or "~" not in value:
            return None
        when, _, pk = value.rpartition("~")
        try:
            moment = parse_datetime(when)
            number = int(pk)
        except ValueError:
            return None
        return cls(moment, number) if moment is not None else None

    @classmethod
    def of(cls, article: Article) -> Cursor:
        return cls(article.collected_at, article.pk)


def _older(cursor: Cursor) -> Q:
    """Rows after the cursor in inbox order. The plain bound on collected_at comes first so that the
    database starts its index range scan at the cursor instead of filtering every newer row."""
    return Q(collected_at__lte=cursor.collected_at) & (Q(collected_at__lt=cursor.collected_at) | Q(id__lt=cursor.id))


def _newer(cursor: Cursor) -> Q:
    return Q(collected_at__gte=cursor.collected_at) & (Q(collected_at__gt=cursor.collected_at) | Q(id__gt=cursor.id))


@dataclass
class InboxRow:
    article: Article
    state: str
    classifications: list[FolderChip] = field(default_factory=list)
    href: str = ""  # the article page's URL (set by the view: one reverse() per page, not per row)


@dataclass
class InboxPage:
    rows: list[InboxRow]
    next_cursor: Cursor | None
    prev_cursor: Cursor | None
    total: int  # matching articles, counted up to COUNT_CAP
    total_capped: bool


def _day_start(day) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min))


def inbox_queryset(site_id: int | None = None, date_from=None, date_to=None, state: str | None = None):
    """Articles matching the inbox's site, date and state filters (dates: inclusive days of collection,
    in the site's time zone). Bounds on collected_at itself, so that an index in inbox order serves the
    range: (collected_at), or (review_state, collected_at, id) and (site, review_state, collected_at, id)."""
    qs = Article.objects.all()
    if site_id:
        qs = qs.filter(site_id=site_id)
    if state:
        qs = filter_state(qs, state)
    if date_from:
        qs = qs.filter(collected_at__gte=_day_start(date_from))
    if date_to:
        qs = qs.filter(collected_at__lt=_day_start(date_to + timedelta(days=1)))
    return qs


def inbox_page(qs, after: Cursor | None = None, before: Cursor | None = None, size: int = PAGE_SIZE) -> InboxPage:
    """One page of the inbox, newest first, by keyset on (collected_at, id).

    ``qs``: the filtered articles (:func:`inbox_queryset`); ``after``: rows older than the cursor (the
    next page); ``before``: rows newer (the previous page). A page costs one indexed range scan plus
    bulk loads, however deep it is and whichever filters are set.
    """
    page_qs = qs.select_related("site").only(
        "id", "title", "url", "collected_at", "published_at", "review_state", "site__id", "site__name"
    )
    newer_first = before is None
    cursor = after if newer_first else before
    ordered = page_qs.order_by("-collected_at", "-id") if newer_first else page_qs.order_by("collected_at", "id")
    if cursor is not None:
        ordered = ordered.filter(_older(cursor) if newer_first else _newer(cursor))
    articles = list(ordered[: size + 1])
    more = len(articles) > size
    articles = articles[:size]
    if newer_first:
        has_more_older, has_more_newer = more, after is not None
    else:
        articles.reverse()
        has_more_older, has_more_newer = True, more
    by_article = classifications_by_article([a.pk for a in articles])
    rows = [InboxRow(a, a.review_state, by_article.get(a.pk, [])) for a in articles]
    total = qs.order_by()[: COUNT_CAP + 1].count()
    return InboxPage(
        rows=rows,
        next_cursor=Cursor.of(articles[-1]) if articles and has_more_older else None,
        prev_cursor=Cursor.of(articles[0]) if articles and has_more_newer else None,
        total=min(total, COUNT_CAP),
        total_capped=total > COUNT_CAP,
    )


@dataclass(frozen=True)
class FolderChip:
    """One folder of an article as a list shows it: the folder's path and the classification state."""

    folder_id: int
    path: str
    state: str


def classifications_by_article(article_ids: list[int]) -> dict[int, list[FolderChip]]:
    """article id -> its folders with their states, in one query (plain tuples: lists show 50 rows)."""
    result: dict[int, list[FolderChip]] = {}
    if not article_ids:
        return result
    rows = (
        Classification.objects.filter(case__article_id__in=article_ids)
        .order_by("folder__path")
        .values_list("case__article_id", "folder_id", "folder__path", "state")
    )
    for article_id, folder_id, path, state in rows:
        result.setdefault(article_id, []).append(FolderChip(folder_id, path, state))
    return result


def neighbours(article: Article) -> tuple[Article | None, Article | None]:
    """The next older and next newer article in inbox order (for the j / k keys)."""
    here = Cursor.of(article)
    older = Article.objects.filter(_older(here)).order_by("-collected_at", "-id").only("id").first()
    newer = Article.objects.filter(_newer(here)).order_by("collected_at", "id").only("id").first()
    return older, newer


# --------------------------------------------------------------------------- folders
@dataclass
class FolderNode:
    folder: Folder
    depth: int
    accepted: int = 0
    suggested: int = 0

    @property
    def count(self) -> int:
        return self.accepted + self.suggested


def folder_tree() -> list[FolderNode]:
    """Every folder in path order (a depth-first tree walk) with its article counts, in two queries."""
    counts: dict[tuple[int, str], int] = {
        (row["folder_id"], row["state"]): row["n"]
        for row in Classification.objects.exclude(state=Classification.State.REJECTED)
        .values("folder_id", "state")
        .annotate(n=Count("id"))
        .order_by()
    }
    nodes = []
    for folder in Folder.objects.order_by("path"):
        nodes.append(
            FolderNode(
                folder,
                folder.path.count(Folder.SEPARATOR),
                accepted=counts.get((folder.pk, Classification.State.ACCEPTED), 0),
                suggested=counts.get((folder.pk, Classification.State.SUGGESTED), 0),
            )
        )
    # path order puts "A/B" after "A B"; sort by the segments so children follow their parent
    nodes.sort(key=lambda n: n.folder.path.split(Folder.SEPARATOR))
    return nodes


def folder_choices() -> list[tuple[int, str]]:
    """(id, full path) of every folder, for folder pickers."""
    return sorted(Folder.objects.values_list("id", "path"), key=lambda item: item[1].split(Folder.SEPARATOR))


# --------------------------------------------------------------------------- rules
def rule_paths(rule_ids) -> dict[int, list[Rule]]:
    """rule id -> the rules from its ground-breaking rule down to it, as Rule rows (one query)."""
    tree = kb.current().tree
    paths = {rid: tree.path(rid) for rid in set(rule_ids) if rid is not None and rid in tree}
    wanted = {rid for path in paths.values() for rid in path}
    rules = Rule.objects.select_related("folder").in_bulk(wanted)
    return {rid: [rules[r] for r in path if r in rules] for rid, path in paths.items()}


def last_rule_id() -> int | None:
    return Rule.objects.order_by("-id").values_list("id", flat=True).first()


# --------------------------------------------------------------------------- phrases for the filter view
@dataclass(frozen=True)
class ShownPhrase:
    """A phrase of the page as the filter view shows it (stored decision or a fresh extraction)."""

    text: str
    path: str
    removed_by: str | None
    rescued_by: str | None

    @property
    def is_core(self) -> bool:
        return self.removed_by is None


def stored_html(article: Article) -> bytes | None:
    """The article page's raw HTML as WebMon stored it (decompressed), or None when it kept none."""
    getter = getattr(article, "get_raw_html", None)
    if callable(getter):
        return getter() or None
    return None


def article_phrases(article: Article) -> tuple[list[ShownPhrase], str]:
    """The article's phrases with the filters' decisions, and where they came from.

    Prefers the decisions WebMon stored with the article (what the classifier was really given);
    otherwise re-runs the filters on the stored HTML with the site's profile.
    """
    stored = (getattr(article, "extraction", None) or {}).get("phrases")
    if stored:
        return [
            ShownPhrase(p.get("text", ""), p.get("path", ""), p.get("removed_by"), p.get("rescued_by")) for p in stored
        ], "stored"
    html = stored_html(article)
    if not html:
        return [], "none"
    import filters  # local: only the filter view needs the extraction pipeline

    extraction = filters.extract(
        html, url=article.url, profile=profile_for_site(article.site), charset=getattr(article, "charset", None) or None
    )
    return [ShownPhrase(p.text, p.path, p.removed_by, p.rescued_by) for p in extraction.phrases], "re-extracted"
