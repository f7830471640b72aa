"""The login view: where each role lands after signing in.

The default landing page, the inbox ("/"), is the experts' workspace: every other user would land on a 403 there.
A site administrator lands on the admin (the sites they manage), a user with no role on the public feeds.
"""

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.shortcuts import resolve_url
from django.urls import reverse
from django.utils.functional import SimpleLazyObject

from foundation.roles import request_user_is_expert


def landing_url(user) -> str:
    """The first page this signed-in user can work on (``user``: a request's: the role is read once per request)."""
    if request_user_is_expert(user):
        return resolve_url(settings.LOGIN_REDIRECT_URL)
    if user.is_staff:
        return reverse("admin:index")
    return reverse("feeds:list")


class LoginView(auth_views.LoginView):
    def get_success_url(self) -> str:
        url = super().get_success_url()
        # "next" names the inbox when the visitor was sent here from "/": the same as no "next" at all
        if url == resolve_url(settings.LOGIN_REDIRECT_URL):
            return landing_url(self.request.user)
        return url


def landing(request) -> dict:
    """Context processor: the header's WIMS link goes to the signed-in user's landing page (it went to the inbox,
    a 403 for all but experts). Lazy: asked only by pages that show the link."""
    if not request.user.is_authenticated:
        return {"landing_url": "/"}
    return {"landing_url": SimpleLazyObject(lambda: landing_url(request.user))}
