"""The work queue between the stages: the stages every app registers, enqueueing by work name, and rows
claimed with a lease.

A Celery task loads ids, calls one service function and hands the ``Outcome`` it returns to :func:`finish`
(or :func:`enqueue`), which sends what it lists by work name. Each app registers its stages, in its
``AppConfig.ready()``: a work name (``"poll"``, ``"fetch"``, ``"process"``…), the Celery task that does it
and, for work done on database rows, the rows' columns (:class:`Rows`). So no app names another's tasks:
WebMon asks for ``"process"`` and the processing app says which task that is. The queue of each task is
Celery's routing (``CELERY_TASK_ROUTES``, wims/settings.py), the one place that says it; :func:`queue` reads it.

The database is the record of work to do. A stage's row is *claimed* (:func:`claim`) with a conditional
UPDATE that only succeeds while the row waits for the stage (or its previous claim's lease has expired with
attempts left), counting the delivery, so a redelivered or duplicated message does nothing; :func:`sweep`
puts back (or quarantines) the rows of expired leases and enqueues again the rows due for a while, whatever
a lost message or a killed worker left behind.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from celery import current_app
from django.db import models
from django.db.models import F, Q
from django.utils import timezone

from foundation import metrics
from foundation.bounds import limit_exceeded

__all__ = [
    "CLAIM_TOLERANCE",
    "MAX_COUNTDOWN",
    "QUARANTINED",
    "Outcome",
    "Rows",
    "Stage",
    "claim",
    "enqueue",
    "finish",
    "queue",
    "quarantine_note",
    "register",
    "run_claimed",
    "stage",
    "stages",
    "sweep",
    "unexpected_error",
]

log = logging.getLogger(__name__)

#: a countdown longer than this is not sent (a countdown message is held unacknowledged by a worker until
#: it is due): the sweep enqueues the row when it is due
MAX_COUNTDOWN = 300.0
#: a waiting row claimed only once due (``Rows.when_due``) may be claimed this much early
CLAIM_TOLERANCE = timedelta(milliseconds=50)
#: how a quarantined row's error starts (WebMon's site health counts them)
QUARANTINED = "quarantined:"


@dataclass
class Outcome:
    """What a task should do next: ``enqueue`` lists (work name, id, countdown seconds)."""

    result: str
    detail: str = ""
    enqueue: list[tuple[str, int, float]] = field(default_factory=list)


@dataclass(frozen=True)
class Rows:
    """The rows a stage works on and their columns: the state a row waits in and the one it is in while
    claimed, the delivery counter and its limit, the lease."""

    model: type[models.Model]
    #: the state a row waits in for this stage, the state while a worker holds it, the state of a failure
    waiting: str
    working: str
    failed: str
    #: the column counting deliveries (a claim counts one) and the most a lost lease may use up
    attempts: str
    max_attempts: Callable[[], int]
    #: how long a claim holds, in seconds (longer than the task's hard time limit)
    lease_seconds: Callable[[], float]
    #: a waiting row is claimed only once due (its ``due`` column, less CLAIM_TOLERANCE): a stale duplicate
    #: message must not cut a backoff or a Retry-After short
    when_due: bool = False
    #: what puts a quarantined row back (its error says so)
    again: str = "an administrator puts it back"
    state: str = "state"
    lease: str = "lease_until"
    due: str = "due_at"
    error: str = "last_error"


@dataclass(frozen=True)
class Stage:
    """A registered kind of work: its name, the Celery task that does it, the rows it claims (if any)."""

    name: str
    task: str
    rows: Rows | None = None


_stages: dict[str, Stage] = {}


def register(name: str, task: str, rows: Rows | None = None) -> Stage:
    """Register the work ``name`` as done by the Celery task ``task`` (an app's ``AppConfig.ready()``).
    Registering it again the same way changes nothing; another task for a registered name is an error."""
    new = Stage(name, task, rows)
    old = _stages.setdefault(name, new)
    if old != new:
        raise ValueError(f"work {name!r} is registered already, as {old.task}")
    return old


def stage(name: str) -> Stage:
    """The registered stage ``name`` (KeyError: no app registered it)."""
    return _stages[name]


def stages() -> list[Stage]:
    """Every registered stage, in the order the apps registered them."""
    return list(_stages.values())


def queue(name: str) -> str:
    """The queue the stage's task is sent to, as Celery's routing (CELERY_TASK_ROUTES) says."""
    route = current_app.amqp.router.route({}, _stages[name].task)
    return str(route["queue"].name)


# --------------------------------------------------------------------------- sending


def finish(outcome: Outcome) -> str:
    """Enqueue what the outcome asks for; the task's result line. The task is counted by its outcome."""
    metrics.record_outcome(outcome.result)
    enqueue(outcome)
    return f"{outcome.result} {outcome.detail}".strip()


def enqueue(outcome: Outcome) -> None:
    """Send the tasks an outcome asks for (the one way any task enqueues its follow-ups)."""
    for name, pk, countdown in outcome.enqueue:
        if countdown > MAX_COUNTDOWN:
            continue  # the sweep enqueues it when due
        # By name, routed to its queue by CELERY_TASK_ROUTES: the sender need not have imported the task's module.
        current_app.send_task(_stages[name].task, (pk,), countdown=countdown if countdown > 0 else None)


# --------------------------------------------------------------------------- claims


def _rows(name: str) -> Rows:
    rows = _stages[name].rows
    if rows is None:
        raise ValueError(f"work {name!r} claims no rows")
    return rows


def claim(name: str, pk: int) -> bool:
    """Move the row from the stage's waiting state to its working state under a lease, counting the attempt.

    False when the row does not wait for the stage (done, or another worker holds an unexpired lease).
    """
    rows = _rows(name)
    now = timezone.now()
    lease = now + timedelta(seconds=rows.lease_seconds())
    ready = Q(**{rows.state: rows.waiting})
    if rows.when_due:
        # The retry's own countdown message never arrives early, and the sweep catches any row left behind.
        ready = ready & Q(**{f"{rows.due}__lte": now + CLAIM_TOLERANCE})
    # A lost lease is taken over only while attempts are left: the sweep quarantines the others, so that a
    # redelivered message of work that killed its worker cannot run it once more before the sweep does.
    lost = Q(**{rows.state: rows.working, f"{rows.lease}__lt": now, f"{rows.attempts}__lt": rows.max_attempts()})
    return bool(
        rows.model._default_manager.filter(Q(pk=pk) & (ready | lost)).update(
            **{rows.state: rows.working, rows.lease: lease, rows.attempts: F(rows.attempts) + 1}
        )
    )


def run_claimed(name: str, pk: int, step: Callable[[int], Outcome]) -> Outcome:
    """Claim the row (:func:`claim`) and run ``step`` on it. An unexpected error fails the row with its
    message and frees it, instead of leaving it working until its lease runs out."""
    rows = _rows(name)
    if not claim(name, pk):
        return Outcome("skipped", f"not {rows.waiting} (done, or another worker has it)")
    try:
        return step(pk)
    except Exception as exc:
        return _fail_claimed(rows, pk, exc)


def _fail_claimed(rows: Rows, pk: int, exc: BaseException) -> Outcome:
    log.exception("%s %s: unexpected error while %s", rows.model._meta.model_name, pk, rows.working)
    error = unexpected_error(exc)
    rows.model._default_manager.filter(**{"pk": pk, rows.state: rows.working}).update(
        **{rows.state: rows.failed, rows.lease: None, rows.error: error}
    )
    return Outcome("failed", error)


def unexpected_error(exc: BaseException) -> str:
    """The message a row or a site's health keeps for an error nobody foresaw, or for the bound its task ran
    into (foundation/bounds.py: "time limit: …", "memory limit: …")."""
    return (limit_exceeded(exc) or f"unexpected error: {type(exc).__name__}: {exc}")[:2000]


def quarantine_note(name: str, attempts: int) -> str:
    """The error of a row whose work killed or timed out its worker ``attempts`` times (see :func:`sweep`)."""
    rows = _rows(name)
    return (
        f"{QUARANTINED} {rows.working} it took all {attempts} attempts, the last one lost with its worker (killed, "
        f"or past its time limit): not tried again until {rows.again}"
    )


def sweep(now: datetime, grace: datetime, limit: int = 2000) -> Outcome:
    """Enqueue again the rows of every stage whose message was lost or whose worker died.

    Expired leases first (the worker died or hit its time limit): the row goes back to wait, due at ``grace``
    (the claim counted the attempt), or, when its deliveries have used up the attempts, it is quarantined:
    work that kills its worker is never delivered again until someone puts it back. Then the rows due since
    ``grace`` or earlier with nobody working on them, ``limit`` per stage, oldest first, due now again.
    """
    out = Outcome("swept")
    claimed = [(s.name, s.rows) for s in _stages.values() if s.rows is not None]
    for name, rows in claimed:
        attempts = rows.max_attempts()
        expired = rows.model._default_manager.filter(**{rows.state: rows.working, f"{rows.lease}__lt": now})
        expired.filter(**{f"{rows.attempts}__gte": attempts}).update(
            **{rows.state: rows.failed, rows.lease: None, rows.error: quarantine_note(name, attempts)}
        )
        expired.update(**{rows.state: rows.waiting, rows.due: grace, rows.lease: None})
    for name, rows in claimed:
        manager = rows.model._default_manager
        ids = list(
            manager.filter(**{rows.state: rows.waiting, f"{rows.due}__lte": grace})
            .order_by(rows.due)
            .values_list("pk", flat=True)[:limit]
        )
        if ids:
            manager.filter(**{"pk__in": ids, rows.state: rows.waiting}).update(**{rows.due: now})
            out.enqueue += [(name, pk, 0) for pk in ids]
    return out
