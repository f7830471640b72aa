"""Processing's output moves off the article row into processing's own tables, data kept: the core text,
tokens, stored extraction and DocView elements into ``ArticleContent`` (one row per article processing wrote),
the fingerprint band keys into processing's ``FingerprintBand``. monitor 0009 then drops the old columns and
table. Reversible: going back copies the rows into the article's columns again."""

import django.db.models.deletion
from django.db import migrations, models


COLUMNS = "core_text, tokens, extraction, keywords, abstract, relevant_links, fingerprint"


def copy_forward(apps, schema_editor):
    # every article processing wrote (processed, duplicate, or failed after a first processing, re-filtered)
    schema_editor.execute(
        f"INSERT INTO processing_articlecontent (article_id, {COLUMNS}) SELECT id, {COLUMNS} FROM monitor_article "
        "WHERE processed_at IS NOT NULL OR core_text <> '' OR abstract <> '' OR fingerprint IS NOT NULL"
    )
    schema_editor.execute(
        "INSERT INTO processing_fingerprintband (article_id, key) SELECT article_id, key FROM monitor_fingerprintband"
    )


def copy_back(apps, schema_editor):
    assignments = ", ".join(f"{c} = c.{c}" for c in COLUMNS.split(", "))
    schema_editor.execute(
        f"UPDATE monitor_article SET {assignments} FROM processing_articlecontent c WHERE c.article_id = monitor_article.id"
    )
    schema_editor.execute(
        "INSERT INTO monitor_fingerprintband (article_id, key) SELECT article_id, key FROM processing_fingerprintband"
    )


class Migration(migrations.Migration):

    dependencies = [
        ('monitor', '0008_article_held_slot'),
        ('processing', '0001_site_learning'),
    ]

    operations = [
        migrations.CreateModel(
            name='ArticleContent',
            fields=[
                ('article', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='content', serialize=False, to='monitor.article')),
                ('core_text', models.TextField(blank=True, help_text='Core content after the noise filters (untrusted text).')),
                ('tokens', models.JSONField(blank=True, default=list)),
                ('extraction', models.JSONField(blank=True, default=dict, help_text='Filter counts and phrase decisions.')),
                ('keywords', models.JSONField(blank=True, default=list, help_text='[[term, weight], ...], highest first.')),
                ('abstract', models.TextField(blank=True, help_text="The core text's most central sentences (untrusted text).")),
                ('relevant_links', models.JSONField(blank=True, default=list, help_text='[[absolute URL, anchor text], ...]: the links inside the core content.')),
                ('fingerprint', models.BinaryField(blank=True, help_text="MinHash signature of the core text's word shingles.", null=True)),
            ],
            options={
                'verbose_name': 'article content',
                'verbose_name_plural': 'article contents',
            },
        ),
        migrations.CreateModel(
            name='FingerprintBand',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('key', models.BigIntegerField(db_index=True)),
                ('article', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='fingerprint_bands', to='monitor.article')),
            ],
        ),
        migrations.RunPython(copy_forward, copy_back),
    ]
