"""The report of the noise filters benchmark (tests/bench/bench_filters.py): tables, chart and raw numbers.

``write_outputs`` writes ``docs/benchmarks/filters.md`` (only the results section between its markers: the prose
around it is kept), ``filters.json`` and ``filters.png``.  This module is imported by the bench's ``main`` when it
writes, and imports the bench's constants (not its state: what the run found travels in ``meta``).
"""

from __future__ import annotations

import json
from pathlib import Path

import filters
from tests.bench.bench_filters import (
    CTF,
    FLOOR,
    REPORT_DIR,
    SPLIT_RULES,
    SPLITS,
    TARGET_SITE_GAP,
    WCXB,
    learned,
    single,
    wcxb_split,
)
from tests.bench.generated_part import write_section


def _fmt(x, digits=3):
    return "n/a" if x is None or x != x else f"{x:.{digits}f}"


def markdown_table(rows) -> str:
    out = [
        "| extractor | F1 | precision | recall | median ms/page | × lxml parse (ratio of medians) "
        "| × lxml parse (median per page) |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    order = sorted(rows, key=lambda r: (r["extractor"] == FLOOR, -r["f1"]))
    for r in order:
        if r["extractor"] == FLOOR:
            out.append(f"| {r['extractor']} (speed floor) | – | – | – | {_fmt(r['median_ms'], 2)} | 1.00 | 1.00 |")
            continue
        name = (
            f"**{r['extractor']}**"
            if r["extractor"].split(" (")[0] in filters.profiles.BUILTIN_PROFILES
            else r["extractor"]
        )
        out.append(
            f"| {name} | {_fmt(r['f1'])} | {_fmt(r['precision'])} | {_fmt(r['recall'])} "
            f"| {_fmt(r['median_ms'], 2)} | {_fmt(r['ratio'], 2)} | {_fmt(r['median_page_ratio'], 2)} |"
        )
    return "\n".join(out)


def site_table(rows, wims) -> str:
    cols = [learned(wims), single(wims), "trafilatura", "readability-lxml"]
    out = [
        f"| site | pages | {wims} site-learned | {wims} single page | trafilatura | readability-lxml "
        f"| site-learned − trafilatura | within {TARGET_SITE_GAP} |",
        "|---|---:|---:|---:|---:|---:|---:|:---:|",
    ]
    for r in rows:
        diff = r[cols[0]] - r["trafilatura"] if cols[0] in r and "trafilatura" in r else None
        ok = "n/a" if diff is None else ("yes" if diff >= -TARGET_SITE_GAP else "**no**")
        out.append(
            f"| {r['site']} | {r['pages']} | "
            + " | ".join(_fmt(r.get(c)) for c in cols)
            + f" | {'n/a' if diff is None else f'{diff:+.3f}'} | {ok} |"
        )
    return "\n".join(out)


def targets_table(tgts) -> str:
    out = ["| target (test split) | goal | measured | pass | how |", "|---|---:|---:|:---:|---|"]
    for t in tgts:
        verdict = "n/a" if t["pass"] is None else ("pass" if t["pass"] else "**FAIL**")
        digits = 2 if "÷" in t["target"] else 3
        measured = t["measured"] if isinstance(t["measured"], int) else _fmt(t["measured"], digits)  # a count as is
        out.append(f"| {t['target']} | {t['goal']} | {measured} | {verdict} | {t['how']} |")
    return "\n".join(out)


def failure_lines(fails, what) -> list[str]:
    if not fails:
        return [f"{what}: no page below F1 0.5."]
    lines = [f"{what}: {len(fails)} page(s) below F1 0.5 (id: F1, P, R):", ""]
    for f in fails:
        lines.append(f"* `{f['id']}`: F1 {f['f1']:.3f}, P {_fmt(f['precision'])}, R {_fmt(f['recall'])}")
    return lines


def chart(results: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker

    keys = [(s, d) for s in SPLITS for d in (WCXB, CTF) if (s, d) in results]
    if not keys:
        return
    ncols = 2
    nrows = (len(keys) + 1) // 2
    fig, axes = plt.subplots(nrows, ncols, figsize=(12, 4.8 * nrows), squeeze=False)
    for ax in axes.flat[len(keys) :]:
        ax.set_visible(False)
    for ax, key in zip(axes.flat, keys, strict=False):
        rows = [r for r in results[key].rows() if r["extractor"] != FLOOR and r["median_ms"] == r["median_ms"]]
        for r in rows:
            ours = r["extractor"].split(" (")[0] in filters.profiles.BUILTIN_PROFILES
            ax.scatter(r["ratio"], r["f1"], s=40, marker="o" if ours else "s")
            ax.annotate(r["extractor"], (r["ratio"], r["f1"]), textcoords="offset points", xytext=(5, 3), fontsize=7)
        ax.axvline(2.0, color="grey", linestyle="--", linewidth=0.8)
        ax.text(2.05, 0.02, "2× target", fontsize=7, color="grey", transform=ax.get_xaxis_transform())
        ax.set_xscale("log")
        ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}×"))
        ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        ax.set_xticks([1, 2, 5, 10, 20, 50, 100])
        ax.set_xlabel("median time per page / median lxml.html parse time (log)")
        ax.set_ylabel("F1 (shingle metric)")
        ax.set_title(f"{key[1]}, {key[0]} split ({len(results[key].pages)} pages)")
        ax.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


START, END = "<!-- results:start (written by tests/bench/bench_filters.py) -->", "<!-- results:end -->"


def section_title(split: str, dataset: str) -> str:
    kind = "single page" if dataset == WCXB else "per site and year, leave-one-out learning"
    return f"{dataset}, {split} split ({kind})"


def write_report(results, tgts, meta, wims) -> None:
    """Replace the results section of docs/benchmarks/filters.md; the prose around it is kept."""
    lines = [START, ""]
    lines.append(
        f"Run: {meta['started']}, commit {meta['commit']}, {meta['python']}, {meta['cpus']} CPUs, "
        f"{meta['seconds']} s in total, "
        + (f"**subsample --limit {meta['limit']}**" if meta["limit"] else "full datasets")
        + f", splits: {', '.join(meta['splits'])}; {meta['lock']}; load average at the start "
        f"{meta['load_start']}, at the end {meta['load_end']} (1 / 5 / 15 min). "
        f"Profiles: {', '.join(meta['profiles'])} (site learning: {', '.join(meta['learn']) or 'none'}). "
        "Versions: " + ", ".join(f"{k} {v}" for k, v in meta["versions"].items()) + "."
    )
    lines += [
        "",
        f"### Targets (test split; WIMS = the `{wims}` profile)",
        "",
        targets_table(tgts),
    ]
    for split in SPLITS:
        keys = [(split, d) for d in (WCXB, CTF) if (split, d) in results]
        if not keys:
            continue
        lines += ["", f"## {'Test' if split == 'test' else 'Tuning'} split: {SPLIT_RULES[split]}"]
        for key in keys:
            res = results[key]
            lines += ["", f"### {section_title(*key)}", "", f"{len(res.pages)} pages.", "", markdown_table(res.rows())]
            if key[1] == WCXB and meta.get("skipped_no_gold"):
                gone = [i for i in meta["skipped_no_gold"] if wcxb_split(i) == split]
                if gone:
                    lines += [
                        "",
                        f"({len(gone)} page(s) without a `main_content` ground truth left out: {', '.join(gone)}.)",
                    ]
            if key[1] == CTF:
                lines += [
                    "",
                    f"Per site ({split} split, F1; the target: no site where `{wims}` with site learning trails "
                    f"trafilatura by more than {TARGET_SITE_GAP}):",
                    "",
                    site_table(res.per_site([learned(wims), single(wims), "trafilatura", "readability-lxml"]), wims),
                ]
                notes = res.notes
                if notes.get("learn_ms"):
                    lines += [
                        "",
                        "Median site-learning time per page under test (from the other pages of its site and year, "
                        "not in the times above): "
                        + ", ".join(f"{k} {v:.1f} ms" for k, v in notes["learn_ms"].items())
                        + ". Learned thresholds (min / median / max): "
                        + ", ".join(f"{k} {v[0]}/{v[1]:.0f}/{v[2]}" for k, v in notes["thresholds"].items())
                        + "."
                        + (
                            f" Learning fell back to the built-in profile (fewer than 2 readable other pages): "
                            f"{notes['learning_fell_back']}."
                            if any(notes.get("learning_fell_back", {}).values())
                            else ""
                        ),
                    ]
            if split == "test":
                name = learned(wims) if key[1] == CTF and learned(wims) in res.scores else single(wims)
                lines += ["", *failure_lines(res.failures(name), f"Failures of `{name}` ({key[1]}, test split)")]
    if meta.get("failures"):
        lines += ["", f"Extractor exceptions (the page scores an empty output): {meta['failures']}."]
    lines += ["", "![F1 against time per page relative to lxml parsing](filters.png)", "", END]
    block = "\n".join(lines)
    write_section(REPORT_DIR / "filters.md", block, START, END, "# Noise filters benchmark\n\n")


def write_outputs(results: dict, tgts: list[dict], meta: dict, wims: str) -> None:
    """filters.json (every figure of the run), filters.png and the results section of filters.md."""
    REPORT_DIR.mkdir(parents=True, exist_ok=True)
    sites = [learned(wims), single(wims), "trafilatura", "readability-lxml"]
    splits = meta["splits"]
    data = {
        "schema": "splits -> split -> dataset -> {pages, rows, per_site, failures, notes}; targets on the test split",
        "meta": meta,
        "targets": tgts,
        "splits": {
            split: {
                dataset: {
                    "pages": len(res.pages),
                    "rows": res.rows(),
                    "per_site": res.per_site(sites) if dataset == CTF else None,
                    "failures_below_0.5": {
                        name: res.failures(name) for name in (single(wims), learned(wims)) if name in res.scores
                    },
                    "notes": res.notes,
                }
                for (s, dataset), res in results.items()
                if s == split
            }
            for split in splits
        },
    }
    (REPORT_DIR / "filters.json").write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    chart(results, REPORT_DIR / "filters.png")
    write_report(results, tgts, meta, wims)
