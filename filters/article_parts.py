"""The article's lead parts beside its headline: the standfirst (dek), the byline and the date, read from the
phrases just after the headline (:attr:`filters.Extraction.headline_phrase`).

A byline ("By Jane Smith", "5 min read") and a date ("4 March 2025") are short phrases there, kept or removed
(a date alone is often too short for the length filter); the standfirst is the first kept phrase after the
headline that main-content detection kept as the article's lead (:mod:`filters.lead`), or that shares the
headline's parent block (``<header>``, a title box) while the body lies elsewhere, so that the first paragraph
of a body set beside the headline is never taken for it. Without the HTML5 walk's
blocks (the ``thesis`` profile) there is no standfirst.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import compress
from operator import attrgetter, itemgetter

from .html5 import Blocks
from .lead import LEAD_NOTE
from .phrases import Phrase, remove_kept

__all__ = [
    "BODY_START",
    "BYLINE",
    "BYLINE_NOTE",
    "TEXT_DATE",
    "WRITER",
    "Lead",
    "headline_of",
    "lead",
    "remove_marked_bylines",
]

_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
TEXT_DATE = re.compile(  # Sept. 4, 2025 / 4th September 2025 / 2025-09-04 / 9/4/2025
    rf"(?i)\b{_MONTH} \d{{1,2}}(?:st|nd|rd|th)?,? (?:19|20)\d\d\b|"
    rf"\b\d{{1,2}}(?:st|nd|rd|th)? {_MONTH},? (?:19|20)\d\d\b|"
    r"\b(?:19|20)\d\d[-/.][01]?\d[-/.][0-3]?\d\b|\b[01]?\d/[0-3]?\d/(?:19|20)?\d\d\b"
)
BYLINE = re.compile(
    r"(?:^|\s)(?:[Bb]y|[Ww]ritten by|[Pp]osted by|[Aa]uthor:?)\s+[A-Z][a-z]+|\b\d+\s*min(?:ute)?s?\.? read\b"
)
#: a writer's page (a link to it names the article's writer)
WRITER = re.compile(
    r"(?i)/(?:authors?|contributors?|writers?|people|staff|profiles?|users?|by)/|[?&](?:author|handle)="
)
#: why a byline the page marks as one (:func:`remove_marked_bylines`) goes
BYLINE_NOTE = "byline"
#: the class/id/role words of a byline block ("byline", "post-author", "entry-meta"), each between white space, "_"
#: or "-" (or the mark's ends)
_BYLINE_WORDS = ("byline", "by-line", "author", "authors", "written-by", "posted-by", "dateline", "meta")
_BYLINE_MARK = re.compile(  # a word, then the look back for the character before it: sre skips to the words' letters
    "(?:" + "|".join(rf"{w}(?<![^\s_-]{w})" for w in _BYLINE_WORDS) + r")(?![^\s_-])"
)
#: a word beside a marked byline's date, not a time's ("am", "PST"): a marked line of a date alone is the date only
_WORD = re.compile(r"\b(?![AaPp]\.?[Mm]\b|[A-Z]{1,3}T\b)[^\W\d_]{2,}")
#: the words _BYLINE_MARK needs, one of them in each mark it finds
_MARK_WORDS = ("line", "author", "meta", "-by")
_LINK_NODE = itemgetter(0)
_NODE = attrgetter("node")
_HEADINGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))
#: a marked byline is short: its text and the marked block's at most this many characters (a block named
#: "author" or "meta" that holds more is a box of its own: an author's bio, the article itself)
MARKED_BYLINE_MAX = 150
#: how many blocks up from a phrase its byline's class is looked for (<div class=byline><p>name</p><p>date</p>)
_MARK_UP = 2

#: a core phrase this long that is no heading starts the article's body: an <h1> after it is not the headline
BODY_START = 40
#: how many phrases after the headline are read for the byline, the date and the standfirst
_AFTER = 8
#: a byline or date phrase is short; a longer one is the body's text mentioning a date or "by"
_SHORT = 120
_STANDFIRST_WORDS = 5


@dataclass(frozen=True)
class Lead:
    """The parts of an article around its headline; ``""`` for each one not found."""

    standfirst: str = ""
    byline: str = ""
    date: str = ""


def headline_of(phrases: Sequence[Phrase]) -> Phrase | None:
    """The article's headline among the kept phrases: the first kept ``<h1>`` before the body's first long phrase
    (an ``<h1>`` further down is a section's title), or None."""
    for p in phrases:
        if p.removed_by is not None or p.path.startswith("/html/head/"):  # thesis: the <title> is a phrase
            continue
        if p.path.endswith("/h1"):
            return p
        if len(p.text) >= BODY_START and p.path[-3:-1] != "/h":  # a long phrase, not a heading
            return None
    return None


def lead(phrases: Sequence[Phrase], headline: Phrase | None, blocks: Blocks | None) -> Lead:
    """The standfirst, byline and date after ``headline`` (each ``""`` when not found)."""
    if headline is None:
        return Lead()
    start = next(i for i, p in enumerate(phrases) if p is headline) + 1
    after = [p for p in phrases[start : start + _AFTER] if not p.path.startswith("/html/head/")]
    byline = date = ""
    rest = []
    for p in after:
        text = " ".join(p.text.split())
        short = len(text) <= _SHORT
        found = TEXT_DATE.search(text) if short else None
        marked = p.note == BYLINE_NOTE and (found is None or _WORD.search(TEXT_DATE.sub("", text)) is not None)
        by = short and (marked or BYLINE.search(text) is not None)
        if by and not byline:
            byline = text
        if found and not date:
            date = found.group(0)
        if not (by or found):
            rest.append(p)
    return Lead(_standfirst(rest, headline, blocks), byline, date)


def _standfirst(after: list[Phrase], headline: Phrase, blocks: Blocks | None) -> str:
    if blocks is None or not 0 <= headline.node < len(blocks):
        return ""
    beside = blocks.parents[headline.node]
    kept = [p for p in after if p.removed_by is None and 0 <= p.node < len(blocks)]
    if not kept:
        return ""
    if kept[0].note != LEAD_NOTE and (  # kept before the main content as its lead (filters.lead), or set apart
        len(kept) < 2 or blocks.parents[kept[0].node] != beside or blocks.parents[kept[1].node] == beside
    ):
        return ""
    text = " ".join(kept[0].text.split())
    return text if len(text.split()) >= _STANDFIRST_WORDS else ""


def remove_marked_bylines(
    phrases: Sequence[Phrase], blocks: Blocks, counts: dict[str, int], site_note: str | None = None
) -> None:
    """Remove by "content", note "byline", each kept phrase of at most MARKED_BYLINE_MAX characters that the page
    marks as a byline with two signs of three: a block named a byline (class, id or role: "byline", "author",
    "meta"; the phrase's block or one of the _MARK_UP blocks around it that hold no more text), a link to a
    writer's page and a date, in that block (else in the phrase's own block). One sign is not enough: a short
    paragraph can name a day, a writer's name above the headline can be the gold's (thenation.com's), and CNN's
    2000 pages' ``<p class="byline">By Larry Margasak<br>Associated Press Internet Writer</p>`` is in
    crawl-to-the-future's gold. A phrase the site's learned profile removed (``site_note``: the site's usual noise,
    as the byline is once learned) takes the note "byline" too, so that it is still the byline field."""
    n, tags, ends, links = len(blocks), blocks.tags, blocks.ends, blocks.links
    named = _named_blocks(blocks.marks)
    # the blocks with a sign in their markup (named, under a named block, or with links): most phrases are in none
    marked = set(map(_LINK_NODE, links))
    if named:
        marked.update(_under_named(named, blocks.parents, ends))
        marked |= named
    if not marked:
        return
    found = []  # the kept short phrases with a sign of a byline in their markup: few on a page
    for p in compress(phrases, map(marked.__contains__, map(_NODE, phrases))):  # no Python loop over the others
        i = p.node
        if p.removed_by is not None and (site_note is None or p.note != site_note or p.removed_by != "content"):
            continue
        if not 0 <= i < n or len(p.text) > MARKED_BYLINE_MAX or p.note == "the headline" or tags[i] in _HEADINGS:
            continue  # a heading is never a byline (a title in a "meta" wrapper with it)
        found.append((p, _named_block(i, blocks.parents, named) if named else -1))
    if any(up < 0 for _p, up in found):  # one not named: its block must link to a writer's page
        writers = _writer_blocks(links, {p.node for p, up in found if up < 0})
        found = [(p, up) for p, up in found if up >= 0 or p.node in writers]
    if not found:
        return
    # the texts of the blocks the found phrases' regions may span, read in one pass (no Python loop over the others)
    near = {p.node for p, _up in found}
    for _p, up in found:
        if up >= 0:
            near.update(range(up, ends[up]))
    texts: dict[int, list[str]] = {}
    for p in compress(phrases, map(near.__contains__, map(_NODE, phrases))):
        if p.neg is None:
            texts.setdefault(p.node, []).append(p.text)
    regions = []
    for p, up in found:
        if up >= 0 and sum(len(t) for k in range(up, ends[up]) for t in texts.get(k, ())) > MARKED_BYLINE_MAX:
            up = -1  # a box named "author" or "meta" that holds more than a line
        regions.append((p, up, range(up, ends[up]) if up >= 0 else range(p.node, p.node + 1)))
    writers = _writer_blocks(links, {k for _p, _up, region in regions for k in region})
    for p, up, region in regions:
        signs = (up >= 0) + (not writers.isdisjoint(region))
        if signs == 0 or (signs == 1 and not any(TEXT_DATE.search(t) for k in region for t in texts.get(k, ()))):
            continue
        if p.removed_by is not None:  # the site's learned profile removed it: the note says what it is
            p.note = BYLINE_NOTE
            continue
        remove_kept(p, "content", BYLINE_NOTE, counts)


def _named_blocks(marks: list[str]) -> set[int]:
    """The blocks whose class, id or role names a byline (``marks``: each block's)."""
    # the words the pattern needs ("by-line", "byline" and "dateline" hold "line") are looked for in all the marks
    # joined (no word holds the separator, which no mark holds: the parser turns NUL into U+FFFD), each mark that
    # holds one then tested: most marks hold none, and no loop over the marks
    joined = "\0".join(marks)
    if joined.count("\0") >= len(marks):  # a mark with a NUL: each mark tested
        return {i for i, mark in enumerate(marks) if _BYLINE_MARK.search(mark) is not None}
    hits = []
    for word in _MARK_WORDS:
        at = joined.find(word)
        while at >= 0:
            hits.append(at)
            end = joined.find("\0", at)  # the next mark's
            at = joined.find(word, end) if end >= 0 else -1
    candidates = set()
    k = last = 0
    for at in sorted(hits):
        k += joined.count("\0", last, at)  # the mark it is in
        last = at
        candidates.add(k)
    return {k for k in candidates if _BYLINE_MARK.search(marks[k]) is not None}


def _under_named(named: set[int], parents: list[int], ends: list[int]) -> set[int]:
    """The blocks whose parent or grandparent is ``named``: looked for in the named blocks' subtrees only."""
    out = set()
    for u in named:
        for i in range(u + 1, ends[u]):
            up = parents[i]
            if up in named or (up >= 0 and parents[up] in named):
                out.add(i)
    return out


def _writer_blocks(links: list[tuple[int, str, str]], nodes: set[int]) -> set[int]:
    """Those of the blocks ``nodes`` that link to a writer's page (``links``: :attr:`filters.html5.Blocks.links`):
    the other blocks' links are not looked at."""
    mine = compress(links, map(nodes.__contains__, map(_LINK_NODE, links)))
    return {node for node, href, _anchor in mine if WRITER.search(href) is not None}


def _named_block(node: int, parents: list[int], named: set[int]) -> int:
    """``node``, or the block up to _MARK_UP levels around it, that is ``named`` (names a byline); -1 if none."""
    for _ in range(_MARK_UP + 1):
        if node < 0:
            return -1
        if node in named:
            return node
        node = parents[node]
    return -1
