"""The dates a follow-up's text names, from its own publication date and its story's (both as the page and the feed
show them, in UTC): the day something happened since the story ("said yesterday", "released on Monday"), and the
story's own relative dates ("this week", "next month") retold in its background once they no longer hold.

A live demo read "We went back on Tuesday" in a follow-up published on a Saturday (the weekday was drawn at
random), and a background's "opened this week" weeks after the story."""

from __future__ import annotations

import random
import re
from datetime import date, datetime, timedelta

#: how far back a weekday still names a day: within a week "on Monday" is the last Monday, no other
WEEK = 7
#: what a text quotes (a story's title, what someone said) stays as it was said
_QUOTED = re.compile(r"(“[^”]*”|\"[^\"]*\")")
_SEASON_ENDS = {"spring": 5, "summer": 8, "autumn": 11, "winter": 2}  # the month each season ends in
_RELATIVE = re.compile(
    r"\b(?P<pre>(?:from|with) )?(?P<when>this|next|last) (?P<unit>week|month|year|spring|summer|autumn|winter)"
    r"(?P<own>'s)?\b",
    re.IGNORECASE,
)


def event_day(seed: str, published: datetime | None, since: datetime | None) -> date | None:
    """The day a follow-up's news happened (drawn with ``seed``): after its story, on or before its publication,
    within a week of it; ``None`` without a publication date."""
    if published is None:
        return None
    last = published.date()
    first = max(last - timedelta(days=WEEK - 1), since.date() if since else last)
    first = min(first, last)
    return first + timedelta(days=random.Random(seed).randint(0, (last - first).days))


def on_day(seed: str, day: date | None, published: datetime | None) -> str:
    """How a text published on ``published`` names ``day`` (one of the week before it), in one of the ways that
    fit it (drawn with ``seed``: the wording varies as the drawn weekday did, so that follow-ups stay apart):
    "today", "on Saturday" or "on Saturday 28 November" that day, "yesterday" (…) the day before, "on Monday"
    or "earlier this week" within the week;
    "this week", "recently" without the dates."""
    if day is None or published is None:
        ways = ["this week", "recently", "in recent days"]
    else:
        ways = [f"on {day:%A}", f"on {day:%A} {day.day} {day:%B}"]
        days = (published.date() - day).days
        if days < 2:
            ways.append(("today", "yesterday")[days])
        elif day.isocalendar()[:2] == published.date().isocalendar()[:2]:
            ways.append("earlier this week")
    return random.Random(seed).choice(ways)


def _meaning(when: str, unit: str, on: date) -> object:
    """What ``when unit`` ("next month") means on ``on``: its week's Monday, (year, month), year or season's year."""
    shift = {"this": 0, "next": 1, "last": -1}[when]
    if unit == "week":
        return on - timedelta(days=on.weekday() - WEEK * shift)
    if unit == "month":
        return divmod(on.year * 12 + on.month - 1 + shift, 12)
    if unit == "year":
        return on.year + shift
    # a season: this one is the year's, the last one is last year's until this year's is over
    return on.year - (on.month <= _SEASON_ENDS[unit]) if shift == -1 else on.year + shift


def _dated(match: re.Match, since: date, published: date) -> str:
    """The story's ``this week`` (…) as read on ``published``: the same words while they mean the same, else the
    date they meant on ``since`` ("in the week of 23 November", "from December", "in 2025", "in spring 2026")."""
    when, unit = match["when"].lower(), match["unit"].lower()
    meant = _meaning(when, unit, since)
    if meant == _meaning(when, unit, published):
        return match[0]
    pre, own = match["pre"] or "", match["own"] or ""
    if unit == "week":
        name = f"the week of {meant.day} {meant:%B}"
    elif unit == "month":
        name = datetime(meant[0], meant[1] + 1, 1).strftime("%B")
    elif unit == "year":
        name = str(meant)
    else:
        name = f"{unit} {meant}"
    if own:  # "this year's vaccine": "the 2026 vaccine"
        text = f"the {name}"
    elif pre:  # "from next month": "from December", "compared with last year": "compared with 2025"
        text = f"{pre}{name}"
    else:
        text = f"in {name}"
    return text[0].upper() + text[1:] if match[0][0].isupper() else text


def retell(text: str, since: datetime | None, published: datetime | None) -> str:
    """The story's text (published ``since``) as a follow-up published ``published`` quotes it: its relative dates
    that no longer mean what they meant are given as dates; what it quotes stays as said."""
    if since is None or published is None:
        return text
    parts = _QUOTED.split(text)
    for i in range(0, len(parts), 2):
        parts[i] = _RELATIVE.sub(lambda m: _dated(m, since.date(), published.date()), parts[i])
    return "".join(parts)
