"""A delivery claimed, sent or failed outlives its article: the article becomes nullable (alerts.models.keep_sent
sets it to NULL when the article is deleted, with its site) and the delivery keeps the article's title and address.
Those already claimed, sent or failed get them here from their article."""

from django.db import migrations, models
from django.db.models import OuterRef, Subquery
from django.db.models.functions import Coalesce

import alerts.models


def keep_titles(apps, schema_editor):
    Delivery = apps.get_model("alerts", "Delivery")
    Article = apps.get_model("monitor", "Article")
    article = Article.objects.filter(pk=OuterRef("article_id"))
    Delivery.objects.exclude(state="pending").filter(article__isnull=False).update(
        article_title=Coalesce(Subquery(article.values("title")[:1]), models.Value("")),
        article_url=Coalesce(Subquery(article.values("url")[:1]), models.Value("")),
    )


class Migration(migrations.Migration):
    dependencies = [
        ("alerts", "0002_scan_schedule"),
        ("monitor", "0014_fewer_article_indexes"),
    ]

    operations = [
        migrations.AddField(
            model_name="delivery",
            name="article_title",
            field=models.CharField(blank=True, max_length=500),
        ),
        migrations.AddField(
            model_name="delivery",
            name="article_url",
            field=models.URLField(blank=True, max_length=2000),
        ),
        migrations.AlterField(
            model_name="delivery",
            name="article",
            field=models.ForeignKey(
                blank=True, null=True, on_delete=alerts.models.keep_sent, related_name="+", to="monitor.article"
            ),
        ),
        migrations.RunPython(keep_titles, migrations.RunPython.noop),
    ]
