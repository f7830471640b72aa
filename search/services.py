"""Search use cases: keep the index up to date, find articles, rank a page of results; saved searches.

The public API of the app, used by the search page, the feeds, the alerts and the REST API:

- :func:`matching_articles` / :func:`saved_search_articles`: an unranked Article queryset (every filter
  applied), to compose with anything else;
- :func:`search`: one ranked page with highlighted, escaped snippets, paged like the inbox;
- :class:`QuerySyntaxError`: a query or filter that cannot be searched (its message is for the user);
- :func:`index_article` / :func:`reindex`: what processing calls when an article's text changes.

One query syntax (search/query.py) on both databases (search/backends.py).

Filters: ``site`` (a Site or its id); ``folder`` (a Folder or its id): articles accepted *or suggested* in
the folder or below it (not rejected): a search is how experts find what to review, and the inbox, the
folder tree's counts and the folder pages show suggestions beside accepted articles too; ``state``: an
inbox review state (or "failed", which the index never holds), or a group of them (``waiting``, ``any``;
empty is any: a search looks everywhere, unlike the inbox); ``date_from`` / ``date_to``: inclusive days
of *collection* (``collected_at``, in the server's time zone, like the inbox): every article has one,
while many pages carry no publication date.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from datetime import date

from django.db import transaction
from django.db.models import Max, QuerySet
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe

from classifier.filtering import (
    COUNT_CAP,
    PAGE_SIZE,
    STATE_GROUPS,
    STATES,
    FolderChip,
    classifications_by_article,
    current_state,
    filter_state,
    narrow,
    shown_state,
)
from classifier.models import Classification, Folder
from classifier.vocabulary import CORRECTION_PENDING
from monitor.models import Article, Site
from search import backends
from search.models import SavedSearch
from search.query import QuerySyntaxError, parse

__all__ = [
    "COUNT_CAP",
    "PAGE_SIZE",
    "STATES",
    "QuerySyntaxError",
    "SearchPage",
    "SearchResult",
    "highlight",
    "index_article",
    "matching_articles",
    "reindex",
    "saved_search_articles",
    "search",
]

REINDEX_BATCH = 2_000
#: a result's folders leave out rejections (pending correction or not), as the folder filter does
_NOT_STANDING = {Classification.State.REJECTED, CORRECTION_PENDING}


# --------------------------------------------------------------------------- indexing
def index_article(article: Article | int) -> None:
    """Bring the article's search document up to date: (re)index a processed original, drop anything else
    (a duplicate, a failed article). Call it after the article's title, core text or keywords are saved,
    in the same transaction."""
    pk = article if isinstance(article, int) else article.pk
    backends.index_range(pk, pk)


def reindex(batch: int = REINDEX_BATCH, progress=None) -> int:
    """Index every article again, ``batch`` ids per statement (and transaction); returns the highest id."""
    last = Article.objects.aggregate(m=Max("id"))["m"] or 0
    for first in range(1, last + 1, batch):
        with transaction.atomic():
            backends.index_range(first, first + batch - 1)
        if progress is not None:
            progress(min(first + batch - 1, last), last)
    return last


# --------------------------------------------------------------------------- filters
def _filter_state(qs: QuerySet[Article], state: str) -> QuerySet[Article]:
    state = current_state(state)
    if state not in STATES and state not in STATE_GROUPS:
        raise QuerySyntaxError(f"Unknown state {state!r}: choose one of {', '.join([*STATE_GROUPS, *STATES])}.")
    return filter_state(qs, state)


def _documents(site: Site | int | None, folder: Folder | int | None) -> backends.DocumentFilter:
    """The site and folder filters, as the index applies them: the folder's subtree ids (a folder filter means
    accepted or suggested in the folder or below it, as classifier.filtering.in_folder)."""
    folder_ids = None
    if folder:
        if not isinstance(folder, Folder):
            folder = Folder.objects.get(pk=folder)
        folder_ids = tuple(Folder.objects.filter(folder.subtree_q()).values_list("pk", flat=True))
    return backends.DocumentFilter(site_id=site.pk if isinstance(site, Site) else site, folder_ids=folder_ids)


def matching_articles(
    query: str,
    *,
    site: Site | int | None = None,
    folder: Folder | int | None = None,
    state: str = "",
    date_from: date | None = None,
    date_to: date | None = None,
) -> QuerySet[Article]:
    """The articles the query and the filters match, unranked and unordered (order it as you need).

    Raises QuerySyntaxError for an empty query, one of only ``-words``, or an unknown state; a Folder
    id that does not exist raises Folder.DoesNotExist.
    """
    parsed = parse(query)
    return _filtered(parsed, site=site, folder=folder, state=state, date_from=date_from, date_to=date_to)


def _filtered(parsed, *, site, folder, **others) -> QuerySet[Article]:
    return backends.filter_matching(_narrowed(Article.objects.all(), **others), parsed, _documents(site, folder))


def _narrowed(qs: QuerySet[Article], *, state, date_from, date_to) -> QuerySet[Article]:
    """``qs`` with the inbox's filters that the index does not hold (classifier.filtering): state and days."""
    if state:
        qs = _filter_state(qs, state)
    return narrow(qs, None, None, date_from, date_to)


def saved_search_articles(saved: SavedSearch) -> QuerySet[Article]:
    """The articles a saved search matches now (its query and filters), unranked."""
    return matching_articles(
        saved.query,
        site=saved.site_id,
        folder=saved.folder,
        state=saved.state,
        date_from=saved.date_from,
        date_to=saved.date_to,
    )


# --------------------------------------------------------------------------- ranked pages
@dataclass
class SearchResult:
    article: Article
    score: float
    snippet: SafeString  # escaped text with <mark> around the matches
    state: str  # the inbox review state, or "failed"
    folders: list[FolderChip] = field(default_factory=list)
    href: str = ""  # the article page's URL (set by the view: one reverse() per page, not per row)


@dataclass
class SearchPage:
    query: str
    results: list[SearchResult]
    page: int
    has_next: bool
    total: int  # matching articles, counted up to COUNT_CAP
    total_capped: bool
    size: int = PAGE_SIZE
    #: only the newest articles were searched (backends.RECENT_ARTICLES): they held enough matches
    recent_only: bool = False

    @property
    def recent_articles(self) -> str:
        """How many of the newest articles a ``recent_only`` page searched, for the page ("20,000")."""
        return f"{backends.RECENT_ARTICLES:,}"

    @property
    def has_previous(self) -> bool:
        return self.page > 1

    @property
    def first_rank(self) -> int:
        """The position of the page's first result (1-based), for "results 51–100"."""
        return (self.page - 1) * self.size + 1 if self.results else 0

    @property
    def last_rank(self) -> int:
        return (self.page - 1) * self.size + len(self.results)


def highlight(snippet: str) -> SafeString:
    """Escape a snippet (article text is untrusted), then turn the backends' match markers into <mark>."""
    text = html.escape(snippet or "", quote=False)
    opened = text.count(backends.MARK_START)
    if opened != text.count(backends.MARK_END):  # never from the backends; a cut snippet would do it
        return mark_safe(text.replace(backends.MARK_START, "").replace(backends.MARK_END, ""))  # noqa: S308
    # only the sentinels become markup; everything else was escaped above
    return mark_safe(text.replace(backends.MARK_START, "<mark>").replace(backends.MARK_END, "</mark>"))  # noqa: S308


def _folder_chips(article_ids: list[int]) -> dict[int, list[FolderChip]]:
    """The lists' folder chips (classifier.filtering), the folders a result stands in: accepted or suggested."""
    return {
        pk: [c for c in chips if c.state not in _NOT_STANDING]
        for pk, chips in classifications_by_article(article_ids).items()
    }


def search(
    query: str,
    *,
    site: Site | int | None = None,
    folder: Folder | int | None = None,
    state: str = "",
    date_from: date | None = None,
    date_to: date | None = None,
    page: int = 1,
    size: int = PAGE_SIZE,
) -> SearchPage:
    """One page of ranked results (best first; then newest), each with a highlighted snippet and folders.

    Paged by number: a rank is not a stable key for a keyset like the inbox's (collected_at, id). On
    PostgreSQL the ranking reads the newest backends.RANK_WINDOW matches (pages past them are empty: narrow
    the query), among the newest backends.RECENT_ARTICLES articles when they hold enough (``recent_only``).
    The total is counted up to COUNT_CAP, like the inbox's.
    """
    parsed = parse(query)
    page = max(1, int(page))
    others = {"state": state, "date_from": date_from, "date_to": date_to}
    documents = _documents(site, folder)
    offset = (page - 1) * size
    ranking = backends.ranked(_narrowed(Article.objects.all(), **others), parsed, documents, offset, size + 1)
    scored, total = ranking.scored, ranking.total
    if total is None:  # SQLite, or a page past the last: counted apart, up to the cap
        total = _filtered(parsed, site=site, folder=folder, **others).order_by().values("id")[: COUNT_CAP + 1].count()
    has_next = len(scored) > size
    scored = scored[:size]
    by_id = (
        Article.objects.select_related("site")
        .only(
            *("id", "title", "url", "collected_at", "published_at", "published_time_given", "review_state", "state"),
            *("site__id", "site__name"),
        )
        .in_bulk([pk for pk, _ in scored])
    )
    scores = dict(scored)
    articles = [by_id[pk] for pk, _ in scored if pk in by_id]
    ids = [a.pk for a in articles]
    snippets = backends.snippets(ids, parsed)
    chips = _folder_chips(ids)
    results = [
        SearchResult(
            article=a,
            score=scores[a.pk],
            snippet=highlight(snippets.get(a.pk, "")),
            state=shown_state(a),
            folders=chips.get(a.pk, []),
        )
        for a in articles
    ]
    return SearchPage(
        query=query,
        results=results,
        page=page,
        has_next=has_next,
        total=min(total, COUNT_CAP),
        total_capped=total > COUNT_CAP,
        size=size,
        recent_only=ranking.recent_only,
    )


# --------------------------------------------------------------------------- saved searches
def save_search(owner, name: str, query: str, filters: dict, public: bool = False) -> SavedSearch:
    """Save a query with its filters under a name; QuerySyntaxError when the query cannot be searched."""
    parse(query)  # refused now rather than in every feed request later
    return SavedSearch.objects.create(
        owner=owner,
        name=name,
        query=query.strip(),
        site=filters.get("site"),
        folder=filters.get("folder"),
        state=filters.get("state") or "",
        date_from=filters.get("date_from"),
        date_to=filters.get("date_to"),
        public=public,
    )


def mark_seen(saved: SavedSearch) -> None:
    """The owner looked at the results now: its new-match count starts again from zero."""
    saved.last_seen_at = timezone.now()
    saved.save(update_fields=["last_seen_at"])


def new_matches(saved: SavedSearch) -> int:
    """Articles the saved search matches that were processed since its owner last looked (capped)."""
    try:
        qs = saved_search_articles(saved)
    except QuerySyntaxError:
        return 0
    return qs.filter(processed_at__gt=saved.last_seen_at).order_by()[: COUNT_CAP + 1].count()


def feed_is_open(saved: SavedSearch) -> bool:
    """Whether the saved search's feeds answer without a token: public, and not narrowed to a private folder
    (whose articles would otherwise leak through an open feed)."""
    return saved.public and (saved.folder_id is None or saved.folder is not None and saved.folder.public)
