"""The tree walk that ``filters.pipeline.segment`` (now ``filters.lxml_walk.segment``) used before it was rewritten
for speed (commit 11ca42e).

Kept as the reference of the differential test (test_fast_paths.py): the rewrite must cut every
page into exactly the same phrases, in the same order, with the same tag paths and flags. (Changed with it
since: white space between inline elements of a block phrase parts words.)
"""

from filters.lxml_walk import (
    _BLOCK,
    _BR,
    _HARD,
    _HEAD,
    _LINK,
    _META,
    _META_NAMES,
    _PATH_LIMIT,
    _POS,
    _TITLE,
    _Comment,
    _norm,
    _tag_flags,
)
from filters.phrases import Phrase
from filters.profiles import Profile


def reference_segment(root, profile: Profile) -> tuple[list[Phrase], str]:
    """Walk the tree once and cut it into phrases; return ``(phrases, title)``.

    No decision is taken here, only the facts the filters need: the tag path,
    the innermost negative and positive tag above the phrase, and (block
    phrases) the share of link characters.  Written for speed: one
    ``iter()`` pass, one dict lookup per element.
    """
    walk = _Walk(profile)
    # Pre-order iteration (lxml's iter() is about twice as fast as iterwalk());
    # an element is closed, and its tail emitted, once all its children have
    # been visited: each open element carries the count of children left.
    stack: list[list] = []  # [children left, tail, flags]
    node_iter = root.iter()
    el = next(node_iter, None)
    while True:
        # close the elements whose subtrees are complete
        while stack and (el is None or stack[-1][0] == 0):
            _, tail, f = stack.pop()
            walk.close(f)
            walk.take(tail, walk.paths[-1])
        if el is None:
            break
        if stack:
            stack[-1][0] -= 1
        tag = el.tag
        if tag.__class__ is not str:  # comment, processing instruction or entity: no children
            if tag is _Comment:
                walk.comment(el.text)
            path = walk.paths[-1]
            text = el.tail
        else:
            path, f = walk.open(el, tag)
            stack.append([len(el), el.tail, f])
            text = el.text
        el = next(node_iter, None)
        walk.take(text, path)
    if walk.run_len:
        walk.flush()
    return walk.phrases, walk.title


class _Walk:
    """The state of the walk: the open elements' paths and tags (innermost last), the block's text run."""

    def __init__(self, profile: Profile) -> None:
        self.flags_of = _tag_flags(profile).get
        self.comments_negative = "#comment" in profile.negative_tags
        self.skip_head = not profile.head_phrases
        self.block_mode = profile.block_phrases
        self.meta_pos = "meta" if "meta" in profile.positive_tags else None
        self.phrases: list[Phrase] = []
        self.title = ""
        self.paths = [""]
        self.hards: list[str] = []
        self.poss: list[str] = []
        self.links = 0
        self.in_head = 0
        # block phrases: the run of inline text collected for the current block
        self.run: list[str] = []
        self.run_link = 0
        self.run_len = 0
        self.block_paths = [""]
        self.block_pos: list[str | None] = [None]

    @property
    def pos(self) -> str | None:
        return self.poss[-1] if self.poss else None

    def flush(self) -> None:
        text = _norm("".join(self.run))
        if text:
            self.phrases.append(
                Phrase(text, self.block_paths[-1], None, self.block_pos[-1], self.run_link / self.run_len)
            )

    def end_run(self) -> None:
        """The block's text run as a phrase, and a new run."""
        if self.run_len:
            self.flush()
            self.run_len = self.run_link = 0
        self.run = []

    def take(self, text: str | None, path: str) -> None:
        """An element's text or tail, under ``path``."""
        if text is None or (self.in_head and self.skip_head):
            return
        if text.isspace():
            if self.block_mode and self.run and not self.hards:  # white space between inline elements parts words
                self.run.append(" ")
            return
        if self.hards:
            # script/style/comment text is removed whatever happens: long ones are
            # kept stripped but not re-spaced (normalising a 100 kB inline script
            # would cost more than parsing the page)
            self.phrases.append(
                Phrase(_norm(text) if len(text) < 1000 else text.strip(), path, self.hards[-1], self.pos)
            )
        elif not self.block_mode:
            self.phrases.append(Phrase(_norm(text), path, None, self.pos))
        else:
            n = len(text.strip())
            self.run.append(text)
            self.run_len += n
            if self.links:
                self.run_link += n

    def comment(self, text: str | None) -> None:
        if not text or text.isspace():
            return
        path = self.paths[-1] + "/#comment"
        if self.comments_negative:
            self.phrases.append(Phrase(_norm(text) if len(text) < 1000 else text.strip(), path, "#comment", None))
        elif not self.block_mode:
            self.phrases.append(Phrase(_norm(text), path, self.hards[-1] if self.hards else None, self.pos))

    def open(self, el, tag: str) -> tuple[str, int]:
        """Open an element; its path and flags."""
        path = self.paths[-1]
        if len(path) < _PATH_LIMIT:
            path = path + "/" + tag
        self.paths.append(path)
        f = self.flags_of(tag, 0)
        if not f:
            return path, f
        if f & _HARD:
            self.hards.append(tag)
        if f & _LINK:
            self.links += 1
        if f & _POS:
            self.poss.append(tag)
        if f & _HEAD:
            self.in_head += 1
        elif f & _META:
            name = (el.get("name") or el.get("property") or "").lower()
            if name in _META_NAMES and not self.skip_head:
                content = el.get("content")
                if content and not content.isspace():
                    hard = self.hards[-1] if self.hards else None
                    self.phrases.append(Phrase(_norm(content), path + "[@name=" + name + "]", hard, self.meta_pos))
        elif f & _TITLE and not self.title and el.text:
            self.title = _norm(el.text)
        if f & _BLOCK:
            self.end_run()
            self.block_paths.append(path)
            self.block_pos.append(self.pos)
        elif f & _BR:
            self.run.append(" ")
        return path, f

    def close(self, f: int) -> None:
        """Close the innermost open element (``f``: its flags)."""
        self.paths.pop()
        if f & _HARD:
            self.hards.pop()
        if f & _LINK:
            self.links -= 1
        if f & _POS:
            self.poss.pop()
        if f & _HEAD:
            self.in_head -= 1
        if f & _BLOCK:
            self.end_run()
            self.block_paths.pop()
            self.block_pos.pop()
