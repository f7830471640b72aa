"""Where the time of ``filters.extract`` goes with the HTML5 profiles, stage by stage, relative to lxml's parse.

Runs the steps of ``filters.extract`` (text input, as the benchmark does) with a clock between them: the
input checks (``read_page``), lexbor's parse (``Page.tree``), the walk (``html5.segment``), the decisions
(main content, and the style tree of a learned profile), the tokens (and the style tree's token weights).
Each page is timed back to back with the benchmark's speed floor (``lxml.html.document_fromstring`` of the same
text), each time the fastest of 3 after a warm-up call; printed: the median over pages of the whole extraction
and of each stage, divided by the floor.  Pages: tuning split only (wcxb ids below 2000, single page, built-in
``default``; crawl-to-the-future 2000 and 2005, N per site and year with a profile learned from 8 other pages of
the same site and year).

    .venv/bin/python tests/bench/html5_breakdown.py [--pages 120]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import lxml.html  # noqa: E402

import filters  # noqa: E402
from filters import content, html5  # noqa: E402
from filters import pipeline as P  # noqa: E402
from filters.learning import learn_profile  # noqa: E402
from filters.stopwords import get_stop_words  # noqa: E402
from tests.bench.bench_filters import load_ctf, load_wcxb  # noqa: E402
from tests.bench.page_ratios import fastest  # noqa: E402

STAGES = ("checks", "parse", "walk", "decide", "tokens")
clock = time.perf_counter


def _stages(html, prof) -> list[float]:
    """``filters.extract`` step by step (keep in step with filters/pipeline.py); the time of each stage."""
    marks = [clock()]
    page = P.read_page(html)
    marks.append(clock())
    tree = page.tree
    marks.append(clock())
    phrases, title, blocks = html5.segment(tree, prof)
    marks.append(clock())
    state = None
    if prof.style_tree:
        _counts, state = P.decide_style_tree(phrases, prof, blocks, title)
    else:
        content.decide(phrases, blocks, prof, title)
    marks.append(clock())
    core = "\n".join([p.text for p in phrases if p.removed_by is None])
    stop_words = get_stop_words(prof.stop_words)
    tokens = P.remove_words(P.tokenize(core, stop_words), prof.filtering_words)
    if state is not None:
        P.token_weights(phrases, state, tokens, stop_words)
    marks.append(clock())
    return [b - a for a, b in zip(marks, marks[1:], strict=False)]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pages", type=int, default=120, help="wcxb pages, and about as many crawl-to-the-future pages")
    args = ap.parse_args(argv)
    work = [
        (p["html"], filters.get_profile("default"), "wcxb tune, single page") for p in load_wcxb(args.pages, "tune")
    ]
    groups = defaultdict(list)
    for page in load_ctf(None, "tune"):
        groups[page["group"]].append(page["html"])
    per = max(1, args.pages // len(groups))
    for _group, pages in sorted(groups.items()):
        learned = learn_profile(pages[per : per + 8], base="default")
        work += [(html, learned, "ctf tune, site-learned") for html in pages[:per]]
    ratios: dict[str, list[float]] = defaultdict(list)
    stages: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for html, prof, label in work:
        floor = fastest(lxml.html.document_fromstring, html)
        ratios[label].append(fastest(lambda h, p=prof: filters.extract(h, profile=p), html) / floor)
        _stages(html, prof)  # warm-up
        best = [min(t) for t in zip(*(_stages(html, prof) for _ in range(3)), strict=True)]
        for name, t in zip(STAGES, best, strict=True):
            stages[label][name].append(t / floor)
    for label, values in ratios.items():
        parts = ", ".join(f"{name} {statistics.median(stages[label][name]):.2f}" for name in STAGES)
        print(f"{label}: {len(values)} pages, extract {statistics.median(values):.2f} x lxml parse ({parts})")
    print("load average: " + " / ".join(f"{x:.2f}" for x in os.getloadavg()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
