"""A phrase of a page: a text run with the path of tags above it, and the decision the filters took on it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["BLOCK_TAGS", "Phrase", "keep_removed", "norm", "remove_kept"]

#: Elements that start a new line of text: with ``block_phrases`` a phrase
#: never crosses their boundary, while inline tags (a, b, span, ...) do not cut it.
_BLOCK_TAG_NAMES = """
    address article aside blockquote body center dd details dialog dir div dl dt fieldset figcaption
    figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html iframe legend li main
    menu nav noscript ol optgroup option p pre section select summary table tbody td tfoot th thead
    title tr ul caption
"""
BLOCK_TAGS = frozenset(_BLOCK_TAG_NAMES.split())


def norm(text: str) -> str:
    """Each run of whitespace as one space, none at the ends: ``" ".join(text.split())``."""
    if text.isprintable() and "  " not in text:
        # every whitespace character but the ASCII space is unprintable, so the only whitespace
        # here is single spaces: no need to cut the text into words (most text runs, 2-3x faster)
        return text.strip(" ")
    return " ".join(text.split())


@dataclass(slots=True)
class Phrase:
    """A text run of the page with the path of tags above it and its fate."""

    text: str
    path: str
    #: innermost negative tag above the phrase (thesis tag filter), or None
    neg: str | None = None
    #: innermost positive tag above the phrase, or None
    pos: str | None = None
    #: share of the phrase's characters inside <a> (block phrases only)
    link_density: float | None = None
    #: name of the filter that removed the phrase ("length", "tag", "redundancy"); None = core
    removed_by: str | None = None
    #: positive tag that kept the phrase although a filter would have removed it
    rescued_by: str | None = None
    #: the block element the phrase belongs to (index in the page's ``Blocks``; HTML5 walk only)
    node: int = -1
    #: why the main-content stage decided as it did ("comment section", "outside the main content", ...)
    note: str | None = None

    @property
    def is_core(self) -> bool:
        return self.removed_by is None

    def reason(self) -> str:
        """Human-readable decision, for ``--explain``."""
        if self.note:
            return f"removed by {self.removed_by}: {self.note}" if self.removed_by else f"core ({self.note})"
        if self.removed_by == "tag":
            if self.neg:
                return f"removed by tag <{self.neg}>"
            return f"removed by tag (link density {self.link_density:.2f})"
        if self.removed_by:
            return f"removed by {self.removed_by}"
        if self.rescued_by:
            return f"core (rescued by <{self.rescued_by}>)"
        return "core"

    def fresh(self) -> Phrase:
        """A copy with the facts of the page only, no decision (to filter again with another profile)."""
        return Phrase(self.text, self.path, self.neg, self.pos, self.link_density, node=self.node)

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "path": self.path,
            "is_core": self.is_core,
            "removed_by": self.removed_by,
            "rescued_by": self.rescued_by,
            "reason": self.reason(),
        }


def remove_kept(phrase: Phrase, stage: str, note: str | None, counts: dict[str, int]) -> None:
    """Remove a kept ``phrase`` by ``stage`` with its ``note``, moving it in ``counts`` from the core to ``stage``
    (and out of the rescued, where the positive tag had kept a short ``<p>`` from the length filter)."""
    if phrase.rescued_by:
        counts["rescued"] -= 1
    phrase.removed_by, phrase.rescued_by, phrase.note = stage, None, note
    counts["core"] -= 1
    counts[stage] += 1


def keep_removed(phrase: Phrase, counts: dict[str, int]) -> None:
    """Put back a ``phrase`` a stage removed, moving it in ``counts`` from that stage to the core."""
    counts[phrase.removed_by or "core"] -= 1
    phrase.removed_by = phrase.note = None
    counts["core"] += 1
