"""Where the time of ``filters.extract`` goes with the ``default`` profile, stage by stage, relative to lxml's parse.

The stages: the input checks (``read_page``), lexbor's parse, the walk (``html5.segment``), the style tree's
mapping (a learned profile only), the decisions of ``filters.content.decide`` step by step (each step a
function it calls, timed by a wrapper around it; ``rest``: decide's own code), the tokens, and the frees of
what the pipeline made (each measure, the floor's too, holds its frees and the allocator's deferred work:
``_settle``).  Pages: tuning split only (wcxb ids below 2000, single page, built-in ``default``;
crawl-to-the-future 2000 and 2005, N per site and year, with the built-in ``default`` and with ``default``
learned from 8 other pages of the same site and year).  Printed per set of pages: the median over pages of each
stage's cost divided by the floor's (``lxml.html.document_fromstring`` of the same text, as in
``make bench-filters``), and each stage's share of the summed cost.

    .venv/bin/python tests/bench/filter_stages.py [--pages 100] [--repeat 3]
    .venv/bin/python tests/bench/filter_stages.py --instructions [--pages 40]
    .venv/bin/python tests/bench/filter_stages.py --instructions --smallest 40

The clock (default) keeps, per page and stage, the fastest of ``--repeat`` runs.  ``--instructions`` counts
instructions instead (the same on a busy machine, run to run): it runs itself under ``valgrind --tool=callgrind``
and reads the count of each stage from a dump callgrind writes at every stage's end (a client request, from a
four-line C helper compiled with ``cc``).  Instructions are not time (libxml2's parse runs more instructions
per cycle than the interpreter), so the two ratios differ; the instruction counts are for telling a change's
effect, the clock for the ratio ``make bench-filters`` reports.
"""

from __future__ import annotations

import argparse
import ctypes
import glob
import os
import pickle
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import lxml.html  # noqa: E402

import filters  # noqa: E402
from filters import content, html5, sst  # noqa: E402
from filters import pipeline as P  # noqa: E402
from filters.learning import learn_profile  # noqa: E402
from filters.stopwords import get_stop_words  # noqa: E402

#: the steps of filters.content.decide that are timed (names it calls from its module)
DECIDE_STEPS = (
    "mark_card_links",
    "_anchors",
    "_measure",
    "noise_reasons",
    "_named_noise",
    "_main_content",
    "TeaserLists",
    "lead_levels",
    "_inside",
    "_content_reasons",
    "_RowCells",
    "_thesis_filters",
    "_lone_copies",
    "keep_references",
    "orphan_headings",
    "remove_section_kicker",
    "remove_marked_bylines",
)
HELPER_C = """#include <valgrind/callgrind.h>
void wims_dump(const char *s) { CALLGRIND_DUMP_STATS_AT(s); }
void wims_toggle(void) { CALLGRIND_TOGGLE_COLLECT; }
"""


class Clock:
    """Cost since the last mark, in seconds."""

    def __init__(self) -> None:
        self.last = time.perf_counter()

    def pause(self) -> None:
        pass

    def resume(self) -> None:
        self.last = time.perf_counter()

    def mark(self, costs: dict[str, float], label: str) -> None:
        now = time.perf_counter()
        costs[label] = costs.get(label, 0.0) + now - self.last
        self.last = time.perf_counter()


class Instructions:
    """Cost since the last mark, in instructions: callgrind dumps (and zeroes) its counters at each mark."""

    def __init__(self, out_dir: str) -> None:
        src = Path(out_dir) / "helper.c"
        src.write_text(HELPER_C)
        lib = Path(out_dir) / "helper.so"
        subprocess.run(["cc", "-shared", "-fPIC", "-O1", "-o", str(lib), str(src)], check=True)
        helper = ctypes.CDLL(str(lib))
        self.dump, self.toggle = helper.wims_dump, helper.wims_toggle
        self.dump.argtypes = [ctypes.c_char_p]
        self.pattern = str(Path(out_dir) / "cg.out.*")
        self.paused = False

    def pause(self) -> None:
        self.paused = True
        self.toggle()

    def resume(self) -> None:
        self.paused = False
        self.dump(b"paused")  # what ran since the pause: nothing counted, but a dump to clear
        self._read()
        self.toggle()

    def mark(self, costs: dict[str, float], label: str) -> None:
        if self.paused:
            return
        self.dump(b"stage")
        self.toggle()  # reading the dump is no stage's cost
        costs[label] = costs.get(label, 0.0) + self._read()
        self.toggle()

    def _read(self) -> int:
        total = 0
        for path in glob.glob(self.pattern):
            with open(path, "rb") as fh:  # the totals are on the last lines
                fh.seek(max(0, os.path.getsize(path) - 512))
                tail = fh.read().decode("ascii", "replace").splitlines()
            total += next(int(line.split()[1]) for line in reversed(tail) if line.startswith(("totals:", "summary:")))
            os.unlink(path)
        return total


def _wrap_steps(meter, costs_of):
    """Wrap decide's steps in filters.content, and the style tree's mapping, so that each marks its cost
    (``costs_of()``: the page's dict); the cost before a step is decide's own."""

    def wrapped(label, fn):
        def run(*args, **kwargs):
            meter.mark(costs_of(), "decide: rest")
            out = fn(*args, **kwargs)
            meter.mark(costs_of(), label)
            return out

        return run

    for name in DECIDE_STEPS:
        setattr(content, name, wrapped(f"decide: {name}", getattr(content, name)))
    sst.map_blocks = wrapped("style tree", sst.map_blocks)


def _settle() -> None:
    """Have the C allocator do now what it defers after many small frees: glibc merges the freed small chunks
    (malloc_consolidate) at the next request too large for its small bins, a 64 KiB one here.  libxml2 frees the
    floor's tree node by node; left to the pipeline's first large request (in the input checks), that merging
    cost them ~0.07 x the floor by the clock (crawl-to-the-future tuning pages), work the pipeline does not
    cause: its own frees leave ~0.008 x (lexbor frees its tree in blocks, most Python objects go back to
    Python's allocator).  So each pays for its own: the floor's tree is freed, and merged, in the floor's
    measure (as ``make bench-filters`` times the second of two parses, which merges the first's), the
    pipeline's in its stage ``frees``."""
    bytes(1 << 16)


def _extract(html, prof, meter, costs) -> None:
    """``filters.extract`` step by step (keep in step with filters/pipeline.py), marking each stage's cost."""
    meter.mark(costs, "(between)")
    lxml.html.document_fromstring(html)
    _settle()  # the floor's own deferred frees are the floor's, as in make bench-filters (the second of two parses)
    meter.mark(costs, "lxml parse (floor)")
    page = P.read_page(html)
    meter.mark(costs, "checks")
    tree = page.tree
    meter.mark(costs, "parse (lexbor)")
    phrases, title, blocks = html5.segment(tree, prof)
    meter.mark(costs, "walk")
    state = None
    if prof.style_tree:
        _counts, state = P.decide_style_tree(phrases, prof, blocks, title)
    else:
        content.decide(phrases, blocks, prof, title)
    meter.mark(costs, "decide: rest")
    kept = [p for p in phrases if p.removed_by is None]
    core = "\n".join([p.text for p in kept])
    stop_words = get_stop_words(prof.stop_words)
    tokens = P.remove_words(P.tokenize(core, stop_words), prof.filtering_words)
    if state is not None:
        P.token_weights(kept, state, tokens, stop_words)
    meter.mark(costs, "tokens")
    del page, tree, phrases, blocks, state, kept, core, tokens  # the pipeline's frees are its own too
    _settle()
    meter.mark(costs, "frees")


def pages(n: int, smallest: int | None = None) -> list[tuple[str, str, object]]:
    """(label, html, profile) of the tuning pages measured; ``smallest``: only that many of the smallest wcxb pages
    (the test split's wcxb pages are small and text-dense: its ratio is the highest of the targets)."""
    from tests.bench.bench_filters import load_ctf, load_wcxb

    if smallest:
        few = sorted(load_wcxb(None, "tune"), key=lambda p: len(p["html"]))[:smallest]
        return [
            (f"wcxb tune, {smallest} smallest, single page", p["html"], filters.get_profile("default")) for p in few
        ]

    work: list[tuple[str, str, object]] = [
        ("wcxb tune, single page", p["html"], filters.get_profile("default")) for p in load_wcxb(n, "tune")
    ]
    groups = defaultdict(list)
    for page in load_ctf(None, "tune"):
        groups[page["group"]].append(page["html"])
    per = max(1, n // len(groups))
    single, learned_work = [], []
    for _group, htmls in sorted(groups.items()):
        learned = learn_profile(htmls[per : per + 8], base="default")
        single += [("ctf tune, single page", html, filters.get_profile("default")) for html in htmls[:per]]
        learned_work += [("ctf tune, site-learned", html, learned) for html in htmls[:per]]
    return work + single + learned_work


def measure(work, meter, repeat: int) -> dict[str, list[dict[str, float]]]:
    """Per label, per page: the cost of each stage (the least of ``repeat`` runs)."""
    current: dict[str, float] = {}
    _wrap_steps(meter, lambda: current)
    out: dict[str, list[dict[str, float]]] = defaultdict(list)
    for label, html, prof in work:
        current = {}
        meter.pause()
        _extract(html, prof, meter, current)  # warm-up
        meter.resume()
        best: dict[str, float] = {}
        for _ in range(repeat):
            current = {}
            _extract(html, prof, meter, current)
            current.pop("(between)", None)
            for k, v in current.items():
                best[k] = min(best.get(k, v), v)
        out[label].append(best)
    return out


def report(results: dict[str, list[dict[str, float]]], unit: str) -> str:
    lines = []
    for label, per_page in results.items():
        floor = "lxml parse (floor)"
        stages = sorted({k for page in per_page for k in page if k != floor}, key=_order)
        whole = [sum(v for k, v in page.items() if k != floor) / page[floor] for page in per_page]
        summed = {s: sum(page.get(s, 0.0) for page in per_page) for s in stages}
        total = sum(summed.values())
        lines.append(f"{label}: {len(per_page)} pages, pipeline {statistics.median(whole):.2f} x lxml parse ({unit})")
        lines.append(f"  {'stage':32} {'median x floor':>14} {'share':>7}")
        for s in stages:
            med = statistics.median(page.get(s, 0.0) / page[floor] for page in per_page)
            lines.append(f"  {s:32} {med:14.3f} {summed[s] / total:7.1%}")
    return "\n".join(lines)


_ORDER = ["checks", "parse (lexbor)", "walk", "style tree"] + [f"decide: {s}" for s in DECIDE_STEPS]


def _order(stage: str) -> tuple[int, str]:
    last = ("decide: rest", "tokens", "frees")
    after = len(_ORDER) + (last.index(stage) if stage in last else 0)
    return (_ORDER.index(stage) if stage in _ORDER else after, stage)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pages", type=int, default=100, help="wcxb pages, and about as many crawl-to-the-future pages")
    ap.add_argument("--smallest", type=int, metavar="N", help="only the N smallest wcxb pages (single page)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per page, the fastest kept (clock only)")
    ap.add_argument("--instructions", action="store_true", help="count instructions under callgrind")
    ap.add_argument("--under-callgrind", help=argparse.SUPPRESS)  # the work file, in callgrind's output folder
    args = ap.parse_args(argv)
    if args.under_callgrind:
        with open(args.under_callgrind, "rb") as fh:
            work = pickle.load(fh)
        results = measure(work, Instructions(str(Path(args.under_callgrind).parent)), 1)
        print(report(results, "instructions"))
        return 0
    work = pages(args.pages, args.smallest)
    if not args.instructions:
        print(report(measure(work, Clock(), args.repeat), f"time, fastest of {args.repeat}"))
        print("load average: " + " / ".join(f"{x:.2f}" for x in os.getloadavg()))
        return 0
    with tempfile.TemporaryDirectory(prefix="filter-stages-") as tmp:
        work_file = os.path.join(tmp, "work.pickle")
        with open(work_file, "wb") as fh:
            pickle.dump(work, fh)
        cmd = ["valgrind", "--tool=callgrind", "--dump-instr=no", "--dump-line=no"]
        cmd += [f"--callgrind-out-file={tmp}/cg.out", sys.executable, __file__, "--under-callgrind", work_file]
        return subprocess.run(cmd, stderr=subprocess.DEVNULL).returncode


if __name__ == "__main__":
    sys.exit(main())
