"""Per-host minimum delay between requests, shared by every worker process through the database.

A request *reserves* its slot with one conditional UPDATE on the host's row::

    next_request_at := max(next_request_at, now) + delay      -- only if max(next_request_at, now) <= now + max_wait

The statement is atomic on PostgreSQL (row lock) and on SQLite (database write lock), so two workers can
never take the same slot, whatever machine they run on; each then sleeps until its own slot. A slot
further away than ``max_wait`` (a fraction of a second by default) is not taken: the caller re-queues its
task for when the slot frees up rather than holding a worker thread. Times are Unix seconds of the
workers' clocks (keep worker clocks in sync with NTP).
"""

from __future__ import annotations

import time

from django.db import connection

from . import conf
from .models import Host
from .net import Deferred

__all__ = ["reserve", "take_turn", "wait_turn"]


def _table() -> str:
    return connection.ops.quote_name(Host._meta.db_table)


def reserve(host: str, delay: float, max_wait: float, now: float | None = None) -> float:
    """Reserve the next request slot of ``host``; return seconds to wait, or raise Deferred.

    ``Deferred.delay`` says when the host will have a free slot within ``max_wait`` again.
    """
    now = time.time() if now is None else now
    if delay <= 0:
        return 0.0
    sql = (
        f"UPDATE {_table()} SET next_request_at = "  # noqa: S608 - the table name is ours, values are bound
        "(CASE WHEN next_request_at > %s THEN next_request_at ELSE %s END) + %s "
        "WHERE name = %s AND next_request_at <= %s RETURNING next_request_at"
    )
    for _ in range(2):
        with connection.cursor() as cursor:
            cursor.execute(sql, [now, now, delay, host, now + max_wait])
            row = cursor.fetchone()
        if row is not None:
            return max(0.0, row[0] - delay - now)
        existing = Host.objects.filter(name=host).values_list("next_request_at", flat=True).first()
        if existing is None:
            Host.objects.bulk_create([Host(name=host, next_request_at=0.0)], ignore_conflicts=True)
            continue
        raise Deferred(max(0.1, existing - max_wait - now))
    raise RuntimeError(f"could not reserve a slot for host {host!r}")  # pragma: no cover


def take_turn(host: str, held: float | None = None) -> float | None:
    """An article fetch's turn: sleep until its slot and return None, or return the slot to come back for.

    The slot is the one ``held`` from an earlier deferral (unless it has passed), else the host's next free
    slot, reserved however far it is. A slot beyond WIMS_POLITENESS_MAX_WAIT stays reserved for the caller,
    who must store it and come back then. Deferring without a slot sent every waiting fetch of a host back
    for the same next slot, where one won and the others were deferred again: N²/2 deferred tasks for N
    articles (508 for 62 in a live run); holding a slot makes it one deferral per fetch at most.
    """
    now = time.time()
    max_wait, delay = conf.politeness_max_wait(), conf.politeness_delay()
    if held is not None and now <= held + max_wait:
        slot = held
    elif held is not None and now < held + delay and _late(host, held, delay, now):
        slot = now  # the slot went by unused and nobody reserved one after it: the host has rested
    else:  # none held, or a message so late that its slot went by: take the next one
        slot = now + reserve(host, delay, 1e9, now)
    if slot - now > max_wait:
        return slot
    if slot > now:
        time.sleep(slot - now)
    return None


def _late(host: str, held: float, delay: float, now: float) -> bool:
    """Take ``now`` for the slot ``held``, which went by unused, when it is still the host's last one reserved (its
    next free slot is the held one's end): a continuation a little late need not wait a whole slot more."""
    sql = (
        f"UPDATE {_table()} SET next_request_at = %s "  # noqa: S608 - the table name is ours, values are bound
        "WHERE name = %s AND next_request_at BETWEEN %s AND %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [now + delay, host, held + delay - 0.001, held + delay + 0.001])
        return cursor.rowcount == 1


def wait_turn(host: str, *, may_defer: bool = True, delay: float | None = None) -> float:
    """Reserve a slot with the configured delay and sleep until it; return the seconds slept.

    ``may_defer=False`` takes the next slot however far it is (never raises Deferred). ``delay``: the administrator's
    sources preview, a shorter delay than the configured one (never a longer), in the host's preview lane; someone
    waits for it, so it waits at most its whole budget (WIMS_SOURCES_FIND_SECONDS) and else raises Deferred: a
    host's Retry-After reaches the lane too (polite._push_back_host).
    """
    max_wait = conf.politeness_max_wait() if may_defer else 1e9  # any slot, however far
    configured = conf.politeness_delay()
    if delay is not None:
        return _sleep(reserve(preview_lane(host), min(delay, configured), conf.sources_find_seconds()))
    return _sleep(reserve(host, configured, max_wait))


def preview_lane(host: str) -> str:
    """The Host row that spaces the sources preview's requests to ``host``: its own, not the host's. The host's
    turns are held far ahead by a poll's article fetches (take_turn), 2 s each: a live trial's preview, opened as
    a site's first poll queued its articles, waited behind them and timed out at 20 s. The preview is one short
    burst that someone waits for, as a browser loads a page's parts: its requests go one at a time beside the
    poll's, and the poll's turns stay where they are. (The host cut to fit the row's name.)"""
    return f"{host[:240]} preview"


def _sleep(wait: float) -> float:
    if wait > 0:
        time.sleep(wait)
    return wait
