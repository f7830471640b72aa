"""Read-side queries of the feed pages (the list of feeds, OPML, the experts' tokens page)."""

from __future__ import annotations

from classifier.models import Folder
from feeds.models import FeedToken


def listed_folders(expert: bool):
    """The folders the feed list shows, by path: every folder to an expert (private ones without URLs),
    the public ones to everybody else."""
    folders = Folder.objects.all() if expert else Folder.objects.filter(public=True)
    return folders.order_by("path")


def public_folders():
    return Folder.objects.filter(public=True).order_by("path")


def folder_by_id(raw: str) -> Folder | None:
    """The folder a form names by id, or None for a missing or malformed id (never an error)."""
    return Folder.objects.filter(pk=int(raw)).first() if raw.isascii() and raw.isdigit() else None


def tokens_page() -> dict:
    """Every token with its folder and who created or revoked it, and the folders to issue one for."""
    return {
        "tokens": FeedToken.objects.select_related("folder", "created_by", "revoked_by").order_by(
            "folder__path", "-created_at", "-id"
        ),
        "private_folders": Folder.objects.filter(public=False).order_by("path"),
        "folders": Folder.objects.order_by("path"),
    }
