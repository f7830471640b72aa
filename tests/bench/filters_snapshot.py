"""Record, or check against a record, everything the filter pipeline outputs on the benchmark datasets.

A guard for speed work on ``filters/pipeline.py``: the output must not change.  For every page of
``wcxb-dev-articles`` and ``crawl-to-the-future`` (``$WIMS_DATASETS``), under every built-in profile
(``thesis``, ``default``, ``wpnc``), and on crawl-to-the-future also under the ``thesis`` and ``default`` profiles
learned from the first pages of the same site and year (so the redundant-phrase and redundant-word filters, the
style tree and the learned threshold are exercised), it records the title, each phrase (text, tag path,
negative/positive tag, link density, filter that removed it, positive tag that rescued it, note), the core text,
the tokens, the counts, the token weights and the blocks (tags, parents, marks, main content, links).

    .venv/bin/python tests/bench/filters_snapshot.py --save /tmp/filters-snapshot.jsonl.gz
    .venv/bin/python tests/bench/filters_snapshot.py --check /tmp/filters-snapshot.jsonl.gz

Only the tuning split is read (``--split tune``, the default): helpers tune on it and never read the test
split; ``--split both`` is for the lead.

``--check`` names every page that differs, prints the first differences of the first ten and exits 1 when
anything differs.  The record is large (tens of MB) and machine-specific in nothing, but it is not
committed: make it from the last commit you trust.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import filters  # noqa: E402
from filters.learning import learn_profile  # noqa: E402
from filters.profiles import BUILTIN_PROFILES  # noqa: E402
from tests.bench.bench_filters import load_ctf, load_wcxb  # noqa: E402

LEARN_PAGES = 8  # pages of a site-year the learned profile is built from


def record(key: str, ex: filters.Extraction) -> dict:
    return {
        "key": key,
        "title": ex.title,
        "phrases": [
            [p.text, p.path, p.neg, p.pos, p.link_density, p.removed_by, p.rescued_by, p.note] for p in ex.phrases
        ],
        "text": ex.text,
        "tokens": ex.tokens,
        "counts": ex.counts,
        "token_weights": ex.token_weights,
        "blocks": None
        if ex.blocks is None
        else [ex.blocks.tags, ex.blocks.parents, ex.blocks.marks, ex.blocks.main, ex.blocks.links],
    }


def records(split: str | None = "tune"):
    for page in load_wcxb(None, split):
        for prof in BUILTIN_PROFILES:
            yield record(f"wcxb/{page['id']}/{prof}", filters.extract(page["html"], profile=prof))
    groups = defaultdict(list)
    for page in load_ctf(None, split):
        groups[page["group"]].append(page)
    for group, members in sorted(groups.items()):
        for prof in ("thesis", "default"):
            learned = learn_profile([p["html"] for p in members[:LEARN_PAGES]], base=prof)
            # the learned profile itself is an output of the pipeline (segment + tokenize)
            yield {
                "key": f"ctf/{group}/{prof}/profile",
                "profile": {k: v for k, v in learned.to_dict().items() if k != "provenance"},
            }
            for page in members:
                yield record(f"ctf/{page['id']}/{prof}-learned", filters.extract(page["html"], profile=learned))
        for page in members:
            for prof in BUILTIN_PROFILES:
                yield record(f"ctf/{page['id']}/{prof}", filters.extract(page["html"], profile=prof))


def _diff(a: dict, b: dict, limit: int = 5) -> list[str]:
    out = []
    for field in sorted(set(a) | set(b)):
        if a.get(field) == b.get(field):
            continue
        if field == "phrases":
            pa, pb = a["phrases"], b["phrases"]
            if len(pa) != len(pb):
                out.append(f"  phrases: {len(pa)} recorded, {len(pb)} now")
            for i, (x, y) in enumerate(zip(pa, pb, strict=False)):
                if x != y:
                    out.append(f"  phrase {i}: recorded {x!r}\n             now {y!r}")
                    if len(out) >= limit:
                        break
        else:
            out.append(f"  {field}: recorded {str(a.get(field))[:200]!r}\n         now {str(b.get(field))[:200]!r}")
    return out[:limit]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    group = ap.add_mutually_exclusive_group(required=True)
    group.add_argument("--save", type=Path)
    group.add_argument("--check", type=Path)
    ap.add_argument("--split", choices=("tune", "both"), default="tune", help="the pages (default: tuning split)")
    args = ap.parse_args(argv)
    split = None if args.split == "both" else "tune"
    t0 = time.perf_counter()
    n = 0
    if args.save:
        with gzip.open(args.save, "wt", encoding="utf-8") as fh:
            for rec in records(split):
                fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
                n += 1
        print(f"saved {n} records to {args.save} in {time.perf_counter() - t0:.0f} s")
        return 0
    bad = 0
    with gzip.open(args.check, "rt", encoding="utf-8") as fh:
        for line, rec in zip(fh, records(split), strict=True):
            old = json.loads(line)
            # through JSON too, so that tuples/lists and floats compare the same way
            rec = json.loads(json.dumps(rec, ensure_ascii=False))
            n += 1
            if old != rec:
                bad += 1
                detail = _diff(old, rec) if bad <= 10 else []  # the first ten in detail, the rest by key
                print("\n".join([f"DIFFERS {old.get('key')}", *detail]))
    print(f"checked {n} records in {time.perf_counter() - t0:.0f} s: {bad} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
