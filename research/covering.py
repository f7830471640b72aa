"""Sequential covering (IREP, as in RIPPER's first stage): a label's rules learned one after the other on
binary term features, each growing on the label's cases the earlier ones left.  The rule-trace expert's
``covering`` and ``best`` knowledge sources (:class:`research.knowledge.TraceSettings`) state these rules.
numpy only, imported on first use.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class CoveringRule:
    """One rule of a label's sequential-covering list: words that must be present and words that must be
    absent; ``precision`` / ``positives``: the label's share and count among the training cases it covers."""

    present: tuple[str, ...]
    absent: tuple[str, ...] = ()
    precision: float = 0.0
    positives: int = 0

    def covers(self, case: frozenset[str]) -> bool:
        return all(w in case for w in self.present) and not any(w in case for w in self.absent)


def precision_and_hits(covered, y) -> tuple[float, int]:
    """A rule's precision for a label over the training cases it covers (boolean masks), and its label cases."""
    hits = int((covered & y).sum())
    return hits / max(int(covered.sum()), 1), hits


def learn_covering_rules(
    x,
    y,
    terms: Sequence[str],
    *,
    min_support: int = 3,
    grow_share: float = 2 / 3,
    min_precision: float = 0.5,
    absent: bool = True,
    absent_support: int | None = None,
    grow_precision: float = 1.0,
    remove_negatives: bool = False,
    m_estimate: float | None = None,
    seed: int = 0,
    max_rules: int = 200,
) -> list[CoveringRule]:
    """A label's rules learned by sequential covering (IREP, as in RIPPER's first stage) on binary features.

    ``x``: the training cases' binary term matrix (scipy sparse, rows = cases), ``y``: the label's boolean
    column.  Repeatedly: split the cases not yet covered into a growing and a pruning part (seeded,
    ``grow_share``); grow a conjunction on the growing part, one literal at a time, by FOIL's information gain
    (a word present, or with ``absent`` a word absent; the first literal always a present word; only words in
    ``min_support`` training cases) until it covers no negative case there; prune its final literals while
    (p - n) / (p + n) on the pruning part does not fall; stop when the pruned rule's precision on the pruning
    part (on both parts when the pruning part holds none of its cases) is below ``min_precision``; else keep it
    and remove the label's cases it covers (``remove_negatives``: all the cases it covers, as a decision list's
    IREP does; MCRDR's rules are unordered, so by default a later rule must keep out the negative cases an
    earlier one covered too).  ``grow_share`` 1 grows every rule on all the cases left, unpruned, until it
    covers no negative case (or its Laplace precision reaches ``grow_precision``).  Learned in this order,
    the first rule covering a case is the reason the list gives for it.
    """
    import numpy as np

    n = x.shape[0]
    y = np.asarray(y, dtype=bool)
    xt = x.T.tocsr().astype(np.float64)  # terms x cases: a literal's counts over a case mask are one product
    df = np.asarray(x.sum(axis=0)).ravel()
    growing = _Growing(
        xt,
        y,
        eligible=df >= min_support,
        eligible_absent=df >= max(min_support, absent_support or 0),
        absent=absent,
        grow_precision=grow_precision,
        m_estimate=m_estimate,
    )
    rng = np.random.default_rng(seed)
    left = np.ones(n, dtype=bool)
    rules: list[CoveringRule] = []
    while (left & y).any() and len(rules) < max_rules:
        order = rng.permutation(np.flatnonzero(left))
        grow = np.zeros(n, dtype=bool)
        grow[order[: max(1, round(len(order) * grow_share))]] = True
        prune = left & ~grow
        literals, masks = growing.grow(grow, left)
        if not literals:
            break
        keep = _pruned_length(masks, prune, y)
        literals, masks = literals[:keep], masks[:keep]
        judged = _covered(masks, prune)
        if not judged.any():
            judged = _covered(masks, left)
        if precision_and_hits(judged, y)[0] < min_precision:
            break
        taken = _covered(masks, left)
        if not (taken & y).any():
            break
        precision, positives = precision_and_hits(_covered(masks, np.ones(n, dtype=bool)), y)
        rules.append(
            CoveringRule(
                tuple(terms[j] for j, p in literals if p),
                tuple(terms[j] for j, p in literals if not p),
                precision,
                positives,
            )
        )
        left &= ~(taken if remove_negatives else taken & y)
    return rules


@dataclass
class _Growing:
    """What growing a rule reads: the terms x cases matrix, the label's column, the words a literal may use."""

    # numpy arrays and a scipy sparse matrix (numpy is imported on first use: Any, not their types)
    xt: Any
    y: Any
    eligible: Any
    eligible_absent: Any
    absent: bool
    grow_precision: float
    m_estimate: float | None

    def holding(self, j: int):
        """The cases holding term ``j`` (a boolean mask)."""
        import numpy as np

        xt = self.xt
        mask = np.zeros(xt.shape[1], dtype=bool)
        mask[xt.indices[xt.indptr[j] : xt.indptr[j + 1]]] = True
        return mask

    def grow(self, grow, left) -> tuple[list[tuple[int, bool]], list]:
        """A conjunction grown on the ``grow`` cases, one literal at a time (term index, present), with each
        literal's case mask, until it covers no negative case there or no literal gains."""
        y = self.y
        literals: list[tuple[int, bool]] = []
        masks = []
        cover = grow.copy()
        while True:
            p0, n0 = int((cover & y).sum()), int((cover & ~y).sum())
            if n0 == 0 or p0 == 0 or (p0 + 1) / (p0 + n0 + 2) >= self.grow_precision:
                break
            best, is_present, gain = self.best_literal(cover, left, literals, p0, n0)
            if not gain > 0:
                break
            column = self.holding(best) if is_present else ~self.holding(best)
            literals.append((best, is_present))
            masks.append(column)
            cover &= column
        return literals, masks

    def best_literal(self, cover, left, literals, p0: int, n0: int) -> tuple[int, bool, float]:
        """The literal of most gain (FOIL's, or the m-estimate's) on the ``cover`` cases: (term, present, gain)."""
        import numpy as np

        y, xt, m_estimate = self.y, self.xt, self.m_estimate
        p1 = xt @ (cover & y).astype(np.float64)
        n1 = xt @ (cover & ~y).astype(np.float64)
        base = np.log2(p0 / (p0 + n0))
        pa, na = p0 - p1, n0 - n1
        if m_estimate is not None:  # the m-estimate of the rule's precision (Cestnik): more general rules
            prior = float((left & y).sum() / max(int(left.sum()), 1))
            now = (p0 + m_estimate * prior) / (p0 + n0 + m_estimate)
            gain_present = np.where(p1 > 0, (p1 + m_estimate * prior) / (p1 + n1 + m_estimate) - now, -np.inf)
            gain_absent = np.where(pa > 0, (pa + m_estimate * prior) / (pa + na + m_estimate) - now, -np.inf)
        else:
            with np.errstate(divide="ignore", invalid="ignore"):
                gain_present = np.where(p1 > 0, p1 * (np.log2(p1 / (p1 + n1)) - base), -np.inf)
                gain_absent = np.where(pa > 0, pa * (np.log2(pa / (pa + na)) - base), -np.inf)
        gain_present[~self.eligible] = -np.inf
        gain_absent[~self.eligible_absent] = -np.inf
        for j, is_present in literals:
            (gain_present if is_present else gain_absent)[j] = -np.inf
        has_present = any(p for _, p in literals)
        if not self.absent or not has_present:  # the first literal always a present word
            gain_absent[:] = -np.inf
        jp, ja = int(gain_present.argmax()), int(gain_absent.argmax())
        if gain_present[jp] >= gain_absent[ja]:
            return jp, True, gain_present[jp]
        return ja, False, gain_absent[ja]


def _covered(masks: list, where):
    """The cases of ``where`` that all the literals' ``masks`` cover."""
    mask = where.copy()
    for m in masks:
        mask &= m
    return mask


def _pruned_length(masks: list, prune, y) -> int:
    """How many of the rule's literals to keep: its final ones pruned while (p - n) / (p + n) on the ``prune``
    cases does not fall (the first stays; none pruned without pruning cases)."""
    import numpy as np

    keep = len(masks)
    if prune.any():
        values = []
        for k in range(1, len(masks) + 1):
            c = _covered(masks[:k], prune)
            p, q = int((c & y).sum()), int((c & ~y).sum())
            values.append((p - q) / (p + q) if p + q else -np.inf)
        best_value = values[-1]
        for k in range(len(masks) - 1, 0, -1):
            if values[k - 1] >= best_value:
                keep, best_value = k, values[k - 1]
    return keep
