"""Saved searches (an expert's query with its filters, under a name) and the full-text index of the articles.

A saved search has RSS and Atom feeds (feeds app) and can be subscribed to for alerts and digests (alerts
app); the workspace shows how many articles matched since its owner last looked (``last_seen_at``).
"""

from django.conf import settings
from django.contrib.postgres.search import SearchVectorField
from django.db import models
from django.utils import timezone


class SavedSearch(models.Model):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="saved_searches")
    name = models.CharField(max_length=200)
    query = models.CharField(max_length=500, help_text='In the search box\'s syntax: words, "a phrase", or, -word.')
    # the filters of the search page; empty means "any"
    site = models.ForeignKey("monitor.Site", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    folder = models.ForeignKey(
        "classifier.Folder", null=True, blank=True, on_delete=models.CASCADE, related_name="saved_searches"
    )
    state = models.CharField(max_length=12, blank=True, help_text="A review state, or empty for any.")
    date_from = models.DateField(null=True, blank=True)
    date_to = models.DateField(null=True, blank=True)
    public = models.BooleanField(
        default=False, help_text="Public saved searches have open feeds; private ones need a feed token."
    )
    created_at = models.DateTimeField(default=timezone.now)
    last_seen_at = models.DateTimeField(default=timezone.now, help_text="When the owner last opened its results.")

    class Meta:
        ordering = ["owner_id", "name"]
        constraints = [models.UniqueConstraint(fields=["owner", "name"], name="unique_saved_search_name_per_owner")]

    def __str__(self) -> str:
        return self.name


class SearchDocument(models.Model):
    """An article as the full-text index holds it: one row per processed original (no duplicates, no
    failed articles), written by search.services.index_article.

    PostgreSQL: ``vector`` (title weighted A, DocView keywords B, core text C; english configuration) with
    a GIN index; the text columns stay empty (snippets are read from the article). SQLite: the text columns
    feed the FTS5 table ``search_fts`` (external content, kept in step by triggers; search/backends.py),
    and ``vector`` stays empty.
    """

    article = models.OneToOneField(
        "monitor.Article", primary_key=True, on_delete=models.CASCADE, related_name="search_document"
    )
    title = models.TextField(blank=True)
    keywords = models.TextField(blank=True)
    body = models.TextField(blank=True)
    vector = SearchVectorField(null=True, blank=True)
    indexed_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"search document of article {self.article_id}"
