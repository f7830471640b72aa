"""The REST API's endpoints (thin: check the role, read the input, call a selector or service, serialise).

Accept and reject go through classifier.services, as the workspace's buttons do, so the audit log and the review
states are the same whichever way an expert decided.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from api import pagination, selectors
from api import serializers as s
from api import services as api_services
from classifier import services
from classifier.models import Folder
from foundation.api_permissions import IsExpert, IsSiteAdministrator
from monitor.models import Article, Site
from search import services as search_services
from search.models import SavedSearch


def _django_errors(exc: DjangoValidationError) -> ValidationError:
    return ValidationError({"detail": exc.messages})


def _article_page(view, request: Request, articles) -> Response:
    """One page of articles in inbox order; the pager loads each article's folders with the page (one query)."""
    pager = view.paginator
    assert isinstance(pager, pagination.InboxOrder)
    page = pager.paginate_queryset(articles, request, view=view)
    data = s.ArticleListSerializer(page, many=True, context={"folder_chips": pager.chips}).data
    return pager.get_paginated_response(data)


# --------------------------------------------------------------------------- the root
class ApiRoot(APIView):
    """GET /api/: where each part of the API is, as DRF's API root would say, with the parts mounted apart from
    this app's router (subscriptions) and the schema and its documentation. Signed in, like the feed list."""

    ENDPOINTS = {
        "articles": "api:article-list",
        "folders": "api:folder-list",
        "feeds": "api:feed-list",
        "saved-searches": "api:saved-search-list",
        "subscriptions": "alerts-api:subscription-list",
        "sites": "api:site-list",
        "schema": "api:schema",
        "docs": "api:docs",
    }

    @extend_schema(exclude=True)  # a map of the paths the schema itself lists, as DRF's own API root is left out
    def get(self, request: Request) -> Response:
        return Response({name: reverse(url_name, request=request) for name, url_name in self.ENDPOINTS.items()})


# --------------------------------------------------------------------------- articles
#: when ``?state=`` became ``?review_state=`` (RFC 9745's Deprecation header: a date, seconds since the epoch)
STATE_FILTER_DEPRECATED_AT = 1795824000  # 2026-11-28, issue 30's trial
STATE_FILTER_WARNING = '299 - "Deprecated API: the filter state is now review_state (state in each result is the \
processing state)"'


def _deprecated_state_filter(request: Request, response: Response) -> Response:
    """Tell a client that filtered by ``?state=`` that the filter is ``review_state`` now (RFC 9745 ``Deprecation``
    with a ``Link`` to the documentation; RFC 7234 ``Warning`` for the human reading a log)."""
    if "state" in request.query_params:
        response["Deprecation"] = f"@{STATE_FILTER_DEPRECATED_AT}"
        response["Warning"] = STATE_FILTER_WARNING
        response["Link"] = f'<{reverse("api:docs", request=request)}>; rel="deprecation"; type="text/html"'
    return response


@extend_schema_view(
    list=extend_schema(
        summary="Articles, newest first",
        parameters=[
            s.ArticleFilterSerializer,
            OpenApiParameter("state", str, enum=s.FILTER_STATES, deprecated=True, description=s.STATE_FILTER_HELP),
        ],
    ),
    retrieve=extend_schema(summary="An article with its core text, suggestions and classifications"),
)
class ArticleViewSet(viewsets.ReadOnlyModelViewSet):
    permission_classes = [IsExpert]
    pagination_class = pagination.InboxOrder
    serializer_class = s.ArticleListSerializer
    queryset = Article.objects.none()  # the selectors build the real one; this names the model for the schema

    def get_queryset(self):
        filters = s.ArticleFilterSerializer(data=self.request.query_params)
        filters.is_valid(raise_exception=True)
        return selectors.articles(self.request.user, **filters.validated_data)

    def list(self, request: Request, *args, **kwargs) -> Response:
        return _deprecated_state_filter(request, _article_page(self, request, self.get_queryset()))

    def _detail(self, pk: int) -> Response:
        article, case = selectors.article(pk)
        suggestions, classifications = selectors.decisions(case)
        context = {"suggestions": suggestions, "classifications": classifications, "request": self.request}
        return Response(s.ArticleDetailSerializer(article, context=context).data)

    @extend_schema(responses=s.ArticleDetailSerializer)
    def retrieve(self, request: Request, pk=None, *args, **kwargs) -> Response:
        return self._detail(int(pk))

    @extend_schema(
        summary="Accept suggestions",
        request=s.AcceptSerializer,
        responses=s.ArticleDetailSerializer,
        description="Accept every suggestion of the article still `suggested`, or those of the folders given (a "
        "rejected folder given explicitly is accepted again). Audited, like the workspace's Accept.",
    )
    @action(detail=True, methods=["post"])
    def accept(self, request: Request, pk=None) -> Response:
        return self._decide(
            request,
            int(pk),
            s.AcceptSerializer,
            lambda case, data: services.accept(case, request.user, data.get("folders")),
        )

    @extend_schema(
        summary="Reject a suggestion",
        request=s.RejectSerializer,
        responses=s.ArticleDetailSerializer,
        description="Reject one folder of the article (inference will not suggest it again). Audited. To correct "
        "the rule that suggested it, make a rule in the workspace.",
    )
    @action(detail=True, methods=["post"])
    def reject(self, request: Request, pk=None) -> Response:
        return self._decide(
            request, int(pk), s.RejectSerializer, lambda case, data: services.reject(case, data["folder"], request.user)
        )

    def _decide(self, request: Request, pk: int, body_serializer, decide) -> Response:
        """Validate the body, then ``decide(case, data)`` through the workspace's service; the article after it."""
        body = body_serializer(data=request.data)
        body.is_valid(raise_exception=True)
        _, case = selectors.article(pk)
        if case is None:
            raise ValidationError({"detail": "This article has no case yet (it is not processed)."})
        try:
            decide(case, body.validated_data)
        except DjangoValidationError as exc:
            raise _django_errors(exc) from exc
        return self._detail(pk)


# --------------------------------------------------------------------------- folders and feeds
@extend_schema_view(
    list=extend_schema(summary="Folders, in path order"),
    retrieve=extend_schema(summary="A folder with its place in the tree"),
)
class FolderViewSet(viewsets.ReadOnlyModelViewSet):
    permission_classes = [IsExpert]
    pagination_class = pagination.ByPath
    queryset = Folder.objects.all()

    def get_queryset(self):
        return selectors.folders()

    def get_serializer_class(self):
        return s.FolderDetailSerializer if self.action == "retrieve" else s.FolderSerializer


@extend_schema_view(
    list=extend_schema(
        summary="Folder feeds",
        description="The RSS and Atom feeds of the folders the caller may see: public folders for everybody "
        "signed in, private ones too for experts (their URLs answer only with a feed token, created at "
        "/feeds/tokens/). Everything classified is at /feeds/all/rss/ and /feeds/all/atom/.",
    )
)
class FeedViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    serializer_class = s.FeedSerializer
    pagination_class = pagination.ByPath
    queryset = Folder.objects.none()

    def get_queryset(self):
        return selectors.feed_folders(self.request.user)


# --------------------------------------------------------------------------- saved searches
@extend_schema_view(
    list=extend_schema(summary="Your saved searches"),
    create=extend_schema(summary="Save a search"),
    retrieve=extend_schema(summary="One of your saved searches"),
    update=extend_schema(summary="Change a saved search"),
    partial_update=extend_schema(summary="Change part of a saved search"),
    destroy=extend_schema(summary="Delete a saved search"),
)
class SavedSearchViewSet(viewsets.ModelViewSet):
    """An expert's own saved searches; another's answer 404 (they are not listed and do not exist for you)."""

    permission_classes = [IsExpert]
    serializer_class = s.SavedSearchSerializer
    pagination_class = pagination.ByName
    queryset = SavedSearch.objects.none()

    def get_queryset(self):
        return selectors.saved_searches(self.request.user)

    @extend_schema(
        summary="The articles a saved search matches now",
        description="Newest first, paged like the article list; the search backend's matches for the saved "
        "query and filters (search.services.saved_search_articles).",
        responses=s.ArticleListSerializer(many=True),
    )
    @action(detail=True, methods=["get"], pagination_class=pagination.InboxOrder)
    def articles(self, request: Request, pk=None) -> Response:
        saved = self.get_object()
        try:
            matches = search_services.saved_search_articles(saved)
        except search_services.QuerySyntaxError as exc:
            raise ValidationError({"query": [str(exc)]}) from exc
        return _article_page(self, request, matches)


# --------------------------------------------------------------------------- sites
@extend_schema_view(
    list=extend_schema(summary="Sites, by name"),
    create=extend_schema(summary="Register a site"),
    retrieve=extend_schema(summary="A site with its health"),
    update=extend_schema(summary="Change a site"),
    partial_update=extend_schema(summary="Change part of a site"),
)
class SiteViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    """Sites for site administrators, validated as the admin's form validates them. Sites are deactivated, not
    deleted (deleting one would delete its articles and their classifications)."""

    permission_classes = [IsSiteAdministrator]
    serializer_class = s.SiteSerializer
    pagination_class = pagination.ByName
    queryset = Site.objects.all()

    def get_queryset(self):
        return selectors.sites()

    def perform_create(self, serializer) -> None:
        serializer.instance = api_services.save_site(Site(**serializer.validated_data), set(serializer.validated_data))

    def perform_update(self, serializer) -> None:
        site = serializer.instance
        changed = {name for name, value in serializer.validated_data.items() if getattr(site, name) != value}
        for name, value in serializer.validated_data.items():
            setattr(site, name, value)
        api_services.save_site(site, changed)

    @extend_schema(
        summary="Find the site's sources again (feeds, sitemaps, section pages), at its next poll, due now",
        request=None,
        responses=s.SiteSerializer,
    )
    @action(detail=True, methods=["post"], url_path="find-sources")
    def find_sources(self, request: Request, pk=None) -> Response:
        site = api_services.find_sources_again(get_object_or_404(self.get_queryset(), pk=pk))
        return Response(s.SiteSerializer(site, context=self.get_serializer_context()).data)

    @extend_schema(summary="Deactivate a site", request=None, responses=s.SiteSerializer)
    @action(detail=True, methods=["post"])
    def deactivate(self, request: Request, pk=None) -> Response:
        site = get_object_or_404(self.get_queryset(), pk=pk)
        site.active = False
        site.save(update_fields=["active"])
        return Response(s.SiteSerializer(site, context=self.get_serializer_context()).data)
