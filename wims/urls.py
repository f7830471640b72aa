"""URL map: health probe, admin, login, the experts' workspace, the public feeds."""

from django.contrib import admin
from django.urls import include, path

from wims.health import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("feeds/", include("feeds.urls")),
    path("", include("classifier.urls")),
]
