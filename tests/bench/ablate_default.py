"""Ablation of the ``default`` profile's stages on the wcxb tuning split: body F1 with and without each stage, on
two halves of the split (odd/even id, and a seeded random split), to tell a rule that helps the web from one that
fits a few tuning pages (issue 29).

Each ablation switches one stage off by patching the module it lives in, inside this process only (no product
switch): a stage that cannot be switched off alone here is left out.  Only the tuning split is read.

    WIMS_DATASETS=/work/shared/datasets .venv/bin/python tests/bench/ablate_default.py [--only NAME,...]
        [--pages out.json] [--worst 30]

``--pages`` writes each page's body precision/recall under the base profile (for failure analysis); ``--worst N``
prints the N worst pages by body F1.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import filters  # noqa: E402
from filters import content, lead, marks  # noqa: E402
from filters.metrics import aggregate_scores, shingle_scores  # noqa: E402
from tests.bench.bench_filters import load_wcxb  # noqa: E402


def _patch(*changes: tuple[object, str, object]) -> Callable[[], contextmanager]:
    @contextmanager
    def apply() -> Iterator[None]:
        saved = [(obj, name, getattr(obj, name)) for obj, name, _ in changes]
        try:
            for obj, name, value in changes:
                setattr(obj, name, value)
            yield
        finally:
            for obj, name, value in saved:
                setattr(obj, name, value)

    return apply


def _nothing(*_a, **_k):
    return None


def _without_reason(reason: str) -> Callable[[], contextmanager]:
    """Switch off one reason of filters.marks: its class/id words (parts or whole tokens), or its chrome tags,
    name nothing."""

    @contextmanager
    def apply() -> Iterator[None]:
        saved = marks._NOISE_MARKS, dict(marks._CHROME_TAGS), marks._TOKEN_MARKS
        marks._NOISE_MARKS = tuple(m for m in marks._NOISE_MARKS if m[0] != reason)
        marks._TOKEN_MARKS = tuple(m for m in marks._TOKEN_MARKS if m[0] != reason)
        for tag in [t for t, r in marks._CHROME_TAGS.items() if r == reason]:
            del marks._CHROME_TAGS[tag]
        marks._REASON_CACHE.clear()
        try:
            yield
        finally:
            marks._NOISE_MARKS, marks._TOKEN_MARKS = saved[0], saved[2]
            marks._CHROME_TAGS.clear()
            marks._CHROME_TAGS.update(saved[1])
            marks._REASON_CACHE.clear()

    return apply


#: name -> the patch that switches the stage off
ABLATIONS = {
    "hidden blocks (hidden.py)": _patch((content, "HIDDEN_TEXT_MAX", -1)),
    "section kicker (kicker.py)": _patch((content, "remove_section_kicker", _nothing)),
    "marked bylines (article_parts.py)": _patch((content, "remove_marked_bylines", _nothing)),
    "embedded posts (embeds.py)": _patch((content, "keep_references", lambda *a: {})),
    "FAQ questions (faq.py)": _patch((content, "keep_questions", _nothing)),
    "orphan headings (orphans.py)": _patch((content, "orphan_headings", lambda *a: [])),
    "notices/prompts (prompts.py)": _patch((content, "notice_note", lambda *a: None)),
    "card links (teasers.mark_card_links)": _patch((content, "mark_card_links", _nothing)),
    "teaser lists (teasers.TeaserLists)": _patch((content, "TEASER_MIN", 10**9), (lead, "TEASER_MIN", 10**9)),
    "lead before main (lead.py)": _patch((content, "is_lead", lambda *a: False)),
    "unnamed list of links": _patch((content, "_sentences_share", lambda *a: True)),
    "linked sentences kept": _patch((content, "LINKED_SENTENCE_MAX", 0.0)),
    "landmark guard": _patch((content, "_landmark_guard", lambda best, *a: best)),
    "narrow to child": _patch((content, "NARROW_SHARE", 1.0)),
    "climb from paragraph": _patch((content, "PARAGRAPH_CLIMB", float("inf"))),
    "sibling parts": _patch((content, "SIBLING_TEXT", 10**9)),
    "article aside": _patch((content, "ASIDE_TEXT", 10**9)),
    "repeat removal": _patch((content, "REPEAT_MIN", 10**9)),
    "lone copies put back": _patch((content, "_lone_copies", lambda *a: [])),
    "short cells in rows kept": _patch((content._RowCells, "is_data", lambda self, cell: False)),
    "named noise (marks.py)": _patch((content, "noise_reasons", lambda tags, marks: [None] * len(tags))),
    "noise max share 0.3": _patch((content, "NOISE_MAX_SHARE", 10.0)),
}
#: each reason of filters.marks alone (its class/id words and its chrome tags)
ABLATIONS.update(
    {
        f"marks: {reason}": _without_reason(reason)
        for reason in dict.fromkeys([r for r, _ in marks._NOISE_MARKS] + list(marks._CHROME_TAGS.values()))
    }
)


def run(pages: list[dict], pages_read: list) -> list:
    out = []
    for page, read in zip(pages, pages_read, strict=True):
        ex = filters.extract(read, profile="default")
        out.append(shingle_scores(ex.body, page["gold"]))
    return out


def halves(pages: list[dict]) -> dict[str, list[int]]:
    ids = [int(p["id"]) for p in pages]
    idx = list(range(len(pages)))
    rnd = random.Random(29)
    shuffled = idx[:]
    rnd.shuffle(shuffled)
    a = set(shuffled[: len(idx) // 2])
    return {
        "odd": [i for i in idx if ids[i] % 2],
        "even": [i for i in idx if not ids[i] % 2],
        "randA": [i for i in idx if i in a],
        "randB": [i for i in idx if i not in a],
        "all": idx,
    }


def f1(p: float | None, r: float | None) -> float:
    p, r = p or 0.0, r or 0.0
    return 2 * p * r / (p + r) if p + r else 0.0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="")
    ap.add_argument("--pages", default="")
    ap.add_argument("--worst", type=int, default=0)
    ap.add_argument("--base-only", action="store_true")
    args = ap.parse_args()
    pages = load_wcxb(None, "tune")
    read = [filters.read_page(p["html"]) for p in pages]
    parts = halves(pages)
    base = run(pages, read)

    def agg(scores, idx):
        return aggregate_scores(scores[i] for i in idx)["f1"]

    print(f"pages {len(pages)}; " + ", ".join(f"{k} {len(v)}" for k, v in parts.items()))
    print(f"{'base':40s} " + " ".join(f"{k}={agg(base, v):.5f}" for k, v in parts.items()))
    if args.pages:
        Path(args.pages).write_text(
            json.dumps(
                [
                    {"id": p["id"], "domain": p["group"], "p": s.precision, "r": s.recall}
                    for p, s in zip(pages, base, strict=True)
                ]
            )
        )
    if args.worst:
        rows = sorted(zip(pages, base, strict=True), key=lambda x: f1(x[1].precision, x[1].recall))
        for p, s in rows[: args.worst]:
            print(f"  {p['id']} {p['group']:35s} F1={f1(s.precision, s.recall):.3f} P={s.precision} R={s.recall}")
    if args.base_only:
        return
    only = {o.strip() for o in args.only.split(",") if o.strip()}
    print("\nablation: F1 without the stage minus F1 with it (negative: the stage helps); pages changed (+/-)")
    print(f"{'stage':40s} " + " ".join(f"{k:>9s}" for k in parts) + "  pages  better/worse")
    for name, patch in ABLATIONS.items():
        if only and not any(o in name for o in only):
            continue
        with patch():
            scores = run(pages, read)
        deltas = " ".join(f"{agg(scores, v) - agg(base, v):+9.5f}" for v in parts.values())
        changed = [
            (pages[i]["id"], f1(s.precision, s.recall) - f1(b.precision, b.recall))
            for i, (s, b) in enumerate(zip(scores, base, strict=True))
            if abs(f1(s.precision, s.recall) - f1(b.precision, b.recall)) > 1e-9
        ]
        better = sum(1 for _, d in changed if d > 0)
        print(f"{name:40s} {deltas}  {len(changed):5d}  {better}/{len(changed) - better}", flush=True)
        top = sorted(changed, key=lambda x: -abs(x[1]))[:6]
        print(f"{'':40s} " + " ".join(f"{pid}:{d:+.3f}" for pid, d in top), flush=True)


if __name__ == "__main__":
    main()
