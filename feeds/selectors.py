"""Read-side queries of the feed pages (the list of feeds, OPML, the experts' tokens page)."""

from __future__ import annotations

from classifier.models import Folder
from feeds.models import FeedToken
from search.models import SavedSearch
from search.services import feed_is_open


def listed_folders(expert: bool):
    """The folders the feed list shows, by path: every folder to an expert (private ones without URLs),
    the public ones to everybody else."""
    folders = Folder.objects.all() if expert else Folder.objects.filter(public=True)
    return folders.order_by("path")


def public_folders():
    return Folder.objects.filter(public=True).order_by("path")


def open_saved_searches() -> list[SavedSearch]:
    """The saved searches whose feeds answer without a token (search.services.feed_is_open), by name."""
    candidates = SavedSearch.objects.filter(public=True).select_related("folder", "owner").order_by("name", "id")
    return [saved for saved in candidates if feed_is_open(saved)]


def folder_by_id(raw: str) -> Folder | None:
    """The folder a form names by id, or None for a missing or malformed id (never an error)."""
    return Folder.objects.filter(pk=int(raw)).first() if raw.isascii() and raw.isdigit() else None


def tokens_page(user) -> dict:
    """Every token with its folder or saved search and who created or revoked it, the folders to issue one
    for, and the user's own saved searches (a token for a saved search is issued by its owner only)."""
    return {
        "tokens": FeedToken.objects.select_related(
            "folder", "saved_search", "saved_search__owner", "created_by", "revoked_by"
        ).order_by("folder__path", "saved_search__name", "-created_at", "-id"),
        "private_folders": Folder.objects.filter(public=False).order_by("path"),
        "folders": Folder.objects.order_by("path"),
        "saved_searches": SavedSearch.objects.filter(owner=user).order_by("name"),
    }


def own_saved_search(user, raw: str) -> SavedSearch | None:
    """The user's saved search a form names by id, or None (missing, malformed, or someone else's)."""
    if not (raw.isascii() and raw.isdigit()):
        return None
    return SavedSearch.objects.filter(pk=int(raw), owner=user).first()
