# ruff: noqa: E501  -- HTML templates: markup lines are kept whole so the pages read like real sites
"""Site definitions and the three page templates of the demo news sites.

Rendering is pure: a :class:`PageContext` (site, base URL, the articles published so far with their dates)
goes in, a ``str`` of HTML or RSS comes out. The server (``server.py``) only adds the clock, the state and
HTTP; experiments call :func:`render_article_page` and friends directly to get labelled pages without a
server.

The three templates are deliberately unlike each other, because the noise filters learn per site:

* ``healthwatch`` -- *Health Watch Daily*: "div soup" with ids and classes, leaderboard and MPU ads,
  cookie banner, ``<select>`` jump menu, most-read box, newsletter form; the only site with an RSS feed.
  URLs ``/news/<section>/<slug>.html``, sections ``/news/<section>/?page=N``.
* ``courier`` -- *The Clinic Courier*: an old-school site laid out with nested ``<table>`` s, ``<font>``,
  ``bgcolor``, ``onclick`` pop-ups, a reader poll. Query-string URLs ``/story.php?id=<slug>`` and
  ``/section.php?s=<section>&page=N`` with "More stories" links.
* ``wellbeing`` -- *Wellbeing Times*: semantic HTML5 (``<header>``, ``<nav>``, ``<main>``, ``<article>``,
  ``<aside>``), JSON-LD, reader comments. Every internal link carries ``utm_*`` tracking parameters and
  some carry fragments (``#comments``), so URL canonicalisation matters; ``<link rel=canonical>`` is clean.
  URLs ``/<section>/<slug>/``, sections ``/<section>/?page=N``.
"""

from __future__ import annotations

import html
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from urllib.parse import parse_qs, quote

from .articles import SECTIONS, Article, articles_for_site
from .furniture import product_for, thread_for, topic_title, writer_of

DEFAULT_PORT = 8001
TEMPLATES = ("healthwatch", "courier", "wellbeing")

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
}


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
        return TEMPLATE_CLASSES[self.template].feed_path

    @property
    def has_feed(self) -> bool:
        return self.feed_path is not None

    def article(self, slug: str) -> Article:
        for article in self.articles:
            if article.slug == slug:
                return article
        raise KeyError(f"no article {slug!r} on site {self.key!r}")


#: The three demo sites of ``make run`` (loopback addresses, port :data:`DEFAULT_PORT` by default).
DEMO_SITES: tuple[SiteSpec, ...] = (
    SiteSpec(
        "healthwatch",
        "Health Watch Daily",
        "127.0.0.11",
        "healthwatch",
        articles_for_site("healthwatch"),
        hostname="healthwatch.demo.test",
    ),
    SiteSpec(
        "courier",
        "The Clinic Courier",
        "127.0.0.12",
        "courier",
        articles_for_site("courier"),
        hostname="courier.demo.test",
    ),
    SiteSpec(
        "wellbeing",
        "Wellbeing Times",
        "127.0.0.13",
        "wellbeing",
        articles_for_site("wellbeing"),
        hostname="wellbeing.demo.test",
    ),
)
DEMO_SITES_BY_KEY = {s.key: s for s in DEMO_SITES}


def get_site(site_key: str) -> SiteSpec:
    try:
        return DEMO_SITES_BY_KEY[site_key]
    except KeyError:
        raise KeyError(f"unknown demo site {site_key!r}; known: {sorted(DEMO_SITES_BY_KEY)}") from None


_TOWNS_A = ("North", "South", "East", "West", "Upper", "Lower", "Old", "New", "Great", "Little")
_TOWNS_B = ("bridge", "field", "ford", "ham", "wick", "stow", "mouth", "bury", "ton", "minster")


def synthetic_sites(n: int, first_address: str = "127.1.0.1", *, distinct_text: bool = True) -> Iterator[SiteSpec]:
    """Yield ``n`` synthetic sites for the WebMon scale benchmark, one loopback address each.

    Sites cycle through the three templates and reuse that template's 16 pool articles, rotated so that
    sites publish in different orders. With ``distinct_text`` each article title gets the site's town name
    so that the articles of different sites are not exact re-publications of each other (WebMon links
    those instead of processing them, which would flatter the benchmark). Addresses skip ``.0`` and
    ``.255`` in the last octet.
    """
    if n < 0:
        raise ValueError("n must be >= 0")
    octets = [int(x) for x in first_address.split(".")]
    if len(octets) != 4 or octets[0] != 127:
        raise ValueError(f"first_address must be a 127.x.y.z loopback address, got {first_address!r}")
    number = (octets[1] << 16) | (octets[2] << 8) | octets[3]
    for i in range(n):
        while number & 0xFF in (0, 255):
            number += 1
        address = f"127.{(number >> 16) & 0xFF}.{(number >> 8) & 0xFF}.{number & 0xFF}"
        number += 1
        template = TEMPLATES[i % 3]
        pool = articles_for_site(template)
        shift = (i // 3) % len(pool)
        rotated = pool[shift:] + pool[:shift]
        town = f"{_TOWNS_A[(i // 10) % 10]}{_TOWNS_B[i % 10]}" + (f" {i // 100}" if i >= 100 else "")
        if distinct_text:
            rotated = tuple(replace(a, site=f"site{i:04d}", title=f"{a.title} ({town})") for a in rotated)
        yield SiteSpec(
            key=f"site{i:04d}",
            name=f"{town} Health News",
            address=address,
            template=template,
            articles=rotated,
            hostname=f"site{i:04d}.demo.test",
        )


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


def _related(ctx: PageContext, article: Article, limit: int = 4) -> list[Article]:
    """Other published stories, those sharing a topic first (stable order: newest first)."""
    others = [a for a, _ in ctx.published if a.slug != article.slug]
    others.sort(key=lambda a: 0 if set(a.topics) & set(article.topics) else 1)
    return others[:limit]


def _months(ctx: PageContext) -> list[str]:
    """The months of the published stories (``2025/03``), newest first."""
    return list(dict.fromkeys(f"{d:%Y/%m}" for _, d in ctx.published))


def _pages(items: list, page: int, size: int) -> tuple[list, int]:
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
    """Base class: URL scheme (paths and their parsing) plus the four page renderers."""

    page_size = 6

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


def _qs_int(query: str, name: str, default: int) -> int:
    values = parse_qs(query).get(name)
    if not values:
        return default
    try:
        return int(values[0])
    except ValueError:
        return -1  # out of range -> 404


class HealthWatchTemplate(Template):
    page_size = 6
    front_size = 8
    feed_path = "/rss.xml"
    sitemaps = {
        "index": "/sitemap_index.xml",
        "articles": "/post-sitemap.xml",
        "pages": "/page-sitemap.xml",
        "news": "/news-sitemap.xml",
    }

    def front_path(self, page: int) -> str:
        return "/" if page <= 1 else f"/page/{page}/"

    def tag_path(self, topic: str, page: int = 1) -> str:
        return f"/tag/{topic}/" + (f"page/{page}/" if page > 1 else "")

    def author_path(self, writer: str, page: int = 1) -> str:
        return f"/author/{writer}/" + (f"page/{page}/" if page > 1 else "")

    def archive_path(self, month: str, page: int = 1) -> str:
        return "/archive/" + (f"?page={page}" if page > 1 else "")

    def article_path(self, article: Article) -> str:
        return f"/news/{article.section}/{article.slug}.html"

    def section_path(self, section: str, page: int = 1) -> str:
        return f"/news/{section}/" + (f"?page={page}" if page > 1 else "")

    def match(self, path: str, query: str) -> tuple[str, ...] | None:
        parts = path.strip("/").split("/")
        if len(parts) == 2 and parts[0] == "news" and path.endswith("/"):
            return ("section", parts[1], str(_qs_int(query, "page", 1)))
        if len(parts) == 3 and parts[0] == "news" and parts[2].endswith(".html"):
            return ("article", parts[2][: -len(".html")], parts[1])
        return None

    def _head(self, ctx: PageContext, title: str, canonical: str, extra: str = "") -> str:
        return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{e(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="canonical" href="{e(ctx.base_url + canonical)}">
<link rel="alternate" type="application/rss+xml" title="{e(ctx.site.name)} - latest news" href="/rss.xml">
<link rel="stylesheet" href="/static/site.css">
{extra}<script src="/static/site.js"></script>
<script type="text/javascript">
  window.dataLayer = window.dataLayer || [];
  function gtag(){{dataLayer.push(arguments);}}
  gtag('js', new Date()); gtag('config', 'HWD-44710');
</script>
</head>
<body class="hwd">
<!-- BEGIN cookie consent v2.3 -->
<div id="cookie-banner" class="cookie-bar"><div class="cookie-text">We use cookies to improve your experience \
and to show you personalised advertising. By continuing to browse you agree to our use of cookies.</div>
<div class="cookie-buttons"><a href="#" class="btn" onclick="acceptCookies(); return false;">Accept all</a> \
<a href="/privacy.html#cookies" class="btn btn-alt">Manage settings</a></div></div>
<!-- END cookie consent -->
<div id="wrapper">
<div id="header"><div class="logo"><a href="/"><img src="/static/logo.png" alt="{e(ctx.site.name)}" \
width="280" height="60"></a></div>
<div class="tagline">Independent health news since 1998</div>
<div class="header-links"><a href="/newsletter.html">Newsletter</a> | <a href="/rss.xml">RSS</a> | \
<a href="/contact.html">Contact</a></div></div>
{self._nav(ctx)}
<!-- ad slot: leaderboard 728x90 (network tag 19931) -->
<div class="ad ad-leaderboard"><div class="ad-label">Advertisement</div>
<a href="http://ads.example.net/click?slot=hwd-728&amp;cid=8812" rel="nofollow sponsored" target="_blank">\
<img src="/static/ad-728x90.gif" width="728" height="90" alt="Compare health insurance quotes today"></a></div>
"""

    def _nav(self, ctx: PageContext) -> str:
        items = "".join(
            f'<div class="nav-item"><a href="{self.section_path(s)}">{SECTION_TITLES[s]}</a></div>'
            for s in ctx.site.sections
        )
        options = "".join(
            f'<option value="{self.section_path(s)}">{SECTION_TITLES[s]}</option>' for s in ctx.site.sections
        )
        return f"""<div id="nav"><div class="nav-item"><a href="/">Home</a></div>{items}\
<div class="nav-item"><a href="/shop/">Shop</a></div>\
<div class="nav-item"><a href="/about.html">About us</a></div><div class="nav-item nav-search">\
<a href="/search.html">Search</a></div></div>
<div class="jump"><form name="jumpform" action="/"><select name="jump" \
onchange="window.location=this.options[this.selectedIndex].value">\
<option value="">Jump to section...</option>{options}<option value="/about.html">About us</option>\
</select></form></div>"""

    def _sidebar(self, ctx: PageContext) -> str:
        product = product_for(ctx.published[0][0].topics if ctx.published else ())
        most_read = "".join(f'<li><a href="{self.article_path(a)}">{e(a.title)}</a></li>' for a, _ in ctx.published[:5])
        return f"""<div id="sidebar">
<div class="ad ad-mpu"><div class="ad-label">Advertisement</div>
<a href="http://ads.example.net/click?slot=hwd-mpu&amp;cid=1203" rel="nofollow sponsored">\
<img src="/static/ad-300x250.gif" width="300" height="250" alt="Try our vitamin subscription - first month free"></a>
</div>
<div class="box mostread"><div class="box-title">Most read</div><ol>{most_read}</ol></div>
<div class="box topics"><div class="box-title">Popular topics</div><p>{self._tag_links(popular_topics(ctx), "tag", " ")}</p></div>
<div class="box shop"><div class="box-title">From the Health Watch shop</div>\
<a href="/shop/products/{product.slug}/">{e(product.name)}</a> <span class="price">&pound;{product.price}</span></div>
<div class="box newsletter"><div class="box-title">Get the Health Watch newsletter</div>
<p>Our best stories in your inbox every morning. Free, and you can unsubscribe at any time.</p>
<form action="/newsletter.html" method="post"><input type="email" name="email" placeholder="Your email address">\
<button type="submit" onclick="return validateEmail(this.form)">Sign up</button></form></div>
<!-- sidebar end -->
</div>"""

    def _footer(self, ctx: PageContext, extra_links: str = "") -> str:
        return f"""<div id="footer">
<div class="footer-links"><a href="/about.html">About us</a> | <a href="/privacy.html">Privacy policy</a> | \
<a href="/terms.html">Terms of use</a> | <a href="/contact.html">Contact</a> | \
<a href="/advertise.html">Advertise with us</a> | <a href="/newsletter.html">Newsletter sign-up</a> | \
<a href="/archive/">Archive</a> | <a href="/sitemap.html">Site map</a>{extra_links}</div>
<div class="copyright">&copy; 1998-{ctx.year} {e(ctx.site.name)} Ltd. All rights reserved. \
We are not responsible for the content of external sites.</div>
<div class="disclaimer">The information on this site is not a substitute for advice from a qualified health \
professional.</div>
</div>
</div><!-- /wrapper -->
<script type="text/javascript">
function acceptCookies() {{ document.getElementById('cookie-banner').style.display = 'none';
  document.cookie = 'hwd_consent=1; path=/; max-age=31536000'; }}
function validateEmail(f) {{ return f.email.value.indexOf('@') > 0; }}
</script>
<script src="http://ads.example.net/show_ads.js" async></script>
</body>
</html>
"""

    def _teaser(self, ctx: PageContext, article: Article, when: datetime) -> str:
        return f"""<div class="teaser"><div class="teaser-title"><a href="{self.article_path(article)}">\
{e(article.title)}</a></div><div class="teaser-date">{_long_date(when)}</div>
<div class="teaser-text">{e(article.standfirst)}</div>
<div class="teaser-meta">By {self._writer_link(ctx, article)} | {self._tag_links(article.topics)}</div></div>"""

    def home(self, ctx: PageContext) -> str:
        teasers = "\n".join(self._teaser(ctx, a, d) for a, d in ctx.published[: self.front_size])
        older = (
            f'<a href="{self.front_path(2)}" rel="next">Older stories &raquo;</a> '
            if len(ctx.published) > self.front_size
            else ""
        )
        return (
            self._head(ctx, f"{ctx.site.name} - independent health news", "/")
            + f"""<div id="content"><div id="main">
<div class="section-title">Latest health news</div>
{teasers}
<div class="more">{older}<a href="{self.section_path(ctx.site.sections[0])}">More news &raquo;</a></div>
</div>
{self._sidebar(ctx)}</div>
"""
            + self._footer(ctx, ' | <a href="/private/staff-notes.html">Staff area</a>')
        )

    def section(self, ctx: PageContext, section: str, page: int = 1) -> str:
        items, pages = _pages(ctx.published_in(section), page, self.page_size)
        teasers = "\n".join(self._teaser(ctx, a, d) for a, d in items) or '<div class="empty">No stories yet.</div>'
        pager = []
        if page > 1:
            pager.append(f'<a href="{self.section_path(section, page - 1)}">&laquo; Newer</a>')
        pager.append(f"<span>Page {page} of {pages}</span>")
        if page < pages:
            pager.append(f'<a href="{self.section_path(section, page + 1)}" rel="next">Older &raquo;</a>')
        title = SECTION_TITLES[section]
        return (
            self._head(ctx, f"{title} | {ctx.site.name}", self.section_path(section, page))
            + f"""<div id="breadcrumb"><a href="/">Home</a> &gt; <span>{title}</span></div>
<div id="content"><div id="main">
<div class="section-title">{title}</div>
{teasers}
<div class="pager">{" ".join(pager)}</div>
</div>
{self._sidebar(ctx)}</div>
"""
            + self._footer(ctx)
        )

    def article(self, ctx: PageContext, article: Article) -> str:
        when = ctx.date_of(article) or FIXED_EPOCH
        path = self.article_path(article)
        url = quote(ctx.base_url + path, safe="")
        related = "".join(f'<li><a href="{self.article_path(a)}">{e(a.title)}</a></li>' for a in _related(ctx, article))
        title = SECTION_TITLES[article.section]
        extra = (
            f'<meta name="description" content="{e(article.standfirst)}">\n'
            f'<meta property="article:published_time" content="{when.isoformat()}">\n'
        )
        return (
            self._head(ctx, f"{article.title} | {ctx.site.name}", path, extra)
            + f"""<div id="breadcrumb"><a href="/">Home</a> &gt; <a href="{self.section_path(article.section)}">\
{title}</a> &gt; <span>{e(article.title)}</span></div>
<div id="content"><div id="main">
<div class="story">
<h1 class="headline">{e(article.title)}</h1>
<div class="standfirst">{e(article.standfirst)}</div>
<div class="byline">By Health Watch Daily staff | Published {_long_date(when)}</div>
<div class="share"><a href="https://www.facebook.com/sharer.php?u={url}" target="_blank" \
onclick="window.open(this.href,'share','width=600,height=400');return false;">Share on Facebook</a> \
<a href="https://twitter.com/intent/tweet?url={url}" target="_blank">Tweet</a> \
<a href="mailto:?subject={quote(article.title)}&amp;body={url}">Email</a> \
<a href="#" onclick="window.print();return false;">Print</a></div>
<!-- story body -->
<div class="story-body">
{body_html(article)}
</div>
<!-- /story body -->
<div class="tags">More on: <a href="{self.section_path(article.section)}">{title}</a>, {self._tag_links(article.topics)}</div>
</div>
<div class="related"><div class="related-title">Related stories</div><ul>{related}</ul></div>
<div class="comments-closed">Comments are closed for this story.</div>
<div class="writer">Reporting by {self._writer_link(ctx, article)}</div>
</div>
{self._sidebar(ctx)}</div>
"""
            + self._footer(ctx)
        )

    def info_page(self, ctx: PageContext, title: str, text: str) -> str:
        return self.shell(ctx, title, "/", f'<div class="section-title">{e(title)}</div>\n<p>{e(text)}</p>')

    def shell(self, ctx: PageContext, title: str, canonical: str, main: str, head_extra: str = "") -> str:
        return (
            self._head(ctx, f"{title} | {ctx.site.name}", canonical, head_extra)
            + f"""<div id="content"><div id="main">{main}</div>{self._sidebar(ctx)}</div>
"""
            + self._footer(ctx)
        )

    def listing(self, ctx: PageContext, title: str, canonical: str, items: list, pager: Pager, intro: str = "") -> str:
        teasers = "\n".join(self._teaser(ctx, a, d) for a, d in items) or '<div class="empty">No stories yet.</div>'
        links = [f'<a href="{pager.newer}">&laquo; Newer</a>'] if pager.newer else []
        links.append(f"<span>Page {pager.page} of {pager.pages}</span>")
        if pager.older:
            links.append(f'<a href="{pager.older}" rel="next">Older &raquo;</a>')
        main = f"""<div id="breadcrumb"><a href="/">Home</a> &gt; <span>{e(title)}</span></div>
<div class="section-title">{e(title)}</div>
{intro}
{teasers}
<div class="pager">{" ".join(links)}</div>"""
        return self.shell(ctx, title, canonical, main)


class CourierTemplate(Template):
    page_size = 5
    front_size = 6
    sitemaps = {"index": "/sitemap.xml", "articles": "/sitemap-stories.xml", "news": "/sitemap-news.xml"}

    def front_path(self, page: int) -> str:
        return "/" if page <= 1 else f"/index.php?page={page}"

    def tag_path(self, topic: str, page: int = 1) -> str:
        return f"/tags.php?tag={topic}" + (f"&page={page}" if page > 1 else "")

    def author_path(self, writer: str, page: int = 1) -> str:
        return f"/author.php?id={writer}" + (f"&page={page}" if page > 1 else "")

    def archive_path(self, month: str, page: int = 1) -> str:
        year, _, number = month.partition("/")
        return f"/archive.php?y={year}&m={number}" + (f"&page={page}" if page > 1 else "")

    def archive_months(self, ctx: PageContext) -> list[str]:
        return _months(ctx)

    def article_path(self, article: Article) -> str:
        return f"/story.php?id={article.slug}"

    def section_path(self, section: str, page: int = 1) -> str:
        return f"/section.php?s={section}" + (f"&page={page}" if page > 1 else "")

    def match(self, path: str, query: str) -> tuple[str, ...] | None:
        params = parse_qs(query)
        if path == "/story.php" and params.get("id"):
            return ("article", params["id"][0], "")
        if path == "/section.php" and params.get("s"):
            return ("section", params["s"][0], str(_qs_int(query, "page", 1)))
        return None

    def _page(
        self,
        ctx: PageContext,
        title: str,
        canonical: str,
        center: str,
        right: str,
        extra_head: str = "",
        footer_extra: str = "",
    ) -> str:
        links = " | ".join(
            f'<a href="{e(self.section_path(s))}"><font color="#ffffff">{SECTION_TITLES[s]}</font></a>'
            for s in ctx.site.sections
        )
        options = "".join(
            f'<option value="{e(ctx.base_url + self.section_path(s))}">{SECTION_TITLES[s]}</option>'
            for s in ctx.site.sections
        )
        left_links = "".join(
            f'<tr><td class="leftnav">&#187; <a href="{e(self.section_path(s))}">{SECTION_TITLES[s]}</a></td></tr>'
            for s in ctx.site.sections
        )
        months = self.archive_months(ctx)
        archive = e(self.archive_path(months[0])) if months else "/archive.php"
        topics = "".join(
            f'<tr><td class="leftnav">&#187; <a href="{e(self.tag_path(t))}">{topic_title(t)}</a></td></tr>'
            for t in popular_topics(ctx, 6)
        )
        return f"""<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" \
"http://www.w3.org/TR/html4/loose.dtd">
<HTML>
<HEAD>
<META http-equiv="Content-Type" content="text/html; charset=utf-8">
<TITLE>{e(ctx.site.name)} :: {e(title)}</TITLE>
<LINK rel="canonical" href="{e(ctx.base_url + canonical)}">
<LINK rel="stylesheet" type="text/css" href="/static/courier.css">
{extra_head}<SCRIPT language="JavaScript" type="text/javascript" src="/static/site.js"></SCRIPT>
<SCRIPT language="JavaScript" type="text/javascript">
<!--
function popup(url) {{ window.open(url, 'ccpop', 'width=520,height=600,scrollbars=yes'); }}
function jump(sel) {{ if (sel.value) location.href = sel.value; }}
var _cc_hits = new Image(); _cc_hits.src = '/cgi-bin/counter.pl?p=' + escape(location.pathname);
//-->
</SCRIPT>
</HEAD>
<BODY bgcolor="#f4f1e8" topmargin="0" leftmargin="0" marginwidth="0" marginheight="0">
<!-- ==================== HEADER ==================== -->
<TABLE width="100%" border="0" cellspacing="0" cellpadding="0">
<TR><TD bgcolor="#1d3d5c" height="70"><A href="/"><IMG src="/static/courier-logo.gif" alt="{e(ctx.site.name)}" \
border="0" width="320" height="70"></A></TD>
<TD bgcolor="#1d3d5c" align="right"><FONT face="Verdana" size="1" color="#ffffff">Your community health \
paper &middot; Est. 1987</FONT></TD></TR>
<TR><TD colspan="2" bgcolor="#2e5b86"><FONT face="Verdana" size="2"><B>&nbsp;<A href="/"><FONT \
color="#ffffff">Front Page</FONT></A> | {links} | <A href="/contact.php"><FONT color="#ffffff">Contact \
Us</FONT></A></B></FONT></TD></TR>
</TABLE>
<!-- cookie notice -->
<TABLE width="100%" bgcolor="#fff7c2" cellpadding="4"><TR><TD><FONT size="1">This site uses cookies. \
<A href="/privacy.php" onclick="popup('/privacy.php');return false;">Find out more</A> or \
<A href="#" onclick="document.cookie='cc_ok=1';this.parentNode.parentNode.style.display='none';return false;">\
close this notice</A>.</FONT></TD></TR></TABLE>
<TABLE width="100%" border="0" cellspacing="0" cellpadding="6">
<TR valign="top">
<!-- ============ LEFT COLUMN ============ -->
<TD width="170" bgcolor="#e9e4d4">
<TABLE width="100%" cellpadding="2" cellspacing="0">
<TR><TD><FONT face="Verdana" size="2"><B>Sections</B></FONT></TD></TR>
{left_links}
<TR><TD><FONT face="Verdana" size="2"><B>Topics</B></FONT></TD></TR>
{topics}
<TR><TD class="leftnav">&#187; <a href="{archive}">Archive</a></TD></TR>
</TABLE>
<BR>
<FORM name="jumpmenu"><FONT size="1">Quick jump:</FONT><BR>
<SELECT name="dest" onchange="jump(this)"><OPTION value="">-- choose --</OPTION>{options}\
<OPTION value="{e(ctx.base_url)}{archive}">Archive</OPTION></SELECT></FORM>
<BR>
<CENTER><FONT size="1" color="#777777">ADVERTISEMENT</FONT><BR>
<A href="http://ads.example.net/click?slot=cc-sky&amp;cid=551" target="_blank"><IMG src="/static/ad-160x600.gif" \
width="160" height="600" border="0" alt="Hearing aids - book your free test"></A></CENTER>
</TD>
<!-- ============ MAIN COLUMN ============ -->
<TD>
{center}
</TD>
<!-- ============ RIGHT COLUMN ============ -->
<TD width="220" bgcolor="#efeadc">
{right}
<TABLE width="100%" border="1" cellpadding="4" cellspacing="0" bordercolor="#cccccc"><TR><TD>
<FONT face="Verdana" size="2"><B>Reader poll</B></FONT><BR>
<FORM action="/poll.php" method="post"><FONT size="1">How often do you see your GP?</FONT><BR>
<INPUT type="radio" name="v" value="1"> Once a year<BR>
<INPUT type="radio" name="v" value="2"> Every few months<BR>
<INPUT type="radio" name="v" value="3"> Hardly ever<BR>
<INPUT type="submit" value="Vote" onclick="popup('/poll.php?results=1');"></FORM></TD></TR></TABLE>
<BR>
<TABLE width="100%" cellpadding="4" cellspacing="0" bgcolor="#ffffff"><TR><TD>
<FONT face="Verdana" size="2"><B>Free weekly e-mail bulletin</B></FONT><BR>
<FORM action="/subscribe.php" method="post"><INPUT type="text" name="email" size="18" value="your e-mail" \
onfocus="if(this.value=='your e-mail')this.value='';"><INPUT type="submit" value="Go"></FORM>
</TD></TR></TABLE>
</TD>
</TR>
</TABLE>
<!-- ==================== FOOTER ==================== -->
<TABLE width="100%" cellpadding="8" bgcolor="#1d3d5c"><TR><TD align="center"><FONT face="Verdana" size="1" \
color="#ffffff">Copyright &copy; 1987-{ctx.year} {e(ctx.site.name)}. All rights reserved. Reproduction \
without permission is prohibited.<BR>
<A href="/about.php"><FONT color="#ffffff">About the Courier</FONT></A> | <A href="/contact.php"><FONT \
color="#ffffff">Contact</FONT></A> | <A href="/newsletter.php"><FONT color="#ffffff">E-mail bulletin</FONT></A> | \
<A href="{archive}"><FONT color="#ffffff">Archive</FONT></A> | \
<A href="/privacy.php"><FONT color="#ffffff">Privacy Statement</FONT></A> | <A href="/terms.php"><FONT \
color="#ffffff">Terms &amp; Conditions</FONT></A> | <A href="/advertise.php"><FONT color="#ffffff">Advertising \
rates</FONT></A>{footer_extra}</FONT></TD></TR></TABLE>
</BODY>
</HTML>
"""

    def _list(self, ctx: PageContext, items: list[tuple[Article, datetime]]) -> str:
        rows = []
        for a, d in items:
            rows.append(
                f'<TR><TD><FONT face="Georgia" size="3"><B><A href="{e(self.article_path(a))}">{e(a.title)}</A>'
                f'</B></FONT><BR><FONT size="1" color="#666666">Posted: {d:%d/%m/%Y} by '
                f"{self._writer_link(ctx, a)} | {self._tag_links(a.topics)}</FONT><BR>"
                f'<FONT size="2">{e(a.standfirst)}</FONT></TD></TR>'
            )
        return '<TABLE class="storylist" width="100%" cellpadding="6" cellspacing="0">' + "\n".join(rows) + "</TABLE>"

    def _headlines_box(self, ctx: PageContext, title: str, articles: list[Article]) -> str:
        items = "".join(f'<LI><A href="{e(self.article_path(a))}">{e(a.title)}</A></LI>' for a in articles)
        return (
            f'<TABLE width="100%" cellpadding="4" bgcolor="#ffffff"><TR><TD><FONT face="Verdana" size="2"><B>'
            f"{title}</B></FONT><UL>{items}</UL></TD></TR></TABLE><BR>"
        )

    def home(self, ctx: PageContext) -> str:
        older = ""
        if len(ctx.published) > self.front_size:
            older = f'<A href="{e(self.front_path(2))}">Earlier front page stories</A> | '
        center = f"""<FONT face="Georgia" size="5"><B>Front Page</B></FONT><HR size="1">
{self._list(ctx, list(ctx.published[: self.front_size]))}
<P align="right">{older}<A href="{e(self.section_path(ctx.site.sections[0]))}"><B>More stories &raquo;</B></A></P>
<P><FONT size="1"><A href="/private/staff-notes.html">Staff login</A></FONT></P>"""
        right = self._headlines_box(ctx, "Latest headlines", [a for a, _ in ctx.published[:5]])
        return self._page(ctx, "Front Page", "/", center, right)

    def section(self, ctx: PageContext, section: str, page: int = 1) -> str:
        items, pages = _pages(ctx.published_in(section), page, self.page_size)
        more = ""
        if page < pages:
            more = f'<A href="{e(self.section_path(section, page + 1))}"><B>More stories &raquo;</B></A>'
        back = f'<A href="{e(self.section_path(section, page - 1))}">&laquo; Back</A> ' if page > 1 else ""
        title = SECTION_TITLES[section]
        center = f"""<FONT face="Verdana" size="1"><A href="/">Front Page</A> &gt; {title}</FONT><BR>
<FONT face="Georgia" size="5"><B>{title}</B></FONT><HR size="1">
{self._list(ctx, items) if items else "<P>No stories in this section yet.</P>"}
<P align="right">{back}{more}</P>"""
        right = self._headlines_box(ctx, "Latest headlines", [a for a, _ in ctx.published[:5]])
        return self._page(ctx, title, self.section_path(section, page), center, right)

    def article(self, ctx: PageContext, article: Article) -> str:
        when = ctx.date_of(article) or FIXED_EPOCH
        path = self.article_path(article)
        share = quote(ctx.base_url + path, safe="")
        title = SECTION_TITLES[article.section]
        center = f"""<FONT face="Verdana" size="1"><A href="/">Front Page</A> &gt; \
<A href="{e(self.section_path(article.section))}">{title}</A> &gt; Story</FONT><BR>
<!-- story start -->
<TABLE width="100%" cellpadding="0" cellspacing="0"><TR><TD class="storycell">
<h1><FONT face="Georgia">{e(article.title)}</FONT></h1>
<P class="intro"><B>{e(article.standfirst)}</B></P>
<FONT size="1" color="#666666">Posted: {when:%d/%m/%Y %H:%M} | Filed under {title}</FONT>
<TABLE align="right" width="180" cellpadding="4"><TR><TD bgcolor="#efeadc"><FONT size="1">
<A href="#" onclick="popup('/print.php?id={e(article.slug)}');return false;">Print this story</A><BR>
<A href="/email.php?id={e(article.slug)}" onclick="popup(this.href);return false;">E-mail to a friend</A><BR>
<A href="https://twitter.com/intent/tweet?url={share}" target="_blank">Share on Twitter</A><BR>
<A href="https://www.facebook.com/sharer/sharer.php?u={share}" target="_blank">Share on Facebook</A><BR>
<A href="javascript:void(0)" onclick="window.external.AddFavorite(location.href, document.title);">\
Bookmark</A></FONT></TD></TR></TABLE>
{body_html(article)}
</TD></TR></TABLE>
<!-- story end -->
<P><FONT size="1">Story by {self._writer_link(ctx, article)}. More on: {self._tag_links(article.topics)}</FONT></P>
<HR size="1"><FONT size="1">Have a health story? E-mail the newsdesk. Letters may be edited for length.</FONT>"""
        right = self._headlines_box(ctx, "Related stories", _related(ctx, article))
        right += self._headlines_box(ctx, "Latest headlines", [a for a, _ in ctx.published[:5]])
        # The visible date is dd/mm/yyyy text; machines get it from a microdata meta tag.
        head = (
            f'<META name="description" content="{e(article.standfirst)}">\n'
            f'<META itemprop="datePublished" content="{when.isoformat()}">\n'
        )
        return self._page(ctx, article.title, path, center, right, extra_head=head)

    def info_page(self, ctx: PageContext, title: str, text: str) -> str:
        center = f'<FONT face="Georgia" size="5"><B>{e(title)}</B></FONT><HR size="1"><P>{e(text)}</P>'
        return self._page(ctx, title, "/", center, "")

    def shell(self, ctx: PageContext, title: str, canonical: str, main: str, head_extra: str = "") -> str:
        return self._page(ctx, title, canonical, main, "", extra_head=head_extra)

    def listing(self, ctx: PageContext, title: str, canonical: str, items: list, pager: Pager, intro: str = "") -> str:
        more = f'<A href="{e(pager.older)}"><B>More stories &raquo;</B></A>' if pager.older else ""
        back = f'<A href="{e(pager.newer)}">&laquo; Back</A> ' if pager.newer else ""
        center = f"""<FONT face="Verdana" size="1"><A href="/">Front Page</A> &gt; {e(title)}</FONT><BR>
<FONT face="Georgia" size="5"><B>{e(title)}</B></FONT><HR size="1">
{intro}
{self._list(ctx, items) if items else "<P>No stories here yet.</P>"}
<P align="right">{back}{more}</P>"""
        right = self._headlines_box(ctx, "Latest headlines", [a for a, _ in ctx.published[:5]])
        return self._page(ctx, title, canonical, center, right)


class WellbeingTemplate(Template):
    page_size = 8
    front_size = 9
    feed_path = "/feed/atom/"
    sitemaps = {"index": "/sitemap.xml", "articles": "/sitemaps/articles.xml", "news": "/sitemaps/news.xml"}

    def front_path(self, page: int) -> str:
        return "/" if page <= 1 else f"/?page={page}"

    def tag_path(self, topic: str, page: int = 1) -> str:
        return f"/topics/{topic}/" + (f"?page={page}" if page > 1 else "")

    def author_path(self, writer: str, page: int = 1) -> str:
        return f"/contributors/{writer}/" + (f"?page={page}" if page > 1 else "")

    def archive_path(self, month: str, page: int = 1) -> str:
        return f"/{month}/" + (f"?page={page}" if page > 1 else "")

    def archive_months(self, ctx: PageContext) -> list[str]:
        return _months(ctx)

    def article_path(self, article: Article) -> str:
        return f"/{article.section}/{article.slug}/"

    def section_path(self, section: str, page: int = 1) -> str:
        return f"/{section}/" + (f"?page={page}" if page > 1 else "")

    def match(self, path: str, query: str) -> tuple[str, ...] | None:
        parts = [p for p in path.split("/") if p]
        if not path.endswith("/") or not parts:
            return None
        if len(parts) == 1:
            return ("section", parts[0], str(_qs_int(query, "page", 1)))
        if len(parts) == 2:
            return ("article", parts[1], parts[0])
        return None

    def link(self, path: str, where: str = "") -> str:
        # The tracking parameters go before any fragment: /mind/x/?utm_source=...#comments
        path, _, fragment = path.partition("#")
        sep = "&" if "?" in path else "?"
        tracked = f"{path}{sep}utm_source=wbt&utm_medium={where or 'web'}&utm_campaign=organic"
        return e(tracked + (f"#{fragment}" if fragment else ""))

    def _page(
        self, ctx: PageContext, title: str, canonical: str, main: str, head_extra: str = "", footer_extra: str = ""
    ) -> str:
        nav = "".join(
            f'<li><a href="{self.link(self.section_path(s), "nav")}">{SECTION_TITLES[s]}</a></li>'
            for s in ctx.site.sections
        )
        options = "".join(
            f'<option value="{self.link(self.section_path(s), "jump")}">{SECTION_TITLES[s]}</option>'
            for s in ctx.site.sections
        )
        trending = "".join(
            f'<li><a href="{self.link(self.article_path(a), "trending")}">{e(a.title)}</a></li>'
            for a, _ in ctx.published[:4]
        )
        archives = "".join(
            f'<li><a href="{self.link(self.archive_path(m), "archive")}">{month_title(m)}</a></li>'
            for m in self.archive_months(ctx)
        )
        return f"""<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{e(title)} &#8212; {e(ctx.site.name)}</title>
<link rel="canonical" href="{e(ctx.base_url + canonical)}">
<link rel="preconnect" href="https://fonts.example.org">
<link rel="stylesheet" href="/static/wbt.css?v=20250301">
<link rel="alternate" type="application/atom+xml" title="{e(ctx.site.name)}" href="{self.feed_path}">
{head_extra}<script defer src="/static/site.js"></script>
<script>
  (function(w,d){{w._wbt=w._wbt||[];w._wbt.push(['pageview',d.location.pathname]);}})(window,document);
</script>
</head>
<body>
<a class="skip-link" href="#main-content">Skip to main content</a>
<dialog class="consent" open><p>Wellbeing Times and our 142 partners store and access information on your \
device to personalise content and ads.</p><form method="dialog"><button onclick="wbtConsent(true)">I agree\
</button> <button onclick="wbtConsent(false)">Reject non-essential</button></form></dialog>
<header class="site-header">
<a class="brand" href="{self.link("/", "logo")}"><img src="/static/wbt-logo.svg" alt="{e(ctx.site.name)}" \
width="200" height="40"></a>
<nav aria-label="Main"><ul class="menu"><li><a href="{self.link("/", "nav")}">Home</a></li>{nav}\
<li><a href="{self.link("/community/", "nav")}">Community</a></li>\
<li><a href="{self.link("/newsletter/", "nav")}">Newsletter</a></li></ul></nav>
<label class="topic-jump">Browse topics <select onchange="location.href=this.value">\
<option value="">Choose a topic</option>{options}</select></label>
<button class="menu-toggle" aria-expanded="false" onclick="this.setAttribute('aria-expanded', \
this.getAttribute('aria-expanded') !== 'true')">Menu</button>
</header>
<!-- promo:top -->
<aside class="promo promo-top" data-ad-slot="wbt-top-970"><span class="promo-label">Sponsored</span>
<a href="http://ads.example.net/click?slot=wbt-970&amp;cid=3307" rel="sponsored nofollow">Feel calmer in 10 \
days: try the Serenity app free</a></aside>
<main id="main-content">
{main}
</main>
<aside class="sidebar">
<section class="trending"><h2>Trending</h2><ol>{trending}</ol></section>
<section class="topics"><h2>Topics</h2><p>{self._tag_links(popular_topics(ctx), "sidebar", " &middot; ")}</p></section>
<section class="archives"><h2>Archives</h2><ul>{archives}</ul></section>
<section class="newsletter-signup"><h2>The Wellbeing Edit</h2><p>A calmer inbox: one email every Sunday with \
the week's best reads.</p><form action="/newsletter/" method="post"><input type="email" name="email" \
required placeholder="you@example.com"><button>Subscribe</button></form></section>
<aside class="promo" data-ad-slot="wbt-mpu"><span class="promo-label">Advertisement</span>\
<img src="/static/ad-300x250.gif" alt="Sleep better on a Dreamwell mattress" width="300" height="250"></aside>
</aside>
<footer class="site-footer">
<nav aria-label="Footer"><a href="{self.link("/about/", "footer")}">About</a> \
<a href="{self.link("/privacy/", "footer")}">Privacy &amp; cookies</a> \
<a href="{self.link("/terms/", "footer")}">Terms</a> <a href="{self.link("/contact/", "footer")}">Contact</a> \
<a href="{self.link("/newsletter/", "footer")}">Newsletter</a> <a href="{self.link("/community/", "footer")}">\
Community</a> <a href="{self.feed_path}">Atom feed</a>{footer_extra}</nav>
<p class="legal">&copy; {ctx.year} Wellbeing Times Media. Content is for information only and does not \
replace medical advice.</p>
<a class="back-to-top" href="#top">Back to top</a>
</footer>
<script>
function wbtConsent(ok) {{ localStorage.setItem('wbt-consent', ok ? 'all' : 'essential'); }}
</script>
<script async src="https://tags.example.net/wbt/analytics.js"></script>
</body>
</html>
"""

    def _card(self, ctx: PageContext, article: Article, when: datetime, where: str) -> str:
        href = self.link(self.article_path(article), where)
        comments = self.link(self.article_path(article) + "#comments", where)
        return f"""<article class="card"><h3 class="card-title"><a href="{href}">{e(article.title)}</a></h3>
<p class="card-dek">{e(article.standfirst)}</p>
<p class="card-meta">{self._writer_link(ctx, article, where)} &middot; \
<time datetime="{when.isoformat()}">{when:%-d %b %Y}</time> &middot; <a href="{comments}">Comments</a></p>
<p class="card-tags">{self._tag_links(article.topics, where, " ")}</p></article>"""

    def home(self, ctx: PageContext) -> str:
        cards = "\n".join(self._card(ctx, a, d, "home") for a, d in ctx.published[: self.front_size])
        older = ""
        if len(ctx.published) > self.front_size:
            older = f'<a rel="next" href="{self.link(self.front_path(2), "pager")}">Older stories</a> '
        main = f"""<section class="latest"><h1 class="visually-hidden">{e(ctx.site.name)}</h1>
<h2>Latest stories</h2>
{cards}
<p class="more">{older}<a href="{self.link(self.section_path(ctx.site.sections[0]), "home")}">See more stories</a></p>
</section>"""
        staff = f' <a href="{self.link("/private/staff-notes.html", "footer")}">Contributors</a>'
        return self._page(ctx, "Health and wellbeing news", "/", main, footer_extra=staff)

    def section(self, ctx: PageContext, section: str, page: int = 1) -> str:
        items, pages = _pages(ctx.published_in(section), page, self.page_size)
        cards = "\n".join(self._card(ctx, a, d, "section") for a, d in items) or "<p>Nothing here yet.</p>"
        nav = ""
        if page < pages:
            nav += f'<a rel="next" href="{self.link(self.section_path(section, page + 1), "pager")}">Older stories</a>'
        if page > 1:
            nav += f' <a rel="prev" href="{self.link(self.section_path(section, page - 1), "pager")}">Newer stories</a>'
        title = SECTION_TITLES[section]
        main = f"""<nav class="breadcrumbs" aria-label="Breadcrumb"><a href="{self.link("/", "crumb")}">Home</a> \
&rsaquo; <span>{title}</span></nav>
<section class="section-list"><h1>{title}</h1>
{cards}
<nav class="pagination">{nav}</nav></section>"""
        return self._page(ctx, title, self.section_path(section, page), main)

    def article(self, ctx: PageContext, article: Article) -> str:
        when = ctx.date_of(article) or FIXED_EPOCH
        path = self.article_path(article)
        canonical_url = ctx.base_url + path
        share = quote(canonical_url, safe="")
        related = "".join(
            f'<li><a href="{self.link(self.article_path(a), "related")}">{e(a.title)}</a></li>'
            for a in _related(ctx, article, 3)
        )
        title = SECTION_TITLES[article.section]
        thread = thread_for(article.topics)
        ld = (
            '{"@context":"https://schema.org","@type":"NewsArticle","headline":'
            + _json_str(article.title)
            + ',"datePublished":"'
            + when.isoformat()
            + '","publisher":{"@type":'
            '"Organization","name":' + _json_str(ctx.site.name) + "}}"
        )
        head = (
            f'<meta name="description" content="{e(article.standfirst)}">\n'
            f'<meta property="og:title" content="{e(article.title)}">\n'
            f'<meta property="og:url" content="{e(canonical_url)}">\n'
            f'<script type="application/ld+json">{ld}</script>\n'
        )
        main = f"""<nav class="breadcrumbs" aria-label="Breadcrumb"><a href="{self.link("/", "crumb")}">Home</a> \
&rsaquo; <a href="{self.link(self.section_path(article.section), "crumb")}">{title}</a></nav>
<article class="post">
<header class="post-header">
<p class="kicker">{title}</p>
<h1>{e(article.title)}</h1>
<p class="dek">{e(article.standfirst)}</p>
<p class="post-meta">By {self._writer_link(ctx, article)} \
&middot; <time datetime="{when.isoformat()}">{when:%-d %B %Y}</time> &middot; 4 min read</p>
</header>
<div class="post-body">
{body_html(article, self.link(self.section_path(article.section), "body"))}
</div>
<footer class="post-footer">
<ul class="share" aria-label="Share this story">
<li><a href="https://www.facebook.com/sharer.php?u={share}">Facebook</a></li>
<li><a href="https://twitter.com/intent/tweet?url={share}">X</a></li>
<li><a href="https://wa.me/?text={share}">WhatsApp</a></li>
<li><button onclick="navigator.clipboard.writeText('{e(canonical_url)}')">Copy link</button></li>
</ul>
<p class="topics">Filed in <a href="{self.link(self.section_path(article.section), "tag")}">{title}</a>: \
{self._tag_links(article.topics)}</p>
</footer>
</article>
<aside class="related" aria-label="Related stories"><h2>You might also like</h2><ul>{related}</ul></aside>
<section id="comments" class="comments"><h2>Comments (2)</h2>
<ol><li><p class="comment-author">Jo, Leeds</p><p>Really useful, thank you. Sharing with my sister.</p></li>
<li><p class="comment-author">anon</p><p>Wish my GP had told me this years ago!</p></li></ol>
<p><a href="{self.link(path + "#respond", "comments")}">Leave a comment</a> or join the discussion in our \
community: <a href="{self.link(thread_path(thread), "discuss")}">{e(thread.title)}</a></p></section>"""
        return self._page(ctx, article.title, path, main, head_extra=head)

    def info_page(self, ctx: PageContext, title: str, text: str) -> str:
        main = f'<article class="page"><h1>{e(title)}</h1><p>{e(text)}</p></article>'
        return self._page(ctx, title, "/", main)

    def shell(self, ctx: PageContext, title: str, canonical: str, main: str, head_extra: str = "") -> str:
        return self._page(ctx, title, canonical, main, head_extra=head_extra)

    def listing(self, ctx: PageContext, title: str, canonical: str, items: list, pager: Pager, intro: str = "") -> str:
        cards = "\n".join(self._card(ctx, a, d, "listing") for a, d in items) or "<p>Nothing here yet.</p>"
        nav = f'<a rel="next" href="{self.link(pager.older, "pager")}">Older stories</a>' if pager.older else ""
        if pager.newer:
            nav += f' <a rel="prev" href="{self.link(pager.newer, "pager")}">Newer stories</a>'
        main = f"""<nav class="breadcrumbs" aria-label="Breadcrumb"><a href="{self.link("/", "crumb")}">Home</a> \
&rsaquo; <span>{e(title)}</span></nav>
<section class="archive-list"><h1>{e(title)}</h1>
{intro}
{cards}
<nav class="pagination">{nav}</nav></section>"""
        # the collection's own metadata, as a site's SEO plug-in writes it
        ld = '{"@context":"https://schema.org","@type":"CollectionPage","name":' + _json_str(title) + "}"
        return self._page(ctx, title, canonical, main, head_extra=f'<script type="application/ld+json">{ld}</script>\n')


def thread_path(thread) -> str:
    """A discussion of the Wellbeing Times community (Discourse's address shape)."""
    return f"/community/t/{thread.slug}/{thread.number}/"


def month_title(month: str) -> str:
    return datetime.strptime(month, "%Y/%m").strftime("%B %Y")


def _json_str(text: str) -> str:
    import json

    return json.dumps(text).replace("</", "<\\/")


def _long_date(when: datetime) -> str:
    return f"{when:%-d %B %Y, %H:%M}"


TEMPLATE_CLASSES: dict[str, Template] = {
    "healthwatch": HealthWatchTemplate(),
    "courier": CourierTemplate(),
    "wellbeing": WellbeingTemplate(),
}


def template_for(site: SiteSpec) -> Template:
    return TEMPLATE_CLASSES[site.template]


# ----------------------------------------------------------------------------------------------------
# RSS, robots.txt and small pages shared by all templates
# ----------------------------------------------------------------------------------------------------


def render_rss(ctx: PageContext, limit: int = 20) -> str:
    """RSS 2.0 feed of the newest ``limit`` published articles (absolute links, RFC 822 dates)."""
    tpl = template_for(ctx.site)
    items = []
    for article, when in ctx.published[:limit]:
        url = ctx.base_url + tpl.article_path(article)
        items.append(f"""  <item>
    <title>{e(article.title)}</title>
    <link>{e(url)}</link>
    <guid isPermaLink="true">{e(url)}</guid>
    <pubDate>{format_datetime(when)}</pubDate>
    <category>{e(SECTION_TITLES[article.section])}</category>
    <description>{e(article.standfirst)}</description>
  </item>""")
    last = format_datetime(ctx.published[0][1] if ctx.published else FIXED_EPOCH)
    return f"""<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
<channel>
  <title>{e(ctx.site.name)}</title>
  <link>{e(ctx.base_url)}/</link>
  <description>Latest health news from {e(ctx.site.name)}</description>
  <language>en-gb</language>
  <lastBuildDate>{last}</lastBuildDate>
  <atom:link href="{e(ctx.base_url)}/rss.xml" rel="self" type="application/rss+xml"/>
{chr(10).join(items)}
</channel>
</rss>
"""


INFO_PAGES = {
    "about": ("About us", "We are an independent team of health journalists. We do not accept payment for coverage."),
    "privacy": (
        "Privacy policy",
        "We store the minimum data needed to send our newsletter. Cookies are used for "
        "analytics and advertising; you can change your choice at any time.",
    ),
    "terms": ("Terms of use", "All content is copyright. You may link to our stories but not republish them."),
    "contact": ("Contact", "Write to the newsdesk at the address below. We cannot give individual medical advice."),
    "advertise": ("Advertise with us", "Reach thousands of health-conscious readers every day."),
    "newsletter": ("Newsletter", "Sign up for our free newsletter with the best stories of the week."),
    "search": ("Search", "Search is temporarily unavailable."),
    "email": ("E-mail this story", "Send this story to a friend: enter their address and yours, and a short note."),
    "sitemap": ("Site map", "Home, news sections, topics, writers, the archive and the shop: everything on one page."),
}

STAFF_NOTES_TITLE = "Staff notes - not for publication"
STAFF_NOTES_TEXT = (
    "Embargoed stories and editorial planning. This page is disallowed in robots.txt; a polite "
    "crawler never fetches it."
)


# ----------------------------------------------------------------------------------------------------
# Pure rendering helpers for experiments (no server, fixed dates)
# ----------------------------------------------------------------------------------------------------


def fixed_context(site: SiteSpec | str, base_url: str | None = None, upto: int | None = None) -> PageContext:
    """A context in which the first ``upto`` (default: all) articles are published at fixed dates."""
    spec = get_site(site) if isinstance(site, str) else site
    articles = spec.articles if upto is None else spec.articles[:upto]
    published = tuple((a, FIXED_EPOCH + timedelta(hours=6 * i)) for i, a in reversed(list(enumerate(articles))))
    return PageContext(spec, base_url or spec.base_url(), published)


def render_article_page(site_key: str, slug: str, base_url: str | None = None) -> str:
    """The HTML page of one pool article, as its site serves it (all the site's articles published)."""
    ctx = fixed_context(site_key, base_url)
    return template_for(ctx.site).article(ctx, ctx.site.article(slug))


def render_section_page(site_key: str, section: str, page: int = 1, base_url: str | None = None) -> str:
    ctx = fixed_context(site_key, base_url)
    if section not in ctx.site.sections:
        raise KeyError(f"site {site_key!r} has no section {section!r}")
    return template_for(ctx.site).section(ctx, section, page)


def render_home_page(site_key: str, base_url: str | None = None) -> str:
    ctx = fixed_context(site_key, base_url)
    return template_for(ctx.site).home(ctx)


def article_url(site: SiteSpec, article: Article, base_url: str) -> str:
    """The canonical absolute URL of an article."""
    return base_url + template_for(site).article_path(article)
