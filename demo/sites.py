# ruff: noqa: E501  -- HTML templates: markup lines are kept whole so the pages read like real sites
"""Site definitions of the demo news sites, their templates, and pure renderers for experiments.

Rendering is pure: a :class:`PageContext` (site, base URL, the articles published so far with their dates)
goes in, a ``str`` of HTML or RSS comes out. The server (``server.py``) only adds the clock, the state and
HTTP; experiments call :func:`render_article_page` and friends directly to get labelled pages without a
server.

The four templates (``healthwatch.py``, ``courier.py``, ``wellbeing.py``, ``pulse.py``, on the base of ``pages.py``)
are deliberately unlike each other, because the noise filters learn per site; and like real news sites, their home and
section pages link much more than stories: sections, tags, writers, archives, further pages, about and privacy
pages, a shop or a forum (``listings.py`` serves those pages, ``sitemaps.py`` the sitemaps and the Atom feed).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta
from email.utils import format_datetime

from .articles import Article, articles_for_site
from .courier import CourierTemplate
from .furniture import report_of
from .healthwatch import HealthWatchTemplate
from .pages import (
    DEFAULT_PORT,
    FIXED_EPOCH,
    SECTION_TITLES,
    TEMPLATES,
    PageContext,
    Pager,
    SiteSpec,
    Template,
    e,
    month_title,
    thread_path,
)
from .pulse import PulseTemplate
from .wellbeing import WellbeingTemplate

__all__ = [
    "DEFAULT_PORT",
    "TEMPLATES",
    "SiteSpec",
    "FIXED_EPOCH",
    "SECTION_TITLES",
    "PageContext",
    "Pager",
    "Template",
    "e",
    "month_title",
    "thread_path",
]

#: The three demo sites ``make run`` registers (loopback addresses, port :data:`DEFAULT_PORT` by default): what the
#: bootstrap, the tests, the soak and the benchmarks register and poll.
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
#: The fourth demo site, which ``make run`` serves but leaves for the newcomer to register by its home page alone
#: (README, step 2): its own template and stories, on the real web's shape.
LEFT_TO_REGISTER = SiteSpec(
    "pulse",
    "The Morning Pulse",
    "127.0.0.14",
    "pulse",
    articles_for_site("pulse"),
    hostname="pulse.demo.test",
)
#: Every demo site the demo server serves: the registered three and the one left to register.
SERVED_SITES: tuple[SiteSpec, ...] = (*DEMO_SITES, LEFT_TO_REGISTER)
DEMO_SITES_BY_KEY = {s.key: s for s in SERVED_SITES}


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
        template = TEMPLATES[i % 3]  # the registered demo sites' three, as before the fourth
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
            special_report=False,  # the scale benchmark measures stories
        )


TEMPLATE_CLASSES: dict[str, Template] = {
    "healthwatch": HealthWatchTemplate(),
    "courier": CourierTemplate(),
    "wellbeing": WellbeingTemplate(),
    "pulse": PulseTemplate(),
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
  <atom:link href="{e(ctx.base_url + (tpl.feed_path or ""))}" rel="self" type="application/rss+xml"/>
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


def report_url(site: SiteSpec, base_url: str) -> str | None:
    """The canonical absolute URL of the site's special report, a listing at a story's address (None: no report)."""
    report = report_of(site)
    return base_url + template_for(site).report_path(report) if report else None
