"""Headlines of the demo follow-ups: each site's house style, and no headline twice anywhere in the demo.

An hour-long live trial showed two faults of fixed title templates: the same few title shapes again and again,
and the same headline on two sites (two sites carry a story on the same topic, take the same angle and draw
the same town). So each site writes in a house style of its own, several headlines per angle:

- Health Watch Daily states the news (no question, no colon);
- The Clinic Courier asks the reader's question (every headline has a question mark);
- Wellbeing Times leads with a kicker and a colon (and asks nothing);
- The Morning Pulse adds who says it, or what follows, after a dash (no question, no colon).

Those marks alone keep the sites apart; :class:`Allotment` guarantees it. It gives every follow-up of the pool
its headline round by round (in each round the sites in order, each site's stories in publication order): one
that no follow-up or pool story has had before, in the shape of the angle its site used longest ago (an angle's
shapes take turns on a site instead of coming back at random), and in a town no other story on the topic is in
that round. The allotment depends on nothing but the pool, so a restart or another process gives every
follow-up the same headline. Measured over a week of ``make run`` (one article a minute a site, 30,192
follow-ups): no headline twice; the first comes back after 15 days (then the allotment repeats rather than fail).

A headline states only facts its follow-up's text states: the town, the topic's words (``{kind}`` is part of
``{subject}``, which every angle's lead names), the numbers ({n}: the angle's count, {pct}: its percentage).
When a follow-up's own town and count make no free headline, it moves to another town (or count), and its text
with it.
"""

from __future__ import annotations

import random
import threading
import zlib
from collections.abc import Callable, Iterable, Iterator

from .articles import Article

#: site -> angle -> headlines. Fields: {town}, {n}, {pct}, the topic's {subject} {service} {people} {expert}
#: {kind} (the word for the topic before a noun: "diabetes", "stop-smoking"), and their capitalised
#: {Subject} {Service} {People} {Expert} {Kind}. No month: the month is the publication's, unknown here.
HOUSE_STYLES: dict[str, dict[str, tuple[str, ...]]] = {
    "healthwatch": {
        "expansion": (
            "{town} to open {n} more {service} as demand grows",
            "{n} more {service} planned for {town} after referrals rise {pct}%",
            "Health board backs {n} new {service} for {town}",
            "{Service} to expand in {town} as referrals climb",
            "Rising demand brings {n} extra {service} to {town}",
            "Extra {service} on the way for {town} after busy year",
        ),
        "figures": (
            "{People} in {town} seen faster, new figures show",
            "{pct}% of {people} in {town} now seen within four weeks",
            "Waits shorten for {people} in {town} but gaps remain",
            "{n} practices in {town} hit the {kind} target every month",
            "Wide gaps between {town} practices in new {kind} figures",
            "Quicker care for {people} in {town}, but not everywhere",
        ),
        "questions": (
            "{Expert} in {town} answer readers' questions on {subject}",
            "{Expert} in {town} take readers' {kind} questions",
            "Readers put their {kind} questions to {expert} in {town}",
            "{town} {expert} on the {kind} questions readers asked most",
            "{n} readers ask about {subject}; {expert} in {town} answer",
            "What {n} readers asked {expert} in {town} about {subject}",
        ),
        "campaign": (
            "Campaign on {subject} reaches {town}",
            "{Kind} campaign comes to {town}",
            "{town} campaign takes {kind} advice to {n} venues",
            "Pharmacies and libraries in {town} join {kind} drive",
            "{Kind} advice on offer at {n} venues in {town}",
            "{town} signs up to {kind} campaign",
        ),
        "return": (
            "What has changed for {people} in {town} since our report",
            "{n} {people} in {town} see some change",
            "Uneven progress on {subject} in {town}, {n} tell us",
            "Promises on {subject} in {town} only partly kept",
            "We went back to {town} to see what changed in {subject}",
            "Some change, more to do on {subject} in {town}",
        ),
        "trial": (
            "Trial in {town} puts {kind} advice to the test",
            "{n} volunteers sought for {town} {kind} trial",
            "Researchers in {town} launch year-long {kind} trial",
            "{town} trial to test {kind} advice on {n} volunteers",
            "Year-long trial of {kind} advice begins in {town}",
            "{town} researchers seek volunteers to test {kind} advice",
        ),
    },
    "courier": {
        "expansion": (
            "Will {n} more {service} cut the wait in {town}?",
            "Why is {town} getting {n} more {service}?",
            "Can {n} new {service} keep up with demand in {town}?",
            "Will {town}'s new {service} cope with {pct}% more referrals?",
            "Waiting for {service} in {town}? {n} more are on the way",
            "More {service} for {town}, but is it enough?",
        ),
        "figures": (
            "Are {people} in {town} being seen faster?",
            "Is yours one of the {n} {town} practices hitting the {kind} target?",
            "Is your {town} practice keeping up on {subject}?",
            "Are things getting better for {people} in {town}?",
            "Seen within four weeks? {pct}% of {people} in {town} were",
            "Why do some {town} practices see {people} faster than others?",
        ),
        "questions": (
            "Got a question about {subject}? {Expert} in {town} answer yours",
            "{n} readers asked about {subject}. What did {expert} in {town} say?",
            "Questions about {subject}? We asked {expert} in {town}",
            "What do {expert} in {town} tell readers about {subject}?",
            "Which {kind} questions did {n} readers put to {expert} in {town}?",
            "How do you get {service} in {town}? {Expert} answer",
        ),
        "campaign": (
            "Will the {kind} campaign reach you in {town}?",
            "Heard about the {kind} campaign? It is coming to {town}",
            "Can {n} venues spread the {kind} message in {town}?",
            "Where can you find {kind} advice in {town}?",
            "What does the {kind} campaign mean for {people} in {town}?",
            "Will pharmacies and libraries get {town} talking about {subject}?",
        ),
        "return": (
            "Has anything changed for {people} in {town}?",
            "Is {subject} in {town} better than it was?",
            "Did the promises on {subject} in {town} come true?",
            "We went back to {town}. What has changed in {subject}?",
            "Are {people} in {town} better off? We asked {n}",
            "What happened next for {people} in {town}?",
        ),
        "trial": (
            "Could you help test {kind} advice in {town}?",
            "Does the {kind} advice work? {town} trial seeks {n} volunteers",
            "Want to join the {kind} trial in {town}?",
            "Can a year-long trial in {town} prove the {kind} advice works?",
            "Who can take part in the {town} {kind} trial?",
            "Will {n} volunteers in {town} settle the {kind} question?",
        ),
    },
    "wellbeing": {
        "expansion": (
            "{Kind}: {town} to get {n} more {service}",
            "Good news for {town}: more {service} on the way",
            "Waiting lists: {town} to add {n} {service}",
            "Demand grows: {n} new {service} for {town}",
            "Local care: {town} expands its {service}",
            "Referrals up {pct}%: {town} answers with more {service}",
        ),
        "figures": (
            "In numbers: {subject} in {town}",
            "By the figures: how fast {people} in {town} are seen",
            "{Subject} in {town}: the new figures",
            "The data: {pct}% of {people} in {town} seen within four weeks",
            "Hitting the target: {n} practices in {town} on {subject}",
            "Mind the gap: {kind} figures for {town}",
        ),
        "questions": (
            "Readers ask, {expert} in {town} answer: {subject}",
            "Ask the experts: {n} questions on {subject}",
            "Your questions: {subject}, with {expert} in {town}",
            "Postbag: {n} readers write in about {subject}",
            "Q&A: {expert} in {town} on {subject}",
            "You asked, {town} answered: {n} questions on {subject}",
        ),
        "campaign": (
            "{Kind}: the campaign comes to {town}",
            "On your doorstep: {kind} advice across {town}",
            "Campaign trail: {town} joins the push on {subject}",
            "Reaching out: {kind} advice at {n} venues in {town}",
            "Where to find it: {kind} advice in {town}",
            "Street level: {town}'s {kind} campaign",
        ),
        "return": (
            "{n} voices: {subject} in {town}",
            "Revisited: what changed for {people} in {town}",
            "Going back: {subject} in {town}, since our report",
            "Follow-up: {town}'s promises on {subject}",
            "Checking in: {people} in {town}, after our report",
            "Second look: {subject} in {town}",
        ),
        "trial": (
            "Put to the test: {kind} advice in {town}",
            "Volunteers wanted: {kind} trial in {town}",
            "Science: {town} trial tests {kind} advice",
            "One year, {n} volunteers: {town} tests {kind} advice",
            "Research: year-long {kind} trial begins in {town}",
            "Under study: {kind} advice in {town}",
        ),
    },
    "pulse": {
        "expansion": (
            "{n} more {service} for {town} – health board",
            "{town} health board backs {n} extra {service} – referrals up {pct}%",
            "More {service} coming to {town} – after referrals rise {pct}%",
            "{Service} to grow in {town} – {n} more planned",
            "Demand for {subject} up {pct}% in {town} – {n} more {service} agreed",
            "{town} answers rising demand – {n} new {service}",
        ),
        "figures": (
            "{town} {people} seen faster – new figures",
            "{pct}% seen within four weeks in {town} – the latest {kind} figures",
            "{n} {town} practices meet the {kind} target – figures",
            "Gaps remain between {town} practices – {kind} figures",
            "Quicker {kind} care in {town} – but not at every practice",
            "{People} in {town} wait less – a year of {kind} figures",
        ),
        "questions": (
            "{Expert} in {town} answer {n} readers – {subject}",
            "Your {kind} questions answered – {expert} in {town}",
            "{n} readers, one subject – {expert} in {town} on {subject}",
            "What readers asked about {subject} – answers from {town}",
            "{town} {expert} take on {kind} questions – {n} readers wrote in",
            "Readers' {kind} questions put to {town} {expert} – the answers",
        ),
        "campaign": (
            "{Kind} campaign arrives in {town} – {n} venues sign up",
            "{town} pharmacies and libraries back {kind} drive – organisers",
            "Advice on {subject} at {n} {town} venues – campaign starts",
            "{Kind} drive reaches {town} – what it offers",
            "{town} joins the {kind} campaign – {n} venues",
            "{Kind} advice comes to {town} – from pharmacies to sports clubs",
        ),
        "return": (
            "Back in {town} – what changed for {people}",
            "{n} {people} in {town} on what changed – our return visit",
            "Promises on {subject} in {town} – some kept, some not",
            "{town} revisited – progress on {subject} uneven",
            "What {n} {people} in {town} told us – {subject} since our report",
            "{Subject} in {town} since our report – a return visit",
        ),
        "trial": (
            "{town} trial to test {kind} advice – {n} volunteers sought",
            "Year-long {kind} trial starts in {town} – researchers",
            "Volunteers wanted in {town} – a trial of {kind} advice",
            "{n} volunteers for {kind} trial in {town} – recruitment open",
            "{town} researchers put {kind} advice to the test – a year-long trial",
            "{Kind} advice on trial in {town} – half will get extra support",
        ),
    },
}

#: the house style of a site that has none of its own (the scale benchmark's synthetic sites): one of the three
#: registered demo sites' (their templates), the same for the site on every run
_STYLE_NAMES = ("healthwatch", "courier", "wellbeing")

#: the numbers a headline's count may take when every town and shape of it is taken: a week's follow-ups and more
COUNTS = range(3, 41)


def house_style(site: str) -> dict[str, tuple[str, ...]]:
    return HOUSE_STYLES.get(site) or HOUSE_STYLES[_STYLE_NAMES[zlib.crc32(site.encode()) % len(_STYLE_NAMES)]]


def candidates(
    site: str, angle: str, seed: str, town: str, n: int, towns: tuple[str, ...], words: dict[str, str | int]
) -> Iterator[tuple[str, str, int, str]]:
    """(shape, town, n, headline) in the order a follow-up takes them: its own town and count in the site's
    shapes (in an order seeded by ``seed``), then the other towns, then other counts for the shapes that name one.
    ``words``: the other fields."""
    rng = random.Random(seed)
    shapes = list(house_style(site)[angle])
    rng.shuffle(shapes)
    others = [t for t in towns if t != town]
    rng.shuffle(others)
    for place in (town, *others):
        for shape in shapes:
            yield shape, place, n, shape.format(**words, town=place, n=n)
    counted = [shape for shape in shapes if "{n}" in shape]
    for count in (*COUNTS[COUNTS.index(n) + 1 :], *COUNTS[: COUNTS.index(n)]) if n in COUNTS else COUNTS:
        for place in (town, *others):
            for shape in counted:
                yield shape, place, count, shape.format(**words, town=place, n=count)


class Allotment:
    """Every follow-up's headline, allotted round by round over the whole pool (thread-safe: the demo server
    builds the sites' pages in threads of their own).

    ``offer(article, round_)`` gives a follow-up's candidates, as :func:`candidates`.
    """

    def __init__(
        self,
        pool: Iterable[Article],
        offer: Callable[[Article, int], Iterator[tuple[str, str, int, str]]],
    ):
        self.pool = tuple(pool)
        self.members = {(a.site, a.slug): a for a in self.pool}
        self.offer = offer
        self.given: dict[tuple[str, str, int], tuple[str, str, int, str]] = {}
        self.used = {a.title for a in self.pool}
        self.last_used: dict[str, dict[str, int]] = {}  # site -> shape -> when it last had it
        self.places: dict[str, set[str]] = {}  # topic -> the towns of its follow-ups in the round being allotted
        self.rounds = 0
        self.lock = threading.Lock()

    def headline(self, article: Article, round_: int) -> tuple[str, str, int, str] | None:
        """(shape, town, n, headline) of a pool story's ``round_``-th follow-up; None for a story not in the pool."""
        if self.members.get((article.site, article.slug)) != article:
            return None
        with self.lock:
            while self.rounds < round_:
                self.rounds += 1
                self.places = {}
                for story in self.pool:
                    self._allot(story, self.rounds)
            return self.given[(article.site, article.slug, round_)]

    def _allot(self, story: Article, round_: int) -> None:
        # two sites' stories on one topic in one town in one round would read as one story twice, with other
        # facts: a town already in the round's news on the topic is the last resort
        places = self.places.setdefault(story.topics[0], set())
        chosen = self._pick(story, round_, places) or self._pick(story, round_, set())
        if chosen is None:  # every headline of the angle taken (weeks of demo): repeat the first rather than fail
            chosen = next(self.offer(story, round_))
        self.used.add(chosen[3])
        places.add(chosen[1])
        self.last_used.setdefault(story.site, {})[chosen[0]] = len(self.given)
        self.given[(story.site, story.slug, round_)] = chosen

    def _pick(self, story: Article, round_: int, avoid: set[str]) -> tuple[str, str, int, str] | None:
        """The first free headline's town (not one to avoid), in the shape the site used longest ago."""
        last_used = self.last_used.get(story.site, {})
        chosen = None
        for shape, town, n, title in self.offer(story, round_):
            if title in self.used or town in avoid:
                continue
            if chosen is None:
                chosen = (shape, town, n, title)
            elif town != chosen[1]:
                break
            elif last_used.get(shape, -1) < last_used.get(chosen[0], -1):
                chosen = (shape, town, n, title)
        return chosen
