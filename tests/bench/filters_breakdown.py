"""Where the time of ``filters.extract`` goes for the ``thesis`` profile (libxml2's reading), stage by stage,
relative to parsing the page with lxml.  The HTML5 profiles (``default``, ``wpnc``) read the page with lexbor
and decide the main content: ``tests/bench/html5_breakdown.py`` breaks their time down.

Runs the same steps as ``filters.extract`` (text input, as the benchmark does) with a clock between them,
back to back with the benchmark's speed floor (``lxml.html.document_fromstring`` of the same text), keeping
for each page the fastest of ``--repeat`` runs; prints the median over pages of each stage's time divided by
the floor's.  Pages: the first N of wcxb-dev-articles and N of crawl-to-the-future (the thesis profile
learned from the first 8 pages of the same site and year, so the redundancy filters have work).

    .venv/bin/python tests/bench/filters_breakdown.py [--pages 80] [--repeat 3] [--single-shot]

``--single-shot`` instead times one call of each, as the benchmark does, once with the floor first (the
benchmark's order) and once with the extraction first, to show how much the order moves the ratio.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import lxml.html  # noqa: E402

from filters import pipeline as P  # noqa: E402
from filters.learning import learn_profile  # noqa: E402
from filters.profiles import get_profile  # noqa: E402
from filters.stopwords import get_stop_words  # noqa: E402
from tests.bench.bench_filters import load_ctf, load_wcxb  # noqa: E402

STAGES = ["checks", "parse", "segment", "filters", "tokens", "rest+free"]
clock = time.perf_counter


def _extract_timed(html, prof, marks: list):
    """``filters.extract`` step by step (keep in step with filters/pipeline.py), appending clock readings."""
    marks.append(clock())
    text, data, encoding = P.page_text(html)
    result = P.Extraction(encoding=encoding, profile=prof.name, counts=P._empty_counts())
    if not text or text.isspace() or not P._TAG_RE.search(text):
        raise ValueError("benchmark pages are HTML")
    marks.append(clock())
    root = P.parse_html(data)
    marks.append(clock())
    phrases, title = P.segment(root, prof)
    marks.append(clock())
    counts = P.apply_filters(phrases, prof)
    core_text = "\n".join([p.text for p in phrases if p.removed_by is None])
    marks.append(clock())
    tokens = P.remove_words(P.tokenize(core_text, get_stop_words(prof.stop_words)), prof.filtering_words)
    marks.append(clock())
    result.title = P.strip_title_affixes(title, prof.title_prefix, prof.title_suffix)
    result.phrases, result.text, result.tokens, result.counts = phrases, core_text, tokens, counts
    return result


def measure(html, prof, repeat):
    """(floor seconds, total seconds, [seconds per stage]) of the fastest of ``repeat`` runs."""
    best = None
    floor = float("inf")
    for _ in range(repeat):
        t0 = clock()
        lxml.html.document_fromstring(html)
        floor = min(floor, clock() - t0)
        marks = []
        t0 = clock()
        _extract_timed(html, prof, marks)  # the result (tree, phrases) is freed here, inside the timing
        t1 = clock()
        if best is None or t1 - t0 < best[0]:
            stages = [marks[i + 1] - marks[i] for i in range(5)]
            stages.append((marks[0] - t0) + (t1 - marks[5]))
            best = (t1 - t0, stages)
    return floor, best[0], best[1]


def single_shot(html, prof, floor_first: bool):
    """(floor seconds, extraction seconds), one call each, in the given order."""
    import filters

    def floor():
        t0 = clock()
        lxml.html.document_fromstring(html)
        return clock() - t0

    def ours():
        t0 = clock()
        filters.extract(html, profile=prof)
        return clock() - t0

    if floor_first:
        f = floor()
        return f, ours()
    o = ours()
    return floor(), o


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pages", type=int, default=80)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--single-shot", action="store_true")
    args = ap.parse_args(argv)
    runs = []
    for page in load_wcxb(args.pages):
        runs.append(("wcxb thesis", page["html"], get_profile("thesis")))
    groups = defaultdict(list)
    for page in load_ctf(None):
        groups[page["group"]].append(page)
    per_group = max(1, args.pages // len(groups))
    for _group, members in sorted(groups.items()):
        learned = learn_profile([p["html"] for p in members[:8]], base="thesis")
        for page in members[8 : 8 + per_group]:
            runs.append(("ctf thesis (learned)", page["html"], learned))
    if args.single_shot:
        shots = defaultdict(lambda: defaultdict(list))
        for label, html, prof in runs:
            for order in ("floor first", "extract first"):
                floor, ours = single_shot(html, prof, order == "floor first")
                shots[label][order].append(ours / floor)
        print("one call each per page: median over pages of (extract time / lxml.html parse time)")
        for label, per in shots.items():
            print(f"{label:22s}" + "".join(f"  {k}: {statistics.median(v):.2f}" for k, v in per.items()))
        return 0
    ratios = defaultdict(lambda: defaultdict(list))
    for label, html, prof in runs:
        floor, total, stages = measure(html, prof, args.repeat)
        ratios[label]["total"].append(total / floor)
        for name, s in zip(STAGES, stages, strict=True):
            ratios[label][name].append(s / floor)
    print(f"median over pages of (time / lxml.html parse time of the same page), fastest of {args.repeat} runs")
    cols = ["total", *STAGES]
    print(f"{'run':22s}{'pages':>6s}" + "".join(f"{c:>10s}" for c in cols))
    for label, per in ratios.items():
        print(f"{label:22s}{len(per['total']):6d}" + "".join(f"{statistics.median(per[c]):10.2f}" for c in cols))
    return 0


if __name__ == "__main__":
    sys.exit(main())
