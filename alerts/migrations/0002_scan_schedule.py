"""The periodic scan (alerts.scan every 30 s) in django-celery-beat's database schedule."""

from django.db import migrations

TASK_NAME = "Scan alert subscriptions"


def add_schedule(apps, schema_editor):
    IntervalSchedule = apps.get_model("django_celery_beat", "IntervalSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    every = IntervalSchedule.objects.filter(every=30, period="seconds").order_by("id").first()
    if every is None:
        every = IntervalSchedule.objects.create(every=30, period="seconds")
    PeriodicTask.objects.get_or_create(name=TASK_NAME, defaults={"task": "alerts.scan", "interval": every})


def remove_schedule(apps, schema_editor):
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(name=TASK_NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("alerts", "0001_initial"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]

    operations = [migrations.RunPython(add_schedule, remove_schedule)]
