"""The simulated experts' domain knowledge, learned from the training part only.

* :class:`Knowledge` (:func:`fit_knowledge`): term weights per label from a one-vs-rest linear SVM on binary
  term features, the SVM-term expert's;
* :class:`TraceKnowledge`, grown as :class:`TraceSettings` say: one binary decision tree per label, the
  precision for each label of every word, and (knowledge source ``covering`` or ``best``) each label's
  sequential-covering rules (:mod:`research.covering`), the rule-trace expert's.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field

from research.covering import CoveringRule, learn_covering_rules, precision_and_hits
from research.datasets import Item
from research.scikit import identity, sklearn


@dataclass
class Knowledge:
    """Term weights per label; ``ranked[label]`` lists the positive terms, best first."""

    weights: dict[str, dict[str, float]]
    ranked: dict[str, list[str]]

    def weight(self, label: str, term: str) -> float:
        return self.weights.get(label, {}).get(term, 0.0)


def fit_knowledge(train: Sequence[Item], labels: Sequence[str], limit: int | None = None) -> Knowledge:
    """One-vs-rest linear SVM on binary term features of the training part."""
    sk = sklearn()
    vectorizer = sk["CountVectorizer"](analyzer=identity, binary=True, min_df=2)
    x = vectorizer.fit_transform([sorted(item.case) for item in train])
    terms = vectorizer.get_feature_names_out()
    weights: dict[str, dict[str, float]] = {}
    ranked: dict[str, list[str]] = {}
    for label in labels:
        y = [1 if label in item.labels else 0 for item in train]
        if not any(y) or all(y):
            weights[label], ranked[label] = {}, []
            continue
        model = sk["LinearSVC"](C=1.0, random_state=0).fit(x, y)
        coef = model.coef_.ravel()
        order = coef.argsort()[::-1]
        positive = [terms[i] for i in order if coef[i] > 0]
        known = positive[:limit] if limit else positive
        weights[label] = {terms[i]: float(coef[i]) for i in range(len(terms))}
        ranked[label] = known
        if limit:  # a weaker expert knows only these terms
            keep = set(known)
            weights[label] = {t: w for t, w in weights[label].items() if t in keep or w < 0}
    return Knowledge(weights, ranked)


@dataclass(frozen=True)
class TraceSettings:
    """The rule-trace expert's level of expertise: how its trees are grown and how reliably it reads them.

    ``max_depth`` / ``min_samples_leaf`` / ``class_weight`` shape the one-vs-rest decision trees;
    ``absent`` turns the path's absent-word tests into must-be-absent conditions; ``noise`` is the
    chance that a path condition is replaced by a random word of the difference list.
    """

    max_depth: int | None = 10
    min_samples_leaf: int = 1
    class_weight: str | None = None
    absent: bool = True
    noise: float = 0.0
    min_support: int = 3  # a fallback or difference-list word must occur in this many training cases
    precision: float | None = None  # cut a new/refining rule's path where the node is this pure (None: whole path)
    smoothing: float = 1.0  # m-estimate weight of a word's precision towards the label's prior
    max_conditions: int | None = None  # keep only this many path words, the most precise for the label
    absent_limit: int | None = None  # keep only the first (nearest the root) this many absent-word tests
    stop_from: str = "wrong"  # a stop's path: "wrong" (the wrong label's tree) or "gold" (the case's own labels)
    fallback_precision: float = 0.5  # a fallback word must mean the label at least this often in training
    pair_below: float | None = 0.9  # a fallback word less precise than this is paired (None: single words only)
    #: C4.5rules-style: drop the path conditions a new/refining rule does not need, as long as the rule takes
    #: in no more training cases outside the label than the whole path does (False: the whole path)
    generalize: bool = True
    #: where a new/refining rule's conditions come from (:data:`KNOWLEDGE_SOURCES`): "tree" (the case's path
    #: through the label's tree); "covering" (the first rule, in learned order, of the label's sequential-covering
    #: list that covers the case; the tree path when none does); "best" (of the covering rule and the generalised
    #: tree path, the one with the larger training precision x label cases covered); "words" (never a path: the
    #: high-precision word, paired below ``pair_below``)
    knowledge: str = "tree"
    #: covering: the share of the cases left that grows a rule, the rest prunes it (1: unpruned, grown until pure;
    #: with ``m_estimate`` 22.4 the best of the covering variants on the validation splits)
    grow_share: float = 1.0
    rule_precision: float = 0.5  # covering: stop the label's list at a rule less precise than this (pruning set)
    covering_absent: bool = True  # covering: a rule may state must-be-absent words
    absent_support: int | None = None  # covering: a must-be-absent word must occur in this many training cases
    grow_precision: float = 1.0  # covering: stop growing a rule once its Laplace precision reaches this
    rule_positives: int = 1  # covering: the expert states only rules covering this many of the label's cases
    m_estimate: float | None = 22.4  # covering: choose literals by this m-estimate of precision (None: FOIL gain)
    remove_negatives: bool = False  # covering: a kept rule's negative cases leave too (a decision list's IREP)
    #: knowledge-base-aware rules: the expert keeps the current knowledge base's verdicts on the training part and,
    #: of the conditions it could state for a new or refining rule for label L (the rule it states otherwise: the
    #: generalised tree path or the fallback word / pair; any one word of the case; two words of the case, one of
    #: them a present word of that rule with ``kb_anchor``), states the one covering the most training cases of L
    #: (among those the rule can reach) the knowledge base does not yet give L, less ``kb_negative_weight`` per
    #: training case outside L it takes in, at a training precision (m-estimate, ``kb_m``) no lower than the rule
    #: it states otherwise; for a stopping rule (``kb_stop``), the case's word that also stops the most of the
    #: stopped rules' false positives among training cases, stopping no more of their true positives than the usual
    #: stop does.  Off by default: on the validation splits it moved BBC and Reuters only a little (see the branch)
    kb_aware: bool = False
    kb_negative_weight: float = 4.0
    kb_pairs: bool = True  # kb_aware: two-word conjunctions of the case's words are candidates too
    kb_stop: bool = True  # kb_aware: choose stopping rules the same way
    kb_m: float = 5.0  # kb_aware: judge precision by this m-estimate (towards the label's share of the cases reached)
    kb_scope: str = "all"  # kb_aware: choose for every new/refining rule, only "fallback" or "path" ones, or "none"
    #: kb_aware: generalise the tree path by dropping, of the conditions whose removal keeps its training precision,
    #: the one that lets it take in the most of the label's training cases the knowledge base does not yet give it
    kb_generalize: bool = False
    kb_floor: float = 0.0  # kb_aware: a chosen rule's training precision is at least this too
    #: kb_aware: the weight of a training case of the label the knowledge base already gives it (1: every case of
    #: the label counts alike, the most general rule as precise)
    kb_covered_weight: float = 0.0
    kb_anchor: bool = True  # kb_aware: a two-word candidate holds a present word of the rule it would state

    def to_dict(self) -> dict:
        out = asdict(self)
        if not self.kb_aware:  # off: the settings as they were before the option
            out = {k: v for k, v in out.items() if not k.startswith("kb_")}
        return out


@dataclass
class TracePath:
    """A case's path through one label's tree: the word tests (word, present?) and the leaf's verdict."""

    tests: list[tuple[str, bool]]
    positive: bool
    #: the label's share (weighted as the tree was grown) and the training cases at the node each test leads to
    shares: list[tuple[float, int]] = field(default_factory=list)

    def prefix(self, precision: float | None, min_cases: int = 1) -> TracePath:
        """The path cut after the first test (one with a present word on or before it) whose node holds the
        label with at least ``precision``: the general part of the path an expert would state."""
        if precision is None or not self.positive:
            return self
        seen_present = False
        for n, ((_, present), (share, cases)) in enumerate(zip(self.tests, self.shares, strict=True)):
            seen_present = seen_present or present
            if seen_present and share >= precision and cases >= min_cases:
                return TracePath(self.tests[: n + 1], True, self.shares[: n + 1])
        return self

    @property
    def present(self) -> list[str]:
        return [w for w, p in self.tests if p]

    @property
    def absent(self) -> list[str]:
        return [w for w, p in self.tests if not p]


KNOWLEDGE_SOURCES = ("covering", "tree", "words", "best")


class TraceKnowledge:
    """One binary decision tree per label on binary term features of the training part, and the
    per-label precision of every term (the fallback: a general high-precision word, never an arbitrary one)."""

    def __init__(self, train: Sequence[Item], labels: Sequence[str], settings: TraceSettings) -> None:
        sk = sklearn()
        from sklearn.tree import DecisionTreeClassifier

        np = sk["np"]
        self.settings = settings
        self.labels = list(labels)
        vectorizer = sk["CountVectorizer"](analyzer=identity, binary=True, min_df=2)
        x = vectorizer.fit_transform([sorted(item.case) for item in train]).tocsc()
        self.terms: list[str] = [str(t) for t in vectorizer.get_feature_names_out()]
        self.term_index = {t: i for i, t in enumerate(self.terms)}
        self.df = np.asarray(x.sum(axis=0)).ravel()
        self.n = len(train)
        self.cases = [item.case for item in train]  # the training cases (kb_aware: the knowledge base's verdicts)
        self._x = x  # binary term features (columns: terms), kept to count the training cases of a word pair
        self._y: dict[str, object] = {}
        self._trees: dict[str, tuple | None] = {}
        self._label_df: dict[str, object] = {}
        self.prior: dict[str, float] = {}
        for label in self.labels:
            y = np.array([1 if label in item.labels else 0 for item in train])
            self._y[label] = y.astype(bool)
            self.prior[label] = float(y.mean()) if len(y) else 0.0
            self._label_df[label] = np.asarray(x[y == 1].sum(axis=0)).ravel() if y.any() else np.zeros(len(self.terms))
            if not y.any() or y.all():
                self._trees[label] = None
                continue
            model = DecisionTreeClassifier(
                max_depth=settings.max_depth,
                min_samples_leaf=settings.min_samples_leaf,
                class_weight=settings.class_weight,
                random_state=0,
            ).fit(x, y)
            t = model.tree_
            values = t.value[:, 0, :]
            positive_column = list(model.classes_).index(1)
            leaf_positive = [bool(v[positive_column] > v[1 - positive_column]) for v in values]
            share = [float(v[positive_column] / max(v.sum(), 1e-12)) for v in values]
            self._trees[label] = (
                t.children_left.tolist(),
                t.children_right.tolist(),
                t.feature.tolist(),
                leaf_positive,
                share,
                t.n_node_samples.tolist(),
            )
        if settings.knowledge not in KNOWLEDGE_SOURCES:
            raise ValueError(f"unknown knowledge {settings.knowledge!r}; choose one of {', '.join(KNOWLEDGE_SOURCES)}")
        #: per label, its sequential-covering rules in learned order (knowledge "covering")
        self.rules: dict[str, list[CoveringRule]] = {}
        if settings.knowledge in ("covering", "best"):
            for label in self.labels:
                y = self._y[label]
                self.rules[label] = (
                    learn_covering_rules(
                        x.tocsr(),
                        y,
                        self.terms,
                        min_support=settings.min_support,
                        grow_share=settings.grow_share,
                        min_precision=settings.rule_precision,
                        absent=settings.covering_absent,
                        absent_support=settings.absent_support,
                        grow_precision=settings.grow_precision,
                        remove_negatives=settings.remove_negatives,
                        m_estimate=settings.m_estimate,
                    )
                    if y.any()  # type: ignore[attr-defined]
                    else []
                )

    def covering_rule(self, label: str, case: frozenset[str]) -> CoveringRule | None:
        """The first rule of the label's covering list (in learned order) that covers the case, if any."""
        least = self.settings.rule_positives
        return next((r for r in self.rules.get(label, ()) if r.positives >= least and r.covers(case)), None)

    def path(self, label: str, case: frozenset[str]) -> TracePath:
        """The case's path through the label's tree (an empty negative path for a label without a tree)."""
        tree = self._trees.get(label)
        if tree is None:
            return TracePath([], False)
        left, right, feature, positive, share, samples = tree
        tests = []
        shares = []
        node = 0
        while left[node] != -1:
            word = self.terms[feature[node]]
            if word in case:
                tests.append((word, True))
                node = right[node]
            else:
                tests.append((word, False))
                node = left[node]
            shares.append((share[node], samples[node]))
        return TracePath(tests, positive[node], shares)

    def classify(self, case: frozenset[str]) -> set[str]:
        """The labels its knowledge gives the case alone (the expert's own ceiling): with covering rules, the
        labels one of whose rules covers the case; otherwise the labels whose tree says yes."""
        if self.settings.knowledge == "covering":
            return {label for label in self.labels if self.covering_rule(label, case) is not None}
        return {label for label in self.labels if self.path(label, case).positive}

    def precision(self, label: str, word: str) -> float:
        """Share of the training cases holding ``word`` that carry ``label`` (0 below the support)."""
        i = self.term_index.get(word)
        if i is None or self.df[i] < self.settings.min_support:
            return 0.0
        m = self.settings.smoothing
        return (float(self._label_df[label][i]) + m * self.prior[label]) / (float(self.df[i]) + m)  # type: ignore[index]

    def best_partner(self, label: str, word: str, case: Iterable[str]) -> tuple[str, float] | None:
        """The case's word that, together with ``word``, means ``label`` most often in the training part, and
        that pair's precision (smoothed as :meth:`precision`; the pair must occur in ``min_support`` cases);
        None when no word of the case makes a supported pair."""
        i = self.term_index.get(word)
        others = sorted(w for w in case if w != word and w in self.term_index)
        if i is None or not others:
            return None
        np = sklearn()["np"]
        rows = self._x[:, i].nonzero()[0]  # the training cases holding the first word
        block = self._x[rows][:, [self.term_index[w] for w in others]]
        together = np.asarray(block.sum(axis=0)).ravel()
        with_label = np.asarray(block[self._y[label][rows]].sum(axis=0)).ravel()  # type: ignore[index]
        m = self.settings.smoothing
        precision = (with_label + m * self.prior[label]) / (together + m)
        precision[together < self.settings.min_support] = 0.0
        best = int(precision.argmax())  # ties: the alphabetically first, so runs repeat
        if precision[best] <= 0.0:
            return None
        return others[best], float(precision[best])

    def _column(self, word: str):
        """The training cases holding ``word`` (a boolean array)."""
        i = self.term_index.get(word)
        if i is None:
            return sklearn()["np"].zeros(self.n, dtype=bool)
        return self._x[:, i].toarray().ravel() > 0

    def generalize(
        self, label: str, present: Sequence[str], absent: Sequence[str], fresh=None
    ) -> tuple[list[str], list[str]]:
        """The path's conditions without those the rule does not need (C4.5rules' condition deletion): drop,
        one at a time, the condition whose removal leaves the rule the most precise for ``label`` in the
        training part (then the one covering most of the label's cases), as long as that precision does not
        fall below the whole path's; at least one present word stays."""
        np = sklearn()["np"]
        y = self._y[label]
        columns = {(True, w): self._column(w) for w in present} | {(False, w): ~self._column(w) for w in absent}

        def quality(keys) -> tuple[float, int]:
            mask = np.ones(self.n, dtype=bool)
            for key in keys:
                mask &= columns[key]
            return precision_and_hits(mask, y)

        keys = sorted(columns)
        floor = quality(keys)[0]
        while len(keys) > 1:
            words = sum(1 for is_present, _ in keys if is_present)
            options = [k for k in keys if not k[0] or words > 1]
            if not options:
                break
            # ties: an absent-word test goes first (a present word is the reason a person would state)
            scored = [(quality([j for j in keys if j != k]), not k[0], k[1], k) for k in options]
            if fresh is not None:
                # knowledge-base-aware: of the drops keeping the precision, the one taking in the most of the
                # label's training cases the knowledge base does not yet give it (``fresh``: a boolean array)
                kept = [item for item in scored if item[0][0] >= floor]
                if not kept:
                    break
                keys.remove(
                    max(kept, key=lambda item: (self._fresh(fresh, [j for j in keys if j != item[3]]), item))[3]
                )
                continue
            (precision, _), _, _, drop = max(scored)
            if precision < floor:
                break
            keys.remove(drop)
        return [w for is_present, w in keys if is_present], [w for is_present, w in keys if not is_present]

    def _conjunction(self, present: Iterable[str], absent: Iterable[str], column, within=None):
        """The training cases (a boolean array) of ``within`` (all if None) that hold every ``present`` word and
        no ``absent`` one, a word's cases read by ``column`` (:meth:`_column` or :meth:`holding`)."""
        mask = sklearn()["np"].ones(self.n, dtype=bool) if within is None else within.copy()
        for w in present:
            mask &= column(w)
        for w in absent:
            mask &= ~column(w)
        return mask

    def _fresh(self, fresh, keys) -> int:
        """How many of the ``fresh`` training cases the conditions ``keys`` ((present?, word) pairs) cover."""
        present = [w for is_present, w in keys if is_present]
        absent = [w for is_present, w in keys if not is_present]
        return int(self._conjunction(present, absent, self._column, fresh).sum())

    def quality(self, label: str, present: Sequence[str], absent: Sequence[str]) -> tuple[float, int]:
        """The rule's precision for ``label`` in the training part and the label's training cases it covers."""
        return precision_and_hits(self._conjunction(present, absent, self._column), self._y[label])

    def support(self, word: str) -> int:
        i = self.term_index.get(word)
        return 0 if i is None else int(self.df[i])

    def holding(self, word: str):
        """The training cases holding ``word`` (a boolean array), words outside the vocabulary included."""
        i = self.term_index.get(word)
        if i is None:
            return sklearn()["np"].array([word in case for case in self.cases], dtype=bool)
        return self._column(word)

    def cover(self, present: Iterable[str], absent: Iterable[str]):
        """The training cases a rule with these present and must-be-absent words covers (a boolean array)."""
        return self._conjunction(present, absent, self.holding)
