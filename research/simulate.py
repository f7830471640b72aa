"""Simulated expert: grow an MCRDR knowledge base from labelled documents and measure it.

    python -m research.simulate --dataset DIR [--features wims|words] [--stemming none|english]
                                  [--expert trace|svm] [--depth 10] [--min-leaf 1] [--balanced] [--no-absent]
                                  [--pair-below 0.9] [--no-generalize] [--knowledge-source tree|covering|best|words]
                                  [--grow-share 1] [--m-estimate 22.4] [--kb-aware] [--noise 0.0] [--k 3]
                                  [--knowledge N] [--checkpoints 50,100,...] [--json FILE] [--seed 0] [--validate]

``DIR`` holds ``manifest.csv`` (see :mod:`research.datasets`).  Files are
``.txt`` (tokenised with the filters' tokenizer and stop words) or ``.html`` /
``.html.gz`` (run through ``filters.extract`` with ``--profile``); a page the
filters reject (``filters.ExtractionError``) is skipped and counted, never fatal.
Each case is built as WIMS builds it (``--features wims``, the default:
``classifier.features.case_features`` with the default settings: the words, the
two-word phrases, ``title:`` words of the file's first line or the page's title,
``site:``/``url:`` words where there is a URL); ``--features words`` keeps the
plain bag of words.  ``--stemming english`` models a knowledge base with the
product's optional Snowball stemming switched on ("diabetics" meets "diabetes");
it is off by default (it lowered validation F1 on BBC and Reuters).  The experts
see these features; the naive Bayes and SVM baselines stay on the bag of words.

The simulated expert knows the gold labels and reads the training cases in
(seeded, shuffled) stream order; whenever inference is wrong or incomplete it
makes the rule a person would: a **refining** rule under every rule that gave a
wrong folder when a folder is also missing, a **stopping** rule when nothing is
missing, a **new** rule for a missing folder.  Its domain knowledge comes from
the training part only.  Two experts:

* ``trace`` (default), the rule-trace expert of Compton's simulated-expert method:
  one binary decision tree per label (one-vs-rest, binary term features) induced
  on the training part.  A new or refining rule's conditions are the case's path
  through the target label's tree (its present-word tests; its absent-word tests
  become must-be-absent conditions unless ``--no-absent``), generalised as in
  C4.5rules: the conditions the label does not need dropped, as long as the rule
  stays as precise in the training part as the whole path (``--no-generalize``:
  the whole path); a stopping rule's are the case's path through the wrong label's
  tree, the path that says "not this label".  When the tree is wrong about the case, the condition is a general
  high-precision word instead: the case's word with the best precision for the
  label in the training part; when even that word means the label less often than
  ``--pair-below`` (0.9), it is paired with the case's word that makes the pair
  most precise there.  Levels of expertise: ``--depth``, ``--min-leaf``,
  ``--balanced`` (how the trees are grown) and ``--noise`` (the chance that a path
  word is replaced by a random word of the case).  ``--knowledge-source covering``
  replaces the path by the first rule (in learned order) of the label's list learned
  by sequential covering (:func:`learn_covering_rules`: by default each rule grown on
  the label's cases not yet covered until it takes in no training case outside the label,
  its words chosen by the m-estimate of its precision, ``--m-estimate``; or IREP's FOIL
  gain with a pruning part, ``--m-estimate 0 --grow-share 0.67``) that covers the case, the tree path
  when none does; ``best`` takes whichever of the two has the larger training
  precision x label cases covered; ``words`` states only the high-precision word (or
  pair).  On the validation splits none beat the tree path on BBC (see
  docs/benchmarks/mcrdr.md), so ``tree`` stays the default.
* ``svm``: the ``k`` highest-weighted terms of the target label present in the
  case, from a one-vs-rest linear SVM on binary term features (for a stopping
  rule the terms weighing most against the wrong label); ``--knowledge N`` limits
  it to the N best terms per label; ``--noise`` as above.

Either way it then looks at the cornerstone cases the rule would change, selects
those whose change it does not accept (a correct folder lost or a wrong one
gained), and adds the best word of the recomputed difference list (or, for the
trace expert when none is left, a must-be-absent word those cornerstone cases all
hold), until no unacceptable change remains.  Neither expert ever picks an
arbitrary word: with nothing it knows, the correction is counted unresolved.

At checkpoints of cases seen it reports micro/macro F1 on the test part, the
rules, rules per case seen, conditions per rule, cornerstone cases shown per rule,
and the same F1 for scikit-learn's multinomial naive Bayes and linear SVM trained
on the same cases seen; the trace expert's own ceiling (its trees classifying the
test part alone) is printed at the end.  ``--validate`` scores on a seeded 20 %
of the training part instead (the test part unused): tune with it, never on test.
scikit-learn is in the ``bench`` extra.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import json
import random
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import cast

from classifier.acquisition import (
    RuleProposal,
    apply,
    cornerstones_changed,
    difference_list,
    proposal_for,
)
from classifier.engine import RuleTree
from classifier.index import KeywordIndex
from classifier.kinds import RuleKind
from research.datasets import MANIFEST

try:  # the filters package's tokenizer and stop words, so .txt and HTML cases match
    from filters import ExtractionError
    from filters import tokenize as _filters_tokenize
    from filters.stopwords import ENGLISH as _STOP_WORDS
except ImportError:  # pragma: no cover - only while the filters package is missing
    import re

    _STOP_WORDS = frozenset()

    class ExtractionError(ValueError):  # type: ignore[no-redef]
        pass

    _WORD = re.compile(r"\w+(?:'\w+)*")

    def _filters_tokenize(text: str, stop_words: frozenset[str] = frozenset()) -> list[str]:
        return [t for t in _WORD.findall(text.lower()) if len(t) > 1 and not t.isdigit() and t not in stop_words]


def tokenize_text(text: str) -> list[str]:
    """Tokens of a plain-text document, as the filters produce them for a page's core text."""
    return _filters_tokenize(text, _STOP_WORDS)


# ---------------------------------------------------------------------------- data
@dataclass
class Item:
    """One labelled document of a dataset."""

    id: int
    path: Path
    labels: frozenset[str]
    split: str
    site: str = ""
    tokens: list[str] = field(default_factory=list)
    skipped: str = ""  # why the filters rejected the page (filters.ExtractionError); such items are not used
    #: the case's features as WIMS builds them (classifier.features.case_features); empty: the words alone
    features: list[str] = field(default_factory=list)

    @property
    def case(self) -> frozenset[str]:
        return frozenset(self.features or self.tokens)


def read_tokens(path: Path, profile=None) -> list[str]:
    """Tokens of one dataset file: .txt directly, .html/.html.gz through the filters."""
    return read_document(path, profile)[0]


def read_document(path: Path, profile=None) -> tuple[list[str], str, str]:
    """Tokens, title and URL of one dataset file: .txt directly (the title is its first line, as both
    builders of :mod:`research.datasets` write it; no URL), .html/.html.gz through the filters."""
    name = path.name.lower()
    if name.endswith(".txt"):
        text = path.read_text(encoding="utf-8", errors="replace")
        title = next((line.strip() for line in text.splitlines() if line.strip()), "")
        return tokenize_text(text), title, ""
    if name.endswith(".html.gz") or name.endswith(".htm.gz"):
        with gzip.open(path, "rb") as handle:
            data = handle.read()
    elif name.endswith((".html", ".htm")):
        data = path.read_bytes()
    else:
        raise ValueError(f"{path}: unsupported file type (expected .txt, .html or .html.gz)")
    import filters  # the HTML path needs the filters package

    extraction = filters.extract(data, profile=profile)
    return list(extraction.tokens), extraction.title, extraction.url or ""


#: how a case is built: ``words`` (the bag of words) or ``wims`` (classifier.features.case_features with the
#: default FeatureSettings, as WIMS builds its cases: words, two-word phrases, ``title:`` words, ``site:`` /
#: ``url:`` words where there is a URL)
FEATURES = ("words", "wims")
DEFAULT_FEATURES = "wims"


#: the knowledge base's optional Snowball stemming (``FeatureSettings.stemming``): off, or a language
STEMMING = ("none", "english")
DEFAULT_STEMMING = "none"


def wims_features(tokens: Sequence[str], title: str = "", url: str = "", stemming: str | None = None) -> list[str]:
    """The case's features exactly as the product builds them (classifier.services.case_keywords), for a
    knowledge base with ``stemming`` (a Snowball language) or without it (None)."""
    from classifier.features import FeatureSettings, case_features

    settings = FeatureSettings(stemming=stemming)
    return case_features(tokens, title=title, url=url, settings=settings, stop_words=_STOP_WORDS)


def load_manifest(
    dataset: Path,
    seed: int = 0,
    profile=None,
    test_share: float = 0.3,
    features: str = DEFAULT_FEATURES,
    stemming: str = DEFAULT_STEMMING,
) -> list[Item]:
    """Read ``manifest.csv`` and the documents; a missing split column gets a seeded split.  ``features``
    (:data:`FEATURES`) says how each case is built, ``stemming`` (:data:`STEMMING`) whether the knowledge
    base stems its words (``wims`` features only)."""
    if features not in FEATURES:
        raise ValueError(f"unknown features {features!r}; choose one of {', '.join(FEATURES)}")
    if stemming not in STEMMING:
        raise ValueError(f"unknown stemming {stemming!r}; choose one of {', '.join(STEMMING)}")
    if stemming != "none" and features != "wims":
        raise ValueError("stemming applies to cases built as WIMS builds them (features 'wims')")
    dataset = Path(dataset)
    manifest = dataset / MANIFEST
    if not manifest.is_file():
        raise FileNotFoundError(f"{manifest} not found")
    with open(manifest, newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        missing = {"path", "labels"} - set(reader.fieldnames or ())
        if missing:
            raise ValueError(f"{manifest}: missing column(s) {sorted(missing)}")
        rows = list(reader)
    if not rows:
        raise ValueError(f"{manifest} lists no documents")
    items = []
    for n, row in enumerate(rows):
        labels = frozenset(x.strip() for x in (row["labels"] or "").split(";") if x.strip())
        if not labels:
            raise ValueError(f"{manifest}: row {n + 2} ({row['path']}) has no label")
        split = (row.get("split") or "").strip().lower()
        if split not in ("", "train", "test"):
            raise ValueError(f"{manifest}: row {n + 2}: split must be train or test, not {split!r}")
        path = dataset / row["path"]
        items.append(Item(n, path, labels, split, (row.get("site") or "").strip()))
    if any(not item.split for item in items):
        # seeded split of the rows without one, the same for every run with this seed
        rng = random.Random(seed)
        free = [item for item in items if not item.split]
        rng.shuffle(free)
        cut = round(len(free) * test_share)
        for i, item in enumerate(free):
            item.split = "test" if i < cut else "train"
    for item in items:
        try:
            item.tokens, title, url = read_document(item.path, profile)
            if features == "wims":
                item.features = wims_features(item.tokens, title, url, None if stemming == "none" else stemming)
        except ExtractionError as exc:  # a page the filters reject: skipped and counted, never fatal
            item.skipped = str(exc) or type(exc).__name__
    return items


# ---------------------------------------------------------------------------- knowledge
def _sklearn():
    try:
        import numpy as np
        from sklearn.feature_extraction.text import CountVectorizer
        from sklearn.metrics import f1_score
        from sklearn.multiclass import OneVsRestClassifier
        from sklearn.naive_bayes import MultinomialNB
        from sklearn.preprocessing import MultiLabelBinarizer
        from sklearn.svm import LinearSVC
    except ImportError as exc:  # pragma: no cover
        raise SystemExit("the simulated expert needs scikit-learn: pip install -e '.[bench]'") from exc
    return {
        "np": np,
        "CountVectorizer": CountVectorizer,
        "f1_score": f1_score,
        "OneVsRestClassifier": OneVsRestClassifier,
        "MultinomialNB": MultinomialNB,
        "MultiLabelBinarizer": MultiLabelBinarizer,
        "LinearSVC": LinearSVC,
    }


def _identity(tokens):
    return tokens


@dataclass
class Knowledge:
    """Term weights per label; ``ranked[label]`` lists the positive terms, best first."""

    weights: dict[str, dict[str, float]]
    ranked: dict[str, list[str]]

    def weight(self, label: str, term: str) -> float:
        return self.weights.get(label, {}).get(term, 0.0)


def fit_knowledge(train: Sequence[Item], labels: Sequence[str], limit: int | None = None) -> Knowledge:
    """One-vs-rest linear SVM on binary term features of the training part."""
    sk = _sklearn()
    vectorizer = sk["CountVectorizer"](analyzer=_identity, binary=True, min_df=2)
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


# ---------------------------------------------------------------------------- the expert
@dataclass
class ExpertStats:
    cases_seen: int = 0
    accepted: int = 0  # cases whose conclusions the expert accepted as they were
    rules: int = 0
    conditions: int = 0
    shown: int = 0  # cornerstone cases shown, summed over validations
    unresolved: int = 0  # corrections the expert could not make without harming a cornerstone
    skipped: int = 0  # pages the filters rejected (filters.ExtractionError): not used
    fallbacks: int = 0  # rules whose first condition is a high-precision word, not a tree path


class SimulatedExpert:
    """Builds an MCRDR rule tree case by case, the way the thesis's expert would."""

    def __init__(
        self,
        knowledge: Knowledge,
        folders: dict[str, int],
        k: int = 3,
        noise: float = 0.0,
        seed: int = 0,
    ) -> None:
        if k < 1:
            raise ValueError("k must be at least 1")
        if not 0 <= noise <= 1:
            raise ValueError("noise must be between 0 and 1")
        self.knowledge = knowledge
        self.folders = folders
        self.labels = {v: k_ for k_, v in folders.items()}
        self.k = k
        self.noise = noise
        self.rng = random.Random(seed)
        self.tree = RuleTree()
        self.cornerstones: dict[int, frozenset[str]] = {}
        self.cornerstone_gold: dict[int, set[int]] = {}
        self.rule_cornerstone: dict[int, int] = {}
        self.index = KeywordIndex()
        self.stats = ExpertStats()
        self.ceiling: dict[str, float] = {}  # the expert's knowledge classifying alone (trace expert)

    # scoring of terms for a proposal: the target label's weight, or for a stop the
    # weight against the wrong label
    def _scorer(self, proposal: RuleProposal, wrong: int | None) -> Callable[[str], float]:
        if proposal.kind == RuleKind.STOP:
            weights = self.knowledge.weights.get(self.labels[cast(int, wrong)], {})  # a stop names the wrong folder
            return lambda t: -weights.get(t, 0.0)
        weights = self.knowledge.weights.get(self.labels[cast(int, proposal.folder)], {})  # not a stop: a folder
        return lambda t: weights.get(t, 0.0)

    def _pick(self, candidates: list[str], score: Callable[[str], float], n: int) -> list[str]:
        """The n best-scored candidates; with noise, some replaced by random candidates."""
        best = sorted(candidates, key=lambda t: (-score(t), t))[:n]
        if self.noise:
            chosen = []
            for term in best:
                if self.rng.random() < self.noise:
                    pool = [t for t in candidates if t not in chosen]
                    term = self.rng.choice(pool)
                if term not in chosen:
                    chosen.append(term)
            best = chosen
        return best

    def _acceptable(self, cid: int, before: set[int], after: set[int]) -> bool:
        gold = self.cornerstone_gold[cid]
        return (before & gold) <= (after & gold) and (after - gold) <= (before - gold)

    def _make_rule(self, case_id: int, case: frozenset[str], proposal: RuleProposal, wrong) -> bool:
        score = self._scorer(proposal, wrong)
        # the difference list against no selected cornerstone is the whole case;
        # a positively weighted term is what a person would pick first
        start = [t for t in case if score(t) > 0]
        if not start:  # no word it knows for this: never an arbitrary one (say, the alphabetically first)
            self.stats.unresolved += 1
            return False
        return self._validate_and_commit(
            case_id, case, proposal.with_conditions(self._pick(start, score, self.k)), score
        )

    def _exclude(
        self, case: frozenset[str], proposal: RuleProposal, selected: list[int], bad: list[int], score
    ) -> RuleProposal | None:
        """The proposal with one more condition that leaves the ``selected`` cornerstone cases unchanged
        (``bad``: those the last check found), or None when the expert knows none."""
        diff = difference_list(case, (self.cornerstones[c] for c in selected))
        diff = [t for t in diff if t not in proposal.conditions]
        return proposal.with_conditions(self._pick(diff, score, 1)) if diff else None

    def _validate_and_commit(self, case_id: int, case: frozenset[str], proposal: RuleProposal, score) -> bool:
        """Show the cornerstone cases the proposal would change; while one would change unacceptably, add a
        condition (:meth:`_exclude`); then commit. False (counted unresolved) when no condition is found."""
        selected: list[int] = []
        shown: set[int] = set()
        while True:
            changed = cornerstones_changed(self.tree, proposal, self.cornerstones, self.index)
            shown.update(changed)
            bad = [
                cid
                for cid, (before, after) in changed.items()
                if cid != case_id and not self._acceptable(cid, before, after)
            ]
            if not bad:
                break
            selected.extend(bad)
            refined = self._exclude(case, proposal, selected, bad, score)
            if refined is None:
                self.stats.unresolved += 1
                return False
            proposal = refined
        rules = apply(self.tree, proposal, self.tree.max_id + 1, commit=True)
        self.cornerstones[case_id] = case
        self.index.add(case_id, case)
        for rule in rules:
            self.rule_cornerstone[rule.id] = case_id
        self.stats.rules += len(rules)
        self.stats.conditions += len(rules) * (len(proposal.conditions) + len(proposal.absent))
        self.stats.shown += len(shown - {case_id})
        return True

    def learn(self, case_id: int, case: frozenset[str], gold_labels: Iterable[str]) -> int:
        """Look at one case; make rules until its conclusions are right.  Returns rules made."""
        gold = {self.folders[label] for label in gold_labels}
        self.stats.cases_seen += 1
        if self.tree.folders(case) == gold:
            self.stats.accepted += 1
            return 0
        made = 0
        for _ in range(2 * len(self.folders) + 2):  # every round fixes one folder
            given = self.tree.folders(case)
            wrong = sorted(given - gold)
            missing = sorted(gold - given)
            if not wrong and not missing:
                break
            if wrong:
                bad = wrong[0]
                if missing:
                    proposal = proposal_for(self.tree, case, RuleKind.REFINE, folder=missing[0], wrong_folder=bad)
                else:
                    proposal = proposal_for(self.tree, case, RuleKind.STOP, wrong_folder=bad)
            else:
                bad = None
                proposal = RuleProposal(RuleKind.NEW, missing[0], frozenset())
            if self.cornerstone_gold.get(case_id) is None:
                self.cornerstone_gold[case_id] = gold
            before = self.stats.rules
            if not self._make_rule(case_id, case, proposal, bad):
                break
            made += self.stats.rules - before
        else:  # pragma: no cover - a safety net, rules always fix the folder they target
            self.stats.unresolved += 1
        return made


# ---------------------------------------------------------------------------- rule-trace knowledge
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


def _precision_and_hits(covered, y) -> tuple[float, int]:
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
    eligible = df >= min_support
    eligible_absent = df >= max(min_support, absent_support or 0)

    def holding(j: int):
        """The cases holding term ``j`` (a boolean mask)."""
        mask = np.zeros(n, dtype=bool)
        mask[xt.indices[xt.indptr[j] : xt.indptr[j + 1]]] = True
        return mask

    rng = np.random.default_rng(seed)
    left = np.ones(n, dtype=bool)
    rules: list[CoveringRule] = []
    while (left & y).any() and len(rules) < max_rules:
        order = rng.permutation(np.flatnonzero(left))
        grow = np.zeros(n, dtype=bool)
        grow[order[: max(1, round(len(order) * grow_share))]] = True
        prune = left & ~grow
        literals: list[tuple[int, bool]] = []
        masks = []
        cover = grow.copy()
        while True:
            p0, n0 = int((cover & y).sum()), int((cover & ~y).sum())
            if n0 == 0 or p0 == 0 or (p0 + 1) / (p0 + n0 + 2) >= grow_precision:
                break
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
            gain_present[~eligible] = -np.inf
            gain_absent[~eligible_absent] = -np.inf
            for j, is_present in literals:
                (gain_present if is_present else gain_absent)[j] = -np.inf
            has_present = any(p for _, p in literals)
            if not absent or not has_present:
                gain_absent[:] = -np.inf
            jp, ja = int(gain_present.argmax()), int(gain_absent.argmax())
            best, is_present = (jp, True) if gain_present[jp] >= gain_absent[ja] else (ja, False)
            gain = gain_present[jp] if is_present else gain_absent[ja]
            if not gain > 0:
                break
            column = holding(best) if is_present else ~holding(best)
            literals.append((best, is_present))
            masks.append(column)
            cover &= column
        if not literals:
            break

        def covered(k: int, where, masks=masks):
            """The cases of ``where`` the rule's first ``k`` literals cover."""
            mask = where.copy()
            for m in masks[:k]:
                mask &= m
            return mask

        # prune the final literals while (p - n) / (p + n) on the pruning part does not fall (the first stays)
        keep = len(literals)
        if prune.any():
            values = []
            for k in range(1, len(literals) + 1):
                c = covered(k, prune)
                p, q = int((c & y).sum()), int((c & ~y).sum())
                values.append((p - q) / (p + q) if p + q else -np.inf)
            best_value = values[-1]
            for k in range(len(literals) - 1, 0, -1):
                if values[k - 1] >= best_value:
                    keep, best_value = k, values[k - 1]
        literals, masks = literals[:keep], masks[:keep]
        judged = covered(keep, prune)
        if not judged.any():
            judged = covered(keep, left)
        if _precision_and_hits(judged, y)[0] < min_precision:
            break
        taken = covered(keep, left)
        if not (taken & y).any():
            break
        precision, positives = _precision_and_hits(covered(keep, np.ones(n, dtype=bool)), y)
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


class TraceKnowledge:
    """One binary decision tree per label on binary term features of the training part, and the
    per-label precision of every term (the fallback: a general high-precision word, never an arbitrary one)."""

    def __init__(self, train: Sequence[Item], labels: Sequence[str], settings: TraceSettings) -> None:
        sk = _sklearn()
        from sklearn.tree import DecisionTreeClassifier

        np = sk["np"]
        self.settings = settings
        self.labels = list(labels)
        vectorizer = sk["CountVectorizer"](analyzer=_identity, binary=True, min_df=2)
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
        np = _sklearn()["np"]
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
            return _sklearn()["np"].zeros(self.n, dtype=bool)
        return self._x[:, i].toarray().ravel() > 0

    def generalize(
        self, label: str, present: Sequence[str], absent: Sequence[str], fresh=None
    ) -> tuple[list[str], list[str]]:
        """The path's conditions without those the rule does not need (C4.5rules' condition deletion): drop,
        one at a time, the condition whose removal leaves the rule the most precise for ``label`` in the
        training part (then the one covering most of the label's cases), as long as that precision does not
        fall below the whole path's; at least one present word stays."""
        np = _sklearn()["np"]
        y = self._y[label]
        columns = {(True, w): self._column(w) for w in present} | {(False, w): ~self._column(w) for w in absent}

        def quality(keys) -> tuple[float, int]:
            mask = np.ones(self.n, dtype=bool)
            for key in keys:
                mask &= columns[key]
            return _precision_and_hits(mask, y)

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
        mask = _sklearn()["np"].ones(self.n, dtype=bool) if within is None else within.copy()
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
        return _precision_and_hits(self._conjunction(present, absent, self._column), self._y[label])

    def support(self, word: str) -> int:
        i = self.term_index.get(word)
        return 0 if i is None else int(self.df[i])

    def holding(self, word: str):
        """The training cases holding ``word`` (a boolean array), words outside the vocabulary included."""
        i = self.term_index.get(word)
        if i is None:
            return _sklearn()["np"].array([word in case for case in self.cases], dtype=bool)
        return self._column(word)

    def cover(self, present: Iterable[str], absent: Iterable[str]):
        """The training cases a rule with these present and must-be-absent words covers (a boolean array)."""
        return self._conjunction(present, absent, self.holding)


class RuleTraceExpert(SimulatedExpert):
    """Compton's simulated expert: a new rule's conditions are the case's path through the target label's
    tree (present words; absent-word tests as must-be-absent conditions), taken from the difference list.

    * new / refining rule for a missing label L: the case's path through L's tree;
    * stopping rule for a wrong label W: the case's path through W's tree (the path that says "not W");
    * a path with no usable present word (the tree is wrong about this case): the case's word with the best
      precision for the label in the training part (for a stop: for the case's own labels against W); for a
      new or refining rule, when that precision is below ``pair_below``, with the case's word that makes the
      pair most precise;
    * then, while a cornerstone case would change unacceptably, the best such word of the recomputed
      difference list, or failing that a must-be-absent word common to those cornerstone cases.

    Never an arbitrary word: when no word qualifies the correction is counted unresolved.
    """

    def __init__(self, knowledge: TraceKnowledge, folders: dict[str, int], seed: int = 0) -> None:
        super().__init__(Knowledge({}, {}), folders, k=1, noise=knowledge.settings.noise, seed=seed)
        self.trace = knowledge
        self.settings = knowledge.settings
        self._gold_names: set[str] = set()
        if self.settings.kb_aware:
            np = _sklearn()["np"]
            #: the knowledge base's verdicts on the training part, kept up to date rule by rule: the folders
            #: each training case gets, and the rules that conclude for it
            self._kb_given = np.zeros((max(folders.values(), default=0) + 1, knowledge.n), dtype=bool)
            self._kb_rules: list[frozenset[int]] = [frozenset()] * knowledge.n
            self._kb_x = knowledge._x.tocsr()

    # ------------------------------------------------------------------ knowledge-base-aware rules (kb_aware)
    def _validate_and_commit(self, case_id: int, case: frozenset[str], proposal: RuleProposal, score) -> bool:
        last = self.tree.max_id
        committed = super()._validate_and_commit(case_id, case, proposal, score)
        if committed and self.settings.kb_aware:
            rule = self.tree.get(last + 1)  # every rule of one proposal has the same conditions
            self._kb_update(rule.conditions, rule.absent)
        return committed

    def _kb_update(self, present: Iterable[str], absent: Iterable[str]) -> None:
        """Recompute the verdicts of the training cases the new rule covers (no other case can change)."""
        np = _sklearn()["np"]
        for i in np.flatnonzero(self.trace.cover(present, absent)):
            conclusions = self.tree.infer(self.trace.cases[i])
            self._kb_given[:, i] = False
            for c in conclusions:
                self._kb_given[c.folder, i] = True
            self._kb_rules[i] = frozenset(c.rule_id for c in conclusions)

    def _kb_universe(self, proposal: RuleProposal):
        """The training cases the proposal's rule can reach: all for a new rule, else those its parents conclude for."""
        np = _sklearn()["np"]
        if proposal.kind == RuleKind.NEW:
            return np.ones(self.trace.n, dtype=bool)
        parents = set(proposal.parent_ids)
        return np.array([not parents.isdisjoint(r) for r in self._kb_rules], dtype=bool)

    def _kb_fresh(self, proposal: RuleProposal):
        """The training cases of the proposal's label it can reach that the knowledge base does not give it."""
        folder = cast(int, proposal.folder)
        y = self.trace._y[self.labels[folder]]
        return y & self._kb_universe(proposal) & ~self._kb_given[folder]

    def _kb_words(self, case: frozenset[str]) -> list[int]:
        """The case's words the expert can state from the training part (vocabulary indices, alphabetical)."""
        trace = self.trace
        least = self.settings.min_support
        return sorted(i for w in case if (i := trace.term_index.get(w)) is not None and trace.df[i] >= least)

    def _kb_choose(
        self, case: frozenset[str], proposal: RuleProposal, present: list[str], absent: list[str]
    ) -> tuple[list[str], list[str]]:
        """Of the rule it would state and the case's one- and two-word conjunctions, the conditions covering
        the most training cases of the label the knowledge base does not yet give it (less the weighted
        training cases outside the label taken in), at no lower training precision."""
        np = _sklearn()["np"]
        trace = self.trace
        folder = cast(int, proposal.folder)
        y = trace._y[self.labels[folder]]
        universe = self._kb_universe(proposal)
        positive = y & universe
        uncovered = positive & ~self._kb_given[folder]
        weight = self.settings.kb_negative_weight
        mask = trace.cover(present, absent) & universe
        total, hits, new = int(mask.sum()), int((mask & positive).sum()), int((mask & uncovered).sum())
        m = self.settings.kb_m
        prior = float(positive.sum()) / max(int(universe.sum()), 1)
        floor = (hits + m * prior) / max(total + m, 1e-12)
        floor = max(floor, self.settings.kb_floor)
        covered_weight = self.settings.kb_covered_weight
        best = (new + covered_weight * (hits - new) - weight * (total - hits), floor)
        words = self._kb_words(case)
        rows = np.flatnonzero(universe)
        if not words or not len(rows):
            return present, absent
        xu = self._kb_x[rows][:, words].astype(np.float64)  # universe cases x case words
        pos = positive[rows].astype(np.float64)
        unc = uncovered[rows].astype(np.float64)
        totals = np.asarray(xu.sum(axis=0)).ravel()
        hit = xu.T @ pos
        fresh = xu.T @ unc
        candidates = [(totals, hit, fresh, None)]
        if self.settings.kb_pairs and len(words) > 1:
            xt = xu.T.tocsr()
            both = (xt @ xu).toarray()
            both_hit = (xt.multiply(pos) @ xu).toarray()
            both_fresh = (xt.multiply(unc) @ xu).toarray()
            upper = np.triu(np.ones((len(words), len(words)), dtype=bool), 1)
            if self.settings.kb_anchor:  # only pairs holding a word of the rule it would state
                anchor = np.array([trace.terms[i] in present for i in words])
                upper &= anchor[:, None] | anchor[None, :]
            candidates.append((np.where(upper, both, 0.0), both_hit, both_fresh, upper))
        chosen = None
        for tot, h, f, _ in candidates:
            with np.errstate(divide="ignore", invalid="ignore"):
                precision = np.where(tot > 0, (h + m * prior) / np.maximum(tot + m, 1e-12), 0.0)
            value = f + covered_weight * (h - f) - weight * (tot - h)
            ok = (tot >= self.settings.min_support) & (precision >= floor - 1e-12) & (f > 0)
            if not ok.any():
                continue
            value = np.where(ok, value, -np.inf)
            top = value.max()
            ties = ok & (value == top)
            precision_top = np.where(ties, precision, -1.0).max()
            at = np.flatnonzero((ties & (precision == precision_top)).ravel())[0]  # alphabetical first
            key = (float(top), float(precision_top))
            if key > best:  # a single word wins ties with a pair (it comes first)
                best = key
                chosen = [words[at]] if tot.ndim == 1 else [words[at // len(words)], words[at % len(words)]]
        if chosen is None:
            return present, absent
        return sorted(trace.terms[i] for i in chosen), []

    def _kb_choose_stop(
        self, case: frozenset[str], proposal: RuleProposal, wrong: int, present: list[str], absent: list[str]
    ) -> tuple[list[str], list[str]]:
        """Of the stop it would state and the case's words, the one that stops the most of the stopped rules'
        false positives among the training cases, stopping no more of their true positives."""
        np = _sklearn()["np"]
        y = self.trace._y[self.labels[wrong]]
        universe = self._kb_universe(proposal)
        false = universe & ~y  # type: ignore[operator]
        true = universe & y
        mask = self.trace.cover(present, absent) & universe
        stopped_true = int((mask & true).sum())
        best = (int((mask & false).sum()), 0)
        words = self._kb_words(case)
        rows = np.flatnonzero(universe)
        if not words or not len(rows):
            return present, absent
        xu = self._kb_x[rows][:, words].astype(np.float64)
        fp = xu.T @ false[rows].astype(np.float64)
        tp = xu.T @ true[rows].astype(np.float64)
        ok = tp <= stopped_true
        if not ok.any():
            return present, absent
        fp = np.where(ok, fp, -1.0)
        at = int(np.flatnonzero(fp == fp.max())[0])
        if (float(fp[at]), 0) > best:
            return [self.trace.terms[words[at]]], []
        return present, absent

    def learn(self, case_id: int, case: frozenset[str], gold_labels: Iterable[str]) -> int:
        self._gold_names = set(gold_labels)
        return super().learn(case_id, case, self._gold_names)

    def _word_score(self, proposal: RuleProposal, wrong: int | None) -> Callable[[str], float]:
        trace = self.trace
        if proposal.kind == RuleKind.STOP:
            bad = self.labels[cast(int, wrong)]
            gold = sorted(self._gold_names)

            def stop_score(word: str) -> float:
                own = max((trace.precision(g, word) for g in gold), default=0.0)
                return own - trace.precision(bad, word)

            return stop_score
        target = self.labels[cast(int, proposal.folder)]
        return lambda word: trace.precision(target, word)

    def _path_conditions(self, case: frozenset[str], proposal: RuleProposal, wrong: int | None):
        """Present and absent conditions from the case's path in the relevant tree."""
        if proposal.kind == RuleKind.STOP and self.settings.stop_from == "gold":
            paths = [self.trace.path(g, case) for g in sorted(self._gold_names)]
            paths = [p for p in paths if p.positive and p.present]
            path = paths[0] if paths else TracePath([], False)
            useful = path.positive
        elif proposal.kind == RuleKind.STOP:
            path = self.trace.path(self.labels[cast(int, wrong)], case)
            useful = not path.positive  # the path that says "not W"
        else:
            label = self.labels[cast(int, proposal.folder)]
            if self.settings.knowledge == "words":
                return [], []
            rule = self.trace.covering_rule(label, case) if self.settings.knowledge in ("covering", "best") else None
            if rule is not None and self.settings.knowledge == "best":
                tree_path = self.trace.path(label, case)
                if tree_path.positive and tree_path.present:
                    present, absent = self.trace.generalize(
                        label, list(dict.fromkeys(tree_path.present)), tree_path.absent
                    )
                    precision, hits = self.trace.quality(label, present, absent)
                    if precision * hits > rule.precision * rule.positives:
                        return self._noisy(case, present), sorted(set(absent) - case)
            if rule is not None:  # the learned rule list's reason for the case, as learned (already pruned)
                return self._noisy(case, list(rule.present)), sorted(set(rule.absent) - case)
            path = self.trace.path(label, case).prefix(self.settings.precision)
            useful = path.positive
        if not useful:
            return [], []
        present = list(dict.fromkeys(path.present))
        absent = list(path.absent) if self.settings.absent else []
        if self.settings.generalize and proposal.kind != RuleKind.STOP and present:
            # the most general reason the path gives: its conditions the label does not need dropped
            fresh = None
            if self.settings.kb_aware and self.settings.kb_generalize:
                fresh = self._kb_fresh(proposal)
            present, absent = self.trace.generalize(self.labels[cast(int, proposal.folder)], present, absent, fresh)
        if self.settings.absent_limit is not None:
            absent = absent[: self.settings.absent_limit]
        limit = self.settings.max_conditions
        if limit and len(present) > limit:
            score = self._word_score(proposal, wrong)
            present = sorted(present, key=lambda w: (-score(w), w))[:limit]
        return self._noisy(case, present), sorted(set(absent) - case)

    def _noisy(self, case: frozenset[str], present: list[str]) -> list[str]:
        """The present conditions as stated: with ``noise``, a word now and then replaced by a random case word."""
        if self.noise and present:
            pool = sorted(case)
            present = [self.rng.choice(pool) if self.rng.random() < self.noise else w for w in present]
        return sorted(set(present))

    def _make_rule(self, case_id: int, case: frozenset[str], proposal: RuleProposal, wrong) -> bool:
        score = self._word_score(proposal, wrong)
        present, absent = self._path_conditions(case, proposal, wrong)
        fallback = not present
        if (
            not present
            and proposal.kind != RuleKind.STOP
            or (proposal.kind == RuleKind.STOP and not present and not absent)
        ):
            best = max(sorted(case), key=lambda w: (score(w), -len(w)), default=None)
            floor = 0.0 if proposal.kind == RuleKind.STOP else self.settings.fallback_precision
            if best is None or score(best) <= floor:
                self.stats.unresolved += 1
                return False
            present = [best]
            pair_below = self.settings.pair_below
            if proposal.kind != RuleKind.STOP and pair_below is not None and score(best) < pair_below:
                # a word that means the label only now and then: a person names the case's second word that
                # makes the pair reliable (in the training part), rather than a rule that fires too widely
                target = self.labels[cast(int, proposal.folder)]
                partner = self.trace.best_partner(target, best, case)
                if partner is not None and partner[1] > score(best):
                    present.append(partner[0])
            self.stats.fallbacks += 1
        if self.settings.kb_aware:
            scope = self.settings.kb_scope
            if proposal.kind != RuleKind.STOP:
                if scope == "all" or (scope == "fallback" and fallback) or (scope == "path" and not fallback):
                    present, absent = self._kb_choose(case, proposal, present, absent)
            elif self.settings.kb_stop:
                present, absent = self._kb_choose_stop(case, proposal, cast(int, wrong), present, absent)
        return self._validate_and_commit(case_id, case, proposal.with_conditions(present, absent), score)

    def _exclude(
        self, case: frozenset[str], proposal: RuleProposal, selected: list[int], bad: list[int], score
    ) -> RuleProposal | None:
        """The best word of the recomputed difference list the expert knows for the label; failing that, a
        word the offending cornerstone cases all hold and the case lacks, must be absent."""
        diff = difference_list(case, (self.cornerstones[c] for c in selected))
        diff = [w for w in diff if w not in proposal.conditions and score(w) > 0]
        if diff:
            return proposal.with_conditions([max(diff, key=lambda w: (score(w), w))])
        common = set.intersection(*(set(self.cornerstones[c]) for c in bad)) - case - proposal.absent
        common = {w for w in common if self.trace.support(w) >= self.settings.min_support}
        if not common:
            return None
        return proposal.with_conditions(absent=[min(common, key=lambda w: (score(w), w))])


EXPERTS = ("trace", "svm")


# ---------------------------------------------------------------------------- evaluation
def f1_scores(gold: list[frozenset[str]], predicted: list[set[str]], labels: Sequence[str]) -> tuple[float, float]:
    """Micro and macro F1 over ``labels`` (multi-label sets)."""
    sk = _sklearn()
    binarizer = sk["MultiLabelBinarizer"](classes=list(labels))
    known = set(labels)
    y_true = binarizer.fit_transform([set(g) & known for g in gold])
    y_pred = binarizer.transform([set(p) & known for p in predicted])
    micro = sk["f1_score"](y_true, y_pred, average="micro", zero_division=0)
    macro = sk["f1_score"](y_true, y_pred, average="macro", zero_division=0)
    return float(micro), float(macro)


def baselines(seen: Sequence[Item], test: Sequence[Item], labels: Sequence[str]) -> dict[str, dict[str, float]]:
    """Naive Bayes and linear SVM trained on the cases seen so far (one-vs-rest if multi-label)."""
    sk = _sklearn()
    vectorizer = sk["CountVectorizer"](analyzer=_identity)
    x_seen = vectorizer.fit_transform([item.tokens for item in seen])
    x_test = vectorizer.transform([item.tokens for item in test])
    gold = [item.labels for item in test]
    multi = any(len(item.labels) > 1 for item in seen) or any(len(item.labels) > 1 for item in test)
    out = {}

    def svm():
        return sk["LinearSVC"](random_state=0)  # liblinear shuffles: fix it for reproducible runs

    for name, make in (("naive_bayes", sk["MultinomialNB"]), ("linear_svm", svm)):
        if multi:
            binarizer = sk["MultiLabelBinarizer"](classes=list(labels))
            y = binarizer.fit_transform([item.labels & set(labels) for item in seen])
            columns = [j for j in range(y.shape[1]) if 0 < y[:, j].sum() < len(seen)]
            predicted: list[set[str]] = [set() for _ in test]
            for j in range(y.shape[1]):
                if y[:, j].sum() == len(seen):  # every case seen carries the label
                    for p in predicted:
                        p.add(labels[j])
            if columns:
                model = sk["OneVsRestClassifier"](make()).fit(x_seen, y[:, columns])
                result = model.predict(x_test)
                for i, row in enumerate(result):
                    for c, j in enumerate(columns):
                        if row[c]:
                            predicted[i].add(labels[j])
        else:
            y = [next(iter(item.labels)) for item in seen]
            if len(set(y)) == 1:
                predicted = [{y[0]} for _ in test]
            else:
                model = make().fit(x_seen, y)
                predicted = [{p} for p in model.predict(x_test)]
        micro, macro = f1_scores(gold, predicted, labels)
        out[name] = {"micro_f1": micro, "macro_f1": macro}
    return out


@dataclass
class Checkpoint:
    cases_seen: int
    rules: int
    conditions_per_rule: float
    shown_per_rule: float
    micro_f1: float
    macro_f1: float
    baselines: dict[str, dict[str, float]]
    seconds: float = 0.0

    @property
    def rules_per_case(self) -> float:
        return self.rules / self.cases_seen if self.cases_seen else 0.0

    def to_dict(self) -> dict:
        return {
            "cases_seen": self.cases_seen,
            "rules": self.rules,
            "rules_per_case_seen": round(self.rules_per_case, 4),
            "conditions_per_rule": round(self.conditions_per_rule, 3),
            "cornerstones_shown_per_rule": round(self.shown_per_rule, 3),
            "micro_f1": round(self.micro_f1, 4),
            "macro_f1": round(self.macro_f1, 4),
            "baselines": {k: {m: round(v, 4) for m, v in d.items()} for k, d in self.baselines.items()},
        }


def evaluate_tree(tree: RuleTree, test: Sequence[Item], folders: dict[str, int], labels) -> tuple[float, float]:
    names = {v: k for k, v in folders.items()}
    predicted = [{names[f] for f in tree.folders(item.case)} for item in test]
    return f1_scores([item.labels for item in test], predicted, labels)


def default_checkpoints(n: int) -> list[int]:
    points = [p for p in (25, 50, 100, 250, 500, 1000, 2000, 4000, 8000) if p < n]
    return points + [n]


def validation_split(items: Sequence[Item], share: float = 0.2, seed: int = 0) -> list[Item]:
    """The training part only, a seeded ``share`` of it relabelled "test": the split to tune on.

    The real test part is dropped, so nothing tuned this way has seen it.
    """
    train = [item for item in items if item.split == "train"]
    order = list(train)
    random.Random(seed + 1).shuffle(order)
    held = {item.id for item in order[: round(len(order) * share)]}
    return [replace(item, split="test" if item.id in held else "train") for item in train]


def usable(items: Sequence[Item]) -> tuple[list[Item], int]:
    """The items the filters could read, and how many they rejected (skipped)."""
    kept = [item for item in items if not item.skipped]
    return kept, len(items) - len(kept)


def expert_ceiling(knowledge: TraceKnowledge, test: Sequence[Item], labels: Sequence[str]) -> dict[str, float]:
    """Micro/macro F1 of the expert's trees classifying the test part alone (a label per tree saying yes)."""
    micro, macro = f1_scores([item.labels for item in test], [knowledge.classify(item.case) for item in test], labels)
    return {"micro_f1": micro, "macro_f1": macro}


def run(
    items: Sequence[Item],
    k: int = 3,
    noise: float = 0.0,
    knowledge_limit: int | None = None,
    checkpoints: Sequence[int] | None = None,
    seed: int = 0,
    with_baselines: bool = True,
    progress: Callable[[Checkpoint], None] | None = None,
    expert: str = "trace",
    settings: TraceSettings | None = None,
) -> tuple[SimulatedExpert, list[Checkpoint]]:
    """Stream the training cases through a simulated expert; evaluate at checkpoints.

    ``expert`` is "trace" (the rule-trace expert, :class:`RuleTraceExpert` with ``settings``; ``noise``
    overrides theirs) or "svm" (the SVM-term expert, with ``k``, ``noise`` and ``knowledge_limit``).
    Items the filters rejected are skipped (``expert.stats.skipped``).  With the trace expert
    ``expert.ceiling`` holds its trees' own F1 on the test part.
    """
    if expert not in EXPERTS:
        raise ValueError(f"unknown expert {expert!r}; choose one of {', '.join(EXPERTS)}")
    items, skipped = usable(items)
    train = [item for item in items if item.split == "train"]
    test = [item for item in items if item.split == "test"]
    if not train or not test:
        raise ValueError(f"need training and test cases (got {len(train)} train, {len(test)} test)")
    all_labels = sorted({label for item in items for label in item.labels})
    folders = {label: n + 1 for n, label in enumerate(all_labels)}
    # labels scored: those present in the test part
    labels = sorted({label for item in test for label in item.labels})
    stream = list(train)
    random.Random(seed).shuffle(stream)
    points = sorted({min(p, len(stream)) for p in (checkpoints or default_checkpoints(len(stream)))})
    sim: SimulatedExpert
    if expert == "trace":
        settings = settings or TraceSettings()
        if noise:
            settings = replace(settings, noise=noise)
        trace = TraceKnowledge(train, all_labels, settings)
        sim = RuleTraceExpert(trace, folders, seed=seed)
        sim.ceiling = expert_ceiling(trace, test, labels)
    else:
        sim = SimulatedExpert(fit_knowledge(train, all_labels, knowledge_limit), folders, k=k, noise=noise, seed=seed)
    sim.stats.skipped = skipped
    results: list[Checkpoint] = []
    started = time.perf_counter()
    seen = 0
    for point in points:
        while seen < point:
            item = stream[seen]
            sim.learn(item.id, item.case, item.labels)
            seen += 1
        micro, macro = evaluate_tree(sim.tree, test, folders, labels)
        stats = sim.stats
        rules = max(stats.rules, 1)
        base = baselines(stream[:seen], test, labels) if with_baselines else {}
        checkpoint = Checkpoint(
            seen,
            stats.rules,
            stats.conditions / rules,
            stats.shown / rules,
            micro,
            macro,
            base,
            time.perf_counter() - started,
        )
        results.append(checkpoint)
        if progress:
            progress(checkpoint)
    return sim, results


def format_row(c: Checkpoint) -> str:
    nb = c.baselines.get("naive_bayes", {})
    svm = c.baselines.get("linear_svm", {})
    return (
        f"| {c.cases_seen:6d} | {c.rules:6d} | {c.rules_per_case:5.3f} | {c.conditions_per_rule:5.2f} "
        f"| {c.shown_per_rule:6.2f} | {c.micro_f1:.3f} | {c.macro_f1:.3f} | {nb.get('micro_f1', float('nan')):.3f} "
        f"| {nb.get('macro_f1', float('nan')):.3f} | {svm.get('micro_f1', float('nan')):.3f} "
        f"| {svm.get('macro_f1', float('nan')):.3f} |"
    )


TABLE_HEADER = (
    "| cases seen | rules | rules/case seen | conditions/rule | cornerstones shown/rule | MCRDR micro F1 "
    "| MCRDR macro F1 | NB micro F1 | NB macro F1 | SVM micro F1 | SVM macro F1 |\n"
    "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
)


def summary(results: Sequence[Checkpoint], expert: SimulatedExpert | None = None) -> dict:
    """The final figures in the documented JSON shape, plus the whole curve (and, given the expert,
    its ceiling, the pages skipped and the corrections it could not make)."""
    last = results[-1]
    out = {
        "cases_seen": last.cases_seen,
        "rules": last.rules,
        "rules_per_case_seen": round(last.rules_per_case, 4),
        "cornerstones_shown_per_rule": round(last.shown_per_rule, 3),
        "micro_f1": round(last.micro_f1, 4),
        "macro_f1": round(last.macro_f1, 4),
        "baselines": {k: {m: round(v, 4) for m, v in d.items()} for k, d in last.baselines.items()},
        "curve": [c.to_dict() for c in results],
    }
    if expert is not None:
        s = expert.stats
        out["expert_ceiling"] = {m: round(v, 4) for m, v in expert.ceiling.items()}
        out["skipped"] = s.skipped
        out["accepted"] = s.accepted
        out["unresolved"] = s.unresolved
        out["fallbacks"] = s.fallbacks
        if isinstance(expert, RuleTraceExpert):
            out["settings"] = expert.settings.to_dict()
    return out


def _int_list(text: str) -> list[int]:
    try:
        values = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated integers, got {text!r}") from None
    if not values or any(v < 1 for v in values):
        raise argparse.ArgumentTypeError("checkpoints must be positive integers")
    return values


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m research.simulate", description=__doc__.split("\n\n")[1])
    parser.add_argument("--dataset", type=Path, required=True, help="folder with manifest.csv")
    parser.add_argument("--expert", choices=EXPERTS, default="trace", help="rule-trace (default) or SVM-term expert")
    parser.add_argument(
        "--features",
        choices=FEATURES,
        default=DEFAULT_FEATURES,
        help="cases as bags of words, or as WIMS builds them: words, phrases, title words (default %(default)s)",
    )
    parser.add_argument(
        "--stemming",
        choices=STEMMING,
        default=DEFAULT_STEMMING,
        help="wims features: the knowledge base's Snowball stemming option (default %(default)s)",
    )
    defaults = TraceSettings()
    parser.add_argument("--depth", type=int, default=defaults.max_depth, help="trace: tree depth (0: unlimited)")
    parser.add_argument("--min-leaf", type=int, default=defaults.min_samples_leaf, help="trace: min cases per leaf")
    parser.add_argument("--balanced", action="store_true", help="trace: class_weight='balanced' trees")
    parser.add_argument(
        "--absent",
        action=argparse.BooleanOptionalAction,
        default=defaults.absent,
        help="trace: the path's absent-word tests become must-be-absent conditions",
    )
    parser.add_argument(
        "--pair-below",
        type=float,
        default=defaults.pair_below,
        help="trace: pair a fallback word less precise than this with the case's best partner word (0: never)",
    )
    parser.add_argument(
        "--generalize",
        action=argparse.BooleanOptionalAction,
        default=defaults.generalize,
        help="trace: drop the path conditions a rule does not need (no loss of training precision)",
    )
    parser.add_argument(
        "--knowledge-source",
        choices=KNOWLEDGE_SOURCES,
        default=defaults.knowledge,
        help="trace: a new rule from the tree path, the first covering rule (sequential covering, IREP), the better "
        "of the two, or high-precision words only (default %(default)s)",
    )
    parser.add_argument(
        "--grow-share",
        type=float,
        default=defaults.grow_share,
        help="trace, covering: share of the cases left that grows a rule, the rest prunes it (1: no pruning)",
    )
    parser.add_argument(
        "--m-estimate",
        type=float,
        default=defaults.m_estimate,
        help="trace, covering: choose a rule's words by this m-estimate of its precision (0: FOIL gain)",
    )
    parser.add_argument(
        "--kb-aware",
        action=argparse.BooleanOptionalAction,
        default=defaults.kb_aware,
        help="trace: of the conditions it could state, the expert states those covering most training cases of the "
        "label the knowledge base does not yet give it, at no lower training precision (TraceSettings.kb_aware)",
    )
    parser.add_argument("--k", type=int, default=3, help="svm: conditions the expert picks first (default 3)")
    parser.add_argument("--noise", type=float, default=0.0, help="chance of a random word instead of the expert's")
    parser.add_argument("--knowledge", type=int, default=None, help="svm: terms per label the expert knows")
    parser.add_argument("--checkpoints", type=_int_list, default=None, help="e.g. 50,100,500")
    parser.add_argument("--profile", default=None, help="filter profile for HTML files")
    parser.add_argument("--json", type=Path, default=None, help="write the final figures here")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-baselines", action="store_true", help="skip naive Bayes and linear SVM")
    parser.add_argument(
        "--validate",
        action="store_true",
        help="tune, do not test: hold out a seeded 20%% of the training part and score on it (test part unused)",
    )
    args = parser.parse_args(argv)
    try:
        items = load_manifest(
            args.dataset, seed=args.seed, profile=args.profile, features=args.features, stemming=args.stemming
        )
    except (FileNotFoundError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.validate:
        items = validation_split(items, seed=args.seed)
    settings = replace(
        defaults,
        max_depth=args.depth or None,
        min_samples_leaf=args.min_leaf,
        class_weight="balanced" if args.balanced else None,
        absent=args.absent,
        noise=args.noise,
        pair_below=args.pair_below or None,
        generalize=args.generalize,
        knowledge=args.knowledge_source,
        grow_share=args.grow_share,
        m_estimate=args.m_estimate or None,
        kb_aware=args.kb_aware,
    )
    n_train = sum(item.split == "train" for item in items)
    held = "validation" if args.validate else "test"
    how = f"k={args.k}" if args.expert == "svm" else ", ".join(f"{k}={v}" for k, v in settings.to_dict().items())
    print(
        f"{args.dataset}: {len(items)} documents, {n_train} train, {len(items) - n_train} {held}; "
        f"features: {args.features}, stemming {args.stemming}; {args.expert}: {how}"
    )
    print(TABLE_HEADER)
    try:
        expert, results = run(
            items,
            k=args.k,
            noise=args.noise,
            knowledge_limit=args.knowledge,
            checkpoints=args.checkpoints,
            seed=args.seed,
            with_baselines=not args.no_baselines,
            progress=lambda c: print(format_row(c), flush=True),
            expert=args.expert,
            settings=settings,
        )
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    s = expert.stats
    print(
        f"accepted as is: {s.accepted} of {s.cases_seen} cases; corrections left unresolved: {s.unresolved}; "
        f"pages skipped (filters rejected them): {s.skipped}; {results[-1].seconds:.1f} s"
    )
    if expert.ceiling:
        print(
            f"the expert's own ceiling (its trees alone): micro F1 {expert.ceiling['micro_f1']:.3f}, "
            f"macro F1 {expert.ceiling['macro_f1']:.3f}; rules from the high-precision fallback word: {s.fallbacks}"
        )
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(summary(results, expert), indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
