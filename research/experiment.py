"""The experiment: stream the training cases through a simulated expert and score it at checkpoints.

At checkpoints of cases seen it reports micro/macro F1 on the test part, the
rules, rules per case seen, conditions per rule, cornerstone cases shown per rule,
and the same F1 for scikit-learn's multinomial naive Bayes and linear SVM trained
on the same cases seen; the trace expert's own ceiling (its trees classifying the
test part alone) is printed at the end.  ``--validate`` scores on a seeded 20 %
of the training part instead (the test part unused): tune with it, never on test.
scikit-learn is in the ``bench`` extra.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from research.baselines import baselines
from research.datasets import Item, usable
from research.experts import EXPERTS, RuleTraceExpert, SimulatedExpert
from research.knowledge import TraceKnowledge, TraceSettings, fit_knowledge
from research.metrics import evaluate_tree, expert_ceiling
from research.suggestions import PageView


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
    expert: str = "trace",
    settings: TraceSettings | None = None,
    from_suggestions: int | None = None,
) -> tuple[SimulatedExpert, list[Checkpoint]]:
    """Stream the training cases through a simulated expert; evaluate at checkpoints.

    ``expert`` is "trace" (the rule-trace expert, :class:`RuleTraceExpert` with ``settings``; ``noise``
    overrides theirs) or "svm" (the SVM-term expert, with ``k``, ``noise`` and ``knowledge_limit``).
    Items the filters rejected are skipped (``expert.stats.skipped``).  With the trace expert
    ``expert.ceiling`` holds its trees' own F1 on the test part. ``from_suggestions`` (trace expert): the
    expert states only conditions among the first N words the rule page would show (research.suggestions;
    0: any word of the lists); ``expert.view`` then holds the ranks.
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
    sim = _simulated_expert(expert, train, test, all_labels, labels, folders, k, noise, knowledge_limit, seed, settings)
    sim.stats.skipped = skipped
    if from_suggestions is not None:
        if expert != "trace":
            raise ValueError("--from-suggestions needs the rule-trace expert")
        sim.view = PageView(folders, from_suggestions or None)
    results: list[Checkpoint] = []
    started = time.perf_counter()
    seen = 0
    for point in points:
        for item in stream[seen:point]:
            _learn(sim, item, folders)
        seen = max(seen, point)
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


def _simulated_expert(
    expert: str,
    train: list[Item],
    test: list[Item],
    all_labels: list[str],
    labels: list[str],
    folders: dict[str, int],
    k: int,
    noise: float,
    knowledge_limit: int | None,
    seed: int,
    settings: TraceSettings | None,
) -> SimulatedExpert:
    """The expert :func:`run` streams the cases through (its arguments' meaning there)."""
    if expert == "trace":
        settings = settings or TraceSettings()
        if noise:
            settings = replace(settings, noise=noise)
        trace = TraceKnowledge(train, all_labels, settings)
        sim = RuleTraceExpert(trace, folders, seed=seed)
        sim.ceiling = expert_ceiling(trace, test, labels)
        return sim
    return SimulatedExpert(fit_knowledge(train, all_labels, knowledge_limit), folders, k=k, noise=noise, seed=seed)


def _learn(sim: SimulatedExpert, item: Item, folders: dict[str, int]) -> None:
    """One training case through the expert."""
    if sim.view is not None:  # the case reaches the knowledge base, then the expert's decisions on it
        sim.view.arrive(item.case, item.weights)
    sim.learn(item.id, item.case, item.labels)
    if sim.view is not None:
        sim.view.decided(item.case, (folders[label] for label in item.labels))


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
        if expert.view is not None:
            out["suggestions"] = expert.view.summary()
    return out
