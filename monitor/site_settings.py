"""A site administrator's changes to a site (the admin, the API), stored beside WebMon's own writes.

The poller writes a site's health (Site.HEALTH_FIELDS), its poll's lease (next_poll_at while poll_queued_at is
set) and its conditional-GET validators while an administrator has the site open: a save writes only what the
administrator changed, so that it never puts back the values read before a poll ended, and it never ends a
poll's lease (a second poll would start beside the one under way, which reads the change anyway).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta

from django.db.models import F

from .models import Site

#: changing one of these makes the site due at once: what it polls changed
WATCHED_FIELDS = frozenset({"section_urls", "feed_url", "include_patterns", "exclude_patterns"})


def make_due(site_id: int) -> bool:
    """The site is due at the next dispatch, unless a poll is queued or under way (its lease stands until it
    ends). True: it is due."""
    return bool(Site.objects.filter(pk=site_id, poll_queued_at__isnull=True).update(next_poll_at=None))


def reschedule(site_id: int, interval: int) -> bool:
    """A new poll interval counts from the site's last poll, not from the one after the next: shortened from an
    hour to a minute, the site is due at once, not in an hour. Left alone while a poll is queued or under way
    (its lease), before the first poll (due already) and while the site fails (its back-off stands; *Poll now*
    polls it at once). True: rescheduled."""
    return bool(
        Site.objects.filter(
            pk=site_id, poll_queued_at__isnull=True, last_poll_at__isnull=False, consecutive_failures=0
        ).update(next_poll_at=F("last_poll_at") + timedelta(seconds=interval))
    )


def save_settings(site: Site, changed: Iterable[str]) -> bool:
    """Store the fields of ``site`` named in ``changed`` that an administrator may set, and nothing else; a new
    site is stored whole, due at once, its sources to be found at its first poll. True: the site is due now (new,
    or what it polls changed and no poll is under way)."""
    changed = set(changed)
    if site.pk is None:
        site.next_poll_at = None
        site.find_sources = True
        site.save()
        return True
    settable = [
        field.name
        for field in Site._meta.concrete_fields
        if field.name in changed and field.editable and field.name not in Site.HEALTH_FIELDS
    ]
    if settable:
        site.save(update_fields=settable)
    if "poll_interval" in settable:
        reschedule(site.pk, site.poll_interval)
    if not WATCHED_FIELDS & changed or not make_due(site.pk):
        return False
    site.next_poll_at = None
    return True
