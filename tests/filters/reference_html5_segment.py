"""The HTML5 walk that ``filters.html5.segment`` used before it was tuned for speed (commit 28b6e47).

Kept as the reference of the differential test (test_fast_paths.py): the tuned walk must give exactly the
same phrases (text, tag path, negative/positive tag, link density, block), title and block tree.
"""

from selectolax.lexbor import LexborHTMLParser, LexborNode

from filters.html5 import (
    _BLOCK,
    _HARD,
    _LINK,
    _MARKED,
    _META_NAMES,
    _OPAQUE,
    _PATH_LIMIT,
    _POS,
    _SPECIAL,
    Blocks,
    _tag_flags,
)
from filters.phrases import Phrase, norm
from filters.profiles import Profile


def _marks(node: LexborNode) -> str:
    attrs = node.attributes  # one dict: 4x faster than three lookups through node.attrs
    if not attrs:
        return ""
    parts = [attrs.get("class"), attrs.get("id"), attrs.get("role")]
    return " ".join(p for p in parts if p).lower()


def reference_html5_segment(tree: LexborHTMLParser, profile: Profile) -> tuple[list[Phrase], str, Blocks]:  # noqa: C901
    """Walk the tree once; return ``(phrases, title, blocks)``, phrases in document order.

    A phrase's ``node`` is the index in ``blocks`` of the block element its text belongs to.
    """
    neg = frozenset(profile.negative_tags)
    pos_tags = frozenset(profile.positive_tags)
    flags_of = _tag_flags(profile).get
    comments_negative = "#comment" in neg
    skip_head = not profile.head_phrases
    meta_pos = "meta" if "meta" in pos_tags else None

    phrases: list[Phrase] = []
    append = phrases.append
    blocks = Blocks()
    add_block = blocks.add
    title = ""

    root = tree.root
    if root is None:
        return phrases, title, blocks

    # state of the open elements, innermost last
    hards: list[str] = []
    poss: list[str] = []
    links = 0
    in_head = 0
    # per open element its kind: 1 hard, 2 link, 4 pos, 8 head, 16 block, 32 a link that holds blocks
    # (registered as a block of its own: an unclosed <a> can hold the article)
    opened: list[int] = []
    open_links: list[int] = []  # positions in `opened` of the <a> elements not registered as blocks
    anchors: list[tuple[str | None, int]] = []  # per open link: its href and where its text starts in `run`
    block_idx = [-1]
    block_path = [""]
    block_pos: list[str | None] = [None]
    run: list[str] = []
    run_len = 0
    run_link = 0

    def flush() -> None:
        nonlocal run, run_len, run_link
        if run_len:
            text = norm("".join(run))
            if text:
                append(Phrase(text, block_path[-1], None, block_pos[-1], run_link / run_len, node=block_idx[-1]))
        run = []
        run_len = run_link = 0

    node: LexborNode | None = root
    depth = 0
    while node is not None:
        tag = node.tag or "-"
        descend = False
        if tag == "-text":
            text = node.text_content
            if text and not (in_head and skip_head):
                if text.isspace():
                    if run and not hards:
                        run.append(" ")
                elif hards:
                    append(
                        Phrase(
                            norm(text) if len(text) < 1000 else text.strip(),
                            f"{block_path[-1]}/{hards[-1]}",
                            hards[-1],
                            poss[-1] if poss else None,
                            node=block_idx[-1],
                        )
                    )
                else:
                    n = len(text.strip())
                    run.append(text)
                    run_len += n
                    if links:
                        run_link += n
        elif tag == "-comment":
            if comments_negative and not (in_head and skip_head):
                text = node.comment_content
                if text and not text.isspace():
                    append(
                        Phrase(
                            norm(text) if len(text) < 1000 else text.strip(),
                            block_path[-1] + "/#comment",
                            "#comment",
                            None,
                            node=block_idx[-1],
                        )
                    )
        elif tag[0] not in "-!":
            f = flags_of(tag, 0)
            kind = 0
            if f:
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
                if f & _SPECIAL:
                    if tag == "head":
                        kind |= 8
                        in_head += 1
                    elif tag == "title":
                        if not title:
                            title = norm(node.text(deep=True))
                    elif tag == "meta":
                        if not skip_head:
                            attrs = node.attrs
                            name = (attrs.get("name") or attrs.get("property") or "").lower()
                            content = attrs.get("content")
                            if name in _META_NAMES and content and not content.isspace():
                                append(
                                    Phrase(
                                        norm(content),
                                        f"{block_path[-1]}/meta[@name={name}]",
                                        hards[-1] if hards else None,
                                        meta_pos,
                                        node=block_idx[-1],
                                    )
                                )
                    elif tag == "br":
                        run.append(" ")
            if f & _BLOCK:
                kind |= 16
            opened.append(kind)
            if f & _BLOCK:
                if run_len:
                    flush()
                elif run:
                    run = []
                for at in open_links:  # the links around this block become blocks: judged by their size
                    opened[at] = (opened[at] & ~2) | 32
                    links -= 1
                    anchors.pop()
                    block_idx.append(add_block("a", block_idx[-1], ""))
                    block_path.append(block_path[-1] + "/a")
                    block_pos.append(poss[-1] if poss else None)
                open_links.clear()
                block_idx.append(add_block(tag, block_idx[-1], _marks(node) if f & _MARKED else ""))
                parent_path = block_path[-1]
                block_path.append(f"{parent_path}/{tag}" if len(parent_path) < _PATH_LIMIT else parent_path)
                block_pos.append(poss[-1] if poss else None)
            descend = True
        if descend:
            if f & _OPAQUE:
                # script, style, svg...: one removed phrase for all their text, no walk through them (an
                # inline SVG can hold thousands of nodes)
                text = node.text(deep=True)
                if text and not text.isspace() and not (in_head and skip_head):
                    append(
                        Phrase(
                            norm(text) if len(text) < 1000 else text.strip(),
                            f"{block_path[-1]}/{tag}",
                            tag,
                            poss[-1] if poss else None,
                            node=block_idx[-1],
                        )
                    )
                child = None
            else:
                child = node.first_child
            if child is not None:
                node = child
                depth += 1
                continue
            close = True  # an element without children closes at once
        else:
            close = False
        # move on: to the next sibling, closing each element whose children are all walked
        while True:
            if close:
                kind = opened.pop()
                if kind:
                    if kind & 1:
                        hards.pop()
                    if kind & 2:
                        links -= 1
                        open_links.pop()
                        href, start = anchors.pop()
                        if href:
                            anchor = norm("".join(run[start:]))
                            if anchor:
                                blocks.links.append((block_idx[-1], href.strip(), anchor))
                    if kind & 4:
                        poss.pop()
                    if kind & 8:
                        in_head -= 1
                    if kind & 48:
                        if run_len:
                            flush()
                        elif run:
                            run = []
                        block_idx.pop()
                        block_path.pop()
                        block_pos.pop()
            if depth == 0:
                node = None
                break
            nxt = node.next
            if nxt is not None:
                node = nxt
                break
            parent = node.parent
            if parent is None:  # not below the root: cannot happen, the depth says where the root is
                node = None
                break
            node = parent
            depth -= 1
            close = True
    flush()
    return phrases, title, blocks
