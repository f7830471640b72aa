"""PostgreSQL: the documents hold the article's site and the folders it is accepted or suggested in, indexed,
and triggers on the classifications keep the folders in step (search/backends.py says why). Nothing on SQLite,
where the filters join the articles and classifications."""

from django.db import migrations

from search import backends


def add_filter_columns(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for statement in backends.POSTGRES_FILTER_COLUMNS:
            schema_editor.execute(statement)


def index_stored_articles(apps, schema_editor):
    """Articles processed before search existed: indexed here (manage.py search_reindex does it again). A
    database that indexed them in 0002 before has documents already, filled in by the statements above."""
    if apps.get_model("search", "SearchDocument").objects.exists():
        return
    if backends.CONTENTS not in schema_editor.connection.introspection.table_names():
        return  # today's indexing statement reads processing's content table: 0005 indexes them once it exists
    Article = apps.get_model("monitor", "Article")
    last = Article.objects.order_by("-id").values_list("id", flat=True).first() or 0
    for first in range(1, last + 1, 2000):
        backends.index_range(first, first + 1999)


def drop_filter_columns(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for statement in backends.POSTGRES_DROP_FILTER_COLUMNS:
            schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [("search", "0003_inline_vectors"), ("classifier", "0010_knowledge_base_features")]

    operations = [
        migrations.RunPython(add_filter_columns, drop_filter_columns),
        migrations.RunPython(index_stored_articles, migrations.RunPython.noop),
    ]
