# ruff: noqa: E501  -- HTML templates: markup lines are kept whole so the pages read like real sites
"""*Wellbeing Times*: semantic HTML5 (``<header>``, ``<nav>``, ``<main>``, ``<article>``, ``<aside>``), JSON-LD, reader
comments, an Atom feed, a community forum. Every internal link carries ``utm_*`` tracking parameters and some carry
fragments (``#comments``), so URL canonicalisation matters; ``<link rel=canonical>`` is clean. Stories
``/<section>/<slug>/``, sections ``/<section>/?page=N``, ``/?page=N``, ``/topics/<topic>/``, ``/contributors/<writer>/``,
month archives ``/2025/03/``, ``/community/``."""

from __future__ import annotations

from datetime import datetime
from urllib.parse import quote

from .articles import Article
from .furniture import Report, report_of, report_stories, thread_for
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
    qs_int,
    related_stories,
    thread_path,
)


class WellbeingTemplate(Template):
    page_size = 8
    front_size = 9
    feed_path = FEED_PATHS["wellbeing"]
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
        return months_of(ctx)

    def article_path(self, article: Article) -> str:
        return f"/{article.section}/{article.slug}/"

    def section_path(self, section: str, page: int = 1) -> str:
        return f"/{section}/" + (f"?page={page}" if page > 1 else "")

    def report_path(self, report: Report) -> str:
        return f"/{report.section}/{report.slug}/"

    def match(self, path: str, query: str) -> tuple[str, ...] | None:
        parts = [p for p in path.split("/") if p]
        if not path.endswith("/") or not parts:
            return None
        if len(parts) == 1:
            return ("section", parts[0], str(qs_int(query, "page", 1)))
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
        return (
            self._head(ctx, title, canonical, head_extra)
            + self._header(ctx)
            + f"""<!-- promo:top -->
<aside class="promo promo-top" data-ad-slot="wbt-top-970"><span class="promo-label">Sponsored</span>
<a href="http://ads.example.net/click?slot=wbt-970&amp;cid=3307" rel="sponsored nofollow">Feel calmer in 10 \
days: try the Serenity app free</a></aside>
<main id="main-content">
{main}
</main>
"""
            + self._sidebar(ctx)
            + self._footer(ctx, footer_extra)
        )

    def _head(self, ctx: PageContext, title: str, canonical: str, head_extra: str) -> str:
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
"""

    def _header(self, ctx: PageContext) -> str:
        nav = "".join(
            f'<li><a href="{self.link(self.section_path(s), "nav")}">{SECTION_TITLES[s]}</a></li>'
            for s in ctx.site.sections
        )
        options = "".join(
            f'<option value="{self.link(self.section_path(s), "jump")}">{SECTION_TITLES[s]}</option>'
            for s in ctx.site.sections
        )
        return f"""<body>
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
"""

    def _sidebar(self, ctx: PageContext) -> str:
        trending = "".join(
            f'<li><a href="{self.link(self.article_path(a), "trending")}">{e(a.title)}</a></li>'
            for a, _ in ctx.published[:4]
        )
        archives = "".join(
            f'<li><a href="{self.link(self.archive_path(m), "archive")}">{month_title(m)}</a></li>'
            for m in self.archive_months(ctx)
        )
        return f"""<aside class="sidebar">
<section class="trending"><h2>Trending</h2><ol>{trending}</ol></section>
<section class="topics"><h2>Topics</h2><p>{self._tag_links(popular_topics(ctx), "sidebar", " &middot; ")}</p></section>
<section class="archives"><h2>Archives</h2><ul>{archives}</ul></section>
<section class="newsletter-signup"><h2>The Wellbeing Edit</h2><p>A calmer inbox: one email every Sunday with \
the week's best reads.</p><form action="/newsletter/" method="post"><input type="email" name="email" \
required placeholder="you@example.com"><button>Subscribe</button></form></section>
<aside class="promo" data-ad-slot="wbt-mpu"><span class="promo-label">Advertisement</span>\
<img src="/static/ad-300x250.gif" alt="Sleep better on a Dreamwell mattress" width="300" height="250"></aside>
</aside>
"""

    def _footer(self, ctx: PageContext, footer_extra: str) -> str:
        return f"""<footer class="site-footer">
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
        main = f"""{self._report_promo(ctx)}<section class="latest"><h1 class="visually-hidden">{e(ctx.site.name)}</h1>
<h2>Latest stories</h2>
{cards}
<p class="more">{older}<a href="{self.link(self.section_path(ctx.site.sections[0]), "home")}">See more stories</a></p>
</section>"""
        staff = f' <a href="{self.link("/private/staff-notes.html", "footer")}">Contributors</a>'
        return self._page(ctx, "Health and wellbeing news", "/", main, footer_extra=staff)

    def _report_promo(self, ctx: PageContext) -> str:
        report = report_of(ctx.site)
        if report is None or len(report_stories(report, ctx.published)) < 2:  # a series of one is no series yet
            return ""
        return f"""<section class="series-promo"><p class="kicker">{e(report.label)}</p>
<h2><a href="{self.link(self.report_path(report), "promo")}">{e(report.teaser)}</a></h2></section>
"""

    def report(self, ctx: PageContext, report: Report, items: list) -> str:
        cards = "\n".join(self._card(ctx, a, d, "series") for a, d in items) or "<p>Nothing here yet.</p>"
        section = SECTION_TITLES[report.section]
        main = f"""<nav class="breadcrumbs" aria-label="Breadcrumb"><a href="{self.link("/", "crumb")}">Home</a> \
&rsaquo; <a href="{self.link(self.section_path(report.section), "crumb")}">{section}</a> &rsaquo; \
<span>{e(report.label)}</span></nav>
<section class="series"><header class="series-header"><p class="kicker">{e(report.label)}</p>
<h1>{e(report.title)}</h1>
<p class="dek">{e(report.intro)}</p>
<p class="series-meta">A Wellbeing Times series &middot; {len(items)} stories</p></header>
{cards}
<p class="more"><a href="{self.link(self.section_path(report.section), "series")}">More from {section}</a></p>
</section>"""
        # a series is a collection to the site's SEO plug-in, as its archives are: the page says what it is
        ld = '{"@context":"https://schema.org","@type":"CollectionPage","name":' + json_str(report.title) + "}"
        head = f'<script type="application/ld+json">{ld}</script>\n'
        return self._page(ctx, f"{report.label}: {report.title}", self.report_path(report), main, head_extra=head)

    def section(self, ctx: PageContext, section: str, page: int = 1) -> str:
        items, pages = paginate(ctx.published_in(section), page, self.page_size)
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
            for a in related_stories(ctx, article, 3)
        )
        title = SECTION_TITLES[article.section]
        thread = thread_for(article.topics)
        ld = (
            '{"@context":"https://schema.org","@type":"NewsArticle","headline":'
            + json_str(article.title)
            + ',"datePublished":"'
            + when.isoformat()
            + '","publisher":{"@type":'
            '"Organization","name":' + json_str(ctx.site.name) + "}}"
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
        ld = '{"@context":"https://schema.org","@type":"CollectionPage","name":' + json_str(title) + "}"
        return self._page(ctx, title, canonical, main, head_extra=f'<script type="application/ld+json">{ld}</script>\n')
