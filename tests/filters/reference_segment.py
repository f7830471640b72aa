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
    flags_of = _tag_flags(profile).get
    comments_negative = "#comment" in profile.negative_tags
    skip_head = not profile.head_phrases
    block_mode = profile.block_phrases
    meta_pos = "meta" if "meta" in profile.positive_tags else None

    phrases: list[Phrase] = []
    append = phrases.append
    title = ""
    paths = [""]
    hards: list[str] = []
    poss: list[str] = []
    links = 0
    in_head = 0

    # block phrases: the run of inline text collected for the current block
    run: list[str] = []
    run_link = 0
    run_len = 0
    block_paths = [""]
    block_pos: list[str | None] = [None]

    def flush():
        text = _norm("".join(run))
        if text:
            append(Phrase(text, block_paths[-1], None, block_pos[-1], run_link / run_len))

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
            paths.pop()
            if f:
                if f & _HARD:
                    hards.pop()
                if f & _LINK:
                    links -= 1
                if f & _POS:
                    poss.pop()
                if f & _HEAD:
                    in_head -= 1
                if f & _BLOCK:
                    if run_len:
                        flush()
                        run_len = run_link = 0
                    run = []
                    block_paths.pop()
                    block_pos.pop()
            if tail is None or (in_head and skip_head):
                continue
            if tail.isspace():
                if block_mode and run and not hards:  # white space between inline elements parts words
                    run.append(" ")
                continue
            if hards:
                append(
                    Phrase(
                        _norm(tail) if len(tail) < 1000 else tail.strip(),
                        paths[-1],
                        hards[-1],
                        poss[-1] if poss else None,
                    )
                )
            elif not block_mode:
                append(Phrase(_norm(tail), paths[-1], None, poss[-1] if poss else None))
            else:
                n = len(tail.strip())
                run.append(tail)
                run_len += n
                if links:
                    run_link += n
        if el is None:
            break
        if stack:
            stack[-1][0] -= 1
        tag = el.tag
        if tag.__class__ is not str:  # comment, processing instruction or entity: no children
            text = el.text
            if tag is _Comment and text and not text.isspace():
                if comments_negative:
                    append(
                        Phrase(
                            _norm(text) if len(text) < 1000 else text.strip(), paths[-1] + "/#comment", "#comment", None
                        )
                    )
                elif not block_mode:
                    append(
                        Phrase(
                            _norm(text),
                            paths[-1] + "/#comment",
                            hards[-1] if hards else None,
                            poss[-1] if poss else None,
                        )
                    )
            path = paths[-1]
            text = el.tail
        else:
            path = paths[-1]
            if len(path) < _PATH_LIMIT:
                path = path + "/" + tag
            paths.append(path)
            f = flags_of(tag, 0)
            stack.append([len(el), el.tail, f])
            if f:
                if f & _HARD:
                    hards.append(tag)
                if f & _LINK:
                    links += 1
                if f & _POS:
                    poss.append(tag)
                if f & _HEAD:
                    in_head += 1
                elif f & _META:
                    name = (el.get("name") or el.get("property") or "").lower()
                    if name in _META_NAMES and not skip_head:
                        content = el.get("content")
                        if content and not content.isspace():
                            append(
                                Phrase(
                                    _norm(content),
                                    path + "[@name=" + name + "]",
                                    hards[-1] if hards else None,
                                    meta_pos,
                                )
                            )
                elif f & _TITLE and not title and el.text:
                    title = _norm(el.text)
                if f & _BLOCK:
                    if run_len:
                        flush()
                        run_len = run_link = 0
                    run = []
                    block_paths.append(path)
                    block_pos.append(poss[-1] if poss else None)
                elif f & _BR:
                    run.append(" ")
            text = el.text
        el = next(node_iter, None)
        if text is None or (in_head and skip_head):
            continue
        if text.isspace():
            if block_mode and run and not hards:
                run.append(" ")
            continue
        if hards:
            # script/style/comment text is removed whatever happens: long ones are
            # kept stripped but not re-spaced (normalising a 100 kB inline script
            # would cost more than parsing the page)
            append(
                Phrase(_norm(text) if len(text) < 1000 else text.strip(), path, hards[-1], poss[-1] if poss else None)
            )
        elif not block_mode:
            append(Phrase(_norm(text), path, None, poss[-1] if poss else None))
        else:
            n = len(text.strip())
            run.append(text)
            run_len += n
            if links:
                run_link += n
    if run_len:
        flush()
    return phrases, title
