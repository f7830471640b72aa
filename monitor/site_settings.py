"""A site administrator's changes to a site (the admin, the API), stored beside WebMon's own writes.

The poller writes a site's health (Site.HEALTH_FIELDS), its poll's lease (next_poll_at while poll_queued_at is
set) and its conditional-GET validators while an administrator has the site open: a save writes only what the
administrator changed, so that it never puts back the values read before a poll ended, and it never ends a
poll's lease (a second poll would start beside the one under way, which reads the change anyway).
"""

from __future__ import annotations

from collections.abc import Iterable

from .models import Site

#: changing one of these makes the site due at once: what it polls changed
WATCHED_FIELDS = frozenset({"section_urls", "feed_url", "include_patterns", "exclude_patterns"})


def make_due(site_id: int) -> bool:
    """The site is due at the next dispatch, unless a poll is queued or under way (its lease stands until it
    ends). True: it is due."""
    return bool(Site.objects.filter(pk=site_id, poll_queued_at__isnull=True).update(next_poll_at=None))


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
    if not WATCHED_FIELDS & changed or not make_due(site.pk):
        return False
    site.next_poll_at = None
    return True
