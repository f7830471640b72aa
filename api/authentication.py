"""Token authentication: knox's (a digest looked up by the token's first characters), noting when each token was
last used, so that its owner can tell a forgotten token from one a script still needs before revoking it."""

from datetime import timedelta

from django.utils import timezone
from knox.auth import TokenAuthentication as KnoxTokenAuthentication

#: write last_used_at at most this often per token (one UPDATE per request would cost every API call a write)
LAST_USED_RESOLUTION = timedelta(minutes=1)


class TokenAuthentication(KnoxTokenAuthentication):
    """``Authorization: Token <token>``; an unknown or revoked token is 401."""

    def validate_user(self, auth_token):
        user, token = super().validate_user(auth_token)
        now = timezone.now()
        if token.last_used_at is None or now - token.last_used_at >= LAST_USED_RESOLUTION:
            type(token).objects.filter(pk=token.pk).update(last_used_at=now)
        return user, token
