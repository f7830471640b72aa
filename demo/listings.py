"""The demo sites' pages that are not articles, and their routing: the home page's further pages, tag, writer and
archive listings, a special report at a story's address, the Health Watch shop's products and the Wellbeing Times
community's discussions; the sitemaps and the Atom feed (``sitemaps.py``) are routed here too.

Each template names these pages' addresses in its own way (``/tag/sleep/page/2/``, ``/tags.php?tag=sleep&page=2``,
``/topics/sleep/?page=2``...); :func:`route` answers a request whose address is one of them, whatever the order of
its query parameters and with or without tracking parameters, as a real site does.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from urllib.parse import parse_qsl, urlsplit

from .furniture import (
    PRODUCTS,
    THREADS,
    Product,
    Thread,
    report_of,
    report_stories,
    topic_title,
    writer_of,
    writers_of,
)
from .sitemaps import machine_files
from .sites import PageContext, Pager, Template, e, month_title, template_for, thread_path

HTML_TYPE = "text/html; charset=utf-8"
#: what :func:`route` answers: the page, its content type and when it last changed (None: no Last-Modified)
Answer = tuple[str, str, datetime | None]


@dataclass(frozen=True)
class Listing:
    """A list of stories that is no section: its title, stories (newest first), addresses and first page."""

    title: str
    items: list
    path: Callable[[int], str]
    size: int
    intro: str = ""
    first: int = 1  # the home page's listing starts at page 2: its first page is the home page

    def pages(self) -> int:
        return max(1, -(-len(self.items) // self.size))

    def render(self, ctx: PageContext, tpl: Template, page: int) -> Answer:
        pages = self.pages()
        items = self.items[(page - 1) * self.size : page * self.size]
        pager = Pager(
            page, pages, self.path(page - 1) if page > 1 else None, self.path(page + 1) if page < pages else None
        )
        html = tpl.listing(ctx, self.title, self.path(page), items, pager, self.intro)
        return html, HTML_TYPE, items[0][1] if items else None


def listings(ctx: PageContext, tpl: Template) -> Iterator[Listing]:
    key = ctx.site.template
    yield Listing("Latest stories", list(ctx.published), tpl.front_path, tpl.front_size, first=2)
    for topic in sorted({t for a, _ in ctx.published for t in a.topics}):
        items = [(a, d) for a, d in ctx.published if topic in a.topics]
        yield Listing(f"Topic: {topic_title(topic)}", items, partial(tpl.tag_path, topic), tpl.page_size)
    for writer in writers_of(key):
        items = [(a, d) for a, d in ctx.published if writer_of(key, a) == writer]
        intro = f'<p class="author-bio"><b>{e(writer.name)}</b>, {e(writer.role)}. {e(writer.bio)}</p>'
        yield Listing(writer.name, items, partial(tpl.author_path, writer.slug), tpl.page_size, intro)
    for month in tpl.archive_months(ctx):
        items = [(a, d) for a, d in ctx.published if not month or f"{d:%Y/%m}" == month]
        title = f"Archive: {month_title(month)}" if month else "Archive"
        yield Listing(title, items, partial(tpl.archive_path, month), tpl.page_size)


def route(ctx: PageContext, path: str, query: str) -> Answer | None:
    """The page at ``path?query`` if it is one of the site's listings, its special report, shop or forum pages,
    sitemaps or Atom feed."""
    tpl = template_for(ctx.site)
    machine = machine_files(ctx).get(path)
    if machine is not None and not query:
        render, content_type = machine
        return render(ctx), content_type, ctx.published[0][1] if ctx.published else None
    report = report_of(ctx.site)
    if report is not None and same_address(tpl.report_path(report), path, query):
        items = report_stories(report, ctx.published)
        return tpl.report(ctx, report, items), HTML_TYPE, max((d for _, d in items), default=None)
    if ctx.site.template == "healthwatch" and path.startswith("/shop/"):
        return shop_page(ctx, tpl, path)
    if ctx.site.template == "wellbeing" and path.startswith("/community/"):
        return forum_page(ctx, tpl, path)
    for listing in listings(ctx, tpl):
        for page in range(listing.first, listing.pages() + 1):
            if same_address(listing.path(page), path, query):
                return listing.render(ctx, tpl, page)
    return None


# ---------------------------------------------------------------------------------------------------- shop


def shop_page(ctx: PageContext, tpl: Template, path: str) -> Answer | None:
    if path == "/shop/":
        items = "".join(
            f'<li><a href="/shop/products/{p.slug}/">{e(p.name)}</a> &pound;{p.price}</li>' for p in PRODUCTS
        )
        main = f'<div class="section-title">The Health Watch shop</div>\n<ul class="products">{items}</ul>'
        return tpl.shell(ctx, "Shop", "/shop/", main), HTML_TYPE, None
    for product in PRODUCTS:
        if path == f"/shop/products/{product.slug}/":
            return _product(ctx, tpl, product), HTML_TYPE, None
    return None


def _product(ctx: PageContext, tpl: Template, product: Product) -> str:
    ld = {
        "@context": "https://schema.org",
        "@type": "Product",
        "name": product.name,
        "description": product.description,
        "offers": {"@type": "Offer", "price": product.price, "priceCurrency": "GBP", "availability": "InStock"},
    }
    head = (
        f'<meta property="og:type" content="product">\n<meta property="og:title" content="{e(product.name)}">\n'
        f'<script type="application/ld+json">{_ld(ld)}</script>\n'
    )
    others = "".join(
        f'<li><a href="/shop/products/{p.slug}/">{e(p.name)}</a></li>' for p in PRODUCTS if p is not product
    )
    main = f"""<div id="breadcrumb"><a href="/">Home</a> &gt; <a href="/shop/">Shop</a></div>
<div class="product"><h1>{e(product.name)}</h1>
<div class="price">&pound;{product.price} <span class="vat">inc. VAT, free delivery</span></div>
<p>{e(product.description)}</p>
<form action="/shop/basket/" method="post"><input type="hidden" name="sku" value="{product.slug}">\
<input type="number" name="qty" value="1" min="1"> <button type="submit">Add to basket</button></form>
<div class="reviews">4.5 out of 5 stars (128 reviews)</div></div>
<div class="also-bought"><div class="box-title">Customers also bought</div><ul>{others}</ul></div>"""
    return tpl.shell(ctx, product.name, f"/shop/products/{product.slug}/", main, head)


# ---------------------------------------------------------------------------------------------------- forum


def forum_page(ctx: PageContext, tpl: Template, path: str) -> Answer | None:
    if path == "/community/":
        rows = "".join(
            f'<tr><td><a href="{tpl.link(thread_path(t), "community")}">{e(t.title)}</a></td>'
            f"<td>{topic_title(t.topic)}</td><td>{len(t.posts) - 1}</td></tr>"
            for t in THREADS
        )
        main = f"""<section class="forum"><h1>Community</h1><p>Ask, share and support each other.</p>
<table class="topic-list"><tr><th>Topic</th><th>Category</th><th>Replies</th></tr>{rows}</table>
<p><a href="{tpl.link("/community/login/", "community")}">Log in</a> to start a new topic.</p></section>"""
        return tpl.shell(ctx, "Community", "/community/", main), HTML_TYPE, None
    if path == "/community/login/":
        main = f"""<section class="login"><h1>Log in</h1><form action="{tpl.link("/community/session/", "login")}" \
method="post"><input name="login" placeholder="Username or e-mail"> <input type="password" name="password"> \
<button>Log in</button></form></section>"""
        return tpl.shell(ctx, "Log in", "/community/login/", main), HTML_TYPE, None
    for thread in THREADS:
        if path == thread_path(thread):
            return _thread(ctx, tpl, thread), HTML_TYPE, None
    return None


def _thread(ctx: PageContext, tpl: Template, thread: Thread) -> str:
    ld = {
        "@context": "https://schema.org",
        "@type": "DiscussionForumPosting",
        "headline": thread.title,
        "author": {"@type": "Person", "name": thread.posts[0].author},
        "commentCount": len(thread.posts) - 1,
    }
    posts = "".join(
        f'<article class="post" id="post_{n}"><p class="username">{e(p.author)}</p><div class="cooked"><p>'
        f'{e(p.text)}</p></div><a class="reply" href="{tpl.link("/community/login/", "reply")}">Reply</a></article>'
        for n, p in enumerate(thread.posts, 1)
    )
    main = f"""<nav class="breadcrumbs"><a href="{tpl.link("/community/", "crumb")}">Community</a> &rsaquo; \
<span>{topic_title(thread.topic)}</span></nav>
<section class="topic"><h1>{e(thread.title)}</h1>
{posts}
</section>"""
    head = f'<script type="application/ld+json">{_ld(ld)}</script>\n'
    return tpl.shell(ctx, thread.title, thread_path(thread), main, head)


def _ld(data: dict) -> str:
    return json.dumps(data).replace("</", "<\\/")


def same_address(path_and_query: str, path: str, query: str) -> bool:
    """Whether a request is for ``path_and_query``: its query parameters in any order, tracking ones left out."""
    parts = urlsplit(path_and_query)
    return parts.path == path and _params(parts.query) == _params(query)


def _params(query: str) -> list[tuple[str, str]]:
    return sorted((k, v) for k, v in parse_qsl(query) if not k.startswith("utm_"))
