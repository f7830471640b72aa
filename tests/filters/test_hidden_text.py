"""Text the page hides from its readers (filters.hidden): removed with the reason, each on a small page of its own."""

from __future__ import annotations

import pytest

from filters import extract, html5
from filters.hidden import HIDDEN_ARIA, HIDDEN_ATTRIBUTE, HIDDEN_CLASS, HIDDEN_STYLE

from .article_page import ARTICLE, assert_article_kept, page

SECRET = (
    "<p>Subscribers get early access to the full archive of our reporting on public health, with weekly "
    "briefings from the newsroom.</p>"
)


def hidden_page(opening: str, closing: str = "</div>") -> str:
    return page(f"<article>{ARTICLE}{opening}{SECRET}{closing}</article>")


def reasons_of(ex, fragment: str) -> list[str]:
    return [p.reason() for p in ex.phrases if fragment in p.text]


@pytest.mark.parametrize(
    ("opening", "reason"),
    [
        ("<div hidden>", HIDDEN_ATTRIBUTE),
        ('<div aria-hidden="true">', HIDDEN_ARIA),
        ('<section aria-hidden="TRUE">', HIDDEN_ARIA),
        ('<div style="display:none">', HIDDEN_STYLE),
        ('<div style="color: red; DISPLAY : none !important">', HIDDEN_STYLE),
        ('<div style="visibility: hidden">', HIDDEN_STYLE),
        ('<div class="panel hide">', HIDDEN_CLASS),
        ('<div class="Hidden">', HIDDEN_CLASS),
        ('<div class="hidden" data-x="1">', HIDDEN_CLASS),  # through the attributes' dict, not the class alone
    ],
)
def test_hidden_text_is_removed_with_its_reason(opening, reason):
    tag = opening[1:].split()[0].rstrip(">")
    ex = extract(hidden_page(opening, f"</{tag}>"))
    assert_article_kept(ex)
    assert "early access" not in ex.text
    assert reasons_of(ex, "early access") == [f"removed by content: {reason}"]


@pytest.mark.parametrize(
    "opening",
    [
        '<div aria-hidden="false">',
        '<div style="display: block; overflow: hidden">',  # overflow hidden shows the text
        '<div class="hidden md:block">',  # Tailwind: the copy shown from medium screens on
        '<div class="hide show-for-large">',
        '<div class="hidden-xs">',  # hidden on phones only
        '<div class="sr-only">',  # read aloud by screen readers: part of what the page says (filters.hidden)
        '<div class="visually-hidden">',
        '<div hidden="until-found">',  # a closed panel that the browser's search opens
        '<div class="accordion-content hidden">',  # a panel the reader opens
        '<div role="tabpanel" hidden>',
    ],
)
def test_text_shown_to_some_readers_stays(opening):
    ex = extract(hidden_page(opening))
    assert_article_kept(ex)
    assert "early access" in ex.text, ex.explain()


def test_a_hidden_inline_element_is_not_judged():
    # only blocks are: a span's style is not read (the walk reads the attributes of blocks only)
    ex = extract(
        page(
            f"<article>{ARTICLE}<p>Clinics open at nine <span hidden>(closed)</span> daily "
            "across the whole of the region, the authority said.</p></article>"
        )
    )
    assert "Clinics open at nine (closed) daily" in ex.text


def test_a_page_hidden_until_a_script_shows_it_keeps_its_article():
    # the whole body in a wrapper hidden until a script shows it: too big to be hidden text
    ex = extract(page(f'<div id="app" style="visibility:hidden"><article>{ARTICLE}</article></div>'))
    assert_article_kept(ex)


def test_hidden_text_outside_the_main_content_says_it_is_hidden():
    ex = extract(page(f'<article>{ARTICLE}</article><div class="hide"><p>Menu</p>{SECRET}</div>'))
    assert_article_kept(ex)
    assert reasons_of(ex, "early access") == [f"removed by content: {HIDDEN_CLASS}"]


def test_template_text_is_never_read_and_noscript_text_is_removed_by_its_tag():
    # a <template>'s content is a document fragment of its own in the HTML5 tree: no phrase at all
    copy = "<p>Health officials reported forty new measles cases this week, most of them among children.</p>"
    ex = extract(page(f"<article>{ARTICLE}<template>{SECRET}</template><noscript>{copy}</noscript></article>"))
    assert_article_kept(ex)
    assert "early access" not in ex.text
    assert reasons_of(ex, "early access") == []
    assert reasons_of(ex, "most of them among children.") == ["removed by tag <noscript>"]


def test_thesis_profile_does_not_look_for_hidden_text():
    ex = extract(hidden_page('<div style="display:none">'), profile="thesis")
    assert "early access" in ex.text


def test_both_walks_find_the_same_hidden_blocks():
    html = page(
        f"<article>{ARTICLE}<div class='hide'>a</div><div class='x' id='y' hidden>b</div>"
        "<p class='HIDDEN'>c</p><div role='note' aria-hidden='true'>d</div><div style='display:none'>e</div></article>"
    )
    profile = extract(html).profile
    tree = html5.parse(html)
    from filters import get_profile

    prof = get_profile(profile)
    compiled = html5.segment(tree, prof)
    python = html5.python_segment(tree, prof)
    assert compiled == python
    assert sorted(python[2].hidden.values()) == sorted(
        [HIDDEN_CLASS, HIDDEN_ATTRIBUTE, HIDDEN_CLASS, HIDDEN_ARIA, HIDDEN_STYLE]
    )
