"""Feed tokens: the per-subscriber secret that opens a private folder's feed.

Until the feeds app existed the model lived in the classifier app; feeds/migrations/0001 took over its table
(rows kept) when it moved here.
Only a SHA-256 digest of the token is stored: a leaked database does not leak working feed URLs.
The expert sees the full token once, when it is created (it is part of the URL handed to the subscriber).
"""

import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone

TOKEN_BYTES = 24  # 32 URL-safe characters


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class FeedTokenQuerySet(models.QuerySet):
    def active(self):
        return self.filter(revoked_at__isnull=True)


class FeedToken(models.Model):
    """One subscriber's access to a private folder's feeds (the folder and its subfolders), or to the feeds of
    one saved search (search.SavedSearch) that are not open: exactly one of the two.

    Revoking keeps the row (who had access, until when) but the token stops opening the feed at once.
    """

    folder = models.ForeignKey(
        "classifier.Folder", null=True, blank=True, on_delete=models.CASCADE, related_name="feed_tokens"
    )
    saved_search = models.ForeignKey(
        "search.SavedSearch", null=True, blank=True, on_delete=models.CASCADE, related_name="feed_tokens"
    )
    subscriber = models.CharField(max_length=200, help_text="Who the token was given to.")
    digest = models.CharField(max_length=64, unique=True, editable=False)
    prefix = models.CharField(max_length=8, editable=False, help_text="First characters, to tell tokens apart.")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    objects = FeedTokenQuerySet.as_manager()

    class Meta:
        ordering = ["folder_id", "-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(folder__isnull=False, saved_search__isnull=True)
                | models.Q(folder__isnull=True, saved_search__isnull=False),
                name="feed_token_folder_or_saved_search",
            )
        ]

    def __str__(self) -> str:
        state = "revoked" if self.revoked_at else "active"
        return f"feed token {self.prefix}… for {self.subscriber} ({state})"

    @property
    def active(self) -> bool:
        return self.revoked_at is None

    @classmethod
    def issue(cls, folder, subscriber: str, user=None, *, saved_search=None) -> tuple["FeedToken", str]:
        """Create a token for ``subscriber`` to a folder or (folder None) a saved search; returns the row and
        the plain token (shown only now)."""
        subscriber = (subscriber or "").strip()
        if not subscriber:
            raise ValueError("name the subscriber the token is for")
        if (folder is None) == (saved_search is None):
            raise ValueError("a token opens a folder's feeds or a saved search's, one of the two")
        token = secrets.token_urlsafe(TOKEN_BYTES)
        row = cls.objects.create(
            folder=folder,
            saved_search=saved_search,
            subscriber=subscriber[:200],
            digest=token_digest(token),
            prefix=token[:8],
            created_by=user if getattr(user, "is_authenticated", False) else None,
        )
        return row, token

    def revoke(self, user=None) -> None:
        if self.revoked_at is None:
            self.revoked_at = timezone.now()
            self.revoked_by = user if getattr(user, "is_authenticated", False) else None
            self.save(update_fields=["revoked_at", "revoked_by"])

    @classmethod
    def lookup(cls, token: str | None):
        """The active token row for a plain token, or None (unknown, malformed or revoked)."""
        if not token or len(token) > 200:
            return None
        return cls.objects.active().filter(digest=token_digest(token)).select_related("folder", "saved_search").first()
