"""The scores of the simulated-expert evaluation: micro and macro F1 over the labels of the test part, for a
knowledge base, for the expert's own knowledge alone and (:mod:`research.baselines`) for the baselines."""

from __future__ import annotations

from collections.abc import Sequence

from classifier.engine import RuleTree
from research.datasets import Item
from research.knowledge import TraceKnowledge
from research.scikit import sklearn


def f1_scores(gold: list[frozenset[str]], predicted: list[set[str]], labels: Sequence[str]) -> tuple[float, float]:
    """Micro and macro F1 over ``labels`` (multi-label sets)."""
    sk = sklearn()
    binarizer = sk["MultiLabelBinarizer"](classes=list(labels))
    known = set(labels)
    y_true = binarizer.fit_transform([set(g) & known for g in gold])
    y_pred = binarizer.transform([set(p) & known for p in predicted])
    micro = sk["f1_score"](y_true, y_pred, average="micro", zero_division=0)
    macro = sk["f1_score"](y_true, y_pred, average="macro", zero_division=0)
    return float(micro), float(macro)


def evaluate_tree(tree: RuleTree, test: Sequence[Item], folders: dict[str, int], labels) -> tuple[float, float]:
    names = {v: k for k, v in folders.items()}
    predicted = [{names[f] for f in tree.folders(item.case)} for item in test]
    return f1_scores([item.labels for item in test], predicted, labels)


def expert_ceiling(knowledge: TraceKnowledge, test: Sequence[Item], labels: Sequence[str]) -> dict[str, float]:
    """Micro/macro F1 of the expert's trees classifying the test part alone (a label per tree saying yes)."""
    micro, macro = f1_scores([item.labels for item in test], [knowledge.classify(item.case) for item in test], labels)
    return {"micro_f1": micro, "macro_f1": macro}
