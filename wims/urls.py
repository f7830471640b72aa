"""URL map: the icon, health probe, Prometheus metrics, admin, login, the experts' workspace, search, the public
feeds, the REST API, alerts."""

from django.contrib import admin
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path

from wims.accounts import LoginView
from wims.health import healthz
from wims.metrics import metrics_view


def favicon(request):
    """Browsers ask for /favicon.ico where a page names no icon (the raw feeds): the project's icon, by its static
    URL (a temporary redirect: that URL carries the file's hash in production)."""
    return redirect(static("favicon.ico"))


urlpatterns = [
    path("favicon.ico", favicon, name="favicon"),
    path("healthz", healthz, name="healthz"),
    path("metrics", metrics_view, name="metrics"),
    path("admin/", admin.site.urls),
    path("accounts/login/", LoginView.as_view(), name="login"),  # before auth.urls: lands each role on its page
    path("accounts/", include("django.contrib.auth.urls")),
    path("feeds/", include("feeds.urls")),
    path("search/", include("search.urls")),
    path("api/subscriptions/", include("alerts.api_urls")),
    path("api/", include("api.urls")),
    path("alerts/", include("alerts.urls")),
    path("dashboards/", include("dashboards.urls")),
    path("", include("classifier.urls")),
]
