"""What the demo sites have besides their stories, as real news sites do: writers, topic tags, a shop, a forum.

Pure data and small helpers, no rendering (``listings.py`` renders the pages, ``sites.py`` links to them). Each
story has one writer (a stable choice by its slug) and its topics as tags. The Health Watch shop sells a few
products and the Wellbeing Times community has a few discussion threads: pages reachable by links that are not
articles, with the metadata real ones carry (schema.org ``Product``, ``DiscussionForumPosting``).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

from .articles import Article


@dataclass(frozen=True)
class Writer:
    slug: str
    name: str
    role: str
    bio: str


WRITERS: dict[str, tuple[Writer, ...]] = {
    "healthwatch": (
        Writer("sarah-mitchell", "Sarah Mitchell", "Health editor", "Sarah has covered the NHS and public health "
               "for twenty years and edits the conditions desk."),
        Writer("tom-okafor", "Tom Okafor", "Science correspondent", "Tom reports on medical research, trials and "
               "the statistics behind the headlines."),
        Writer("priya-raman", "Priya Raman", "Lifestyle writer", "Priya writes about food, fitness and the small "
               "habits that change how we feel."),
    ),
    "courier": (
        Writer("margaret-hale", "Margaret Hale", "News editor", "Margaret has edited the Courier's news pages "
               "since 1994."),
        Writer("dennis-cole", "Dennis Cole", "Community reporter", "Dennis covers the clinics, surgeries and "
               "patient groups of the district."),
        Writer("ruth-adeyemi", "Ruth Adeyemi", "Health reporter", "Ruth writes about prevention, screening and "
               "family health."),
    ),
    "wellbeing": (
        Writer("amelia-hart", "Amelia Hart", "Contributing editor", "Amelia writes about mental health, sleep "
               "and the science of feeling better."),
        Writer("sam-whitfield", "Sam Whitfield", "Fitness writer", "Sam is a running coach who writes about "
               "movement for people who hate the gym."),
        Writer("leila-moradi", "Leila Moradi", "Family health writer", "Leila writes about pregnancy, children "
               "and the everyday questions of family life."),
    ),
    "pulse": (
        Writer("nadia-brennan", "Nadia Brennan", "Health correspondent", "Nadia covers hospitals, surgeries and "
               "pharmacies across the North West."),
        Writer("callum-reid", "Callum Reid", "Science reporter", "Callum reads the new studies so you do not have "
               "to, and asks what they leave out."),
        Writer("joy-mensah", "Joy Mensah", "Family and living editor", "Joy writes about children's health, food "
               "and the homes we live in."),
    ),
}  # fmt: skip


def writers_of(template: str) -> tuple[Writer, ...]:
    return WRITERS[template]


def writer_of(template: str, article: Article) -> Writer:
    """The story's writer: a stable choice by its slug (an edition may have another writer, as a rewrite does)."""
    writers = WRITERS[template]
    return writers[zlib.crc32(article.slug.encode()) % len(writers)]


def topic_title(topic: str) -> str:
    return topic.replace("-", " ").capitalize()


@dataclass(frozen=True)
class Product:
    slug: str
    name: str
    price: str  # in pounds
    description: str
    topic: str


PRODUCTS: tuple[Product, ...] = (
    Product("bp200-blood-pressure-monitor", "BP200 upper-arm blood pressure monitor", "39.99",
            "Clinically validated, with a wide cuff and memory for two users. Batteries included.", "heart"),
    Product("sleepwell-daylight-lamp", "SleepWell daylight alarm lamp", "59.00",
            "Wakes you with a thirty-minute sunrise and sends you to sleep with a fading sunset.", "sleep"),
    Product("pedometer-step-counter-pro", "Step counter pro", "14.50",
            "Clips to a belt, counts steps and distance, and needs no phone or app.", "exercise"),
    Product("glucose-meter-starter-kit", "Glucose meter starter kit", "24.99",
            "Meter, lancing device, ten strips and a travel case.", "diabetes"),
)  # fmt: skip


@dataclass(frozen=True)
class Post:
    author: str
    text: str


@dataclass(frozen=True)
class Thread:
    number: int
    slug: str
    title: str
    topic: str
    posts: tuple[Post, ...]


THREADS: tuple[Thread, ...] = (
    Thread(1041, "cant-switch-off-at-night-any-tips", "Can't switch off at night, any tips?", "sleep", (
        Post("nightowl82", "I lie awake for hours going over the day. Has anything worked for you?"),
        Post("maria_t", "Writing a to-do list for tomorrow before bed helped me more than anything."),
        Post("dave.p", "No phone in the bedroom. Hard for a week, then much better."),
    )),
    Thread(1057, "starting-running-at-50", "Starting running at 50", "exercise", (
        Post("gentlejog", "My knees are not what they were. Walk-run intervals or straight to running?"),
        Post("coach_kim", "Intervals. One minute running, two walking, and build up over eight weeks."),
    )),
    Thread(1063, "toddler-wont-eat-vegetables", "Toddler won't eat vegetables", "child-health", (
        Post("mumof2", "Anything green goes straight on the floor. Should I worry?"),
        Post("grandad_bill", "Ours were the same. Keep offering, no fuss, and they came round by five."),
        Post("leila_m", "Our family health writer here: it can take ten tries. Eating together helps."),
    )),
    Thread(1072, "feeling-low-after-the-holidays", "Feeling low after the holidays", "mental-health", (
        Post("quietday", "Back at work and everything feels grey. Is this normal?"),
        Post("sunnyside", "Very normal. Daylight at lunchtime and a walk made a difference for me."),
    )),
)  # fmt: skip


def thread_for(topics: tuple[str, ...]) -> Thread:
    """The discussion an article links to: one on its topics, else the newest."""
    for thread in THREADS:
        if thread.topic in topics:
            return thread
    return THREADS[-1]


def product_for(topics: tuple[str, ...]) -> Product:
    for product in PRODUCTS:
        if product.topic in topics:
            return product
    return PRODUCTS[0]


@dataclass(frozen=True)
class Report:
    """A desk's collection of its own stories on one theme, a "special report" or an "in depth" page: no story of
    its own, a short note from the editor and cards of the stories, at an address shaped like a story's (the
    site's story scheme and a headline's slug), as real news sites publish them. Its address alone reads as an
    article's, so WebMon fetches it; the page's kind (a listing) keeps it out of the experts' inbox."""

    label: str  # the kicker: "Special report", "In depth"
    slug: str
    section: str
    title: str
    teaser: str  # the link's text on the home page: a headline
    intro: str
    topics: tuple[str, ...]  # the stories it shows first


REPORTS: dict[str, Report] = {
    "healthwatch": Report(
        "Special report", "special-report-winter-health-all-our-coverage", "conditions",
        "Winter health, all our coverage in one place",
        "Special report: how to get through the winter in good health, all our coverage",
        "Flu jabs, colds, short days and long nights: our reporters have spent the season asking what keeps people "
        "well through the winter, from the GP's waiting room to the research lab. Here is every story of the series, "
        "newest first; we add each new one as it is published, and update the older ones when the advice changes.",
        ("flu", "vaccines", "heart", "sleep", "mental-health"),
    ),
    "wellbeing": Report(
        "In depth", "in-depth-feeling-better-when-the-nights-draw-in", "mind",
        "Feeling better when the nights draw in",
        "In depth: feeling better when the nights draw in, the whole series",
        "Darker evenings can weigh on sleep, mood and motivation. This series brings together our writers' best "
        "advice for the colder months: small habits, good light, movement you enjoy and when to ask for help. We add "
        "each new piece as it is published.",
        ("mental-health", "sleep", "exercise", "flu"),
    ),
}  # fmt: skip


def report_of(site) -> Report | None:
    """The special report of a site (a SiteSpec), if its desk publishes one: the Courier does not, nor the scale
    benchmark's synthetic sites (their figures measure stories, comparable from run to run)."""
    return REPORTS.get(site.template) if site.special_report else None


def report_stories(report: Report, published: tuple, limit: int = 8) -> list:
    """The (story, date) pairs a report shows: those on its topics first, then the newest others, newest first."""
    ordered = sorted(published, key=lambda item: 0 if set(item[0].topics) & set(report.topics) else 1)
    return ordered[:limit]
