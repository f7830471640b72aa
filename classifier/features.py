"""What a case is made of: the words of an article's core text, and the other conditions news needs.

A rule's condition is one *feature* of the case; the engine only asks whether the case holds it (set
containment), so every kind of condition is a string of its own form:

==================  =====================  ==================================================
kind                feature                a rule on it fires when
==================  =====================  ==================================================
word                ``diabetes``           the core text holds the word
phrase              ``prime minister``     the core text holds the two words one after the other
title word          ``title:measles``      the article's title holds the word
site                ``site:bbc.co.uk``     the article comes from that site (host name)
URL path            ``url:health``         a segment of the article's URL path holds the word
==================  =====================  ==================================================

Words are the filters' tokens (lower case, stop words gone), so a phrase is two words that follow each other
once stop words are gone ("secretary of state" gives ``secretary state``).  With stemming (per knowledge
base, Snowball), every word is reduced to its stem before it becomes a feature, in cases and in conditions
alike, so that a rule on "diabetes" also fires on "diabetic"... where Snowball gives both the same stem.

Pure Python: no Django (the services store the features as the case's keywords).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

__all__ = [
    "FeatureSettings",
    "case_features",
    "describe",
    "kind_of",
    "STEMMERS",
    "stem_words",
    "condition",
    "proper_names",
]

TITLE, SITE, URL = "title:", "site:", "url:"
#: the Snowball stemmers offered (snowballstemmer's names)
STEMMERS = ("english", "french", "german", "spanish", "italian", "dutch", "portuguese")
_WORDS = re.compile(r"[^\W\d_]{2,}")


@dataclass(frozen=True)
class FeatureSettings:
    """How a knowledge base builds its cases: stemming (a Snowball language or None), phrases, scopes."""

    stemming: str | None = None
    phrases: bool = True
    scopes: bool = True

    def __post_init__(self) -> None:
        if self.stemming is not None and self.stemming not in STEMMERS:
            raise ValueError(f"unknown stemming {self.stemming!r}; choose one of {', '.join(STEMMERS)} or none")

    def to_dict(self) -> dict[str, object]:
        return {"stemming": self.stemming, "phrases": self.phrases, "scopes": self.scopes}

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> FeatureSettings:
        unknown = set(data) - {"stemming", "phrases", "scopes"}
        if unknown:
            raise ValueError(f"unknown feature setting(s): {', '.join(sorted(unknown))}")
        stemming = data.get("stemming")
        return cls(
            stemming=str(stemming) if stemming else None,
            phrases=bool(data.get("phrases", True)),
            scopes=bool(data.get("scopes", True)),
        )


@lru_cache(maxsize=8)
def _stemmer(language: str) -> Any:  # snowballstemmer has no type hints
    import snowballstemmer

    return snowballstemmer.stemmer(language)


def stem_words(words: Sequence[str], stemming: str | None) -> list[str]:
    """The words reduced to their Snowball stems (unchanged without stemming)."""
    if not stemming:
        return list(words)
    return list(_stemmer(stemming).stemWords(list(words)))


def _title_words(title: str) -> list[str]:
    return _WORDS.findall(title.lower())


def case_features(
    tokens: Sequence[str],
    *,
    title: str = "",
    url: str = "",
    settings: FeatureSettings = FeatureSettings(),
    stop_words: frozenset[str] = frozenset(),
) -> list[str]:
    """The features of an article's case, sorted and distinct: its words, phrases and scoped words."""
    words = stem_words(tokens, settings.stemming)
    features = set(words)
    if settings.phrases:
        features.update(f"{a} {b}" for a, b in zip(words, words[1:], strict=False) if a != b)
    if settings.scopes:
        title_words = [w for w in _title_words(title) if w not in stop_words]
        features.update(TITLE + w for w in stem_words(title_words, settings.stemming))
        parts = urlsplit(url)
        host = (parts.hostname or "").lower().removeprefix("www.")
        if host:
            features.add(SITE + host)
        path_words = [w for w in _WORDS.findall(parts.path.lower()) if w not in stop_words]
        features.update(URL + w for w in stem_words(path_words, settings.stemming))
    return sorted(features)


#: what may stand between a sentence's end and its first word: closing quotes and brackets, white space,
#: opening quotes and brackets
_SENTENCE_GAP = " \t\"'“”‘’()[]"


#: what joins the parts of a compound word ("Mediterranean-style"): a hyphen, a non-breaking hyphen
_HYPHENS = "-\u2011"
#: a compound's first part right before a word: a word and a hyphen ("Elmstead-" in "Elmstead-based")
_COMPOUND_HEAD = re.compile(r"([^\W\d_]{2,})[" + _HYPHENS + r"]$")
#: a compound's other parts right after its first word ("-style", "-Luc", "-upon-Avon", "-19")
_COMPOUND_TAIL = re.compile(r"(?:[" + _HYPHENS + r"][^\W_]+)+")
#: compounds whose first part says where something is ("London-based", "Uruguayan-born", "London-listed"): a place,
#: so a name (BBC News 2004-05: half the names the compounds rule lost were "X-based")
_PLACE_PARTS = frozenset({"based", "born", "listed"})


def proper_names(text: str, settings: FeatureSettings = FeatureSettings()) -> frozenset[str]:
    """The words ``text`` writes as proper names (towns, people, bodies), as features: capitalised wherever
    it writes them, and at least once inside a sentence, not only at its start where every word is. "Clinics
    open in Elmstead. Elmstead and Oakley ..." -> elmstead, oakley (not clinics). A rough test, for ranking
    suggestions only: a word that opens every sentence it is in counts as no name.

    Compounds (a live trial: "IF style" suggested for a Mediterranean-diet story): a capitalised word written only
    as the first part of a compound whose other parts are lower case ("a Mediterranean-style diet") says what kind
    of thing the story is about, not a place or a person it is set among, and counts as no name (a name made of
    names, "Jean-Luc", "Stratford-upon-Avon", or a place something is based or born in, "London-based", is still
    one); a word the text writes only joined to a name by a hyphen ("the Elmstead-based clinic": based) is part of
    that name, and counts as one, so that a name gives way with its compounds' other parts, never to them (they
    share its every occurrence, so its weight)."""
    lower: set[str] = set()
    inside: set[str] = set()
    free: set[str] = set()  # lower-case words written at least once not joined to a capitalised word
    heads: dict[str, set[str]] = {}  # lower-case word -> the capitalised words it is joined to ("based": elmstead)
    for match in re.finditer(r"[^\W\d_]{2,}", text):
        word = match.group()
        if not word[0].isupper():
            lower.add(word.lower())
            start = match.start()  # the regex only after a hyphen (or a hyphen and a line's end, which "$" allows)
            near = text[max(0, start - 2) : start]
            head = _COMPOUND_HEAD.search(text, max(0, start - 64), start) if "-" in near or "\u2011" in near else None
            if head is not None and head.group(1)[0].isupper():
                heads.setdefault(word.lower(), set()).add(head.group(1).lower())
            else:
                free.add(word.lower())
            continue
        if _modifies_a_compound(text, match.end()):
            continue  # a compound's first part ("Mediterranean-style"): no sign of a name
        before = text[max(0, match.start() - 8) : match.start()].rstrip(_SENTENCE_GAP)
        opening = (not before and match.start() < 8) or before[-1:] in (".", "!", "?", "…", ":", "\n", "\r")
        if not opening:
            inside.add(word.lower())
    names = inside - lower
    bound = {word for word, joined in heads.items() if word not in free and joined <= names}
    return frozenset(stem_words(sorted(names | bound), settings.stemming))


def _modifies_a_compound(text: str, end: int) -> bool:
    """Whether the capitalised word ending at ``end`` opens a compound whose other parts are lower-case words
    ("Mediterranean-style", "Covid-related"): a kind of thing, not a name. A compound of names ("Jean-Luc",
    "Coca-Cola", "Stratford-upon-Avon"), with a number ("COVID-19") or saying where ("London-based") is none."""
    if text[end : end + 1] not in _HYPHENS or not text[end + 1 : end + 2].isalpha():
        return False
    tail = _COMPOUND_TAIL.match(text, end)
    if tail is None:
        return False
    parts = re.split("[" + _HYPHENS + "]", tail.group())[1:]
    return not any(part[:1].isupper() for part in parts) and parts[0].lower() not in _PLACE_PARTS


def condition(text: str, settings: FeatureSettings = FeatureSettings()) -> str:
    """A condition as the expert types it ("Diabetes", "title: Measles", "prime minister") as a feature."""
    text = " ".join(text.split())
    prefix = ""
    for scope in (TITLE, SITE, URL):
        if text.lower().startswith(scope):
            prefix, text = scope, text[len(scope) :].strip()
            break
    if prefix == SITE:
        return SITE + text.lower().removeprefix("www.")
    words = _WORDS.findall(text.lower())
    if not words:
        raise ValueError(f"the condition {text!r} holds no word")
    if prefix and len(words) > 1:
        raise ValueError(f"a {prefix[:-1]} condition is one word, not {text!r}")
    if len(words) > 2:
        raise ValueError(f"a phrase is two words, not {len(words)}: {text!r}")
    return prefix + " ".join(stem_words(words, settings.stemming))


def kind_of(feature: str) -> str:
    """The kind of condition a feature is: "word", "phrase", "title", "site" or "url"."""
    for scope, kind in ((TITLE, "title"), (SITE, "site"), (URL, "url")):
        if feature.startswith(scope):
            return kind
    return "phrase" if " " in feature else "word"


def describe(feature: str) -> str:
    """The condition in words, for rule paths and lists: ``title:measles`` -> ``title has "measles"``."""
    kind = kind_of(feature)
    if kind == "title":
        return f'title has "{feature[len(TITLE) :]}"'
    if kind == "site":
        return f"site is {feature[len(SITE) :]}"
    if kind == "url":
        return f'URL path has "{feature[len(URL) :]}"'
    if kind == "phrase":
        return f'"{feature}"'
    return feature


def features_of_kind(features: Iterable[str], kind: str) -> list[str]:
    return [f for f in features if kind_of(f) == kind]
