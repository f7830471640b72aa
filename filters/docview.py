"""DocView elements of an article (Zhang, Chen & Li 2004, section 6), computed from its core content.

* **keywords**: terms weighted by where they occur (the paper's block weights: the headline and the
  sub-headings weigh more than body text, the lead more than the rest) times an inverse document
  frequency, normalised as the paper's formula 2; the document frequencies are the caller's (WIMS: the
  classifier's keyword index, see :meth:`DocView.keywords`);
* **abstract**: the most central sentences of the core text (each sentence's mean cosine similarity to
  the others, the lead favoured), in document order, a few hundred characters;
* **relevant links**: the hyperlinks inside the topic content (the HTML5 walk's ``Blocks.links`` whose
  block holds a core phrase containing the anchor text), resolved against the article's URL;
* **fingerprint**: a MinHash signature of the core text's word 3-shingles, with LSH band keys, so that a
  re-publication with a changed byline or date is found as a near-duplicate (resemblance), not only an
  exact copy.

Pure Python (no Django): :func:`docview` takes an :class:`~filters.pipeline.Extraction`.
"""

from __future__ import annotations

import hashlib
import math
import re
import struct
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit, urlunsplit

from .pipeline import Extraction, tokenize

__all__ = [
    "DocView",
    "docview",
    "abstract",
    "relevant_links",
    "term_weights",
    "keywords",
    "sentences",
    "fingerprint",
    "band_keys",
    "resemblance",
    "NEAR_DUPLICATE",
]

#: keywords kept (the paper's lambda)
KEYWORDS = 10
#: the abstract's length budget, in characters
ABSTRACT_CHARS = 400
#: relevant links kept per article
LINKS = 30

# Block weights (the paper's "force" of weighty tags, section 3.2, simplified to what the phrases carry):
# a term in the headline says more about the article than one in a sub-heading, which says more than one in
# body text; news leads state the story, so the first body phrase weighs a little more too.
HEADLINE_WEIGHT = 3.0
HEADING_WEIGHT = 2.0
LEAD_WEIGHT = 1.5
_HEADINGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))
#: a text that ends as a sentence does (bylines, date lines and menu items do not)
_ENDED = re.compile(r"[.!?…][\"'”’)\]]*$")

# --------------------------------------------------------------------------- keywords


def _block_tag(path: str) -> str:
    return path.rsplit("/", 1)[-1]


def term_weights(extraction: Extraction) -> dict[str, float]:
    """Each kept term's frequency in the core phrases, each occurrence counted with its block's weight.

    Terms are the extraction's tokens (stop words and the site's redundant words are not in them).
    """
    vocabulary = set(extraction.tokens)
    if not vocabulary:
        return {}
    headline = extraction.title.casefold()
    weights: dict[str, float] = {}
    lead_seen = False
    for phrase in extraction.core_phrases:
        tag = _block_tag(phrase.path)
        if tag in _HEADINGS:
            is_headline = bool(headline) and phrase.text.casefold() in headline
            weight = HEADLINE_WEIGHT if is_headline else HEADING_WEIGHT
        elif not lead_seen and len(phrase.text) >= 40 and _ENDED.search(phrase.text):  # not a byline
            weight, lead_seen = LEAD_WEIGHT, True
        else:
            weight = 1.0
        for term in tokenize(phrase.text):
            if term in vocabulary:
                weights[term] = weights.get(term, 0.0) + weight
    return weights


def keywords(
    weights: Mapping[str, float], document_frequency: Mapping[str, int], documents: int, limit: int = KEYWORDS
) -> list[tuple[str, float]]:
    """The ``limit`` terms of highest weight x idf, with their weights normalised as the paper's formula 2.

    ``document_frequency``: in how many of ``documents`` other documents each term occurs (a term missing
    from it occurs in none).  idf is the smoothed ``ln((1 + N) / (1 + df)) + 1``: never zero, so that with
    no documents yet the keywords are the block-weighted frequencies alone.  Ties go alphabetically.
    """
    scored = {
        term: w * (math.log((1 + documents) / (1 + document_frequency.get(term, 0))) + 1.0)
        for term, w in weights.items()
    }
    norm = math.sqrt(sum(v * v for v in scored.values()))
    if not norm:
        return []
    ranked = sorted(scored.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]
    return [(term, round(value / norm, 4)) for term, value in ranked]


# --------------------------------------------------------------------------- abstract

# a sentence ends at . ! ? (and closing quotes or brackets) before white space and a capital, digit or quote
_SENTENCE_END = re.compile(r"[.!?][\"'”’)\]]*(?=\s+[\"'“‘(\[]?[A-Z0-9À-Þ])")
_ABBREVIATIONS = frozenset(
    [
        "mr",
        "mrs",
        "ms",
        "dr",
        "prof",
        "st",
        "sr",
        "jr",
        "vs",
        "no",
        "fig",
        "gen",
        "sen",
        "rep",
        "gov",
        "mt",
        "inc",
        "ltd",
        "co",
        "corp",
    ]
)


def sentences(text: str) -> list[str]:
    """The sentences of one paragraph (not split after common abbreviations such as "Dr.")."""
    out: list[str] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        words = text[start : match.start()].rsplit(None, 1)
        last = words[-1].rsplit(".", 1)[-1].casefold() if words else ""
        if match.group()[0] == "." and (last in _ABBREVIATIONS or (len(last) == 1 and last.isalpha())):
            continue  # "Dr. Ali", "J. Smith", "the U.K. rate"
        out.append(text[start : match.end()].strip())
        start = match.end()
    rest = text[start:].strip()
    if rest:
        out.append(rest)
    return [s for s in out if s]


def _cosine(a: Counter[str], b: Counter[str]) -> float:
    if len(a) > len(b):
        a, b = b, a
    dot = sum(v * b[t] for t, v in a.items() if t in b)
    if not dot:
        return 0.0
    return dot / math.sqrt(sum(v * v for v in a.values()) * sum(v * v for v in b.values()))


def abstract(extraction: Extraction, limit: int = ABSTRACT_CHARS) -> str:
    """The most central sentences of the core text, in document order, within ``limit`` characters.

    A sentence's centrality is its mean cosine similarity (term vectors of kept tokens) to the other
    sentences: a sentence that shares the article's vocabulary states what the article is about.  The
    lead is favoured (the score is multiplied by 1 + 1/(1 + position)), as news leads summarise the story.
    Headings, phrases of fewer than five words and, when the text has sentences ending with a full stop,
    phrases without one (bylines, date lines, list items) are not sentences here.  A first
    sentence longer than ``limit`` is cut at a word boundary.  '' for an article without sentences.
    """
    vocabulary = set(extraction.tokens)
    found: list[tuple[str, Counter[str]]] = []
    for phrase in extraction.core_phrases:
        if _block_tag(phrase.path) in _HEADINGS or len(phrase.text.split()) < 5:
            continue
        for sentence in sentences(phrase.text):
            terms = Counter(t for t in tokenize(sentence) if t in vocabulary)
            if terms and len(sentence.split()) >= 5:
                found.append((sentence, terms))
    # sentences end with a full stop: a byline, a date line or a list item of a few words does not
    ended = [item for item in found if _ENDED.search(item[0])]
    found = ended or found
    if not found:
        return ""
    n = len(found)
    scores = []
    for i, (_, terms) in enumerate(found):
        centrality = sum(_cosine(terms, other) for j, (_, other) in enumerate(found) if j != i) / max(1, n - 1)
        scores.append((centrality if n > 1 else 1.0) * (1.0 + 1.0 / (1 + i)))
    chosen: list[int] = []
    used = 0
    for i in sorted(range(n), key=lambda k: (-scores[k], k)):
        size = len(found[i][0]) + (1 if chosen else 0)
        if used + size <= limit:
            chosen.append(i)
            used += size
    if not chosen:  # the best sentence alone is too long: its beginning
        text = found[min(range(n), key=lambda k: (-scores[k], k))][0]
        cut = text[: limit - 1]
        space = cut.rfind(" ")
        return (cut[:space] if space > limit // 2 else cut).rstrip(" ,;:") + "…"
    return " ".join(found[i][0] for i in sorted(chosen))


# --------------------------------------------------------------------------- relevant links


def _without_fragment(url: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc.lower(), parts.path or "/", parts.query, ""))


def relevant_links(extraction: Extraction, limit: int = LINKS) -> list[tuple[str, str]]:
    """The hyperlinks of the topic content: ``(absolute URL, anchor text)`` in document order, each URL once.

    A link counts when its block holds a core phrase that contains its anchor text (a link in a removed
    related-stories list or in the page's chrome does not).  Resolved against the article's URL; only
    http(s) links to another page are kept (no ``javascript:``, ``mailto:``, fragment-only or same-page
    links).  Empty for pages read without the HTML5 walk (the ``thesis`` profile keeps no links).
    """
    blocks = extraction.blocks
    if blocks is None or not blocks.links:
        return []
    core_by_block: dict[int, list[str]] = {}
    for phrase in extraction.core_phrases:
        core_by_block.setdefault(phrase.node, []).append(phrase.text)
    base = extraction.url or ""
    here = _without_fragment(base) if base else None
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    for block, href, anchor in blocks.links:
        texts = core_by_block.get(block)
        if not texts or not any(anchor in text for text in texts):
            continue
        href = href.strip()
        if not href or href.startswith("#"):
            continue
        try:
            url = urljoin(base, href) if base else href
            parts = urlsplit(url)
        except ValueError:  # an unreadable URL ("http://[x"): not a link
            continue
        if parts.scheme not in ("http", "https") or not parts.netloc:
            continue
        if _without_fragment(url) == here or url in seen:
            continue
        seen.add(url)
        out.append((url, anchor))
        if len(out) >= limit:
            break
    return out


# --------------------------------------------------------------------------- near-duplicates

#: MinHash values per signature, and how they are cut into LSH bands (BANDS x ROWS = PERMUTATIONS)
PERMUTATIONS = 64
BANDS, ROWS = 16, 4
SHINGLE = 3
#: two texts whose estimated resemblance (Jaccard of shingle sets) reaches this are the same article.
#: On the demo pool (48 articles of about 180 words), a changed byline and date leaves 0.81 or more; two
#: different articles sharing a topic reach 0.08 at most.  With 16 bands of 4 rows, a pair at 0.5 is a
#: candidate with probability 0.64, at 0.8 with 0.9999, at 0.1 with 0.002.
NEAR_DUPLICATE = 0.5
_SIGNATURE = struct.Struct(f"<{PERMUTATIONS}I")
_WORD = re.compile(r"\w+")


def shingles(text: str, size: int = SHINGLE) -> set[str]:
    """The text's word ``size``-shingles (case-folded words; a shorter text is one shingle)."""
    words = _WORD.findall(text.casefold())
    if len(words) <= size:
        return {" ".join(words)} if words else set()
    return {" ".join(words[i : i + size]) for i in range(len(words) - size + 1)}


def fingerprint(text: str) -> tuple[int, ...]:
    """The MinHash signature of the text's shingles: PERMUTATIONS 32-bit values; () for a text without words.

    Each shingle is hashed once into PERMUTATIONS independent 32-bit values (SHAKE-128 output cut in
    pieces); the signature is their minimum per position (about 1 ms for a 1,000-word article).
    """
    unpack = _SIGNATURE.unpack
    rows = [
        unpack(hashlib.shake_128(s.encode("utf-8", "surrogatepass")).digest(_SIGNATURE.size)) for s in shingles(text)
    ]
    if not rows:
        return ()
    return tuple(map(min, zip(*rows, strict=True)))


def fingerprint_bytes(signature: Iterable[int]) -> bytes:
    values = tuple(signature)
    return _SIGNATURE.pack(*values) if values else b""


def fingerprint_from_bytes(data: bytes | memoryview | None) -> tuple[int, ...]:
    data = bytes(data or b"")
    return _SIGNATURE.unpack(data) if len(data) == _SIGNATURE.size else ()


def band_keys(signature: tuple[int, ...]) -> list[int]:
    """One signed 64-bit key per LSH band (the band's number and values hashed): two signatures that agree
    on a whole band share its key, so near-duplicates are found by an index lookup, not by comparing all
    pairs."""
    if len(signature) != PERMUTATIONS:
        return []
    keys = []
    for band in range(BANDS):
        values = signature[band * ROWS : (band + 1) * ROWS]
        digest = hashlib.blake2b(struct.pack(f"<B{ROWS}I", band, *values), digest_size=8).digest()
        keys.append(int.from_bytes(digest, "big", signed=True))
    return keys


def resemblance(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    """Estimated Jaccard resemblance of two texts' shingle sets from their signatures (0.0 if either is empty)."""
    if not a or len(a) != len(b):
        return 0.0
    return sum(x == y for x, y in zip(a, b, strict=True)) / len(a)


# --------------------------------------------------------------------------- all of it


@dataclass
class DocView:
    """The DocView elements of one article that its page alone gives (keywords need document frequencies)."""

    abstract: str = ""
    links: list[tuple[str, str]] = field(default_factory=list)
    #: block-weighted term frequencies, the input of :meth:`keywords`
    weights: dict[str, float] = field(default_factory=dict)
    fingerprint: tuple[int, ...] = ()

    def keywords(
        self, document_frequency: Mapping[str, int], documents: int, limit: int = KEYWORDS
    ) -> list[tuple[str, float]]:
        return keywords(self.weights, document_frequency, documents, limit)


def docview(extraction: Extraction) -> DocView:
    """Abstract, relevant links, term weights and fingerprint of an extraction's core content."""
    return DocView(
        abstract=abstract(extraction),
        links=relevant_links(extraction),
        weights=term_weights(extraction),
        fingerprint=fingerprint(extraction.text),
    )
