"""The site's usual main content (``Profile.main_region``, learned by :func:`filters.learning.main_region`): the
slot paths that name a block the same way on every page of a site's template, the page's block on the site's path,
and the site's usual non-content blocks inside it, for main-content detection (:mod:`filters.content`).
"""

from __future__ import annotations

import re
from typing import Any

from .html5 import Blocks
from .profiles import Profile
from .sst import block_key, child_in_slot, slots

__all__ = ["SlotPaths", "noise_trie", "relative_key", "site_block"]

_SLOT_NUMBER = re.compile(r"#\d+$")


class SlotPaths:
    """Slot paths (the ancestors' and a block's own slot in the site style tree, :func:`filters.sst.slots`: the
    block key, ``#k`` for the k-th sibling with the same key), interned: each path is an id made of its parent
    path's id and its last slot. One table serves all the pages of a site, so ids compare across pages; it grows
    by one entry per new path, linear in the blocks whatever their depth (a tuple per block was quadratic in
    depth: 3,000 nested tables took 708 MiB)."""

    def __init__(self) -> None:
        self._ids: dict[tuple[int, str], int] = {}
        self.parent: list[int] = []
        self.slot: list[str] = []

    def intern(self, parent: int, slot: str) -> int:
        """The id of the path ``parent``'s path + ``slot`` (``parent`` -1: a top block)."""
        key = (parent, slot)
        pid = self._ids.get(key)
        if pid is None:
            pid = self._ids[key] = len(self.slot)
            self.parent.append(parent)
            self.slot.append(slot)
        return pid

    def of_blocks(self, blocks: Blocks) -> list[int]:
        """Each block's path id: what stays the same for one region on the pages of a site's template."""
        tags, parents, marks = blocks.tags, blocks.parents, blocks.marks
        siblings: dict[int, list[int]] = {}
        for i, p in enumerate(parents):
            siblings.setdefault(p, []).append(i)
        slot = [""] * len(parents)
        for group in siblings.values():
            for i, s in zip(group, slots(block_key(tags[i], marks[i]) for i in group), strict=True):
                slot[i] = s
        out: list[int] = []
        for i, p in enumerate(parents):  # parents come before their children
            out.append(self.intern(out[p] if p >= 0 else -1, slot[i]))
        return out

    def path(self, pid: int) -> tuple[str, ...]:
        """The slots of path ``pid``, from the top (only for the few paths a profile stores)."""
        out: list[str] = []
        while pid >= 0:
            out.append(self.slot[pid])
            pid = self.parent[pid]
        return tuple(reversed(out))


def relative_key(path: tuple[str, ...]) -> tuple[str, ...]:
    """A block's slot path relative to the main content's, as the site's usual non-content blocks are stored:
    the sibling numbers left out ("tr#3" -> "tr": any row of a table of links), so its blocks' own keys."""
    return tuple(_SLOT_NUMBER.sub("", k) for k in path)


def site_block(profile: Profile, blocks: Blocks, subtree: list[int]) -> int:
    """The page's block on the site's usual main-content path (``profile.main_region``), or -1: walked down from
    the top, only through the blocks on the path (``subtree``: each block's article-like characters)."""
    tags, marks = blocks.tags, blocks.marks
    cur = -1
    for want in profile.main_region["path"]:
        cur = child_in_slot(blocks, cur, want)
        if cur < 0:
            break
    if cur >= 0:
        return cur
    # no block has the site's path (an extra row above the article shifts the slots): the block with the most
    # article-like text among those whose path is the site's with the sibling numbers left out
    frontier = [-1]
    for want in relative_key(tuple(profile.main_region["path"])):
        frontier = [j for f in frontier for j in blocks.children(f) if block_key(tags[j], marks[j]) == want]
        if not frontier:
            return -1
    return max(frontier, key=subtree.__getitem__)


def noise_trie(profile: Profile) -> dict[str, Any]:
    """The site's usual non-content blocks inside its main content (``profile.main_region["noise"]``, paths
    relative to it, :func:`relative_key`) as a trie of block keys; ``""`` marks the end of a path."""
    trie: dict[str, Any] = {}
    for path in profile.main_region.get("noise", ()):
        node = trie
        for key in path:
            node = node.setdefault(key, {})
        node[""] = True  # the end of a path: a non-content block
    return trie
