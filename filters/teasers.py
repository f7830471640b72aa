"""Story cards and lists of story teasers: the page's links to other stories, around and inside its article.

A story card is an ``<a>`` around blocks (a picture, a headline, a lead): its text is link text, so the
main-content stage (:mod:`filters.content`) weighs it against the region that holds it.  A list of story teasers
is a block of unlinked leads, each after its linked headline ("More in ...", a section front): it is neither the
article nor its lead when it holds little of the main content's article-like text.
"""

from __future__ import annotations

from collections.abc import Sequence

from .html5 import Blocks, blocks_of
from .phrases import Phrase

__all__ = ["BLOCK_LINK_MAX", "TEASER_MIN", "TeaserLists", "mark_card_links"]

#: an <a> around blocks with more text than this is not a link but an unclosed tag
BLOCK_LINK_MAX = 400
#: a list of story teasers: a block holding at least TEASER_MIN teasers (a linked headline, then its lead),
#: at most TEASER_TEXT characters of article-like text per teaser, a teaser for every 1 / TEASER_PER_TEXT
#: article-like phrases (an article's paragraphs outnumber its linked subheadings), and less than
#: TEASER_SHARE of the main content's article-like text
TEASER_MIN = 3
TEASER_TEXT = 500
TEASER_PER_TEXT = 0.5
TEASER_SHARE = 0.5
_HEADLINE_LINKS = 0.8  # a linked headline: a phrase nearly all link...
_HEADLINE_MIN = 15  # ... of this many characters or more
_TEASER_BETWEEN = 2  # short phrases (byline, date) allowed between a teaser's headline and its lead


def mark_card_links(phrases: list[Phrase], blocks: Blocks) -> None:
    """Phrases inside an ``<a>`` that holds blocks (a story card) are link text, unless the link is too big
    to be one: an unclosed ``<a>`` that holds the rest of the page (old Forbes pages) is not a link.  A list
    item's card that another item of its list repeats, block for block, is a link whatever its size."""
    tags = blocks.tags
    n = len(tags)
    size = [0] * n
    for ph in phrases:
        if ph.neg is None and ph.node >= 0:
            size[ph.node] += len(ph.text)
    ends = blocks.ends
    in_link: bytearray | None = None
    end = 0  # the blocks before this one are in a link already marked
    for i in blocks_of(tags, "a"):
        if i < end:
            continue
        j = ends[i]
        if sum(size[i:j]) <= BLOCK_LINK_MAX or _repeated_card(blocks, i):
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
    return tuple(blocks.tags[j] for j in blocks.children(i))


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
    for other in blocks.children(parents[item]):
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


class TeaserLists:
    """Per block from ``first`` on, the story teasers (a linked headline followed by its lead, counted at the
    block holding both) and the article-like phrases of its subtree; which blocks are lists of teasers.

    ``article``: whether each phrase reads like article text; ``subtree``: each block's article-like characters;
    ``best``: the main content's block.  Phrases of regions already named noise do not count.  On a page with
    fewer than TEASER_MIN teasers the counts are each block's own, not its subtree's: no block is a list then.
    """

    __slots__ = ("teasers", "texts", "_subtree", "_most")

    def __init__(
        self,
        phrases: list[Phrase],
        article: Sequence[bool],
        blocks: Blocks,
        first: int,
        noise: list[str | None],
        subtree: list[int],
        best: int,
    ) -> None:
        n = len(blocks)
        parents = blocks.parents
        teasers, texts = [0] * n, [0] * n
        headline = -1  # the block of the last linked headline not yet followed by a lead
        between = 0  # short phrases since it (a byline, a date)
        found = 0  # teasers counted
        for ph, is_article in zip(phrases, article, strict=True):
            i = ph.node
            if i < first or ph.neg is not None or noise[i] is not None:
                continue
            ld = ph.link_density
            if ld and ld >= _HEADLINE_LINKS:
                if len(ph.text) >= _HEADLINE_MIN:
                    headline, between = i, 0
                    continue
            elif is_article:
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
                        found += 1
                    headline = -1
                continue
            if headline >= 0:
                between += 1
                if between > _TEASER_BETWEEN:
                    headline = -1
        # fewer teasers on the page than a list holds: no block is one (holds_list is never called), no sums needed
        for i in range(n - 1, first, -1) if found >= TEASER_MIN else ():
            p = parents[i]
            teasers[p] += teasers[i]
            texts[p] += texts[i]
        self.teasers, self.texts = teasers, texts
        self._subtree = subtree
        self._most = TEASER_SHARE * subtree[best]

    def holds_list(self, i: int) -> bool:
        """Whether block ``i`` is a list of story teasers (callers test ``teasers[i] >= TEASER_MIN`` first: most
        blocks hold none, and the test costs less than the call)."""
        t = self.teasers[i]
        return (
            t >= TEASER_MIN
            and t >= TEASER_PER_TEXT * self.texts[i]
            and self._subtree[i] <= min(TEASER_TEXT * t, self._most)
        )
