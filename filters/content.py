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

Pure Python over the phrases and blocks of :mod:`filters.html5`.
"""

from __future__ import annotations

import re
from collections.abc import Set
from itertools import compress
from typing import Any

from .html5 import Blocks
from .phrases import Phrase
from .profiles import Profile
from .sst import block_key, slots

__all__ = ["decide", "SlotPaths", "relative_key"]

#: class/id/role words that name a region of the page that is not the article, with the reason shown
_NOISE_MARKS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (reason, re.compile(pattern, re.MULTILINE))
    for reason, pattern in (
        ("comment section", r"^(comments?|commentlist|comment-list|disqus(_thread)?|replies|respond|discussion)$"),
        (
            "related-stories list",
            r"^(related|more-stories|morestories|recommended|recommendations|also-like|read-more|readmore|trending"
            r"|popular|most-read|mostread|outbrain|taboola|promo|teaser|more-from|related-posts|related-articles)$",
        ),
        ("share buttons", r"^(share|sharing|social|sharebar|share-buttons|social-share|follow-us|print|email-this)$"),
        (
            "author's bio",
            r"^(author|authors|author-bio|about-author|author-box|authorbox|author-info|author-profile|bio|author-details?|author-block|authorsblock|author-card|author-about)$",
        ),
        ("references", r"^(references|citations|sources|bibliography)$"),
        ("disclaimer", r"^(disclaimer|disclaimers)$"),
        ("dialog", r"^(modal|dialog|popup|republish|republication)$"),
        ("caption", r"^(caption|wp-caption|credit|credits|image-credit|photo-credit)$"),
        ("advertising", r"^(ad|ads|advert|advertisement|advertising|sponsor|sponsored|banner-ad|dfp|google_ad)$"),
        (
            "page chrome",
            r"^(sidebar|side-bar|widget-area|footer|masthead|menu|nav|navbar|navigation|breadcrumb|breadcrumbs"
            r"|toolbar|subscribe|newsletter|signup|sign-up|login|cookie|cookies|skip-link|wm-ipp|tags|tag-list"
            r"|rail|complementary|contentinfo|banner|site-header|site-footer|copyright)$",
        ),
    )
)
#: tags that hold chrome in HTML5 pages; judged by size, since an unclosed one can hold the article
_CHROME_TAGS = {
    "nav": "navigation",
    "aside": "aside",
    "footer": "page footer",
    "form": "form",
    "select": "form",
    "figcaption": "caption",
    "button": "button",
}
#: the chrome tags that the walk leaves to this stage instead of the tag filter
SOFT_TAGS = frozenset(_CHROME_TAGS)
#: their class names describe the page ("single-post elementor_header_footer"), not a region
_NEVER_NOISE = frozenset(("html", "body", "main", "article"))
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
#: an <a> around blocks with more text than this is not a link but an unclosed tag
BLOCK_LINK_MAX = 400
#: a noise-named element holding more than this share of the page's article-like text is not noise
NOISE_MAX_SHARE = 0.3
#: the main content narrows to a child block holding at least this share of its article-like text
NARROW_SHARE = 0.7
#: the landmark guard's alternative must score at least this share of the choice it replaces: an article whose
#: body the page put in a second ``<header>`` is not given up for a teaser in another section (wcxb 0306)
GUARD_ALT_SHARE = 0.25
#: a main content that is one paragraph widens to its parent when the parent holds this many times its text
PARAGRAPH_CLIMB = 2.0
#: a list of story teasers: a block holding at least TEASER_MIN teasers (a linked headline, then its lead),
#: at most TEASER_TEXT characters of article-like text per teaser, a teaser for every 1 / TEASER_PER_TEXT
#: article-like phrases (an article's paragraphs outnumber its linked subheadings), and less than
#: TEASER_SHARE of the main content's article-like text
TEASER_MIN = 3
TEASER_TEXT = 500
TEASER_PER_TEXT = 0.5
TEASER_SHARE = 0.5
#: the lead is the article-like text before the main content under the block it was narrowed from; under a block
#: narrowed from before that one (an outer wrapper), or under the main content's parent when it was not narrowed,
#: only a sentence of this many characters or more, ending as a sentence does, is (a dateline, a section's name or
#: a short motto there is not)
LEAD_OUTER_MIN = 100
_SENTENCE_END = '.!?"”’)'
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
_HEADLINE_LINKS = 0.8  # a linked headline: a phrase nearly all link...
_HEADLINE_MIN = 15  # ... of this many characters or more
_TEASER_BETWEEN = 2  # short phrases (byline, date) allowed between a teaser's headline and its lead

#: class tokens that hide an element on large screens ("elementor-hidden-desktop", "md:hidden"): a copy of
#: the page's text for small screens (a plain "hidden" is often an accordion's closed panel: not this)
_HIDDEN_ON_DESKTOP = re.compile(
    r"(?:^|\s)(?:\S*hidden-(?:desktop|lg|xl)|hide-(?:on-)?desktop|(?:md|lg|xl):hidden)(?=\s|$)", re.ASCII
)

#: a phrase of this many characters kept a second time is a copy (one shown per screen width, a carousel's clone)
REPEAT_MIN = 40
#: a copyright line under the article ("Copyright 2005 The Associated Press. All rights reserved. This material
#: may not be published..."): not its text; "all rights reserved" further in needs a year, a © or the word
#: (a clause of a legal text the page is about says it without them)
_COPYRIGHT = re.compile(
    r"^\W*(?:copyright\b|©)|^(?=.*(?:\b(?:19|20)\d\d\b|©|copyright)).*all rights reserved",
    re.IGNORECASE | re.DOTALL,
)
_NOTICE_MAX = 300
#: the site speaking to the reader about itself inside the article, not the article's text (wcxb tuning split):
#: an affiliate disclosure ("Purchases made through our links may earn us a commission", "This post may contain
#: affiliate links") and a newsletter prompt ("Sign up ... delivered straight to your inbox", "Join our mailing
#: list"), in a phrase of at most _NOTICE_MAX characters; a photo credit ("Photo by: Jim Varga", "Image: Move.org",
#: "(Photo credit: AP)") and a byline or date line ("By Haley Hoekstra • March 12, 2025", "Last updated: April 21,
#: 2025", "6 min read"), in a phrase of at most _LINE_MAX characters: where it is the phrase's point.  Each is looked
#: for only when one of its cue strings (lower case) is in the phrase (reason, cues, pattern).  The patterns need
#: the site's own words ("we", "our", an imperative, a name after "by"), so that a sentence about commissions,
#: newsletters, pictures or a year ("Published in 1998, the novel ...") is article text.
_NAME = r"['‘\"“]?[A-Z0-9][\w.'’\"”&/-]*(?:\s+(?:['‘\"“]?[A-Z0-9][\w.'’\"”&/-]*|for|via|and|of|the|/|&|-|—|,))*"
_DATE = (
    r"(?:[A-Z][a-z]{2,8}\.? \d{1,2}(?:st|nd|rd|th)?,? (?:19|20)\d\d|\d{1,2}(?:st|nd|rd|th)? [A-Z][a-z]{2,8}\.?,? "
    r"(?:19|20)\d\d|\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4})"
)
_PROMPTS: tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...] = (
    (
        "affiliate disclosure",
        ("affiliate", "commission", "associate", "qualifying"),
        re.compile(
            r"(?i:\b(?:this|our) (?:post|article|page|site|content|story)s? (?:may |might )?(?:contains?|includes?|"
            r"uses?) affiliate links?"
            r"|\b(?:we|I) (?:may |might |could |will )?(?:earn|receive|get|make) (?:an? |small |affiliate )*"
            r"commissions?\b"
            r"|\b(?:may|might|could) earn (?:us|me) (?:an? )?(?:small )?(?:affiliate )?commission"
            r"|\baffiliate links?\b.{0,60}\b(?:we|I) (?:may |might |could )?(?:earn|receive|get|make)\b"
            r"|\bas an amazon associate\b|\b(?:we|I) earn from qualifying purchases"
            r"|\b(?:we|I) (?:also )?(?:may |might )?use affiliate links)",
            re.DOTALL,
        ),
    ),
    (
        "newsletter prompt",
        ("newsletter", "inbox", "mailing list", "email list"),
        re.compile(
            r"(?i:^\W*(?:sign up|subscribe|register)\b.{0,80}\b(?:newsletters?|inbox|e-?mails?)\b"
            r"|\b(?:sign up|subscribe) (?:now |today |here )?(?:to|for) (?:our|my) (?:\w+ ){0,3}(?:newsletters?|"
            r"e-?mails?|mailing list)\b"
            r"|\bdelivered (?:straight |directly |right )?to your inbox\b"
            r"|\bjoin (?:our|my) (?:\w+ ){0,2}(?:mailing list|newsletter|e-?mail list))",
            re.DOTALL,
        ),
    ),
)
_LINE_MAX = 150
_LINES: tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...] = (
    (
        "photo credit",
        ("photo", "image", "picture", "illustration", "credit"),
        re.compile(
            r"(?:^|[|•·(]\s*|\.\s+)(?i:photo|image|picture|photograph|illustration)s?(?i: credit)?s?"
            rf"\s*(?::|©|(?i:by):?)\s*{_NAME}\W*$"
            rf"|(?:^|[|•·(]\s*|\.\s+)(?i:credits?)\s*:\s*(?=[A-Z]){_NAME}\W*$",
            re.DOTALL,
        ),
    ),
    (
        "byline or date line",
        ("by ", "updated", "published", " read"),
        re.compile(
            r"^\W*(?i:by|written by)\s+[A-Z][\w.'’-]+(?:\s+[A-Z][\w.'’-]+){0,3}\s*[,|•·–—-]?"
            r".{0,60}\b(?:19|20)\d\d\b\W*$"
            rf"|^\W*(?i:(?:last )?updated|published)(?i: on)?\s*:?\s*(?:[A-Z][a-z]+,? )?{_DATE}.{{0,20}}$"
            r"|(?:^|[|•·]\s*)\d+\s*(?i:min(?:ute)?s? read)\W*$",
            re.DOTALL,
        ),
    ),
)

_PROMPTS_AND_LINES = _PROMPTS + _LINES


def _prompt_note(text: str) -> str | None:
    """The reason a short phrase is the site's prompt to the reader or a line about the article (an affiliate
    disclosure, a newsletter prompt, a photo credit, a byline or date line), or None."""
    low = text.lower()
    for note, cues, pattern in _PROMPTS_AND_LINES if len(text) <= _LINE_MAX else _PROMPTS:
        for cue in cues:
            if cue in low:
                if pattern.search(text):
                    return note
                break
    return None


_MARK_SPLIT = re.compile(r"[\s_-]+")
#: a class/id token of six words or more joined by single hyphens is a slug of a heading ("menu-innovation-
#: strategies-building-memorable-dining-experiences", an anchor for the table of contents), not the name of a
#: region (which is shorter, or a BEM name: "modern-footnotes-list--hide-for-print", "menu-item-type-post_type")
_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+){5,}$")


def _mark_parts(marks: str) -> str:
    """The first and last part of each class/id/role token, one per line: what a region's name says.

    "comments-area", "sidebar", "jeg_related_posts" name a region; "elementor-widget-container" or
    "has-sidebar" in the middle or as a modifier do not (page builders put "widget" on everything).
    """
    parts = []
    for token in marks.split():
        pieces = [p for p in _MARK_SPLIT.split(token) if p]
        if pieces and not (len(pieces) > 5 and _SLUG.match(token)):
            parts.append(pieces[0])
            if len(pieces) > 1:
                parts.append(pieces[-1])
            if len(pieces) > 2:  # "related-posts-list": the first two words name it
                parts.append(pieces[0] + "-" + pieces[1])
    return "\n".join(parts)


#: reason named by each class/id/role string seen (pages of a site repeat theirs); bounded
_REASON_CACHE: dict[str, str | None] = {}
_REASON_CACHE_MAX = 50_000
#: landmarks that say "not the main content": a region chosen inside one of them is a low-confidence choice
_NOT_MAIN_LANDMARKS = frozenset(("footer", "header", "aside", "nav"))


def marks_reason(marks: str) -> str | None:
    """The reason a class/id/role string names its element noise ("comment section", ...), or None."""
    reason = _REASON_CACHE.get(marks, "")
    if reason != "":
        return reason
    parts = _mark_parts(marks)
    reason = next((name for name, pattern in _NOISE_MARKS if pattern.search(parts)), None)
    if reason is None and _HIDDEN_ON_DESKTOP.search(marks):
        reason = "hidden on large screens"
    if len(_REASON_CACHE) >= _REASON_CACHE_MAX:
        _REASON_CACHE.clear()
    _REASON_CACHE[marks] = reason
    return reason


def _noise_reasons(blocks: Blocks) -> list[str | None]:
    """For each block element, the reason its own marks or tag name it noise, or None."""
    tags, marks = blocks.tags, blocks.marks
    own = list(map(_CHROME_TAGS.get, tags))
    for i in compress(range(len(tags)), marks):  # only the blocks with a class, id or role (found in C)
        if own[i] is None and tags[i] not in _NEVER_NOISE:
            own[i] = marks_reason(marks[i])
    return own


def _mark_block_links(phrases: list[Phrase], blocks: Blocks) -> None:
    """Phrases inside an ``<a>`` that holds blocks (a story card) are link text, unless the link is too big
    to be one: an unclosed ``<a>`` that holds the rest of the page (old Forbes pages) is not a link.  A list
    item's card that another item of its list repeats, block for block, is a link whatever its size."""
    tags = blocks.tags
    n = len(tags)
    size = [0] * n
    for ph in phrases:
        if ph.neg is None and ph.node >= 0:
            size[ph.node] += len(ph.text)
    # a block's subtree is the run of blocks after it whose parents are not before it (document order); only
    # the <a> blocks' are walked, and only until their text is too long for a link
    parents = blocks.parents
    in_link: bytearray | None = None
    end = 0  # the blocks before this one are in a link already marked
    i = -1
    while True:
        try:
            i = tags.index("a", i + 1)
        except ValueError:
            break
        if i < end:
            continue
        total = size[i]
        j = i + 1
        while total <= BLOCK_LINK_MAX and j < n and parents[j] >= i:
            total += size[j]
            j += 1
        if total > BLOCK_LINK_MAX and _repeated_card(blocks, i):
            j, total = subtree_end(i, parents), 0
        if total <= BLOCK_LINK_MAX:  # the whole subtree walked: a link
            if in_link is None:
                in_link = bytearray(n)
            in_link[i:j] = b"\x01" * (j - i)
            end = j
    if in_link is not None:
        for ph in phrases:
            if ph.node >= 0 and in_link[ph.node]:
                ph.link_density = 1.0


def _card_shape(blocks: Blocks, i: int) -> tuple[str, ...]:
    """The tags of the blocks right inside block ``i``."""
    return tuple(blocks.tags[j] for j in _children(blocks, i))


def _repeated_card(blocks: Blocks, i: int) -> bool:
    """Whether the <a> block ``i`` is a list item's story card that another item of the same list repeats
    (the same blocks right inside it).  Such a card is a link however long its lead (MSN 2015's "More in
    Movies" cards hold whole stories); an unclosed <a> that holds the article is no repeated card."""
    parents, tags = blocks.parents, blocks.tags
    item = parents[i]
    if item < 0 or tags[item] != "li":
        return False
    shape = _card_shape(blocks, i)
    if not shape:
        return False
    for other in _children(blocks, parents[item]):
        card = other + 1  # an item's first block, if it is right inside it
        if (
            other != item
            and tags[other] == "li"
            and card < len(tags)
            and parents[card] == other
            and tags[card] == "a"
            and _card_shape(blocks, card) == shape
        ):
            return True
    return False


def _teaser_counts(
    phrases: list[Phrase], blocks: Blocks, first: int, noise: list[str | None]
) -> tuple[list[int], list[int]]:
    """Per block from ``first`` on: teasers (a linked headline followed by its lead, counted at the block
    holding both) and article-like phrases in its subtree; phrases of regions already named noise do not
    count."""
    n = len(blocks)
    parents = blocks.parents
    teasers, texts = [0] * n, [0] * n
    headline = -1  # the block of the last linked headline not yet followed by a lead
    between = 0  # short phrases since it (a byline, a date)
    for ph in phrases:
        i = ph.node
        if i < first or ph.neg is not None or noise[i] is not None:
            continue
        ld = ph.link_density
        if ld and ld >= _HEADLINE_LINKS:
            if len(ph.text) >= _HEADLINE_MIN:
                headline, between = i, 0
                continue
        elif (not ld or ld <= TEXT_MAX_LINKS) and len(ph.text) >= _TEXT_MIN:
            texts[i] += 1
            if headline >= 0:
                a, b = headline, i  # their nearest common block (parents come first in document order)
                while a != b:
                    if a > b:
                        a = parents[a]
                    else:
                        b = parents[b]
                if a >= first:
                    teasers[a] += 1
                headline = -1
            continue
        if headline >= 0:
            between += 1
            if between > _TEASER_BETWEEN:
                headline = -1
    for i in range(n - 1, first, -1):
        p = parents[i]
        teasers[p] += teasers[i]
        texts[p] += texts[i]
    return teasers, texts


class SlotPaths:
    """Slot paths (the ancestors' and a block's own slot in the site style tree, :func:`filters.sst.slots`: the
    block key, ``#k`` for the k-th sibling with the same key), interned: each path is an id made of its parent
    path's id and its last slot. One table serves all the pages of a site, so ids compare across pages; it grows
    by one entry per new path, linear in the blocks whatever their depth (a tuple per block was quadratic in
    depth: 3,000 nested tables took 708 MiB)."""

    def __init__(self) -> None:
        self._ids: dict[tuple[int, str], int] = {}
        self.parent: list[int] = []
        self.slot: list[str] = []

    def intern(self, parent: int, slot: str) -> int:
        """The id of the path ``parent``'s path + ``slot`` (``parent`` -1: a top block)."""
        key = (parent, slot)
        pid = self._ids.get(key)
        if pid is None:
            pid = self._ids[key] = len(self.slot)
            self.parent.append(parent)
            self.slot.append(slot)
        return pid

    def of_blocks(self, blocks: Blocks) -> list[int]:
        """Each block's path id: what stays the same for one region on the pages of a site's template."""
        tags, parents, marks = blocks.tags, blocks.parents, blocks.marks
        siblings: dict[int, list[int]] = {}
        for i, p in enumerate(parents):
            siblings.setdefault(p, []).append(i)
        slot = [""] * len(parents)
        for group in siblings.values():
            for i, s in zip(group, slots(block_key(tags[i], marks[i]) for i in group), strict=True):
                slot[i] = s
        out: list[int] = []
        for i, p in enumerate(parents):  # parents come before their children
            out.append(self.intern(out[p] if p >= 0 else -1, slot[i]))
        return out

    def path(self, pid: int) -> tuple[str, ...]:
        """The slots of path ``pid``, from the top (only for the few paths a profile stores)."""
        out: list[str] = []
        while pid >= 0:
            out.append(self.slot[pid])
            pid = self.parent[pid]
        return tuple(reversed(out))


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
_SLOT_NUMBER = re.compile(r"#\d+$")


def relative_key(path: tuple[str, ...]) -> tuple[str, ...]:
    """A block's slot path relative to the main content's, as the site's usual non-content blocks are stored:
    the sibling numbers left out ("tr#3" -> "tr": any row of a table of links), so its blocks' own keys."""
    return tuple(_SLOT_NUMBER.sub("", k) for k in path)


def _children(blocks: Blocks, parent: int) -> list[int]:
    """The blocks whose parent is ``parent`` (-1: the top ones), in document order."""
    parents = blocks.parents
    out: list[int] = []
    j = parent
    while True:
        try:
            j = parents.index(parent, j + 1)
        except ValueError:
            return out
        out.append(j)


def _site_block(profile: Profile, blocks: Blocks, subtree: list[int]) -> int:
    """The page's block on the site's usual main-content path (``profile.main_region``), or -1: walked down from
    the top, only through the blocks on the path."""
    tags, marks = blocks.tags, blocks.marks
    cur = -1
    for want in profile.main_region["path"]:
        children = _children(blocks, cur)
        found = slots(block_key(tags[j], marks[j]) for j in children)
        cur = children[found.index(want)] if want in found else -1
        if cur < 0:
            break
    if cur >= 0:
        return cur
    # no block has the site's path (an extra row above the article shifts the slots): the block with the most
    # article-like text among those whose path is the site's with the sibling numbers left out
    frontier = [-1]
    for want in relative_key(tuple(profile.main_region["path"])):
        frontier = [j for f in frontier for j in _children(blocks, f) if block_key(tags[j], marks[j]) == want]
        if not frontier:
            return -1
    return max(frontier, key=subtree.__getitem__)


def _site_region(blocks: Blocks, best: int, subtree: list[int], r: int) -> int:
    """The block on the site's usual main-content path, ``r``, when it replaces the page's own choice ``best``;
    else -1."""
    if best < 0 or r < 0 or r == best or subtree[r] < _REGION_MIN:
        return -1
    parents = blocks.parents
    b = best
    while b > r:
        b = parents[b]
    if b == r:  # the page's choice inside the site's region: a refinement
        return -1
    if subtree[r] < SITE_REGION_SHARE * subtree[best]:
        return -1
    return r


def _anchors(blocks: Blocks) -> dict[int, list[str]]:
    """The anchor texts of the links inside each block's phrases."""
    out: dict[int, list[str]] = {}
    for block, _href, anchor in blocks.links:
        if anchor:
            out.setdefault(block, []).append(anchor)
    return out


def _starts_with_link(text: str, anchors: list[str] | None) -> bool:
    """Whether the phrase opens with one of its block's links (``anchors``): a teaser ("Headline By Author Its
    lead..."), where a standfirst's links, if any, are inside its sentences."""
    return any(text.startswith(anchor) for anchor in anchors or ())


def decide(
    phrases: list[Phrase],
    blocks: Blocks,
    profile: Profile,
    title: str = "",
    filtering_phrases: Set[str] | None = None,
) -> dict[str, int]:
    """Set ``removed_by`` / ``note`` on each phrase; return the counts per stage."""
    n = len(blocks)
    parents = blocks.parents
    tags = blocks.tags
    own = _noise_reasons(blocks) if profile.main_content else [None] * n
    max_ld = profile.max_link_density if profile.max_link_density is not None else 0.5

    # article-like characters in each block's subtree, to judge a noise-named element by its size: a
    # wrapper named "has-sidebar" or an unclosed <nav> that holds the article is not noise
    if "a" in tags:
        _mark_block_links(phrases, blocks)
    # one pass over the phrases: per block, article-like characters (and their score), other characters
    # (and their penalty), all characters and link characters
    text_chars = [0] * n
    text_score = [0.0] * n
    other_score = [0.0] * n
    chars = [0.0] * n
    link_chars = [0.0] * n
    anchors = _anchors(blocks)
    linked = [0] * n  # phrases with links, and those that read as sentences, in each block (not its subtree)
    linked_sentences = [0] * n
    for ph in phrases:
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
            text_chars[i] += length
            text_score[i] += length * (1.0 - ld)
        else:
            other_score[i] += length * (ld if ld > LINK_FLOOR else LINK_FLOOR) * LINK_WEIGHT
    # article-like characters in each block's subtree, to judge a noise-named element by its size: a
    # wrapper named "has-sidebar" or an unclosed <nav> that holds the article is not noise
    subtree = text_chars[:]
    # children come after their parent in document order
    for i, p in zip(range(n - 1, -1, -1), reversed(parents), strict=True):
        if p >= 0:
            subtree[p] += subtree[i]
    total = outside = subtree[0] if n else 0
    if "dialog" in own:
        # a dialog's text is not the page's (a republishing dialog holds a copy of the article): the share that
        # keeps a big named element from being noise is of the text outside dialogs
        in_dialog = [False] * n
        for i in range(n):
            p = parents[i]
            if p >= 0 and in_dialog[p]:
                in_dialog[i] = True
            elif own[i] == "dialog" and not subtree[i] > 0.8 * total:  # Drupal's "dialog-off-canvas-main-canvas"
                in_dialog[i] = True  # wraps the whole page
                outside -= subtree[i]
    # the innermost noise reason above each block (itself included), for elements that are not too big;
    # and each block's own score: article-like text for, chrome against
    noise: list[str | None] = [None] * n
    score = [t - o for t, o in zip(text_score, other_score, strict=True)]  # a noise block's is set below
    for i, reason, p in zip(range(n), own, parents, strict=True):
        # it holds much of the page's text: not chrome, whatever it is called (a comment thread can be
        # longer than the article, but it is named as one)
        if (
            reason is not None
            and subtree[i] > _REGION_MIN
            and (
                subtree[i] > 0.8 * total
                if reason == "comment section" or reason == "dialog"
                else subtree[i] > NOISE_MAX_SHARE * outside
            )
        ):
            reason = None
        if reason is None and p >= 0:
            reason = noise[p]
        if reason is not None:
            noise[i] = reason
            score[i] = -chars[i] * NOISE_WEIGHT
    best, best_score = -1, float(_REGION_MIN) if profile.main_content else float("inf")
    sums = score
    for i, p in zip(range(n - 1, -1, -1), reversed(parents), strict=True):
        s = sums[i]
        if s > best_score:
            best, best_score = i, s
        if p >= 0:
            sums[p] += s
            chars[p] += chars[i]
            link_chars[p] += link_chars[i]
    if best >= 0 and profile.main_content and "h1" in tags:
        best = _landmark_guard(best, sums, parents, tags, chars)
    lead_from = -1  # the block the main content was narrowed from: its article-like text before it is the lead
    lead_outer = -1  # the first block narrowed from (an outer wrapper when it narrowed more than once)
    if best >= 0 and NARROW_SHARE < 1.0:
        # unlabelled article-like blocks around the article (a masthead's motto, a footer's paragraph)
        # add to the best sum; a child that holds nearly all of the article-like text is the article
        children: dict[int, list[int]] = {}
        for i in range(best + 1, n):
            p = parents[i]
            if p < best:
                break
            children.setdefault(p, []).append(i)
        while tags[best] != "article":  # <article> says where the article is: its header, dek included
            inner = max(children.get(best, ()), key=subtree.__getitem__, default=-1)
            if inner < 0 or subtree[inner] < NARROW_SHARE * subtree[best]:
                break
            if lead_outer < 0:
                lead_outer = best
            lead_from, best = best, inner
    if best > 0 and tags[best] == "p":
        # one paragraph is not an article: its siblings hold more of it (under a container that also
        # holds a long comment thread, which weighs against the container); named regions stay removed
        clean = [0] * n
        for i in range(n - 1, -1, -1):
            if noise[i] is None:
                clean[i] += text_chars[i]
                if parents[i] >= 0:
                    clean[parents[i]] += clean[i]
        while best > 0 and tags[best] == "p" and clean[parents[best]] >= PARAGRAPH_CLIMB * clean[best]:
            best = parents[best]
    outside_note = "outside the main content"
    site_noise: dict[int, dict[str, Any]] = {}  # block -> the node of the site's non-content paths it is on
    if profile.main_region and best >= 0:
        region = _site_block(profile, blocks, subtree)
        site = _site_region(blocks, best, subtree, region)
        if site >= 0:
            if lead_from >= 0 and not (lead_from < site < subtree_end(lead_from, parents)):
                lead_from = -1
            if lead_outer >= 0 and not (lead_outer < site < subtree_end(lead_outer, parents)):
                lead_outer = -1
            best, outside_note = site, SITE_REGION_NOTE
        if best == region:
            trie: dict[str, Any] = {}
            for path in profile.main_region.get("noise", ()):
                node = trie
                for key in path:
                    node = node.setdefault(key, {})
                node[""] = True  # the end of a path: a non-content block
            if trie:
                site_noise[best] = trie
    blocks.main = best
    if (
        lead_outer < 0
        and best > 0
        and outside_note != SITE_REGION_NOTE
        and parents[best] >= 0
        and tags[parents[best]] not in ("body", "html")
    ):
        lead_outer = parents[best]  # not narrowed: long sentences before it under its parent are the lead too
    # a list of story teasers ("More in ...": linked headline, short lead, again and again) holding less
    # than half of the main content's article-like text is neither the lead nor part of the article
    teasers, texts = (
        _teaser_counts(phrases, blocks, lead_outer if lead_outer >= 0 else best, noise) if best >= 0 else ([], [])
    )
    teaser_max = TEASER_SHARE * subtree[best] if best >= 0 else 0.0

    def teaser_list(i: int) -> bool:
        t = teasers[i]
        return t >= TEASER_MIN and t >= TEASER_PER_TEXT * texts[i] and subtree[i] <= min(TEASER_TEXT * t, teaser_max)

    # the blocks of the lead: under the blocks narrowed from, before the main content (a standfirst, a dek, an
    # intro paragraph in a header above the article's body); 2: under the block narrowed from last, 1: under one
    # narrowed from before it (its phrases must be long sentences)
    lead = [0] * n
    if lead_outer >= 0:
        for i in range(lead_outer + 1, best):
            p = parents[i]
            if (p == lead_outer or (p > lead_outer and lead[p])) and not (teasers[i] >= TEASER_MIN and teaser_list(i)):
                lead[i] = 2 if p == lead_from or lead[p] == 2 else 1
    inside = [best < 0] * n
    kept_aside = [False] * n  # <aside> blocks inside the main content that hold article text, and their blocks
    roots = [best] if best >= 0 else []  # the main content, and the rest of the article beside it
    if best > 0 and outside_note != SITE_REGION_NOTE:
        roots += _sibling_parts(best, blocks, subtree, chars, link_chars, noise)
    for root in roots:
        inside[root] = True
        for i in range(root + 1, n):
            p = parents[i]
            if p >= 0 and inside[p]:
                inside[i] = True
                if noise[i] == "aside" and (
                    (own[i] == "aside" and _article_aside(i, subtree, chars, link_chars))
                    or (own[i] is None and kept_aside[p])
                ):
                    # an <aside> of the article's own paragraphs (a note, a box on a side question) inside it: the
                    # article's text; its blocks named noise by their own class stay noise
                    noise[i] = noise[p]
                    kept_aside[i] = True
                # a list of links inside the main content ("Related News Stories", a tag cloud) that
                # weighs against it: not part of the article
                if (
                    noise[i] is None
                    and sums[i] < 0
                    and chars[i] >= 100
                    and link_chars[i] > 0.5 * chars[i]
                    and not _sentences_share(i, parents, linked, linked_sentences)
                ):
                    noise[i] = "list of links"
                elif noise[i] is None and teasers[i] >= TEASER_MIN and teaser_list(i):
                    noise[i] = "list of story teasers"
                elif site_noise and p in site_noise and noise[i] is None and noise[p] is None:
                    on_path = site_noise[p].get(block_key(tags[i], blocks.marks[i]))
                    if on_path is not None:
                        if "" in on_path:
                            noise[i] = SITE_NOISE_NOTE
                        else:
                            site_noise[i] = on_path
                elif noise[i] is None:
                    noise[i] = noise[p]
            elif p < root:
                break

    row_cells: dict[int, int] = {}  # cells with text per table row, counted when a short cell asks

    def data_cell(cell: int) -> bool:
        # a short cell is data in a row of cells, chrome alone in its row (an old layout table's "Page 1 of
        # 2", a caption cell under a photo)
        row = parents[cell]
        count = row_cells.get(row)
        if count is None:
            count, j = 0, row + 1
            while j < n and parents[j] >= row:
                if parents[j] == row and chars[j] and tags[j] in _TABLE_CELLS:
                    count += 1
                j += 1
            row_cells[row] = count
        return count >= 2

    min_length = profile.min_length
    redundant = frozenset(profile.filtering_phrases) if filtering_phrases is None else filtering_phrases
    headline = title.casefold()
    counts = {"total": len(phrases), "length": 0, "tag": 0, "redundancy": 0, "content": 0, "core": 0, "rescued": 0}
    kept: set[str] = set()
    long_kept: list[Phrase] = []  # the long phrases that reached the repeat check, copies included
    for ph in phrases:
        i = ph.node
        ph.removed_by = ph.rescued_by = ph.note = None
        text = ph.text
        if ph.neg is not None:
            ph.removed_by = "tag"
        elif i >= 0 and not inside[i]:
            block_tag = tags[i]
            if block_tag in _HEADINGS and headline and text.casefold() in headline:
                ph.note = "the headline"
            elif (
                lead[i]
                and (lead[i] == 2 or (len(text) >= LEAD_OUTER_MIN and text[-1] in _SENTENCE_END))
                and noise[i] is None
                and len(text) >= _TEXT_MIN
                and (ph.link_density or 0) <= TEXT_MAX_LINKS
                and not (ph.link_density and _starts_with_link(text, anchors.get(i)))
            ):
                ph.note = "the article's lead"
            else:
                ph.removed_by, ph.note = "content", noise[i] or outside_note
        elif i >= 0 and noise[i] is not None:
            ph.removed_by, ph.note = "content", noise[i]
        elif ("opyright" in text or "©" in text or "eserved" in text or "ESERVED" in text or "OPYRIGHT" in text) and (
            len(text) <= _NOTICE_MAX and _COPYRIGHT.search(text)
        ):
            ph.removed_by, ph.note = "content", "copyright notice"
        elif profile.main_content and len(text) <= _NOTICE_MAX:  # the content stage's, as its notes
            note = _prompt_note(text)
            if note is not None:
                ph.removed_by, ph.note = "content", note
        if ph.removed_by is None:
            block_tag = tags[i] if i >= 0 else ""
            ld = ph.link_density or 0.0
            if (
                len(text) < min_length
                and (block_tag not in _CELLS or (block_tag in _TABLE_CELLS and not data_cell(i)))
                and block_tag not in _HEADINGS
                and block_tag != "summary"  # the heading of a <details> section
            ):
                if ph.pos and "length" in profile.rescue_from:
                    ph.rescued_by = ph.pos
                else:
                    ph.removed_by = "length"
            if (
                ph.removed_by is None
                and ld > max_ld
                and block_tag not in _HEADINGS
                and not (
                    profile.main_content
                    and block_tag in _SENTENCE_BLOCKS
                    and _linked_sentence(text, ld, anchors.get(i))
                )
            ):
                ph.removed_by = "tag"
            if ph.removed_by is None and redundant and text in redundant:
                ph.removed_by = "redundancy"
        # a long phrase kept twice: a copy of the text for another screen width, a carousel's clone, a pull quote
        if ph.removed_by is None and len(text) >= REPEAT_MIN:
            if text in kept:
                ph.removed_by, ph.note = "content", "repeated on the page"
            else:
                kept.add(text)
            long_kept.append(ph)
        if ph.removed_by is not None:
            ph.rescued_by = None  # rescued from the length filter, then removed by another: not rescued
        if ph.removed_by is None:
            counts["core"] += 1
            if ph.rescued_by:
                counts["rescued"] += 1
        else:
            counts[ph.removed_by] += 1
    for ph in _lone_copies(long_kept, headline, tags):
        ph.removed_by = ph.note = None
        counts["content"] -= 1
        counts["core"] += 1
    for ph in _orphan_headings(phrases, tags) if profile.main_content else ():
        ph.removed_by, ph.note = "content", ORPHAN_NOTE
        counts["core"] -= 1
        counts["content"] += 1
    return counts


#: why a heading whose section lost all its text goes ("Related Words", "Latest News", "Like this:")
ORPHAN_NOTE = "heading of a removed section"


def _orphan_headings(phrases: list[Phrase], tags: list[str]) -> list[Phrase]:
    """The kept headings (``<h2>`` to ``<h6>``, not the headline or the lead) whose section, up to the next kept
    heading of the same or a higher rank, keeps no text while some of its text was removed (what a negative tag
    removed, a script, a style, a noscript..., does not count): the title of a related-stories list, a comment
    section or a list of links that went without it.  wcxb tuning split, single page, 0.9541 -> 0.9545 (0.9543
    when the text removed by link density did not count); crawl-to-the-future unchanged.
    """
    out: list[Phrase] = []
    n = len(phrases)
    for k, ph in enumerate(phrases):
        if ph.removed_by is not None or ph.note is not None or ph.node < 0:
            continue
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
            for s in _children(blocks, p):
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


def _sentences_share(i: int, parents: list[int], linked: list[int], linked_sentences: list[int]) -> bool:
    """Whether LINK_LIST_SENTENCES or more of the phrases with links in block ``i``'s subtree read as sentences."""
    end = subtree_end(i, parents)
    return sum(linked_sentences[i:end]) >= LINK_LIST_SENTENCES * sum(linked[i:end])


def _article_aside(i: int, subtree: list[int], chars: list[float], link_chars: list[float]) -> bool:
    """Whether the ``<aside>`` block ``i`` holds article text: ``ASIDE_TEXT`` characters of article-like phrases or
    more, nearly all of its text, with few links (``subtree``: article-like characters of each block's subtree;
    ``chars``, ``link_chars``: all and link characters of it)."""
    return subtree[i] >= ASIDE_TEXT and subtree[i] >= ASIDE_SHARE * chars[i] and link_chars[i] <= ASIDE_LINKS * chars[i]


def subtree_end(i: int, parents: list[int]) -> int:
    """The index after block ``i``'s last descendant (a subtree is a run of blocks in document order)."""
    n, j = len(parents), i + 1
    while j < n and parents[j] >= i:
        j += 1
    return j


def _landmark_guard(best: int, sums: list[float], parents: list[int], tags: list[str], chars: list[float]) -> int:
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
    n = len(parents)
    end = subtree_end(best, parents)
    headlines = [i for i in range(n) if tags[i] == "h1" and chars[i] > 0]
    if any(best <= h < end for h in headlines):
        return best
    region = None  # (first, last + 1, excluded run) of the blocks the page says hold its content
    main = next((i for i in range(n) if tags[i] == "main" and chars[i] > 0), -1)
    if main >= 0:
        main_end = subtree_end(main, parents)
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
        region = 0, n, (landmark, subtree_end(landmark, parents))
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
