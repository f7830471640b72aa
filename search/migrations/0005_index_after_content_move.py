"""Articles processed before search existed, on a database that reached 0004 before processing's content table
existed (processing 0002): indexed here, as 0004 does (nothing to do where documents exist)."""

from importlib import import_module

from django.db import migrations

earlier = import_module("search.migrations.0004_document_filters")


class Migration(migrations.Migration):
    dependencies = [("search", "0004_document_filters"), ("processing", "0002_article_content")]

    operations = [migrations.RunPython(earlier.index_stored_articles, migrations.RunPython.noop)]
