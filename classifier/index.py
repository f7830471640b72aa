"""Inverted index from keyword to stored cases.

Re-inference after a knowledge-base change and the duplicated-cases list only
need the cases that hold every present-keyword of the new rule; this index finds
them by intersecting posting sets, smallest first.  Pure Python, no Django.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from classifier.engine import as_case


class KeywordIndex:
    """keyword -> ids of the cases holding it."""

    def __init__(self, cases: Iterable[tuple[int, Iterable[str]]] = ()) -> None:
        self._postings: dict[str, set[int]] = {}
        self._cases: dict[int, frozenset[str]] = {}
        for case_id, keywords in cases:
            self.add(case_id, keywords)

    def __len__(self) -> int:
        return len(self._cases)

    def __contains__(self, case_id: object) -> bool:
        return case_id in self._cases

    def __iter__(self) -> Iterator[int]:
        return iter(self._cases)

    def keywords(self, case_id: int) -> frozenset[str]:
        return self._cases[case_id]

    def add(self, case_id: int, keywords: Iterable[str]) -> None:
        """Index a case; re-adding a case id replaces its keywords."""
        if case_id in self._cases:
            self.remove(case_id)
        words = as_case(keywords)
        self._cases[case_id] = words
        postings = self._postings
        for word in words:
            bucket = postings.get(word)
            if bucket is None:
                postings[word] = {case_id}
            else:
                bucket.add(case_id)

    def remove(self, case_id: int) -> None:
        """Drop a case; KeyError if it is not indexed."""
        words = self._cases.pop(case_id)
        for word in words:
            bucket = self._postings[word]
            bucket.discard(case_id)
            if not bucket:
                del self._postings[word]

    def frequency(self, keyword: str) -> int:
        """Number of cases holding ``keyword``."""
        return len(self._postings.get(keyword, ()))

    def candidates(self, conditions: Iterable[str], absent: Iterable[str] = ()) -> set[int]:
        """Ids of the cases holding every keyword of ``conditions`` and none of ``absent``.

        With no conditions every indexed case is a candidate.
        """
        conditions = as_case(conditions)
        if conditions:
            buckets = []
            for word in conditions:
                bucket = self._postings.get(word)
                if not bucket:
                    return set()
                buckets.append(bucket)
            buckets.sort(key=len)
            result = set(buckets[0])
            for bucket in buckets[1:]:
                result &= bucket
                if not result:
                    return result
        else:
            result = set(self._cases)
        for word in as_case(absent):
            bucket = self._postings.get(word)
            if bucket:
                result -= bucket
        return result
