"""Evaluation measures.

* Phrase level, as in the thesis's Experiment 1: phrases labelled core /
  non-core against the filters' decisions, summarised in a contingency table.
* Text level, the extraction metric of the shared datasets' README (token
  4-gram shingles, per-page normalised counts, averaged precision and recall),
  used by the benchmark so that our numbers compare with published ones.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["Contingency", "contingency", "shingle_scores", "ExtractionScore", "aggregate_scores"]


def _ratio(num: float, den: float) -> float | None:
    """num/den, or None where the measure is undefined (den = 0)."""
    return num / den if den else None


@dataclass(frozen=True)
class Contingency:
    """Thesis Experiment 1: a = core kept, b = non-core kept, c = core removed, d = non-core removed."""

    a: int = 0
    b: int = 0
    c: int = 0
    d: int = 0

    @property
    def n(self) -> int:
        return self.a + self.b + self.c + self.d

    @property
    def recall(self) -> float | None:
        return _ratio(self.a, self.a + self.c)

    @property
    def precision(self) -> float | None:
        return _ratio(self.a, self.a + self.b)

    @property
    def fallout(self) -> float | None:
        return _ratio(self.b, self.b + self.d)

    @property
    def accuracy(self) -> float | None:
        return _ratio(self.a + self.d, self.n)

    @property
    def error(self) -> float | None:
        return _ratio(self.b + self.c, self.n)

    def __add__(self, other: Contingency) -> Contingency:
        return Contingency(self.a + other.a, self.b + other.b, self.c + other.c, self.d + other.d)

    def as_dict(self) -> dict[str, float | None]:
        return {
            "a": self.a, "b": self.b, "c": self.c, "d": self.d, "n": self.n,
            "recall": self.recall, "precision": self.precision, "fallout": self.fallout,
            "accuracy": self.accuracy, "error": self.error,
        }  # fmt: skip


def contingency(labels: Iterable[bool], kept: Iterable[bool]) -> Contingency:
    """Build the table from parallel sequences: is the phrase core (label), did the filters keep it.

    ``contingency([p.is_core for p in gold], [p.is_core for p in extraction.phrases])``
    """
    a = b = c = d = 0
    labels, kept = list(labels), list(kept)
    if len(labels) != len(kept):
        raise ValueError(f"{len(labels)} labels but {len(kept)} decisions: they must be parallel")
    for core, keep in zip(labels, kept, strict=True):
        if core and keep:
            a += 1
        elif keep:
            b += 1
        elif core:
            c += 1
        else:
            d += 1
    return Contingency(a, b, c, d)


# --------------------------------------------------------------------------- extraction metric

_WORD = re.compile(r"\w+")


def _shingles(text: str, n: int = 4) -> Counter[tuple[str, ...]]:
    tokens = _WORD.findall(text or "")
    if not tokens:
        return Counter()
    if len(tokens) < n:
        return Counter([tuple(tokens)])
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


@dataclass(frozen=True)
class ExtractionScore:
    """One page's normalised TP/FP/FN and its precision/recall (None = not counted)."""

    tp: float
    fp: float
    fn: float
    precision: float | None
    recall: float | None


def shingle_scores(predicted: str, gold: str) -> ExtractionScore:
    """Score one page with the datasets README metric (steps 1-4)."""
    pred, ref = _shingles(predicted), _shingles(gold)
    # counts first, then (below) shares of the total
    tp: float = sum(min(cnt, ref[s]) for s, cnt in pred.items())
    fp: float = sum(pred.values()) - tp
    fn: float = sum(ref.values()) - tp
    total = tp + fp + fn
    if total == 0:
        return ExtractionScore(0.0, 0.0, 0.0, None, None)
    tp, fp, fn = tp / total, fp / total, fn / total
    if fp == 0 and fn == 0:
        return ExtractionScore(tp, fp, fn, 1.0, 1.0)
    precision = tp / (tp + fp) if tp + fp > 0 else None  # empty output: not counted for precision
    recall = tp / (tp + fn) if tp + fn > 0 else None
    return ExtractionScore(tp, fp, fn, precision, recall)


def aggregate_scores(scores: Iterable[ExtractionScore]) -> dict[str, float]:
    """Average precision and recall over pages (README steps 5-6) and their harmonic mean."""
    ps, rs = [], []
    for s in scores:
        if s.precision is not None:
            ps.append(s.precision)
        if s.recall is not None:
            rs.append(s.recall)
    p = sum(ps) / len(ps) if ps else 0.0
    r = sum(rs) / len(rs) if rs else 0.0
    f1 = 2 * p * r / (p + r) if p + r else 0.0
    return {"precision": p, "recall": r, "f1": f1, "pages": max(len(ps), len(rs))}
