"""WebMon's Celery tasks: thin shells that pass ids to monitor/services.py and enqueue what it asks for.

Queues keep slow work from starving the rest: ``poll`` (section pages, feeds), ``fetch`` (articles; a slow
site only ties up fetch workers), ``process`` (filters and inference, CPU-bound;
also a new site's automatic filter learning), and the default ``celery``
queue for the periodic dispatcher, so that a backlog of polls never delays the dispatcher and its sweep.

All tasks are acknowledged late (settings: CELERY_TASK_ACKS_LATE) and idempotent: they claim their row
in the database first, so a redelivered message does nothing. The database, not the broker, remembers
what is left to do: the dispatcher's sweep enqueues again whatever a lost message or a killed worker left
behind. Retries are scheduled by the services (exponential backoff with jitter, Retry-After honoured) as
countdown messages; a delay longer than MAX_COUNTDOWN is left to the sweep instead, because a countdown
message is held unacknowledged by a worker until it is due.

Polls and fetches never sleep long for a host's politeness slot: beyond WIMS_POLITENESS_MAX_WAIT they
re-queue themselves with a countdown (a poll keeps the sources it already read), so their threads wait on
the network only.

Suggested workers (``-P threads`` because polling and fetching mostly wait on the network; processing is
CPU-bound and uses processes)::

    celery -A wims worker -Q celery,poll,fetch -P threads -c 16
    celery -A wims worker -Q process -c 2
"""

from celery import shared_task
from celery.utils.log import get_task_logger

from . import learning, services

log = get_task_logger(__name__)

MAX_COUNTDOWN = 300.0


def _enqueue(outcome: services.Outcome) -> None:
    for name, pk, countdown in outcome.enqueue:
        if countdown > MAX_COUNTDOWN:
            continue  # the sweep enqueues it when due
        TASKS[name].apply_async((pk,), countdown=countdown if countdown > 0 else None)


@shared_task(name="monitor.dispatch_due_polls", queue="celery", time_limit=120, soft_time_limit=100)
def dispatch_due_polls() -> str:
    """The one periodic entry (django-celery-beat, every 30 s): poll due sites, re-enqueue lost work."""
    outcome = services.dispatch_due_polls()
    _enqueue(outcome)
    return f"{outcome.detail}, {len(outcome.enqueue)} tasks"


@shared_task(name="monitor.poll_site", queue="poll", time_limit=240, soft_time_limit=200)
def poll_site(site_id: int) -> str:
    """One poll, or one continuation of it: a busy host makes it store its progress and re-queue itself."""
    outcome = services.poll_site(site_id)
    _enqueue(outcome)
    return f"{outcome.result} {outcome.detail}".strip()


@shared_task(name="monitor.fetch_article", queue="fetch", time_limit=120, soft_time_limit=100)
def fetch_article(article_id: int) -> str:
    outcome = services.fetch_article(article_id)
    _enqueue(outcome)
    if outcome.result in ("retry", "failed"):
        log.info("article %s: %s (%s)", article_id, outcome.result, outcome.detail)
    return f"{outcome.result} {outcome.detail}".strip()


@shared_task(name="monitor.process_article", queue="process", time_limit=120, soft_time_limit=100)
def process_article(article_id: int) -> str:
    outcome = services.process_article(article_id)
    _enqueue(outcome)
    return f"{outcome.result} {outcome.detail}".strip()


@shared_task(name="monitor.learn_site_profile", queue="process", time_limit=300, soft_time_limit=270)
def learn_site_profile(site_id: int) -> str:
    """A new site's filter profile, learned once its first pages are stored; re-filters its articles."""
    outcome = learning.learn_site(site_id)
    _enqueue(outcome)
    return f"{outcome.result} {outcome.detail}".strip()


TASKS = {"poll": poll_site, "fetch": fetch_article, "process": process_article, "learn": learn_site_profile}
