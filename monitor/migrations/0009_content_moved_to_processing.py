"""The article's processing output now lives in processing's tables (processing 0002 copied it there)."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('monitor', '0008_article_held_slot'),
        ('processing', '0002_article_content'),
    ]

    operations = [
        migrations.RemoveField(
            model_name='article',
            name='abstract',
        ),
        migrations.RemoveField(
            model_name='article',
            name='core_text',
        ),
        migrations.RemoveField(
            model_name='article',
            name='extraction',
        ),
        migrations.RemoveField(
            model_name='article',
            name='fingerprint',
        ),
        migrations.RemoveField(
            model_name='article',
            name='keywords',
        ),
        migrations.RemoveField(
            model_name='article',
            name='relevant_links',
        ),
        migrations.RemoveField(
            model_name='article',
            name='tokens',
        ),
        migrations.DeleteModel(
            name='FingerprintBand',
        ),
    ]
