"""The article's lead: a standfirst, a dek or an intro paragraph that the page puts before the main content's block
(in a header above the article's body), kept by main-content detection (:mod:`filters.content`) although it is
outside the main content.
"""

from __future__ import annotations

from .html5 import Blocks
from .teasers import TEASER_MIN, TeaserLists

__all__ = ["LEAD_NOTE", "is_lead", "lead_levels", "outer_block"]

LEAD_NOTE = "the article's lead"
#: the lead is the article-like text before the main content under the block it was narrowed from; under a block
#: narrowed from before that one (an outer wrapper), or under the main content's parent when it was not narrowed,
#: only a sentence of this many characters or more, ending as a sentence does, is (a dateline, a section's name or
#: a short motto there is not)
LEAD_OUTER_MIN = 100
_SENTENCE_END = '.!?"”’)'


def outer_block(blocks: Blocks, best: int, lead_outer: int, from_site: bool) -> int:
    """The outermost block whose article-like text before the main content ``best`` can be the lead:
    ``lead_outer``, the first block the main content was narrowed from; when it was not narrowed (-1), the main
    content's parent (not ``<body>`` or ``<html>``), unless the site's usual main content replaced the page's
    choice (``from_site``); else -1."""
    parents, tags = blocks.parents, blocks.tags
    if (
        lead_outer < 0
        and best > 0
        and not from_site
        and parents[best] >= 0
        and tags[parents[best]] not in ("body", "html")
    ):
        return parents[best]  # not narrowed: long sentences before it under its parent are the lead too
    return lead_outer


def lead_levels(parents: list[int], best: int, lead_from: int, lead_outer: int, lists: TeaserLists) -> list[int]:
    """Per block, whether it holds the lead: under the blocks narrowed from, before the main content ``best``
    (``lead_from``: the block narrowed from last; ``lead_outer``: the outermost, :func:`outer_block`); 2: under
    ``lead_from``, 1: only under an outer one (its phrases must be long sentences); 0: not; a list of story
    teasers there is not the lead."""
    lead = [0] * len(parents)
    if lead_outer >= 0:
        teasers = lists.teasers
        for i in range(lead_outer + 1, best):
            p = parents[i]
            if (p == lead_outer or (p > lead_outer and lead[p])) and not (
                teasers[i] >= TEASER_MIN and lists.holds_list(i)
            ):
                lead[i] = 2 if p == lead_from or lead[p] == 2 else 1
    return lead


def is_lead(text: str, level: int, link_density: float | None, anchors: list[str] | None) -> bool:
    """Whether an article-like phrase of a lead block (``level``, :func:`lead_levels`) is the lead: any under the
    block narrowed from last, a long sentence under an outer one; not a teaser's text, which opens with one of its
    block's links (``anchors``), where a standfirst's links, if any, are inside its sentences ("Headline By Author
    Its lead...")."""
    if level != 2 and not (len(text) >= LEAD_OUTER_MIN and text[-1] in _SENTENCE_END):
        return False
    return not (link_density and any(_teaser_opening(text, anchor) for anchor in anchors or ()))


#: a teaser's linked headline may follow a column's name ("THE IMPERIAL CITY <a>St. Judy's Got to Go</a> By Kurt
#: Andersen But what about...": New York Magazine's column teasers beside the article)
TEASER_KICKER_MAX = 40


def _teaser_opening(text: str, anchor: str) -> bool:
    """Whether a phrase opens as a teaser with its block's link ``anchor``: the link first, or a linked headline and
    its byline after at most a column's name."""
    if text.startswith(anchor):
        return True
    at = text.find(anchor, 0, TEASER_KICKER_MAX + len(anchor))
    return at > 0 and text[at + len(anchor) : at + len(anchor) + 4].casefold() == " by "
