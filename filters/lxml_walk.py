"""The libxml2 walk: cut lxml's element tree into phrases (the ``thesis`` profile's parser, and any profile whose
``parser`` is ``"libxml2"``).

Speed matters (every page read with libxml2 goes through here): the tree is walked once with ``iter()``, one dict
lookup per element tells the tags the walk reacts to, and an element is closed, and its tail emitted, when the next
node's parent is not that element.  tests/filters/test_fast_paths.py checks it against the plainer walk it replaced
(tests/filters/reference_segment.py).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import chain
from typing import TypeAlias, cast

from lxml import etree

from .phrases import BLOCK_TAGS, Phrase
from .phrases import norm as _norm
from .profiles import Profile

__all__ = ["segment"]

_LINK_TAGS = frozenset(("a",))
_META_NAMES = frozenset(("description", "keywords"))


# bit flags of the tags the walk reacts to (one dict lookup per element)
_HARD, _LINK, _POS, _HEAD, _META, _TITLE, _BLOCK, _BR = 1, 2, 4, 8, 16, 32, 64, 128
#: compared by identity with ``Element.tag``: lxml gives comments the Comment factory as their tag
#: (not a str, whatever the stubs say), hence ``object``
_Comment: object = etree.Comment
_PATH_LIMIT = 400  # characters; deeper tags are not spelt out in the path (10,000-deep pages)


def _tag_flags(profile: Profile) -> dict[str, int]:
    neg = frozenset(profile.negative_tags)
    pos = frozenset(profile.positive_tags)
    block_mode = profile.block_phrases
    # with block phrases, links are part of the run (judged by link density);
    # the other negative tags ("hard" ones) still make phrases of their own
    hard = neg - _LINK_TAGS if block_mode else neg
    flags = {}
    for tag in neg | pos | BLOCK_TAGS | {"head", "meta", "title", "br"} | _LINK_TAGS:
        f = 0
        if tag in hard:
            f |= _HARD
        if block_mode and tag in _LINK_TAGS:
            f |= _LINK
        if tag in pos:
            f |= _POS
        if tag == "head":
            f |= _HEAD
        elif tag == "meta":
            f |= _META
        elif tag == "title":
            f |= _TITLE
        elif tag == "br" and block_mode:
            f |= _BR
        if block_mode and tag in BLOCK_TAGS:
            f |= _BLOCK
        if f:
            flags[tag] = f
    return flags


class _EndOfWalk:
    """Follows the last node of the walk: its parent is the root's, so every open element gets closed."""

    __slots__ = ("parent",)

    def __init__(self, parent: etree._Element | None) -> None:
        self.parent = parent

    def getparent(self) -> etree._Element | None:
        return self.parent


#: what the walk knows inside an element: the innermost negative and positive tag above, the open <a> and <head>
#: elements, and the block whose run of inline text is collected (its path and innermost positive tag)
_State: TypeAlias = tuple[str | None, str | None, int, int, str, str | None]
_OUTSIDE: _State = (None, None, 0, 0, "", None)  # outside every element


def segment(root: etree._Element, profile: Profile) -> tuple[list[Phrase], str]:
    """Walk the tree once and cut it into phrases; return ``(phrases, title)``.

    No decision is taken here, only the facts the filters need: the tag path, the innermost negative and positive tag
    above the phrase, and (block phrases) the share of link characters.  Each step of the walk closes the innermost
    open element, when the next node's parent is not that element (its tail follows), or opens the next node (its
    text follows); either text is then emitted by the same lines.
    """
    flags_of, comments_negative, skip_head, block_mode, meta_pos = _settings(profile)
    phrases: list[Phrase] = []
    append = phrases.append
    title = ""
    hard, pos, links, in_head, block_path, block_pos = _OUTSIDE
    saved: list[_State] = []  # the state outside each open element that changes it (a flagged one)
    run: list[str] = []  # block phrases: the run of inline text collected for the current block
    run_len = run_link = 0
    # the innermost open element, its path and its flags; those of the open elements below it
    top, path, top_f = root.getparent(), "", 0
    stack: list[tuple[etree._Element | None, str, int]] = []
    end = cast(etree._Element, _EndOfWalk(top))  # after the last node: its parent is the root's, so all get closed
    for el in chain(root.iter(), (end,)):
        parent = el.getparent()
        while True:
            closing = top is not parent
            if closing:  # the innermost open element's subtree is complete; its tail follows it
                text = top.tail  # type: ignore[union-attr]  # never None here: every node of the walk is below root
                if top_f:
                    if top_f & _BLOCK:
                        if run_len:
                            _append_run(append, run, run_len, run_link, block_path, block_pos)
                        run, run_len, run_link = [], 0, 0
                    hard, pos, links, in_head, block_path, block_pos = saved.pop()
                top, path, top_f = stack.pop()
            elif el is end:
                break
            elif (tag := el.tag).__class__ is not str:  # comment, processing instruction or entity: no children
                if tag is _Comment and (comments_negative or not block_mode):
                    _append_comment(append, el.text, path, hard, pos, comments_negative)
                text = el.tail  # in the same parent
            else:
                stack.append((top, path, top_f))
                path = f"{path}/{tag}" if len(path) < _PATH_LIMIT else path  # (10,000-deep pages)
                top = el
                top_f = f = flags_of(tag, 0)
                if f:
                    saved.append((hard, pos, links, in_head, block_path, block_pos))
                    hard = tag if f & _HARD else hard
                    links += 1 if f & _LINK else 0
                    pos = tag if f & _POS else pos
                    in_head += 1 if f & _HEAD else 0
                    if f & _META and not skip_head:
                        _append_meta(append, el, path, hard, meta_pos)
                    elif f & _TITLE and not title and el.text:
                        title = _norm(el.text)
                    if f & _BLOCK:
                        if run_len:  # the text before the block is a phrase of the block around it
                            _append_run(append, run, run_len, run_link, block_path, block_pos)
                        run, run_len, run_link = [], 0, 0
                        block_path, block_pos = path, pos
                    elif f & _BR:
                        run.append(" ")
                text = el.text
            if text is not None and not (in_head and skip_head):
                if text.isspace():
                    if block_mode and run and not hard:  # "reporters.<b> </b>Hospitals": white space parts words
                        run.append(" ")
                elif hard:  # removed whatever happens: a long one (a 100 kB inline script) is only stripped
                    append(Phrase(_norm(text) if len(text) < 1000 else text.strip(), path, hard, pos))
                elif not block_mode:
                    append(Phrase(_norm(text), path, None, pos))
                else:
                    n = len(text.strip())
                    run.append(text)
                    run_len += n
                    run_link += n if links else 0
            if not closing:
                break
    if run_len:
        _append_run(append, run, run_len, run_link, block_path, block_pos)
    return phrases, title


def _settings(profile: Profile) -> tuple[Callable[[str, int], int], bool, bool, bool, str | None]:
    """What ``profile`` asks of the walk: the flags of a tag (0: none), whether comments are negative, whether the
    head's phrases are left out, whether phrases are block runs, and the positive tag of ``<meta>`` phrases."""
    return (
        _tag_flags(profile).get,
        "#comment" in profile.negative_tags,
        not profile.head_phrases,
        profile.block_phrases,
        "meta" if "meta" in profile.positive_tags else None,
    )


def _append_run(
    append: Callable[[Phrase], None], run: list[str], run_len: int, run_link: int, path: str, pos: str | None
) -> None:
    """Append the block phrase of a run of inline text (``run_len`` characters, ``run_link`` of them in links)."""
    text = _norm("".join(run))
    if text:
        append(Phrase(text, path, None, pos, run_link / run_len))


def _append_comment(
    append: Callable[[Phrase], None],
    text: str | None,
    path: str,
    hard: str | None,
    pos: str | None,
    negative: bool,
) -> None:
    """Append the phrase of an HTML comment: removed by the tag filter when ``#comment`` is a ``negative`` tag (long
    ones stripped only, as other negative tags' text), else an ordinary phrase of raw text runs."""
    if not text or text.isspace():
        return
    if negative:
        append(Phrase(_norm(text) if len(text) < 1000 else text.strip(), path + "/#comment", "#comment", None))
    else:
        append(Phrase(_norm(text), path + "/#comment", hard, pos))


def _append_meta(
    append: Callable[[Phrase], None], el: etree._Element, path: str, hard: str | None, pos: str | None
) -> None:
    """Append the phrase of a ``<meta name=description|keywords>`` (or ``property=``) element's content."""
    name = (el.get("name") or el.get("property") or "").lower()
    if name in _META_NAMES:
        content = el.get("content")
        if content and not content.isspace():
            append(Phrase(_norm(content), path + "[@name=" + name + "]", hard, pos))
