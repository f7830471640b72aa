"""The page kind (filters/kind.py): article or not, from metadata, URL and structure, on the one parse."""

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest

import filters
from filters import html5
from filters.kind import (
    Kind,
    PageKind,
    facts,
    further_page,
    gather,
    judge,
    link_kind,
    metadata_kind,
    page_kind,
    url_shape,
)

ROOT = Path(__file__).resolve().parents[2]

SENTENCES = [
    "The city council voted on Tuesday to rebuild the old river bridge before the spring floods arrive.",
    "Engineers told the council that the piers had been weakened by decades of ice and heavy traffic.",
    "The work will close the bridge to cars for eight months, and buses will run on a temporary route.",
    "Residents on both banks said they welcomed the decision but worried about the long detour.",
    "The mayor said the city would publish the full schedule of the works on its website next week.",
]
BODY = "".join(f"<p>{s} {s}</p>" for s in SENTENCES * 2)


def kind_of(html: str, url: str | None = None) -> PageKind:
    return page_kind(filters.read_page(html), url)


def ld(data: dict) -> str:
    return f'<script type="application/ld+json">{json.dumps(data)}</script>'


def page(head: str = "", body: str = "", title: str = "Example") -> str:
    """A page of today (it has a viewport): its head's metadata and its body."""
    viewport = '<meta name="viewport" content="width=device-width">'
    return f"<html><head><title>{title}</title>{viewport}{head}</head><body>{body}</body></html>"


def test_a_news_article_with_its_metadata_is_an_article():
    html = page(
        ld({"@context": "https://schema.org", "@type": "NewsArticle", "datePublished": "2025-09-04"})
        + '<meta property="og:type" content="article">',
        "<h1>Council votes to rebuild the river bridge before the spring floods</h1>"
        "<div class=byline>By Jane Smith, September 4, 2025</div><div class=story>" + BODY + "</div>",
    )
    verdict = kind_of(html, "https://news.example.com/2025/09/04/council-votes-to-rebuild-the-bridge")
    assert verdict.kind is Kind.ARTICLE and verdict.is_article
    assert "schema.org NewsArticle" in verdict.reason and "score" in verdict.reason


def test_an_article_without_metadata_is_one_by_its_structure():
    html = page(body="<h1>How the river bridge will be rebuilt this spring</h1><div>" + BODY + "</div>")
    verdict = kind_of(html, "https://example.org/p?id=7")  # an address that says nothing: the structure does
    assert verdict.kind is Kind.ARTICLE
    assert "its body is much of the page's text" in verdict.reason


def test_an_old_page_with_paragraphs_parted_by_br_is_an_article():
    text = "<br><br>".join(SENTENCES * 2)
    html = (
        "<html><head><title>Bridge to close for repairs</title></head><body><table><tr>"
        "<td><a href=/>Home</a><br><a href=/world>World</a><br><a href=/sport>Sport</a><br><a href=/tv>TV</a></td>"
        f"<td><font size=2>{text}</font></td></tr></table></body></html>"
    )
    verdict = kind_of(html)
    assert verdict.kind is Kind.ARTICLE
    # the markup is old-style, not the page: issue 30's trial read "an old page" on the demo Courier's stories of
    # the day, whose pages carry no metadata
    assert "old-style markup: no og:type, schema.org type or viewport" in verdict.reason
    assert "old page" not in verdict.reason


def test_declared_types_settle_other_kinds():
    product = page(ld({"@type": "Product", "name": "Wool runners", "offers": {"price": "98"}}), BODY)
    assert kind_of(product) == PageKind(Kind.PRODUCT, "schema.org Product")
    thread = page(ld({"@graph": [{"@type": "WebPage"}, {"@type": "DiscussionForumPosting"}]}), BODY)
    assert kind_of(thread) == PageKind(Kind.FORUM, "schema.org DiscussionForumPosting")
    group = page('<meta property="og:type" content="product.group">', BODY)
    assert kind_of(group) == PageKind(Kind.LISTING, "og:type product.group")


def test_a_review_that_marks_up_its_product_is_still_an_article():
    html = page(
        ld([{"@type": "Review"}, {"@type": "Product", "name": "Kettle"}]),
        "<h1>The best kettles of 2025, tested for a month</h1>" + BODY,
    )
    assert kind_of(html).is_article


def test_microdata_types_count_and_a_broken_json_ld_is_ignored():
    html = page(
        '<script type="application/ld+json">{"@type": "NewsArticle",</script>',
        '<div itemscope itemtype="https://schema.org/Product"><span itemprop="price">12</span></div>' + BODY,
    )
    ev = gather(filters.read_page(html))
    assert ev.ld_types == frozenset() and ev.item_types == {"Product"}
    assert kind_of(html).kind is Kind.PRODUCT


@pytest.mark.parametrize(
    ("url", "kind", "reason"),
    [
        ("https://shop.example.com/products/wool-runner", Kind.PRODUCT, "a product's address"),
        ("https://forum.example.com/t/bridge-closing-early/4411", Kind.FORUM, "a forum thread's address"),
        ("https://example.com/docs/getting-started", Kind.DOCUMENTATION, "a documentation address"),
        ("https://docs.example.com/guide", Kind.DOCUMENTATION, "a documentation site"),
        ("https://www.example.com/", Kind.SERVICE, "a site's home page"),
        ("https://www.example.com/en-us/", Kind.SERVICE, "a site's home page"),
    ],
)
def test_addresses_that_name_another_kind(url, kind, reason):
    assert kind_of(page(body="<h1>Bridge works</h1>" + BODY), url) == PageKind(kind, reason)


def test_url_shape():
    article = url_shape("https://news.example.com/2025/09/04/council-votes-to-rebuild-the-bridge/")
    assert article.dated and article.slug_words == 6 and article.kind is None and not article.home
    assert url_shape("https://blog.example.com/a-post").article_path
    assert url_shape("https://example.com/category/news/").kind is Kind.LISTING
    # an article's slug under /archives/ or /topics/ still names one article
    assert url_shape("https://example.com/topics/gear/best-electric-scooters-for-commuting").kind is None
    assert url_shape("https://example.com/archives/2025/12/16/vibe_coding.html").kind is None
    assert url_shape("") == url_shape("")  # no address, no shape
    assert not url_shape("https://example.com/?page=2").home


def test_a_listing_of_headline_links_is_kept_out():
    cards = "".join(
        f'<article><h2><a href="/news/story-{i}">Story number {i} about the bridge</a></h2>'
        f"<time>2025-09-0{i % 9 + 1}</time><p>A short teaser.</p></article>"
        for i in range(12)
    )
    verdict = kind_of(page(body="<h1>News</h1>" + cards, title="News"), "https://example.com/news/")
    assert verdict.kind is Kind.LISTING
    assert not verdict.is_article


STORIES = [
    "Parents urged to check their children's measles vaccinations",
    "Waits for talking therapy leave people with depression in limbo",
    "Pregnant women to be offered an earlier diabetes test",
    "Pollen counts to hit very high as hay fever season peaks",
    "Flu season arrives early as visits to doctors rise",
]


def test_a_story_list_of_dated_headlines_is_a_listing():
    """A section front: headline, date and teaser repeated, little prose. Neither a news address (/news/...) nor an
    old page's lack of metadata (no viewport, no og:type) lets it pass as an article (the demo sites' fronts did)."""
    teasers = "".join(
        f'<div class="teaser"><div class="title"><a href="/news/health/story-{i}.html">{title}</a></div>'
        f'<div class="date">{i + 2} March 2025, 14:00</div><div>A short teaser of the story.</div></div>'
        for i, title in enumerate(STORIES)
    )
    modern = page(body='<div class="section-title">Health</div>' + teasers, title="Health | Daily")
    verdict = kind_of(modern, "https://news.example/news/health/")
    assert verdict == PageKind(Kind.LISTING, "5 dated headline links and little prose")
    rows = "".join(
        f'<TR><TD><FONT size="3"><B><A href="/story.php?id={i}">{title}</A></B></FONT><BR>'
        f'<FONT size="1">Posted: 0{i + 2}/03/2025</FONT><BR><FONT size="2">A short teaser.</FONT></TD></TR>'
        for i, title in enumerate(STORIES)
    )
    old = f"<HTML><HEAD><TITLE>The Courier :: Patients</TITLE></HEAD><BODY><TABLE>{rows}</TABLE></BODY></HTML>"
    assert kind_of(old, "https://courier.example/section.php?s=patients").kind is Kind.LISTING


def test_headline_links_without_dates_or_beside_a_body_make_no_story_list():
    links = "".join(
        f'<li><a href="/story-{i}">{title}</a> <span>4 March 2025</span></li>' for i, title in enumerate(STORIES)
    )
    # an article with a box of dated related stories: its body is read, its links are not
    article = page(body="<h1>Council votes to rebuild the river bridge</h1><div>" + BODY + f"</div><ul>{links}</ul>")
    ev = gather(filters.read_page(article), "https://news.example/news/council-votes-to-rebuild-the-bridge")
    assert ev.dated_cards == 0 and judge(ev).is_article
    # headline links with no date beside them: a menu of stories, no story list
    undated = "".join(f'<li><a href="/story-{i}">{title}</a></li>' for i, title in enumerate(STORIES))
    assert gather(filters.read_page(page(body=f"<ul>{undated}</ul>"))).dated_cards == 0


def test_a_body_of_prose_is_a_mark_of_an_article():
    """A short headline and no other mark of an article no longer settle a page as a listing when one element holds
    a body of prose (1,500 characters or more, most of the page's)."""
    html = page(body="<h1>Wine regions</h1><div>" + BODY + "</div>", title="Wine regions")
    verdict = kind_of(html, "https://example.com/wine-regions.html")
    assert verdict.is_article, verdict
    assert "characters of prose in one body" in verdict.reason
    # without the body, amid a real page's menus, nothing of an article is left: the weights keep it out (no rule
    # settles it: the one that settled a short headline with nothing of an article kept out no page of the tuning
    # split the weights let in)
    menu = "<ul>" + "".join(f'<li><a href="/region/{i}">Region number {i} and its wines</a></li>' for i in range(80))
    short = page(
        body=f"{menu}</ul><h1>Wine regions</h1><div>" + "".join(f"<p>{s} {s}</p>" for s in SENTENCES) + "</div>"
    )
    verdict = kind_of(short, "https://example.com/wine-regions.html")
    assert not verdict.is_article and "(score " in verdict.reason, verdict


def test_the_body_s_share_of_the_page_s_text_weighs():
    """An article's page is mostly its body; a page whose longest prose is a tenth of its text or less (menus, cards,
    link lists around a paragraph or two) is weighed against (facts body_share and thin_body)."""
    body = "<h1>Wine regions</h1><div>" + "".join(f"<p>{s} {s}</p>" for s in SENTENCES) + "</div>"
    few = "".join(f'<a href="/r/{i}">Region {i}</a> ' for i in range(5))
    many = "".join(f'<li><a href="/r/{i}">Region number {i}, its wines and its growers</a></li>' for i in range(200))
    url = "https://example.com/wine-regions.html"
    alone = gather(filters.read_page(page(body=few + body)), url)
    found = facts(alone, url_shape(url))
    assert found["body_share"] and not found["thin_body"]
    amid = gather(filters.read_page(page(body=f"<ul>{many}</ul>" + body)), url)
    found = facts(amid, url_shape(url))
    assert found["thin_body"] and not found["body_share"]
    verdict = judge(amid)
    assert not verdict.is_article and "its longest prose is a tenth of its text or less" in verdict.reason, verdict


def test_a_blog_s_home_page_showing_one_post_in_full_is_that_post():
    """A blog's home page (a blog's host) that shows its latest post in full is an article; a blog's home page that
    lists its posts is not, nor any other site's home page with a body of prose."""
    post = "<h1>Why I moved my notes to plain text files</h1><article>" + BODY + "</article>"
    assert kind_of(page(body=post), "https://blog.jane.example/").is_article
    listed = "".join(
        f"<article><h2><a href='/p/{i}'>{t}</a></h2><p>{SENTENCES[0]}</p></article>" for i, t in enumerate(STORIES)
    )
    assert kind_of(page(body=post + listed), "https://blog.jane.example/") == PageKind(
        Kind.SERVICE, "a site's home page"
    )
    assert kind_of(page(body=post), "https://www.jane.example/") == PageKind(Kind.SERVICE, "a site's home page")


#: an old site's links around every page (its text, not prose, keeps the page from "almost no text")
OLD_MENU = (
    "<TABLE><TR><TD>"
    + " | ".join(
        f'<A href="/section.php?s={s}">{s.title()} news and views</A>'
        for s in ("clinic", "patients", "prevention", "family", "research", "events", "letters")
    )
    + "</TD></TR></TABLE>"
)


def test_a_short_story_list_of_an_old_site_is_a_listing():
    """A tag's page of an old table layout listing one or two stories: a dated headline card and no prose of its
    own. Its lack of metadata made it pass as an old article; one card with no body of prose is a list now."""
    card = (
        '<TR><TD><FONT size="3"><B><A href="/story.php?id=1">{title}</A></B></FONT><BR>'
        '<FONT size="1">Posted: 07/03/2025 by <a href="/author.php?id=ruth">Ruth Adeyemi</a></FONT><BR>'
        '<FONT size="2">A short teaser of the story.</FONT></TD></TR>'
    )
    old = (
        "<HTML><HEAD><TITLE>The Courier :: Topic: Cancer news for our readers</TITLE></HEAD><BODY>"
        f'<FONT size="5"><B>Topic: Cancer</B></FONT><TABLE>{{rows}}</TABLE>{OLD_MENU}</BODY></HTML>'
    )
    one = old.format(rows=card.format(title=STORIES[0]))
    assert kind_of(one, "https://courier.example/tags.php?tag=cancer") == PageKind(
        Kind.LISTING, "1 dated headline links and no body of prose"
    )
    two = old.format(rows="".join(card.format(title=t) for t in STORIES[:2]))
    assert kind_of(two, "https://courier.example/tags.php?tag=cancer").kind is Kind.LISTING
    # an old article beside the same card keeps its body: no list (the card is not even counted)
    article = old.format(rows=f"<TR><TD>{BODY}</TD></TR>" + card.format(title=STORIES[0]))
    assert kind_of(article, "https://courier.example/story.php?id=2").is_article


def test_a_listing_s_further_page_is_a_listing():
    """A section's second page, fetched because an include pattern lets its link through: two story cards under
    the section's <h1>, the first card's date read as the headline's byline (a live trial's Wellbeing Times
    /mind/?page=2 reached the inbox as "an article: a dated byline"). Its address says what discovery refuses it
    for; a long article's further page keeps its body of prose and stays an article."""
    cards = "".join(
        f'<article class="card"><h3><a href="/mind/story-{i}/">{title}</a></h3><p>{SENTENCES[i]}</p>'
        f'<p class="meta"><a href="/writers/ruth/" rel="author">Ruth Adeyemi</a> &middot; '
        f'<time datetime="2025-03-0{i + 2}">{i + 2} March 2025</time></p></article>'
        for i, title in enumerate(STORIES[:2])
    )
    pager = '<nav class="pagination"><a rel="prev" href="/mind/">Newer stories</a></nav>'
    listing = page(body=f"<main><section><h1>Mind</h1>{cards}{pager}</section></main>", title="Mind | Daily")
    for url in (
        "https://news.example/mind/?page=2",
        "https://news.example/mind/?utm_source=x&page=2",
        "https://news.example/mind/page/2/",
    ):
        assert kind_of(listing, url) == PageKind(Kind.LISTING, "a listing's further page, and no body of prose"), url
    story = page(body=f"<main><h1>The council votes to rebuild the bridge</h1><p>7 March 2025</p>{BODY}</main>")
    assert kind_of(story, "https://news.example/story.php?id=7&page=2").is_article


def test_the_demo_s_section_further_page_is_a_listing():
    """The live trial's page: the Wellbeing Times' /mind/?page=2 once the site has published 40 stories (ten in
    Mind, eight a page), as its server renders it from its timeline."""
    pytest.importorskip("demo")
    from demo.pages import PageContext
    from demo.sites import get_site, template_for
    from demo.timeline import SiteState

    spec, base = get_site("wellbeing"), "http://127.0.0.13:8952"
    ctx = PageContext(spec, base, SiteState(spec, None, 40, lambda: 1_780_000_000.0).published())
    html = template_for(spec).section(ctx, "mind", 2)
    assert html.count('<article class="card">') == 2 and "Newer stories" in html
    for url in (f"{base}/mind/?page=2", f"{base}/mind/?page=2&utm_source=wbt&utm_medium=pager&utm_campaign=organic"):
        assert kind_of(html, url).kind is Kind.LISTING, kind_of(html, url)


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("https://news.example/mind/?page=2", "a listing's further page"),
        ("https://news.example/?paged=3&cat=4", "a listing's further page"),
        ("https://news.example/blog/page/3/", "a listing's further page"),
        ("https://news.example/2025/03/page/2/", "a listing's further page"),
        ("https://news.example/care/p/2/", "a listing's further page"),  # The Morning Pulse's pager
        ("https://news.example/world/p/3", "a listing's further page"),
    ],
)
def test_a_further_page_s_link_is_refused_by_the_same_definition(url, reason):
    assert further_page(url)
    assert link_kind(url) == PageKind(Kind.LISTING, reason)


def test_page_one_is_no_further_page_but_its_link_is_still_refused():
    """CI at 02b7a10: an article fetched at its alias ``…/sleep-hygiene-basics/?page=1`` was kept out as "a listing's
    further page" before its rel=canonical could move it; page 1 is the listing itself, or the article."""
    assert not further_page("https://news.example/body/sleep-hygiene-basics/?page=1")
    assert link_kind("https://news.example/mind/?page=1") == PageKind(Kind.LISTING, "a listing's further page")


def test_a_service_s_address_with_little_prose_is_a_service_even_on_an_old_page():
    """An old site's about page (no metadata, so "an old page") with a long headline and a few lines."""
    old = (
        "<HTML><HEAD><TITLE>About the Clinic Courier, your community health paper</TITLE></HEAD><BODY>"
        f"<P>The Courier is written by the practice's staff and volunteers.</P>{OLD_MENU}</BODY></HTML>"
    )
    assert kind_of(old, "https://courier.example/about.php") == PageKind(
        Kind.SERVICE, "a service's address and little prose (0 characters)"
    )
    assert kind_of(old, "https://courier.example/story.php?id=about-our-new-wing").is_article


def test_every_page_of_the_demo_sites_has_its_kind():
    """Each demo site's stories are articles; its home, about page, sections, tags, writers, archive and further
    pages are not (the Courier's old table layout let its tag pages and about.php pass as old articles)."""
    pytest.importorskip("demo")
    from demo.listings import listings
    from demo.sites import INFO_PAGES, SERVED_SITES, fixed_context, template_for

    base = "http://127.0.0.1:9"
    for spec in SERVED_SITES:
        tpl, ctx = template_for(spec), fixed_context(spec, base)
        for story, _ in ctx.published:
            assert kind_of(tpl.article(ctx, story), base + tpl.article_path(story)).is_article, story.slug
        about = {"healthwatch": "/about.html", "courier": "/about.php"}.get(spec.key, "/about/")
        others = [("/", tpl.home(ctx)), (about, tpl.info_page(ctx, *INFO_PAGES["about"]))]
        others += [(tpl.section_path(s), tpl.section(ctx, s)) for s in spec.sections]
        others += [(lst.path(lst.first), lst.render(ctx, tpl, lst.first)[0]) for lst in listings(ctx, tpl)]
        kinds = {path: kind_of(html, base + path) for path, html in others}
        assert not [(path, str(k)) for path, k in kinds.items() if k.is_article], spec.key


def test_the_demo_sites_section_fronts_are_listings():
    demo = pytest.importorskip("demo")
    from demo.sites import template_for

    for spec in demo.SERVED_SITES:
        for section in spec.sections:
            html = demo.render_section_page(spec.key, section, 1, "http://127.0.0.1:8001")
            verdict = kind_of(html, "http://127.0.0.1:8001" + template_for(spec).section_path(section))
            assert verdict.kind is Kind.LISTING, (spec.key, section, verdict)
        article = demo.articles_for_site(spec.key)[0]
        html = demo.render_article_page(spec.key, article.slug, "http://127.0.0.1:8001")
        assert kind_of(html, "http://127.0.0.1:8001" + template_for(spec).article_path(article)).is_article


def test_a_page_that_names_an_offer_and_nothing_of_an_article_is_a_service():
    body = (
        "<h1>Data Analytics Consulting Services</h1>"
        + "".join(
            f"<section><h2>Benefit {i}</h2><p>We help our clients turn their data into decisions with our team "
            f"of experts, tailored to your business and its goals.</p></section>"
            for i in range(6)
        )
        + '<a href="/contact">Contact us</a><button>Get a free quote</button>'
    )
    verdict = kind_of(page(body=body, title="Data Analytics Consulting Services"), "https://example.com/analytics")
    assert verdict == PageKind(Kind.SERVICE, "names an offer, and nothing of an article")


def test_a_page_readers_may_edit_is_documentation():
    """A documentation's or a wiki's page links to editing it ("Edit this page", "Edit on GitHub"); a dated post that
    does (a blog kept in a repository) is still an article."""
    doc = page(
        head='<meta property="og:type" content="article">',
        body="<h1>What is Tauri?</h1><div>" + BODY + '</div><a href="https://github.com/x/edit/main/start.md">'
        "Edit page</a>",
    )
    assert kind_of(doc, "https://v2.example.app/start/") == PageKind(
        Kind.DOCUMENTATION, "a link to edit the page, and no date"
    )
    dated = doc.replace("<div>", "<div><p>By Ann Lee, 4 March 2025</p>", 1)
    assert kind_of(dated, "https://v2.example.app/start/").is_article


def test_code_blocks_without_a_date_are_documentation():
    body = "<h1>Configuration</h1>" + "".join(
        f"<p>Set the option in the configuration file, then restart the server.</p><pre>option = {i}</pre>"
        for i in range(4)
    )
    verdict = kind_of(page(body=body), "https://example.com/configuration")
    assert verdict == PageKind(Kind.DOCUMENTATION, "4 code blocks and no date")


def test_a_page_without_text_is_other():
    assert kind_of(page(body="<div id=app></div>")) == PageKind(Kind.OTHER, "almost no text")
    assert kind_of("   ") == PageKind(Kind.OTHER, "almost no text")  # an empty page has no tree


def test_the_canonical_link_stands_for_a_missing_url():
    html = page('<link rel="canonical" href="https://shop.example.com/products/kettle">', BODY)
    assert gather(filters.read_page(html)).url == "https://shop.example.com/products/kettle"
    assert kind_of(html).kind is Kind.PRODUCT
    assert kind_of(html, "https://example.com/blog/how-we-chose-a-kettle-for-the-office").is_article


def test_the_plain_metadata_rule():
    article = gather(filters.read_page(page('<meta property="og:type" content="article">', BODY)))
    assert metadata_kind(article) == PageKind(Kind.ARTICLE, "og:type article")
    bare = gather(filters.read_page(page(body="<h1>How the river bridge will be rebuilt</h1>" + BODY)))
    assert metadata_kind(bare) == PageKind(Kind.OTHER, "no article metadata")
    assert judge(bare).is_article  # what WIMS adds: the structure


def test_the_kind_reuses_the_one_parse(monkeypatch):
    parses = []
    real = html5.parse
    monkeypatch.setattr(html5, "parse", lambda text: parses.append(1) or real(text))
    read = filters.read_page(page(body="<h1>Bridge</h1>" + BODY))
    filters.extract(read)
    page_kind(read, "https://example.com/news/bridge-works-begin-in-spring")
    assert len(parses) == 1


def test_every_reason_is_short():
    for html in (page(body=BODY), page(body="<h1>x</h1>"), page(ld({"@type": "QAPage"}), BODY)):
        verdict = kind_of(html)
        assert verdict.reason and len(verdict.reason) < 160
        assert str(verdict) == f"{verdict.kind} {verdict.reason}"


# --------------------------------------------------------------------------- the command line


def run(*args):
    return subprocess.run(
        [sys.executable, "-m", "filters", "kind", *map(str, args)], capture_output=True, text=True, cwd=ROOT, timeout=60
    )


def test_cli_prints_one_line_per_page(tmp_path):
    article = tmp_path / "story.html"
    article.write_text(page(ld({"@type": "NewsArticle"}), "<h1>Bridge</h1>" + BODY))
    product = tmp_path / "kettle.html.gz"
    product.write_bytes(gzip.compress(page(ld({"@type": "Product"}), BODY).encode()))
    out = run(article, product)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith(f"{article} article schema.org NewsArticle")
    assert lines[1] == f"{product} product schema.org Product"


def test_cli_url_and_errors(tmp_path):
    story = tmp_path / "story.html"
    story.write_text(page(body="<h1>Bridge</h1>" + BODY))
    out = run(story, "--url", "https://shop.example.com/products/bridge")
    assert out.stdout == f"{story} product a product's address\n"
    assert run(story, story, "--url", "https://example.com/").returncode == 2  # one address for two pages
    binary = tmp_path / "image.html"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8)
    out = run(binary, story)
    assert out.returncode == 1
    assert f"error: {binary}" in out.stderr and out.stdout.startswith(f"{story} ")


# --------------------------------------------------------------------------- the datasets


def test_held_out_figures_stay_at_the_report(datasets):
    """The benchmark's held-out split (tests/bench/bench_sources.py), never tuned on, read as the report reads it.

    Issue 33's targets (article recall >= 0.97, other pages kept out >= 0.90) are not met on it yet: this keeps
    the committed report's figures from falling, and WIMS ahead of the plain metadata rule.
    """
    from tests.bench import bench_sources as bench

    if not (datasets / bench.KINDS).is_dir() or not (datasets / bench.CTF).is_dir():
        pytest.skip("wcxb-dev-kinds or crawl-to-the-future missing")
    result = bench.run("held", root=datasets)
    assert result.recall() >= bench.FLOOR_RECALL
    assert result.kept_out() >= bench.FLOOR_KEPT_OUT
    assert result.sites.ratio("all sites") >= bench.FLOOR_CTF_RECALL
    assert result.recall() > result.recall(metadata=True) and result.kept_out() > result.kept_out(metadata=True)


# --------------------------------------------------------------------------- a link's address, before the fetch
@pytest.mark.parametrize(
    ("url", "kind"),
    [
        # the non-articles of the CNN home page that the issue counted (issue 33)
        ("https://edition.cnn.com/", Kind.SERVICE),
        ("https://edition.cnn.com/TECH/", Kind.LISTING),
        ("https://edition.cnn.com/MIDDLEEAST/", Kind.LISTING),
        ("https://edition.cnn.com/about/", Kind.SERVICE),
        ("https://edition.cnn.com/privacy.html", Kind.SERVICE),
        ("https://edition.cnn.com/feedback/", Kind.SERVICE),
        ("https://edition.cnn.com/services/rss/", Kind.SERVICE),
        ("http://127.0.0.13:8001/feed/atom/", Kind.SERVICE),  # a live trial: was "a section front"
        ("https://news.example/world/europe/", Kind.LISTING),
        ("https://news.example/section.php?s=health", Kind.LISTING),
        ("https://news.example/tag/vaccines/", Kind.LISTING),
        ("https://news.example/search.html", Kind.SERVICE),
    ],
)
def test_a_link_whose_address_names_no_article(url, kind):
    verdict = link_kind(url)
    assert verdict is not None and verdict.kind is kind and verdict.reason


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        # The Morning Pulse's (demo/pulse.py) and real sites' people, profile and subject pages: were None
        ("https://news.example/people/jane-doe/", "a writer's page"),
        ("https://news.example/profile/jane-doe", "a writer's page"),
        ("https://news.example/profiles/mary-ann-de-souza", "a writer's page"),
        ("https://news.example/staff/ruth/", "a writer's page"),
        ("https://news.example/contributors/jane-doe/", "a writer's page"),
        ("https://news.example/subject/mental-health/", "a tag's or archive's address"),
        ("https://news.example/subjects/sleep", "a tag's or archive's address"),
        ("https://news.example/subject.php?id=4", "a tag's or archive's address"),
    ],
)
def test_a_person_s_or_subject_s_page_is_a_listing(url, reason):
    assert link_kind(url) == PageKind(Kind.LISTING, reason)


@pytest.mark.parametrize(
    "url",
    [
        "https://news.example/people/the-woman-who-rowed-the-atlantic-alone",  # a story's slug under /people/
        "https://news.example/people/2026/05/jane-doe-wins-award/",
        "https://news.example/subject/mental-health/how-to-ask-for-help-at-work/",
        "https://news.example/p/12345",  # a story's id, not a further page
        "https://news.example/news/p/123456/",
    ],
)
def test_a_story_under_people_subject_or_p_is_still_a_story(url):
    assert link_kind(url) is None


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.13:8001/feed/atom/",  # the demo's Wellbeing Times: was "a site's own page (about, ...)"
        "https://news.example/feeds/world/",  # was "a section front's address" (a live trial's preview)
        "https://news.example/rss/health/",
        "https://news.example/rss.xml",
        "https://news.example/news/health.rss",
        "https://blog.example/?feed=rss2",
        "https://blog.example/2026/11/a-story/comments/feed/",  # was "a forum thread's address"
    ],
)
def test_a_feed_s_address_says_it_is_a_feed(url):
    verdict = link_kind(url)
    assert verdict is not None and verdict.kind is Kind.SERVICE and verdict.reason == "a feed's address"


@pytest.mark.parametrize(
    "url",
    ["https://news.example/2026/11/rss-readers-return.html", "https://news.example/family/feeding-toddlers-well/"],
)
def test_a_story_about_feeds_is_no_feed(url):
    assert link_kind(url) is None


@pytest.mark.parametrize(
    "url",
    [
        "https://edition.cnn.com/2013/11/27/justice/tucson-arizona-captive-girls/index.html",
        "https://news.example/news/conditions/flu-season-arrives-early.html",
        "https://news.example/clinic-news/new-wing-opens/",
        "https://news.example/story/12345",
        "https://news.example/blog/how-we-measure-waiting-times/",
        "https://alistapart.example/article/understandingwebdesign/",  # one long word: a slug, not a section
        "https://news.example/faq/kickstart-your-degree-vs-certification/",  # furniture only as the last segment
    ],
)
def test_an_article_s_address_is_not_refused(url):
    assert link_kind(url) is None


def test_a_forums_front_is_told_by_the_threads_under_its_address():
    from filters.kind import forum_front

    base = "https://well.example"
    threads = [f"{base}/community/t/topic-{n}/{n}/" for n in range(1041, 1045)]
    verdict = forum_front(f"{base}/community/", [*threads, f"{base}/community/login/", f"{base}/mind/a-story/"])
    assert verdict == PageKind(Kind.FORUM, "4 of the 5 links under its address are forum threads")
    stories = [f"{base}/world/story-{n}-of-the-day/" for n in range(4)]
    with_comments = stories + [url + "comments/" for url in stories]  # each story's comments page: still news
    assert forum_front(f"{base}/world/", with_comments) is None
    assert forum_front(f"{base}/section.php?s=patients", threads) is None, "no links under its address"
    assert forum_front(f"{base}/", threads) is None, "the home page"


def test_a_small_section_s_first_page_is_no_article():
    """A section front of two or three cards (the Wellbeing Times' /mind/ early on): the first card's date after the
    section's <h1> was read as the headline's dated byline, so the page was "an article: a dated byline". A card's
    headline ends the byline's zone; an article's byline before its related headlines still counts."""
    cards = "".join(
        f'<article class="card"><h3><a href="/mind/story-{i}/">{title}</a></h3><p>{SENTENCES[i]}</p>'
        f'<p class="meta"><a href="/writers/ruth/" rel="author">Ruth Adeyemi</a> &middot; '
        f'<time datetime="2025-03-0{i + 2}">{i + 2} March 2025</time></p></article>'
        for i, title in enumerate(STORIES[:2])
    )
    front = page(body=f"<main><section><h1>Mind</h1>{cards}</section></main>", title="Mind | Daily")
    ev = gather(filters.read_page(front), "https://news.example/mind/")
    assert not ev.byline_date
    assert kind_of(front, "https://news.example/mind/") == PageKind(
        Kind.LISTING, "2 dated headline links and no body of prose"
    )
    related = f'<ul class="related"><li><a href="/mind/other/">{STORIES[0]}</a></li></ul>'
    story = page(
        body=f"<main><h1><a href='/mind/x/'>The council votes to rebuild the bridge</a></h1>"
        f"<p class=byline>By Ruth Adeyemi, 7 March 2025</p>{related}{BODY}</main>"
    )
    assert gather(filters.read_page(story), "https://news.example/mind/x/").byline_date


@pytest.mark.parametrize("cards", [2, 3])
def test_the_demo_s_small_section_front_is_no_article(cards):
    """The Wellbeing Times' /mind/ front early on, as its server renders it: two or three cards."""
    pytest.importorskip("demo")
    from dataclasses import replace

    from demo.pages import PageContext
    from demo.sites import get_site, template_for
    from demo.timeline import SiteState

    spec, base = get_site("wellbeing"), "http://127.0.0.13:8952"
    ctx = PageContext(spec, base, SiteState(spec, None, 40, lambda: 1_780_000_000.0).published())
    mind = [pair for pair in ctx.published if pair[0].section == "mind"][:cards]
    html = template_for(spec).section(replace(ctx, published=mind), "mind", 1)
    assert html.count('<article class="card">') == cards
    verdict = kind_of(html, base + "/mind/")
    assert verdict == PageKind(Kind.LISTING, f"{cards} dated headline links and no body of prose")
