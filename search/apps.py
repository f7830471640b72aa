from django.apps import AppConfig


class SearchConfig(AppConfig):
    """Full-text search over the articles (title, core text, DocView keywords) and the experts' saved searches.

    One query syntax on both databases: PostgreSQL full-text search in production, SQLite FTS5 on the
    embedded default (search/backends.py).
    """

    name = "search"
    label = "search"
    verbose_name = "Search"
