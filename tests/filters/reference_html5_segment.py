"""The HTML5 walk that ``filters.html5.segment`` used before it was tuned for speed (commit 28b6e47).

Kept as the reference of the differential test (test_fast_paths.py): the tuned walk must give exactly the
same phrases (text, tag path, negative/positive tag, link density, block), title and block tree (its subtree ends
computed here from the parents, the walks record them as they go).
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


def reference_html5_segment(tree: LexborHTMLParser, profile: Profile) -> tuple[list[Phrase], str, Blocks]:
    """Walk the tree once; return ``(phrases, title, blocks)``, phrases in document order.

    A phrase's ``node`` is the index in ``blocks`` of the block element its text belongs to.
    """
    walk = _Walk(profile)
    root = tree.root
    if root is None:
        return walk.phrases, walk.title, walk.blocks
    node: LexborNode | None = root
    depth = 0
    while node is not None:
        tag = node.tag or "-"
        descend = False
        if tag == "-text":
            walk.text(node)
        elif tag == "-comment":
            walk.comment(node)
        elif tag[0] not in "-!":
            f = walk.open(node, tag)
            descend = True
        if descend:
            child = walk.opaque(node, tag) if f & _OPAQUE else node.first_child
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
                walk.close()
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
    walk.flush()
    walk.blocks.ends = subtree_ends(walk.blocks.parents)
    return walk.phrases, walk.title, walk.blocks


def subtree_ends(parents: list[int]) -> list[int]:
    """Each block's subtree end (the index after its last descendant), from the parents alone (what
    ``filters.blocktree`` computed before the walks recorded it)."""
    ends = list(range(1, len(parents) + 1))
    # walked from the end, a block's subtree end is known before its parent's, which is its last child's
    for i in range(len(parents) - 1, -1, -1):
        p = parents[i]
        if p >= 0 and ends[p] < ends[i]:
            ends[p] = ends[i]
    return ends


class _Walk:
    """The state of the walk: the open elements (innermost last), the blocks, the text run."""

    def __init__(self, profile: Profile) -> None:
        self.flags_of = _tag_flags(profile).get
        self.comments_negative = "#comment" in profile.negative_tags
        self.skip_head = not profile.head_phrases
        self.meta_pos = "meta" if "meta" in profile.positive_tags else None
        self.phrases: list[Phrase] = []
        self.blocks = Blocks()
        self.title = ""
        self.hards: list[str] = []
        self.poss: list[str] = []
        self.links = 0
        self.in_head = 0
        # per open element its kind: 1 hard, 2 link, 4 pos, 8 head, 16 block, 32 a link that holds blocks
        # (registered as a block of its own: an unclosed <a> can hold the article)
        self.opened: list[int] = []
        self.open_links: list[int] = []  # positions in `opened` of the <a> elements not registered as blocks
        self.anchors: list[tuple[str | None, int]] = []  # per open link: its href and where its text starts in `run`
        self.block_idx = [-1]
        self.block_path = [""]
        self.block_pos: list[str | None] = [None]
        self.run: list[str] = []
        self.run_len = 0
        self.run_link = 0

    @property
    def skipping(self) -> bool:
        return bool(self.in_head and self.skip_head)

    @property
    def pos(self) -> str | None:
        return self.poss[-1] if self.poss else None

    def removed(self, text: str, path: str, tag: str, pos: str | None) -> None:
        """A phrase of a negative tag's text (or a comment's), removed whatever happens."""
        text = norm(text) if len(text) < 1000 else text.strip()
        self.phrases.append(Phrase(text, path, tag, pos, node=self.block_idx[-1]))

    def flush(self) -> None:
        if self.run_len:
            text = norm("".join(self.run))
            if text:
                link_density = self.run_link / self.run_len
                self.phrases.append(
                    Phrase(text, self.block_path[-1], None, self.block_pos[-1], link_density, node=self.block_idx[-1])
                )
        self.run = []
        self.run_len = self.run_link = 0

    def text(self, node: LexborNode) -> None:
        text = node.text_content
        if not text or self.skipping:
            return
        if text.isspace():
            if self.run and not self.hards:
                self.run.append(" ")
        elif self.hards:
            self.removed(text, f"{self.block_path[-1]}/{self.hards[-1]}", self.hards[-1], self.pos)
        else:
            n = len(text.strip())
            self.run.append(text)
            self.run_len += n
            if self.links:
                self.run_link += n

    def comment(self, node: LexborNode) -> None:
        if self.comments_negative and not self.skipping:
            text = node.comment_content
            if text and not text.isspace():
                self.removed(text, self.block_path[-1] + "/#comment", "#comment", None)

    def open(self, node: LexborNode, tag: str) -> int:
        """Open an element; its flags."""
        f = self.flags_of(tag, 0)
        kind = 0
        if f:
            if f & _HARD:
                kind = 1
                self.hards.append(tag)
            elif f & _LINK:
                kind = 2
                self.links += 1
                self.open_links.append(len(self.opened))
                self.anchors.append((node.attrs.get("href"), len(self.run)))
            if f & _POS:
                kind |= 4
                self.poss.append(tag)
            if f & _SPECIAL:
                kind |= self.special(node, tag)
        if f & _BLOCK:
            kind |= 16
        self.opened.append(kind)
        if f & _BLOCK:
            self.open_block(node, tag, f)
        return f

    def special(self, node: LexborNode, tag: str) -> int:
        """A ``<head>`` (kind 8), ``<title>``, ``<meta>`` or ``<br>``."""
        if tag == "head":
            self.in_head += 1
            return 8
        if tag == "title":
            if not self.title:
                self.title = norm(node.text(deep=True))
        elif tag == "meta":
            if not self.skip_head:
                attrs = node.attrs
                name = (attrs.get("name") or attrs.get("property") or "").lower()
                content = attrs.get("content")
                if name in _META_NAMES and content and not content.isspace():
                    path = f"{self.block_path[-1]}/meta[@name={name}]"
                    hard = self.hards[-1] if self.hards else None
                    self.phrases.append(Phrase(norm(content), path, hard, self.meta_pos, node=self.block_idx[-1]))
        elif tag == "br":
            self.run.append(" ")
        return 0

    def open_block(self, node: LexborNode, tag: str, f: int) -> None:
        if self.run_len:
            self.flush()
        elif self.run:
            self.run = []
        for at in self.open_links:  # the links around this block become blocks: judged by their size
            self.opened[at] = (self.opened[at] & ~2) | 32
            self.links -= 1
            self.anchors.pop()
            self.block_idx.append(self.blocks.add("a", self.block_idx[-1], ""))
            self.block_path.append(self.block_path[-1] + "/a")
            self.block_pos.append(self.pos)
        self.open_links.clear()
        self.block_idx.append(self.blocks.add(tag, self.block_idx[-1], _marks(node) if f & _MARKED else ""))
        parent_path = self.block_path[-1]
        self.block_path.append(f"{parent_path}/{tag}" if len(parent_path) < _PATH_LIMIT else parent_path)
        self.block_pos.append(self.pos)

    def opaque(self, node: LexborNode, tag: str) -> None:
        """script, style, svg...: one removed phrase for all their text, no walk through them (an inline SVG can hold
        thousands of nodes)."""
        text = node.text(deep=True)
        if text and not text.isspace() and not self.skipping:
            self.removed(text, f"{self.block_path[-1]}/{tag}", tag, self.pos)

    def close(self) -> None:
        """Close the innermost open element."""
        kind = self.opened.pop()
        if kind & 1:
            self.hards.pop()
        if kind & 2:
            self.links -= 1
            self.open_links.pop()
            href, start = self.anchors.pop()
            if href:
                anchor = norm("".join(self.run[start:]))
                if anchor:
                    self.blocks.links.append((self.block_idx[-1], href.strip(), anchor))
        if kind & 4:
            self.poss.pop()
        if kind & 8:
            self.in_head -= 1
        if kind & 48:
            if self.run_len:
                self.flush()
            elif self.run:
                self.run = []
            self.block_idx.pop()
            self.block_path.pop()
            self.block_pos.pop()
