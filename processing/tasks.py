"""Processing's Celery tasks: thin shells around processing/services.py and processing/learning.py.

Both run on the ``process`` queue (CELERY_TASK_ROUTES; CPU-bound: filters and inference, a prefork worker),
acknowledged late and idempotent like WebMon's (see monitor/tasks.py); what they ask for next is enqueued
the same way.
"""

from celery import shared_task

from monitor.tasks import enqueue

from . import learning, services


@shared_task(name="processing.process_article", time_limit=120, soft_time_limit=100)
def process_article(article_id: int) -> str:
    outcome = services.process_article(article_id)
    enqueue(outcome)
    return f"{outcome.result} {outcome.detail}".strip()


@shared_task(name="processing.learn_site_profile", time_limit=300, soft_time_limit=270)
def learn_site_profile(site_id: int) -> str:
    """A new site's filter profile, learned once its first pages are stored; re-filters its articles."""
    outcome = learning.learn_site(site_id)
    enqueue(outcome)
    return f"{outcome.result} {outcome.detail}".strip()
