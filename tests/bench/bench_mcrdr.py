"""MCRDR benchmark: simulated-expert learning curves, Experiment 2, speed -> docs/benchmarks/mcrdr.md

    make bench-mcrdr            # or: .venv/bin/python tests/bench/bench_mcrdr.py [--quick] [--only PART]

Parts: ``curves`` (BBC News and Reuters-21578 ModApte through ``research.simulate``,
against multinomial naive Bayes and a linear SVM trained on the same cases seen),
``experiment2`` (the thesis's Experiment 2, see experiment2.py) and ``speed``
(bench_mcrdr_speed.py).  Each part stores its figures in var/bench/mcrdr/*.json;
the document is rebuilt from whatever parts have figures, so one part can be
re-run alone.  Needs the ``bench`` extra (scikit-learn, matplotlib) and
$WIMS_DATASETS (default ../shared/datasets).
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from research import datasets, simulate  # noqa: E402

OUT = ROOT / "var" / "bench" / "mcrdr"
DOC = ROOT / "docs" / "benchmarks" / "mcrdr.md"
CHART = ROOT / "docs" / "benchmarks" / "mcrdr-learning-curves.png"
DATASETS = {"bbc": "BBC News (5 topics, single-label)", "reuters": "Reuters-21578 ModApte (multi-label)"}
K_VALUES = (3, 1)
# k = 1 on Reuters makes one-word rules on frequent words ("shr", "mln") whose validation touches
# thousands of cornerstone cases each: hours on the shared 2-core machine, so BBC only
K_BY_DATASET = {"bbc": K_VALUES, "reuters": K_VALUES[:1]}


def _manifest(name: str) -> Path:
    folder = ROOT / "var" / "datasets" / name
    if not (folder / datasets.MANIFEST).is_file():
        print(f"building {folder}")
        datasets.build(name, folder)
    return folder


def run_curves(quick: bool) -> dict:
    results = {}
    for name in DATASETS:
        items = simulate.load_manifest(_manifest(name), seed=0)
        if quick:
            test = [i for i in items if i.split == "test"][:500]
            items = test + [i for i in items if i.split == "train"][:800]
        for k in K_BY_DATASET[name]:
            started = time.perf_counter()
            expert, curve = simulate.run(items, k=k, seed=0, with_baselines=(k == K_VALUES[0]))
            s = expert.stats
            results[f"{name}-k{k}"] = {
                "dataset": name,
                "k": k,
                "train": sum(i.split == "train" for i in items),
                "test": sum(i.split == "test" for i in items),
                "labels_scored": len({label for i in items if i.split == "test" for label in i.labels}),
                "summary": simulate.summary(curve),
                "accepted": s.accepted,
                "unresolved": s.unresolved,
                "seconds": round(time.perf_counter() - started, 1),
            }
            last = curve[-1]
            print(f"{name} k={k}: micro {last.micro_f1:.3f} macro {last.macro_f1:.3f}, {last.rules} rules")
    return results


def run_speed(quick: bool) -> dict:
    import bench_mcrdr_speed as speed

    out = {"inference": speed.bench_inference(n_rules=10_000, n_cases=300 if quick else 1_000)}
    print("inference", out["inference"])
    stored = 10_000 if quick else 100_000
    out["validation"] = speed.bench_validation(n_cases=stored, trials=20 if quick else 50)
    print("validation", out["validation"])
    return out


def run_experiment2(quick: bool) -> dict:
    import experiment2

    return experiment2.run(quick=quick)


PARTS = {"curves": run_curves, "experiment2": run_experiment2, "speed": run_speed}


# ---------------------------------------------------------------------------- report
METHOD = """
The simulated expert knows the gold labels; its domain knowledge is the positive-weight terms per
label of a one-vs-rest linear SVM on binary term features, fitted on the **training part only**.
It reads the training cases in a seeded shuffled order and, whenever inference is wrong or
incomplete, makes the rule a person would: a refining rule under every rule that gave a wrong
folder (concluding a missing folder), a stopping rule when nothing is missing, a new rule for a
missing folder. Conditions: the k highest-weighted terms of the target label present in the case
(for a stopping rule, the terms weighing most against the wrong label); then, while the rule
would change a cornerstone case unacceptably (lose a correct folder or add a wrong one), it
selects those cases and adds the best-weighted term of the recomputed difference list. The
baselines are trained, at each checkpoint, on exactly the cases the expert has seen (bag of
words; one-vs-rest for Reuters). F1 is measured on the test part; macro F1 averages over the
labels present in the test part.
"""


def _chart(curves: dict) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 2, figsize=(11, 8), sharex="col")
    for col, name in enumerate(DATASETS):
        base = curves.get(f"{name}-k{K_VALUES[0]}")
        if not base:
            continue
        for row, metric in enumerate(("micro_f1", "macro_f1")):
            ax = axes[row][col]
            for k in K_VALUES:
                run = curves.get(f"{name}-k{k}")
                if not run:
                    continue
                pts = run["summary"]["curve"]
                ax.plot(
                    [p["cases_seen"] for p in pts],
                    [p[metric] for p in pts],
                    marker="o",
                    label=f"MCRDR simulated expert, k={k}",
                    linestyle="-" if k == K_VALUES[0] else "-.",
                    color="tab:blue" if k == K_VALUES[0] else "tab:orange",
                )
            pts = base["summary"]["curve"]
            # fixed colours: a panel without the k=1 curve must not shift the others' colours
            comparators = (
                ("naive_bayes", "multinomial naive Bayes", "--", "tab:green"),
                ("linear_svm", "linear SVM", ":", "tab:red"),
            )
            for key, label, style, colour in comparators:
                ax.plot(
                    [p["cases_seen"] for p in pts],
                    [p["baselines"][key][metric] for p in pts],
                    marker="s",
                    linestyle=style,
                    color=colour,
                    label=label,
                )
            ax.set_xscale("log")
            ax.set_ylim(0, 1)
            ax.grid(True, alpha=0.3)
            ax.set_title(f"{DATASETS[name]}: {metric.replace('_', ' ')}")
            if row == 1:
                ax.set_xlabel("training cases seen (stream order)")
            ax.set_ylabel(metric.replace("_", " "))
    axes[0][0].legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    CHART.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(CHART, dpi=110)
    plt.close(fig)


def _curve_table(run: dict) -> list[str]:
    lines = [
        "| cases seen | rules | conditions / rule | cornerstone cases shown / rule "
        "| MCRDR micro F1 | MCRDR macro F1 | NB micro F1 | NB macro F1 | SVM micro F1 | SVM macro F1 "
        "| MCRDR / SVM micro |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for p in run["summary"]["curve"]:
        nb = p["baselines"].get("naive_bayes", {})
        svm = p["baselines"].get("linear_svm", {})
        ratio = p["micro_f1"] / svm["micro_f1"] if svm.get("micro_f1") else float("nan")
        lines.append(
            f"| {p['cases_seen']} | {p['rules']} | {p['conditions_per_rule']:.2f} "
            f"| {p['cornerstones_shown_per_rule']:.2f} | {p['micro_f1']:.3f} | {p['macro_f1']:.3f} "
            f"| {nb.get('micro_f1', float('nan')):.3f} | {nb.get('macro_f1', float('nan')):.3f} "
            f"| {svm.get('micro_f1', float('nan')):.3f} | {svm.get('macro_f1', float('nan')):.3f} "
            f"| {ratio:.2f} |"
        )
    return lines


def _short_table(run: dict) -> list[str]:
    lines = [
        "| cases seen | rules | conditions / rule | cornerstone cases shown / rule | micro F1 | macro F1 |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    for p in run["summary"]["curve"]:
        lines.append(
            f"| {p['cases_seen']} | {p['rules']} | {p['conditions_per_rule']:.2f} "
            f"| {p['cornerstones_shown_per_rule']:.2f} | {p['micro_f1']:.3f} | {p['macro_f1']:.3f} |"
        )
    return lines


def write_doc(figures: dict) -> None:
    curves = figures.get("curves") or {}
    if curves:
        _chart(curves)
    lines = [
        "# MCRDR benchmark",
        "",
        "Generated by `make bench-mcrdr` (`tests/bench/bench_mcrdr.py`);",
        "figures also in `var/bench/mcrdr/*.json`.",
        f"Machine: {platform.machine()}, Python {platform.python_version()}, 2 shared cores.",
        "",
        "## 1. Simulated expert against scikit-learn (learning curves)",
        "",
        "`python -m research.simulate --dataset DIR` on manifests built by",
        "`python -m research.datasets`.",
        *METHOD.strip().splitlines(),
        "",
        f"![learning curves]({CHART.name})",
        "",
    ]
    for name, title in DATASETS.items():
        run = curves.get(f"{name}-k{K_VALUES[0]}")
        if not run:
            lines += [f"### {title}", "", "_not run_", ""]
            continue
        lines += [
            f"### {title}",
            "",
            f"{run['train']} training / {run['test']} test documents, {run['labels_scored']} labels scored; "
            f"k = {run['k']}. Cases accepted as they were: {run['accepted']}; "
            f"corrections the expert could not make without harming a cornerstone case: {run['unresolved']}. "
            f"Run time {run['seconds']} s.",
            "",
            *_curve_table(run),
            "",
        ]
        for k in K_VALUES[1:]:
            other = curves.get(f"{name}-k{k}")
            if other:
                lines += [
                    f"Same stream with k = {k} (a terser expert; "
                    f"{other['accepted']} accepted, {other['unresolved']} unresolved):",
                    "",
                    *_short_table(other),
                    "",
                ]
    exp2 = figures.get("experiment2")
    lines += ["## 2. The thesis's Experiment 2: one knowledge base, several filter configurations", ""]
    if exp2:
        lines += exp2["markdown"]
        lines += [
            "Reading: the direction matches the thesis (unfiltered pages get more conclusions and lower F1,",
            "and the redundant-phrase filter matters more than the redundant-word filter), but the size is",
            "far smaller (at most 1.23× here against 3.1× in the thesis). The simulated expert's conditions",
            "are the label's highest-weighted terms, which template noise rarely contains; the demo",
            "templates' noise is mostly topic-neutral (navigation, cookie banner, footer), and the terser",
            "k = 1 expert, whose one-word rules noise can satisfy, shows the larger effect. A human expert",
            "who picks words seen on the page, site chrome included, would sit closer to the thesis.",
            "",
        ]
    else:
        lines += ["_not run_", ""]
    speed = figures.get("speed")
    lines += ["## 3. Speed of the pure engine", ""]
    if speed:
        inf, val = speed["inference"], speed["validation"]
        lines += [
            "Synthetic knowledge base shaped like news text (Zipf vocabulary of 30,000 words, cases of",
            f"~{inf['distinct_tokens_per_case']} distinct tokens, rules of 1-3 conditions from",
            "mid-frequency words,",
            "40 % ground-breaking, the rest refining or stopping rules at random depths);",
            "see `tests/bench/bench_mcrdr_speed.py`. The alternative is the textbook top-down walk",
            "(test every child of every satisfied rule), checked to give the same folders.",
            "",
            "| measure | target | WIMS (keyword index) | top-down walk | walk / index |",
            "|---|---:|---:|---:|---:|",
            f"| inference, {inf['rules']:,} rules, median per case ({inf['cases']} cases, "
            f"{inf['folders_per_case']} folders per case) | ≤ 1 ms | {inf['indexed_median_ms']:.3f} ms "
            f"| {inf['walk_median_ms']:.3f} ms | {inf['speedup']:.1f}× |",
            "",
            "Validation in the pure core (no database), over "
            f"{val['stored_cases']:,} stored cases indexed by `KeywordIndex` and {val['rules']:,} rules, "
            f"{val['trials']} random proposals:",
            "",
            "| measure | target | median | max |",
            "|---|---:|---:|---:|",
            f"| cornerstone cases to show + difference list ({val['rules']:,} cornerstone cases) | ≤ 200 ms "
            f"| {val['cornerstones_and_difference_median_ms']:.1f} ms | — |",
            f"| duplicated-cases list over all {val['stored_cases']:,} stored cases "
            f"(median {val['median_cases_changed']} cases changed) | — "
            f"| {val['duplicated_cases_median_ms']:.1f} ms | {val['duplicated_cases_max_ms']:.1f} ms |",
            "",
            f"Building the in-memory index of {val['stored_cases']:,} cases took {val['index_build_s']} s "
            "(including generating them). Committing a rule with its classifications in PostgreSQL is",
            "measured by the persistence benchmark, not here.",
            "",
        ]
    else:
        lines += ["_not run_", ""]
    DOC.parent.mkdir(parents=True, exist_ok=True)
    DOC.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {DOC}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    parser.add_argument("--only", choices=sorted(PARTS), action="append", help="run only this part (repeats)")
    args = parser.parse_args(argv)
    warnings.filterwarnings("ignore", module="sklearn.*")
    OUT.mkdir(parents=True, exist_ok=True)
    for part in args.only or list(PARTS):
        figures = PARTS[part](args.quick)
        (OUT / f"{part}.json").write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    figures = {}
    for part in PARTS:
        path = OUT / f"{part}.json"
        if path.is_file():
            figures[part] = json.loads(path.read_text(encoding="utf-8"))
    write_doc(figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
