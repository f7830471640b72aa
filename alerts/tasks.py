"""Alerts' Celery tasks: thin shells over alerts/services.py.

``alerts.scan`` runs every 30 s (the beat; declared in CELERY_BEAT_SCHEDULE, wims/settings.py) on
the dispatcher's queue: database work only. It sends one ``alerts.send`` per subscription with something due
(the work ``deliver``, registered in alerts/apps.py, sent through foundation/work.py), on the ``alerts`` queue
(CELERY_TASK_ROUTES), so a slow mail server or webhook never delays the
dispatcher. Retries are the database's: a failed send puts its rows back with a backoff and the next scan
sends them again (alerts/services.py), like WebMon's sweep. Their time limits are in wims/settings.py
(TASK_SOFT_TIME_LIMITS).
"""

from celery import shared_task

from alerts import services
from foundation import work


@shared_task(name="alerts.scan")
def scan() -> str:
    due = services.scan()
    work.enqueue(work.Outcome("scanned", enqueue=[("deliver", subscription_id, 0) for subscription_id in due]))
    return f"{len(due)} subscriptions to send"


@shared_task(name="alerts.send")  # the work "deliver" (alerts/apps.py)
def send(subscription_id: int) -> str:
    return services.send(subscription_id)
