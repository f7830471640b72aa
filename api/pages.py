"""The workspace page where a user creates and revokes their API tokens (HTML, session and CSRF like every page).

A token is shown once, on the page that created it: only its digest is stored.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from api import services
from api.models import ApiToken


def _page(request, created: str | None = None, error: str | None = None, status: int = 200) -> HttpResponse:
    return render(
        request,
        "api/tokens.html",
        {
            "tokens": ApiToken.objects.filter(user=request.user),
            "created": created,
            "error": error,
            "example_url": request.build_absolute_uri("/api/articles/"),
        },
        status=status,
    )


@never_cache  # the page that shows a new token must not stay in any cache
@login_required
@require_http_methods(["GET", "POST"])
def tokens(request):
    """GET: the user's tokens and a form; POST (name): a new token, shown this once."""
    if request.method == "GET":
        return _page(request)
    try:
        _, token = services.issue_token(request.user, request.POST.get("name", ""))
    except ValueError as exc:
        return _page(request, error=str(exc).capitalize() + ".", status=400)
    return _page(request, created=token, status=201)


@login_required
@require_POST
def revoke(request, token_id: int):
    """Revoke one of the user's own tokens (another user's token is 404, whoever asks)."""
    if not services.revoke_token(request.user, token_id):
        return _page(request, error="There is no such token of yours.", status=404)
    return redirect("api:tokens")
