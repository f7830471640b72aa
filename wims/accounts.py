"""The login view: where each role lands after signing in.

The default landing page, the inbox ("/"), is the experts' workspace: every other user would land on a 403 there.
A site administrator lands on the admin (the sites they manage), a user with no role on the public feeds.
"""

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.shortcuts import resolve_url
from django.urls import reverse

from foundation.roles import is_expert


def landing_url(user) -> str:
    """The first page this signed-in user can work on."""
    if is_expert(user):
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
