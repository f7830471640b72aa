"""The shortcuts of main-content detection's steps decide as the work they skip would: a short title between kept
phrases (filters.orphans), a page with fewer teasers than a list holds (filters.teasers), marks seen before
(filters.marks), writers' links read in the candidates' blocks only (filters.article_parts), the blocks of one tag
found by list.index (filters.html5)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from filters import html5, marks, orphans, teasers
from filters.article_parts import WRITER, _writer_blocks
from filters.content import _anchors, _measure
from filters.html5 import blocks_of
from filters.pipeline import extract

from .article_page import ARTICLE, core, page
from .test_properties import html_documents

DEFAULT = "default"


def _decided_at_random(doc, rnd, choices):
    """The phrases and blocks of ``doc``'s page, each phrase kept or removed at random (``choices``): any mix, by
    what says something and what does not."""
    ex = extract(page(doc), profile=DEFAULT)
    for ph in ex.phrases:
        ph.removed_by = rnd.choice(choices)
    return ex.phrases, ex.blocks


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(html_documents(), st.randoms(use_true_random=False))
def test_a_title_between_kept_phrases_has_no_removed_box_nor_removed_neighbours(doc, rnd):
    phrases, blocks = _decided_at_random(doc, rnd, (None, None, "content", "tag", "length"))
    if blocks is None:
        return
    for k in range(len(phrases)):
        if orphans._between_kept(phrases, k):
            assert orphans._box(phrases, k, blocks) is None
            assert orphans._removed_around(phrases, k) == []


def _reference_orphan_titles(phrases, blocks):
    """filters.orphans._orphan_titles without the shortcut (as at e3f0c94)."""
    out = []
    for k, ph in enumerate(phrases):
        if ph.removed_by is not None or ph.note is not None or ph.node < 0:
            continue
        if blocks.tags[ph.node] in orphans._NOT_TITLES:
            continue
        if len(ph.text) > orphans.TITLE_CHARS or not orphans._title_like(ph.text):
            continue
        others = orphans._box(phrases, k, blocks)
        if others is None:
            others = orphans._removed_around(phrases, k)
        if others and sum(len(q.text) for q in others if q.removed_by != "length") >= 1.5 * len(ph.text):
            out.append(ph)
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(html_documents(), st.randoms(use_true_random=False))
def test_the_orphan_titles_are_those_found_without_the_shortcut(doc, rnd):
    phrases, blocks = _decided_at_random(doc, rnd, (None, None, "content", "tag"))
    if blocks is None:
        return
    kept = [k for k, ph in enumerate(phrases) if ph.removed_by is None and ph.note is None and ph.node >= 0]
    assert orphans._orphan_titles(phrases, blocks, kept) == _reference_orphan_titles(phrases, blocks)


def test_an_old_pages_title_between_two_removed_boxes_is_still_an_orphan():
    # Yahoo News 2000's "Related News Stories" in a row of its own, between its links and its list
    links = "".join(f"<a href='/n{i}'>Another story about the outbreak number {i}</a><br>" for i in range(4))
    html = page(f"<div>{ARTICLE}</div><table><tr><td>{links}</td></tr><tr><td><b>Related News</b></td></tr>"
                f"<tr><td>{links}</td></tr></table>")  # fmt: skip
    ex = core(html)
    (title,) = [p for p in ex.phrases if p.text == "Related News"]
    assert title.removed_by is not None


def _teaser_lists(html):
    ex = extract(html, profile=DEFAULT)
    blocks = ex.blocks
    for ph in ex.phrases:  # the facts of the page, as decide reads them
        ph.removed_by = ph.note = None
    m = _measure(ex.phrases, blocks, _anchors(blocks))
    return blocks, teasers.TeaserLists(ex.phrases, m.article, blocks, 0, [None] * len(blocks), m.subtree, 0)


def _teasers(n):
    return "".join(
        f"<div><h3><a href='/story/{i}'>Hospital {i} opens a new children's ward</a></h3>"
        f"<p>The ward has {i + 20} beds and a play room, and it will take its first patients in the spring.</p></div>"
        for i in range(n)
    )


def test_a_list_of_teasers_is_summed_and_two_teasers_are_no_list():
    blocks, lists = _teaser_lists(page(f"<div>{ARTICLE}</div><section>{_teasers(3)}</section>"))
    (section,) = blocks_of(blocks.tags, "section")
    assert lists.teasers[section] == 3 and lists.holds_list(section)
    blocks, lists = _teaser_lists(page(f"<div>{ARTICLE}</div><section>{_teasers(2)}</section>"))
    assert sum(lists.teasers) == 2 and max(lists.teasers) < teasers.TEASER_MIN


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(html_documents())
def test_the_noise_reasons_are_the_same_with_a_cold_or_a_warm_cache(doc):
    ex = extract(page(doc), profile=DEFAULT)
    if ex.blocks is None:
        return
    tags, block_marks = ex.blocks.tags, ex.blocks.marks
    warm = marks.noise_reasons(tags, block_marks)
    marks._REASON_CACHE.clear()  # "" not cached either: looked at, found to name nothing
    cold = marks.noise_reasons(tags, block_marks)
    expected = [marks._CHROME_TAGS.get(t) for t in tags]
    for i, (tag, mark) in enumerate(zip(tags, block_marks, strict=True)):
        if mark and expected[i] is None and tag not in marks._NEVER_NOISE:
            expected[i] = marks.marks_reason(mark)
    assert warm == cold == expected
    assert marks.marks_reason("") is None


def test_the_reason_cache_knows_no_marks_after_it_is_emptied(monkeypatch):
    monkeypatch.setattr(marks, "_REASON_CACHE_MAX", 1)
    marks.marks_reason("comments")
    assert marks._REASON_CACHE == {"": None, "comments": "comment section"}
    assert marks.noise_reasons(["div", "div"], ["", "comments"]) == [None, "comment section"]


def test_the_writers_links_are_read_in_the_blocks_asked_only():
    links = [(1, "/authors/jane-smith/", "Jane"), (2, "/news/x", "X"), (3, "/Staff/j", "J"), (4, "?author=7", "")]
    assert _writer_blocks(links, {1, 2, 3, 4}) == {1, 3, 4}
    assert _writer_blocks(links, {2, 3}) == {3}
    assert _writer_blocks(links, set()) == set()
    assert all(WRITER.search(h) for n, h, _ in links if n in {1, 3, 4})


@given(st.lists(st.sampled_from(["a", "p", "h1", "div", "main"]), max_size=30), st.sampled_from(["a", "h1", "main"]))
def test_the_blocks_of_a_tag_are_found_in_document_order(tags, tag):
    assert list(html5.blocks_of(tags, tag)) == [i for i, t in enumerate(tags) if t == tag]
