"""Folders under a private folder become private: privacy is inherited (a public feed below a private folder
named it in feed lists and OPML)."""

from django.db import migrations


def make_subtrees_private(apps, schema_editor):
    Folder = apps.get_model("classifier", "Folder")
    for path in Folder.objects.filter(public=False).values_list("path", flat=True):
        Folder.objects.filter(path__startswith=path + "/", public=True).update(public=False)


class Migration(migrations.Migration):
    dependencies = [("classifier", "0006_feedtoken_moved_to_feeds")]

    operations = [migrations.RunPython(make_subtrees_private, migrations.RunPython.noop)]
