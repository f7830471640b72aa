"""The statistic of the speed target, per page, on every wcxb tuning page: ``filters.extract`` (``default``, single
page) ÷ ``lxml.html.document_fromstring``, each the fastest of ``--repeat`` runs after one warm-up; prints the
median of the per-page ratios (what ``make bench-filters`` reports, from one warm run each) and its quartiles.
Tuning split only.  Run it in turn with another checkout to compare two commits on a busy machine:

    .venv/bin/python tests/bench/page_ratios.py [--repeat 5] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import lxml.html  # noqa: E402

import filters  # noqa: E402
from tests.bench.bench_filters import load_wcxb  # noqa: E402


def fastest(fn, html: str, repeat: int = 3) -> float:
    """The fastest of ``repeat`` runs of ``fn(html)``, in seconds, after one warm-up run."""
    fn(html)
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(html)
        best = min(best, time.perf_counter() - t0)
    return best


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=5, help="runs per page and extractor, the fastest kept")
    ap.add_argument("--json", help="write [id, bytes, floor ms, ratio] per page here")
    args = ap.parse_args(argv)
    profile = filters.get_profile("default")
    rows = []
    for page in load_wcxb(None, "tune"):
        html = page["html"]
        floor = fastest(lxml.html.document_fromstring, html, args.repeat)
        ours = fastest(lambda h: filters.extract(h, profile=profile), html, args.repeat)
        rows.append((page["id"], len(html), floor * 1000, ours / floor))
    if args.json:
        Path(args.json).write_text(json.dumps(rows))
    ratios = sorted(r[3] for r in rows)
    low, mid, high = statistics.quantiles(ratios, n=4)
    print(f"{len(rows)} wcxb tuning pages: median ratio {mid:.3f} (quartiles {low:.3f}, {high:.3f})")
    print("load average: " + " / ".join(f"{x:.2f}" for x in os.getloadavg()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
