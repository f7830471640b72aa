"""The demo follow-ups' headlines (issue 30): varied, in each site's house style, never the same twice anywhere,
and saying what their text says. An hour-long live trial showed a dozen title shapes over and over, and the same
headline on two sites (two stories on one topic, one angle, one town).

Plain pytest, no database, no server: the sites' timelines are :class:`demo.timeline.SiteState` on a made-up clock.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from datetime import datetime
from pathlib import Path

import pytest

from demo import ARTICLES, SERVED_SITES
from demo.editions import KINDS, TOWNS, VOCABULARY, angle_of, edition
from demo.headlines import HOUSE_STYLES
from demo.timeline import SiteState

ROOT = Path(__file__).resolve().parents[2]
START = datetime(2026, 11, 28, 9).timestamp()
POOL = {(a.site, a.slug) for a in ARTICLES}
#: every topic phrase a headline may name, longest first (so "diabetes care" is one phrase, not "diabetes")
PHRASES = sorted({p for words in VOCABULARY.values() for p in words} | set(KINDS.values()), key=len, reverse=True)


def timelines(hours: float) -> dict[str, list]:
    """What each demo site has published after ``hours`` at one article a minute (as ``make run``), oldest first:
    the pool's first four back-dated, the rest of the pool, then follow-ups. All four sites: ``make run`` serves
    the one left to register too, and it publishes all along."""
    clock = [START]
    states = {spec.key: SiteState(spec, 60.0, 4, lambda: clock[0]) for spec in SERVED_SITES}
    clock[0] += hours * 3600
    return {key: [article for article, _ in reversed(state.published())] for key, state in states.items()}


def follow_ups(published: list) -> list:
    return [a for a in published if (a.site, a.slug) not in POOL]


def shape(title: str) -> str:
    """A headline with its town, numbers and topic words taken out: what a reader sees repeat."""
    title = re.sub(r"\d+", "N", title)
    for town in TOWNS:
        title = title.replace(town, "T")
    for phrase in PHRASES:
        title = re.sub(re.escape(phrase), "W", title, flags=re.IGNORECASE)
    return title


@pytest.fixture(scope="module")
def day():
    return timelines(24)


def test_no_headline_twice_on_any_site_in_a_day_of_demo(day):
    """Before: 261 headlines of 12 hours' follow-ups were on two sites, and 372 came back."""
    titles = Counter(article.title for published in day.values() for article in published)
    assert sum(len(published) for published in day.values()) == len(SERVED_SITES) * (24 * 60 + 4)
    assert [title for title, times in titles.items() if times > 1] == []


def test_follow_up_headlines_vary_within_the_hour(day):
    """Before: 12 shapes in all, the same on every site ("Your questions on {subject}, answered")."""
    hour = {key: follow_ups(published[: 60 + 4]) for key, published in day.items()}
    assert all(len(articles) >= 40 for articles in hour.values())
    for key, articles in hour.items():
        shapes = [shape(a.title) for a in articles]
        assert len(set(shapes)) >= 25, (key, Counter(shapes).most_common(3))
        # a shape does not come back within a pool's worth of the site's publications (a newsroom's variety)
        for i in range(len(shapes)):
            assert shapes[i] not in shapes[max(0, i - 12) : i], (key, i, shapes[i])
    everywhere = [a.title for articles in hour.values() for a in articles]
    assert len({title.split()[0] for title in everywhere}) >= 40
    assert len({shape(title) for title in everywhere}) >= 75


def test_each_site_writes_in_its_own_house_style(day):
    """Health Watch states the news, the Courier asks the reader's question, Wellbeing leads with a kicker, the
    Morning Pulse (the site left to register) adds who says it after a dash."""
    marks = {
        "healthwatch": lambda t: "?" not in t and ":" not in t and "–" not in t,
        "courier": lambda t: "?" in t,
        "wellbeing": lambda t: ": " in t and "?" not in t,
        "pulse": lambda t: " – " in t and "?" not in t and ":" not in t,
    }
    assert set(marks) == set(HOUSE_STYLES) == {spec.key for spec in SERVED_SITES}
    for key, published in day.items():
        for article in follow_ups(published):
            assert marks[key](article.title), (key, article.title)


def test_a_headline_says_what_its_follow_up_says(day):
    """The town, the numbers and the topic words of a headline are the text's own, in its standfirst and first
    paragraphs: a headline moved to another town to stay unique moves its story there too."""
    for published in day.values():
        for article in follow_ups(published):
            new = " ".join([article.standfirst, *(b.text for b in article.blocks[:2])])
            title = article.title
            assert KINDS[article.topics[0]] in new.lower(), title
            for town in TOWNS:
                assert (town in title) <= (town in new), (title, new)
            for number in re.findall(r"\d+", title):
                assert re.search(rf"\b{number}\b", new), (title, new)
            rest = title.lower()
            for phrase in PHRASES:
                if phrase in rest:
                    assert phrase in new.lower(), (phrase, title, new)
                    rest = rest.replace(phrase, "")


def test_headlines_are_the_same_in_another_process():
    """The allotment depends on the pool alone: a restarted demo server, asked first for a late follow-up, gives
    it the headline this process does."""
    picks = [(i, 7) for i in range(0, len(ARTICLES), 5)]
    code = (
        "from demo import ARTICLES; from demo.editions import edition\n"
        f"for i, r in {picks!r}: print(edition(ARTICLES[i], r).title)"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == [edition(ARTICLES[i], r).title for i, r in picks]


def test_readers_questions_follow_ups_put_a_question_and_answer_it():
    """A live trial read "Your questions on dementia care, answered" with no question in it."""
    answered = [
        edition(article, round_)
        for article in ARTICLES
        for round_ in range(1, 13)
        if angle_of(article, round_) == "questions"
    ]
    assert len(answered) >= len(ARTICLES)
    for article in answered:
        text = " ".join(b.text for b in article.blocks[:2])
        assert re.search(r"\w\? ", text), text


#: a claim of time elapsed since the followed story: "23 weeks after", "weeks on", "16 minutes ago" (not "a year
#: ago", which the figures angle compares with)
ELAPSED = re.compile(r"\b(?:(\d+|an?) )?(minute|hour|day|week)s? (after|ago|on|later)\b")
UNITS = {"minute": 60, "hour": 3600, "day": 86400, "week": 7 * 86400}


def test_what_a_follow_up_says_of_the_time_since_its_story_is_what_the_dates_say():
    """A live trial read "23 weeks after" our report in a follow-up of a story published minutes before it: a
    follow-up that says how long ago its story was says it from the two publication dates."""
    clock = [START]
    states = {spec.key: SiteState(spec, 60.0, 4, lambda: clock[0]) for spec in SERVED_SITES}
    clock[0] += 4 * 3600  # pool stories 3 hours apart, then a minute apart, then follow-ups, minutes to hours on
    claims = []
    for state in states.values():
        published = list(reversed(state.published()))
        when = {article.slug: t for article, t in published}
        for article, t in published:
            if (article.site, article.slug) in POOL:
                continue
            story = article.slug.rsplit("-", 1)[0]
            elapsed = (t - when[story]).total_seconds()
            # its own words: the background after them quotes the story ("followed by hours on the sofa")
            text = " ".join([article.title, article.standfirst, *(b.text for b in article.blocks[:2])])
            for count, unit, _ in ELAPSED.findall(text):
                claims.append((article.title, count, unit, elapsed))
    assert len(claims) >= 20, claims  # the angles that say it were published
    for title, count, unit, elapsed in claims:
        assert count, (title, unit)  # a number, not "weeks after": how many weeks?
        said = 1 if count in ("a", "an") else int(count)
        assert said == int(elapsed // UNITS[unit]) and said >= 1, (title, count, unit, elapsed)
