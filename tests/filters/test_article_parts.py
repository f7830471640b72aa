"""The article's headline and body as fields of their own (Extraction.headline, Extraction.body)."""

from __future__ import annotations

import re

from filters import article_parts, extract, get_profile
from filters.html5 import parse, segment

BODY = """<p>Health officials reported forty new measles cases this week, most of them among children who had not
been vaccinated, and urged parents to check their records.</p>
<p>Vaccination clinics will open on Saturday mornings until the end of the month, the authority said.</p>"""


def page(body: str) -> str:
    return f"<!doctype html><html><head><title>Measles | Daily Health</title></head><body>{body}</body></html>"


def test_the_headline_is_a_field_and_the_body_is_the_core_text_without_it():
    ex = extract(page(f"<article><h1>Measles cases rise in the north</h1>{BODY}</article>"))
    assert ex.headline == "Measles cases rise in the north"
    assert ex.text.startswith("Measles cases rise in the north\n")
    assert ex.body == ex.text.split("\n", 1)[1]
    assert ex.body.startswith("Health officials reported")


def test_an_h1_after_the_body_starts_is_no_headline():
    ex = extract(page(f"<article>{BODY}<h1>Related coverage of the outbreak</h1>{BODY}</article>"))
    assert ex.headline == ""
    assert ex.body == ex.text


def test_a_page_without_a_headline_has_the_whole_core_text_as_body():
    ex = extract(page(f"<article>{BODY}</article>"))
    assert (ex.headline, ex.body) == ("", ex.text)


def test_the_thesis_profile_skips_the_title_phrase():
    ex = extract(page(f"<article><h1>Measles cases rise in the north</h1>{BODY}</article>"), profile="thesis")
    assert ex.headline == "Measles cases rise in the north"
    assert "Measles | Daily Health" in ex.body  # the thesis keeps <title> as a phrase of its text


LEAD = (
    "<header><h1>Measles cases rise in the north</h1>"
    "<p class=dek>Forty new cases this week, most among children who were not vaccinated</p>"
    "<p class=byline>By Jane Smith</p><time>4 March 2025</time></header>"
)


def test_the_standfirst_byline_and_date_beside_the_headline_are_fields():
    lead = extract(page(f"<article>{LEAD}<div>{BODY}</div></article>")).lead
    assert lead.standfirst == "Forty new cases this week, most among children who were not vaccinated"
    assert (lead.byline, lead.date) == ("By Jane Smith", "4 March 2025")
    # the thesis profile has no blocks to place the standfirst by, but finds the byline and date
    thesis = extract(page(f"<article>{LEAD}<div>{BODY}</div></article>"), profile="thesis").lead
    assert (thesis.standfirst, thesis.byline, thesis.date) == ("", "By Jane Smith", "4 March 2025")


def test_the_first_paragraph_of_a_body_beside_the_headline_is_no_standfirst():
    lead = extract(page(f"<article><h1>Measles cases rise in the north</h1>{BODY}</article>")).lead
    assert (lead.standfirst, lead.byline, lead.date) == ("", "", "")


def test_a_page_without_a_headline_has_no_lead_parts():
    lead = extract(page(f"<article><p>By Jane Smith</p><p>4 March 2025</p>{BODY}</article>")).lead
    assert (lead.standfirst, lead.byline, lead.date) == ("", "", "")


# the byline marks' fast paths (issue 29): the same blocks as the pattern of the words tested in each mark
_OLD_MARK = re.compile(r"(?<![^\s_-])(?:by-?line|author|authors|written-by|posted-by|dateline|meta)(?![^\s_-])")
_MARKS = [
    "", "byline", "x-byline", "xbyline", "by-line_", "authors", "authorsx", " meta ", "metadata", "post-meta", "ameta",
    "_written-by", "posted-byx", "dateline\u2003", "\u00e9meta", "headline inline", "entry-meta has-text", "a\0author",
    "meta\0x", "underline byline", "author-bio", "Author", "-by", "by", "line",
]  # fmt: skip


def test_the_byline_mark_pattern_finds_what_the_pattern_with_its_look_back_first_found():
    for mark in _MARKS:
        assert (article_parts._BYLINE_MARK.search(mark) is None) == (_OLD_MARK.search(mark) is None), mark


def test_the_named_blocks_are_those_whose_own_mark_names_a_byline():
    marks = [m for m in _MARKS if "\0" not in m]
    for start in range(len(marks)):  # every position of each mark among the others
        shifted = marks[start:] + marks[:start]
        want = {i for i, mark in enumerate(shifted) if _OLD_MARK.search(mark)}
        assert article_parts._named_blocks(shifted) == want
    assert article_parts._named_blocks(_MARKS) == {i for i, mark in enumerate(_MARKS) if _OLD_MARK.search(mark)}
    assert article_parts._named_blocks([]) == set()
    # a NUL (which the parser never leaves in a mark) is no separator: "x\0byline" names nothing, and the marks after
    # one are still found at their place
    assert article_parts._named_blocks(["x\0byline", "meta"]) == {1}
    assert article_parts._named_blocks(["a\0b", "c", "post-author"]) == {2}


def test_the_blocks_under_a_named_block_are_its_children_and_grandchildren():
    html = (
        "<body><div class=byline><div><p>By Jane Roe</p><div><p>deep</p></div></div><p>4 March 2025</p></div>"
        "<div class=meta><p>x</p></div><p>other</p></body>"
    )
    blocks = segment(parse(html), get_profile("default"))[2]
    named = article_parts._named_blocks(blocks.marks)
    assert len(named) == 2
    parents = blocks.parents
    want = {i for i, up in enumerate(parents) if up in named or (up >= 0 and parents[up] in named)}
    assert article_parts._under_named(named, parents, blocks.ends) == want
    assert [blocks.tags[i] for i in sorted(want)] == ["div", "p", "div", "p", "p"]  # not the deep <p>
