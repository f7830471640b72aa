"""Main-content detection: decide each phrase in its context, then run the thesis's filters inside it.

The thesis's filters judge a phrase alone (its length, the tags above it, whether the site repeats it).
What they let through is where the precision went: comment threads, related-story lists with leads,
sidebars, captions, unlabelled blocks of chrome.  This stage first finds the page's main content, the
block element whose text is most article-like, by a maximum-sum subtree over the block tree:

* a phrase that reads like article text (long enough, few link characters) counts for its length;
* one that reads like chrome (short, links, or under an element whose ``class``/``id``/``role``, or tag,
  names a comment section, related stories, sharing, advertising, navigation...) counts against it;
* each block element scores the sum of its subtree; the best one is the main content.

Then, within the main content, phrases are removed with the reason (the element that names a comment
section, a related-stories list, a caption...; an unnamed list of story teasers: linked headline, short
lead, again and again; a copyright line), and the thesis's length and tag filters run with their
context: short table cells (in a row of cells) and list items, and headlines that are links, stay inside the
main content.
Outside it, every phrase is removed as "outside the main content", but for the page's headline.
The redundant-phrase filter runs last, as in the thesis.

Stages, in the order :func:`decide` runs them, each a function here or in its own module:

1. story cards read as links (:mod:`filters.teasers`);
2. what the phrases say of each block (:func:`_measure`, one pass over them);
3. the noise the blocks' names and tags say (:mod:`filters.marks`, :func:`_named_noise`);
4. the main content (:func:`_main_content`): the best subtree, second-guessed by the page's landmarks, narrowed,
   widened from a lone paragraph, replaced by the site's usual one (:mod:`filters.site_region`);
5. the lists of story teasers (:mod:`filters.teasers`) and the article's lead (:mod:`filters.lead`);
6. the blocks of the main content and the noise among them (:func:`_inside`);
7. each phrase: the main content's reasons (:func:`_content_reasons`, with the site's own lines of
   :mod:`filters.prompts`), then the thesis's filters in context (:func:`_thesis_filters`); lone copies put back,
   headings of removed sections removed; the section kicker above the headline removed (:mod:`filters.kicker`).

The block tree's shape (subtree ends, children) comes with the blocks: the walk records each block's subtree end
(:class:`filters.html5.Blocks`).

Pure Python over the phrases and blocks of :mod:`filters.html5`.
"""

from __future__ import annotations

from collections.abc import Set
from dataclasses import dataclass, field
from functools import cache
from typing import Any, cast

from . import html5
from .article_parts import remove_marked_bylines
from .embeds import keep_references
from .faq import keep_questions
from .html5 import Blocks
from .kicker import remove_section_kicker
from .lead import LEAD_NOTE, is_lead, lead_levels, outer_block
from .marks import noise_reasons
from .orphans import ORPHAN_NOTE, orphan_headings
from .phrases import Phrase, keep_removed, remove_kept
from .profiles import Profile
from .prompts import NOTICE_MAX, notice_note
from .site_region import noise_trie, site_block
from .sst import block_key
from .teasers import TEASER_MIN, TeaserLists, mark_card_links
from .titles import TITLE_SEP

__all__ = ["decide", "ORPHAN_NOTE", "OUTSIDE_NOTE", "SITE_NOISE_NOTE", "SITE_REGION_NOTE"]

_HEADINGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))
#: blocks whose short text is data, not chrome, inside the main content
_CELLS = frozenset(("td", "th", "li", "dd", "dt", "caption"))
_TABLE_CELLS = frozenset(("td", "th"))
#: a phrase reads like article text from this many characters on (with few links)
_TEXT_MIN = 40
#: the main content must score at least this many characters of article-like text, or there is none
_REGION_MIN = 250
#: weights of the maximum-sum subtree (tuned on the tuning split, see docs/benchmarks/filters.md)
TEXT_MAX_LINKS = 0.3  # article-like text has at most this share of link characters
NOISE_WEIGHT = 1.0  # a character under a noise-named element
LINK_WEIGHT = 0.6  # a character of other text, times its link density (at least LINK_FLOOR)
LINK_FLOOR = 0.25
#: a noise-named element holding more than this share of the page's article-like text is not noise
NOISE_MAX_SHARE = 0.3
#: a hidden block (filters.hidden) with more article-like text than this is the article's, folded (an accordion's
#: closed panel, a "read more", a tab): on the tuning split the wcxb gold keeps such text (docs/benchmarks/filters.md)
HIDDEN_TEXT_MAX = 300
#: the named regions that are noise however much of the page's text they hold, unless they hold nearly all of it (a
#: comment thread can be longer than the article; ASP.NET pages put the whole page in one <form>)
WHOLE_PAGE_NOISE = frozenset(("comment section", "dialog", "form"))
#: the main content narrows to a child block holding at least this share of its article-like text
NARROW_SHARE = 0.7
#: the landmark guard's alternative must score at least this share of the choice it replaces: an article whose
#: body the page put in a second ``<header>`` is not given up for a teaser in another section (wcxb 0306)
GUARD_ALT_SHARE = 0.25
#: a main content that is one paragraph widens to its parent when the parent holds this many times its text
PARAGRAPH_CLIMB = 2.0
#: an <aside> inside the main content whose text is article-like (at least ASIDE_TEXT characters of long phrases,
#: ASIDE_SHARE of its text, at most ASIDE_LINKS of it links) is a note of the article, not chrome
ASIDE_TEXT = 300
ASIDE_SHARE = 0.8
ASIDE_LINKS = 0.1
#: the rest of an article that a page builder cut into sibling sections: a block beside the main content or beside
#: one of its SIBLING_LEVELS - 1 nearest ancestors (not beyond an <article>), of the same tag and first class, not
#: named noise, with SIBLING_TEXT characters or more of article-like text, SIBLING_SHARE of its text or more, and
#: few links, is part of the main content
SIBLING_LEVELS = 3
SIBLING_TEXT = 250
SIBLING_SHARE = 0.7
#: a sentence of a paragraph or list item that has links ("Visit the <a>company's website</a> to learn more.") is
#: not removed by the link-density filter inside the main content: it ends as a sentence does, has four words or
#: more, link density below LINKED_SENTENCE_MAX and LINKED_SENTENCE_OWN characters or more outside its links
#: ("<a>E-mail this story</a> to a friend." has fewer)
_SENTENCE_BLOCKS = frozenset(("p", "li"))
LINKED_SENTENCE_MAX = 0.95
LINKED_SENTENCE_OWN = 15
#: a block of links inside the main content is not an unnamed "list of links" when at least this share of its
#: phrases with links are such sentences (a list of hotels, each with its official website and what the author
#: wrote about it)
LINK_LIST_SENTENCES = 0.3
#: a phrase of this many characters kept a second time is a copy (one shown per screen width, a carousel's clone)
REPEAT_MIN = 40
#: landmarks that say "not the main content": a region chosen inside one of them is a low-confidence choice
_NOT_MAIN_LANDMARKS = frozenset(("footer", "header", "aside", "nav"))
#: why the text outside the main content goes
OUTSIDE_NOTE = "outside the main content"

# The site's usual main content (``Profile.main_region``) replaces the page's own choice unless that choice is
# inside it (a narrower choice within the site's region is the page's refinement).  Crawl-to-the-future tuning
# split, site-learned F1, 0.9520 without the site's region and its non-content blocks; the site's region
# replacing the page's choice whenever they differ 0.9511, only when one holds the other 0.9514, only when it
# is wider 0.9517, narrower 0.9516; unless the choice is inside it (kept) 0.9533; the non-content blocks alone
# 0.9539; both 0.9552 (kept; test split 0.9427 -> 0.9437; single page unchanged).
#: the site's region replaces the page's choice only when it holds at least this share of the article-like
#: text of the page's choice (a lone paragraph the site's pages happened to narrow to does not)
SITE_REGION_SHARE = 0.5
SITE_REGION_NOTE = "outside the site's usual main content"
#: why the site's usual non-content blocks inside its main content (``Profile.main_region["noise"]``) go
SITE_NOISE_NOTE = "the site removes it from its main content"


def decide(
    phrases: list[Phrase],
    blocks: Blocks,
    profile: Profile,
    title: str = "",
    filtering_phrases: Set[str] | None = None,
) -> dict[str, int]:
    """Set ``removed_by`` / ``note`` on each phrase; return the counts per stage (the stages: the module's
    docstring)."""
    n = len(blocks)
    if "a" in blocks.tags:
        mark_card_links(phrases, blocks)
    anchors = _anchors(blocks)
    m = _measure(phrases, blocks, anchors)
    own = noise_reasons(blocks.tags, blocks.marks) if profile.main_content else [None] * n
    subtree = m.subtree
    for i, reason in blocks.hidden.items():  # hidden from the page's readers (filters.hidden): whatever it is named,
        if subtree[i] <= HIDDEN_TEXT_MAX:  # unless it holds article text: a closed panel, "read more" (HIDDEN_TEXT_MAX)
            own[i] = reason
    noise, score = _named_noise(own, m, blocks.parents)
    main, sums = _main_content(profile, blocks, m, noise, score)
    blocks.main = best = main.best
    if best >= 0:
        lead_outer = outer_block(blocks, best, main.lead_outer, main.from_site)
        # a list of story teasers ("More in ...": linked headline, short lead, again and again) holding less
        # than half of the main content's article-like text is neither the lead nor part of the article
        lists = TeaserLists(phrases, m.article, blocks, lead_outer if lead_outer >= 0 else best, noise, m.subtree, best)
        lead = lead_levels(blocks.parents, best, main.lead_from, lead_outer, lists)
        inside = _inside(main, blocks, m, noise, own, sums, lists)
    else:  # no main content: the whole page is judged as one
        lead, inside = [0] * n, [True] * n
    where = _Where(inside, noise, lead, SITE_REGION_NOTE if main.from_site else OUTSIDE_NOTE)
    headline = title.casefold()
    _content_reasons(phrases, m.article, blocks.tags, anchors, where, profile.main_content, headline)
    cells = _RowCells(blocks, m.chars)
    counts, long_kept = _thesis_filters(phrases, blocks, cells, anchors, profile, filtering_phrases)
    for ph in _lone_copies(long_kept, headline, blocks.tags):
        keep_removed(ph, counts)
    if profile.main_content:
        keep_questions(phrases, blocks, where.inside, counts)
        for stage, change in keep_references(phrases, blocks, where.inside, where.noise).items():
            counts[stage] += change
    for ph in orphan_headings(phrases, blocks) if profile.main_content else ():
        remove_kept(ph, "content", ORPHAN_NOTE, counts)  # a title the <p> filter rescued is no longer rescued
    if profile.main_content:
        remove_section_kicker(phrases, blocks, counts)
        remove_marked_bylines(phrases, blocks, counts, SITE_NOISE_NOTE)
    return counts


@dataclass(slots=True)
class _Measures:
    """What the phrases say of each block (:func:`_measure`, one pass over them), and of each block's subtree."""

    #: per phrase: whether it reads like article text (_TEXT_MIN characters or more, TEXT_MAX_LINKS links or less)
    article: list[bool]
    #: per block, of its own phrases: article-like characters, their score (for) and the other characters' (against)
    text_chars: list[int]
    text_score: list[float]
    other_score: list[float]
    #: all and link characters: the block's own phrases', its subtree's once the best subtree is found
    chars: list[float]
    link_chars: list[float]
    #: the block's own phrases with links, and those of them that read as sentences (:func:`_linked_sentence`)
    linked: list[int]
    linked_sentences: list[int]
    #: article-like characters of each block's subtree
    subtree: list[int]


def _measure(phrases: list[Phrase], blocks: Blocks, anchors: dict[int, list[str]]) -> _Measures:
    """What the phrases say of each block (phrases removed by a negative tag say nothing)."""
    loops = html5.COMPILED_LOOPS
    if loops is not None:  # these loops compiled (filters/_compiled_loops.pyx, the same sums in the same order)
        return _Measures(
            *loops.measure(
                phrases, blocks.parents, blocks.tags, anchors, _linked_sentence, _SENTENCE_BLOCKS,
                TEXT_MAX_LINKS, _TEXT_MIN, LINK_FLOOR, LINK_WEIGHT,
            )
        )  # fmt: skip
    n = len(blocks)
    tags = blocks.tags
    article = [False] * len(phrases)
    text_chars = [0] * n
    text_score = [0.0] * n
    other_score = [0.0] * n
    chars = [0.0] * n
    link_chars = [0.0] * n
    linked = [0] * n
    linked_sentences = [0] * n
    for k, ph in enumerate(phrases):
        i = ph.node
        if ph.neg is not None or i < 0:
            continue
        length = len(ph.text)
        ld = ph.link_density or 0.0
        chars[i] += length
        if ld:
            link_chars[i] += length * ld
            linked[i] += 1
            if ph.text[-1] in ".!?" and tags[i] in _SENTENCE_BLOCKS and _linked_sentence(ph.text, ld, anchors.get(i)):
                linked_sentences[i] += 1
        if ld <= TEXT_MAX_LINKS and length >= _TEXT_MIN:
            article[k] = True
            text_chars[i] += length
            text_score[i] += length * (1.0 - ld)
        else:
            other_score[i] += length * (ld if ld > LINK_FLOOR else LINK_FLOOR) * LINK_WEIGHT
    # article-like characters in each block's subtree, to judge a noise-named element by its size: a
    # wrapper named "has-sidebar" or an unclosed <nav> that holds the article is not noise
    subtree = text_chars[:]
    for i, p in zip(range(n - 1, -1, -1), reversed(blocks.parents), strict=True):  # children come after their parent
        if p >= 0:
            subtree[p] += subtree[i]
    return _Measures(article, text_chars, text_score, other_score, chars, link_chars, linked, linked_sentences, subtree)


def _named_noise(own: list[str | None], m: _Measures, parents: list[int]) -> tuple[list[str | None], list[float]]:
    """The innermost noise reason above each block (itself included; ``own``: what its marks or tag name it), for
    the named elements that are not too big; and each block's own score: article-like text for, chrome against (a
    noise block's characters all against).  An element that holds much of the page's text is not chrome, whatever
    it is called (a comment thread can be longer than the article, but it is named as one)."""
    n = len(parents)
    subtree, chars = m.subtree, m.chars
    total = subtree[0] if n else 0
    outside = total - _dialog_text(own, subtree, parents, total) if "dialog" in own else total
    loops = html5.COMPILED_LOOPS
    if loops is not None:  # this loop compiled (filters/_compiled_loops.pyx, the same tests and floats)
        return cast(
            tuple[list[str | None], list[float]],
            loops.named_noise(
                own, subtree, chars, m.text_score, m.other_score, parents, WHOLE_PAGE_NOISE, _REGION_MIN, 0.8,
                NOISE_MAX_SHARE, total, outside, NOISE_WEIGHT,
            ),
        )  # fmt: skip
    noise: list[str | None] = [None] * n
    score = [t - o for t, o in zip(m.text_score, m.other_score, strict=True)]
    for i, reason, p in zip(range(n), own, parents, strict=True):
        if (
            reason is not None
            and subtree[i] > _REGION_MIN
            and (subtree[i] > 0.8 * total if reason in WHOLE_PAGE_NOISE else subtree[i] > NOISE_MAX_SHARE * outside)
        ):
            reason = None
        if reason is None and p >= 0:
            reason = noise[p]
        if reason is not None:
            noise[i] = reason
            score[i] = -chars[i] * NOISE_WEIGHT
    return noise, score


def _dialog_text(own: list[str | None], subtree: list[int], parents: list[int], total: int) -> int:
    """The article-like characters inside dialogs: not the page's text (a republishing dialog holds a copy of the
    article) when the share that keeps a big named element from being noise is taken.  A "dialog" that wraps the
    whole page is not one (Drupal's "dialog-off-canvas-main-canvas")."""
    in_dialog = [False] * len(parents)
    text = 0
    for i, p in enumerate(parents):
        if p >= 0 and in_dialog[p]:
            in_dialog[i] = True
        elif own[i] == "dialog" and not subtree[i] > 0.8 * total:
            in_dialog[i] = True
            text += subtree[i]
    return text


@dataclass(slots=True)
class _MainContent:
    """The main content's block (-1: none, the whole page is judged as one) and how it was found."""

    best: int
    #: the block the main content was narrowed from last, and the first (an outer wrapper when it narrowed more than
    #: once): the article-like text before it under them is the lead (filters.lead)
    lead_from: int = -1
    lead_outer: int = -1
    #: the site's usual main content replaced the page's choice
    from_site: bool = False
    #: block -> the node of the site's non-content paths it is on (filters.site_region.noise_trie)
    site_noise: dict[int, dict[str, Any]] = field(default_factory=dict)


def _main_content(
    profile: Profile, blocks: Blocks, m: _Measures, noise: list[str | None], score: list[float]
) -> tuple[_MainContent, list[float]]:
    """The main content: the best subtree, second-guessed by the page's landmarks, narrowed to a child that holds
    nearly all of its article-like text, widened from a lone paragraph, replaced by the site's usual one; and each
    block's subtree score (``score``, summed in place)."""
    tags = blocks.tags
    best, sums = _best_subtree(score, m, blocks.parents, profile.main_content)
    if best >= 0 and profile.main_content and "h1" in tags:
        best = _landmark_guard(best, sums, blocks, m.chars)
    main = _MainContent(best)
    if best >= 0 and NARROW_SHARE < 1.0:
        _narrow(main, blocks, m.subtree)
    if main.best > 0 and tags[main.best] == "p":
        main.best = _climb_paragraph(main.best, blocks, noise, m.text_chars)
    if profile.main_region and main.best >= 0:
        _site_region(main, profile, blocks, m.subtree)
    return main, sums


def _best_subtree(score: list[float], m: _Measures, parents: list[int], main_content: bool) -> tuple[int, list[float]]:
    """The block whose subtree scores most, above _REGION_MIN (-1: none; always without main-content detection), and
    each block's subtree score (``score``, summed in place); ``m.chars`` and ``m.link_chars`` become the subtrees'."""
    best, best_score = -1, float(_REGION_MIN) if main_content else float("inf")
    sums, chars, link_chars = score, m.chars, m.link_chars
    loops = html5.COMPILED_LOOPS
    if loops is not None:  # this loop compiled (filters/_compiled_loops.pyx, the same code): a third of the time
        return loops.best_subtree(sums, chars, link_chars, parents, best_score), sums
    for i, p in zip(range(len(parents) - 1, -1, -1), reversed(parents), strict=True):
        s = sums[i]
        if s > best_score:
            best, best_score = i, s
        if p >= 0:
            sums[p] += s
            chars[p] += chars[i]
            link_chars[p] += link_chars[i]
    return best, sums


def _narrow(main: _MainContent, blocks: Blocks, subtree: list[int]) -> None:
    """Narrow the main content to the child that holds nearly all of its article-like text (NARROW_SHARE), again and
    again: unlabelled article-like blocks around the article (a masthead's motto, a footer's paragraph) add to the
    best sum.  ``<article>`` says where the article is (its header, dek included): never narrowed from."""
    best, tags = main.best, blocks.tags
    while tags[best] != "article":
        inner = max(blocks.children(best), key=subtree.__getitem__, default=-1)
        if inner < 0 or subtree[inner] < NARROW_SHARE * subtree[best]:
            break
        if main.lead_outer < 0:
            main.lead_outer = best
        main.lead_from, best = best, inner
    main.best = best


def _climb_paragraph(best: int, blocks: Blocks, noise: list[str | None], text_chars: list[int]) -> int:
    """One paragraph is not an article: while the main content ``best`` is a ``<p>`` whose parent holds
    PARAGRAPH_CLIMB times its article-like text outside named regions, its parent (under a container that also
    holds a long comment thread, which weighs against the container); named regions stay removed."""
    parents, tags = blocks.parents, blocks.tags
    clean = [0] * len(parents)  # article-like characters of each block's subtree outside named noise
    for i in range(len(parents) - 1, -1, -1):
        if noise[i] is None:
            clean[i] += text_chars[i]
            if parents[i] >= 0:
                clean[parents[i]] += clean[i]
    while best > 0 and tags[best] == "p" and clean[parents[best]] >= PARAGRAPH_CLIMB * clean[best]:
        best = parents[best]
    return best


def _site_region(main: _MainContent, profile: Profile, blocks: Blocks, subtree: list[int]) -> None:
    """The site's usual main content (``profile.main_region``) replaces the page's choice unless that choice is
    inside it, if it holds what a main content must and SITE_REGION_SHARE of the choice's article-like text; its
    usual non-content blocks go when it is the main content."""
    region = site_block(profile, blocks, subtree)
    best, ends = main.best, blocks.ends
    if (
        region >= 0
        and region != best
        and subtree[region] >= _REGION_MIN
        and not region < best < ends[region]  # the page's choice inside the site's region: a refinement
        and subtree[region] >= SITE_REGION_SHARE * subtree[best]
    ):
        if main.lead_from >= 0 and not (main.lead_from < region < ends[main.lead_from]):
            main.lead_from = -1
        if main.lead_outer >= 0 and not (main.lead_outer < region < ends[main.lead_outer]):
            main.lead_outer = -1
        main.best, main.from_site = region, True
    if main.best == region:
        trie = noise_trie(profile)
        if trie:
            main.site_noise[region] = trie


def _inside(
    main: _MainContent,
    blocks: Blocks,
    m: _Measures,
    noise: list[str | None],
    own: list[str | None],
    sums: list[float],
    lists: TeaserLists,
) -> list[bool]:
    """Which blocks are in the main content, or in the rest of the article beside it (:func:`_sibling_parts`);
    name the noise among them in ``noise``: an ``<aside>`` of the article's own text is the article's; an unnamed
    list of links or of story teasers, and the site's usual non-content blocks, are not."""
    parents, tags, marks, ends = blocks.parents, blocks.tags, blocks.marks, blocks.ends
    subtree, chars, link_chars = m.subtree, m.chars, m.link_chars
    teasers = lists.teasers
    site_noise = main.site_noise
    inside = [False] * len(parents)
    kept_aside = [False] * len(parents)  # <aside> blocks inside the main content that hold article text, and theirs
    roots = [main.best]
    if main.best > 0 and not main.from_site:
        roots += _sibling_parts(main.best, blocks, subtree, chars, link_chars, noise)
    for root in roots:
        inside[root : ends[root]] = [True] * (ends[root] - root)
        for i in range(root + 1, ends[root]):
            p = parents[i]
            if noise[i] is not None:  # named noise: only an <aside> may turn out to be the article's
                if noise[i] == "aside" and (
                    (own[i] == "aside" and _article_aside(i, subtree, chars, link_chars))
                    or (own[i] is None and kept_aside[p])
                ):
                    # an <aside> of the article's own paragraphs (a note, a box on a side question) inside it: the
                    # article's text; its blocks named noise by their own class stay noise
                    noise[i] = noise[p]
                    kept_aside[i] = True
                if noise[i] is not None:
                    continue
            # a list of links inside the main content ("Related News Stories", a tag cloud) that
            # weighs against it: not part of the article
            if (
                sums[i] < 0
                and chars[i] >= 100
                and link_chars[i] > 0.5 * chars[i]
                and not _sentences_share(i, ends, m.linked, m.linked_sentences)
            ):
                noise[i] = "list of links"
            elif teasers[i] >= TEASER_MIN and lists.holds_list(i):
                noise[i] = "list of story teasers"
            elif site_noise and p in site_noise and noise[p] is None:
                on_path = site_noise[p].get(block_key(tags[i], marks[i]))
                if on_path is not None:
                    if "" in on_path:
                        noise[i] = SITE_NOISE_NOTE
                    else:
                        site_noise[i] = on_path
            else:
                noise[i] = noise[p]
    return inside


@dataclass(slots=True)
class _Where:
    """Where each block stands once the main content is found: what the judge of each phrase reads."""

    #: in the main content (every block when there is none)
    inside: list[bool]
    #: why the block's text is not the article's, or None
    noise: list[str | None]
    #: whether it holds the article's lead (filters.lead.lead_levels)
    lead: list[int]
    #: why the text outside the main content goes
    outside_note: str


def _content_reasons(
    phrases: list[Phrase],
    article: list[bool],
    tags: list[str],
    anchors: dict[int, list[str]],
    where: _Where,
    main_content: bool,
    headline: str,
) -> None:
    """Remove the phrases that main-content detection finds are not the article's, with the reason: outside the
    main content (but for the headline, ``headline``: the page's title casefolded, and the article's lead); under a
    block named noise; the site's own lines (:mod:`filters.prompts`).  The negative tags' phrases go first, by
    "tag"; every other decision taken before is cleared."""
    inside, noise, lead, outside_note = where.inside, where.noise, where.lead, where.outside_note
    # the site's name in the title: read from the headings only once a heading outside shows a part of the title
    site_name = cache(lambda: _site_name_segments(phrases, tags, headline))
    for ph, is_article in zip(phrases, article, strict=True):
        i = ph.node
        ph.removed_by = ph.rescued_by = ph.note = None
        text = ph.text
        if ph.neg is not None:
            ph.removed_by = "tag"
        elif i >= 0 and not inside[i]:
            if (
                tags[i] in _HEADINGS
                and headline
                and (folded := text.casefold()) in headline
                and folded not in site_name()
            ):
                ph.note = "the headline"
            elif (
                lead[i] and is_article and noise[i] is None and is_lead(text, lead[i], ph.link_density, anchors.get(i))
            ):
                ph.note = LEAD_NOTE
                note = notice_note(text, main_content) if len(text) <= NOTICE_MAX else None
                if note is not None:
                    ph.removed_by, ph.note = "content", note
            else:
                ph.removed_by, ph.note = "content", noise[i] or outside_note
        elif i >= 0 and noise[i] is not None:
            ph.removed_by, ph.note = "content", noise[i]
        elif len(text) <= NOTICE_MAX:
            note = notice_note(text, main_content)  # the content stage's, as its notes
            if note is not None:
                ph.removed_by, ph.note = "content", note


def _site_name_segments(phrases: list[Phrase], tags: list[str], headline: str) -> frozenset[str]:
    """The title's first and last segments ("measles cases rise | daily health": both) that the page's headline
    heading, the longest heading found in the title (``headline``: the title, casefolded), does not show: the
    site's name, not the headline, when another heading outside the main content ("<h3>Daily Health</h3>" over a
    footer's links, "<h1>Daily Health</h1>" in the masthead) shows only it."""
    segments = [s.strip() for s in TITLE_SEP.split(headline)] if headline else []
    if len(segments) < 2:
        return frozenset()
    found = [t for p in phrases if p.node >= 0 and tags[p.node] in _HEADINGS and (t := p.text.casefold()) in headline]
    shown = max(found, key=len, default="")
    return frozenset(s for s in (segments[0], segments[-1]) if s and s not in shown)


def _thesis_filters(
    phrases: list[Phrase],
    blocks: Blocks,
    cells: _RowCells,
    anchors: dict[int, list[str]],
    profile: Profile,
    filtering_phrases: Set[str] | None,
) -> tuple[dict[str, int], list[Phrase]]:
    """The thesis's length, tag and redundant-phrase filters on the phrases still kept, in their context: a short
    cell of a row of cells (``cells``), a short list item, a heading, a linked sentence of the main content stay;
    then a long phrase kept a second time goes as a copy.  Returns the counts per stage and the long phrases that
    reached the repeat check, copies included."""
    tags = blocks.tags
    main_content = profile.main_content
    max_ld = profile.max_link_density if profile.max_link_density is not None else 0.5
    min_length = profile.min_length
    redundant = frozenset(profile.filtering_phrases) if filtering_phrases is None else filtering_phrases
    counts = {"total": len(phrases), "length": 0, "tag": 0, "redundancy": 0, "content": 0, "core": 0, "rescued": 0}
    kept: set[str] = set()
    long_kept: list[Phrase] = []
    core = rescued = 0  # counted in locals: a dict's item for each phrase costs more
    for ph in phrases:
        text = ph.text
        removed = ph.removed_by  # a local, set with the phrase's: read again and again below
        if removed is None:
            i = ph.node
            block_tag = tags[i] if i >= 0 else ""
            ld = ph.link_density or 0.0
            if (
                len(text) < min_length
                and (block_tag not in _CELLS or (block_tag in _TABLE_CELLS and not cells.is_data(i)))
                and block_tag not in _HEADINGS
                and block_tag != "summary"  # the heading of a <details> section
            ):
                if ph.pos and "length" in profile.rescue_from:
                    ph.rescued_by = ph.pos
                else:
                    ph.removed_by = removed = "length"
            if (
                removed is None
                and ld > max_ld
                and block_tag not in _HEADINGS
                and not (main_content and block_tag in _SENTENCE_BLOCKS and _linked_sentence(text, ld, anchors.get(i)))
            ):
                ph.removed_by = removed = "tag"
            if removed is None and redundant and text in redundant:
                ph.removed_by = removed = "redundancy"
            # a long phrase kept twice: a copy of the text for another screen width, a carousel's clone, a pull quote
            if removed is None and len(text) >= REPEAT_MIN:
                if text in kept:
                    ph.removed_by = removed = "content"
                    ph.note = "repeated on the page"
                else:
                    kept.add(text)
                long_kept.append(ph)
            if removed is None:
                core += 1
                if ph.rescued_by:
                    rescued += 1
                continue
        ph.rescued_by = None  # rescued from the length filter, then removed by another: not rescued
        counts[removed] += 1
    counts["core"], counts["rescued"] = core, rescued
    return counts, long_kept


class _RowCells:
    """The cells with text of each table row, counted when a short cell asks: a short cell is data in a row of
    cells, chrome alone in its row (an old layout table's "Page 1 of 2", a caption cell under a photo)."""

    __slots__ = ("_blocks", "_chars", "_count")

    def __init__(self, blocks: Blocks, chars: list[float]) -> None:
        self._blocks, self._chars = blocks, chars
        self._count: dict[int, int] = {}

    def is_data(self, cell: int) -> bool:
        blocks = self._blocks
        row = blocks.parents[cell]
        count = self._count.get(row)
        if count is None:
            tags, chars = blocks.tags, self._chars
            count = self._count[row] = sum(1 for j in blocks.children(row) if chars[j] and tags[j] in _TABLE_CELLS)
        return count >= 2


def _anchors(blocks: Blocks) -> dict[int, list[str]]:
    """The anchor texts of the links inside each block's phrases."""
    out: dict[int, list[str]] = {}
    for block, _href, anchor in blocks.links:
        if anchor:
            out.setdefault(block, []).append(anchor)
    return out


def _linked_sentence(text: str, ld: float, anchors: list[str] | None) -> bool:
    """Whether a phrase with links (link density ``ld``; ``anchors``: its block's link texts) reads as a sentence
    of the article (LINKED_SENTENCE_MAX).  One that opens with a link must go on with that sentence ("<a>Leeds
    clinic</a>, open on Saturdays."): a linked headline and then a dek of its own ("<a>Mumps cases double</a>
    Officials urge caution.") is a teaser."""
    if not (
        text[-1] in ".!?"
        and ld < LINKED_SENTENCE_MAX
        and text.count(" ") >= 3
        and len(text) * (1.0 - ld) >= LINKED_SENTENCE_OWN
    ):
        return False
    for anchor in anchors or ():
        if text.startswith(anchor):
            rest = text[len(anchor) :].lstrip()
            return bool(rest) and (rest[0] in ",;:–—-)" or rest[0].islower())
    return True


def _sibling_parts(
    best: int,
    blocks: Blocks,
    subtree: list[int],
    chars: list[float],
    link_chars: list[float],
    noise: list[str | None],
) -> list[int]:
    """The blocks beside the main content ``best`` (or beside one of its nearest ancestors) of the same kind (tag
    and first class) that hold article text: the rest of an article cut into sibling
    sections (see SIBLING_LEVELS)."""
    tags, parents, marks = blocks.tags, blocks.parents, blocks.marks
    out: list[int] = []
    a = best
    for _ in range(SIBLING_LEVELS):
        p = parents[a]
        if p < 0 or tags[a] == "article":  # <article> says where the article ends
            break
        names = marks[a].split()  # a class or id of white space only names nothing
        if names:
            kind = (tags[a], names[0])
            for s in blocks.children(p):
                if (
                    s != a
                    and noise[s] is None
                    and (tags[s], (marks[s].split() or [""])[0]) == kind
                    and subtree[s] >= SIBLING_TEXT
                    and subtree[s] >= SIBLING_SHARE * chars[s]
                    and link_chars[s] <= TEXT_MAX_LINKS * chars[s]
                ):
                    out.append(s)
        a = p
    return sorted(out)


def _sentences_share(i: int, ends: list[int], linked: list[int], linked_sentences: list[int]) -> bool:
    """Whether LINK_LIST_SENTENCES or more of the phrases with links in block ``i``'s subtree (which ends before
    ``ends[i]``) read as sentences."""
    end = ends[i]
    return sum(linked_sentences[i:end]) >= LINK_LIST_SENTENCES * sum(linked[i:end])


def _article_aside(i: int, subtree: list[int], chars: list[float], link_chars: list[float]) -> bool:
    """Whether the ``<aside>`` block ``i`` holds article text: ``ASIDE_TEXT`` characters of article-like phrases or
    more, nearly all of its text, with few links (``subtree``: article-like characters of each block's subtree;
    ``chars``, ``link_chars``: all and link characters of it)."""
    return subtree[i] >= ASIDE_TEXT and subtree[i] >= ASIDE_SHARE * chars[i] and link_chars[i] <= ASIDE_LINKS * chars[i]


def _landmark_guard(best: int, sums: list[float], blocks: Blocks, chars: list[float]) -> int:
    """The main content's block, ``best`` (the highest-scoring subtree) second-guessed by the page's own landmarks.

    A low-confidence choice: ``best`` lies outside the page's ``<main>``, or inside a ``<footer>``, ``<header>``,
    ``<aside>`` or ``<nav>``, and holds no ``<h1>``,
    while the page's headline (an ``<h1>`` with text) is in the region the page marks as its content (its
    ``<main>``; else everything outside that landmark).  Then the highest-scoring block of that region is the
    main content, if it scores what any main content must (``_REGION_MIN``) and at least ``GUARD_ALT_SHARE`` of
    ``best``'s score.  A long legal disclaimer in the footer outscored a short intro and list under ``<main>`` (wcxb
    0362); the scores alone cannot tell.
    ``sums``: each block's subtree score; ``chars``: each block's subtree characters.
    """
    parents, ends, tags = blocks.parents, blocks.ends, blocks.tags
    n = len(parents)
    end = ends[best]
    headlines = [i for i in html5.blocks_of(tags, "h1") if chars[i] > 0]
    if any(best <= h < end for h in headlines):
        return best
    region = None  # (first, last + 1, excluded run) of the blocks the page says hold its content
    main = next((i for i in html5.blocks_of(tags, "main") if chars[i] > 0), -1)
    if main >= 0:
        main_end = ends[main]
        if not (main <= best < main_end or best <= main < end):
            region = main, main_end, (0, 0)
    if region is None:
        landmark, a = -1, best
        while a >= 0:
            if tags[a] in _NOT_MAIN_LANDMARKS:
                landmark = a
            a = parents[a]
        if landmark < 0:
            return best
        # everything but the landmark and its ancestors (whose sums include the landmark's)
        region = 0, n, (landmark, ends[landmark])
    first, stop, (skip_from, skip_to) = region
    above = set()
    a = skip_from if skip_to else -1
    while a >= 0:
        above.add(a)
        a = parents[a]
    if not any(first <= h < stop and not skip_from <= h < skip_to for h in headlines):
        return best
    alt = max(
        (i for i in range(first, stop) if not skip_from <= i < skip_to and i not in above),
        key=sums.__getitem__,
        default=-1,
    )
    if alt < 0 or sums[alt] <= _REGION_MIN or sums[alt] < GUARD_ALT_SHARE * sums[best]:
        return best
    return alt


def _lone_copies(long_kept: list[Phrase], headline: str, tags: list[str]) -> list[Phrase]:
    """The copies among ``long_kept`` (long phrases in document order) whose long neighbours are not copies,
    but for headings and the headline (``headline``: the page's title, casefolded) shown a second time (a
    table of contents, a sticky header).

    A copy for another screen width or a carousel's clone repeats a run of phrases; a sentence the article
    says twice (a key figure in the summary and in the text, a disclaimer under each photo) stands alone.
    """
    copy = [ph.removed_by is not None for ph in long_kept]
    last = len(copy) - 1
    return [
        ph
        for k, ph in enumerate(long_kept)
        if copy[k]
        and not (k > 0 and copy[k - 1])
        and not (k < last and copy[k + 1])
        and tags[ph.node] not in _HEADINGS
        and not (headline and ph.text.casefold() in headline)
    ]
