"""Posts embedded in an article from a social network (a tweet, an Instagram or TikTok post): one line of it.

The page holds the embed's fallback markup, a ``<blockquote>`` that a script replaces with the network's card: the
post's text, then its chrome ("— Name (@handle) October 16, 2024", "View this post on Instagram", "A post shared
by ..."). The article quotes the post; what it says of it in its own words is around it.  So inside the main
content an embedded post is kept as one line, its reference (the line that names its author, the one with the
``@handle``, else its last line), and the rest goes with the reason; a "share"- or "social"-named wrapper around it
does not make it share buttons.  Outside the main content it is decided as any other block.  A YouTube player is an
``<iframe>``, a negative tag with no text: nothing to keep.
"""

from __future__ import annotations

import re

from .html5 import Blocks
from .phrases import Phrase

__all__ = ["EMBED_NOTE", "EMBED_REFERENCE_NOTE", "keep_references"]

EMBED_NOTE = "embedded post (its reference line kept)"
EMBED_REFERENCE_NOTE = "embedded post's reference"
#: the class names of the networks' embed markup (on its <blockquote>)
_NAMES = (
    "twitter-tweet",
    "instagram-media",
    "tiktok-embed",
    "bluesky-embed",
    "reddit-embed-bq",
    "text-post-media",
    "fb-xfbml-parse-ignore",
)
_EMBED = re.compile(rf"(?:^|\s)(?:{'|'.join(_NAMES)})(?=\s|$)")
#: the wrappers' reasons an embedded post is kept through: its own markup names nothing else
_OVERRIDDEN = frozenset(("share buttons",))


def _embeds(tags: list[str], marks: list[str]) -> list[int]:
    """The blocks whose class names mark a social network's embed: its fallback markup is a ``<blockquote>``."""
    if "blockquote" not in tags:  # in C: most pages quote nothing
        return []
    return [i for i, tag in enumerate(tags) if tag == "blockquote" and marks[i] and _EMBED.search(marks[i])]


def keep_references(
    phrases: list[Phrase], blocks: Blocks, inside: list[bool], noise: list[str | None]
) -> dict[str, int]:
    """Keep one line of each embedded post inside the main content (``inside``; ``noise``: each block's reason),
    remove the rest with EMBED_NOTE; return the changes to the counts per stage."""
    delta: dict[str, int] = {}
    embeds = _embeds(blocks.tags, blocks.marks)
    done = -1  # the end of the last embed handled: an embed inside another is handled with it
    for i in embeds:
        if i < done or not inside[i] or (noise[i] is not None and noise[i] not in _OVERRIDDEN):
            continue
        done = end = blocks.ends[i]
        own = [ph for ph in phrases if i <= ph.node < end and ph.neg is None]
        if not own:
            continue
        reference = next((ph for ph in reversed(own) if "@" in ph.text), own[-1])
        for ph in own:
            before = ph.removed_by
            delta[before or "core"] = delta.get(before or "core", 0) - 1
            if ph.rescued_by:
                delta["rescued"] = delta.get("rescued", 0) - 1
            ph.rescued_by = None
            if ph is reference:
                ph.removed_by, ph.note = None, EMBED_REFERENCE_NOTE
                delta["core"] = delta.get("core", 0) + 1
            else:
                ph.removed_by, ph.note = "content", EMBED_NOTE
                delta["content"] = delta.get("content", 0) + 1
    return delta
