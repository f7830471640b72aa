"""The Site Style Tree (Yi, Liu and Li 2003) and the Compressed Structure Tree's feature weights (Yi 2004).

A site's pages share a template: the same blocks, presented the same way, holding the same text; the main
content varies in its text and in its presentation.  The style tree merges the pages' trees top down and
measures, for each element node, how diverse its presentation styles and its contents are across pages
(entropy); nodes whose importance is low everywhere in their subtree are the site's noise.

What the tree is built from: the block tree of :mod:`filters.html5` (``Blocks``: the block elements, each with
its tag, its ``class``/``id``/``role`` and its parent), the text of each block being its phrases.  So a block
element is an element node; inline elements (``<a>``, ``<b>``, ``<img>``...) are not (the papers' own
enhancement takes the parents of the leaf tags as virtual leaves for the same reason: they fragment the
page).  An element node's presentation attributes are its ``class``, ``id`` and ``role`` with digit runs
folded (``post-1234`` and ``post-87`` are one style): what both old and new pages carry on their blocks
(``width``/``bgcolor`` of 2000's tables are not kept by the walk).  The presentation style of an element
(a style node) is the sequence of its child elements' (tag, attributes).

Element nodes below one node are merged by (tag, attributes, occurrence among the siblings with the same
tag and attributes), across the style nodes of their parent: the paper's first enhancement (the same element
node appearing in different presentation styles is one node), here without comparing contents.  Mapping a
page is then a dict walk along its block paths, one lookup per block.  The paper's MapSST descends only where
the page's style matches a learned one ("possibly meaningful" otherwise); here that check is made at template
nodes (one style on at least half of their pages, ``STABLE_SHARE``): a page laid out otherwise there (an extra
table cell shifts every cell after it) is not mapped below, while a node whose style varies from page to page
(an article's container, its paragraphs) is mapped slot by slot.

Importance (Yi 2004, eqs. 5-1 to 5-5):

* ``NodeImp(E) = -sum p_i log_m p_i`` over E's presentation styles (m pages hold E; 1 when m = 1);
* ``CompImp(E) = (1 - g^l) NodeImp(E) + g^l sum p_i CompImp(S_i)``, g = 0.9, l styles, CompImp(S) the mean
  of its element nodes' (a block's own text counts as one more element: a virtual text leaf);
* a leaf's ``CompImp = 1 - mean_a H(a)``, ``H(a) = -sum_j p_aj log_m p_aj`` over the pages, a the words
  (stop words left out);
* noisy: the node and every node below it have ``CompImp <= t`` (MarkNoise); mapping removes a page's blocks
  that fall on a maximal noisy node, with everything below them.
* content-redundant items in nodes that are not noisy (the paper's locally noisy features, entropy-based):
  a phrase whose importance ``1 - H`` is below ``EPSILON`` (the same text on every page holding the node) is
  removed too.

Feature weights (CST, eqs. 5-6 to 5-10): ``NodeImp(E)`` is the style entropy (0 when m = 1), a text leaf's
``NodeImp = 1 - mean H``; ``PathImp(E) = 1 - prod (1 - NodeImp)`` from the root down; a word's weight in a
node is ``PathImp(text leaf) * (1 - H(word))``.  As in the paper's sampled variant, only the weights below
the informative threshold ``U`` (0.2) are stored; any other word weighs 1.

The learned tree is stored pruned, as JSON: a node is ``1`` when it is (maximally) noisy, else a dict with
``"c"`` (children by slot), ``"r"`` (redundant phrases), ``"f"`` (low word weights) and ``"s"`` (the
checksums of a template node's presentation styles), each only when needed; a node that needs none of
them (a meaningful subtree, all words informative) is left out, and a page's block that maps nowhere is
kept with weight 1.
"""

from __future__ import annotations

import math
import re
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any, cast

from . import html5

__all__ = ["build", "map_blocks", "NOISY", "GAMMA", "EPSILON", "U", "THRESHOLD", "stats"]

#: the attenuating factor of CompImp (the paper's value)
GAMMA = 0.9
#: a phrase of a node that is not noisy, whose importance 1 - H is below this, is content-redundant
EPSILON = 0.01
#: CST: word weights below this are stored; any other word weighs 1 (the paper's informative threshold)
U = 0.2
#: noisy: CompImp at most this (the paper picks it per site by hand; chosen on the tuning split, see
#: docs/benchmarks/sst.md)
THRESHOLD = 0.1
#: the mapped state of a block below a maximal noisy node
NOISY = 1
#: a node whose most common presentation style is on this share of its pages is a template node: a page
#: whose style there is none of its (at most MAX_STYLES) learned ones is not mapped below it
STABLE_SHARE = 0.5
MAX_STYLES = 8
VERSION = 1

_DIGITS = re.compile(r"\d+")
_KEY_CACHE: dict[tuple[str, str], str] = {}


def block_key(tag: str, marks: str) -> str:
    """An element's tag and presentation attributes: ``div.story-body main``, digit runs folded to ``#``."""
    if not marks:
        return tag
    key = _KEY_CACHE.get((tag, marks))
    if key is None:
        key = f"{tag}.{_DIGITS.sub('#', marks)}"
        if len(_KEY_CACHE) < 50_000:
            _KEY_CACHE[(tag, marks)] = key
    return key


def style_signature(keys: Iterable[str]) -> int:
    """A presentation style (the child elements' keys in order) as a 32-bit checksum, for the stored tree.
    (The compiled :func:`map_blocks` computes it inline: keep the two the same.)"""
    return zlib.crc32("\x1f".join(keys).encode("utf-8", "replace"))


class _Node:
    __slots__ = ("pages", "styles", "children", "words", "texts", "text_pages", "has_text")

    def __init__(self) -> None:
        self.pages = 0  # m: pages holding this element node
        self.styles: Counter[tuple[str, ...]] = Counter()  # presentation style -> pages
        self.children: dict[str, _Node] = {}  # slot -> element node
        self.words: dict[str, list[int]] = {}  # word -> its count on each page where it occurs here
        self.texts: dict[str, list[int]] = {}  # phrase text -> its count on each page where it occurs here
        self.text_pages = 0
        self.has_text = False  # text somewhere in the subtree, on some page


def slots(keys: Iterable[str]) -> list[str]:
    """Slot of each sibling: its key, with ``#k`` for the k-th repeat of the same key among the siblings."""
    seen: dict[str, int] = {}
    out = []
    for key in keys:
        k = seen.get(key, 0)
        seen[key] = k + 1
        out.append(key if k == 0 else f"{key}#{k}")
    return out


def child_in_slot(blocks: Any, parent: int, want: str) -> int:
    """The first child of ``parent`` (in :class:`filters.html5.Blocks`) whose slot (:func:`slots` of the children's
    keys, numbered the same way) is ``want``, or -1: the children's slots made one by one up to it, not all of them
    (the site's path was 0.016 x the lxml parse, median over site-learned tuning pages, 0.007 so)."""
    tags, marks, ends = blocks.tags, blocks.marks, blocks.ends
    seen: dict[str, int] = {}
    j, stop = parent + 1, (ends[parent] if parent >= 0 else len(ends))
    while j < stop:  # the children: from one to the end of its subtree (Blocks.children)
        m = marks[j]
        key = (_KEY_CACHE.get((tags[j], m)) or block_key(tags[j], m)) if m else tags[j]  # block_key, its cache first
        k = seen.get(key, 0)
        seen[key] = k + 1
        if (key if k == 0 else f"{key}#{k}") == want:
            return j
        j = ends[j]
    return -1


def _entropy(counts: Sequence[int], m: int) -> float:
    """``-sum p log_m p`` of a feature's counts on the pages (0 when m <= 1)."""
    if m <= 1 or len(counts) <= 1:
        return 0.0
    total = sum(counts)
    log_m = math.log(m)
    return max(0.0, -sum((c / total) * math.log(c / total) for c in counts) / log_m)


def _add_page(
    root: _Node,
    tags: Sequence[str],
    parents: Sequence[int],
    marks: Sequence[str],
    phrases: Iterable[Any],
    tok: Callable[[str], list[str]],
) -> None:
    n = len(tags)
    keys = [block_key(tags[i], marks[i]) for i in range(n)]
    kids: list[list[int]] = [[] for _ in range(n)]
    top: list[int] = []
    for i in range(n):
        p = parents[i]
        (kids[p] if p >= 0 else top).append(i)
    nodes: list[_Node] = [root] * n
    root.pages += 1
    root.styles[tuple(keys[j] for j in top)] += 1
    for j, slot in zip(top, slots(keys[j] for j in top), strict=True):
        nodes[j] = root.children.setdefault(slot, _Node())
    for i in range(n):  # parents come before their children
        node = nodes[i]
        node.pages += 1
        node.styles[tuple(keys[j] for j in kids[i])] += 1
        for j, slot in zip(kids[i], slots(keys[j] for j in kids[i]), strict=True):
            nodes[j] = node.children.setdefault(slot, _Node())
    words: dict[int, Counter[str]] = {}
    texts: dict[int, Counter[str]] = {}
    for ph in phrases:
        i = ph.node
        if ph.neg is not None or i < 0:
            continue
        texts.setdefault(i, Counter())[ph.text] += 1
        words.setdefault(i, Counter()).update(tok(ph.text))
    for i, counter in texts.items():
        node = nodes[i]
        node.text_pages += 1
        for text, c in counter.items():
            node.texts.setdefault(text, []).append(c)
        for word, c in words[i].items():
            node.words.setdefault(word, []).append(c)
        while True:  # mark the subtree-has-text flag up the path
            if node.has_text:
                break
            node.has_text = True
            p = parents[i]
            if p < 0:
                root.has_text = True
                break
            i = p
            node = nodes[i]


def _text_importance(node: _Node) -> tuple[float, dict[str, float]]:
    """The virtual text leaf of a node: ``1 - mean H(word)`` (1 when one page holds the node), and each word's H."""
    m = node.pages
    h = {w: _entropy(c, m) for w, c in node.words.items()}
    if m <= 1 or not h:
        return 1.0, h
    return 1.0 - sum(h.values()) / len(h), h


def build(
    pages: Iterable[tuple[Any, Sequence[Any]]],
    tokenize: Callable[[str], list[str]],
    *,
    threshold: float = THRESHOLD,
    gamma: float = GAMMA,
    epsilon: float = EPSILON,
    u: float = U,
) -> dict[str, Any]:
    """The site style tree of ``pages`` (``(blocks, phrases)`` of each, from :func:`filters.html5.segment`),
    pruned to what mapping needs, as JSON-ready data (``Profile.style_tree``).

    ``tokenize``: a phrase's words (the features of the content entropy and of the word weights).
    """
    root = _Node()
    count = 0
    for blocks, phrases in pages:
        _add_page(root, blocks.tags, blocks.parents, blocks.marks, phrases, tokenize)
        count += 1
    if count < 2:
        return {}
    # post order without recursion (block trees can be thousands deep)
    order: list[tuple[_Node, _Node | None]] = []
    stack: list[tuple[_Node, _Node | None]] = [(root, None)]
    while stack:
        item = stack.pop()
        order.append(item)
        stack.extend((child, item[0]) for child in item[0].children.values())
    noisy, text_imp = _mark_noise(order, threshold, gamma)
    encoded = _encode(order, noisy, text_imp, _path_importance(order), epsilon, u)
    # the root is the virtual root above <html>: never noisy itself, its children are mapped
    tree = encoded.get(id(root)) if not noisy.get(id(root)) else None
    return {
        "version": VERSION,
        "pages": count,
        "threshold": threshold,
        "root": tree if isinstance(tree, dict) else {},
    }


#: a node's text leaf (by ``id`` of the node): ``1 - mean H(word)`` and each word's H (:func:`_text_importance`)
_TextImportance = dict[int, tuple[float, dict[str, float]]]


def _mark_noise(
    order: list[tuple[_Node, _Node | None]], threshold: float, gamma: float
) -> tuple[dict[int, bool], _TextImportance]:
    """CompImp bottom up (``order``: parents before their children, so reversed it is a post order) and
    MarkNoise: whether each node with text (by ``id``) is noisy; and the text leaves' importance."""
    comp: dict[int, float] = {}
    noisy: dict[int, bool] = {}
    text_imp: _TextImportance = {}
    for node, _parent in reversed(order):
        if not node.has_text:
            continue
        own = None
        if node.words or node.texts:
            text_imp[id(node)] = ti = _text_importance(node)
            own = ti[0]
        full = [c for c in node.children.values() if c.has_text]
        if not full:  # a leaf: its content decides
            value = own if own is not None else 0.0
            comp[id(node)] = value
            noisy[id(node)] = value <= threshold
            continue
        m = node.pages
        styles = node.styles
        node_imp = 1.0 if m <= 1 else _entropy(list(styles.values()), m)
        total = 0.0
        weight = 0.0
        for style, n_pages in styles.items():
            values = [comp[id(c)] for slot in slots(style) if (c := node.children[slot]).has_text]
            if own is not None:
                values.append(own)
            if values:
                total += n_pages * sum(values) / len(values)
                weight += n_pages
        g = gamma ** len(styles)
        value = (1 - g) * node_imp + (g * total / weight if weight else 0.0)
        comp[id(node)] = value
        noisy[id(node)] = value <= threshold and (own is None or own <= threshold) and all(noisy[id(c)] for c in full)
    return noisy, text_imp


def _path_importance(order: list[tuple[_Node, _Node | None]]) -> dict[int, float]:
    """PathImp of each node (by ``id``), top down (``order`` lists parents before their children)."""
    path_of: dict[int, float] = {}
    for node, parent in order:
        m = node.pages
        style_imp = 0.0 if m <= 1 else _entropy(list(node.styles.values()), m)
        path_of[id(node)] = 1 - (1 - (path_of[id(parent)] if parent is not None else 0.0)) * (1 - style_imp)
    return path_of


def _encode(
    order: list[tuple[_Node, _Node | None]],
    noisy: dict[int, bool],
    text_imp: _TextImportance,
    path_of: dict[int, float],
    epsilon: float,
    u: float,
) -> dict[int, Any]:
    """The pruned JSON of each node with text (by ``id``), bottom up: NOISY, a dict of what mapping needs, or None
    when it needs nothing."""
    encoded: dict[int, Any] = {}
    for node, _parent in reversed(order):
        if not node.has_text:
            continue
        if noisy.get(id(node)):
            encoded[id(node)] = NOISY
            continue
        m = node.pages
        out: dict[str, Any] = {}
        leaf = text_imp.get(id(node))
        if leaf is not None:
            leaf_path = 1 - (1 - path_of[id(node)]) * (1 - leaf[0])
            low = {w: round(leaf_path * (1 - h), 3) for w, h in leaf[1].items() if leaf_path * (1 - h) < u}
            if low:
                out["f"] = dict(sorted(low.items()))
            if m > 1:
                red = [t for t, c in node.texts.items() if 1 - _entropy(c, m) < epsilon]
                if red:
                    out["r"] = sorted(red)
        children = {}
        for slot, child in node.children.items():
            enc = encoded.get(id(child))
            if enc is not None:
                children[slot] = enc
        if children:
            out["c"] = children
            common = node.styles.most_common(MAX_STYLES)
            if m > 1 and common[0][1] >= STABLE_SHARE * m:
                # a template node (one presentation style on most pages): a page that presents it otherwise
                # has another layout here, and its children are not mapped (the paper's MapSST: "possibly
                # meaningful"); nodes whose style varies (an article's paragraphs) are mapped slot by slot
                out["s"] = sorted({style_signature(style) for style, _n in common})
        encoded[id(node)] = out or None
    return encoded


def map_blocks(
    style_tree: dict[str, Any],
    tags: Sequence[str],
    parents: Sequence[int],
    marks: Sequence[str],
    ends: Sequence[int],
) -> list[Any]:
    """Where each block of a page falls in the site's style tree: :data:`NOISY`, a node's dict, or None
    (not in the stored tree: keep, weight 1).  One dict lookup per block below a stored node; the subtree of a
    block that maps nowhere, or onto a noisy node, is skipped whole (``ends``: each block's subtree end)."""
    n = len(tags)
    state: list[Any] = [None] * n
    root = style_tree.get("root")
    if not root:
        return state
    loops = html5.COMPILED_LOOPS
    if loops is not None and all(isinstance(seq, list) for seq in (tags, parents, marks, ends)):  # Blocks' lists
        # this loop compiled (filters/_compiled_loops.pyx, the same code, style_signature inlined)
        return cast(
            list[Any], loops.map_blocks(root, tags, parents, marks, ends, _KEY_CACHE, block_key, zlib.crc32, NOISY)
        )
    seen: dict[int, dict[str, int]] = {}
    styled: dict[int, list[str]] = {}  # the children's keys of the blocks on template nodes (style check)
    i = 0
    while i < n:
        p = parents[i]
        ps = root if p < 0 else state[p]  # a dict: the blocks below None or NOISY are skipped with their subtree
        children = ps.get("c")
        if not children:
            i = ends[i]
            continue
        m = marks[i]
        key = (_KEY_CACHE.get((tags[i], m)) or block_key(tags[i], m)) if m else tags[i]  # block_key, its cache first
        counter = seen.get(p)
        if counter is None:
            counter = seen[p] = {}
            if p >= 0 and "s" in ps:
                styled[p] = []
        k = counter.get(key, 0)
        counter[key] = k + 1
        found = children.get(key) if k == 0 else children.get(f"{key}#{k}")
        if p in styled:
            styled[p].append(key)
        if found is None:
            i = ends[i]
        elif found.__class__ is int:  # NOISY, and all below it
            end = ends[i]
            state[i:end] = [NOISY] * (end - i)
            i = end
        else:
            state[i] = found
            i += 1
    # a block presented otherwise than on the site's pages (its children's sequence is none of its template
    # node's styles) is not mapped, nor anything below it; checked after the walk, as the children are only
    # all known then (the usual page has no such block)
    bad = [p for p, keys in styled.items() if style_signature(keys) not in state[p]["s"]]
    for p in bad:
        state[p : ends[p]] = [None] * (ends[p] - p)
    return state


def stats(style_tree: dict[str, Any]) -> dict[str, int]:
    """Stored nodes, noisy nodes, redundant phrases and low word weights of a learned tree (reports)."""
    out = {"nodes": 0, "noisy": 0, "redundant_phrases": 0, "word_weights": 0}
    stack = [style_tree.get("root") or {}]
    while stack:
        node = stack.pop()
        out["nodes"] += 1
        if node == NOISY:
            out["noisy"] += 1
            continue
        out["redundant_phrases"] += len(node.get("r", ()))
        out["word_weights"] += len(node.get("f", ()))
        stack.extend(node.get("c", {}).values())
    return out
