"""The questions of an article's FAQ: an accordion whose questions are ``<button>`` elements.

Main-content detection (:mod:`filters.content`) removes the text of a ``<button>`` as chrome ("Share", "Load more",
"Subscribe").  An accordion's question is a button too (``<button aria-expanded>What does it cost?</button>``, the
answer in the panel below it), and the wcxb gold keeps it with its answer: on the tuning split, the FAQs of
accounting.com, accreditedschoolsonline.org, affordablecollegesonline.org, business.com, homeyou.com, move.org and
runnersworld.com.  So inside the main content a button's phrase that asks a question (it ends with "?") is kept when
its answer is: the next phrase with text (not an icon's) is kept and reads as article text (QUESTION_ANSWER
characters or more).  A question with no answer after it on the page (fool.com's FAQ, whose answers a script loads)
stays removed, as does a button that asks nothing ("Click to see what ... include").
"""

from __future__ import annotations

from itertools import islice

from .html5 import Blocks
from .marks import BUTTON_NOTE
from .phrases import Phrase, keep_removed

__all__ = ["QUESTION_ANSWER", "keep_questions"]

#: the answer after a question is article text: this many characters or more
QUESTION_ANSWER = 40


def keep_questions(phrases: list[Phrase], blocks: Blocks, inside: list[bool], counts: dict[str, int]) -> None:
    """Put back the FAQ's questions (the module's docstring) removed as buttons inside the main content (``inside``),
    moving them in ``counts`` from the content stage to the core."""
    if "button" not in blocks.tags:  # in C: most pages have no button
        return
    for k, ph in enumerate(phrases):
        if ph.note != BUTTON_NOTE or not ph.text.endswith("?") or ph.node < 0 or not inside[ph.node]:
            continue
        answer = next((p for p in islice(phrases, k + 1, None) if p.neg is None), None)
        if answer is not None and answer.removed_by is None and len(answer.text) >= QUESTION_ANSWER:
            keep_removed(ph, counts)
