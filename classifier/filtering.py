"""The article filters every list of articles shares (the inbox, search, the REST API): review state, site, days
of collection, folder, assignee, read or unread by a user; and the lists' page size and count cap.

Kept apart from classifier/selectors.py, which composes the workspace's pages and reaches the knowledge base
and services: the search app (and the feeds through it) filter articles the inbox's way without that.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from typing import NamedTuple

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from classifier.models import ArticleRead, Case, Classification, Correction, Folder, ReviewState
from classifier.vocabulary import ARTICLE_STATES, CORRECTION_PENDING, DUPLICATE, FAILED
from monitor.models import Article

PAGE_SIZE = 50
#: Lists count matching articles only up to this many ("more than 1,000"): an exact COUNT(*)
#: over 100,000 filtered rows costs more than the page itself, and nobody pages that far.
COUNT_CAP = 1_000

UNREVIEWED, SUGGESTED, REVIEWED = ReviewState.UNREVIEWED, ReviewState.SUGGESTED, ReviewState.REVIEWED
CORRECTION = ReviewState.CORRECTION
#: review state -> the filters' label for it (the one vocabulary: classifier/vocabulary.py)
STATES = {state: word.word.capitalize() for state, word in ARTICLE_STATES.items()}
#: values a filter still accepts for a state now named otherwise (docs/user-guide.md, the REST API): until issue 30
#: named each by the word every page says, an article with suggestions was "pending" (as are an article waiting
#: to be fetched, a correction and a delivery) and one an expert decided on "classified"
DEPRECATED_STATES = {"pending": SUGGESTED, "classified": REVIEWED}


#: a filter's value for the articles waiting for an expert: no folder decided yet (unreviewed), a suggestion to
#: decide on, or a rejection whose correcting rule is still to be made; never a failed fetch or a re-publication
#: (no case of their own). The inbox's default: an expert's inbox lists what waits for them
WAITING = "waiting"
WAITING_STATES = (UNREVIEWED, SUGGESTED, CORRECTION)
#: a filter's explicit value for every state (the inbox's default being :data:`WAITING`, "" cannot say it)
ANY = "any"
#: filter values that name a set of states, with their filters' labels
STATE_GROUPS = {WAITING: "Waiting for review", ANY: "Any state"}


def current_state(value):
    """A review state as filters take it: a deprecated name (:data:`DEPRECATED_STATES`) read as today's."""
    return DEPRECATED_STATES.get(value, value) if isinstance(value, str) else value


#: the states an article shows by its work state (monitor.Article.state), not its review state: it has no case
NO_CASE = {FAILED: Article.State.FAILED, DUPLICATE: Article.State.DUPLICATE}
_SHOWN: dict[str, str] = {str(work): shown for shown, work in NO_CASE.items()}


#: an unreviewed article is work for an expert once processed (processing stores its case with that state; one
#: processed again keeps its case): before, it has no title, no text and nothing to decide (a live trial saw each
#: poll's new addresses in "Waiting for review", titled by their URL, for the seconds until they were processed)
_PROCESSED = Q(state=Article.State.PROCESSED) | Exists(Case.objects.filter(article_id=OuterRef("pk")))


def filter_state(qs: QuerySet[Article], state: str) -> QuerySet[Article]:
    """Articles in one review state (classifier.models.ReviewState: disjoint, covering every article), or in a
    group of them (:data:`STATE_GROUPS`).

    The state is stored on the article (Article.review_state, kept by services.refresh_review_states
    in the transaction of every classification change) and indexed in inbox order, so a filtered page
    is one index range scan however rare or common the state is.
    """
    state = current_state(state)
    if state not in STATES and state not in STATE_GROUPS:
        raise ValueError(f"unknown state {state!r}; choose one of {', '.join([*STATE_GROUPS, *STATES])}")
    if state == ANY:
        return qs
    if state == WAITING:  # (review_state, collected_at, id) read as one range per state
        waiting = qs.filter(review_state__in=WAITING_STATES).exclude(state__in=list(NO_CASE.values()))
        return waiting.filter(Q(review_state__in=[SUGGESTED, CORRECTION]) | _PROCESSED)
    if state in NO_CASE:
        return qs.filter(state=NO_CASE[state])
    if state == UNREVIEWED:  # a failed article or a re-publication has no case: listed as such, not as work to do
        return qs.filter(review_state=state).exclude(state__in=list(NO_CASE.values())).filter(_PROCESSED)
    return qs.filter(review_state=state)


def shown_state(article: Article) -> str:
    """The state an article shows in every list and on its page, as :func:`filter_state` filters it: failed or
    duplicate by its work state, else its review state."""
    return _SHOWN.get(article.state, article.review_state)


def day_start(day: date) -> datetime:
    """The first moment of a day in the server's time zone (a date filter's bound)."""
    return timezone.make_aware(datetime.combine(day, time.min))


#: the assignee filter's values for articles assigned to nobody and to the user asking (otherwise a user id)
UNASSIGNED, MINE = "none", "me"


def assignee_for(value: str | None, user) -> int | str | None:
    """The assignee filter (:func:`narrow`) from a list's parameter: "me" is ``user``, "none" nobody, digits a
    user id, nothing no filter."""
    if not value:
        return None
    if value == MINE:
        return user.pk
    return UNASSIGNED if value == UNASSIGNED else int(value)


def filter_assignee(qs: QuerySet[Article], assignee: int | str) -> QuerySet[Article]:
    """Articles assigned to the user with this id, or to nobody (:data:`UNASSIGNED`). The assignee is stored on
    the article and indexed with the inbox order, (assignee, collected_at, id): one range scan."""
    if isinstance(assignee, int):
        return qs.filter(assignee_id=assignee)
    if assignee != UNASSIGNED:
        raise ValueError(f"an assignee is a user id or {UNASSIGNED!r}, not {assignee!r}")
    return qs.filter(assignee__isnull=True)


def filter_read(qs: QuerySet[Article], user_id: int, *, read: bool) -> QuerySet[Article]:
    """Articles the user has read (opened), or not: a probe of the (user, article) unique index per row."""
    opened = Exists(ArticleRead.objects.filter(article_id=OuterRef("pk"), user_id=user_id))
    return qs.filter(opened) if read else qs.exclude(opened)


def narrow(
    qs: QuerySet[Article],
    site_id: int | None = None,
    state: str | None = None,
    date_from: date | None = None,
    date_to: date | None = None,
    *,
    assignee: int | str | None = None,
    unread_by: int | None = None,
    read_by: int | None = None,
) -> QuerySet[Article]:
    """``qs`` narrowed to a site, a review state, inclusive days of collection, an assignee (a user id or
    :data:`UNASSIGNED`) and the articles a user has not read or has read. Bounds on collected_at itself, so
    that an index in inbox order serves the range: (collected_at), or (review_state, collected_at, id) and
    (site, review_state, collected_at, id)."""
    if assignee is not None:
        qs = filter_assignee(qs, assignee)
    if unread_by is not None:
        qs = filter_read(qs, unread_by, read=False)
    if read_by is not None:
        qs = filter_read(qs, read_by, read=True)
    if site_id:
        qs = qs.filter(site_id=site_id)
    if state:
        qs = filter_state(qs, state)
    if date_from:
        qs = qs.filter(collected_at__gte=day_start(date_from))
    if date_to:
        qs = qs.filter(collected_at__lt=day_start(date_to + timedelta(days=1)))
    return qs


def _standing_rows():
    """The classifications of the outer article that are accepted or suggested (not rejected)."""
    return Classification.objects.filter(case__article_id=OuterRef("pk")).exclude(state=Classification.State.REJECTED)


def in_folder(folder: Folder) -> Exists:
    """The article is accepted or suggested (not rejected) in the folder or below it: what a list filtered by
    folder shows, suggestions beside decisions, as the folder tree's counts do."""
    return Exists(_standing_rows().filter(folder.subtree_q("folder__")))


def in_folders(folder_ids) -> Exists:
    """in_folder by the ids of the folders (a subtree already resolved, as search holds it)."""
    return Exists(_standing_rows().filter(folder_id__in=folder_ids))


class FolderChip(NamedTuple):
    """One folder of an article as a list shows it: the folder's path and the classification state (a named
    tuple, quicker to make than a frozen dataclass: a page of 50 articles makes a thousand of them)."""

    folder_id: int
    path: str
    state: str


def classifications_by_article(article_ids: list[int]) -> dict[int, list[FolderChip]]:
    """article id -> its folders with their states, in one query (plain tuples: lists show 50 rows)."""
    result: dict[int, list[FolderChip]] = {}
    if not article_ids:
        return result
    # a rejection still waiting for its rule says so, as on the article's page (in the same query)
    waiting = Correction.objects.filter(
        state=Correction.State.PENDING, case_id=OuterRef("case_id"), folder_id=OuterRef("folder_id")
    )
    rows = (
        Classification.objects.filter(case__article_id__in=article_ids)
        .annotate(waiting=Exists(waiting))
        .order_by("folder__path")
        .values_list("case__article_id", "folder_id", "folder__path", "state", "waiting")
    )
    for article_id, folder_id, path, state, pending in rows:
        shown = CORRECTION_PENDING if pending and state == Classification.State.REJECTED else state
        result.setdefault(article_id, []).append(FolderChip(folder_id, path, shown))
    return result
