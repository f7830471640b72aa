"""The search index follows processing's output: triggers on the content table index (or drop) an article's
document whenever its content row is written (search/backends.py says why). Processing no longer indexes."""

from django.db import migrations

from search import backends


def create(apps, schema_editor):
    backends.create_content_triggers(schema_editor)


def drop(apps, schema_editor):
    backends.drop_content_triggers(schema_editor)


class Migration(migrations.Migration):
    dependencies = [("search", "0005_index_after_content_move"), ("processing", "0003_page_kind")]

    operations = [migrations.RunPython(create, drop)]
