"""Read-side queries of the API: what each list holds for whom, and an article's decisions for its detail.

The workspace's selectors (classifier/selectors.py) do the filtering where they already can, so that the API and
the inbox never disagree on what "suggested" or "site X" means.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet

from classifier import selectors as workspace
from classifier import services
from classifier.filtering import assignee_for, in_folder
from classifier.models import Case, Classification, Folder, Rule
from foundation.roles import is_expert
from monitor.models import Article, Site
from search.models import SavedSearch


def articles(
    reader,
    site: Site | None = None,
    folder: Folder | None = None,
    state: str | None = None,
    assigned: str | None = None,
    unread: bool | None = None,
) -> QuerySet[Article]:
    """Articles filtered like the inbox (site, review state, assignee: ``me``, ``none`` or a user id, read or
    unread by ``reader``), and by folder as the search filters them: accepted or suggested (not rejected) in the
    folder or below it. The pager (api.pagination.InboxOrder) orders and loads them."""
    qs = workspace.inbox_queryset(
        site_id=site.pk if site else None,
        state=state or None,
        assignee=assignee_for(assigned, reader),
        unread_by=reader.pk if unread else None,
        read_by=reader.pk if unread is False else None,
    )
    if folder is not None:
        qs = qs.filter(in_folder(folder))
    return qs


def article(pk: int) -> tuple[Article, Case | None]:
    """The article with its site and case; Http404 when missing."""
    return workspace.article_and_case(pk, case_required=False)


@dataclass(frozen=True)
class Suggestion:
    """A folder the knowledge base gives the case now, with the rules of its path (root side first) and the
    expert's decision on it if any."""

    folder: Folder
    rules: list[Rule]
    classification: Classification | None


def decisions(case: Case | None) -> tuple[list[Suggestion], list[Classification]]:
    """The case's suggestions (the knowledge base's conclusions with their rule paths) and every stored
    classification (suggested, accepted or rejected; some set by hand, with no rule path)."""
    if case is None:
        return [], []
    rows = list(
        Classification.objects.filter(case=case).select_related("folder", "decided_by").order_by("folder__path")
    )
    by_folder = {row.folder_id: row for row in rows}
    suggestions = [Suggestion(e.folder, e.rules, by_folder.get(e.folder.pk)) for e in services.explain(case)]
    return suggestions, rows


def folders() -> QuerySet[Folder]:
    return Folder.objects.all()


def ancestors(folder: Folder) -> list[Folder]:
    """The folders above this one, root first (one query)."""
    paths = folder.ancestor_paths()
    if not paths:
        return []
    found = {f.path: f for f in Folder.objects.filter(path__in=paths)}
    return [found[p] for p in paths if p in found]


def feed_folders(user) -> QuerySet[Folder]:
    """The folders whose feeds a user may see listed: every folder to an expert (private ones need a feed token),
    the public ones to everybody else; as the feed list page (feeds/views.py) shows them."""
    return Folder.objects.all() if is_expert(user) else Folder.objects.filter(public=True)


def saved_searches(owner) -> QuerySet[SavedSearch]:
    """A user's own saved searches: nobody sees another's."""
    return SavedSearch.objects.filter(owner=owner).select_related("site", "folder")


def sites() -> QuerySet[Site]:
    return Site.objects.prefetch_related("sources")
