"""The section kicker: a short label right above the headline that names the site's section ("Mind", "Education"),
not the article's text. Main-content detection (:mod:`filters.content`) keeps it with the headline it stands on;
this stage removes it when the page says it is a section's name: the label is a link (not to a writer's page), or
the text of a link in the page's navigation or breadcrumb (a ``<nav>``, a block named a menu).

Only above the headline: a short line below it is the article's first subheading as often as a label (wcxb tuning
split: "Background", "Passwork" there are in the gold). A label the page links nowhere ("Exclusive interview"), only
to a place on the page itself (``#...``), or from elsewhere than its navigation (a writer's name above the headline
that the site's directory of writers links: crawl-to-the-future's thenation.com, whose gold keeps it) stays.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .article_parts import TEXT_DATE, WRITER, headline_of
from .html5 import Blocks
from .phrases import Phrase, norm, remove_kept

__all__ = ["KICKER_NOTE", "remove_section_kicker", "section_kicker"]

KICKER_NOTE = "section kicker"
#: a kicker is a name: this many characters and words at most, and no sentence's end
KICKER_MAX = 40
KICKER_WORDS = 4
_NOT_A_NAME = ".!?:;,"
#: links that lead to no section
_NOT_A_SECTION = ("#", "javascript:", "mailto:", "tel:")
#: the class/id/role words of a navigation block ("nav-menu", "menu-item", "breadcrumbs")
_NAVIGATION = re.compile(r"(?:^|[\s_-])(?:nav|navbar|navigation|menu|breadcrumbs?|crumbs?)(?:$|[\s_-])")


def section_kicker(phrases: Sequence[Phrase], blocks: Blocks) -> Phrase | None:
    """The kept phrase right above the headline when it is a section's name (the module's docstring), or None."""
    head = headline_of(phrases)
    if head is None:
        return None
    above = None
    for p in phrases:
        if p is head:
            break
        if p.removed_by is None and not p.path.startswith("/html/head/"):
            above = p
    # a phrase with a note was kept for a reason of its own: the page's title ("the headline"), the article's lead
    if above is None or above.note is not None or len(above.text) > KICKER_MAX:
        return None
    text = norm(above.text)
    if not text or len(text.split()) > KICKER_WORDS or text[-1] in _NOT_A_NAME or TEXT_DATE.search(text):
        return None
    name = text.casefold()
    for node, href, anchor in blocks.links:
        if norm(anchor).casefold() != name or href.strip().lower().startswith(_NOT_A_SECTION):
            continue
        if node == above.node:
            if WRITER.search(href) is None:  # a link to a writer's page is a byline
                return above  # the label links to its section
        elif _in_navigation(blocks, node):
            return above
    return None


def _in_navigation(blocks: Blocks, node: int) -> bool:
    """Whether the block ``node`` is inside a ``<nav>`` or a block whose class/id/role names navigation."""
    tags, marks, parents = blocks.tags, blocks.marks, blocks.parents
    while node >= 0:
        if tags[node] == "nav" or (marks[node] and _NAVIGATION.search(marks[node])):
            return True
        node = parents[node]
    return False


def remove_section_kicker(phrases: Sequence[Phrase], blocks: Blocks, counts: dict[str, int]) -> None:
    """Remove the section kicker (:func:`section_kicker`) by "content", with its note, and count it."""
    kicker = section_kicker(phrases, blocks)
    if kicker is None:
        return
    remove_kept(kicker, "content", KICKER_NOTE, counts)
