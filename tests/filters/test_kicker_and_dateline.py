"""A section kicker above the headline ("Mind", a link to the section) and a "Posted: <date> | Filed under <section>"
line are the site's labels, not the article's text: main-content detection removes them with their reason, and keeps
the headline and the body's first paragraph (issue 30 item 4)."""

from __future__ import annotations

import pytest

from .article_page import ARTICLE, assert_article_kept, assert_kept_as_text, core, page, removed_with

HEADLINE = "<h1>Measles cases rise in the north</h1>"
BODY = ARTICLE.split("</h1>", 1)[1]
NAV = (
    "<nav><ul><li><a href='/'>Home</a></li><li><a href='/mind/'>Mind</a></li><li><a href='/body/'>Body</a></li>"
    "<li><a href='/family/'>Family</a></li></ul></nav>"
)


def first_body_line(ex) -> str:
    return ex.body.splitlines()[0]


def test_a_kicker_naming_a_section_of_the_sites_navigation_is_removed():
    html = page(f"{NAV}<main><article><header><p class='kicker'>Mind</p>{HEADLINE}</header>{BODY}</article></main>")
    ex = core(html)
    assert_article_kept(ex)
    (kicker,) = [p for p in ex.phrases if p.text == "Mind" and p.path.endswith("/p")]
    assert (kicker.removed_by, kicker.note) == ("content", "section kicker"), ex.explain()
    assert ex.headline == "Measles cases rise in the north"
    assert first_body_line(ex).startswith("Health officials reported forty new measles cases")


def test_a_kicker_that_links_to_its_section_is_removed():
    kicker = "<h3 class='slug'><a href='https://news.example.org/sections/health/'>Health</a></h3>"
    ex = core(page(f"<article>{kicker}{HEADLINE}{BODY}</article>"))
    assert_article_kept(ex)
    (phrase,) = removed_with(ex, "Health")
    assert phrase.note == "section kicker", ex.explain()
    assert not ex.body.startswith("Health\n")


def test_a_short_line_above_the_headline_that_names_no_section_stays():
    # a strapline the page links nowhere, and a kicker whose only link is a jump within the page, are its own words
    for above in ("<p>Exclusive interview</p>", "<p><a href='#outbreak'>Outbreak</a></p>"):
        ex = core(page(f"{NAV}<article>{above}{HEADLINE}{BODY}</article>"))
        assert_article_kept(ex)
        assert not [p for p in ex.phrases if p.note == "section kicker"], ex.explain()


def test_a_writers_name_above_the_headline_is_no_kicker():
    # linked from a list of the site's writers, not its navigation (thenation.com on the tuning split), or a link to
    # the writer's own page: a byline, which the gold keeps there
    writers = "<ul><li><a href='/directory/view?handle=hitchens'>Christopher Hitchens</a></li></ul>"
    for above in (
        "<div class='columnbyline'>CHRISTOPHER HITCHENS</div>",
        "<p><a href='/author/christopher-hitchens/'>Christopher Hitchens</a></p>",
    ):
        ex = core(page(f"<article>{above}{HEADLINE}{BODY}</article><aside>{writers}</aside>"))
        assert_article_kept(ex)
        assert not [p for p in ex.phrases if p.note == "section kicker"], ex.explain()


def test_a_kicker_is_read_only_above_the_headline():
    # a section's name as the body's first subheading is the article's
    ex = core(page(f"{NAV}<article>{HEADLINE}<h2>Body</h2>{BODY}</article>"))
    assert "Body" in ex.body.splitlines(), ex.explain()


@pytest.mark.parametrize(
    "line",
    [
        "Posted: 03/03/2025 08:00 | Filed under Clinic News",
        "Posted by IndustrySelect on Tuesday, August 29, 2023",
        "Posted: 2 days ago",
        "By: ShawnHymel | December 16, 2025 | Categories: Uncategorized",
        "Filed under Clinic News",
        "From the February 7, 2005 issue of New York Magazine.",
    ],
)
def test_a_posted_or_filed_under_line_is_removed(line):
    courier = f"<table><tr><td>{HEADLINE}<font size='1' color='#666666'>{line}</font>{BODY}</td></tr></table>"
    for html in (page(f"<article>{HEADLINE}<p>{line}</p>{BODY}</article>"), page(courier)):
        ex = core(html)
        assert_article_kept(ex)
        (phrase,) = removed_with(ex, line[:20])
        assert phrase.note == "byline or date line", ex.explain()
        assert ex.headline == "Measles cases rise in the north"
        assert first_body_line(ex).startswith("Health officials reported forty new measles cases")


@pytest.mark.parametrize(
    "line",
    [
        # Health Watch Daily's byline (demo/healthwatch.py): the time after the year kept it in the text until the
        # site's profile was learned
        "By Health Watch Daily staff | Published 28 November 2026, 05:39",
        "By Jane Smith | March 3, 2025 at 3:00 pm EST",
    ],
)
def test_a_byline_with_a_time_after_its_date_is_removed(line):
    ex = core(page(f"<article>{HEADLINE}<p>{line}</p>{BODY}</article>"))
    assert_article_kept(ex)
    (phrase,) = removed_with(ex, line[:20])
    assert (phrase.removed_by, phrase.note) == ("content", "byline or date line"), ex.explain()
    assert first_body_line(ex).startswith("Health officials reported forty new measles cases")


def test_a_sentence_about_posting_or_filing_is_article_text():
    sentences = (
        "Posted in 2019, the letter to parents went unnoticed until the outbreak began.",
        "Filed under the Freedom of Information Act in 2021, the request was refused.",
        "Posted by hand to every home on 3 March 2025, the leaflet lists the clinics.",
        "Categories: the authority sorts cases by age group and by town.",
        "From the March 2020 issue on, the magazine printed the clinic's address.",
    )
    assert_kept_as_text(sentences)


def test_the_thesis_profile_keeps_the_kicker_and_the_posted_line():
    line = "Posted: 03/03/2025 08:00 | Filed under Clinic News"
    html = page(f"{NAV}<article><p class='kicker'>Mind</p>{HEADLINE}<p>{line}</p>{BODY}</article>")
    ex = core(html, profile="thesis")
    assert line in ex.text
    assert not [p for p in ex.phrases if p.note]


def test_the_sites_lines_in_the_articles_lead_are_removed_too():
    # above a narrowed main content, article-like phrases are kept as its lead (filters.lead); a "Posted by" line or
    # an affiliate disclosure there is the site's all the same (wcxb tuning split: 0052, 0004, 0050, 0133, 1821)
    more = "".join(f"<p>Paragraph {i} of the report: clinics stay open on Saturday mornings.</p>" for i in range(8))
    intro = "Forty new measles cases were reported this week in the north, say health officials."
    lines = (
        "Posted by IndustrySelect on Tuesday, August 29, 2023",
        "We may earn commission from links on this page, but we only recommend products we back.",
    )
    html = page(
        f"<div class='outer'><p>Health News</p><div class='mid'><p>{intro}</p>"
        + "".join(f"<p>{line}</p>" for line in lines)
        + f"<div class='story'>{ARTICLE}{more}</div></div></div>"
    )
    ex = core(html)
    assert_article_kept(ex)
    assert [p.note for p in ex.phrases if p.text == intro] == ["the article's lead"], ex.explain()
    notes = [p.note for line in lines for p in removed_with(ex, line[:30])]
    assert notes == ["byline or date line", "affiliate disclosure"], ex.explain()


@pytest.mark.parametrize(
    "line",
    [
        "Page 1 of 2",
        "&lt;&lt;&lt; Previous Next &gt;&gt;&gt; ( 1 | 2 | 3 | 4 | 5 | 6 )",
        '("Poisoned at the Source" 1 | 2 | 3 | 4 | 5 | 6 | 7 )',
        "PAGE 1 | 2 | 3 | 4 | 5 NEXT",
    ],
)
def test_a_pager_of_the_articles_pages_is_removed(line):
    pager = line.replace(" 2 ", " <a href='?page=2'>2</a> ")  # the other pages are links
    ex = core(page(f"<article>{ARTICLE}<p>{pager}</p></article>"))
    assert_article_kept(ex)
    (phrase,) = [p for p in ex.phrases if "1" in p.text and p.removed_by]
    assert phrase.note == "page numbers", ex.explain()


def test_numbers_in_a_sentence_are_no_pager():
    sentences = ("The clinic saw 1 of 2 children before noon.", "Wards 1 | 2 | 3 were closed in 2019 for repairs.")
    assert_kept_as_text(sentences)


def test_a_box_of_related_stories_credited_and_dated_goes_with_its_bullets():
    # Yahoo News 2000 (crawl-to-the-future tuning pages): a "Full Coverage" table beside the story, each row a bullet
    # cell and a linked headline with its source and date
    rows = "".join(
        f"<tr><td><b>&#183;</b></td><td><a href='/s{n}.html'>{title}</a> - {source} ({day})</td></tr>"
        for n, (title, source, day) in enumerate(
            [
                ("Floridian Wins $1 Million on Market Slump", "Reuters", "Oct 27, 2000"),
                ("The Tech Wreck: How Bad Is It?", "Business Week", "Oct 26, 2000"),
                ("Attention, Shoppers", "NY Times (registration req'd)", "Oct 22, 2000"),
            ]
        )
    )
    box = f"<table align=right width=200><tr><td colspan=2>Related News Stories</td></tr>{rows}</table>"
    ex = core(page(f"<article>{box}{ARTICLE}</article>"))
    assert_article_kept(ex)
    related = [p for p in ex.phrases if p.text.endswith(")") and " - " in p.text]
    assert len(related) == 3 and all(p.note == "related story" for p in related), ex.explain()
    assert [p.note for p in ex.phrases if p.text == "·"] == ["no words"] * 3, ex.explain()
    assert "·" not in ex.body and "Reuters" not in ex.body


def test_a_sentence_that_names_a_source_and_a_date_in_brackets_stays():
    sentence = "The ruling was reported first by a local paper - The Courier (Oct 27, 2000)."
    ex = core(page(f"<article>{ARTICLE}<p>{sentence}</p></article>"))
    assert sentence in ex.text, ex.explain()


#: The Morning Pulse's byline (demo/pulse.py): no "By", a writer's link, a role and a date; it stayed in the core
#: text even once the site's profile was learned (names and dates vary from page to page)
MARKED_BYLINE = (
    "<div class='byline flex gap-2'><a href='https://pulse.example/writers/callum-reid/' rel='author'>Callum Reid</a>"
    " <span>Science reporter</span> <time datetime='2026-11-29T05:28'>29 November 2026, 05:28</time></div>"
)


@pytest.mark.parametrize(
    "line",
    [
        MARKED_BYLINE,
        # a writer's link and a date, in a block named nothing
        "<p><a href='/author/callum-reid/'>Callum Reid</a> Science reporter, 29 November 2026</p>",
        # a byline's class and a date, the name and the date in blocks of their own inside it
        "<div class='article-byline'><p>Callum Reid</p><p>29 November 2026</p></div>",
        # a "meta" block with a date
        "<div class='entry-meta'><p>Callum Reid, 29 November 2026</p></div>",
    ],
)
def test_a_byline_the_page_marks_as_one_is_removed_and_is_the_byline_field(line):
    ex = core(page(f"<article><header>{HEADLINE}<p class='dek'>{STANDFIRST}</p>{line}</header>{BODY}</article>"))
    assert_article_kept(ex)
    (phrase, *_rest) = removed_with(ex, "Callum Reid")
    assert (phrase.removed_by, phrase.note) == ("content", "byline"), ex.explain()
    assert "Callum Reid" not in ex.body and "Science reporter" not in ex.body, ex.explain()
    assert ex.body.splitlines()[0] == STANDFIRST, ex.explain()
    assert ex.body.splitlines()[1].startswith("Health officials reported forty new measles cases"), ex.explain()
    assert ex.lead.byline.startswith("Callum Reid"), ex.lead


STANDFIRST = "Forty new cases this week, most among children who were not vaccinated"


@pytest.mark.parametrize(
    "line",
    [
        # one sign of a byline is not enough: a date alone is a short paragraph's, a writer's link alone may be
        # the gold's (thenation.com), a "meta" block may hold a standfirst, and crawl-to-the-future's gold keeps
        # CNN 2000's <p class="byline"> (no date, no link in it)
        "<p>29 November 2026, 05:28</p>",
        "<p><a href='/author/callum-reid/'>Callum Reid</a></p>",
        "<div class='article-meta'><p>Callum Reid Science reporter</p></div>",
        "<p class='byline'>By Larry Margasak<br>Associated Press Internet Writer</p>",
    ],
)
def test_a_short_line_with_one_sign_of_a_byline_stays(line):
    ex = core(page(f"<article><header>{HEADLINE}</header>{line}{BODY}</article>"))
    assert_article_kept(ex)
    assert not [p for p in ex.phrases if p.note == "byline"], ex.explain()


def test_a_headline_in_a_meta_wrapper_with_the_byline_stays_the_headline():
    # wcxb's whova.com page: <div class="et_post_meta_wrapper"><h1>...</h1><p class="post-meta"> by <a
    # rel="author" href=".../author/whova/">whova</a> | Apr 21, 2025</p></div>: the byline goes, not the headline
    wrapper = (
        "<div class='et_post_meta_wrapper'><h1>Measles cases rise in the north</h1><p class='post-meta'> by "
        "<a href='https://news.example/author/whova/' rel='author'>whova</a> | Apr 21, 2025</p></div>"
    )
    ex = core(page(f"<article>{wrapper}{BODY}</article>"))
    assert_article_kept(ex)
    assert ex.headline == "Measles cases rise in the north", ex.explain()
    assert [p.text for p in ex.phrases if p.note == "byline"] == ["by whova | Apr 21, 2025"], ex.explain()


def test_a_marked_date_alone_is_the_date_field_not_the_byline():
    line = "<div class='post-meta'><time datetime='2025-12-18'>Dec 18, 2025 5:00 am PST</time></div>"
    ex = core(page(f"<article><header>{HEADLINE}{line}</header>{BODY}</article>"))
    assert [p.note for p in ex.phrases if p.text.startswith("Dec 18")] == ["byline"], ex.explain()
    assert (ex.lead.byline, ex.lead.date) == ("", "Dec 18, 2025"), ex.lead


@pytest.mark.parametrize(
    ("bio", "removed"),
    [
        # the box's text, its nested blocks' included, is a line: a byline
        ("<div><p>Health desk</p></div>", True),
        # a box named "meta" that holds a bio two blocks down is a box of its own, not a byline
        ("<div><p>" + "Callum Reid has covered public health for the paper since 2015, from the wards to the labs. " * 2
         + "</p></div>", False),
    ],
)  # fmt: skip
def test_a_marked_byline_box_is_measured_by_all_its_text(bio, removed):
    box = f"<div class='entry-meta'><p>Callum Reid, 29 November 2026</p>{bio}</div>"
    ex = core(page(f"<article><header>{HEADLINE}{box}</header>{BODY}</article>"))
    assert_article_kept(ex)
    notes = [p.note for p in ex.phrases if p.text.startswith("Callum Reid,")]
    assert len(notes) == 1 and (notes[0] == "byline") == removed, ex.explain()
