"""The noise-filter pipeline of the thesis (Fig. 4), as one pure function.

    HTML source ─► element tree (lxml, tolerant) ─► phrases with tag paths
      ─► phrase-length filter ─► tag filter ─► redundant-phrase filter
      ─► core text ─► tokens ─► stop words removed ─► redundant-word filter

Each phrase keeps the decision taken about it (which filter removed it, or
which positive tag rescued it), so the result can be explained and scored
phrase by phrase (Experiment 1).

Speed matters (every fetched article goes through here): the tree is walked
once (:mod:`filters.lxml_walk` for libxml2's tree, :mod:`filters.html5` for the
HTML5 tree), all per-phrase checks are set lookups, and the text work
(whitespace, tokens, control characters) takes C paths where they give the same
result.  tests/bench/filter_stages.py shows where the time goes stage by stage, by the clock or in instructions
(filters_breakdown.py: the thesis's walk); tests/bench/filters_snapshot.py checks that a change leaves every output
alone.
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from collections.abc import Set
from dataclasses import dataclass, field
from itertools import filterfalse
from typing import Any, cast

from lxml import etree

from . import content, html5, sst, wpnc
from .article_parts import Lead, headline_of, lead
from .charset import charset_from_content_type, control_bytes, decode_html, looks_binary
from .limits import MAX_ATTRIBUTES, MAX_BYTES, MAX_ELEMENTS, ExtractionError, too_deep
from .lxml_walk import segment
from .phrases import Phrase, remove_kept
from .phrases import norm as _norm
from .profiles import Profile, get_profile
from .stopwords import get_stop_words
from .titles import strip_title_affixes

__all__ = ["extract", "Extraction", "Phrase", "ExtractionError", "tokenize", "segment", "parse_html"]


@dataclass
class Extraction:
    """The result of :func:`extract`."""

    title: str = ""
    phrases: list[Phrase] = field(default_factory=list)
    #: core phrases in document order, one per line
    text: str = ""
    #: tokens of the core text after stop-word and redundant-word removal
    tokens: list[str] = field(default_factory=list)
    #: phrases in total, removed by each filter, core, rescued
    counts: dict[str, int] = field(default_factory=dict)
    url: str | None = None
    encoding: str | None = None
    profile: str = ""
    #: the page's block tree (HTML5 walk: tags, parents, main content, the links inside phrases); None
    #: with the libxml2 parser.  Not in ``to_dict``: the phrases' ``node`` indexes it.
    blocks: html5.Blocks | None = None
    #: CST feature weights (filters.sst) of the core tokens, each the largest weight among its occurrences
    #: (1.0: informative; lower: the site repeats it where it stands); empty without a learned style tree
    token_weights: dict[str, float] = field(default_factory=dict)

    @property
    def core_phrases(self) -> list[Phrase]:
        return [p for p in self.phrases if p.removed_by is None]

    @property
    def headline_phrase(self) -> Phrase | None:
        """The article's headline among the core phrases (:func:`filters.article_parts.headline_of`), or None."""
        return headline_of(self.phrases)

    @property
    def headline(self) -> str:
        """The article's headline as the page shows it (:attr:`headline_phrase`), or ``""``; ``title`` is the
        ``<title>``'s."""
        p = self.headline_phrase
        return p.text if p is not None else ""

    @property
    def body(self) -> str:
        """The core text without the headline: the article's body, one phrase per line."""
        head = self.headline_phrase
        if head is None:
            return self.text
        return "\n".join(p.text for p in self.phrases if p.removed_by is None and p is not head)

    @property
    def lead(self) -> Lead:
        """The standfirst, byline and date beside the headline (:class:`filters.article_parts.Lead`)."""
        return lead(self.phrases, self.headline_phrase, self.blocks)

    def explain(self) -> str:
        lines = []
        for i, p in enumerate(self.phrases, 1):
            mark = "+" if p.removed_by is None else "-"
            text = _norm(p.text)
            if len(text) > 160:
                text = text[:157] + "..."
            lines.append(f"{mark} {i:4d} [{p.reason()}] {p.path}\n         {text}")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return {
            "url": self.url,
            "title": self.title,
            "headline": self.headline,
            "profile": self.profile,
            "encoding": self.encoding,
            "counts": dict(self.counts),
            "text": self.text,
            "tokens": list(self.tokens),
            "phrases": [p.to_dict() for p in self.phrases],
            **({"token_weights": dict(self.token_weights)} if self.token_weights else {}),
        }


def _empty_counts() -> dict[str, int]:
    return {"total": 0, "length": 0, "tag": 0, "redundancy": 0, "core": 0, "rescued": 0}


# --------------------------------------------------------------------------- parsing

_TAG_RE = re.compile(r"<[A-Za-z!?/]")


def _count_controls(text: str, bound: int) -> int:
    """How many control characters the first ``bound`` characters of ``text`` hold."""
    loops = html5.COMPILED_LOOPS
    if loops is not None:  # counted in the string itself, in C (the same count: _compiled_loops.control_count)
        return cast(int, loops.control_count(text, bound))
    # counted in the UTF-8 bytes, where each control character is one byte
    return control_bytes(text[:bound].encode("utf-8", "surrogatepass"))


_BOM_PREFIXES = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")
_local = threading.local()

#: only tags this long can hold that many attributes, so the check looks at no other (found by tag_scan)
_LONG_TAG = re.compile(rb"<[A-Za-z][^>]{%d,}" % (2 * MAX_ATTRIBUTES))
_QUOTED = re.compile(rb"\"[^\"]*\"|'[^']*'")
#: tags above which a page may be a tag bomb, nested past MAX_DEPTH, and is first read by libxml2, which reads
#: any depth fast and reports it (none of 1,720 benchmark pages has this many; lexbor parses 10,000 nested
#: <div> in 65 ms, 30,000 in 1.5 s, 100,000 in 26 s whether they are closed or not)
_DEEP_HINT = 10_000


def _refuse_oversized(size: int) -> None:
    if size > MAX_BYTES:
        raise ExtractionError(
            f"input is not a readable HTML page: {size:,} bytes, more than {MAX_BYTES:,}", "too_large"
        )


def tag_scan(data: bytes) -> tuple[int, list[tuple[int, int]]]:
    """The page's count of ``<`` and the spans of its tags long enough to hold MAX_ATTRIBUTES attributes (the
    matches of ``_LONG_TAG``): in one C pass where the loops are compiled (``_compiled_loops.tag_scan``)."""
    loops = html5.COMPILED_LOOPS
    if loops is not None:
        return cast(tuple[int, list[tuple[int, int]]], loops.tag_scan(data, 2 * MAX_ATTRIBUTES))
    return data.count(b"<"), [match.span() for match in _LONG_TAG.finditer(data)]


def _utf8(text: str) -> bytes | None:
    """``text.encode("utf-8")``, None where that raises (lone surrogates): in C where the loops are compiled
    (``_compiled_loops.utf8``, 8.5 x faster on the median non-ASCII page; most of the input checks' time)."""
    loops = html5.COMPILED_LOOPS
    if loops is not None:
        return cast("bytes | None", loops.utf8(text))
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return None


def _refuse_attribute_bombs(data: bytes, long_tags: list[tuple[int, int]]) -> None:
    """Raise ExtractionError for an element with more than MAX_ATTRIBUTES attributes, before lxml parses it
    (``long_tags``: the spans of the tags that may hold that many, :func:`tag_scan`)."""
    for start, end in long_tags:
        # names and unquoted values, with quoted values (long alt texts, data: URIs) left out
        tokens = len(_QUOTED.sub(b" ", data[start:end]).replace(b"=", b" ").split()) - 1
        if tokens > 2 * MAX_ATTRIBUTES:  # name=value counts twice
            raise ExtractionError(
                f"input is not a readable HTML page: an element with more than {MAX_ATTRIBUTES:,} attributes "
                f"(at byte {start:,})",
                "too_many_attributes",
            )


def _parser() -> etree.HTMLParser:
    # lxml parsers must not be shared between threads; one per thread is cheap.
    p: etree.HTMLParser | None = getattr(_local, "parser", None)
    if p is None:
        # huge_tree: a 50 MB page with long text nodes must not be cut short by
        # libxml2's safety limits (the HTML parser does not expand entities).
        # collect_ids off: no table of id attributes, which nothing here looks up (~4% of parsing).
        p = _local.parser = etree.HTMLParser(encoding="utf-8", huge_tree=True, no_network=True, collect_ids=False)
    return p


def page_text(
    html: str | bytes, *, content_type: str | None = None, charset: str | None = None
) -> tuple[str, bytes, str | None]:
    """Check the input; return it as text, as the UTF-8 bytes the parser reads, and the charset used.

    NUL characters are dropped from both (libxml2 would stop at the first).  The charset is None
    for str input.
    """
    text, data, encoding, _exact, _tags = _page_text(html, content_type=content_type, charset=charset)
    return text, data, encoding


def _page_text(
    html: str | bytes, *, content_type: str | None = None, charset: str | None = None
) -> tuple[str, bytes, str | None, bool, int]:
    """:func:`page_text`, whether the bytes are exactly the text's UTF-8 (False: lone surrogates replaced), and
    their count of ``<`` (the door's tag count, which the HTML5 tree reuses)."""
    if isinstance(html, (bytes, bytearray, memoryview)):
        data = bytes(html)
        _refuse_oversized(len(data))
        if not data.startswith(_BOM_PREFIXES):
            what = looks_binary(data, charset or charset_from_content_type(content_type))
            if what:
                raise ExtractionError(f"input is not an HTML page: it looks like {what}")
        text, encoding = decode_html(data, content_type=content_type, charset=charset)
    elif isinstance(html, str):
        text, encoding = html, None
        head = min(len(text), 8192)
        if head and _count_controls(text, head) > head // 10:
            raise ExtractionError("input is not an HTML page: it looks like binary data (many control characters)")
    else:
        raise ExtractionError(f"html must be str or bytes, not {type(html).__name__}")
    encoded = _utf8(text)
    exact = encoded is not None  # False: lone surrogates (str input only), replaced
    data = encoded if encoded is not None else text.encode("utf-8", "replace")
    _refuse_oversized(len(data))
    tags, long_tags = tag_scan(data)
    if tags > MAX_ELEMENTS:
        raise ExtractionError(
            f"input is not a readable HTML page: more than {MAX_ELEMENTS:,} tags ({tags:,})", "too_many_tags"
        )
    _refuse_attribute_bombs(data, long_tags)
    # looked for in the bytes: in a str with non-Latin-1 characters, "\x00" in text scans ~20x slower
    if b"\x00" in data:
        text = text.replace("\x00", "")
        data = data.replace(b"\x00", b"")
    return text, data, encoding, exact, tags


def parse_html(text: str | bytes) -> etree._Element | None:
    """Parse page text (or its UTF-8 bytes) with lxml's tolerant HTML parser; None for a document without elements."""
    data = text.encode("utf-8", "replace") if isinstance(text, str) else text
    parser = _parser()
    try:
        root = etree.fromstring(data, parser)
    except etree.ParserError:  # "Document is empty" and friends
        return None
    except etree.XMLSyntaxError as exc:  # recover=True makes this rare: libxml2 out of memory, mostly
        if parser.error_log.filter_types([etree.ErrorTypes.ERR_NO_MEMORY]):
            # the worker's memory cap (wims/worker.py), not the page's fault: the task fails with "memory limit"
            raise MemoryError("libxml2 ran out of memory reading the page") from exc
        raise ExtractionError(f"HTML could not be parsed: {exc}", "unparsable") from exc
    if parser.error_log.filter_types([etree.ErrorTypes.ERR_RESOURCE_LIMIT]):
        # a tag bomb (or thousands of unclosed tags): what lies deeper is silently gone from the tree
        raise too_deep()
    return root


# --------------------------------------------------------------------------- filters


def apply_filters(phrases: list[Phrase], profile: Profile, filtering_phrases: Set[str] | None = None) -> dict[str, int]:
    """Run the length, tag and redundant-phrase filters in the thesis's order.

    Sets ``removed_by`` / ``rescued_by`` on each phrase and returns the counts.
    A positive tag rescues a phrase from the filters listed in
    ``profile.rescue_from``; the first filter that removes it is recorded.
    """
    min_length = profile.min_length
    rescue = frozenset(profile.rescue_from)
    r_len, r_tag, r_red = "length" in rescue, "tag" in rescue, "redundancy" in rescue
    max_ld = profile.max_link_density
    if max_ld is None:
        max_ld = 0.999  # block phrases without a density setting: only runs made wholly of links
    redundant = frozenset(profile.filtering_phrases) if filtering_phrases is None else filtering_phrases
    c_len = c_tag = c_red = c_resc = 0
    for ph in phrases:
        pos = ph.pos
        rescued = None
        if len(ph.text) < min_length:
            if pos and r_len:
                rescued = pos
            else:
                ph.removed_by = "length"
                c_len += 1
                continue
        ld = ph.link_density
        if ph.neg or (ld is not None and ld > max_ld):
            if pos and r_tag:
                rescued = pos
            else:
                ph.removed_by = "tag"
                c_tag += 1
                continue
        if redundant and ph.text in redundant:
            if pos and r_red:
                rescued = pos
            else:
                ph.removed_by = "redundancy"
                c_red += 1
                continue
        ph.removed_by = None
        ph.rescued_by = rescued
        if ph.neg and len(ph.text) >= 1000:  # a long negative-tag text kept by a positive tag
            ph.text = _norm(ph.text)
        if rescued:
            c_resc += 1
    total = len(phrases)
    return {
        "total": total,
        "length": c_len,
        "tag": c_tag,
        "redundancy": c_red,
        "core": total - c_len - c_tag - c_red,
        "rescued": c_resc,
    }


def segment_page(page: Page, profile: Profile) -> tuple[list[Phrase], str, Any]:
    """The page's phrases, its title and (HTML5 parser) its block tree, for ``profile``'s parser.

    The block tree is None with the libxml2 parser; empty pages give no phrases.
    """
    if profile.parser == "html5":
        tree = page.tree
        if tree is None:
            return [], "", html5.Blocks()
        if profile.method == "wpnc":
            return wpnc.segment(tree, profile)
        phrases, title, blocks = html5.segment(tree, profile)
        return phrases, title, blocks
    root = page.root
    if root is None:
        return [], "", None
    phrases, title = segment(root, profile)
    return phrases, title, None


def decide(
    phrases: list[Phrase],
    profile: Profile,
    blocks: Any = None,
    title: str = "",
    filtering_phrases: Set[str] | None = None,
) -> dict[str, int]:
    """Every filter stage of ``profile`` on the phrases of one page: main-content detection and the thesis's
    filters in context (HTML5 profiles, :func:`filters.content.decide`), the thesis's filters alone, or
    Bhamare & Pawar's text-density white and black lists (``method="wpnc"``, :func:`filters.wpnc.decide`); with a
    learned style tree (HTML5 profiles), the site's template blocks first (:func:`decide_style_tree`)."""
    if profile.method == "wpnc":
        return wpnc.decide(phrases, blocks if blocks is not None else html5.Blocks(), profile, title, filtering_phrases)
    if profile.parser == "html5":
        if blocks is None:
            blocks = html5.Blocks()
        if profile.style_tree:
            return decide_style_tree(phrases, profile, blocks, title, filtering_phrases)[0]
        return content.decide(phrases, blocks, profile, title, filtering_phrases)
    return apply_filters(phrases, profile, filtering_phrases)


#: False: main-content detection runs on the whole page, as for a single page, and the style tree removes
#: only from what it kept (site learning never moves the main content: removed first, a template comment
#: module beside the article lifted the container of the article and of the next stories' blurbs above the
#: article; tuning split 0.9505 against 0.9507 first); True: the style tree's removals come first
STYLE_TREE_FIRST = False
STYLE_TREE_NOTE = "site template (style tree)"
STYLE_TREE_REDUNDANT = "repeated in its place on the site's pages (style tree)"


def decide_style_tree(
    phrases: list[Phrase],
    profile: Profile,
    blocks: html5.Blocks,
    title: str = "",
    filtering_phrases: Set[str] | None = None,
) -> tuple[dict[str, int], list[Any]]:
    """:func:`filters.content.decide` with the site's style tree (:mod:`filters.sst`): a phrase whose block
    maps onto a noisy node, or that is content-redundant in its node, is removed by "redundancy" with the
    note saying so.  Returns the counts and each block's mapped state (for the token weights)."""
    state = sst.map_blocks(profile.style_tree, blocks.tags, blocks.parents, blocks.marks, blocks.ends)
    template: list[Phrase] = []
    kept: list[Phrase] = []
    for ph in phrases:
        i = ph.node
        found = state[i] if i >= 0 and ph.neg is None else None
        if found is None:
            kept.append(ph)
        elif found.__class__ is int:  # sst.NOISY
            template.append(ph)
            ph.note = STYLE_TREE_NOTE
        elif ph.text in found.get("r", ()):
            template.append(ph)
            ph.note = STYLE_TREE_REDUNDANT
        else:
            kept.append(ph)
    if not template:
        return content.decide(phrases, blocks, profile, title, filtering_phrases), state
    if STYLE_TREE_FIRST:
        counts = content.decide(kept, blocks, profile, title, filtering_phrases)
        for ph in template:
            ph.removed_by, ph.rescued_by = "redundancy", None
    else:
        notes = [ph.note for ph in template]
        counts = content.decide(phrases, blocks, profile, title, filtering_phrases)
        for ph, note in zip(template, notes, strict=True):
            if ph.removed_by == "redundancy":  # the site's redundant phrases found it too: the style tree says where
                ph.note = note
                continue
            if ph.removed_by is not None:  # removed by main-content detection already
                continue
            remove_kept(ph, "redundancy", note, counts)
        return counts, state
    counts["total"] += len(template)
    counts["redundancy"] += len(template)
    return counts, state


def token_weights(
    phrases: list[Phrase], state: list[Any], tokens: list[str], stop_words: frozenset[str]
) -> dict[str, float]:
    """The CST weight of each core token (:mod:`filters.sst`): the largest among its occurrences, 1.0 where
    its block stores no lower weight."""
    low: dict[str, float] = {}  # per token, the largest stored weight among its occurrences in weighted blocks
    # the words of the phrases in weighted blocks (each once, and its block's weights): only read again for the
    # tokens with a stored weight, which the usual page has none of (counting them all was a fifth of the work)
    weighted: list[tuple[list[str], set[str], dict[str, float]]] = []
    for ph in phrases:
        i = ph.node
        if ph.removed_by is not None or i < 0:
            continue
        found = state[i]
        if found is None or found.__class__ is int:
            continue
        weights = found.get("f")
        if not weights:
            continue
        words = tokenize(ph.text, stop_words)
        distinct = set(words)
        weighted.append((words, distinct, weights))
        for tok in distinct.intersection(weights):
            w = weights[tok]
            if w > low.get(tok, -1.0):
                low[tok] = w
    out = dict.fromkeys(tokens, 1.0)
    if not low:  # the usual page: its weighted blocks store no weight for its words (no count needed)
        return out
    counts = Counter(tokens)
    seen: Counter[str] = Counter()  # occurrences in weighted blocks
    for words, _distinct, _weights in weighted:
        seen.update(words)
    for t, w in low.items():
        c = counts.get(t)
        if c is not None and seen[t] >= c:
            # an occurrence in a weighted block that stores no weight for it weighs 1.0
            unweighted = any(t in distinct and t not in weights for _words, distinct, weights in weighted)
            out[t] = max(w, 1.0) if unweighted else w
    return out


_TOKEN_RE = re.compile(r"[^\W\d_]{2,}")
#: a letter outside ASCII (what the Unicode class matches beyond [a-z] in lower-cased text)
_NON_ASCII_LETTER_RE = re.compile(r"[^\W\d_\x00-\x7f]")
_ASCII_BYTES = bytes(range(128))
#: bytes.translate table: a-z kept, every other byte a space
_LETTERS_ONLY = bytes(c if 97 <= c <= 122 else 32 for c in range(256))
#: the same, but the bytes of UTF-8 sequences (non-ASCII characters) kept as well
_LETTERS_AND_NON_ASCII = bytes(c if 97 <= c <= 122 or c >= 128 else 32 for c in range(256))
_SINGLE_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyz")
_DROP_CACHE: dict[frozenset[str], frozenset[str]] = {}


def tokenize(text: str, stop_words: frozenset[str] = frozenset()) -> list[str]:
    """Lower-cased words of two letters or more (no digits) that are not stop words.

    A word is a maximal run of letters (the Unicode class ``[^\\W\\d_]``).  The same words are found with
    as little of the regex engine as possible: every ASCII byte but a-z becomes a space and ``split()``
    cuts (Unicode white space, never a letter, cuts too); a piece made of a-z only is a word (one-letter
    words go with the stop words).  When no letter is outside ASCII (most English pages) that is all, and
    twice as fast as the regex; otherwise only the pieces with a character outside ASCII go through the
    regex (several times faster than the regex over the whole text).
    """
    drop = _DROP_CACHE.get(stop_words) if isinstance(stop_words, frozenset) else None
    if drop is None:
        drop = frozenset(stop_words) | _SINGLE_LETTERS
        if isinstance(stop_words, frozenset) and len(_DROP_CACHE) < 16:
            _DROP_CACHE[stop_words] = drop
    compiled = html5.COMPILED_TOKENS
    if compiled is not None:  # the same words in one pass in C, lower-cased as read (a quarter fewer instructions)
        return cast(list[str], compiled.tokenize(text, drop, stop_words, _TOKEN_RE.findall))
    return _tokenize(text.lower(), drop, stop_words)


def _tokenize(text: str, drop: frozenset[str], stop_words: frozenset[str]) -> list[str]:
    """:func:`tokenize` in Python, for lower-cased ``text`` (``drop``: the stop words and the single letters)."""
    if text.isascii():
        words = text.encode("ascii").translate(_LETTERS_ONLY).decode("ascii").split()
        return list(filterfalse(drop.__contains__, words))
    data = text.encode("utf-8", "surrogatepass")  # encoded once for both paths
    # only the non-ASCII characters, found in C
    if _NON_ASCII_LETTER_RE.search(data.translate(None, _ASCII_BYTES).decode("utf-8", "surrogatepass")) is None:
        # no letter outside ASCII (curly quotes, dashes and no-break spaces are separators either way: each byte
        # of their UTF-8 becomes a space)
        words = data.translate(_LETTERS_ONLY).decode("ascii").split()
        return list(filterfalse(drop.__contains__, words))
    # a piece's ends are ASCII non-letters or white space: no letter run crosses them, so the words of the
    # text are the pieces' words in order
    pieces = data.translate(_LETTERS_AND_NON_ASCII).decode("utf-8", "surrogatepass").split()
    out: list[str] = []
    for piece in pieces:
        if piece.isascii():
            if piece not in drop:
                out.append(piece)
        else:
            out.extend(filterfalse(stop_words.__contains__, _TOKEN_RE.findall(piece)))
    return out


def remove_words(tokens: list[str], filtering_words: dict[str, int]) -> list[str]:
    """Redundant-word filter: drop up to ``filtering_words[w]`` occurrences of each word w.

    Multiset difference that keeps the order of the remaining tokens:
    ``[a,a,c,f,f,g,h] - {a,c,f,f}`` gives ``[a,g,h]``; ``tokens`` itself when there are no filtering words (the
    usual profile: no copy).
    """
    if not filtering_words:
        return tokens
    budget = dict(filtering_words)
    out = []
    for tok in tokens:
        left = budget.get(tok)
        if left:
            budget[tok] = left - 1
            continue
        out.append(tok)
    return out


# --------------------------------------------------------------------------- API


class Page:
    """A page read once: its text, the charset it was decoded with, and its trees, each parsed when first asked.

    :func:`extract` takes one as well as raw text or bytes, so that a caller that also reads the page's
    metadata (WIMS's processing: canonical link, publication date) decodes and parses it only once.
    ``root`` is libxml2's tree (lxml; the ``thesis`` profile and XPath readers), ``tree`` the HTML5 tree
    (lexbor; the other profiles); both are None for a page without elements.
    """

    __slots__ = ("text", "data", "encoding", "_root", "_tree", "_exact", "_tags")

    def __init__(
        self, text: str, data: bytes, encoding: str | None, exact: bool = False, tags: int | None = None
    ) -> None:
        self.text = text
        self.data = data
        self.encoding = encoding
        # data is exactly the text's UTF-8: lexbor reads it as it is instead of encoding the text again
        # (False: lone surrogates were replaced in data, where lexbor's own encoding drops them)
        self._exact = exact
        self._tags = tags  # the door's count of "<" (read_page), or None: counted when needed
        self._root: etree._Element | None | bool = False  # False: not parsed yet
        self._tree: Any = False

    @property
    def empty(self) -> bool:
        return not self.text or self.text.isspace()

    @property
    def root(self) -> etree._Element | None:
        if self._root is False:
            self._root = None if self.empty else parse_html(self.data)
        return cast("etree._Element | None", self._root)

    @property
    def tree(self) -> Any:
        """The HTML5 tree (a selectolax ``LexborHTMLParser``), or None for an empty page."""
        if self._tree is False:
            if self.empty:
                self._tree = None
            else:
                tags = self.data.count(b"<") if self._tags is None else self._tags
                if tags > _DEEP_HINT:
                    # maybe a tag bomb, closed or not: lexbor's time grows with the square of the depth;
                    # libxml2 reads it fast and refuses it (ExtractionError). The walk refuses the rest.
                    parse_html(self.data)
                self._tree = html5.parse(self.data if self._exact else self.text)
        return self._tree


def read_page(html: str | bytes, *, content_type: str | None = None, charset: str | None = None) -> Page:
    """Decode and check a page (see :func:`extract` for ``content_type`` and ``charset``).

    Empty input gives a page without a tree; input that is not HTML raises :class:`ExtractionError`.
    """
    text, data, encoding, exact, tags = _page_text(html, content_type=content_type, charset=charset)
    if text and not text.isspace() and not _TAG_RE.search(text):
        raise ExtractionError("input is not an HTML page: it contains no tags")
    return Page(text, data, encoding, exact, tags)


def extract(
    html: str | bytes | Page,
    *,
    url: str | None = None,
    profile: Profile | str | dict[str, Any] | None = None,
    content_type: str | None = None,
    charset: str | None = None,
) -> Extraction:
    """Extract the core content of one page.

    ``html``: the page as text, or as bytes whose charset is found from the
    BOM, ``charset`` / ``content_type`` (the HTTP header value), ``<meta
    charset>``, then detection; or a :class:`Page` already read by
    :func:`read_page`.  ``profile``: a :class:`Profile`, a dict from
    ``Profile.to_dict()`` or a built-in name (``"thesis"``, ``"default"``).

    Empty input gives an empty :class:`Extraction`; input that is not HTML
    raises :class:`ExtractionError`.
    """
    prof = get_profile(profile)
    page = html if isinstance(html, Page) else read_page(html, content_type=content_type, charset=charset)
    result = Extraction(url=url, encoding=page.encoding, profile=prof.name, counts=_empty_counts())
    phrases, title, blocks = segment_page(page, prof)
    if not phrases and not title:
        return result
    state = None
    if prof.style_tree and blocks is not None:
        counts, state = decide_style_tree(phrases, prof, blocks, title)
    else:
        counts = decide(phrases, prof, blocks, title)
    kept = [p for p in phrases if p.removed_by is None]
    core_text = "\n".join([p.text for p in kept])
    stop_words = get_stop_words(prof.stop_words)
    tokens = tokenize(core_text, stop_words)
    tokens = remove_words(tokens, prof.filtering_words)
    if state is not None:  # the kept phrases only (the others have no tokens), listed once for both
        result.token_weights = token_weights(kept, state, tokens, stop_words)
    result.title = strip_title_affixes(title, prof.title_prefix, prof.title_suffix)
    result.phrases = phrases
    result.text = core_text
    result.tokens = tokens
    result.counts = counts
    result.blocks = blocks
    return result
