"""Issue 30, one vocabulary: the review states are stored as the words every page, the API and the dashboards
say: "suggested" (was "pending") and "reviewed" (was "classified"); the filters still accept the old names."""

from django.db import migrations, models


RENAMED = {"pending": "suggested", "classified": "reviewed"}


def forward(apps, schema_editor):
    articles = apps.get_model("monitor", "Article").objects
    for old, new in RENAMED.items():
        articles.filter(review_state=old).update(review_state=new)


def backward(apps, schema_editor):
    articles = apps.get_model("monitor", "Article").objects
    for old, new in RENAMED.items():
        articles.filter(review_state=new).update(review_state=old)


class Migration(migrations.Migration):
    dependencies = [
        ("monitor", "0012_site_sources"),
    ]

    operations = [
        migrations.AlterField(
            model_name="article",
            name="review_state",
            field=models.CharField(
                default="unreviewed",
                editable=False,
                help_text="unreviewed (no folder), suggested (a suggestion nobody decided on), correction (a rejected "
                "folder waits for its rule) or reviewed.",
                max_length=10,
            ),
        ),
        migrations.RunPython(forward, backward, elidable=False),
    ]
