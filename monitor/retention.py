"""Storage that stays bounded: raw pages and the fetch log are dropped once they are old enough.

A fetched page is kept (zlib) until processing and the experts are done with it: the filter view re-reads it,
site learning learns from it, a re-learned profile re-filters it. After ``WIMS_KEEP_RAW_PAGES_DAYS`` days from its
fetch it is dropped, for pages that processing read (``Article.READ_STATES``): their extraction, core text,
case and search document stay, and the page can be fetched again from its URL (the admin's *Fetch again*).
Pages still waiting or failed keep theirs. ``raw_size`` keeps the page's size, so that a dropped page is told
from a page that had none (:meth:`monitor.models.Article.raw_page_dropped`). The fetch log
(``FetchAttempt``) is kept ``WIMS_KEEP_FETCH_LOG_DAYS`` days. ``0`` keeps either forever.

Run daily by the beat (``monitor.apply_retention``, CELERY_BEAT_SCHEDULE) and by hand with ``manage.py retention``.
Each statement touches at most ``batch`` rows, so a first run on a large database never holds a long lock.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from foundation.work import Outcome

from . import conf
from .models import Article, FetchAttempt

BATCH = 2_000


def raw_pages_to_drop(now: datetime | None = None):
    """The articles whose raw page the policy drops now (none when raw pages are kept forever)."""
    days = conf.keep_raw_pages_days()
    if not days:
        return Article.objects.none()
    cutoff = (now or timezone.now()) - timedelta(days=days)
    return Article.objects.filter(state__in=Article.READ_STATES, fetched_at__lt=cutoff, raw_html__isnull=False)


def fetch_log_to_drop(now: datetime | None = None):
    days = conf.keep_fetch_log_days()
    if not days:
        return FetchAttempt.objects.none()
    return FetchAttempt.objects.filter(started_at__lt=(now or timezone.now()) - timedelta(days=days))


def apply_retention(now: datetime | None = None, batch: int = BATCH, limit: int = 100) -> Outcome:
    """Drop what the policy says, ``batch`` rows a statement, at most ``limit`` batches of each kind a run."""
    pages = _in_batches(
        raw_pages_to_drop(now), batch, limit, lambda ids: Article.objects.filter(pk__in=ids).update(raw_html=None)
    )
    logs = _in_batches(
        fetch_log_to_drop(now), batch, limit, lambda ids: FetchAttempt.objects.filter(pk__in=ids).delete()[0]
    )
    return Outcome("retention", f"{pages} raw pages dropped, {logs} fetch log rows deleted")


def _in_batches(rows, batch: int, limit: int, drop) -> int:
    done = 0
    for _ in range(limit):
        ids = list(rows.order_by("pk").values_list("pk", flat=True)[:batch])
        if not ids:
            break
        with transaction.atomic():
            done += drop(ids)
    return done
