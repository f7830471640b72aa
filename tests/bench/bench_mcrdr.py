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

from research import datasets, experiment  # noqa: E402

OUT = ROOT / "var" / "bench" / "mcrdr"
DOC = ROOT / "docs" / "benchmarks" / "mcrdr.md"
CHART = ROOT / "docs" / "benchmarks" / "mcrdr-learning-curves.png"
DATASETS = {"bbc": "BBC News (5 topics, single-label)", "reuters": "Reuters-21578 ModApte (multi-label)"}
# the rule-trace expert (research.simulate's default) and, for comparison, the SVM-term expert with k = 3
RUNS = ("trace", "svm-k3")
KEPT_SECTION = "## 4. The expert that uses only what the rule page shows"
RUN_TITLES = {"trace": "rule-trace expert", "svm-k3": "SVM-term expert, k = 3"}


def _manifest(name: str) -> Path:
    folder = ROOT / "var" / "datasets" / name
    if not (folder / datasets.MANIFEST).is_file():
        print(f"building {folder}")
        datasets.build(name, folder)
    return folder


def run_curves(quick: bool) -> dict:
    results = {}
    for name in DATASETS:
        items = datasets.load_manifest(_manifest(name), seed=0)
        if quick:
            test = [i for i in items if i.split == "test"][:500]
            items = test + [i for i in items if i.split == "train"][:800]
        for run_name in RUNS:
            started = time.perf_counter()
            kind = run_name.split("-")[0]
            expert, curve = experiment.run(items, k=3, seed=0, with_baselines=(run_name == RUNS[0]), expert=kind)
            s = expert.stats
            results[f"{name}-{run_name}"] = {
                "dataset": name,
                "expert": run_name,
                "train": sum(i.split == "train" for i in items),
                "test": sum(i.split == "test" for i in items),
                "labels_scored": len({label for i in items if i.split == "test" for label in i.labels}),
                "summary": experiment.summary(curve, expert),
                "accepted": s.accepted,
                "unresolved": s.unresolved,
                "seconds": round(time.perf_counter() - started, 1),
            }
            last = curve[-1]
            print(f"{name} {run_name}: micro {last.micro_f1:.3f} macro {last.macro_f1:.3f}, {last.rules} rules")
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
Two simulated experts, both knowing the gold labels and both with domain knowledge fitted on the
**training part only**; each reads the training cases in a seeded shuffled order and, whenever
inference is wrong or incomplete, makes the rule a person would: a refining rule under every rule
that gave a wrong folder (concluding a missing folder), a stopping rule when nothing is missing, a
new rule for a missing folder. While the rule would change a cornerstone case unacceptably (lose a
correct folder or add a wrong one) the expert selects those cases and adds a word of the
recomputed difference list. Neither ever picks an arbitrary word: without a word it knows the
correction is left unresolved.

Each case is built as WIMS builds its cases (`--features wims`, the default):
`classifier.features.case_features` with the default feature settings, so a case holds the words
of the text, its two-word phrases ("prime minister") and `title:` words from the file's first line
(both dataset builders write the title there; these datasets have no URL, so no `site:` / `url:`
words). The experts' trees, the precision of fallback words and the difference lists all work on
these features, so a title word or a phrase can be a condition. `--features words` gives the plain
bag of words (the cases of the earlier runs).

* **Rule-trace expert** (the default of `python -m research.simulate`; Compton's simulated-expert
  method): one binary decision tree per label (scikit-learn `DecisionTreeClassifier`, one-vs-rest,
  binary features, depth 10). A new or refining rule's conditions are the case's path through
  the target label's tree (present-word tests as conditions, absent-word tests as must-be-absent
  conditions); a stopping rule's are the path through the wrong label's tree that says "not this
  label". When the tree is wrong about the case, the condition is the case's word with the best
  precision for the label in the training part (at least 0.5, at least 3 training cases); for a
  new or refining rule, when that word means the label less than 0.9 of the time, it is paired with
  the case's word that makes the pair most precise in the training part (at least 3 training cases
  holding both; only when the pair is more precise than the word alone). The difference-list word
  added for a cornerstone case is the one with the best such precision. A new or refining rule
  states the *generalised* path (`--generalize`, the default; `--no-generalize` gives the whole
  path): as in C4.5rules, the path's conditions are dropped one at a time, each time the one whose
  removal leaves the rule most precise for the label in the training part (then the one that lets
  it cover most of the label's training cases), as long as that precision does not fall below the
  whole path's and one present word stays, so the rule keeps only the conditions the label needs.
  *Expert ceiling*: the trees classifying the test part alone (a label for every tree saying yes).
  `--knowledge-source covering` (an option; the tree path stays the default) states instead the
  first rule, in learned order, of the label's list learned by sequential covering
  (`research.covering.learn_covering_rules`) that covers the case, the tree path when none does:
  rules grown one at a time on the label's training cases not yet covered, each word (present, or
  must-be-absent after the first) chosen by the m-estimate of the rule's precision (m = 22.4), until
  the rule takes in no training case outside the label; its ceiling is the rule lists classifying
  alone.
* **SVM-term expert** (`--expert svm`, the previous default): the k = 3 highest-weighted terms of
  the target label present in the case, from a one-vs-rest linear SVM on binary term features.

What was tuned on what: the tree depth was chosen among 8, 12, 16 and unlimited (with min 1 case
per leaf, no class weights, absent conditions on) by the mean micro F1 of BBC and Reuters on a
validation split carved from each training part (`python -m research.simulate --dataset DIR
--validate --depth D`: a seeded 20 % of the training part held out, the test part unused). Depth 8
scored 0.878 (BBC) and 0.815 (Reuters) there; 12: 0.865 / 0.810; 16: 0.847 / 0.813; unlimited:
0.845 (BBC). Then, at depth 8, the precision below which a fallback word is paired (`--pair-below
P`) was chosen among off, 0.8, 0.9, 0.95 and 0.99 on the same kind of validation split, with seeds
0-3 for BBC and 0-1 for Reuters (seed 0 is `--validate --seed 0`; the other seeds carve the seed-0
manifest's training part with `validation_split(items, seed=s)` and shuffle the stream with
`run(..., seed=s)`). Mean over the seeds, micro F1 at rules per case seen: BBC off 0.875 at 0.134,
0.8: 0.875 at 0.132, 0.9: 0.875 at 0.122, 0.95: 0.873 at 0.116, 0.99: 0.873 at 0.115; Reuters off
0.814 at 0.223 (macro 0.509), 0.8: 0.815 at 0.205 (0.508), 0.9: 0.814 at 0.198 (0.507), 0.95: 0.815
at 0.195 (0.507), 0.99: 0.815 at 0.195 (0.507). 0.9 was kept: fewer rules with no loss of F1 on
either set. All of this was on bags of words. Then the case features and, with them, the depth
again, on the same validation splits and seeds (`--validate --features F --depth D`; mean micro F1
at rules per case seen, Reuters macro F1 in brackets). Bag of words, depth 8: BBC 0.875 at 0.122,
Reuters 0.814 at 0.198 (0.507); depth 6: BBC 0.876 at 0.144. WIMS features, depth 6: BBC 0.887 at
0.134, Reuters 0.838 at 0.206 (0.560); 7: 0.881 at 0.120, 0.838 at 0.195 (0.555); 8: 0.878 at
0.114, 0.839 at 0.182 (0.558); 9: 0.882 at 0.109, 0.838 at 0.171 (0.555); 10: 0.878 at 0.106,
0.839 at 0.165 (0.557); 12: 0.874 at 0.099, 0.836 at 0.156 (0.556); 16: BBC 0.861 at 0.093;
unlimited: BBC 0.849 at 0.092. The WIMS features were kept (at depth 8 better on both sets, and
with fewer rules). Depth: the best mean micro F1 of the two sets is depth 6's (0.863); depths within
0.005 of it count as tied (one seed alone varies by about 0.01 on BBC), and of those (6-10) the one
with the fewest rules per case seen was kept: 10. The knowledge base's optional Snowball stemming
(`--stemming english`: a knowledge base with the product's stemming option switched on, so a case's
"diabetics" meets a rule's "diabetes") was then measured the same way (`--validate --stemming
english --depth D`, same splits and seeds). With stemming, depth 8: BBC 0.868 at 0.115, Reuters
0.833 at 0.184 (0.566); 10: 0.870 at 0.105, 0.833 at 0.167 (0.563); 12: 0.859 at 0.099, 0.835 at
0.157 (0.564); 6: BBC 0.881 at 0.143. Without it, rerun alongside: 8: 0.878 at 0.114, 0.839 at
0.182 (0.559); 10: 0.878 at 0.106, 0.839 at 0.165 (0.557); 12: 0.874 at 0.099, 0.836 at 0.156
(0.556). Stemming lowers micro F1 at every depth, on BBC by 0.008-0.015 and on Reuters by up to
0.006 (its macro F1 rises by 0.005-0.008), so the simulation keeps it off, like a knowledge base
with the option at its default (off). Then the knowledge and how the expert reads it, at depth 10
with WIMS features, on the same validation splits and seeds (mean micro F1 at rules per case seen;
the expert's ceiling, its trees alone, in brackets where it changes; `python -m research.simulate
--validate` and `validation_split` / `run(..., settings=TraceSettings(...))` as above). The whole
path, as before: BBC 0.878 at 0.106 (ceiling 0.854). A diagnosis first: on the seed-0 BBC split the
expert made 121 new rules, 9 stopping rules and no refining rule, because its trees are fitted on
the training part, so their paths are pure on the cases it reads and its rules are almost never
wrong in the stream: the knowledge base is the trees' positive leaves plus the fallback words, and
what limits it is how far a leaf's conditions carry to unseen cases. Several trees per label
(scikit-learn ensembles, 25 trees, `random_state` 0, depth 10; each node's cases and label share
counted on the whole training part; for each correction the expert states, of the case's paths
that give the verdict, the one with the most training cases of it times its purity squared):
random forest (sqrt of the words per split) 0.834 at 0.290 (ceiling 0.622), extremely randomised
trees 0.831 at 0.239 (0.673), bagged trees on every word 0.864 at 0.139 (0.879; purity to the 4th
power 0.864 at 0.129, 8th 0.866 at 0.125), a random forest with 30 % of the words per split 0.859
at 0.149 (0.893, the best ceiling); shallower ensembles (depth 4 / 6: bagged 0.868 at 0.196 / 0.863
at 0.153, forest 30 % 0.866 at 0.206 / 0.864 at 0.177), the shortest path at least 0.9 pure (forest
30 %, depth 6: 0.867 at 0.171), the path judged on the training cases its tree was not grown on
(out-of-bag; bagged 0.867 at 0.132, forest 30 % 0.861 at 0.144), the ensemble's path only where the
tree is wrong about the case, instead of the fallback word (bagged 0.849 at 0.120, forest 30 % 0.861
at 0.119), and the ensemble's paths as alternatives to the tree's, generalised, the one covering
most of the label's training cases kept (bagged 0.875 at 0.137, forest 30 % 0.866 at 0.127): every
ensemble scored below the single tree, with more rules. A forest classifies better than one tree,
but each case's best path comes from a different tree, so the rules overlap instead of partitioning
the cases, and its less pure leaves make rules that the stream then has to stop. The fallback words,
general and precise, did better than any ensemble's path. Generalising the path (C4.5rules'
condition deletion, above) with no loss of training precision: BBC 0.883 at 0.103, Reuters 0.839 at
0.170 (0.558), against the whole path's 0.839 at 0.165 (0.557) on Reuters; at depth 8: BBC 0.880 at
0.114, 9: 0.885 at 0.107, 11: 0.879 at 0.098, 12: 0.879 at 0.096, 16: 0.869 at 0.090, unlimited:
0.860 at 0.088 (deeper trees fall back less often, and the fallback rules are among the best).
Letting the rule lose some training precision gives more F1 but more rules, the stopping rules its
wider reach needs: dropping conditions while the m-estimate of the rule's precision (m = 1) stays
at least 0.95, 0.9 or 0.8: BBC 0.880 at 0.129, 0.883 at 0.152, 0.885 at 0.169; while the m-estimate
with m = 2, 5 or 20 does not fall below the whole path's: 0.883 at 0.128, 0.884 at 0.144, 0.887 at
0.156. With generalisation, pairing below 0.95 instead of 0.9: 0.881 at 0.099; a fallback word's
floor of 0.4 or 0.6 instead of 0.5, stopping rules from the case's own labels' trees, and stopping
rules generalised the same way (no more training cases of the wrong label taken in): unchanged (the
last on Reuters too); the fallback word or pair instead of the generalised path whenever it is as
precise and covers more of the label's training cases: 0.885 at 0.110.
Generalisation with no loss of training precision at depth 10 was kept: on BBC it dominates the
whole path (more F1 with fewer rules), on Reuters it ties (0.005 more rules per case, no rules
target there). Nothing was tuned on the test part. The test part was run once for it (seed 0):
BBC 0.893 micro F1 at 0.105 rules per case seen (the whole path: 0.890 at 0.109), Reuters 0.840
micro / 0.561 macro F1 at 0.172 (the whole path: 0.838 / 0.556 at 0.166).
Then the knowledge source itself (branch trace2), on the same validation splits and seeds
(`--validate --knowledge-source S`; mean micro F1 at rules per case seen; the ceiling in brackets
for BBC, macro F1 for Reuters). The tree path (the default): BBC 0.883 at 0.103 (ceiling 0.854),
Reuters 0.839 at 0.170 (macro 0.558). Rules learned by sequential covering, the first covering rule
of the label's list stated: IREP (FOIL gain on a growing two thirds of the cases left, the final
conditions pruned on the rest while (p - n) / (p + n) does not fall, the list stopped at a rule
below 0.5 precision there; a kept rule's positive cases leave, its negative ones stay, since MCRDR's
rules are unordered): BBC 0.880 at 0.132 (0.797), Reuters 0.839 at 0.204 (macro 0.556); removing the
covered negatives too, as a decision list's IREP does: BBC 0.874 at 0.142 (0.800); growing on 80 % /
90 %: 0.880 at 0.136 / 0.879 at 0.129; the list stopped below 0.8 precision: 0.882 at 0.123 (0.732).
Pruned rules are too general (`club`, or `game & back`, for sport) and the stopping rules the stream
then needs cost more than the tree's. Unpruned (each rule grown on all the cases left until it takes
in no training case outside the label, `--grow-share 1`): BBC 0.847 at 0.073 (0.847), Reuters 0.839
at 0.128 (macro 0.542): every training case is then right from the start, so the knowledge base is
the rule lists themselves (no stopping rule, no fallback word): few rules, but a ceiling below the
trees'. The rule's words chosen by the m-estimate of its precision (Cestnik) instead of FOIL gain, m
= 5, 10, 22.4, 100: BBC 0.869 at 0.106, 0.863 at 0.089, 0.860 at 0.066, 0.839 at 0.048; on Reuters m
= 5: 0.838 at 0.161 (macro 0.548), m = 22.4: 0.845 at 0.099 (macro 0.567), better than the tree path
on all three counts with 40 % fewer rules (the covering option's defaults); m = 22.4 pruned (80 %):
BBC 0.878 at 0.138. With FOIL gain, unpruned: without must-be-absent words BBC 0.815 at 0.125;
must-be-absent words only from 20 / 50 training cases up: 0.844 / 0.845 at 0.074; growth stopped at
Laplace precision 0.97 (the covered negatives removed too), 0.9, 0.8: 0.848 at 0.075, 0.855 at
0.098, 0.860 at 0.126; only rules covering at least 10 / 30 of the label's training cases stated
(the tree path otherwise): 0.859 at 0.088 / 0.870 at 0.097. Of the covering rule and the generalised
tree path, the one with the larger training precision x label cases covered (`--knowledge-source
best`): BBC 0.880 at 0.116 with IREP lists (Reuters 0.840 at 0.182, macro 0.556), 0.883 at 0.120
growing on 80 %, 0.863 at 0.081 unpruned, 0.863 at 0.071 with m = 22.4; the tree path first and the
covering rule only where the tree is wrong about the case, instead of the fallback word (not kept as
an option): 0.867 at 0.082 (m = 22.4), 0.868 at 0.084 (FOIL gain). The fallback word or pair alone,
never a path (`--knowledge-source words`): BBC 0.883 at 0.195; pairing below 0.95: 0.895 at 0.189
(the best BBC F1 of this round, with almost twice the rules allowed), 0.99: 0.892 at 0.195; with a
support of 10 training cases: 0.880 at 0.198. wittgenstein's RIPPER was timed first (one label of
BBC: 1 s on 200 chi2-selected features, 4-5 s on 1,000, 16-18 s on 3,000, on pandas frames):
workable on BBC, too slow for Reuters's 90 labels, hence a compact covering learner on the sparse
term matrix (a few seconds per BBC run). No covering variant reaches the tree path's BBC F1 within
0.10 rules per case seen, so the tree path stays the default and BBC's target stays unmet; on
Reuters the m-estimate lists would be the better choice. Then an expert that knows what the knowledge
base already does (`--kb-aware`, `TraceSettings.kb_aware`, off by default; same validation splits and
seeds): it keeps the knowledge base's verdicts on the training part, updated after each rule, and
states, of the rule it would state today, any one case word and two-word pairs holding a word of that
rule, the one covering the most training cases of the label that the knowledge base does not yet give
it, less 4 for each case outside the label taken in (only cases the rule's parents reach count), at an
m-estimate of precision (m = 5) no lower than today's rule's; a stopping rule's word stops the most
training false positives of the stopped rules. Mean micro F1 at rules per case seen: BBC 0.886 at
0.102, Reuters 0.8425 at 0.169 (macro 0.5615), against 0.883 at 0.103 and 0.839 at 0.170 (0.558);
variants: any pair instead of anchored ones 0.861 at 0.078 (BBC), no pairs 0.888 at 0.104, no pairs
and every label case counted alike 0.887 at 0.109, with the fallback words or pairs alone (`--knowledge-source
words`) 0.896 at 0.176. Run once on the test part: BBC 0.892 at 0.100 (156 rules), Reuters 0.841 / 0.564
at 0.165. It lowers the rule count by covering training cases before the stream reaches them, not by
rules that carry better to unseen cases (on seed 0, 44 missed labels against 33), its gain is within
seed noise (about 0.003), and it lets the simulated expert see cases still to come in the stream,
which a person could not: it stays off. Every variant of this round sits on the line the depth and
generalisation settings drew, about 0.883-0.888 micro F1 at 0.10 rules per case seen on validation. Issue 14's
targets (BBC micro F1 >= 0.90 at <= 0.10 rules per case seen; Reuters micro F1 >= 0.83 and macro
F1 above the linear SVM's): Reuters's are met, BBC's are not: see the tables below. The baselines
are trained, at each checkpoint, on exactly the cases the expert has seen (bag of words, as before:
they do not get the phrases and title words; one-vs-rest for Reuters). For information, on the
seed-0 validation split the linear SVM given the phrases and title words too scores BBC 0.974 micro
F1 (bag of words: 0.971) and Reuters 0.869 micro / 0.444 macro (bag of words: 0.854 / 0.461). The
experts' knowledge is fitted once on the whole training part. F1 is measured on the test part; macro F1 averages over
the labels present in the test part.
"""


def _chart(curves: dict) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 2, figsize=(11, 8), sharex="col")
    styles = {"trace": ("-", "tab:blue"), "svm-k3": ("-.", "tab:orange")}
    for col, name in enumerate(DATASETS):
        base = curves.get(f"{name}-{RUNS[0]}")
        if not base:
            continue
        for row, metric in enumerate(("micro_f1", "macro_f1")):
            ax = axes[row][col]
            for run_name in RUNS:
                run = curves.get(f"{name}-{run_name}")
                if not run:
                    continue
                pts = run["summary"]["curve"]
                style, colour = styles[run_name]
                ax.plot(
                    [p["cases_seen"] for p in pts],
                    [p[metric] for p in pts],
                    marker="o",
                    label=f"MCRDR, {RUN_TITLES[run_name]}",
                    linestyle=style,
                    color=colour,
                )
            pts = base["summary"]["curve"]
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
            ceiling = base["summary"].get("expert_ceiling", {}).get(metric)
            if ceiling is not None:
                ax.axhline(ceiling, color="tab:gray", linewidth=1, label="rule-trace expert's trees alone")
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


def _ratio(a: float, b: float | None) -> str:
    return f"{a / b:.2f}" if b else "—"


def _curve_table(run: dict) -> list[str]:
    lines = [
        "| cases seen | rules | rules / case seen | conditions / rule | cornerstone cases shown / rule "
        "| MCRDR micro F1 | MCRDR macro F1 | NB micro F1 | NB macro F1 | SVM micro F1 | SVM macro F1 "
        "| MCRDR / SVM micro | MCRDR / SVM macro | MCRDR / NB micro |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for p in run["summary"]["curve"]:
        nb = p["baselines"].get("naive_bayes", {})
        svm = p["baselines"].get("linear_svm", {})
        lines.append(
            f"| {p['cases_seen']} | {p['rules']} | {p['rules'] / p['cases_seen']:.3f} | {p['conditions_per_rule']:.2f} "
            f"| {p['cornerstones_shown_per_rule']:.2f} | {p['micro_f1']:.3f} | {p['macro_f1']:.3f} "
            f"| {nb.get('micro_f1', float('nan')):.3f} | {nb.get('macro_f1', float('nan')):.3f} "
            f"| {svm.get('micro_f1', float('nan')):.3f} | {svm.get('macro_f1', float('nan')):.3f} "
            f"| {_ratio(p['micro_f1'], svm.get('micro_f1'))} | {_ratio(p['macro_f1'], svm.get('macro_f1'))} "
            f"| {_ratio(p['micro_f1'], nb.get('micro_f1'))} |"
        )
    return lines


def _short_table(run: dict) -> list[str]:
    lines = [
        "| cases seen | rules | rules / case seen | conditions / rule | cornerstone cases shown / rule "
        "| micro F1 | macro F1 |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for p in run["summary"]["curve"]:
        lines.append(
            f"| {p['cases_seen']} | {p['rules']} | {p['rules'] / p['cases_seen']:.3f} | {p['conditions_per_rule']:.2f} "
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
        "## 1. Simulated experts against scikit-learn (learning curves)",
        "",
        "`python -m research.simulate --dataset DIR` on manifests built by",
        "`python -m research.datasets`.",
        *METHOD.strip().splitlines(),
        "",
        f"![learning curves]({CHART.name})",
        "",
    ]
    for name, title in DATASETS.items():
        lines += _dataset_section(name, title, curves)
    exp2 = figures.get("experiment2")
    lines += ["## 2. The thesis's Experiment 2: one knowledge base, several filter configurations", ""]
    if exp2:
        lines += exp2["markdown"]
    else:
        lines += ["_not run_", ""]
    lines += ["## 3. Speed of the pure engine", ""]
    lines += _speed_section(figures.get("speed"))
    # section 4 (the expert that reads the rule page) is written from research.simulate's runs, not by this bench:
    # kept as it stands
    old = DOC.read_text(encoding="utf-8") if DOC.exists() else ""
    if KEPT_SECTION in old:
        lines += [old[old.index(KEPT_SECTION) :].rstrip("\n")]
    DOC.parent.mkdir(parents=True, exist_ok=True)
    DOC.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {DOC}")


def _dataset_section(name: str, title: str, curves: dict) -> list[str]:
    """A dataset's rule-trace run against the baselines, its learning curve, then the other runs of the stream."""
    run = curves.get(f"{name}-{RUNS[0]}")
    if not run:
        return [f"### {title}", "", "_not run_", ""]
    sm = run["summary"]
    ceiling = sm.get("expert_ceiling", {})
    base = sm["baselines"]
    lines = [
        f"### {title}",
        "",
        f"{run['train']} training / {run['test']} test documents, {run['labels_scored']} labels scored. "
        f"Rule-trace expert: {sm['rules']} rules, {sm['rules'] / sm['cases_seen']:.3f} rules per case seen, "
        f"{sm['cornerstones_shown_per_rule']:.2f} cornerstone cases shown per rule; "
        f"cases accepted as they were: {run['accepted']}; corrections left unresolved: {run['unresolved']}; "
        f"rules whose first condition is the fallback word: {sm.get('fallbacks', 0)}; "
        f"pages skipped: {sm.get('skipped', 0)}. Run time {run['seconds']} s.",
        "",
        "| at the end of the stream | micro F1 | macro F1 |",
        "|---|---:|---:|",
        f"| MCRDR, rule-trace expert | {sm['micro_f1']:.3f} | {sm['macro_f1']:.3f} |",
        f"| the expert's trees alone (its ceiling) | {ceiling.get('micro_f1', float('nan')):.3f} "
        f"| {ceiling.get('macro_f1', float('nan')):.3f} |",
        f"| multinomial naive Bayes | {base['naive_bayes']['micro_f1']:.3f} | {base['naive_bayes']['macro_f1']:.3f} |",
        f"| linear SVM | {base['linear_svm']['micro_f1']:.3f} | {base['linear_svm']['macro_f1']:.3f} |",
        "",
        "Rule-trace expert, learning curve with the baselines trained on the same cases seen:",
        "",
        *_curve_table(run),
        "",
    ]
    for run_name in RUNS[1:]:
        other = curves.get(f"{name}-{run_name}")
        if other:
            lines += [
                f"Same stream, {RUN_TITLES[run_name]} "
                f"({other['accepted']} accepted, {other['unresolved']} unresolved):",
                "",
                *_short_table(other),
                "",
            ]
    return lines


def _speed_section(speed: dict | None) -> list[str]:
    """The pure engine's inference and validation against their targets and the textbook walk."""
    if not speed:
        return ["_not run_", ""]
    inf, val = speed["inference"], speed["validation"]
    return [
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
