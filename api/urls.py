"""The API's URLs, mounted at /api/ by wims/urls.py: the root listing them, the endpoints, the schema, its
documentation, the tokens page."""

from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.routers import SimpleRouter

from api import pages, views


class Router(SimpleRouter):
    """Object ids are numbers: anything else in their place is 404, never a lookup that fails inside a view."""

    def get_lookup_regex(self, viewset, lookup_prefix=""):
        return rf"(?P<{lookup_prefix}pk>[0-9]+)"


router = Router()
router.register("articles", views.ArticleViewSet, basename="article")
router.register("folders", views.FolderViewSet, basename="folder")
router.register("feeds", views.FeedViewSet, basename="feed")
router.register("saved-searches", views.SavedSearchViewSet, basename="saved-search")
router.register("sites", views.SiteViewSet, basename="site")

app_name = "api"
urlpatterns = [
    path("", views.ApiRoot.as_view(), name="root"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # the split view serves Swagger UI's start-up script as a file of its own: the CSP allows no inline script
    # and its page styles come from a file too (api/docs.html)
    path(
        "docs/",
        SpectacularSwaggerSplitView.as_view(url_name="api:schema", template_name="api/docs.html"),
        name="docs",
    ),
    path("tokens/", pages.tokens, name="tokens"),
    path("tokens/<int:token_id>/revoke/", pages.revoke, name="token-revoke"),
    *router.urls,
]
