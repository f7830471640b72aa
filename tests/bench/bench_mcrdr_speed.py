"""Speed of the pure MCRDR core: inference with 10,000 rules, validation over 100,000 cases.

Synthetic but shaped like news text: a Zipf-distributed vocabulary of 30,000 words,
cases of ~150 distinct tokens, rules of 1-3 conditions drawn from the mid-frequency
words (the ones an expert picks: not "said", not a typo), 40 % ground-breaking and
the rest refining or stopping rules under random concluding rules.

The alternative measured side by side is the textbook top-down walk that tests
every child of every satisfied rule (no keyword index).

Run through tests/bench/bench_mcrdr.py, or alone: python tests/bench/bench_mcrdr_speed.py
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from classifier.acquisition import RuleProposal, changed_cases, cornerstones_changed, difference_list  # noqa: E402
from classifier.engine import Rule, RuleTree  # noqa: E402
from classifier.index import KeywordIndex  # noqa: E402

VOCABULARY = 30_000


def _zipf_sampler(rng: random.Random, n: int, s: float = 1.05):
    weights = [1 / (rank**s) for rank in range(1, n + 1)]
    cum = []
    total = 0.0
    for w in weights:
        total += w
        cum.append(total)
    words = [f"w{i}" for i in range(n)]

    def sample(k: int) -> list[str]:
        return rng.choices(words, cum_weights=cum, k=k)

    return sample


def make_cases(n: int, tokens: int = 250, seed: int = 1) -> list[frozenset[str]]:
    """n cases, each the distinct words of a ``tokens``-long Zipf text (~150 distinct)."""
    rng = random.Random(seed)
    sample = _zipf_sampler(rng, VOCABULARY)
    return [frozenset(sample(tokens)) for _ in range(n)]


def make_tree(n_rules: int, folders: int = 200, seed: int = 2) -> RuleTree:
    rng = random.Random(seed)
    # conditions from ranks 300..10,000: topical words, neither stop-like nor hapax
    pool = [f"w{i}" for i in range(300, 10_000)]
    tree = RuleTree()
    concluding: list[Rule] = []
    for rid in range(1, n_rules + 1):
        conditions = frozenset(rng.sample(pool, rng.randint(1, 3)))
        if not concluding or rng.random() < 0.4:
            rule = Rule(rid, None, rng.randint(1, folders), conditions)
        else:
            parent = rng.choice(concluding)
            if rng.random() < 0.3:
                rule = Rule(rid, parent.id, None, conditions)
            else:
                folder = rng.randint(1, folders)
                if folder == parent.folder:
                    folder = folder % folders + 1
                rule = Rule(rid, parent.id, folder, conditions)
        tree.add(rule)
        if rule.folder is not None:
            concluding.append(rule)
    return tree


def _median_ms(fn, items, repeat: int = 1) -> float:
    times = []
    for item in items:
        start = time.perf_counter()
        for _ in range(repeat):
            fn(item)
        times.append((time.perf_counter() - start) / repeat * 1000)
    return statistics.median(times)


def bench_inference(n_rules: int = 10_000, n_cases: int = 1_000) -> dict:
    tree = make_tree(n_rules)
    cases = make_cases(n_cases)
    # the naive walk's children() sorts lists; give it a prebuilt child map to be fair
    children: dict[int | None, list[Rule]] = {None: []}
    for rule in tree:
        children[rule.id] = []
        children[rule.parent_id].append(rule)

    def walk(case):
        out = set()
        stack = [r for r in children[None] if r.satisfied_by(case)]
        while stack:
            rule = stack.pop()
            fired = [c for c in children[rule.id] if c.satisfied_by(case)]
            if fired:
                stack.extend(fired)
            elif rule.folder is not None:
                out.add(rule.folder)
        return out

    mismatches = sum(tree.folders(c) != walk(c) for c in cases[:200])
    if mismatches:
        raise AssertionError(f"indexed inference disagrees with the walk on {mismatches} cases")
    indexed = _median_ms(tree.infer, cases)
    naive = _median_ms(walk, cases[:200])
    conclusions = statistics.mean(len(tree.folders(c)) for c in cases)
    return {
        "rules": n_rules,
        "cases": n_cases,
        "distinct_tokens_per_case": round(statistics.mean(len(c) for c in cases), 1),
        "folders_per_case": round(conclusions, 2),
        "indexed_median_ms": round(indexed, 4),
        "walk_median_ms": round(naive, 4),
        "speedup": round(naive / indexed, 1),
    }


def bench_validation(n_cases: int = 100_000, n_rules: int = 10_000, trials: int = 50) -> dict:
    """Cornerstone cases + difference list + duplicated-cases list over n stored cases."""
    tree = make_tree(n_rules)
    started = time.perf_counter()
    stored = make_cases(n_cases, seed=3)
    cases = dict(enumerate(stored))
    index = KeywordIndex(cases.items())
    build_s = time.perf_counter() - started
    # cornerstone cases: one per rule (the rules' own cases)
    cornerstones = {i: cases[i] for i in range(n_rules)}
    rng = random.Random(4)
    timings_cs, timings_dup = [], []
    shown_sizes, dup_sizes = [], []
    concluding = [r for r in tree if r.folder is not None]
    for _ in range(trials):
        case = make_cases(1, seed=rng.randint(10, 10**9))[0]
        mid = sorted((w for w in case if 300 <= int(w[1:]) < 10_000), key=lambda w: int(w[1:]))
        if not mid:
            continue
        conditions = frozenset(rng.sample(mid, min(2, len(mid))))
        parent = rng.choice(concluding)
        proposal = RuleProposal("refine", parent.folder % 200 + 1, conditions, parent_ids=(parent.id,))
        proposal = RuleProposal("new", parent.folder, conditions) if rng.random() < 0.5 else proposal
        start = time.perf_counter()
        shown = cornerstones_changed(tree, proposal, cornerstones, index)
        difference_list(case, [cornerstones[i] for i in shown])
        timings_cs.append((time.perf_counter() - start) * 1000)
        start = time.perf_counter()
        dup = changed_cases(tree, proposal, cases, index)
        timings_dup.append((time.perf_counter() - start) * 1000)
        shown_sizes.append(len(shown))
        dup_sizes.append(len(dup))
    return {
        "stored_cases": n_cases,
        "rules": n_rules,
        "index_build_s": round(build_s, 1),
        "cornerstones_and_difference_median_ms": round(statistics.median(timings_cs), 2),
        "duplicated_cases_median_ms": round(statistics.median(timings_dup), 2),
        "duplicated_cases_max_ms": round(max(timings_dup), 2),
        "median_cases_changed": statistics.median(dup_sizes),
        "trials": len(timings_cs),
    }


if __name__ == "__main__":
    import json

    print(json.dumps(bench_inference(), indent=2))
    print(json.dumps(bench_validation(), indent=2))
