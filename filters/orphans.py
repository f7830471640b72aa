"""Headings whose section lost all its text: the title of a related-stories list, a comment section or a list
of links that went without it ("Related Words", "Latest News", "RELATED LINKS", "Like this:")."""

from __future__ import annotations

from .html5 import Blocks
from .phrases import Phrase

__all__ = ["orphan_headings", "ORPHAN_NOTE"]

#: why a heading whose section lost all its text goes
ORPHAN_NOTE = "heading of a removed section"

_HEADINGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))
#: a box's title (in a heading element, a cell or a bold line) is at most this many words and characters
TITLE_WORDS = 5
TITLE_CHARS = 40
#: ... and its box lost at least this many times its length of text ("Next page >" under a byline is not a box)
TITLE_BOX_TEXT = 1.5
#: blocks whose short text is not a box's title: the headline, a list's item, code
_NOT_TITLES = frozenset(("h1", "li", "pre", "code", "dt", "dd"))


def orphan_headings(phrases: list[Phrase], blocks: Blocks) -> list[Phrase]:
    """The kept headings whose section keeps no text while some of it was removed: ``<h2>`` to ``<h6>``
    whose section, up to the next heading, went (:func:`_orphan_heading_elements`), and short titles whose box went
    (:func:`_orphan_titles`), once each."""
    # the kept phrases no stage noted, in a block: the only ones either kind can be (one pass over the phrases)
    kept = [k for k, ph in enumerate(phrases) if ph.removed_by is None and ph.note is None and ph.node >= 0]
    found = _orphan_heading_elements(phrases, blocks.tags, kept)
    seen = set(map(id, found))
    return found + [ph for ph in _orphan_titles(phrases, blocks, kept) if id(ph) not in seen]


def _orphan_heading_elements(phrases: list[Phrase], tags: list[str], kept: list[int]) -> list[Phrase]:
    """The kept headings (``<h2>`` to ``<h6>``, not the headline or the lead) whose section, up to the next kept
    heading of the same or a higher rank, keeps no text while some of its text was removed (what a negative tag
    removed, a script, a style, a noscript..., does not count): the title of a related-stories list, a comment
    section or a list of links that went without it.  wcxb tuning split, single page, 0.9541 -> 0.9545 (0.9543
    when the text removed by link density did not count); crawl-to-the-future unchanged.  ``kept``: the indices
    of the kept phrases without a note, in a block.
    """
    out: list[Phrase] = []
    n = len(phrases)
    for k in kept:
        ph = phrases[k]
        tag = tags[ph.node]
        if tag not in _HEADINGS or tag == "h1":
            continue
        removed = False
        for j in range(k + 1, n):
            q = phrases[j]
            q_tag = tags[q.node] if q.node >= 0 else ""
            if q.removed_by is None:
                if q_tag not in _HEADINGS:
                    break  # the section keeps text
                if q_tag[1] <= tag[1]:
                    if removed:
                        out.append(ph)
                    break
            elif q.removed_by != "tag" or q.neg is None:
                removed = True
        else:
            if removed:
                out.append(ph)
    return out


def _title_like(text: str) -> bool:
    """A box's title: a few words, no sentence ("RELATED LINKS", "Related Stories:", "Full Coverage")."""
    return (
        len(text) <= TITLE_CHARS
        and text[-1] not in ".!?,;"
        and text.count(" ") < TITLE_WORDS
        and any(map(str.isalpha, text))
    )


def _orphan_titles(phrases: list[Phrase], blocks: Blocks, kept: list[int]) -> list[Phrase]:
    """The kept short titles (old pages set them in a table cell, bold or in capitals; others in a heading element
    followed by the article's text after the box) whose box lost all its text: the smallest block around the title
    that holds other phrases holds only removed ones, some of them removed for what they are (links, a list of
    teasers), not by a negative tag.  The section is the box the page drew around it.  Tuning split, single page, body
    only: crawl-to-the-future 0.94764 -> 0.94779 (32 pages better, 2 worse), wcxb 0.96051 -> 0.96053; without
    the guards (a price's or a date's cell removed by length, a title at least 1.5 times shorter than the text
    removed, lists and code) 0.94795 and 0.96058 but 7 pages worse, a list of services' names among them.  A jump
    menu's options counted as the box's links: ctf 0.94817 -> 0.94852; ``<h2>``-``<h6>`` titles of boxes too (CNN
    2005's "YOUR E-MAIL ALERTS" above its form): 0.95087 -> 0.95102, none worse.  Or, set apart from its box, between
    two removed ones (:func:`_removed_around`): 0.95102 -> 0.95110, wcxb 0.96053 -> 0.96055 (25 pages better, 3
    worse by at most 0.0003).  ``kept``: as for :func:`_orphan_heading_elements`."""
    out: list[Phrase] = []
    tags = blocks.tags
    for k in kept:
        ph = phrases[k]
        if len(ph.text) > TITLE_CHARS or tags[ph.node] in _NOT_TITLES:  # most kept phrases are longer
            continue
        if _between_kept(phrases, k) or not _title_like(ph.text):  # most short ones sit between kept ones
            continue
        others = _box(phrases, k, blocks)
        if others is None:
            others = _removed_around(phrases, k)
        # removed for what it is (links, teasers, the site's lines), not for being short like a price or a date
        if others and sum(len(q.text) for q in others if q.removed_by != "length") >= TITLE_BOX_TEXT * len(ph.text):
            out.append(ph)
    return out


def _says_something(ph: Phrase) -> bool:
    """Whether a phrase tells of its box: a script, a style, a comment, a bullet ("·") do not; a jump menu's options
    are its links."""
    return not (ph.removed_by == "tag" and ph.neg not in (None, "option")) and any(map(str.isalnum, ph.text))


def _between_kept(phrases: list[Phrase], k: int) -> bool:
    """Whether the nearest phrases that say something around phrase ``k`` are kept, the one before it at least
    (none after is as good as a kept one): then its box keeps one of them (:func:`_box` is None) and it is not
    between two removed ones (:func:`_removed_around` is empty), as for most short phrases, at less cost."""
    j = k - 1
    while j >= 0 and not _says_something(phrases[j]):
        j -= 1
    if j < 0 or phrases[j].removed_by is not None:
        return False
    n = len(phrases)
    m = k + 1
    while m < n and not _says_something(phrases[m]):
        m += 1
    return m == n or phrases[m].removed_by is None


def _box(phrases: list[Phrase], k: int, blocks: Blocks) -> list[Phrase] | None:
    """The other phrases of the smallest block around phrase ``k`` that holds any, all removed; None when there is no
    such block or it keeps one of them. The scan widens with the box and stops at the first phrase kept, so that a
    page of thousands of short cells costs each title its neighbours, not the page."""
    parents, ends, n = blocks.parents, blocks.ends, len(phrases)
    box, j, m = phrases[k].node, k, k + 1
    others: list[Phrase] = []
    while box >= 0:
        lo, hi = box, ends[box]
        while j > 0 and lo <= phrases[j - 1].node < hi:
            j -= 1
            if _says_something(phrases[j]):
                if phrases[j].removed_by is None:
                    return None
                others.append(phrases[j])
        while m < n and lo <= phrases[m].node < hi:
            if _says_something(phrases[m]):
                if phrases[m].removed_by is None:
                    return None
                others.append(phrases[m])
            m += 1
        if others:
            return others
        box = parents[box]
    return None


def _removed_around(phrases: list[Phrase], k: int) -> list[Phrase]:
    """The removed phrases right after phrase ``k`` when the one right before it was removed too: a title between
    two removed boxes, as old pages set a box's title in a row or a table of its own (Yahoo News 2000's "Related News
    Stories" between its coverage links and its list); at least two, else none."""
    j = k - 1
    while j >= 0 and not _says_something(phrases[j]):
        j -= 1
    if j >= 0 and phrases[j].removed_by is None:
        return []
    run: list[Phrase] = []
    for q in phrases[k + 1 :]:
        if not _says_something(q):
            continue
        if q.removed_by is None:
            break
        run.append(q)
    return run if len(run) >= 2 else []
