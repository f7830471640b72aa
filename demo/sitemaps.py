"""What the demo sites tell machines: robots.txt with its ``Sitemap:`` line, a sitemap index, the sitemaps it lists
(every story, a Google News sitemap of the last two days', the Health Watch's other pages) and the Wellbeing
Times's Atom feed. All are rendered from the stories published so far, so they stay in step with the pages as the
sites publish.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from .furniture import PRODUCTS, writer_of
from .sites import INFO_PAGES, SECTION_TITLES, PageContext, e, template_for

ROBOTS_TXT = """# robots.txt for {name}
User-agent: *
Disallow: /private/
Disallow: /_control/
Disallow: /search.html

User-agent: BadBot
Disallow: /

Sitemap: {sitemap}
"""
#: a Google News sitemap lists the stories of the last two days only (Google's rule)
NEWS_WINDOW = timedelta(days=2)
SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
NEWS_NS = "http://www.google.com/schemas/sitemap-news/0.9"
XML = "application/xml; charset=utf-8"


def render_robots(ctx: PageContext) -> str:
    index = template_for(ctx.site).sitemaps["index"]
    return ROBOTS_TXT.format(name=ctx.site.name, sitemap=ctx.base_url + index)


def _newest(ctx: PageContext) -> str:
    return ctx.published[0][1].isoformat() if ctx.published else ""


def render_sitemap_index(ctx: PageContext) -> str:
    sitemaps = template_for(ctx.site).sitemaps
    lastmod = f"<lastmod>{_newest(ctx)}</lastmod>" if ctx.published else ""
    entries = "\n".join(
        f"  <sitemap><loc>{e(ctx.base_url + path)}</loc>{lastmod}</sitemap>"
        for name, path in sitemaps.items()
        if name != "index"
    )
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="{SITEMAP_NS}">
{entries}
</sitemapindex>
"""


def _urlset(entries: list[str], news: bool = False) -> str:
    namespaces = f'xmlns="{SITEMAP_NS}"' + (f' xmlns:news="{NEWS_NS}"' if news else "")
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset {namespaces}>\n' + "\n".join(entries) + "\n</urlset>\n"


def render_article_sitemap(ctx: PageContext) -> str:
    """Every published story with its date (newest first, as the site's plug-in writes them)."""
    tpl = template_for(ctx.site)
    return _urlset(
        [
            f"  <url><loc>{e(ctx.base_url + tpl.article_path(a))}</loc><lastmod>{d.isoformat()}</lastmod></url>"
            for a, d in ctx.published
        ]
    )


def render_news_sitemap(ctx: PageContext) -> str:
    """The stories of the last two days (counted back from the newest), with their ``news:`` publication data."""
    tpl = template_for(ctx.site)
    entries = []
    if ctx.published:
        since = ctx.published[0][1] - NEWS_WINDOW
        for article, when in ctx.published:
            if when < since:
                break
            entries.append(
                f"""  <url><loc>{e(ctx.base_url + tpl.article_path(article))}</loc>
    <news:news><news:publication><news:name>{e(ctx.site.name)}</news:name><news:language>en</news:language>\
</news:publication>
      <news:publication_date>{when.isoformat()}</news:publication_date>
      <news:title>{e(article.title)}</news:title></news:news></url>"""
            )
    return _urlset(entries, news=True)


def render_pages_sitemap(ctx: PageContext) -> str:
    """The site's other pages, as a WordPress SEO plug-in lists them: home, sections, tags, writers, shop, about."""
    tpl = template_for(ctx.site)
    paths = ["/", *(tpl.section_path(s) for s in ctx.site.sections)]
    paths += [tpl.tag_path(t) for t in sorted({t for a, _ in ctx.published for t in a.topics})]
    paths += [tpl.author_path(writer_of(ctx.site.template, a).slug) for a, _ in ctx.published]
    paths += ["/shop/", *(f"/shop/products/{p.slug}/" for p in PRODUCTS)]
    paths += [f"/{name}.html" for name in INFO_PAGES if name != "search"]
    return _urlset([f"  <url><loc>{e(ctx.base_url + p)}</loc></url>" for p in dict.fromkeys(paths)])


def render_atom(ctx: PageContext, limit: int = 20) -> str:
    """Atom 1.0 feed of the newest ``limit`` stories (the Wellbeing Times's; its links are clean, without utm_*)."""
    tpl = template_for(ctx.site)
    entries = []
    for article, when in ctx.published[:limit]:
        url = ctx.base_url + tpl.article_path(article)
        entries.append(f"""  <entry>
    <title>{e(article.title)}</title>
    <link rel="alternate" type="text/html" href="{e(url)}"/>
    <id>{e(url)}</id>
    <published>{when.isoformat()}</published>
    <updated>{when.isoformat()}</updated>
    <author><name>{e(writer_of(ctx.site.template, article).name)}</name></author>
    <category term="{article.section}" label="{SECTION_TITLES[article.section]}"/>
    <summary>{e(article.standfirst)}</summary>
  </entry>""")
    updated = _newest(ctx) or "2025-03-03T08:00:00+00:00"
    return f"""<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en-GB">
  <title>{e(ctx.site.name)}</title>
  <subtitle>Health and wellbeing news</subtitle>
  <link rel="alternate" type="text/html" href="{e(ctx.base_url)}/"/>
  <link rel="self" type="application/atom+xml" href="{e(ctx.base_url + (tpl.feed_path or ""))}"/>
  <id>{e(ctx.base_url)}/</id>
  <updated>{updated}</updated>
{chr(10).join(entries)}
</feed>
"""


def machine_files(ctx: PageContext) -> dict[str, tuple[Callable[[PageContext], str], str]]:
    """The site's sitemaps and Atom feed by path: each one's renderer and content type."""
    tpl = template_for(ctx.site)
    renderers: dict[str, Callable[[PageContext], str]] = {
        "index": render_sitemap_index,
        "articles": render_article_sitemap,
        "news": render_news_sitemap,
        "pages": render_pages_sitemap,
    }
    files = {path: (renderers[name], XML) for name, path in tpl.sitemaps.items()}
    if tpl.feed_path and tpl.feed_path.startswith("/feed/atom"):
        files[tpl.feed_path] = (render_atom, "application/atom+xml; charset=utf-8")
    return files
