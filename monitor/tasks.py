"""WebMon's Celery tasks: thin shells that pass ids to monitor/services.py and enqueue what it asks for.

Queues keep slow work from starving the rest: ``poll`` (section pages, feeds), ``fetch`` (articles; a slow
site only ties up fetch workers), ``process`` (the processing app's tasks: filters and inference, CPU-bound,
and a new site's automatic filter learning), and the default ``celery``
queue for the periodic dispatcher, so that a backlog of polls never delays the dispatcher and its sweep.

All tasks are acknowledged late (settings: CELERY_TASK_ACKS_LATE) and idempotent: they claim their row
in the database first, so a redelivered message does nothing. The database, not the broker, remembers
what is left to do: the dispatcher's sweep enqueues again whatever a lost message or a killed worker left
behind. Retries are scheduled by the services (exponential backoff with jitter, Retry-After honoured) as
countdown messages; a delay longer than foundation.work.MAX_COUNTDOWN is left to the sweep instead, because
a countdown message is held unacknowledged by a worker until it is due.

What an outcome asks for is sent by work name through the work queue (foundation/work.py: ``enqueue``,
``finish``); WebMon registers its stages, ``poll`` and ``fetch``, in monitor/apps.py, and hands a fetched page
on as ``process``, which the processing app registers: WebMon never names its tasks.

Time limits (soft, then hard) are declared for every task in one place, wims/settings.py
(TASK_SOFT_TIME_LIMITS), with the workers' memory bounds.

Polls and fetches never sleep long for a host's politeness slot: beyond WIMS_POLITENESS_MAX_WAIT they
re-queue themselves with a countdown to a slot they hold (a poll keeps the sources it already read too), so
their threads wait on the network only.

The workers that take these queues, and how many of each: docs/operations.md ("Workers and the beat"), the one place
the layout is written (runall and the deploy units follow it).
"""

from celery import shared_task
from celery.utils.log import get_task_logger

from foundation.work import enqueue, finish

from . import retention, services

log = get_task_logger(__name__)


@shared_task(name="monitor.dispatch_due_polls")
def dispatch_due_polls() -> str:
    """WebMon's periodic entry (CELERY_BEAT_SCHEDULE, every 30 s): poll due sites, re-enqueue lost work."""
    outcome = services.dispatch_due_polls()
    enqueue(outcome)
    return f"{outcome.detail}, {len(outcome.enqueue)} tasks"


@shared_task(name="monitor.poll_site")
def poll_site(site_id: int) -> str:
    """One poll, or one continuation of it: a busy host makes it store its progress and re-queue itself."""
    return finish(services.poll_site(site_id))


@shared_task(name="monitor.fetch_article")
def fetch_article(article_id: int) -> str:
    outcome = services.fetch_article(article_id)
    if outcome.result in ("retry", "failed"):
        log.info("article %s: %s (%s)", article_id, outcome.result, outcome.detail)
    return finish(outcome)


@shared_task(name="monitor.apply_retention")
def apply_retention() -> str:
    """Daily (CELERY_BEAT_SCHEDULE): drop old raw pages and fetch log rows (monitor/retention.py)."""
    return retention.apply_retention().detail
