# ruff: noqa: E501  -- HTML templates: markup lines are kept whole so the pages read like real sites
"""*Health Watch Daily*: "div soup" with ids and classes, leaderboard and MPU ads, cookie banner, a jump menu,
most-read, topics and shop boxes, a newsletter form, an RSS feed. Stories ``/news/<section>/<slug>.html``, sections
``/news/<section>/?page=N``, ``/page/N/``, ``/tag/<topic>/``, ``/author/<writer>/``, ``/archive/``, ``/shop/``."""

from __future__ import annotations

from datetime import datetime
from urllib.parse import quote

from .articles import Article
from .furniture import Report, product_for, report_of, report_stories
from .pages import (
    FEED_PATHS,
    FIXED_EPOCH,
    SECTION_TITLES,
    PageContext,
    Pager,
    Template,
    body_html,
    e,
    long_date,
    paginate,
    popular_topics,
    qs_int,
    related_stories,
)

#: the newsroom's note under every story, inside the story's box: a full sentence a single page keeps as the
#: article's text; only the site's learned profile (the same sentence on every page) tells it is the template's
NEWSROOM_NOTE = (
    "Health Watch Daily is an independent health newsroom. Our reporting is for information only and is not a "
    "substitute for advice from your own doctor or pharmacist."
)


class HealthWatchTemplate(Template):
    page_size = 6
    front_size = 8
    feed_path = FEED_PATHS["healthwatch"]
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

    def report_path(self, report: Report) -> str:
        return f"/news/{report.section}/{report.slug}.html"

    def match(self, path: str, query: str) -> tuple[str, ...] | None:
        parts = path.strip("/").split("/")
        if len(parts) == 2 and parts[0] == "news" and path.endswith("/"):
            return ("section", parts[1], str(qs_int(query, "page", 1)))
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
{e(article.title)}</a></div><div class="teaser-date">{long_date(when)}</div>
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
{self._report_promo(ctx)}{teasers}
<div class="more">{older}<a href="{self.section_path(ctx.site.sections[0])}">More news &raquo;</a></div>
</div>
{self._sidebar(ctx)}</div>
"""
            + self._footer(ctx, ' | <a href="/private/staff-notes.html">Staff area</a>')
        )

    def _report_promo(self, ctx: PageContext) -> str:
        report = report_of(ctx.site)
        if report is None or len(report_stories(report, ctx.published)) < 2:  # a series of one is no series yet
            return ""
        return f"""<div class="promo-report"><span class="label">{e(report.label)}</span> \
<a href="{self.report_path(report)}">{e(report.teaser)}</a></div>
"""

    def report(self, ctx: PageContext, report: Report, items: list) -> str:
        teasers = "\n".join(self._teaser(ctx, a, d) for a, d in items) or '<div class="empty">No stories yet.</div>'
        section = SECTION_TITLES[report.section]
        main = f"""<div id="breadcrumb"><a href="/">Home</a> &gt; <a href="{self.section_path(report.section)}">\
{section}</a> &gt; <span>{e(report.label)}</span></div>
<div class="report-banner"><div class="kicker">{e(report.label)}</div>
<h1 class="headline">{e(report.title)}</h1>
<p class="report-intro">{e(report.intro)}</p>
<div class="report-meta">Edited by the Health Watch conditions desk | {len(items)} stories</div></div>
<div class="report-stories">
{teasers}
</div>
<div class="more"><a href="{self.section_path(report.section)}">More from {section} &raquo;</a></div>"""
        return self.shell(ctx, f"{report.label}: {report.title}", self.report_path(report), main)

    def section(self, ctx: PageContext, section: str, page: int = 1) -> str:
        items, pages = paginate(ctx.published_in(section), page, self.page_size)
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
        related = "".join(
            f'<li><a href="{self.article_path(a)}">{e(a.title)}</a></li>' for a in related_stories(ctx, article)
        )
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
<div class="byline">By Health Watch Daily staff | Published {long_date(when)}</div>
<div class="share"><a href="https://www.facebook.com/sharer.php?u={url}" target="_blank" \
onclick="window.open(this.href,'share','width=600,height=400');return false;">Share on Facebook</a> \
<a href="https://twitter.com/intent/tweet?url={url}" target="_blank">Tweet</a> \
<a href="mailto:?subject={quote(article.title)}&amp;body={url}">Email</a> \
<a href="#" onclick="window.print();return false;">Print</a></div>
<!-- story body -->
<div class="story-body">
{body_html(article)}
<p class="story-note">{NEWSROOM_NOTE}</p>
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
