"""Issue 30, one vocabulary: the review state an expert has decided on is stored as "reviewed", the word every
page, the API and the dashboards say ("classified" before; the filters still accept it)."""

from django.db import migrations, models


def forward(apps, schema_editor):
    apps.get_model("monitor", "Article").objects.filter(review_state="classified").update(review_state="reviewed")


def backward(apps, schema_editor):
    apps.get_model("monitor", "Article").objects.filter(review_state="reviewed").update(review_state="classified")


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
                help_text="unreviewed (no folder), pending (a suggestion nobody decided on), correction (a rejected "
                "folder waits for its rule) or reviewed.",
                max_length=10,
            ),
        ),
        migrations.RunPython(forward, backward, elidable=False),
    ]
