"""Site style tree (filters.sst) on crawl-to-the-future, leave-one-out per site and year.

Each page is extracted with a profile learned from the *other* pages of its site and year.  The tuning split
is 2000 and 2005, the test split 2010 and 2015 (thresholds and the stage order are chosen on tuning only).

    .venv/bin/python tests/bench/sst_eval.py sweep   # tuning split: SST thresholds x before/after content
    SST_THRESHOLDS=0,0.02,0.05 .venv/bin/python tests/bench/sst_eval.py sweep   # other thresholds
    .venv/bin/python tests/bench/sst_eval.py final   # both splits: the configurations, F1/P/R, time ratios

Configurations (``final``): default single page; default + SST learning (today's learn_profile); default +
redundant-phrase learning (learn_profile(style_tree=False)); default + SST + redundant phrases and words;
thesis learned.  Time: per page, the extraction with the learned profile and lxml.html's parse, each the
second of two identical calls (as tests/bench/bench_filters.py times them); the figure is the median of the
per-page ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import filters  # noqa: E402
from filters import pipeline, sst  # noqa: E402
from filters.learning import analyse_page, learn_profile, refilter  # noqa: E402
from filters.metrics import aggregate_scores, shingle_scores  # noqa: E402
from filters.pipeline import tokenize  # noqa: E402
from filters.stopwords import get_stop_words  # noqa: E402
from tests.bench.bench_filters import _lxml_floor, _timed_warm, load_ctf  # noqa: E402

TUNING = ("2000", "2005")
THRESHOLDS = tuple(float(t) for t in os.environ.get("SST_THRESHOLDS", "0.05,0.1,0.2,0.3,0.45").split(","))


def _groups(years):
    groups = defaultdict(list)
    for page in load_ctf(None):
        if page["group"].rsplit("/", 1)[1] in years:
            groups[page["group"]].append(page)
    return sorted(groups.items())


def _text(phrases):
    return "\n".join(p.text for p in phrases if p.removed_by is None)


def _sweep_group(item):
    group, members = item
    stop = get_stop_words("en")
    samples = [analyse_page(p["html"], url=p["id"], profile="default") for p in members]
    out = defaultdict(list)
    for k, page in enumerate(members):
        others = [s for j, s in enumerate(samples) if j != k]
        plain = learn_profile(others, style_tree=False)
        out["redundant phrases"].append(shingle_scores(_text(refilter(samples[k], plain)), page["gold"]))
        base = plain.copy(filtering_phrases=[], filtering_words={})
        for t in THRESHOLDS:
            tree = sst.build(((s.blocks, s.phrases) for s in others), lambda x: tokenize(x, stop), threshold=t)
            prof = base.copy(style_tree=tree)
            for first in (True, False):
                pipeline.STYLE_TREE_FIRST = first
                name = f"SST t={t} {'before' if first else 'after'}"
                out[name].append(shingle_scores(_text(refilter(samples[k], prof)), page["gold"]))
        pipeline.STYLE_TREE_FIRST = True
    return group, dict(out)


def _final_group(item):
    group, members = item
    samples = {p: [analyse_page(m["html"], url=m["id"], profile=p) for m in members] for p in ("default", "thesis")}
    out = defaultdict(list)
    ms = defaultdict(list)
    sizes = []
    weights = []
    for k, page in enumerate(members):
        html, gold = page["html"], page["gold"]
        others = {p: [s for j, s in enumerate(v) if j != k] for p, v in samples.items()}
        profs = {
            "default + SST": learn_profile(others["default"]),
            "default + redundant phrases": learn_profile(others["default"], style_tree=False),
            "thesis learned": learn_profile(others["thesis"], base="thesis"),
        }
        both = profs["default + SST"].copy(
            filtering_phrases=profs["default + redundant phrases"].filtering_phrases,
            filtering_words=profs["default + redundant phrases"].filtering_words,
        )
        profs["default + SST + redundant phrases"] = both
        sizes.append(len(json.dumps(profs["default + SST"].style_tree)))
        _, floor = _timed_warm(_lxml_floor, html)
        ms["lxml.html parse"].append(floor)
        single, t = _timed_warm(lambda h: filters.extract(h, profile="default"), html)
        out["default single page"].append(shingle_scores(single.text, gold))
        ms["default single page"].append(t)
        for name, prof in profs.items():
            ex, t = _timed_warm(lambda h, p=prof: filters.extract(h, profile=p), html)
            out[name].append(shingle_scores(ex.text, gold))
            ms[name].append(t)
            if name == "default + SST":
                weights.append(ex.token_weights)
    return group, dict(out), dict(ms), sizes, _weight_check(weights, members)


def _weight_check(weights, members):
    """Mean token weight of tokens in the gold text vs the other core tokens (does the CST weight tell them apart)."""
    gold_w, other_w = [], []
    for w, page in zip(weights, members, strict=True):
        gold = set(tokenize(page["gold"]))
        for tok, v in w.items():
            (gold_w if tok in gold else other_w).append(v)
    return gold_w, other_w


def _report(name, scores):
    agg = aggregate_scores(scores)
    return f"{name:45s} F1 {agg['f1']:.4f}  P {agg['precision']:.4f}  R {agg['recall']:.4f}  (n={len(scores)})"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=("sweep", "final"))
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    t0 = time.time()
    if args.mode == "sweep":
        total = defaultdict(list)
        with ProcessPoolExecutor(args.workers) as pool:
            for group, out in pool.map(_sweep_group, _groups(TUNING)):
                print("  done", group, file=sys.stderr)
                for k, v in out.items():
                    total[k].extend(v)
        print("tuning split (2000, 2005), leave-one-out:")
        for k in sorted(total, key=lambda k: -aggregate_scores(total[k])["f1"]):
            print(_report(k, total[k]))
    else:
        for split, years in (("tuning (2000, 2005)", TUNING), ("test (2010, 2015)", ("2010", "2015"))):
            total = defaultdict(list)
            times = defaultdict(list)
            sizes = []
            gold_w, other_w = [], []
            with ProcessPoolExecutor(args.workers) as pool:
                for group, out, ms, sz, (gw, ow) in pool.map(_final_group, _groups(years)):
                    print("  done", group, file=sys.stderr)
                    for k, v in out.items():
                        total[k].extend(v)
                    for k, v in ms.items():
                        times[k].extend(v)
                    sizes.extend(sz)
                    gold_w.extend(gw)
                    other_w.extend(ow)
            print(f"\n{split}, leave-one-out per site and year:")
            floor = times["lxml.html parse"]
            for k in total:
                ratios = [m / f for m, f in zip(times[k], floor, strict=True) if f > 0]
                print(
                    _report(k, total[k]),
                    f" median {statistics.median(times[k]):.2f} ms, x lxml parse (median per page) "
                    f"{statistics.median(ratios):.2f}",
                )
            print(f"  lxml.html parse median {statistics.median(floor):.2f} ms")
            print(
                f"  style tree JSON: median {statistics.median(sizes) / 1024:.1f} KiB, max {max(sizes) / 1024:.1f} KiB"
            )
            if gold_w and other_w:
                print(
                    f"  CST token weights (default + SST): mean {statistics.mean(gold_w):.3f} for core tokens in the "
                    f"gold text (n={len(gold_w)}), {statistics.mean(other_w):.3f} for the others (n={len(other_w)})"
                )
    print(f"({time.time() - t0:.0f} s)", file=sys.stderr)


if __name__ == "__main__":
    main()
