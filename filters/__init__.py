"""WIMS noise filters: from an article's HTML to its core content and tokens.

Pure Python (lxml only, no Django on the extraction path).  The method is the
thesis's (Fig. 4): phrases ─► length filter ─► tag filter ─► redundant-phrase
filter ─► tokens ─► stop words ─► redundant-word filter.  See
:func:`extract`, :func:`learn_profile` and :mod:`filters.metrics`.
"""

from .learning import PageSample, analyse_page, learn_profile
from .pipeline import Extraction, ExtractionError, Page, Phrase, extract, read_page, tokenize
from .profiles import BUILTIN_PROFILES, Profile, get_profile

__all__ = [
    "extract",
    "read_page",
    "Page",
    "Extraction",
    "ExtractionError",
    "Phrase",
    "Profile",
    "get_profile",
    "BUILTIN_PROFILES",
    "tokenize",
    "learn_profile",
    "analyse_page",
    "PageSample",
]
