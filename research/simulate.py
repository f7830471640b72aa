"""Simulated expert: grow an MCRDR knowledge base from labelled documents and measure it (the command line).

    python -m research.simulate --dataset DIR [--features wims|words] [--stemming none|english]
                                  [--expert trace|svm] [--depth 10] [--min-leaf 1] [--balanced] [--no-absent]
                                  [--pair-below 0.9] [--no-generalize] [--knowledge-source tree|covering|best|words]
                                  [--grow-share 1] [--m-estimate 22.4] [--kb-aware] [--noise 0.0] [--k 3]
                                  [--knowledge N] [--checkpoints 50,100,...] [--json FILE] [--seed 0] [--validate]
                                  [--from-suggestions N]

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

The parts, by role: :mod:`research.datasets` (the manifest and its documents read as cases),
:mod:`research.knowledge` and :mod:`research.covering` (the experts' domain knowledge), :mod:`research.experts`
(the two simulated experts), :mod:`research.baselines` (naive Bayes and the linear SVM), :mod:`research.metrics`
(the scores) and :mod:`research.experiment` (the run at checkpoints and its summary).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

from research.datasets import DEFAULT_FEATURES, DEFAULT_STEMMING, FEATURES, STEMMING, load_manifest, validation_split
from research.experiment import Checkpoint, run, summary
from research.experts import EXPERTS, SimulatedExpert
from research.knowledge import KNOWLEDGE_SOURCES, TraceSettings


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


def _int_list(text: str) -> list[int]:
    try:
        values = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated integers, got {text!r}") from None
    if not values or any(v < 1 for v in values):
        raise argparse.ArgumentTypeError("checkpoints must be positive integers")
    return values


def _parser() -> argparse.ArgumentParser:
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
    _add_trace_options(parser, TraceSettings())
    parser.add_argument("--k", type=int, default=3, help="svm: conditions the expert picks first (default 3)")
    parser.add_argument("--noise", type=float, default=0.0, help="chance of a random word instead of the expert's")
    parser.add_argument("--knowledge", type=int, default=None, help="svm: terms per label the expert knows")
    parser.add_argument("--checkpoints", type=_int_list, default=None, help="e.g. 50,100,500")
    parser.add_argument("--profile", default=None, help="filter profile for HTML files")
    parser.add_argument("--json", type=Path, default=None, help="write the final figures here")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--from-suggestions",
        type=int,
        default=None,
        metavar="N",
        help="trace: state only conditions among the first N words the rule page would show (research.suggestions"
        "; 0: any word of the lists), and report each one's rank",
    )
    parser.add_argument("--no-baselines", action="store_true", help="skip naive Bayes and linear SVM")
    parser.add_argument(
        "--validate",
        action="store_true",
        help="tune, do not test: hold out a seeded 20%% of the training part and score on it (test part unused)",
    )
    return parser


def _add_trace_options(parser: argparse.ArgumentParser, defaults: TraceSettings) -> None:
    """The rule-trace expert's options, defaulting to ``defaults``."""
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


def _settings(args: argparse.Namespace, defaults: TraceSettings) -> TraceSettings:
    """The rule-trace expert's settings from the command line."""
    return replace(
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


def _print_outcome(expert: SimulatedExpert, results: list[Checkpoint]) -> None:
    """The lines after the table: the expert's statistics, its ceiling, the ranks of its suggested words."""
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
    if expert.view is not None:
        ranked = expert.view.summary()
        print(
            f"from suggestions: {ranked['from_suggestions']}; conditions stated {ranked['conditions_ranked']}, "
            f"median rank {ranked['median_rank']}, mean {ranked['mean_rank']}, in the first 5: "
            f"{ranked['share_in_first_5']}; not in the lists: {ranked['unlisted']}"
        )


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        items = load_manifest(
            args.dataset, seed=args.seed, profile=args.profile, features=args.features, stemming=args.stemming
        )
    except (FileNotFoundError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.validate:
        items = validation_split(items, seed=args.seed)
    settings = _settings(args, TraceSettings())
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
            from_suggestions=args.from_suggestions,
        )
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    _print_outcome(expert, results)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(summary(results, expert), indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
