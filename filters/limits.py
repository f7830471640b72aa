"""The door every page goes through: one set of input limits, and the error that refuses a page.

A page is read once (:func:`filters.read_page`) and the same limits hold for every profile and every stage
that reads it (extraction, site learning, DocView, the filter view): a page refused here is refused
everywhere, with the same reason. Processing stores the refusal on the article, so that later stages never
read its stored page again (``processing.extraction.refused``).
"""

from __future__ import annotations

__all__ = ["ExtractionError", "MAX_ATTRIBUTES", "MAX_BYTES", "MAX_DEPTH", "MAX_ELEMENTS", "REASONS", "too_deep"]


#: why a page was refused, in a word each (``ExtractionError.reason``; the label of a metric, so a fixed set)
REASONS = ("too_large", "too_many_tags", "too_many_attributes", "too_deep", "not_html", "unparsable")


class ExtractionError(ValueError):
    """The input cannot be read as an HTML page (binary data, not HTML, wrong type, past the input limits)."""

    def __init__(self, message: str, reason: str = "not_html") -> None:
        super().__init__(message)
        self.reason = reason


#: More attributes than this on one element is an attack, not a page: libxml2 checks each new attribute
#: against all earlier ones (quadratic: 200,000 attributes took 243 s); a real element has a few dozen.
MAX_ATTRIBUTES = 2000
#: Elements nested deeper than this: libxml2 stops building its tree there (and drops what lies below),
#: lexbor's time grows with the square of the depth, and site learning's block paths with it. Real pages
#: nest a few dozen levels (the deepest of 1,720 benchmark pages: well under 200).
MAX_DEPTH = 2048
#: Bytes of one page (decoded to UTF-8). WebMon's responses are capped lower (WIMS_MAX_BYTES, 5 MB).
MAX_BYTES = 64 * 1024 * 1024
#: Tags of one page ("<" followed by a letter, "/" or "!"); no benchmark page has 10,000.
MAX_ELEMENTS = 1_000_000


def too_deep() -> ExtractionError:
    """The refusal of a page nested past MAX_DEPTH (the same words whichever parser found it)."""
    return ExtractionError(
        f"input is not a readable HTML page: elements nested more than {MAX_DEPTH:,} deep (the parser drops "
        "what lies below)",
        "too_deep",
    )
