"""Command line: ``python -m filters extract|learn|stats|kind``.

* ``extract PAGE [--explain]`` prints the core text of one page (``-`` = stdin);
  ``--explain`` lists every phrase with its decision.
* ``learn DIR`` learns a site profile from a folder of pages and prints it as JSON.
* ``stats DIR`` prints the breakdown of phrases by the filter that removed
  them, like the thesis's table of filtering results.
* ``kind PAGE... [--url URL]`` prints one line per page, ``<path> <kind> <reason>``:
  article, listing, forum, product, documentation, service or other (:mod:`filters.kind`).

Pages may be ``.html``, ``.htm`` or gzip-compressed ``.html.gz`` files.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from . import sst
from .kind import page_kind
from .learning import learn_profile
from .pipeline import ExtractionError, extract, read_page
from .profiles import BUILTIN_PROFILES, Profile, get_profile

PAGE_SUFFIXES = (".html", ".htm", ".html.gz", ".htm.gz", ".xhtml")


def _read(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    data = Path(path).read_bytes()
    return gzip.decompress(data) if path.endswith(".gz") else data


def _pages(folder: str) -> list[Path]:
    root = Path(folder)
    if not root.is_dir():
        raise SystemExit(f"error: {folder} is not a folder")
    pages = sorted(p for p in root.rglob("*") if p.is_file() and p.name.lower().endswith(PAGE_SUFFIXES))
    if not pages:
        raise SystemExit(f"error: no .html/.htm/.html.gz pages in {folder}")
    return pages


def _profile(arg: str | None) -> Profile:
    """A built-in name or a JSON file written by ``learn``."""
    if arg is None or arg in BUILTIN_PROFILES:
        return get_profile(arg)
    path = Path(arg)
    if not path.is_file():
        raise SystemExit(f"error: {arg} is neither a built-in profile ({', '.join(BUILTIN_PROFILES)}) nor a file")
    return Profile.from_dict(json.loads(path.read_text()))


#: the stages some profiles add to the thesis's filters: count key, label
_STAGES = (("content", "main content"), ("wpnc", "text density (wpnc)"))


def cmd_extract(args: argparse.Namespace) -> int:
    try:
        result = extract(
            _read(args.page), url=args.page, profile=_profile(args.profile), content_type=args.content_type
        )
    except ExtractionError as exc:
        print(f"error: {args.page}: {exc}", file=sys.stderr)
        return 1
    if args.explain:
        print(f"# {result.title}" if result.title else "# (no title)")
        print(result.explain())
        c = result.counts
        stages = "".join(f", by {label} {c[key]}" for key, label in _STAGES if key in c)
        print(
            f"# phrases {c['total']}: removed by length {c['length']}, by tag {c['tag']}, "
            f"by redundancy {c['redundancy']}{stages}; core {c['core']} ({c['rescued']} rescued by a positive tag)"
        )
    elif args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False, indent=1))
    else:
        print(result.text)
    return 0


def cmd_learn(args: argparse.Namespace) -> int:
    pages = [(str(p), _read(str(p))) for p in _pages(args.dir)]
    settings: dict[str, Any] = {}
    if args.sample_size:
        settings["sample_size"] = args.sample_size
    if args.fixed_threshold:
        settings["learn_threshold"] = False
    try:
        profile = learn_profile(pages, base=args.base, name=args.name, **settings)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    text = json.dumps(profile.to_dict(), ensure_ascii=False, indent=1)
    if args.output:
        Path(args.output).write_text(text + "\n")
        p = profile.provenance
        print(
            f"learned {len(profile.filtering_phrases)} filtering phrases, {len(profile.filtering_words)} "
            f"filtering words, {sst.stats(profile.style_tree)['noisy']} noisy style-tree nodes, "
            f"threshold {profile.min_length} from {p['sample_size']} of "
            f"{p['pages_seen']} pages -> {args.output}",
            file=sys.stderr,
        )
    else:
        print(text)
    return 0


def stats_table(counts: list[dict[str, int]]) -> str:
    """The thesis's table of filtering results: counts, shares and per-page averages."""
    n_pages = len(counts)
    total = sum(c["total"] for c in counts)
    rows = [
        ("phrases in total", total),
        ("removed by phrase length", sum(c["length"] for c in counts)),
        ("removed by tag", sum(c["tag"] for c in counts)),
        ("removed by redundancy", sum(c["redundancy"] for c in counts)),
        *(
            (f"removed by {label}", sum(c.get(key, 0) for c in counts))
            for key, label in _STAGES
            if any(key in c for c in counts)
        ),
        ("core phrases", sum(c["core"] for c in counts)),
        ("  of which rescued by a positive tag", sum(c["rescued"] for c in counts)),
    ]
    width = max(len(r[0]) for r in rows)
    lines = [f"{'':{width}}  {'count':>9}  {'share':>7}  {'per page':>9}"]
    for label, value in rows:
        share = f"{100 * value / total:6.1f}%" if total else "    n/a"
        avg = f"{value / n_pages:9.1f}" if n_pages else "      n/a"
        lines.append(f"{label:{width}}  {value:9d}  {share}  {avg}")
    lines.append(f"({n_pages} pages)")
    return "\n".join(lines)


def cmd_stats(args: argparse.Namespace) -> int:
    paths = _pages(args.dir)
    profile = _profile(args.profile)
    if args.learn:
        pages = [(str(p), _read(str(p))) for p in paths]
        profile = learn_profile(pages, base=profile)
    counts, failed = [], 0
    for p in paths:
        try:
            counts.append(extract(_read(str(p)), profile=profile).counts)
        except ExtractionError as exc:
            failed += 1
            print(f"skipped {p}: {exc}", file=sys.stderr)
    print(
        f"profile: {profile.name} (threshold {profile.min_length}, {len(profile.filtering_phrases)} "
        f"filtering phrases, {len(profile.filtering_words)} filtering words)"
    )
    print(stats_table(counts))
    if failed:
        print(f"{failed} {'page' if failed == 1 else 'pages'} could not be read", file=sys.stderr)  # no Django here
    return 0


def cmd_kind(args: argparse.Namespace) -> int:
    if args.url and len(args.pages) > 1:
        print("error: --url is the address of one page: give one page with it", file=sys.stderr)
        return 2
    failed = 0
    for path in args.pages:
        try:
            verdict = page_kind(read_page(_read(path), content_type=args.content_type), args.url)
        except (ExtractionError, OSError) as exc:
            print(f"error: {path}: {exc}", file=sys.stderr)
            failed += 1
            continue
        print(f"{path} {verdict.kind} {verdict.reason}", flush=True)
    return 1 if failed else 0


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m filters", description="WIMS noise filters (thesis pipeline)")
    sub = ap.add_subparsers(dest="command", required=True)

    p = sub.add_parser("extract", help="print the core text of a page")
    p.add_argument("page", help="HTML file (.html or .html.gz), or - for stdin")
    p.add_argument("--explain", action="store_true", help="show every phrase with its decision")
    p.add_argument("--json", action="store_true", help="print the whole extraction as JSON")
    p.add_argument("--profile", help="built-in profile name or a profile JSON file (default: default)")
    p.add_argument("--content-type", help="HTTP Content-Type header value, for the charset")
    p.set_defaults(func=cmd_extract)

    p = sub.add_parser("learn", help="learn a site profile from a folder of pages of one site")
    p.add_argument("dir")
    p.add_argument("--base", default="default", help="base profile (thesis = faithful method)")
    p.add_argument("--name", help="name of the learned profile")
    p.add_argument("--sample-size", type=int, help="pages per template sample")
    p.add_argument("--fixed-threshold", action="store_true", help="keep the base profile's length threshold")
    p.add_argument("-o", "--output", help="write the profile JSON here instead of stdout")
    p.set_defaults(func=cmd_learn)

    p = sub.add_parser("stats", help="phrases removed by each filter over a folder of pages")
    p.add_argument("dir")
    p.add_argument("--profile", help="built-in profile name or a profile JSON file (default: default)")
    p.add_argument("--learn", action="store_true", help="first learn the site's redundancy from the folder")
    p.set_defaults(func=cmd_stats)

    p = sub.add_parser("kind", help="the kind of each page: article, listing, forum, product, documentation...")
    p.add_argument("pages", nargs="+", metavar="page", help="HTML file (.html or .html.gz), or - for stdin")
    p.add_argument("--url", help="the address the page was fetched from (default: its canonical link)")
    p.add_argument("--content-type", help="HTTP Content-Type header value, for the charset")
    p.set_defaults(func=cmd_kind)

    args = ap.parse_args(argv)
    command: Callable[[argparse.Namespace], int] = args.func  # one of the cmd_* above (set_defaults)
    return command(args)
