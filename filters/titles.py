"""The site's name (and section) around page titles: "Flu jabs open | Health Watch Daily",
"BBC NEWS | Technology | Phones get smarter", "Phones get smarter - BBC News".

Affixes are learned with the site profile (:func:`filters.learning.title_affixes`) and stripped by
:func:`filters.extract`. Both compare them in a normal form, case and separators made alike, so one learned
affix serves the forms a site's titles take over the years; ``SECTION`` in an affix stands for one short
segment that varies (the site's section names).
"""

from __future__ import annotations

import re
from functools import lru_cache

#: a separator between the site name and the article's title: punctuation with spaces around it
#: (" | ", " :: ", " — ", " - ", " · "); "Mediterranean-style" or "Sickness: what helps" are no separators
TITLE_SEP = re.compile(r"\s+[|:\-\u2013\u2014\u00b7\u2022\u00bb\u00ab/~]+\s+")
#: one section name in an affix
SECTION = "{section}"
_SPACES = re.compile(r"\s+")


def normal_affix(text: str) -> str:
    """``" - BBC News"`` and ``" | BBC NEWS"`` alike: ``"| bbc news"``."""
    text = TITLE_SEP.sub(" | ", f" {text} ")
    return _SPACES.sub(" ", text).strip().casefold()


@lru_cache(maxsize=256)
def _affix_pattern(affix: str) -> re.Pattern[str]:
    parts = normal_affix(affix).split(SECTION)
    return re.compile("[^|]+?".join(re.escape(part) for part in parts))


def strip_title_affixes(title: str, prefix: str = "", suffix: str = "") -> str:
    """The title without the site's learned prefix / suffix; unchanged when nothing would remain."""
    cuts = [m for m in TITLE_SEP.finditer(title) if m.start() > 0 and m.end() < len(title)]
    if suffix:
        wanted = _affix_pattern(suffix)
        for m in cuts:
            if wanted.fullmatch(normal_affix(title[m.start() :])) and title[: m.start()].strip():
                title = title[: m.start()].rstrip()
                cuts = [c for c in cuts if c.end() < len(title)]
                break
    if prefix:
        wanted = _affix_pattern(prefix)
        for m in reversed(cuts):
            if wanted.fullmatch(normal_affix(title[: m.end()])) and title[m.end() :].strip():
                return title[m.end() :].lstrip()
    return title
