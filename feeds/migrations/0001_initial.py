"""FeedToken, moved here from the classifier app with its table and rows.

On an existing database classifier_feedtoken holds the tokens handed to subscribers (their feed URLs
must keep working); on a fresh one classifier 0003 has just created it empty. Either way this migration
takes the same steps, so fresh and upgraded databases end up identical:

1. State only: the model enters the feeds app's state exactly as classifier 0003 created it, still on
   the table classifier_feedtoken (classifier 0006 has just removed it from the classifier's state).
2. AlterModelTable: the table is renamed to feeds_feedtoken (ALTER TABLE ... RENAME TO).

Why a rename rather than keeping ``db_table = "classifier_feedtoken"`` on the model for good: the
rename is a catalog change only, on PostgreSQL and on SQLite (no row is copied; ids, the digest's
unique index and the foreign keys to classifier_folder and auth_user move with the table, and no table
refers to this one), and afterwards the model needs no db_table override naming another app's table, so
feeds/models.py does not carry the classifier's history. The only trace left is that the indexes and
constraints keep their classifier_feedtoken_... names, on fresh databases too; Django finds them by
introspection, not by name.

3. The content type follows the model (app_label classifier -> feeds), so that permissions granted on
   feed tokens and admin log entries stay attached to it instead of to a stale classifier.feedtoken.
   Where a feeds.feedtoken content type exists already (post_migrate ran between classifier 0006 and
   this migration, e.g. after `migrate classifier`), the old one is left to `remove_stale_contenttypes`.
"""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


def move_content_type(from_app, to_app):
    def move(apps, schema_editor):
        ContentType = apps.get_model('contenttypes', 'ContentType')
        types = ContentType.objects.using(schema_editor.connection.alias)
        if not types.filter(app_label=to_app, model='feedtoken').exists():
            types.filter(app_label=from_app, model='feedtoken').update(app_label=to_app)

    return move


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('classifier', '0006_feedtoken_moved_to_feeds'),
        ('contenttypes', '0002_remove_content_type_name'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='FeedToken',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('subscriber', models.CharField(help_text='Who the token was given to.', max_length=200)),
                        ('digest', models.CharField(editable=False, max_length=64, unique=True)),
                        ('prefix', models.CharField(editable=False, help_text='First characters, to tell tokens apart.', max_length=8)),
                        ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                        ('revoked_at', models.DateTimeField(blank=True, null=True)),
                        ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('folder', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='feed_tokens', to='classifier.folder')),
                        ('revoked_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'ordering': ['folder_id', '-created_at', '-id'],
                        'db_table': 'classifier_feedtoken',  # the table classifier 0003 created, rows and all
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.AlterModelTable(
            name='feedtoken',
            table=None,  # the app's default name, feeds_feedtoken
        ),
        migrations.RunPython(move_content_type('classifier', 'feeds'), move_content_type('feeds', 'classifier')),
    ]
