"""The demo follow-ups' dates: every day, week, month and year a follow-up's text names agrees with its own
publication date and its story's, as the page and the feed show them. A live demo read "We went back on Tuesday"
in a follow-up published on a Saturday, and kept the story's "opened this week" weeks later.

Plain pytest, no database, no server: the sites' timelines are :class:`demo.timeline.SiteState` on a made-up clock.
"""

from __future__ import annotations

import calendar
import re
from datetime import date, datetime, timedelta

import pytest

from demo import ARTICLES, SERVED_SITES
from demo.timeline import SiteState, timestamp

WEEKDAYS = list(calendar.day_name)
MONTHS = list(calendar.month_name)[1:]
WEEKDAY = re.compile(r"\b(" + "|".join(WEEKDAYS) + r")\b")
#: a weekday named as a rule, not as a day that was: "on the first Tuesday of March" is a date of its own
RULE = re.compile(r"\bthe first (?:" + "|".join(WEEKDAYS) + r") of (?:" + "|".join(MONTHS) + r")\b")
#: what the text quotes (a story's title, what someone said) is the quoted's words, dated when they were said
QUOTED = re.compile(r"“[^”]*”|\"[^\"]*\"")
POOL = {(a.site, a.slug) for a in ARTICLES}
#: (interval between publications, how long the demo runs): a minute for a day (as ``make run``), and hours for
#: months, across a month's and a year's end, so that follow-ups come days and weeks after their stories
SPANS = ((60.0, timedelta(days=1)), (5 * 3600.0, timedelta(days=75)), (11 * 3600.0, timedelta(days=120)))
START = datetime(2026, 11, 28, 9).timestamp()


def follow_ups(interval: float, span: timedelta) -> list[tuple]:
    """(follow-up, its publication, its story's publication) of every demo site over ``span``."""
    clock = [START]
    found = []
    for spec in SERVED_SITES:
        clock[0] = START
        state = SiteState(spec, interval, 4, lambda: clock[0])
        clock[0] += span.total_seconds()
        state.published()
        pool = len(spec.articles)
        for i in range(pool, len(state.times)):
            found.append((state.article_at(i), timestamp(state.times[i]), timestamp(state.times[i % pool])))
    return found


@pytest.fixture(scope="module", params=SPANS, ids=["minutes", "hours", "half-days"])
def published(request):
    return follow_ups(*request.param)


def parts(article) -> tuple[str, str]:
    """A follow-up's new text (title, standfirst, what comes before its Background) and its background."""
    new, background, seen = [article.title, article.standfirst], [], False
    for block in article.blocks:
        seen = seen or block.kind == "h2"  # the background's heading
        (background if seen else new).append(block.text)
    return " ".join(new), " ".join(background)


def days_between(first: date, last: date) -> list[date]:
    return [first + timedelta(days=k) for k in range((last - first).days + 1)]


def test_the_simulated_spans_cover_days_weeks_months_and_a_new_year():
    gaps = {(when.date() - since.date()).days for span in SPANS for _, when, since in follow_ups(*span)}
    assert {0, 1, 2, 3, 6, 7, 8, 30}.issubset(gaps) and max(gaps) > 60


def test_every_weekday_a_follow_up_names_is_a_day_between_its_story_and_itself(published):
    """A weekday is the day something happened after the story (a board's announcement, figures' release, our
    return visit): one of the last seven days, not before the story nor after the follow-up's publication."""
    wrong = []
    for article, when, since in published:
        new, _ = parts(article)
        text = RULE.sub("", QUOTED.sub("", new))
        possible = {
            d.strftime("%A") for d in days_between(max(since.date(), when.date() - timedelta(days=6)), when.date())
        }
        wrong += [
            (day, f"{when:%A %d %b}", f"{since:%A %d %b}", text) for day in WEEKDAY.findall(text) if day not in possible
        ]
        if re.search(r"\byesterday\b", text, re.IGNORECASE) and when.date() - timedelta(days=1) < since.date():
            wrong.append(("yesterday", f"{when:%A %d %b}", f"{since:%A %d %b}", text))
        monday = when.date() - timedelta(days=when.weekday())
        if "earlier this week" in text and max(monday, since.date()) > when.date() - timedelta(days=2):
            wrong.append(("earlier this week", f"{when:%A %d %b}", f"{since:%A %d %b}", text))
    assert wrong == [], (len(wrong), wrong[:3])


def referents(phrase: str, on: datetime) -> object:
    """What a relative phrase of the story means when read on ``on``: its week, month or year."""
    unit = phrase.split()[-1].lower()
    shift = {"this": 0, "next": 1, "last": -1}[phrase.split()[0].lower()]
    if unit == "week":
        return on.date() - timedelta(days=on.weekday() - 7 * shift)
    if unit == "month":
        month = on.year * 12 + on.month - 1 + shift
        return divmod(month, 12)
    if unit == "year":
        return on.year + shift
    # a season: the last one is last year's until it is over this year
    ends = {"spring": 5, "summer": 8, "autumn": 11, "winter": 2}[unit]
    return on.year - (on.month <= ends) if shift == -1 else (on.year, shift)


def test_the_background_keeps_the_story_s_relative_dates_only_while_they_hold(published):
    """The background quotes the story: its "this week", "next month", "last year" or "last spring" meant the
    story's week, month, year; in a follow-up they must mean the same then, or be said with the date."""
    relative = re.compile(r"\b(?:this|next|last) (?:week|month|year|spring|summer|autumn|winter)\b", re.IGNORECASE)
    wrong, checked = [], 0
    for article, when, since in published:
        _, background = parts(article)
        for phrase in relative.findall(QUOTED.sub("", background)):
            checked += 1
            if referents(phrase, when) != referents(phrase, since):
                wrong.append((phrase, f"{since:%d %b %Y}", f"{when:%d %b %Y}", background))
    assert checked > 0
    assert wrong == [], (len(wrong), wrong[:3])
