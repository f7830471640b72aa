# ruff: noqa: E501  -- HTML templates: markup lines are kept whole so the pages read like real sites
"""*The Clinic Courier*: an old-school site laid out with nested ``<table>`` s, ``<font>``, ``bgcolor``, ``onclick``
pop-ups, a reader poll; no feed. Query-string addresses: ``/story.php?id=<slug>``, ``/section.php?s=<section>&page=N``,
``/index.php?page=N``, ``/tags.php?tag=<topic>``, ``/author.php?id=<writer>``, ``/archive.php?y=2025&m=03``."""

from __future__ import annotations

from datetime import datetime
from urllib.parse import parse_qs, quote

from .articles import Article
from .furniture import topic_title
from .pages import (
    FIXED_EPOCH,
    SECTION_TITLES,
    PageContext,
    Pager,
    Template,
    body_html,
    e,
    months_of,
    paginate,
    popular_topics,
    qs_int,
    related_stories,
)


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
        return months_of(ctx)

    def article_path(self, article: Article) -> str:
        return f"/story.php?id={article.slug}"

    def section_path(self, section: str, page: int = 1) -> str:
        return f"/section.php?s={section}" + (f"&page={page}" if page > 1 else "")

    def match(self, path: str, query: str) -> tuple[str, ...] | None:
        params = parse_qs(query)
        if path == "/story.php" and params.get("id"):
            return ("article", params["id"][0], "")
        if path == "/section.php" and params.get("s"):
            return ("section", params["s"][0], str(qs_int(query, "page", 1)))
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
        months = self.archive_months(ctx)
        archive = e(self.archive_path(months[0])) if months else "/archive.php"
        return (
            self._head(ctx, title, canonical, extra_head)
            + self._header(ctx)
            + self._left_column(ctx, archive)
            + f"""<!-- ============ MAIN COLUMN ============ -->
<TD>
{center}
</TD>
"""
            + self._right_column(right)
            + self._footer(ctx, archive, footer_extra)
        )

    def _head(self, ctx: PageContext, title: str, canonical: str, extra_head: str) -> str:
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
"""

    def _header(self, ctx: PageContext) -> str:
        links = " | ".join(
            f'<a href="{e(self.section_path(s))}"><font color="#ffffff">{SECTION_TITLES[s]}</font></a>'
            for s in ctx.site.sections
        )
        return f"""<!-- ==================== HEADER ==================== -->
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
"""

    def _left_column(self, ctx: PageContext, archive: str) -> str:
        options = "".join(
            f'<option value="{e(ctx.base_url + self.section_path(s))}">{SECTION_TITLES[s]}</option>'
            for s in ctx.site.sections
        )
        left_links = "".join(
            f'<tr><td class="leftnav">&#187; <a href="{e(self.section_path(s))}">{SECTION_TITLES[s]}</a></td></tr>'
            for s in ctx.site.sections
        )
        topics = "".join(
            f'<tr><td class="leftnav">&#187; <a href="{e(self.tag_path(t))}">{topic_title(t)}</a></td></tr>'
            for t in popular_topics(ctx, 6)
        )
        return f"""<!-- ============ LEFT COLUMN ============ -->
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
"""

    @staticmethod
    def _right_column(right: str) -> str:
        return f"""<!-- ============ RIGHT COLUMN ============ -->
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
"""

    @staticmethod
    def _footer(ctx: PageContext, archive: str, footer_extra: str) -> str:
        return f"""<!-- ==================== FOOTER ==================== -->
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
        items, pages = paginate(ctx.published_in(section), page, self.page_size)
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
        right = self._headlines_box(ctx, "Related stories", related_stories(ctx, article))
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
