"""RSS 2.0 and Atom feeds of a saved search: the newest articles its query and filters match.

Served like the folder feeds (feeds/syndication.py): a cheap feed version from ids and dates first (the
ETag; 304 when it matches), then the rendered feed from the cache under that version, rendered only on a
miss. The articles come from ``search.services.saved_search_articles`` (the same query as the search page),
newest collected first. A feed is open when the saved search is public and not narrowed to a private
folder; otherwise it needs an active FeedToken issued for that saved search, and anything else is a 404
indistinguishable from a missing saved search. An open feed publishes only the matches accepted in a public
folder (feeds.syndication.publicly_accepted), whatever the search's folder; a token's feed publishes every
match, as its owner sees them. Categories name public folders only.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import urlencode

from django.http import Http404
from django.urls import reverse
from django.views.decorators.http import require_safe

from classifier.models import Classification
from feeds.models import FeedToken
from feeds.syndication import (
    FORMATS,
    RENDER_VERSION,
    FeedData,
    FeedItem,
    FeedState,
    FolderAtomFeed,
    FolderRssFeed,
    feed_items,
    publicly_accepted,
    serve,
    tag_authority,
    xml_text,
)
from monitor.models import Article
from search.models import SavedSearch
from search.services import QuerySyntaxError, feed_is_open, saved_search_articles


def saved_search_feed_url(saved: SavedSearch, fmt: str = "rss", token: str | None = None) -> str:
    url = reverse("feeds:saved-search", kwargs={"saved_id": saved.pk, "fmt": fmt})
    return f"{url}?{urlencode({'token': token})}" if token else url


@dataclass
class SavedSearchScope:
    """What a saved search's feed shows; the interface of feeds.syndication.FeedScope that serve() uses."""

    fmt: str
    saved: SavedSearch
    token: str | None = None  # the token presented (private feed), kept in the feed's own URL
    folder = None  # not a folder feed

    def __post_init__(self):
        if self.fmt not in FORMATS:
            raise Http404("unknown feed format")

    @property
    def grant(self) -> SavedSearch | None:
        """Set for a feed opened by a token: serve() then keeps it out of shared caches."""
        return self.saved if self.token else None

    def state(self, limit: int | None = None) -> FeedState:
        limit = limit or feed_items()
        saved = self.saved
        try:
            matching = saved_search_articles(saved)
        except QuerySyntaxError:
            raise Http404("no such feed") from None
        if not self.token:  # anonymous readers: folder privacy applies to every article, not just the search's folder
            matching = publicly_accepted(matching)
        newest = list(matching.order_by("-collected_at", "-id").values_list("id", "collected_at")[:limit])
        rows = [(pk, pk, when) for pk, when in newest]
        categories: dict[int, list[str]] = {pk: [] for pk, _ in newest}
        for article_id, path in (
            Classification.objects.filter(
                case__article_id__in=list(categories), state=Classification.State.ACCEPTED, folder__public=True
            )
            .order_by("folder__path")
            .values_list("case__article_id", "folder__path")
        ):
            categories[article_id].append(path)
        signature = repr(
            (
                RENDER_VERSION,
                "saved-search",
                self.fmt,
                saved.pk,
                saved.name,
                saved.query,
                saved.site_id,
                saved.folder_id,
                saved.state,
                str(saved.date_from),
                str(saved.date_to),
                bool(self.token),
                limit,
                [(r[0], r[2].isoformat()) for r in rows],
                sorted(categories.items()),
            )
        )
        etag = hashlib.blake2b(signature.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()
        last: datetime | None = max((r[2] for r in rows), default=None)
        return FeedState(rows=rows, categories=categories, etag=etag, last_modified=last)

    def title(self) -> str:
        return f"WIMS search: {xml_text(self.saved.name)}"

    def description(self) -> str:
        return f"The newest articles matching the saved search {xml_text(self.saved.query)}."

    def url(self) -> str:
        return saved_search_feed_url(self.saved, self.fmt, self.token)


class SavedSearchRssFeed(FolderRssFeed):
    def feed_guid(self, obj: FeedData) -> str:
        return f"tag:{tag_authority()}:wims:saved-search:{obj.scope.saved.pk}"  # type: ignore[attr-defined]

    def link(self, obj: FeedData) -> str:
        return reverse("search:saved")


class SavedSearchAtomFeed(SavedSearchRssFeed):
    feed_type = FolderAtomFeed.feed_type  # type: ignore[assignment]  # django-stubs pins the RSS class
    subtitle = FolderRssFeed.description
    title_escape = FolderAtomFeed.title_escape


FEED_CLASSES = {"rss": SavedSearchRssFeed(), "atom": SavedSearchAtomFeed()}


def render_saved_search_feed(scope: SavedSearchScope, state: FeedState, request) -> tuple[bytes, str]:
    """Load the state's articles (one query) and render them."""
    articles = (
        Article.objects.select_related("content")
        .only("id", "url", "title", "content__abstract", "content__core_text", "published_at", "collected_at")
        .in_bulk([r[0] for r in state.rows])
    )
    items = [FeedItem(articles[pk], state.categories.get(pk, []), when) for pk, _, when in state.rows if pk in articles]
    generator = FEED_CLASSES[scope.fmt].get_feed(FeedData(scope, items), request)  # type: ignore[arg-type]
    content_type: str = generator.content_type  # type: ignore[attr-defined]  # set by every generator class
    return generator.writeString("utf-8").encode("utf-8"), content_type


@require_safe
def saved_search_feed(request, saved_id: int, fmt: str):
    """/feeds/saved/<id>/<rss|atom>/[?token=...]: open for a public saved search, else with its token."""
    saved = SavedSearch.objects.select_related("folder").filter(pk=saved_id).first()
    if saved is None:
        raise Http404("no such feed")
    token = request.GET.get("token") or None
    row = FeedToken.lookup(token) if token else None
    if row is not None and row.saved_search_id == saved.pk:  # its token opens every match, open feed or not
        return serve(request, SavedSearchScope(fmt, saved, token), render=render_saved_search_feed)
    if feed_is_open(saved):
        return serve(request, SavedSearchScope(fmt, saved), render=render_saved_search_feed)
    raise Http404("no such feed")
