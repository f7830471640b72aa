"""Later editions of the demo sites: follow-ups of their own stories, once a site has published its pool.

A demo site runs out of pool articles after 16 minutes; from then on it publishes follow-ups. A follow-up is
a real follow-up of one story, as a newsroom writes it: the same topic, new facts (a service opening in a
named town, new figures, readers' questions put to an expert...), and a short background drawn from the
story it follows. It names that story, so the demo reads as news for as long as it runs and classifying a
follow-up means what classifying the story meant.

The text must be new, not the story's with a changed line: WIMS rightly marks a story whose text is nearly
the same (resemblance of word 3-shingles >= 0.5) as a re-publication. So the background reuses at most a
quarter of the story's words, every sentence of the new part has several wordings, drawn (seeded by slug
and round) with the town, the figures and the month, and each round takes the next angle and background
paragraph, so that the same story's follow-ups differ from each other too. Consecutive stories of a site take
consecutive angles, and its headline is its site's, never one any site had before (:mod:`demo.headlines`).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import datetime

from .articles import ARTICLES, Article, Block, articles_for_site
from .dating import event_day, on_day, retell
from .headlines import Allotment, candidates

#: topic -> (subject, service, people, expert): the words a follow-up of a story on that topic is written in
VOCABULARY: dict[str, tuple[str, str, str, str]] = {
    "diabetes": ("diabetes care", "diabetes clinics", "people with diabetes", "diabetes nurses"),
    "asthma": ("asthma care", "asthma review clinics", "people with asthma", "respiratory nurses"),
    "obesity": ("weight management", "weight management programmes", "adults living with obesity", "dietitians"),
    "mental-health": (
        "mental health support",
        "talking therapy services",
        "people on therapy waiting lists",
        "psychologists",
    ),
    "vaccines": ("vaccination", "vaccination clinics", "people eligible for vaccines", "immunisation nurses"),
    "pregnancy": ("maternity care", "antenatal classes", "pregnant women", "midwives"),
    "sleep": ("sleep health", "sleep clinics", "people with insomnia", "sleep specialists"),
    "heart": ("heart health", "cardiac rehabilitation classes", "heart patients", "cardiologists"),
    "flu": ("flu protection", "flu vaccine clinics", "people at risk from flu", "practice nurses"),
    "nutrition": ("healthy eating", "community cooking courses", "families on low incomes", "nutritionists"),
    "exercise": ("physical activity", "exercise referral schemes", "inactive adults", "physiotherapists"),
    "allergies": ("allergy care", "allergy clinics", "people with severe allergies", "allergy specialists"),
    "dementia": ("dementia care", "memory clinics", "people living with dementia", "dementia advisers"),
    "cancer": ("cancer screening", "screening clinics", "people invited for screening", "cancer specialists"),
    "smoking": ("stop-smoking support", "stop-smoking services", "smokers trying to quit", "stop-smoking advisers"),
    "child-health": ("children's health", "child health clinics", "young children", "health visitors"),
}

TOWNS = (
    "Riverside", "Northgate", "Millbrook", "Eastfield", "Harbourside", "Westmere", "Oakley", "Southbridge",
    "Kingsford", "Ashworth", "Brookvale", "Elmstead", "Fairhaven", "Greystone", "Larkhill", "Thornbury",
)  # fmt: skip
MONTHS = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")

#: the topic's word before a noun in a headline ("diabetes trial", "stop-smoking campaign"): part of its subject,
#: which every angle's lead names, so a headline's topic is one its text names
KINDS: dict[str, str] = {
    "diabetes": "diabetes", "asthma": "asthma", "obesity": "weight management", "mental-health": "mental health",
    "vaccines": "vaccination", "pregnancy": "maternity", "sleep": "sleep", "heart": "heart health", "flu": "flu",
    "nutrition": "healthy eating", "exercise": "physical activity", "allergies": "allergy", "dementia": "dementia",
    "cancer": "cancer screening", "smoking": "stop-smoking", "child-health": "children's health",
}  # fmt: skip
if any(KINDS[topic] not in words[0] for topic, words in VOCABULARY.items()):
    raise RuntimeError("a topic's headline word must be part of its subject")

#: Each angle (its headlines: :mod:`demo.headlines`): a standfirst and the new part's paragraphs; every slot lists
#: its wordings. Fields: {subject} {service} {people} {expert} (the topic's words, {Expert} capitalised), {town}
#: {n} {pct} {pct0} {sessions} {helpers} {towns} (numbers of facts of their own) {month} (the month the follow-up
#: is published in: "this {month}", "from {month}"), {soon} (a month or two after it: "open by {soon}"), {later}
#: (after that: what is reviewed or reported next), {day} (the day the news came, between the story and the
#: follow-up: "today", "yesterday", "on Monday"; :mod:`demo.dating`), {weekday} (a drawn one, only for what recurs or
#: is to come: "Saturdays included", "the first Tuesday of May"), {story} (the followed story's title), {ago} (how
#: long before the follow-up that story was published, from the two dates: "16 minutes ago"; :func:`ago`). Both
#: wordings of a lead state what the angle's headlines may say: the town, the subject, the count {n} and {pct}.
ANGLES: dict[str, dict[str, tuple[str, ...]]] = {
    "expansion": {
        "standfirst": (
            "Referrals rose by {pct} per cent in a year, health leaders in {town} said {day}.",
            "The new places should be open by {soon}, the local health board says.",
        ),
        "lead": (
            "The health board in {town} has agreed to open {n} more {service} by {soon}, after referrals for "
            "{subject} rose by {pct} per cent over the past year.",
            "{town} is to get {n} more {service} by {soon}, its health board announced {day}, after "
            "referrals for {subject} rose by {pct} per cent and waiting times grew for a second year.",
        ),
        "follow": (
            "The plan follows our report “{story}”, which readers shared widely.",
            "Our earlier report, “{story}”, prompted questions from councillors about local provision.",
        ),
        "voice": (
            '{Expert} welcomed the news but said staff, not buildings, were the hard part. "We need people to run '
            'them," one told us.',
            '"It is a start," said one of the {expert} who will work there, adding that {people} should not wait '
            "for the new places before asking for help.",
        ),
    },
    "figures": {
        "standfirst": (
            "{pct} per cent of {people} were seen within four weeks, up from {pct0} per cent a year earlier.",
            "The numbers, published {day}, show slow progress and wide gaps between practices.",
        ),
        "lead": (
            "Figures on {subject} published {day} show that {pct} per cent of {people} in {town} were seen "
            "within four weeks last quarter, compared with {pct0} per cent a year earlier; {n} practices met that "
            "target in every month.",
            "{people_cap} in {town} are being seen faster than a year ago: {pct} per cent within four weeks last "
            "quarter against {pct0} per cent, according to figures on {subject} released {day}. {n} "
            "practices met the target in every month.",
        ),
        "follow": (
            "The best practices did twice as well as the worst, a gap that {expert} say has more to do with staffing "
            "than with demand.",
            "Behind the average lie wide differences: some practices missed the target in every month.",
        ),
        "voice": (
            "The figures follow our report “{story}”, published {ago}. {Expert} said the trend was encouraging but "
            "fragile.",
            "We asked {expert} what the numbers mean for patients after our report “{story}”: better, they said, "
            "but not yet good enough.",
        ),
    },
    "questions": {
        "standfirst": (
            "After our report “{story}”, readers sent us {n} questions. We put the most common to {expert}.",
            "{n} readers wrote in after our report. Here is what {expert} told us.",
        ),
        "lead": (
            "Our report “{story}” brought {n} letters and e-mails about {subject}, many of them from {people} or "
            "their families.",
            "We received {n} questions about {subject} after “{story}” was published, more than for any story "
            "this {month}.",
        ),
        "follow": (
            "We asked {expert} in {town} to answer the ones that came up most often.",
            "{Expert} at a {town} practice agreed to take the most common of them.",
        ),
        "voice": (
            'Can I ask for {service} myself, or must my doctor refer me? "Ask your practice first," one said: '
            '"most can refer you directly, and nobody should feel they are wasting our time."',
            "How long is the wait for {service} in {town}? A few weeks at most, they said; ask early, "
            "bring a list of questions, and ask again if the answer is unclear.",
        ),
    },
    "campaign": {
        "standfirst": (
            "Pharmacies, libraries and sports clubs in {town} will carry the campaign's advice from {month}.",
            "Organisers have signed up {n} venues and hope to reach every household before the end of {month}.",
        ),
        "lead": (
            "A campaign on {subject} is coming to {town} from {month}, with advice for {people} at {n} pharmacies, "
            "libraries and sports clubs.",
            "From {month}, a campaign on {subject} for {people} will run at {n} venues across {town}, from "
            "pharmacies to sports clubs.",
        ),
        "follow": (
            "It builds on the findings we reported in “{story}”.",
            "Its leaflets quote the work we reported in “{story}”.",
        ),
        "voice": (
            "{Expert} will run {sessions} drop-in sessions, with no appointment needed.",
            "Volunteers trained by {expert} will staff stalls on market days, {weekday}s included.",
        ),
    },
    "return": {
        "standfirst": (
            "We went back to {town} to see what has changed since our report.",
            "Some promises were kept, {expert} say; others are still on paper.",
        ),
        "lead": (
            "When we reported “{story}” {ago}, {expert} in {town} hoped for quick improvements in {subject} for "
            "{people}. We went back {day} and asked {n} of them what has happened since.",
            "Since we reported “{story}” {ago}, we have returned to {town} and asked {n} {people} what has changed "
            "in {subject}.",
        ),
        "follow": (
            "Some things have moved: {sessions} extra sessions a week, and a phone line that is answered within a day.",
            "Progress is uneven: waits are down by {pct} per cent at one practice and unchanged at another.",
        ),
        "voice": (
            '"People notice when it gets easier to be seen," said one of the {expert}. "They also notice when it '
            'does not."',
            "{Expert} told us the next test comes in {soon}, when the extra funding is reviewed.",
        ),
    },
    "trial": {
        "standfirst": (
            "{n} volunteers will be followed for a year, researchers said {day}.",
            "Results are expected next {month}, the research team says.",
        ),
        "lead": (
            "Researchers in {town} are recruiting {n} volunteers for a year-long trial of the {kind} advice we "
            "described in “{story}”.",
            "A year-long trial starting in {town} this {month} will test the {kind} advice from our report "
            "“{story}” on {n} volunteers.",
        ),
        "follow": (
            "Half will get the usual care and half extra support from {expert}.",
            "Volunteers will be split into two groups at random, one of them with extra support from {expert}.",
        ),
        "voice": (
            '"We think it works, but we want to know how well and for whom," the lead researcher said.',
            "{people_cap} who want to take part can ask at their practice until the end of {month}.",
        ),
    },
}

#: the closing line of a follow-up's new part, drawn per round: what readers can do or what comes next
CLOSINGS = (
    "The health board will publish its next figures in {later}, and we will report them.",
    "Readers in {town} can find the times of local sessions on the council's website or at their library.",
    "A public meeting on the plans is due in {town} on the first {weekday} of {later}.",
    "Councillors in {town} will review the scheme in {later}, when its first results are known.",
    "{people_cap} with questions can call their practice, which can refer them directly.",
    "The local charity that campaigned for the change said {helpers} volunteers had already signed up to help.",
    "The next update is expected in {later}; {expert} say they will share what they learn.",
    "We will follow the story and report back; readers can write to us with their own experience.",
    "Similar schemes in {towns} other towns are due to report by {later}.",
    "Funding is agreed for a year; whether it continues depends on the results, officials said.",
)

#: the heading above a follow-up's background, drawn per round: one heading on every follow-up is what a site's
#: furniture looks like, and WIMS's learned site profile removed it as such from every follow-up's text
BACKGROUND_HEADINGS = ("Background", "The story so far", "What we reported", "From our first report")

#: the closings that speak of what only some angles have (plans, a scheme, a change, its funding), and those angles:
#: a readers' questions follow-up closed "A public meeting on the plans is due" with no plans in it
_SCHEMES = frozenset({"expansion", "campaign", "return"})
CLOSING_ANGLES = {CLOSINGS[2]: _SCHEMES, CLOSINGS[3]: _SCHEMES, CLOSINGS[5]: _SCHEMES, CLOSINGS[8]: _SCHEMES}
CLOSING_ANGLES[CLOSINGS[9]] = _SCHEMES | {"trial"}
#: what the other angles close with instead (one each: as many closings as before, so follow-ups stay apart)
CLOSINGS_INSTEAD = {
    CLOSINGS[2]: "{Expert} will answer more questions at a public meeting in {town} on the first {weekday} of {later}.",
    CLOSINGS[3]: "Councillors in {town} will discuss {subject} in {later}, and readers can send them questions.",
    CLOSINGS[5]: "A local charity said {helpers} volunteers had offered to help {people} find their way to {service}.",
    CLOSINGS[8]: "Figures for {towns} other towns are due by {later}, and we will compare them.",
    CLOSINGS[9]: "Officials said the next budget for {service} would take readers' experience into account.",
}

SLOTS = ("standfirst", "lead", "follow", "voice")
#: which of its two wordings each slot takes on the angle's 1st, 2nd, 3rd and 4th lap: with a headline of its own
#: (:mod:`demo.headlines`), an angle's follow-ups of one story share well under half their text for 24 rounds
LAP_WORDINGS = ((0, 0, 0, 0), (1, 1, 0, 0), (0, 1, 1, 1), (1, 0, 1, 1))

#: the background reuses at most this share of the followed story's words (the rest of the text is new)
BACKGROUND_SHARE = 0.2


@dataclass(frozen=True)
class Draws:
    """What a follow-up draws (seeded by slug and round): its angle and lap, and the facts it starts from."""

    angle: str
    lap: int
    town: str
    n: int
    pct: int
    pct0: int
    month: str  # drawn even when the publication names the month: the later draws stay as they were
    weekday: str
    closing: str


#: where a site's pool starts in the angles' turn: the sites' stories on one topic (Health Watch's and the Courier's
#: first six share theirs) then take different angles in a round, but for two of the 48 stories' pairs; the Morning
#: Pulse's 4: from 0 to 3 one of its follow-ups read as a near-duplicate of another site's, on the same topic in the
#: same angle (twenty rounds of the pool, tests/monitor/test_demo_sites.py)
SITE_TURNS = {"healthwatch": 0, "courier": 3, "wellbeing": 3, "pulse": 4}
#: a pool story's place in the angles' turn: consecutive stories take consecutive angles, so that a site's
#: follow-ups (published in pool order) take every angle in turn
_PLACES = {
    (a.site, a.slug): SITE_TURNS.get(site, 0) + i
    for site in {a.site for a in ARTICLES}
    for i, a in enumerate(articles_for_site(site))
}


def _place(article: Article) -> int:
    return _PLACES.get((article.site, article.slug), len(article.slug))


@functools.lru_cache(maxsize=4096)  # the headline allotment asks for every candidate headline
def draws(article: Article, round_: int) -> Draws:
    rng = random.Random(f"{article.slug}/{round_}")
    # the angles come back every len(ANGLES) rounds: the lap gives them another background paragraph (and, after
    # the last paragraph, the next angle) and the other wording of every sentence
    lap = (round_ - 1) // len(ANGLES)
    paragraphs = sum(b.kind == "p" for b in article.blocks)
    angle = tuple(ANGLES)[(round_ - 1 + _place(article) + lap // paragraphs) % len(ANGLES)]
    pct0 = rng.randint(35, 70)
    town = rng.choice(TOWNS)
    n, pct = rng.randint(3, 40), pct0 + rng.randint(4, 20)
    month, weekday = rng.choice(MONTHS), rng.choice(WEEKDAYS)
    return Draws(angle, lap, town, n, pct, pct0, month, weekday, rng.choice(CLOSINGS))


def _words(article: Article, drawn: Draws) -> dict[str, str | int]:
    """The fields a headline may use besides its town and count: the topic's words and the percentages."""
    subject, service, people, expert = VOCABULARY[article.topics[0]]
    kind = KINDS[article.topics[0]]
    named = {"subject": subject, "service": service, "people": people, "expert": expert, "kind": kind}
    return {
        **named,
        **{key[0].upper() + key[1:]: text[0].upper() + text[1:] for key, text in named.items()},
        "subject_cap": subject[0].upper() + subject[1:],
        "people_cap": people[0].upper() + people[1:],
        "pct": drawn.pct,
        "pct0": drawn.pct0,
    }


def _candidates(article: Article, round_: int) -> Iterator[tuple[str, str, int, str]]:
    drawn = draws(article, round_)
    seed = f"{article.site}/{article.slug}/{round_}"
    return candidates(article.site, drawn.angle, seed, drawn.town, drawn.n, TOWNS, _words(article, drawn))


#: every pool story's follow-up headlines, none of them twice on any site
HEADLINES = Allotment(ARTICLES, _candidates)


def angle_of(article: Article, round_: int) -> str:
    """The angle of a story's ``round_``-th follow-up: a key of :data:`ANGLES`."""
    return draws(article, round_).angle


#: (unit, seconds) from the largest: a follow-up says its story's age in the largest unit that fits it once
_UNITS = (("week", 7 * 86400), ("day", 86400), ("hour", 3600), ("minute", 60))


def ago(published: datetime | None, since: datetime | None) -> str:
    """How long before ``published`` (a follow-up) ``since`` (its story) was: "16 minutes ago", "an hour ago",
    "3 weeks ago", counted down, never more than the dates say (a trial read "23 weeks after" a story published
    minutes before); "recently" without both dates."""
    if published is None or since is None:
        return "recently"
    seconds = max(0.0, (published - since).total_seconds())
    for unit, length in _UNITS:
        if seconds >= length or unit == "minute":
            count = max(1, int(seconds // length))
            if count == 1:
                return f"{'an' if unit == 'hour' else 'a'} {unit} ago"
            return f"{count} {unit}s ago"
    raise AssertionError("unreachable: the minute always fits")


def edition(article: Article, round_: int, published: datetime | None = None, since: datetime | None = None) -> Article:
    """The ``round_``-th follow-up of a pool story: its own URL, title and text (round 0: the story itself).
    ``published``: when it is published, whose month it names as this month (a trial read "this September" in
    November); without it, a month drawn like the other facts. ``since``: when the story was published, for
    what the follow-up says of the time between them ({ago}), the day its news came ({day}) and the story's own
    "this week" or "next month" quoted in its background (:mod:`demo.dating`)."""
    if round_ == 0:
        return article
    drawn = draws(article, round_)
    # the headline's town and count are the text's: the allotment may move a follow-up to another town (or count)
    # when its own makes a headline some site already carried
    allotted = HEADLINES.headline(article, round_)
    if allotted is None:  # not a pool story (a synthetic site's): its first headline, unique or not
        allotted = next(_candidates(article, round_))
    _shape, town, n, title = allotted
    # one number per fact: households, sessions, volunteers and towns are counted apart (one {n} for all of them
    # read "reach 23 households ... 23 drop-in sessions ... 23 volunteers"); drawn apart, so that the other
    # fields (and how far apart two stories read) stay as they were
    facts = random.Random(f"{article.slug}/{round_}/facts")
    month = MONTHS[published.month - 1] if published else drawn.month
    fields = {
        **_words(article, drawn),
        "town": town,
        "n": n,
        "month": month,
        # what is due soon comes after this month, and what is reviewed or reported next after that
        "soon": MONTHS[(MONTHS.index(month) + (soon := facts.randint(1, 2))) % len(MONTHS)],
        "later": MONTHS[(MONTHS.index(month) + soon + facts.randint(1, 2)) % len(MONTHS)],
        "weekday": drawn.weekday,
        # drawn apart too, so that the other draws stay as they were
        "day": on_day(
            f"{article.slug}/{round_}/says", event_day(f"{article.slug}/{round_}/day", published, since), published
        ),
        # quoted in “…”: the title's own quotes become single ones (“Pollen counts to hit ‘very high’ …”)
        "story": article.title.replace("“", "‘").replace("”", "’"),
        "ago": ago(published, since),
    }
    others = facts.sample([k for k in range(3, 41) if k != n], 3)
    fields.update(zip(("sessions", "helpers", "towns"), others, strict=True))
    angle = ANGLES[drawn.angle]

    def write(slot: str) -> str:
        first = random.Random(f"{article.slug}/{slot}").randrange(2)
        flip = LAP_WORDINGS[drawn.lap % len(LAP_WORDINGS)][SLOTS.index(slot)]
        return angle[slot][first ^ flip].format(**fields)

    new = [
        Block("p", f"{write('lead')} {write('follow')}"),
        Block("p", f"{write('voice')} {_closing(drawn).format(**fields)}"),
    ]
    paragraphs = [b for b in article.blocks if b.kind == "p"]
    # the story's "this week" or "next month" said when it was published: dated once the follow-up is later
    background = [
        replace(b, text=retell(b.text, since, published)) for b in _background(article, paragraphs, drawn.lap)
    ]
    heading = random.Random(f"{article.slug}/{round_}/heading").choice(BACKGROUND_HEADINGS)
    return replace(
        article,
        slug=f"{article.slug}-{round_ + 1}",
        title=title,
        standfirst=write("standfirst"),
        blocks=(*new, Block("h2", heading), *background),
    )


def _closing(drawn: Draws) -> str:
    """The drawn closing if it fits the angle, else what the other angles say instead."""
    fits = drawn.angle in CLOSING_ANGLES.get(drawn.closing, ANGLES)
    return drawn.closing if fits else CLOSINGS_INSTEAD[drawn.closing]


def _background(article: Article, paragraphs: list[Block], lap: int) -> list[Block]:
    """Paragraphs of the followed story, up to BACKGROUND_SHARE of its words, from the lap's own paragraph on."""
    budget = BACKGROUND_SHARE * article.word_count
    chosen: list[Block] = []
    for i in range(len(paragraphs)):
        paragraph = paragraphs[(lap + i) % len(paragraphs)]
        words = len(paragraph.text.split())
        if chosen and words > budget:
            break
        chosen.append(paragraph)
        budget -= words
    return chosen
