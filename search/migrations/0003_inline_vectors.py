"""PostgreSQL: keep the search vectors in the table's pages (search/backends.py says why), and rewrite the
documents indexed before so that they move there. Nothing to do on SQLite."""

from django.db import migrations

from search import backends


def inline_vectors(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for statement in backends.POSTGRES_INLINE_VECTORS:
        schema_editor.execute(statement)
    # a storage change applies to rows written from now on: write the existing ones again
    schema_editor.execute(f"UPDATE {backends.DOCS} SET vector = vector || ''::tsvector")


def toasted_vectors(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for statement in backends.POSTGRES_TOASTED_VECTORS:
            schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [("search", "0002_search_document")]

    operations = [migrations.RunPython(inline_vectors, toasted_vectors)]
