"""URL map: health probe, Prometheus metrics, admin, login, the experts' workspace, search, the public feeds, the REST
API, alerts."""

from django.contrib import admin
from django.urls import include, path

from wims.health import healthz
from wims.metrics import metrics_view

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("metrics", metrics_view, name="metrics"),
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("feeds/", include("feeds.urls")),
    path("search/", include("search.urls")),
    path("api/subscriptions/", include("alerts.api_urls")),
    path("api/", include("api.urls")),
    path("alerts/", include("alerts.urls")),
    path("dashboards/", include("dashboards.urls")),
    path("", include("classifier.urls")),
]
