"""API tokens: knox's digest-only token with a name, so that a user keeps several (one per script or machine)
and revokes each on its own.

knox stores a SHA-512 digest and the first characters of the token (to find its row); the token itself is shown
once, when it is created (api/views.py, the tokens page). Revoking deletes the row: the token stops at once.
"""

from django.db import models
from knox.models import AbstractAuthToken
from knox.settings import CONSTANTS


class ApiToken(AbstractAuthToken):
    # an id of its own rather than knox's digest as primary key: pages and URLs name a token by id, never by digest
    id = models.BigAutoField(primary_key=True)
    digest = models.CharField(max_length=CONSTANTS.DIGEST_LENGTH, unique=True)
    name = models.CharField(max_length=100, help_text="What the token is for, e.g. 'outbreak desk script'.")
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name = "API token"
        constraints = [models.UniqueConstraint(fields=["user", "name"], name="unique_api_token_name_per_user")]

    def __str__(self) -> str:
        return f"API token {self.token_key[:8]}… ({self.name})"
