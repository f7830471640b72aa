# ruff: noqa: E501  -- HTML templates: markup lines are kept whole so the pages read like real sites
"""*The Morning Pulse*: a regional health newsroom on a modern JavaScript front end (a ``__next`` root, utility
classes, ``data-testid`` attributes, a cookie-consent manager, an RSS feed under ``/feeds/``), and the fourth demo
site: ``make run`` serves it but does not register it, so that a newcomer registers it by its home page alone.
Stories ``/<section>/<slug>-<id>`` (a numeric id after the headline's slug, no trailing slash), sections
``/<section>/`` and ``/<section>/page/N/``, the latest stories' further pages ``/latest/page/N/``, topics
``/topic/<topic>/``, writers ``/writers/<writer>/``, month archives ``/archive/2025/03/``; sitemaps named in
robots.txt (an index, every story, a Google News sitemap)."""

from __future__ import annotations

import zlib
from datetime import datetime
from urllib.parse import quote

from .articles import Article
from .furniture import Report, topic_title, writer_of
from .pages import (
    FEED_PATHS,
    FIXED_EPOCH,
    SECTION_TITLES,
    PageContext,
    Pager,
    Template,
    body_html,
    e,
    json_str,
    month_title,
    months_of,
    paginate,
    popular_topics,
    related_stories,
)


def story_id(article: Article) -> int:
    """The CMS's number of a story: stable by its slug, six digits (a follow-up has its own)."""
    return 100000 + zlib.crc32(f"pulse/{article.slug}".encode()) % 900000


class PulseTemplate(Template):
    page_size = 5
    front_size = 7
    feed_path = FEED_PATHS["pulse"]
    sitemaps = {"index": "/sitemap-index.xml", "articles": "/sitemap-stories.xml", "news": "/sitemap-news.xml"}

    def front_path(self, page: int) -> str:
        return "/" if page <= 1 else f"/latest/page/{page}/"

    def tag_path(self, topic: str, page: int = 1) -> str:
        return f"/topic/{topic}/" + (f"page/{page}/" if page > 1 else "")

    def author_path(self, writer: str, page: int = 1) -> str:
        return f"/writers/{writer}/" + (f"page/{page}/" if page > 1 else "")

    def archive_path(self, month: str, page: int = 1) -> str:
        return f"/archive/{month}/" + (f"page/{page}/" if page > 1 else "")

    def archive_months(self, ctx: PageContext) -> list[str]:
        return months_of(ctx)

    def article_path(self, article: Article) -> str:
        return f"/{article.section}/{article.slug}-{story_id(article)}"

    def section_path(self, section: str, page: int = 1) -> str:
        return f"/{section}/" + (f"page/{page}/" if page > 1 else "")

    def report_path(self, report: Report) -> str:
        return f"/{report.section}/{report.slug}"

    def match(self, path: str, query: str) -> tuple[str, ...] | None:
        parts = [p for p in path.split("/") if p]
        if path.endswith("/") and len(parts) == 1:
            return ("section", parts[0], "1")
        if path.endswith("/") and len(parts) == 3 and parts[1] == "page" and parts[2].isdigit():
            return ("section", parts[0], parts[2])
        if not path.endswith("/") and len(parts) == 2:
            slug, _, number = parts[1].rpartition("-")
            if slug and number.isdigit():
                return ("article", slug, parts[0])
        return None

    # page parts ------------------------------------------------------------------------------------------
    def _head(self, ctx: PageContext, title: str, canonical: str, extra: str = "") -> str:
        return f"""<!DOCTYPE html>
<html lang="en-GB" class="no-js">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<title>{e(title)}</title>
<link rel="canonical" href="{e(ctx.base_url + canonical)}">
<link rel="alternate" type="application/rss+xml" title="{e(ctx.site.name)}: all stories" href="{self.feed_path}">
<link rel="preload" as="font" href="/_next/static/media/inter.woff2" crossorigin>
<link rel="stylesheet" href="/_next/static/css/app-3f9a2c.css">
<meta property="og:site_name" content="{e(ctx.site.name)}">
{extra}<script id="__consent" src="https://cmp.example.com/pulse/loader.js" async></script>
</head>
<body class="bg-white text-slate-900 antialiased">
<div id="__next">
<div class="cmp-banner fixed bottom-0" role="dialog" aria-label="Your privacy">We and our partners use cookies to \
measure audiences and fund our journalism. <button data-testid="cmp-accept">Accept</button> \
<button data-testid="cmp-manage">Manage preferences</button> <a href="/privacy/">Read our privacy notice</a></div>
<div class="ticker flex gap-2" data-testid="breaking"><span class="uppercase font-bold">Live</span> \
<span>Updates from our newsroom through the day</span></div>
"""

    def _masthead(self, ctx: PageContext) -> str:
        sections = "".join(
            f'<li class="px-3"><a class="nav-link" href="{self.section_path(s)}">{SECTION_TITLES[s]}</a></li>'
            for s in ctx.site.sections
        )
        trending = "".join(
            f'<a class="chip" href="{self.tag_path(t)}">{topic_title(t)}</a>' for t in popular_topics(ctx, 5)
        )
        return f"""<header class="masthead border-b" data-testid="masthead">
<div class="container flex items-center justify-between">
<a href="/" class="logo" aria-label="{e(ctx.site.name)} home"><svg width="180" height="32" role="img"><title>\
{e(ctx.site.name)}</title></svg></a>
<div class="actions"><a class="btn btn-outline" href="/newsletter/">Get the morning briefing</a> \
<a class="btn" href="/advertise/">Advertise</a></div>
</div>
<nav class="primary-nav" aria-label="Sections"><ul class="flex">\
<li class="px-3"><a class="nav-link" href="/">Top stories</a></li>{sections}\
<li class="px-3"><a class="nav-link" href="/about/">Who we are</a></li></ul></nav>
<div class="trending flex gap-2" data-testid="trending"><span class="label">Trending:</span>{trending}</div>
</header>
"""

    def _rail(self, ctx: PageContext) -> str:
        most_read = "".join(
            f'<li class="py-2"><span class="rank">{n}</span> <a href="{self.article_path(a)}">{e(a.title)}</a></li>'
            for n, (a, _) in enumerate(ctx.published[:5], 1)
        )
        months = "".join(
            f'<li><a href="{self.archive_path(m)}">{month_title(m)}</a></li>' for m in self.archive_months(ctx)
        )
        return f"""<aside class="rail" data-testid="rail">
<section class="most-read"><h2 class="rail-title">Most read</h2><ol>{most_read}</ol></section>
<div class="ad-slot" data-slot="pulse-rail-300x600"><span class="ad-label">Advertisement</span>\
<a href="https://ads.example.net/click?slot=pulse-rail&amp;cid=5521" rel="sponsored nofollow">\
<img src="/_next/static/media/ad-300x600.jpg" alt="Book a private health check from 99 pounds" width="300" height="600"></a></div>
<section class="briefing-signup"><h2 class="rail-title">The morning briefing</h2><p>Five health stories before \
breakfast, every weekday. Free.</p><form action="/newsletter/" method="post"><input type="email" name="email" \
placeholder="Email address" aria-label="Email address"><button type="submit">Sign me up</button></form></section>
<section class="archive-list"><h2 class="rail-title">From the archive</h2><ul>{months}</ul></section>
</aside>
"""

    def _footer(self, ctx: PageContext) -> str:
        sections = "".join(
            f'<li><a href="{self.section_path(s)}">{SECTION_TITLES[s]}</a></li>' for s in ctx.site.sections
        )
        return f"""<footer class="site-footer mt-8" data-testid="footer">
<div class="grid grid-cols-3">
<div><h3>Sections</h3><ul>{sections}</ul></div>
<div><h3>The Morning Pulse</h3><ul><li><a href="/about/">About us</a></li><li><a href="/contact/">Contact \
the newsroom</a></li><li><a href="/advertise/">Advertise</a></li><li><a href="/newsletter/">Newsletters</a></li></ul></div>
<div><h3>Legal</h3><ul><li><a href="/privacy/">Privacy notice</a></li><li><a href="/terms/">Terms and \
conditions</a></li><li><a href="{self.feed_path}">RSS</a></li></ul></div>
</div>
<p class="small">&copy; {ctx.year} Morning Pulse Media Ltd. Our journalism is for general information and is not \
medical advice; if you are worried about your health, contact your GP or call the 111 service.</p>
</footer>
</div>
<script id="__NEXT_DATA__" type="application/json">{{"page":"/","buildId":"pulse-2025-03","isFallback":false}}</script>
<script src="/_next/static/chunks/main-8c1d.js" defer></script>
</body>
</html>
"""

    def _page(self, ctx: PageContext, title: str, canonical: str, main: str, extra: str = "") -> str:
        return (
            self._head(ctx, title, canonical, extra)
            + self._masthead(ctx)
            + f"""<div class="container grid grid-cols-12 gap-6">
<main class="col-span-8" id="content">
{main}
</main>
{self._rail(ctx)}</div>
"""
            + self._footer(ctx)
        )

    def _card(self, ctx: PageContext, article: Article, when: datetime, lead: bool = False) -> str:
        writer = writer_of(ctx.site.template, article)
        size = "text-3xl" if lead else "text-lg"
        return f"""<div class="story-card" data-testid="story-card" data-id="{story_id(article)}">
<a class="kicker" href="{self.section_path(article.section)}">{SECTION_TITLES[article.section]}</a>
<h3 class="{size} font-semibold"><a class="story-link" href="{self.article_path(article)}">{e(article.title)}</a></h3>
<p class="summary">{e(article.standfirst)}</p>
<div class="meta text-sm"><a href="{self.author_path(writer.slug)}">{writer.name}</a> \
<time datetime="{when.isoformat()}">{when:%-d %b %Y %H:%M}</time></div>
</div>"""

    def _pager(self, pager: Pager) -> str:
        links = [f'<a class="btn" href="{pager.newer}">Newer</a>'] if pager.newer else []
        links.append(f'<span class="text-sm">Page {pager.page} of {pager.pages}</span>')
        if pager.older:
            links.append(f'<a class="btn" rel="next" href="{pager.older}">Load more stories</a>')
        return f'<nav class="pagination flex gap-2" aria-label="Pages">{" ".join(links)}</nav>'

    # pages -----------------------------------------------------------------------------------------------
    def home(self, ctx: PageContext) -> str:
        stories = ctx.published[: self.front_size]
        lead = self._card(ctx, *stories[0], lead=True) if stories else '<p class="empty">No stories yet.</p>'
        rest = "\n".join(self._card(ctx, a, d) for a, d in stories[1:])
        pages = -(-len(ctx.published) // self.front_size)
        pager = self._pager(Pager(1, max(1, pages), None, self.front_path(2) if pages > 1 else None))
        main = f"""<h1 class="sr-only">{e(ctx.site.name)}: health news for the North West</h1>
<section class="lead-story" data-testid="lead">{lead}</section>
<section class="river grid gap-4" data-testid="latest"><h2 class="section-heading">Latest</h2>
{rest}
</section>
{pager}"""
        return self._page(ctx, f"{ctx.site.name} | Health news for the North West", "/", main)

    def section(self, ctx: PageContext, section: str, page: int = 1) -> str:
        items, pages = paginate(ctx.published_in(section), page, self.page_size)
        cards = "\n".join(self._card(ctx, a, d) for a, d in items) or '<p class="empty">No stories yet.</p>'
        pager = Pager(
            page,
            pages,
            self.section_path(section, page - 1) if page > 1 else None,
            self.section_path(section, page + 1) if page < pages else None,
        )
        title = SECTION_TITLES[section]
        main = f"""<nav class="breadcrumbs text-sm"><a href="/">Top stories</a> / <span>{title}</span></nav>
<h1 class="section-title">{title}</h1>
<section class="river grid gap-4">
{cards}
</section>
{self._pager(pager)}"""
        return self._page(ctx, f"{title} | {ctx.site.name}", self.section_path(section, page), main)

    def listing(self, ctx: PageContext, title: str, canonical: str, items: list, pager: Pager, intro: str = "") -> str:
        cards = "\n".join(self._card(ctx, a, d) for a, d in items) or '<p class="empty">No stories yet.</p>'
        main = f"""<nav class="breadcrumbs text-sm"><a href="/">Top stories</a> / <span>{e(title)}</span></nav>
<h1 class="section-title">{e(title)}</h1>
{intro}
<section class="river grid gap-4">
{cards}
</section>
{self._pager(pager)}"""
        return self._page(ctx, f"{title} | {ctx.site.name}", canonical, main)

    def article(self, ctx: PageContext, article: Article) -> str:
        when = ctx.date_of(article) or FIXED_EPOCH
        path = self.article_path(article)
        url = quote(ctx.base_url + path, safe="")
        writer = writer_of(ctx.site.template, article)
        section = SECTION_TITLES[article.section]
        ld = (
            '{"@context":"https://schema.org","@type":"NewsArticle",'
            f'"headline":{json_str(article.title)},"datePublished":"{when.isoformat()}",'
            f'"author":{{"@type":"Person","name":{json_str(writer.name)}}},'
            f'"publisher":{{"@type":"Organization","name":{json_str(ctx.site.name)}}}}}'
        )
        extra = (
            f'<meta name="description" content="{e(article.standfirst)}">\n'
            f'<meta property="og:type" content="article">\n<meta property="og:title" content="{e(article.title)}">\n'
            f'<script type="application/ld+json">{ld}</script>\n'
        )
        read_next = "".join(
            f'<li><a href="{self.article_path(a)}">{e(a.title)}</a></li>' for a in related_stories(ctx, article, 3)
        )
        topics = " ".join(f'<a class="chip" href="{self.tag_path(t)}">{topic_title(t)}</a>' for t in article.topics)
        main = f"""<nav class="breadcrumbs text-sm"><a href="/">Top stories</a> / \
<a href="{self.section_path(article.section)}">{section}</a></nav>
<article class="story" data-testid="story">
<header><h1 class="text-4xl font-bold">{e(article.title)}</h1>
<p class="standfirst text-xl">{e(article.standfirst)}</p>
<div class="byline flex gap-2"><a href="{self.author_path(writer.slug)}" rel="author">{writer.name}</a> \
<span>{writer.role}</span> <time datetime="{when.isoformat()}">{when:%-d %B %Y, %H:%M}</time></div>
<div class="share flex gap-2" aria-label="Share"><a href="https://wa.me/?text={url}">WhatsApp</a> \
<a href="https://twitter.com/intent/tweet?url={url}">Post on X</a> \
<a href="https://www.facebook.com/sharer/sharer.php?u={url}">Facebook</a> \
<button data-testid="copy-link">Copy link</button></div></header>
<div class="prose" data-testid="story-body">
{body_html(article)}
</div>
<footer class="story-footer"><p class="topics">Topics: {topics}</p></footer>
</article>
<section class="read-next" data-testid="read-next"><h2>Read next</h2><ul>{read_next}</ul></section>"""
        return self._page(ctx, f"{article.title} | {ctx.site.name}", path, main, extra)

    def report(self, ctx: PageContext, report: Report, items: list) -> str:
        cards = "\n".join(self._card(ctx, a, d) for a, d in items)
        main = f'<h1 class="section-title">{e(report.title)}</h1>\n<p>{e(report.intro)}</p>\n{cards}'
        return self._page(ctx, f"{report.title} | {ctx.site.name}", self.report_path(report), main)

    def info_page(self, ctx: PageContext, title: str, text: str) -> str:
        return self._page(
            ctx, f"{title} | {ctx.site.name}", "/", f'<h1 class="section-title">{e(title)}</h1>\n<p>{e(text)}</p>'
        )

    def shell(self, ctx: PageContext, title: str, canonical: str, main: str, head_extra: str = "") -> str:
        return self._page(ctx, f"{title} | {ctx.site.name}", canonical, main, head_extra)
