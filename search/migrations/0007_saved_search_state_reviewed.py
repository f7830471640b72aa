"""Issue 30, one vocabulary: a saved search filtered on the review state "classified" now says "reviewed"."""

from django.db import migrations


def forward(apps, schema_editor):
    apps.get_model("search", "SavedSearch").objects.filter(state="classified").update(state="reviewed")


def backward(apps, schema_editor):
    apps.get_model("search", "SavedSearch").objects.filter(state="reviewed").update(state="classified")


class Migration(migrations.Migration):
    dependencies = [("search", "0006_index_follows_content")]

    operations = [migrations.RunPython(forward, backward)]
