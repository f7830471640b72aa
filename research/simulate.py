"""Simulated expert: grow an MCRDR knowledge base from labelled documents and measure it.

    python -m research.simulate --dataset DIR [--k 3] [--noise 0.0] [--knowledge N]
                                  [--checkpoints 50,100,...] [--json FILE] [--seed 0]

``DIR`` holds ``manifest.csv`` (see :mod:`research.datasets`).  Files are
``.txt`` (tokenised with the filters' tokenizer and stop words) or ``.html`` /
``.html.gz`` (run through ``filters.extract`` with ``--profile``).

The simulated expert knows the gold labels.  Its domain knowledge is the
highest-weighted terms per label of a linear model (one-vs-rest linear SVM on
binary term features) fitted on the training part only.  It reads the training
cases in (seeded, shuffled) stream order; whenever inference is wrong or
incomplete it makes the rule a person would:

* a wrong folder and a missing one: a **refining** rule under every rule that
  gave the wrong folder, concluding the missing folder (a "move");
* a wrong folder only: a **stopping** rule under those rules;
* a missing folder only: a **new** (ground-breaking) rule.

Conditions: the ``k`` highest-weighted terms of the target label present in the
case (for a stopping rule: the terms weighing most *against* the wrong label),
i.e. the difference list against no selected cornerstone case.  Then it looks
at the cornerstone cases the rule would change, selects those whose change it
does not accept (a correct folder lost or a wrong one gained), and adds the
best-weighted term of the recomputed difference list, until no unacceptable
change remains.  ``--noise p`` replaces each chosen term by a random one from
the same list with probability p; ``--knowledge N`` limits the expert to the N
best terms per label (weaker experts).

At checkpoints of cases seen it reports micro/macro F1 on the test part, the
rules, conditions per rule, cornerstone cases shown per rule, and the same F1
for scikit-learn's multinomial naive Bayes and linear SVM trained on the same
cases seen.  scikit-learn is in the ``bench`` extra.
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
from dataclasses import dataclass, field
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
    from filters import tokenize as _filters_tokenize
    from filters.stopwords import ENGLISH as _STOP_WORDS
except ImportError:  # pragma: no cover - only while the filters package is missing
    import re

    _STOP_WORDS = frozenset()
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

    @property
    def case(self) -> frozenset[str]:
        return frozenset(self.tokens)


def read_tokens(path: Path, profile=None) -> list[str]:
    """Tokens of one dataset file: .txt directly, .html/.html.gz through the filters."""
    name = path.name.lower()
    if name.endswith(".txt"):
        return tokenize_text(path.read_text(encoding="utf-8", errors="replace"))
    if name.endswith(".html.gz") or name.endswith(".htm.gz"):
        with gzip.open(path, "rb") as handle:
            data = handle.read()
    elif name.endswith((".html", ".htm")):
        data = path.read_bytes()
    else:
        raise ValueError(f"{path}: unsupported file type (expected .txt, .html or .html.gz)")
    import filters  # the HTML path needs the filters package

    return list(filters.extract(data, profile=profile).tokens)


def load_manifest(dataset: Path, seed: int = 0, profile=None, test_share: float = 0.3) -> list[Item]:
    """Read ``manifest.csv`` and the documents; a missing split column gets a seeded split."""
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
        item.tokens = read_tokens(item.path, profile)
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
    x = vectorizer.fit_transform([item.tokens for item in train])
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
        start = [t for t in case if score(t) > 0] or sorted(case)
        if not start:
            self.stats.unresolved += 1
            return False
        proposal = proposal.with_conditions(self._pick(start, score, self.k))
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
            diff = difference_list(case, (self.cornerstones[c] for c in selected))
            diff = [t for t in diff if t not in proposal.conditions]
            if not diff:
                self.stats.unresolved += 1
                return False
            proposal = proposal.with_conditions(self._pick(diff, score, 1))
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

    def to_dict(self) -> dict:
        return {
            "cases_seen": self.cases_seen,
            "rules": self.rules,
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


def run(
    items: Sequence[Item],
    k: int = 3,
    noise: float = 0.0,
    knowledge_limit: int | None = None,
    checkpoints: Sequence[int] | None = None,
    seed: int = 0,
    with_baselines: bool = True,
    progress: Callable[[Checkpoint], None] | None = None,
) -> tuple[SimulatedExpert, list[Checkpoint]]:
    """Stream the training cases through a simulated expert; evaluate at checkpoints."""
    train = [item for item in items if item.split == "train"]
    test = [item for item in items if item.split == "test"]
    if not train or not test:
        raise ValueError(f"need training and test cases (got {len(train)} train, {len(test)} test)")
    all_labels = sorted({label for item in items for label in item.labels})
    folders = {label: n + 1 for n, label in enumerate(all_labels)}
    # labels scored: those present in the test part
    labels = sorted({label for item in test for label in item.labels})
    knowledge = fit_knowledge(train, all_labels, knowledge_limit)
    stream = list(train)
    random.Random(seed).shuffle(stream)
    points = sorted({min(p, len(stream)) for p in (checkpoints or default_checkpoints(len(stream)))})
    expert = SimulatedExpert(knowledge, folders, k=k, noise=noise, seed=seed)
    results: list[Checkpoint] = []
    started = time.perf_counter()
    seen = 0
    for point in points:
        while seen < point:
            item = stream[seen]
            expert.learn(item.id, item.case, item.labels)
            seen += 1
        micro, macro = evaluate_tree(expert.tree, test, folders, labels)
        stats = expert.stats
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
    return expert, results


def format_row(c: Checkpoint) -> str:
    nb = c.baselines.get("naive_bayes", {})
    svm = c.baselines.get("linear_svm", {})
    return (
        f"| {c.cases_seen:6d} | {c.rules:6d} | {c.conditions_per_rule:5.2f} | {c.shown_per_rule:6.2f} "
        f"| {c.micro_f1:.3f} | {c.macro_f1:.3f} | {nb.get('micro_f1', float('nan')):.3f} "
        f"| {nb.get('macro_f1', float('nan')):.3f} | {svm.get('micro_f1', float('nan')):.3f} "
        f"| {svm.get('macro_f1', float('nan')):.3f} |"
    )


TABLE_HEADER = (
    "| cases seen | rules | conditions/rule | cornerstones shown/rule | MCRDR micro F1 | MCRDR macro F1 "
    "| NB micro F1 | NB macro F1 | SVM micro F1 | SVM macro F1 |\n"
    "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
)


def summary(results: Sequence[Checkpoint]) -> dict:
    """The final figures in the documented JSON shape, plus the whole curve."""
    last = results[-1]
    return {
        "cases_seen": last.cases_seen,
        "rules": last.rules,
        "micro_f1": round(last.micro_f1, 4),
        "macro_f1": round(last.macro_f1, 4),
        "baselines": {k: {m: round(v, 4) for m, v in d.items()} for k, d in last.baselines.items()},
        "curve": [c.to_dict() for c in results],
    }


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
    parser.add_argument("--k", type=int, default=3, help="conditions the expert picks first (default 3)")
    parser.add_argument("--noise", type=float, default=0.0, help="chance of a random term instead of the best")
    parser.add_argument("--knowledge", type=int, default=None, help="terms per label the expert knows")
    parser.add_argument("--checkpoints", type=_int_list, default=None, help="e.g. 50,100,500")
    parser.add_argument("--profile", default=None, help="filter profile for HTML files")
    parser.add_argument("--json", type=Path, default=None, help="write the final figures here")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-baselines", action="store_true", help="skip naive Bayes and linear SVM")
    args = parser.parse_args(argv)
    try:
        items = load_manifest(args.dataset, seed=args.seed, profile=args.profile)
    except (FileNotFoundError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    n_train = sum(item.split == "train" for item in items)
    print(f"{args.dataset}: {len(items)} documents, {n_train} train, {len(items) - n_train} test; k={args.k}")
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
        )
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    s = expert.stats
    print(
        f"accepted as is: {s.accepted} of {s.cases_seen} cases; corrections left unresolved: {s.unresolved}; "
        f"{results[-1].seconds:.1f} s"
    )
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(summary(results), indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
