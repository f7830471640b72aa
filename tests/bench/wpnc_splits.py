"""WPNC beside the other built-in profiles, on the tuning and the test split, single page (no site learning).

Splits (the rule for every tuned setting of the filters):

* tuning: wcxb-dev-articles ids below 2000, crawl-to-the-future years 2000 and 2005;
* test: wcxb-dev-articles ids 2000 and above, crawl-to-the-future years 2010 and 2015.

Scored with the datasets README's shingle metric (filters.metrics).  ``--grid`` also searches the wpnc
threshold and density on the *tuning* split only (how the built-in profile's values were chosen).

    .venv/bin/python tests/bench/wpnc_splits.py [--profiles wpnc,default,thesis] [--grid] [--limit N]
"""

from __future__ import annotations

import argparse
import csv
import gzip
import json
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from filters import extract, get_profile  # noqa: E402
from filters.charset import decode_html  # noqa: E402
from filters.metrics import ExtractionScore, aggregate_scores, shingle_scores  # noqa: E402
from filters.pipeline import decide, read_page, segment_page  # noqa: E402

DATASETS = Path(os.environ.get("WIMS_DATASETS", ROOT.parent / "shared" / "datasets"))
TUNING_CTF_YEARS = ("2000", "2005")


def pages(dataset: str, split: str, limit: int | None = None) -> Iterator[tuple[str, str, str]]:
    """(id, html, gold) of one dataset's split ("tuning" or "test")."""
    if dataset == "wcxb":
        base = DATASETS / "wcxb-dev-articles"
        with open(base / "manifest.csv", newline="") as fh:
            rows = [r for r in csv.DictReader(fh) if (int(r["id"]) < 2000) == (split == "tuning")]
        for row in rows[:limit]:
            gold = json.loads((base / "ground-truth" / f"{row['id']}.json").read_text())["ground_truth"]
            if gold.get("main_content") is None:  # only with/without snippets: not scorable with this metric
                continue
            html, _ = decode_html(gzip.decompress((base / "html" / f"{row['id']}.html.gz").read_bytes()))
            yield row["id"], html, gold["main_content"]
    else:
        base = DATASETS / "crawl-to-the-future"
        with open(base / "manifest.csv", newline="") as fh:
            rows = [r for r in csv.DictReader(fh) if (r["year"] in TUNING_CTF_YEARS) == (split == "tuning")]
        for row in rows[:limit]:
            html, _ = decode_html(gzip.decompress((base / row["html"]).read_bytes()))
            yield row["html"], html, (base / row["gold"]).read_text(encoding="utf-8", errors="replace")


def fmt(agg: dict[str, float]) -> str:
    return f"F1 {agg['f1']:.3f}  P {agg['precision']:.3f}  R {agg['recall']:.3f}  ({agg['pages']} pages)"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--profiles", default="wpnc,default,thesis")
    ap.add_argument("--grid", action="store_true", help="search the wpnc threshold and density on the tuning split")
    ap.add_argument("--limit", type=int, help="first N pages of each dataset split (a quick look)")
    ap.add_argument("--splits", default="tuning,test")
    args = ap.parse_args()
    names = [n for n in args.profiles.split(",") if n]
    splits = [s for s in args.splits.split(",") if s]
    results: dict[str, dict[str, float]] = {}
    for split in splits:
        for dataset in ("wcxb", "ctf"):
            scores: dict[str, list[ExtractionScore]] = {n: [] for n in names}
            start = time.perf_counter()
            for _id, html, gold in pages(dataset, split, args.limit):
                for name in names:
                    scores[name].append(shingle_scores(extract(html, profile=name).text, gold))
            for name in names:
                agg = aggregate_scores(scores[name])
                results[f"{split}/{dataset}/{name}"] = agg
                print(f"{split:6s} {dataset:4s} {name:8s} {fmt(agg)}", flush=True)
            print(f"       ({time.perf_counter() - start:.0f} s)", file=sys.stderr)
    if args.grid:
        grid(args.limit)
    return 0


def grid(limit: int | None) -> None:
    """F1 of wpnc on the tuning split for each density and threshold (the page is segmented once)."""
    base = get_profile("wpnc")
    thresholds = {
        "text": [0, 2, 4, 6, 8, 10, 12, 15, 18, 20, 25, 30, 35, 40, 50, 60, 80, 100],
        "composite": [0, 2, 4, 6, 8, 10, 12, 15, 18, 20, 25, 30, 35, 40, 50, 60, 80, 100, 150, 200],
    }
    for dataset in ("wcxb", "ctf"):
        samples = []
        for _id, html, gold in pages(dataset, "tuning", limit):
            phrases, title, blocks = segment_page(read_page(html), base)
            samples.append((phrases, title, blocks, gold))
        for density, values in thresholds.items():
            row = []
            for tr in values:
                prof = base.copy(wpnc={"threshold": tr, "density": density})
                scores = []
                for phrases, title, blocks, gold in samples:
                    fresh = [p.fresh() for p in phrases]
                    decide(fresh, prof, blocks, title)
                    scores.append(shingle_scores("\n".join(p.text for p in fresh if p.removed_by is None), gold))
                agg = aggregate_scores(scores)
                row.append(f"{tr:g}:{agg['f1']:.3f}/{agg['precision']:.2f}/{agg['recall']:.2f}")
            print(f"grid {dataset:4s} {density:9s} " + "  ".join(row), flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
