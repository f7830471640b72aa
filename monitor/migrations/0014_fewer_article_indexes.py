"""Three indexes of the article table that cost bytes for every article and served nothing another index does
not (issue 31): site and assignee (their composite indexes lead with them) and content_hash (looked up among
originals only, through unique_original_content's partial index; PostgreSQL kept a second one for LIKE).

By name, not with AlterField: on SQLite that copies the whole table (raw pages included) once per field, and on
PostgreSQL Django's AlterField(db_index=False) on content_hash drops unique_original_content too.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

#: (index, column): the indexes Django created for the fields' db_index
INDEXES = [
    ("monitor_article_site_id_c852de35", "site_id"),
    ("monitor_article_assignee_id_c7637c8b", "assignee_id"),
    ("monitor_article_content_hash_198ce39b", "content_hash"),
]
LIKE_INDEX = "monitor_article_content_hash_198ce39b_like"  # PostgreSQL only


def drop(apps, schema_editor):
    for name, _column in INDEXES:
        schema_editor.execute(f'DROP INDEX IF EXISTS "{name}"')
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f'DROP INDEX IF EXISTS "{LIKE_INDEX}"')


def create(apps, schema_editor):
    for name, column in INDEXES:
        schema_editor.execute(f'CREATE INDEX IF NOT EXISTS "{name}" ON "monitor_article" ("{column}")')
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            f'CREATE INDEX IF NOT EXISTS "{LIKE_INDEX}" ON "monitor_article" ("content_hash" varchar_pattern_ops)'
        )


class Migration(migrations.Migration):
    dependencies = [
        ("monitor", "0013_review_state_words"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="article",
                    name="assignee",
                    field=models.ForeignKey(
                        blank=True,
                        db_index=False,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="assigned_articles",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                migrations.AlterField(
                    model_name="article",
                    name="content_hash",
                    field=models.CharField(blank=True, help_text="SHA-256 of the normalised core text.", max_length=64),
                ),
                migrations.AlterField(
                    model_name="article",
                    name="site",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="articles",
                        to="monitor.site",
                    ),
                ),
            ],
            database_operations=[migrations.RunPython(drop, create)],
        ),
    ]
