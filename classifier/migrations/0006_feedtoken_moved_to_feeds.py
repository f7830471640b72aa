"""FeedToken moved to the feeds app: it leaves the classifier app's migration state, nothing else.

The table (classifier_feedtoken, created by 0003_feed_tokens) and its rows are left as they are;
feeds/migrations/0001_initial.py, which depends on this migration, takes the table over. Unapplying
this migration (after feeds 0001 has handed the table back) puts the model back into the state.
"""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('classifier', '0005_unique_top_level_folder_name'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(
                    name='FeedToken',
                ),
            ],
            database_operations=[],  # the table stays: feeds 0001 takes it over with its rows
        ),
    ]
