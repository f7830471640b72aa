"""Stop words removed from the core text's tokens before the redundant-word filter.

A classic English function-word list (close to the SMART / NLTK lists); the
thesis removed such words because they carry no topic for classification.
Kept as plain data so a site profile can name the list it uses.
"""

from __future__ import annotations

_ENGLISH_WORDS = """
    a about above after again against all also am an and any are aren't as at be because been before
    being below between both but by can can't cannot could couldn't did didn't do does doesn't doing
    don't down during each few for from further had hadn't has hasn't have haven't having he he'd he'll
    he's her here here's hers herself him himself his how how's i i'd i'll i'm i've if in into is isn't
    it it's its itself just let's me more most mustn't my myself no nor not now of off on once only or
    other ought our ours ourselves out over own same shan't she she'd she'll she's should shouldn't so
    some such than that that's the their theirs them themselves then there there's these they they'd
    they'll they're they've this those through to too under until up upon us very was wasn't we we'd
    we'll we're we've were weren't what what's when when's where where's which while who who's whom why
    why's will with won't would wouldn't you you'd you'll you're you've your yours yourself yourselves
    said says say one two may might must shall s t d ll m re ve
"""
ENGLISH = frozenset(_ENGLISH_WORDS.split())

LISTS = {"en": ENGLISH, "none": frozenset()}


def get_stop_words(name: str) -> frozenset[str]:
    """Return the named stop-word list; unknown names are an error, not a silent empty list."""
    try:
        return LISTS[name]
    except KeyError:
        raise ValueError(f"unknown stop-word list {name!r}; known: {', '.join(sorted(LISTS))}") from None
