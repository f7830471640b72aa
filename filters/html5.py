"""Read a page as a browser does (HTML5 tree construction, lexbor) and cut it into block phrases.

libxml2's HTML 4 parser, which the ``thesis`` profile keeps for faithfulness, does not know HTML5's
elements: an unclosed ``<nav>`` or ``<button>`` there holds the rest of the page (all 25 CNN 2015 pages of
crawl-to-the-future lost their article that way).  lexbor (through selectolax) builds the tree by the
HTML5 rules, as browsers do, and parses faster: about 0.4 x lxml's parse (tests/bench/html5_breakdown.py);
the walk, compiled (``_html5_walk.pyx``), about 0.35-0.4 x; in Python (:func:`python_segment`) 0.85-1.1 x.

The walk gives the same phrases as the libxml2 walk's block mode (:func:`filters.pipeline.segment`):
text runs inside one block element, inline tags not cutting them, the share of characters inside ``<a>``,
the innermost negative and positive tag above.  It also keeps what the main-content stage
(:mod:`filters.content`) needs to judge a phrase in its context: the tree of block elements, each with its
tag, its ``class``/``id``/``role`` words and its parent, and for every phrase the block it belongs to.
"""

from __future__ import annotations

import importlib
import logging
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import cast

import selectolax
from selectolax.lexbor import LexborHTMLParser, LexborNode, SelectolaxError

from .compiled_sources import source_digest
from .hidden import hidden_reason
from .limits import MAX_DEPTH, too_deep
from .marks import SOFT_TAGS
from .phrases import BLOCK_TAGS, Phrase, norm
from .profiles import Profile

__all__ = ["COMPILED_LOOPS", "COMPILED_WALK", "Blocks", "parse", "python_segment", "segment"]

#: elements whose text starts a new phrase: the libxml2 walk's list, and
#: a <button> is phrasing content in HTML5, but what it says is not part of the sentence around it
_BLOCK_TAGS = BLOCK_TAGS | {"button"}
_META_NAMES = frozenset(("description", "keywords"))
_PATH_LIMIT = 400


@dataclass(slots=True)
class Blocks:
    """The page's block elements in document order: tag, parent index (-1 for the top) and marks.

    ``marks`` are the element's ``class``, ``id`` and ``role`` values, lower-cased, space-separated (the
    evidence that names a region "comments", "sidebar", "related"...).
    """

    tags: list[str] = field(default_factory=list)
    parents: list[int] = field(default_factory=list)
    marks: list[str] = field(default_factory=list)
    #: the main content's block (set by filters.content.decide; -1: none found, the whole page)
    main: int = -1
    #: hyperlinks inside a phrase's text: (block index, href as written, anchor text); story cards (an
    #: ``<a>`` around blocks) are not listed
    links: list[tuple[int, str, str]] = field(default_factory=list)
    #: the blocks the page hides from its readers, with the reason (filters.hidden; profiles with main-content
    #: detection only)
    hidden: dict[int, str] = field(default_factory=dict)
    #: each block's subtree end, the index after its last descendant (set by the walk when the block closes): blocks
    #: are in document order and registered when they open, so a block's subtree is ``range(i, ends[i])``
    ends: list[int] = field(default_factory=list)

    def add(self, tag: str, parent: int, marks: str) -> int:
        self.tags.append(tag)
        self.parents.append(parent)
        self.marks.append(marks)
        self.ends.append(0)  # known when it closes
        return len(self.tags) - 1

    def children(self, parent: int) -> list[int]:
        """The blocks right inside ``parent`` (-1: the top ones), in document order: hops from one child to the end
        of its subtree, where the next child begins."""
        ends = self.ends
        stop = ends[parent] if parent >= 0 else len(ends)
        out: list[int] = []
        j = parent + 1
        while j < stop:
            out.append(j)
            j = ends[j]
        return out

    def __len__(self) -> int:
        return len(self.tags)


def blocks_of(tags: list[str], tag: str) -> Iterator[int]:
    """The blocks with ``tag`` (``tags``: :attr:`Blocks.tags`), in document order: found by ``list.index``, in C,
    not by a Python loop over every block (most pages have few of any one tag)."""
    i = -1
    while True:
        try:
            i = tags.index(tag, i + 1)
        except ValueError:
            return
        yield i


# bit flags of the tags the walk reacts to (one dict lookup per element)
_HARD, _LINK, _POS, _SPECIAL, _BLOCK, _MARKED, _OPAQUE = 1, 2, 4, 8, 16, 32, 64
#: negative tags whose content is never article text nor holds any: read as one text, not walked
_OPAQUE_TAGS = frozenset(("script", "style", "svg", "template", "math", "canvas", "object", "textarea"))
#: blocks whose class/id/role is never read: table rows and cells (old layouts have thousands), the
#: document's own elements and the ones whose names describe the page rather than a region
_UNMARKED = frozenset(
    [
        "html",
        "head",
        "body",
        "title",
        "main",
        "article",
        "tr",
        "td",
        "th",
        "tbody",
        "thead",
        "tfoot",
        "option",
        "optgroup",
        "frame",
        "frameset",
        "hr",
    ]
)
_FLAGS_CACHE: dict[tuple[frozenset[str], frozenset[str], bool], dict[str, int]] = {}


def _tag_flags(profile: Profile) -> dict[str, int]:
    neg = frozenset(profile.negative_tags)
    pos = frozenset(profile.positive_tags)
    key = (neg, pos, profile.main_content)
    flags = _FLAGS_CACHE.get(key)
    if flags is None:
        # with main-content detection, chrome tags (nav, aside, footer...) are judged in context: an
        # unclosed one can hold the article
        hard = neg - {"a"} - (SOFT_TAGS if profile.main_content else frozenset())
        flags = {}
        for tag in hard | pos | _BLOCK_TAGS | {"a", "head", "title", "meta", "br"}:
            f = 0
            if tag in hard:
                f |= _HARD
                if tag in _OPAQUE_TAGS:
                    f |= _OPAQUE
            elif tag == "a":
                f |= _LINK
            if tag in pos:
                f |= _POS
            if tag in ("head", "title", "meta", "br"):
                f |= _SPECIAL
            if tag in _BLOCK_TAGS:
                f |= _BLOCK
                if tag not in _UNMARKED:
                    f |= _MARKED
            flags[tag] = f
        if len(_FLAGS_CACHE) > 64:
            _FLAGS_CACHE.clear()
        _FLAGS_CACHE[key] = flags
    return flags


def _node_ids() -> tuple[int, int]:
    """lexbor's tag ids of text and comment nodes (an int per node instead of a tag name)."""
    p = LexborHTMLParser("<p>text<!--comment--></p>").css_first("p")
    assert p is not None and p.first_child is not None and p.last_child is not None
    return p.first_child.tag_id, p.last_child.tag_id


_TEXT_ID, _COMMENT_ID = _node_ids()


def parse(text: str | bytes) -> LexborHTMLParser:
    """The page's HTML5 tree (lexbor), from its text or its UTF-8 bytes.  lexbor recovers from anything; it never
    raises on markup: its one failure is an allocation that failed, raised as MemoryError (the worker's memory
    cap, wims/worker.py: the task fails with "memory limit", not the page with a parse error)."""
    try:
        return LexborHTMLParser(text)
    except SelectolaxError as exc:
        raise MemoryError(f"lexbor could not build the page's tree: {exc}") from exc


def segment(tree: LexborHTMLParser, profile: Profile) -> tuple[list[Phrase], str, Blocks]:
    """Walk the tree once; return ``(phrases, title, blocks)``, phrases in document order.

    A phrase's ``node`` is the index in ``blocks`` of the block element its text belongs to.  The walk is the
    compiled one (``filters/_html5_walk.pyx``) where it was built and passed its self-check, else
    :func:`python_segment`: the same output.
    """
    if COMPILED_WALK is not None:
        return cast(
            tuple[list[Phrase], str, Blocks], COMPILED_WALK.segment(tree, profile, _tag_flags(profile), Blocks())
        )
    return python_segment(tree, profile)


# Written for speed (it is most of the pipeline's time): node kinds told by lexbor's tag id, one flags lookup per
# element, the innermost block in locals; an inline element the walk ignores costs a push and a pop, the flags of a
# plain block one test (the walk: about 1.35 x lxml's parse on old table pages, was 1.55).  One function, over the size
# limits of tests/foundation/test_code_size.py: an element's opening and closing as functions of their own cost 8-11 %
# (wcxb tuning pages), and 15-25 % with the state they change in an object and a run's lengths counted at its flush
# (wcxb and crawl-to-the-future tuning pages; branch tidy-html5-attempt); only the rare paths are functions (the head's
# elements, comments, opaque elements, the links around a block).  Tried and slower or no faster: lexbor's own traversal
# (``Node.traverse``) with elements closed by the address of the node after them; telling white-space text nodes in C
# (``is_empty_text_node``); each element's children through lexbor's iterator (``Node.iter``, a generator per element:
# 4 % slower); a stack of the open elements instead of ``Node.parent`` (no faster); the phrases' tag paths built after
# the walk for the blocks that hold phrases only (5 % slower: fewer blocks than phrases' lookups to save); class/id/role
# read from one ``css("[class],[id],[role]")`` by ``mem_id`` (slower); a block's single text child read without stepping
# down (no faster: one more ``next`` per block). Where the time goes (crawl-to-the-future tuning pages, x lxml's parse):
# the bare traversal 0.27, white-space text nodes 0.1, reading marks 0.12, paths 0.09; the rest is the per-node logic,
# spread over all kinds of node. Phrases are built with positional arguments only (text, path, neg, pos, link density,
# removed by, rescued by, block): a keyword costs a third more.
def python_segment(tree: LexborHTMLParser, profile: Profile) -> tuple[list[Phrase], str, Blocks]:  # noqa: C901
    """:func:`segment` in Python, through selectolax's node objects: the reference of the compiled walk.

    tests/filters/test_fast_paths.py checks it against the plainer walk it replaced
    (tests/filters/reference_html5_segment.py).
    """
    flags_of = _tag_flags(profile).get
    # flags and names by lexbor tag id: one int lookup per element (ids are the tag's within one page; custom
    # elements get theirs)
    flags_by_id: dict[int, int] = {}
    names: dict[int, str] = {}
    comments_negative = "#comment" in profile.negative_tags
    skip_head = not profile.head_phrases
    meta_pos = "meta" if "meta" in profile.positive_tags else None
    find_hidden = profile.main_content

    phrases: list[Phrase] = []
    append = phrases.append
    blocks = Blocks()
    title = ""

    root = tree.root
    if root is None:
        return phrases, title, blocks

    # state of the open elements, innermost last
    hards: list[str] = []
    poss: list[str] = []
    links = 0
    in_head = 0
    skipping = False  # in the head, whose phrases the profile leaves out
    # per open element its kind: 1 hard, 2 link, 4 pos, 8 head, 16 block, 32 a link that holds blocks
    # (registered as a block of its own: an unclosed <a> can hold the article)
    opened: list[int] = []
    open_links: list[int] = []  # positions in `opened` of the <a> elements not registered as blocks
    anchors: list[tuple[str | None, int]] = []  # per open link: its href and where its text starts in `run`
    # the innermost open block: its index, tag path and innermost positive tag; the outer ones saved
    block = -1
    path = ""
    block_pos: str | None = None
    outer_blocks: list[tuple[int, str, str | None]] = []
    block_tags, block_parents, block_marks, block_ends = blocks.tags, blocks.parents, blocks.marks, blocks.ends
    run: list[str] = []
    run_len = 0
    run_link = 0

    node: LexborNode | None = root
    depth = 0
    pos: str | None = None  # the innermost open positive tag (poss[-1]), or None
    while node is not None:
        text = node.text_content  # None but for a text node: most nodes are text, one call tells them
        if text:
            if not skipping:
                if text.isspace():
                    if run and not hards:
                        run.append(" ")
                elif hards:
                    append(_negative_phrase(text, f"{path}/{hards[-1]}", hards[-1], pos, block))
                else:
                    n = len(text.strip())
                    run.append(text)
                    run_len += n
                    if links:
                        run_link += n
            nxt = node.next  # the next sibling at once (most nodes); the loop below climbs when there is none
            if nxt is not None:
                node = nxt
                continue
            close = False
        elif (tag_id := node.tag_id) == _TEXT_ID:  # an empty text node
            nxt = node.next
            if nxt is not None:
                node = nxt
                continue
            close = False
        elif tag_id == _COMMENT_ID:
            if comments_negative and not skipping:
                text = node.comment_content
                if text and not text.isspace():
                    append(_negative_phrase(text, path + "/#comment", "#comment", None, block))
            nxt = node.next
            if nxt is not None:
                node = nxt
                continue
            close = False
        else:
            f = flags_by_id.get(tag_id)
            if f is None:  # first of its tag in the page
                name = node.tag
                # -1: not an element (doctype), nothing to walk
                f = flags_by_id[tag_id] = flags_of(name, 0) if name and name[0] not in "-!" else -1
                names[tag_id] = name or ""
            if f == 0:  # an inline element the walk does not react to (span, b, img...): into its children
                opened.append(0)
                child = node.first_child
                if child is not None:
                    node = child
                    depth += 1
                    if depth > MAX_DEPTH:  # the door's limit (filters.limits): lexbor keeps every level
                        raise too_deep()
                    continue
                close = True
            elif f < 0:
                if not depth:
                    break
                nxt = node.next
                if nxt is not None:
                    node = nxt
                    continue
                close = False
            else:
                kind = 0
                tag = names[tag_id]
                if f & 15:  # _HARD, _LINK, _POS, _SPECIAL
                    if f & _HARD:
                        kind = 1
                        hards.append(tag)
                    elif f & _LINK:
                        kind = 2
                        links += 1
                        open_links.append(len(opened))
                        anchors.append((node.attrs.get("href"), len(run)))
                    if f & _POS:
                        kind |= 4
                        poss.append(tag)
                        pos = tag
                    if f & _SPECIAL:
                        if tag == "head":
                            kind |= 8
                            in_head += 1
                            skipping = skip_head
                        elif tag == "title":
                            if not title:
                                title = norm(node.text(deep=True))
                        elif tag == "meta":
                            if not skip_head:
                                _append_meta(append, node, path, hards[-1] if hards else None, meta_pos, block)
                        elif tag == "br":
                            run.append(" ")
                if f & _BLOCK:
                    kind |= 16
                    if run_len:  # the text before the block is a phrase of the block around it (flush(), inlined)
                        text = norm("".join(run))
                        if text:
                            append(Phrase(text, path, None, block_pos, run_link / run_len, None, None, block))
                        run_len = run_link = 0
                    if run:
                        run = []
                    if open_links:  # the links around this block become blocks: judged by their size
                        block, path = _links_as_blocks(
                            open_links, opened, anchors, outer_blocks, blocks, block, path, block_pos, pos
                        )
                        links -= len(open_links)
                        block_pos = pos
                        open_links.clear()
                    outer_blocks.append((block, path, block_pos))
                    block_tags.append(tag)
                    block_parents.append(block)
                    block_ends.append(0)  # known when it closes
                    if f & _MARKED:  # its class, id and role, lower-cased, space-separated
                        marks = node.attributes  # one dict: 4x faster than three lookups through node.attrs
                        if marks:
                            names_ = marks.get("class")
                            ident = marks.get("id")
                            role = marks.get("role")
                            if ident is None and role is None:  # most marked blocks: a class or nothing
                                block_marks.append(names_.lower() if names_ else "")
                            else:
                                block_marks.append(" ".join([p for p in (names_, ident, role) if p]).lower())
                            if find_hidden:
                                hidden = hidden_reason(marks)
                                if hidden is not None:
                                    blocks.hidden[len(block_tags) - 1] = hidden
                        else:
                            block_marks.append("")
                    else:
                        block_marks.append("")
                    block = len(block_tags) - 1
                    if len(path) < _PATH_LIMIT:
                        path = f"{path}/{tag}"
                    block_pos = pos
                opened.append(kind)
                if f & _OPAQUE:
                    # script, style, svg...: one removed phrase for all their text, no walk through them (an
                    # inline SVG can hold thousands of nodes)
                    text = node.text(deep=True)
                    if text and not text.isspace() and not skipping:
                        append(_negative_phrase(text, f"{path}/{tag}", tag, pos, block))
                else:
                    child = node.first_child
                    if child is not None:
                        node = child
                        depth += 1
                        if depth > MAX_DEPTH:  # the door's limit (filters.limits): lexbor keeps every level
                            raise too_deep()
                        continue
                close = True  # an element without children closes at once
        # move on: to the next sibling, closing each element whose children are all walked
        while True:
            if close:
                kind = opened.pop()
                if kind:
                    if kind & 15:
                        if kind & 1:
                            hards.pop()
                        if kind & 2:
                            links -= 1
                            open_links.pop()
                            href, start = anchors.pop()
                            if href:
                                anchor = norm("".join(run[start:]))
                                if anchor:
                                    blocks.links.append((block, href.strip(), anchor))
                        if kind & 4:
                            poss.pop()
                            pos = poss[-1] if poss else None
                        if kind & 8:
                            in_head -= 1
                            skipping = skip_head and in_head > 0
                    if kind & 48:
                        if run_len:  # flush(), inlined
                            text = norm("".join(run))
                            if text:
                                append(Phrase(text, path, None, block_pos, run_link / run_len, None, None, block))
                            run_len = run_link = 0
                        if run:
                            run = []
                        block_ends[block] = len(block_tags)
                        block, path, block_pos = outer_blocks.pop()
                if not depth:  # the root is closed: the walk is done
                    node = None
                    break
                nxt = node.next
                if nxt is not None:
                    node = nxt
                    break
            # no next sibling (close False: known already): up to the parent, which closes
            node = node.parent
            if node is None:  # not below the root: cannot happen, the depth says where the root is
                break
            depth -= 1
            close = True
    if run_len:
        text = norm("".join(run))
        if text:
            append(Phrase(text, path, None, block_pos, run_link / run_len, None, None, block))
    return phrases, title, blocks


def _negative_phrase(text: str, path: str, tag: str, pos: str | None, block: int) -> Phrase:
    """The phrase of a negative tag's text (or a comment's), removed whatever happens: a long one (a 100 kB inline
    script) is only stripped, not re-spaced."""
    return Phrase(norm(text) if len(text) < 1000 else text.strip(), path, tag, pos, None, None, None, block)


def _append_meta(
    append: Callable[[Phrase], None], node: LexborNode, path: str, hard: str | None, pos: str | None, block: int
) -> None:
    """Append the phrase of a ``<meta name=description|keywords>`` (or ``property=``) element's content."""
    attrs = node.attrs
    name = (attrs.get("name") or attrs.get("property") or "").lower()
    content = attrs.get("content")
    if name in _META_NAMES and content and not content.isspace():
        append(Phrase(norm(content), f"{path}/meta[@name={name}]", hard, pos, None, None, None, block))


def _links_as_blocks(
    open_links: list[int],
    opened: list[int],
    anchors: list[tuple[str | None, int]],
    outer_blocks: list[tuple[int, str, str | None]],
    blocks: Blocks,
    block: int,
    path: str,
    block_pos: str | None,
    pos: str | None,
) -> tuple[int, str]:
    """Register the open links (``open_links``: their places in ``opened``) around a block that opens as blocks of
    their own, each inside the one before (a story card, judged by its size; an unclosed <a> can hold the article);
    return the innermost one and its path."""
    for at in open_links:
        opened[at] = (opened[at] & ~2) | 32
        anchors.pop()
        outer_blocks.append((block, path, block_pos))
        block = blocks.add("a", block, "")
        path += "/a"
        block_pos = pos
    return block, path


_SELF_CHECK_PAGE = (
    "<!DOCTYPE html><html><head><title>T</title></head><body><!-- c --><p class=A id=b>one <a href=/x>two</a></p>"
    "<div class=c>five<div id=d>six</div><div role=main style=s class=E>seven</div></div>"
    "<nav>three</nav>\n <my-el>four</my-el><script>x</script></body></html>"
)


#: a walk's signature: the self-check compares the compiled walk's output with one (the Python walk's)
_Walk = Callable[[LexborHTMLParser, Profile], tuple[list[Phrase], str, Blocks]]


def _load_compiled(
    name: str, what: str, fallback: str, source: Path, check: Callable[[ModuleType], str | None] | None = None
) -> ModuleType | None:
    """The compiled module ``filters.<name>`` (``what``, for the warnings), if it is built from the current
    ``source`` (the hash setup.py compiled into it) and ``check`` (None, or why the module cannot be trusted)
    finds nothing wrong; else None, and a warning says why and that ``fallback`` (the Python code) runs instead.

    Never raises: it runs when a worker imports the filters, and a module it cannot vouch for must cost speed, not
    the worker.
    """
    log = logging.getLogger(__name__)
    try:
        module = importlib.import_module(f"{__package__}.{name}")
    except ImportError:  # not built (no C compiler at install)
        log.warning(
            "filters/%s.pyx is not compiled: %s (`pip install -e .` with a C compiler builds it)", name, fallback
        )
        return None
    except Exception:  # noqa: BLE001 - built, but it cannot bind to this selectolax (a type it imports changed)
        log.warning("filters/%s could not be imported: %s", name, fallback, exc_info=True)
        return None
    try:
        digest = source_digest(source) if source.exists() else None
        if digest is not None and digest != getattr(module, "SOURCE_SHA256", None):
            warnings.warn(
                f"{source} is not the source filters/{name} was compiled from: {fallback} until it is rebuilt "
                "(`pip install -e .` or `make`)",
                RuntimeWarning,
                stacklevel=2,
            )
            return None
        problem = None if check is None else check(module)
    except Exception:  # noqa: BLE001 - whatever failed, the module is not vouched for
        log.warning("%s's checks raised: %s", what, fallback, exc_info=True)
        return None
    if problem is not None:
        log.warning("%s is not used (%s): %s", what, problem, fallback)
        return None
    return module


def _load_compiled_walk(
    source: Path = Path(__file__).with_name("_html5_walk.pyx"),
    *,
    selectolax_version: str | None = None,
    reference: _Walk = python_segment,
) -> ModuleType | None:
    """The compiled walk, if it is built from the current ``source``, for the selectolax installed, and passes its
    self-check; else None, and a warning says why (:func:`_load_compiled`).

    ``selectolax_version`` (default: the installed release) and ``reference`` (the walk whose output the
    self-check expects) are the tests' way to make a check fail.
    """

    def check(walk: ModuleType) -> str | None:
        installed = selectolax.__version__ if selectolax_version is None else selectolax_version
        return _self_check(walk, installed, reference)

    fallback = "pages are walked in Python, about 1.2-1.3 x slower"
    return _load_compiled("_html5_walk", "the compiled HTML5 walk", fallback, source, check)


def _load_compiled_loops(
    source: Path = Path(__file__).with_name("_compiled_loops.pyx"),
) -> ModuleType | None:
    """The pipeline's compiled loops (UTF-8, the tag scan, the style tree's mapping, the best subtree, ...),
    if they are built from the current ``source``; else None, and a warning says why (:func:`_load_compiled`).
    They read no lexbor struct: the source's hash is their only check."""
    return _load_compiled("_compiled_loops", "the compiled loops", "the pipeline's loops run in Python", source)


def _load_compiled_tokens(
    source: Path = Path(__file__).with_name("_compiled_tokens.pyx"),
) -> ModuleType | None:
    """The compiled tokens (:func:`filters.pipeline.tokenize`'s loop), if they are built from the current
    ``source``; else None, and a warning says why (:func:`_load_compiled`).  The source's hash is their only check."""
    return _load_compiled("_compiled_tokens", "the compiled tokens", "the tokens are found in Python", source)


def _self_check(walk: ModuleType, installed: str, reference: _Walk) -> str | None:
    """Why the compiled ``walk`` cannot be trusted with this selectolax's trees, or None when it can.

    The release first: the checks after it read lexbor's structs through the walk's declarations, and with other
    layouts a read could crash the process rather than fail.  Then what the declarations claim: the node objects'
    layout (read on the Python objects only), the same nodes and text as selectolax's own traversal, a node
    wrapped from an address that selectolax reads as the original, and the reference's output on a small page.
    """
    declared = getattr(walk, "SELECTOLAX_VERSION", None)
    if installed != declared:
        return f"it declares the structs of selectolax {declared}, and {installed} is installed"
    tree = LexborHTMLParser(_SELF_CHECK_PAGE)
    root, p = tree.root, tree.css_first("p")
    if root is None or p is None:
        return "selectolax did not parse the self-check page"
    if not walk.layout_ok(p, tree):
        return "selectolax's node objects have another layout"
    nodes = list(root.traverse(include_text=True))
    if walk.node_count(root.mem_id) != (len(nodes), sum(len(n.text_content or "") for n in nodes)):
        return "lexbor's node structs have another layout"
    wrapped = walk.wrap(p.mem_id, tree)
    if wrapped.tag != "p" or wrapped.attributes != {"class": "A", "id": "b"} or wrapped.mem_id != p.mem_id:
        return "a node wrapped from its address is not the original"
    profile = Profile(name="self-check")
    if walk.segment(tree, profile, _tag_flags(profile), Blocks()) != reference(tree, profile):
        return "its output differs from the Python walk's"
    return None


#: the compiled walk (``filters/_html5_walk.pyx``), or None where the Python walk is used
COMPILED_WALK = _load_compiled_walk()
#: the compiled loops that walk no tree (``filters/_compiled_loops.pyx``: ``utf8``, ``tag_scan``, ``map_blocks``,
#: ``best_subtree``, ...), or None where their callers run their Python versions
COMPILED_LOOPS = _load_compiled_loops()
#: the compiled tokens (``filters/_compiled_tokens.pyx``: ``tokenize``), or None where the Python tokenize is used
COMPILED_TOKENS = _load_compiled_tokens()
