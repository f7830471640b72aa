"""Per-page time of the default pipeline with and without a learned style tree, to lxml.html's parse.

Single process; 4 pages per site for 2005 and 2015 of crawl-to-the-future, each profile learned from the other
pages of the site and year; each time the fastest of 3 after a warm-up call.

    .venv/bin/python tests/bench/sst_speed.py
"""

from __future__ import annotations

import csv
import gzip
import statistics
import sys
from pathlib import Path

import lxml.html

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import filters  # noqa: E402
from filters import learn_profile  # noqa: E402
from filters.charset import decode_html  # noqa: E402
from tests.bench.bench_filters import DATASETS  # noqa: E402
from tests.bench.page_ratios import fastest  # noqa: E402


def main() -> None:
    ctf = DATASETS / "crawl-to-the-future"
    with open(ctf / "manifest.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    ratios: dict[str, list[float]] = {"default single page": [], "default + SST": [], "default + redundant phrases": []}
    for site in sorted({r["site"] for r in rows}):
        for year in ("2005", "2015"):
            group = [r for r in rows if r["site"] == site and r["year"] == year]
            pages = [decode_html(gzip.decompress((ctf / r["html"]).read_bytes()))[0] for r in group]
            profiles = {
                "default single page": filters.get_profile("default"),
                "default + SST": learn_profile(pages[4:]),
                "default + redundant phrases": learn_profile(pages[4:], style_tree=False),
            }
            for html in pages[:4]:
                floor = fastest(lxml.html.document_fromstring, html)
                for name, prof in profiles.items():
                    ratios[name].append(fastest(lambda h, p=prof: filters.extract(h, profile=p), html) / floor)
    for name, values in ratios.items():
        print(f"{name:30s} x lxml parse, median per page {statistics.median(values):.2f} (n={len(values)})")
    per_page = [a / b for a, b in zip(ratios["default + SST"], ratios["default single page"], strict=True)]
    print(f"default + SST / default single page, median per page {statistics.median(per_page):.3f}")


if __name__ == "__main__":
    main()
