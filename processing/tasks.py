"""Processing's Celery tasks: thin shells around processing/services.py and processing/learning.py.

Both run on the ``process`` queue (CELERY_TASK_ROUTES; CPU-bound: filters and inference, a prefork worker),
acknowledged late and idempotent like WebMon's (see monitor/tasks.py); what they ask for next is enqueued
the same way, by work name (foundation/work.py). The app registers its work, ``process`` and ``learn``, in
processing/apps.py.
"""

from celery import shared_task

from foundation.work import finish

from . import learning, services


@shared_task(name="processing.process_article")  # its bounds: TASK_SOFT_TIME_LIMITS (wims/settings.py)
def process_article(article_id: int) -> str:
    return finish(services.process_article(article_id))


@shared_task(name="processing.learn_site_profile")
def learn_site_profile(site_id: int) -> str:
    """A new site's filter profile, learned once its first pages are stored; re-filters its articles."""
    return finish(learning.learn_site(site_id))
