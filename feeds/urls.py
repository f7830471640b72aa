"""Feed URLs, mounted at /feeds/ by wims/urls.py.

A folder's feed URL carries its id (what identifies it) and a slug of its path (for people); after a
rename the old slug answers 301 to the new one, so subscriptions keep working.
"""

from django.urls import path, register_converter

from feeds import saved_searches, syndication, views


class FeedFormatConverter:
    regex = "rss|atom"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(FeedFormatConverter, "feedformat")

app_name = "feeds"
urlpatterns = [
    path("", views.feed_list, name="list"),
    path("opml/", views.opml, name="opml"),
    path("tokens/", views.tokens, name="tokens"),
    path("tokens/<int:token_id>/revoke/", views.revoke_token, name="token-revoke"),
    path("all/<feedformat:fmt>/", syndication.all_feed, name="all"),
    path("saved/<int:saved_id>/<feedformat:fmt>/", saved_searches.saved_search_feed, name="saved-search"),
    path("<int:folder_id>-<str:slug>/<feedformat:fmt>/", syndication.folder_feed, name="folder"),
    path("<int:folder_id>/<feedformat:fmt>/", syndication.folder_feed_by_id, name="folder-by-id"),
]
