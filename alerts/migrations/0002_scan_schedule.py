"""Formerly put the periodic scan (alerts.scan every 30 s) into django-celery-beat's database schedule.

Every periodic task is declared in CELERY_BEAT_SCHEDULE (wims/settings.py) now, and the beat writes it into that
table at its start under the same name as this migration's row, "Scan alert subscriptions": on a database where
this migration created the row, the beat updates it rather than adding a second scan. Kept as a step that does
nothing, since installations have it recorded as applied.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("alerts", "0001_initial"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]

    operations = [migrations.RunPython(migrations.RunPython.noop, migrations.RunPython.noop)]
