"""When a digest goes out: the next daily or weekly time of day in the subscriber's time zone (pure: no Django).

Times are computed on the wall clock of the zone, then turned into UTC, so "08:00 Europe/Berlin" stays 08:00
in Berlin across daylight-saving changes. A wall time that does not exist on a spring-forward day (02:30 in
Berlin) is taken with the offset before the change (zoneinfo's fold=0), i.e. an hour later on the clock.
"""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

__all__ = ["DAILY", "WEEKLY", "IMMEDIATE", "next_send_at", "is_time_zone"]

IMMEDIATE, DAILY, WEEKLY = "immediate", "daily", "weekly"


def is_time_zone(name: str) -> bool:
    """A zoneinfo key such as "Europe/Berlin" (not a file path, not an abbreviation like "CEST")."""
    if not name or name not in available_timezones():
        return False
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True


def next_send_at(after: datetime, frequency: str, at: time, weekday: int, zone: str) -> datetime | None:
    """The first digest time strictly after ``after`` (aware), in UTC; None for immediate alerts.

    ``weekday``: Monday 0 … Sunday 6, used by weekly digests only.
    """
    if frequency == IMMEDIATE:
        return None
    if frequency not in (DAILY, WEEKLY):
        raise ValueError(f"unknown frequency {frequency!r}")
    if after.tzinfo is None:
        raise ValueError("after must be an aware datetime")
    tz = ZoneInfo(zone)
    local = after.astimezone(tz)
    day = local.date()
    # at most 8 candidate days: today and the next seven cover every weekday
    for offset in range(9):
        candidate_day = day + timedelta(days=offset)
        if frequency == WEEKLY and candidate_day.weekday() != weekday:
            continue
        candidate = datetime.combine(candidate_day, at.replace(tzinfo=None), tzinfo=tz)
        utc = candidate.astimezone(UTC)
        if utc > after.astimezone(UTC):
            return utc
    raise AssertionError("unreachable: a week always holds the weekday")  # pragma: no cover
