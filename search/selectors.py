"""Read-side queries of the search pages: an expert's saved searches with their new-match counts."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from django.urls import reverse

from search import services
from search.models import SavedSearch


@dataclass
class SavedSearchRow:
    saved: SavedSearch
    new: int  # matches processed since the owner last looked (up to COUNT_CAP)
    new_capped: bool
    open_feed: bool  # its feeds answer without a token
    rss: str
    atom: str


def saved_search_query(saved: SavedSearch) -> str:
    """The /search/ query string of a saved search (its query and filters)."""
    pairs = [("q", saved.query)]
    for name in ("site_id", "folder_id", "state", "date_from", "date_to"):
        value = getattr(saved, name)
        if value:
            pairs.append((name.removesuffix("_id"), str(value)))
    return urlencode(pairs)


def saved_searches_of(owner) -> list[SavedSearchRow]:
    """The owner's saved searches by name, each with its new-match count (one count query each)."""
    rows = []
    for saved in SavedSearch.objects.filter(owner=owner).select_related("site", "folder").order_by("name"):
        new = services.new_matches(saved)
        rows.append(
            SavedSearchRow(
                saved=saved,
                new=min(new, services.COUNT_CAP),
                new_capped=new > services.COUNT_CAP,
                open_feed=services.feed_is_open(saved),
                rss=reverse("feeds:saved-search", kwargs={"saved_id": saved.pk, "fmt": "rss"}),
                atom=reverse("feeds:saved-search", kwargs={"saved_id": saved.pk, "fmt": "atom"}),
            )
        )
    return rows
