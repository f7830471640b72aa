"""What every page of the demo sites is made of: the page context, the template base class (each site's address
scheme and page renderers) and the helpers the three templates share (``healthwatch.py``, ``courier.py``,
``wellbeing.py``)."""

from __future__ import annotations

import html
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from urllib.parse import parse_qs

from .articles import SECTIONS, Article
from .furniture import Report, topic_title, writer_of

DEFAULT_PORT = 8001
TEMPLATES = ("healthwatch", "courier", "wellbeing", "pulse")
#: where each template's feed is (announced in every page's ``<head>``): RSS, Atom, RSS; the Courier has none
FEED_PATHS = {"healthwatch": "/rss.xml", "wellbeing": "/feed/atom/", "pulse": "/feeds/all.rss"}


@dataclass(frozen=True)
class SiteSpec:
    """One demo site: who it is, where it listens, which template renders it and which articles it publishes.

    ``articles`` are in publication order. ``hostname`` is an optional name for Host-header dispatch (when
    several sites share one listening address); the listening ``address`` is what normally selects the site.
    """

    key: str
    name: str
    address: str
    template: str
    articles: tuple[Article, ...]
    hostname: str = ""
    sections: tuple[str, ...] = field(default=())
    #: whether it publishes its template's special report (``furniture.REPORTS``): a listing at a story's address
    special_report: bool = True

    def __post_init__(self) -> None:
        if self.template not in TEMPLATES:
            raise ValueError(f"site {self.key!r}: unknown template {self.template!r}")
        if not self.sections:
            object.__setattr__(self, "sections", SECTIONS[self.template])
        for article in self.articles:
            if article.section not in self.sections:
                raise ValueError(f"site {self.key!r}: article {article.slug!r} in unknown section")

    def home_url(self, port: int = DEFAULT_PORT) -> str:
        return f"http://{self.address}:{port}/"

    def base_url(self, port: int = DEFAULT_PORT) -> str:
        return f"http://{self.address}:{port}"

    @property
    def feed_path(self) -> str | None:
        """Where the site's feed is (announced in every page's ``<head>``): RSS, Atom, or none (the Courier)."""
        return FEED_PATHS.get(self.template)

    @property
    def has_feed(self) -> bool:
        return self.feed_path is not None

    def article(self, slug: str) -> Article:
        for article in self.articles:
            if article.slug == slug:
                return article
        raise KeyError(f"no article {slug!r} on site {self.key!r}")


#: Dates used by the pure renderers (no server, no clock): article *i* of a site is published at
#: ``FIXED_EPOCH + i * 6 hours``, so rendered pages are reproducible byte for byte.
FIXED_EPOCH = datetime(2025, 3, 3, 8, 0, tzinfo=UTC)

SECTION_TITLES = {
    "conditions": "Conditions",
    "research": "Research",
    "lifestyle": "Lifestyle",
    "clinic-news": "Clinic News",
    "patients": "Patients",
    "prevention": "Prevention",
    "mind": "Mind",
    "body": "Body",
    "family": "Family",
    "care": "Care",
    "science": "Science",
    "living": "Living",
}


# ----------------------------------------------------------------------------------------------------
# Page context and helpers
# ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PageContext:
    """What a page needs to know: the site, the absolute base URL and what is published (newest first)."""

    site: SiteSpec
    base_url: str
    published: tuple[tuple[Article, datetime], ...]

    def published_in(self, section: str) -> list[tuple[Article, datetime]]:
        return [(a, d) for a, d in self.published if a.section == section]

    def date_of(self, article: Article) -> datetime | None:
        for a, d in self.published:
            if a.slug == article.slug:
                return d
        return None

    @property
    def year(self) -> int:
        return self.published[0][1].year if self.published else FIXED_EPOCH.year


def e(text: str) -> str:
    """Escape text for HTML element content and attribute values."""
    return html.escape(text, quote=True)


def body_html(article: Article, link: str = "") -> str:
    """The article body: paragraphs, sub-headings and lists (identical markup on every template).

    ``link``: the first three words of the first paragraph link there, as an editor links a story to its
    section: the text is the same, and DocView finds a relevant link inside the topic content.
    """
    out = []
    for block in article.blocks:
        if block.kind in ("ul", "ol"):
            items = "".join(f"<li>{e(item)}</li>" for item in block.items)
            out.append(f"<{block.kind}>{items}</{block.kind}>")
        elif link and block.kind == "p":
            first, _, rest = block.text.partition(" ")
            second, _, rest = rest.partition(" ")
            third, _, rest = rest.partition(" ")
            out.append(f'<p><a href="{link}">{e(" ".join((first, second, third)))}</a> {e(rest)}</p>')
            link = ""
        else:
            out.append(f"<{block.kind}>{e(block.text)}</{block.kind}>")
    return "\n".join(out)


def related_stories(ctx: PageContext, article: Article, limit: int = 4) -> list[Article]:
    """Other published stories, those sharing a topic first (stable order: newest first)."""
    others = [a for a, _ in ctx.published if a.slug != article.slug]
    others.sort(key=lambda a: 0 if set(a.topics) & set(article.topics) else 1)
    return others[:limit]


def months_of(ctx: PageContext) -> list[str]:
    """The months of the published stories (``2025/03``), newest first."""
    return list(dict.fromkeys(f"{d:%Y/%m}" for _, d in ctx.published))


def paginate(items: list, page: int, size: int) -> tuple[list, int]:
    pages = max(1, -(-len(items) // size))
    if page < 1 or page > pages:
        raise LookupError(f"page {page} out of range 1..{pages}")
    return items[(page - 1) * size : page * size], pages


@dataclass(frozen=True)
class Pager:
    """A listing's place among its pages: the addresses of the newer and older pages (None at the ends)."""

    page: int = 1
    pages: int = 1
    newer: str | None = None
    older: str | None = None


def popular_topics(ctx: PageContext, limit: int = 8) -> list[str]:
    """The topics of the published stories, most stories first (the tag cloud of real sites)."""
    counts: dict[str, int] = {}
    for article, _ in ctx.published:
        for topic in article.topics:
            counts[topic] = counts.get(topic, 0) + 1
    return sorted(counts, key=lambda t: (-counts[t], t))[:limit]


# ----------------------------------------------------------------------------------------------------
# Templates
# ----------------------------------------------------------------------------------------------------


class Template:
    """Base class: the URL scheme (paths and their parsing, the listings' addresses) and the page renderers."""

    page_size = 6
    front_size = 8  # stories on the home page

    # URL scheme -------------------------------------------------------------------------------------
    def article_path(self, article: Article) -> str:
        raise NotImplementedError

    def section_path(self, section: str, page: int = 1) -> str:
        raise NotImplementedError

    def match(self, path: str, query: str) -> tuple[str, ...] | None:
        """Map a request path to ``("article", slug)`` / ``("section", name, page)`` or ``None``."""
        raise NotImplementedError

    def link(self, path: str, where: str = "") -> str:
        """An internal link as this site writes it (the Wellbeing Times adds tracking parameters)."""
        return path

    # the rest of a real site's addresses: listings that are not articles (pagination, tags, writers, archive)
    feed_path: str | None = None
    #: the sitemap index (named in robots.txt) and the sitemaps it lists: ``articles``, ``news``, maybe ``pages``
    sitemaps: dict[str, str] = {}

    def front_path(self, page: int) -> str:
        """The home page's further pages: older stories."""
        raise NotImplementedError

    def tag_path(self, topic: str, page: int = 1) -> str:
        raise NotImplementedError

    def author_path(self, writer: str, page: int = 1) -> str:
        raise NotImplementedError

    def archive_path(self, month: str, page: int = 1) -> str:
        """The archive of a month (``2025/03``); a site with one archive of everything ignores the month."""
        raise NotImplementedError

    def report_path(self, report: Report) -> str:
        """A special report's address: the site's story scheme, a headline's slug (only a page's kind tells)."""
        raise NotImplementedError

    def archive_months(self, ctx: PageContext) -> list[str]:
        """The months the archive lists (``["2025/03"]``), newest first; one ``""`` for an archive of everything."""
        return [""]

    # pages ------------------------------------------------------------------------------------------
    def shell(self, ctx: PageContext, title: str, canonical: str, main: str, head_extra: str = "") -> str:
        """Any page of the site: its header, navigation, sidebar and footer around ``main``."""
        raise NotImplementedError

    def listing(self, ctx: PageContext, title: str, canonical: str, items: list, pager: Pager, intro: str = "") -> str:
        """A list of stories that is no section: a tag's, a writer's, the archive, the home page's next pages."""
        raise NotImplementedError

    def report(self, ctx: PageContext, report: Report, items: list) -> str:
        """A special report: the editor's note and cards of its stories (``items``: (story, date), in order)."""
        raise NotImplementedError

    def _tag_links(self, topics: tuple[str, ...] | list[str], where: str = "tag", sep: str = ", ") -> str:
        return sep.join(
            f'<a href="{self.link(self.tag_path(t), where)}" rel="tag">{topic_title(t)}</a>' for t in topics
        )

    def _writer_link(self, ctx: PageContext, article: Article, where: str = "byline") -> str:
        writer = writer_of(ctx.site.template, article)
        return f'<a href="{self.link(self.author_path(writer.slug), where)}" rel="author">{writer.name}</a>'

    def home(self, ctx: PageContext) -> str:
        raise NotImplementedError

    def section(self, ctx: PageContext, section: str, page: int = 1) -> str:
        raise NotImplementedError

    def article(self, ctx: PageContext, article: Article) -> str:
        raise NotImplementedError

    def info_page(self, ctx: PageContext, title: str, text: str) -> str:
        raise NotImplementedError


def qs_int(query: str, name: str, default: int) -> int:
    values = parse_qs(query).get(name)
    if not values:
        return default
    try:
        return int(values[0])
    except ValueError:
        return -1  # out of range -> 404


def thread_path(thread) -> str:
    """A discussion of the Wellbeing Times community (Discourse's address shape)."""
    return f"/community/t/{thread.slug}/{thread.number}/"


def month_title(month: str) -> str:
    return datetime.strptime(month, "%Y/%m").strftime("%B %Y")


def json_str(text: str) -> str:
    return json.dumps(text).replace("</", "<\\/")


def long_date(when: datetime) -> str:
    return f"{when:%-d %B %Y, %H:%M}"
