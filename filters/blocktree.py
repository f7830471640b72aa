"""A page's block tree (the parents of :class:`filters.html5.Blocks`): where each block's subtree ends and which
blocks are right inside it, found in one walk for every stage of main-content detection that asks.

Blocks are in document order and a block's descendants are the run of blocks right after it (the walk registers a
block when it opens), so a subtree is a slice, ``range(i, ends[i])``, and a block's children are found by hopping
from one child to the end of its subtree, where the next child begins.
"""

from __future__ import annotations

__all__ = ["BlockTree"]


class BlockTree:
    """Each block's parent (-1: a top block) and subtree end (the index after its last descendant)."""

    __slots__ = ("parents", "ends")

    def __init__(self, parents: list[int]) -> None:
        self.parents = parents
        n = len(parents)
        ends = list(range(1, n + 1))
        # walked from the end, a block's subtree end is known before its parent's, which is its last child's
        for i, p in zip(range(n - 1, -1, -1), reversed(parents), strict=True):
            if p >= 0 and ends[p] < ends[i]:
                ends[p] = ends[i]
        self.ends = ends

    def children(self, parent: int) -> list[int]:
        """The blocks right inside ``parent`` (-1: the top ones), in document order."""
        ends = self.ends
        stop = ends[parent] if parent >= 0 else len(ends)
        out: list[int] = []
        j = parent + 1
        while j < stop:
            out.append(j)
            j = ends[j]
        return out
