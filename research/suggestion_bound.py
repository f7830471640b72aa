"""How far any ranking of the page's evidence could bring the simulated expert's words up its lists (issue 30 item 7).

The expert states the words its own knowledge (trees grown on the whole training part) gives it; the rule page ranks
a case's words from what the knowledge base holds at that point of the stream. This runs the stream with the whole
lists shown (``--from-suggestions 0``: the expert states what it wants, so the stream does not depend on the
ranking) and, for every condition it wanted, keeps the list the page ranked. Then, per kind of condition (a new
rule's first word, a stopping rule's first word, the words after them):

* where the page's own ranking (:func:`classifier.acquisition.suggestions`) put the wanted word;
* where the best linear ranking of everything the page knows of each word would put it, fitted on those very
  choices (in sample, so an upper bound for such rankings): the word's precision and its lower bound, its
  agreeing and accepted cases, the share of the folder's accepted cases holding it, the changing cornerstone
  cases it leaves unchanged, whether an earlier rule of the folder or the folder's name holds it, its DocView
  keyword weight, how many stored cases hold it, whether it is a title word, URL word or phrase;
* how many wanted words the page has no evidence for at all (no accepted case holds them, not a keyword of the
  article, not in the folder's name or an earlier rule), and how many it has evidence against.

    python -m research.suggestion_bound --dataset var/datasets/bbc [--checkpoints 1000] [--seed 5]

It reads the validation split only (``--validate`` of research.simulate: 20 % of the training part held out).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path

from classifier.acquisition import RankedWord, _derived, ranked_precision
from classifier.kinds import RuleKind
from research.datasets import load_manifest, validation_split
from research.experiment import run
from research.scikit import sklearn
from research.suggestions import Choice

#: pairs of (wanted word, another listed word) per choice the fitted ranking learns from
PAIRS = 60


def features(choice: Choice, item: RankedWord) -> list[float]:
    """What the page knows of a listed word, as numbers."""
    support = item.support or 0
    agreeing = (item.precision or 0.0) * support
    return [
        ranked_precision(item.precision, item.support),
        0.5 if item.precision is None else item.precision,
        float(item.precision is None),
        math.log1p(support),
        math.log1p(agreeing),
        agreeing / choice.folder_cases if choice.folder_cases else 0.0,
        item.excludes / choice.changing if choice.changing else 1.0,
        float(item.prior),
        float(item.named),
        item.weight,
        math.log1p(item.cases or 0),
        float(_derived(item.word)),
    ]


def page_rank(choice: Choice) -> int:
    """The wanted word's place in the page's own ranking (1 = first)."""
    return next(n for n, item in enumerate(choice.listed, start=1) if item.word == choice.wanted)


def fitted_ranks(choices: Sequence[Choice]) -> list[int]:
    """The wanted words' places under the linear ranking fitted to put them first (pairwise logistic regression)."""
    np = sklearn()["np"]
    from sklearn.linear_model import LogisticRegression

    rng = random.Random(0)
    tables = [np.array([features(c, item) for item in c.listed]) for c in choices]
    wanted = [page_rank(c) - 1 for c in choices]
    pairs, labels = [], []
    for table, at in zip(tables, wanted, strict=True):
        others = [n for n in range(len(table)) if n != at]
        for n in rng.sample(others, min(PAIRS, len(others))):
            pairs += [table[at] - table[n], table[n] - table[at]]
            labels += [1, 0]
    if not pairs:
        return [1 for _ in choices]
    x = np.array(pairs)
    scale = x.std(axis=0) + 1e-9
    model = LogisticRegression(C=1.0, max_iter=5000).fit(x / scale, labels)
    ranks = []
    for table, at in zip(tables, wanted, strict=True):
        score = (table / scale) @ model.coef_[0]
        ranks.append(int((score > score[at]).sum()) + 1)
    return ranks


def no_evidence(choice: Choice) -> bool:
    item = choice.listed[page_rank(choice) - 1]
    return item.precision is None and not item.weight and not item.named and not item.prior


def against(choice: Choice) -> bool:
    item = choice.listed[page_rank(choice) - 1]
    return item.precision is not None and item.precision < 0.5 and (item.support or 0) >= 2


def summary(name: str, ranks: Sequence[int]) -> str:
    share = lambda top: sum(r <= top for r in ranks) / len(ranks)  # noqa: E731
    return (
        f"{name}: median {statistics.median(ranks):g}, in the first 3 {share(3):.2f}, first 5 {share(5):.2f}, "
        f"first 20 {share(20):.2f}"
    )


def report(choices: Sequence[Choice]) -> list[str]:
    groups = {
        "a new rule's first word": lambda c: c.kind == RuleKind.NEW and not c.stated,
        "a stopping rule's first word": lambda c: c.kind == RuleKind.STOP and not c.stated,
        "every condition wanted": lambda c: True,
    }
    lines = []
    for title, wanted in groups.items():
        chosen = [c for c in choices if wanted(c)]
        if not chosen:
            continue
        lines.append(f"{title} ({len(chosen)} wanted)")
        lines.append("  " + summary("the page's ranking", [page_rank(c) for c in chosen]))
        lines.append("  " + summary("the best fitted ranking (in sample)", fitted_ranks(chosen)))
        lines.append(
            f"  no evidence on the page: {sum(map(no_evidence, chosen))}; evidence against (precision < 0.5 over 2 "
            f"or more accepted cases): {sum(map(against, chosen))}"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", type=Path, required=True, help="folder with manifest.csv")
    parser.add_argument("--checkpoints", type=int, default=None, help="stop the stream after this many cases")
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args(argv)
    items = validation_split(load_manifest(args.dataset, seed=args.seed), seed=args.seed)
    expert, _results = run(
        items,
        seed=args.seed,
        with_baselines=False,
        checkpoints=[args.checkpoints] if args.checkpoints else None,
        from_suggestions=0,
    )
    assert expert.view is not None
    print("\n".join(report(expert.view.choices)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
