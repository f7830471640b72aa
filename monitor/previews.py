"""The administrator's sources preview, kept: what services.find_sources found for a site, stored with when.

Finding reads the site's home page, robots.txt, sitemaps and a few feeds and sections, each request waiting for the
host's turn: 1.8 to 2.5 s on an idle demo site, 11 to 13 s while polls wait for the same hosts (a live trial;
the preview's requests have had a lane of their own since, politeness.preview_lane).
The preview is stored per site (models.SourcesPreview, a database row: it outlives a restart and every web process
and worker sees it, where the default cache is one per process) and shown again, "found … ago", until an
administrator asks to *Find again*, the site's settings that the verdicts depend on change, or it is older than
:data:`MAX_AGE`. Its size is bounded (:data:`MAX_BYTES`).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict
from datetime import datetime, timedelta

from django.utils import timezone
from django.utils.text import Truncator

from . import services
from .finding import Found, LinkVerdict, Proposal
from .models import Site, SourcesPreview
from .net import Deferred

#: a preview older than this is found again when it is loaded: what a site links to changes from day to day
MAX_AGE = timedelta(days=1)
#: the stored proposal's size at most (JSON): links are dropped from the longest lists until it fits
MAX_BYTES = 256 * 1024
#: what is stored of each text (a link's address as a Source's, a reason, a note), and of each list
MAX_URL, MAX_TEXT, MAX_SOURCES, MAX_NOTES = 2000, 500, 30, 20

#: the site's fields that the proposal and the verdicts on its links depend on
SETTINGS = (
    "home_url",
    "section_urls",
    "feed_url",
    "include_patterns",
    "exclude_patterns",
    "articles_only",
    "sibling_hosts",
    "allow_private_addresses",
)


def settings_key(site: Site) -> str:
    """A digest of the site's settings that the preview depends on: changed, the stored preview is stale."""
    values = json.dumps([getattr(site, name) for name in SETTINGS], default=str)
    return hashlib.sha256(values.encode()).hexdigest()


def preview(site: Site, *, again: bool = False) -> tuple[Proposal, datetime]:
    """The site's sources preview and when it was found: the stored one while fresh (no request to the site),
    else (or ``again``) found now (services.find_sources) and stored."""
    key = settings_key(site)
    if not again:
        stored = SourcesPreview.objects.filter(
            site=site, settings_key=key, found_at__gt=timezone.now() - MAX_AGE
        ).first()
        if stored is not None:
            try:
                return from_json(stored.proposal), stored.found_at
            except (KeyError, TypeError, ValueError):  # a row of another version: found again
                pass
    try:
        proposal = services.find_sources(site)
    except Deferred as exc:  # the host asked to wait (Retry-After) longer than the preview may: nothing stored
        again_at = timezone.localtime() + timedelta(seconds=exc.delay)
        note = f"The site asked WIMS to wait (Retry-After): find its sources again after {again_at:%H:%M:%S}."
        return Proposal(site.home_url, notes=[note]), timezone.now()
    found_at = timezone.now()
    SourcesPreview.objects.update_or_create(
        site=site, defaults={"found_at": found_at, "settings_key": key, "proposal": to_json(proposal)}
    )
    return proposal, found_at


def _cut(text: str, limit: int = MAX_TEXT) -> str:
    return Truncator(text).chars(limit)


def _found(item: Found, links: int) -> dict:
    data = asdict(item)
    data.update(
        url=_cut(item.url, MAX_URL),
        reason=_cut(item.reason),
        summary=_cut(item.summary),
        error=_cut(item.error),
        links=[[_cut(v.url, MAX_URL), v.taken, _cut(v.reason)] for v in item.links[:links]],
    )
    return data


def to_json(proposal: Proposal) -> dict:
    """The proposal as JSON, at most MAX_BYTES: each text and list cut, then the links listed per source halved
    until it fits (the counts of links, ``total`` and ``taken``, stay whole)."""
    links = max([len(item.links) for item in [*proposal.sources, proposal.home] if item is not None] or [0])
    while True:
        data = {
            "home_url": _cut(proposal.home_url, MAX_URL),
            "sources": [_found(item, links) for item in proposal.sources[:MAX_SOURCES]],
            "home": _found(proposal.home, links) if proposal.home is not None else None,
            "notes": [_cut(note) for note in proposal.notes[:MAX_NOTES]],
            "private_refused": proposal.private_refused,
        }
        if links == 0 or len(json.dumps(data)) <= MAX_BYTES:
            return data
        links //= 2


def _found_from(data: dict) -> Found:
    links = [LinkVerdict(str(url), bool(taken), str(reason)) for url, taken, reason in data["links"]]
    return Found(**{**data, "links": links})


def from_json(data: dict) -> Proposal:
    home = data.get("home")
    return Proposal(
        data["home_url"],
        [_found_from(item) for item in data["sources"]],
        _found_from(home) if home else None,
        list(data["notes"]),
        bool(data.get("private_refused")),  # absent from a row stored before it was recorded
    )
