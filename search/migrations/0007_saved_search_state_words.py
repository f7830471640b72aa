"""Issue 30, one vocabulary: a saved search's review state is stored as the pages say it ("suggested" was
"pending", "reviewed" was "classified")."""

from django.db import migrations

RENAMED = {"pending": "suggested", "classified": "reviewed"}


def forward(apps, schema_editor):
    saved = apps.get_model("search", "SavedSearch").objects
    for old, new in RENAMED.items():
        saved.filter(state=old).update(state=new)


def backward(apps, schema_editor):
    saved = apps.get_model("search", "SavedSearch").objects
    for old, new in RENAMED.items():
        saved.filter(state=new).update(state=old)


class Migration(migrations.Migration):
    dependencies = [("search", "0006_index_follows_content")]

    operations = [migrations.RunPython(forward, backward)]
