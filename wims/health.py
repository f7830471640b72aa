"""``/healthz``: whether WIMS is working, for load balancers, service managers and people.

Checks the database, the broker, the beat (the age of the dispatcher's last run, which it records itself,
so the whole chain beat -> broker -> worker is checked) and the work queue
(the oldest article overdue for a fetch or processing: the sweep re-enqueues lost work every 30 s, so an
old one means no worker is taking it). 200 when every check passes, 503 otherwise, with a JSON body that
names the failing check. No secrets and no article content: ages and counts only.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import connection
from django.http import JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from monitor.models import Article, Heartbeat
from wims.celery import app

#: the dispatcher runs every 30 s (beat -> broker -> the dispatch worker) and writes its heartbeat
BEAT_MAX_AGE = timedelta(minutes=3)
#: an article overdue this long is not being worked on
WORK_MAX_AGE = timedelta(minutes=30)


def _database() -> dict:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return {"ok": True}


def _broker() -> dict:
    with app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=2)
    return {"ok": True}


def _beat(now) -> dict:
    last = Heartbeat.objects.filter(name="dispatch").values_list("at", flat=True).first()
    if last is None:
        return {"ok": False, "error": "due polls have never been dispatched (are the beat and a worker running?)"}
    age = now - last
    return {"ok": age <= BEAT_MAX_AGE, "last_dispatch_seconds_ago": round(age.total_seconds())}


def oldest_overdue(now: datetime) -> datetime | None:
    """When the article overdue longest for a fetch or processing was due (None: none is overdue)."""
    working = [Article.State.PENDING, Article.State.FETCHING, Article.State.FETCHED, Article.State.PROCESSING]
    return (
        Article.objects.filter(state__in=working, due_at__lte=now).order_by("due_at").values_list("due_at", flat=True)
    ).first()


def _work(now) -> dict:
    oldest = oldest_overdue(now)
    age = (now - oldest) if oldest else timedelta(0)
    return {"ok": age <= WORK_MAX_AGE, "oldest_overdue_seconds": round(age.total_seconds())}


@never_cache
@require_safe
def healthz(request):
    now = timezone.now()
    checks = {}
    for name, check in (
        ("database", _database),
        ("broker", _broker),
        ("beat", lambda: _beat(now)),
        ("work", lambda: _work(now)),
    ):
        try:
            checks[name] = check()
        except Exception as exc:  # a check that cannot run is a failing check, with its reason
            checks[name] = {"ok": False, "error": f"{type(exc).__name__}: {exc}"[:300]}
    healthy = all(c["ok"] for c in checks.values())
    return JsonResponse({"status": "ok" if healthy else "unhealthy", "checks": checks}, status=200 if healthy else 503)
