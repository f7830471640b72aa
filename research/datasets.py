"""Manifest builders for the simulated-expert evaluation.

A dataset folder holds ``manifest.csv`` with columns ``path,labels,site,split``:
``path`` relative to the folder, ``labels`` separated by ``;``, ``site``
optional, ``split`` ``train``/``test`` (optional: the simulator then makes a
seeded 70/30 split).  The builders write plain ``.txt`` files next to the
manifest, so write them under ``var/`` (gitignored), never into the repository.

    python -m research.datasets bbc var/datasets/bbc
    python -m research.datasets reuters var/datasets/reuters

``bbc`` has no official split (the manifest leaves ``split`` out); ``reuters``
uses the ModApte split: ``LEWISSPLIT="TRAIN"``/``"TEST"`` with ``TOPICS="YES"``,
keeping the documents that carry at least one topic (multi-label).
"""

from __future__ import annotations

import argparse
import csv
import gzip
import html
import os
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

MANIFEST = "manifest.csv"
FIELDS = ("path", "labels", "site", "split")


def datasets_root() -> Path:
    """$WIMS_DATASETS, or ../shared/datasets relative to the repository."""
    env = os.environ.get("WIMS_DATASETS")
    if env:
        return Path(env)
    return Path(__file__).resolve().parent.parent.parent / "shared" / "datasets"


@dataclass(frozen=True)
class Document:
    name: str  # file name inside the output folder, without extension
    text: str
    labels: tuple[str, ...]
    split: str | None = None
    site: str = ""


def write_dataset(docs: Iterable[Document], outdir: Path, with_split: bool) -> int:
    """Write one .txt per document and the manifest; returns the number of documents."""
    outdir = Path(outdir)
    (outdir / "docs").mkdir(parents=True, exist_ok=True)
    count = 0
    fields = FIELDS if with_split else FIELDS[:3]
    with open(outdir / MANIFEST, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(fields)
        for doc in docs:
            if not doc.labels:
                raise ValueError(f"document {doc.name} has no label")
            rel = f"docs/{doc.name}.txt"
            (outdir / rel).write_text(doc.text, encoding="utf-8")
            row = [rel, ";".join(doc.labels), doc.site]
            if with_split:
                row.append(doc.split or "")
            writer.writerow(row)
            count += 1
    return count


# ------------------------------------------------------------------ BBC News
def bbc_documents(source: Path) -> Iterator[Document]:
    """BBC News: one folder per label, title on line 1."""
    source = Path(source)
    labels = sorted(p.name for p in source.iterdir() if p.is_dir())
    if not labels:
        raise FileNotFoundError(f"no label folders in {source}")
    for label in labels:
        for path in sorted((source / label).glob("*.txt")):
            # a few files are not valid UTF-8; latin-1 never fails and keeps the words
            raw = path.read_bytes()
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                text = raw.decode("latin-1")
            yield Document(f"{label}-{path.stem}", text, (label,), site="bbc")


# ------------------------------------------------------------------ Reuters-21578
_REUTERS = re.compile(r"<REUTERS(?P<attrs>[^>]*)>(?P<body>.*?)</REUTERS>", re.S)
_ATTR = re.compile(r'(\w+)="([^"]*)"')
_TOPICS = re.compile(r"<TOPICS>(.*?)</TOPICS>", re.S)
_D = re.compile(r"<D>(.*?)</D>", re.S)
_TITLE = re.compile(r"<TITLE>(.*?)</TITLE>", re.S)
_BODY = re.compile(r"<BODY>(.*?)</BODY>", re.S)
_CONTROL = re.compile(r"&#\d+;")


def _clean(text: str) -> str:
    return html.unescape(_CONTROL.sub(" ", text)).strip()


def reuters_documents(source: Path) -> Iterator[Document]:
    """Reuters-21578 ModApte: TOPICS="YES", LEWISSPLIT TRAIN/TEST, at least one topic."""
    source = Path(source)
    files = sorted(source.glob("reut2-*.sgm*"))
    if not files:
        raise FileNotFoundError(f"no reut2-*.sgm(.gz) files in {source}")
    for path in files:
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rt", encoding="latin-1") as handle:
            data = handle.read()
        for match in _REUTERS.finditer(data):
            attrs = dict(_ATTR.findall(match["attrs"]))
            split = {"TRAIN": "train", "TEST": "test"}.get(attrs.get("LEWISSPLIT", ""))
            if attrs.get("TOPICS") != "YES" or split is None:
                continue
            body = match["body"]
            topics_block = _TOPICS.search(body)
            topics = tuple(_D.findall(topics_block.group(1))) if topics_block else ()
            if not topics:
                continue
            title = _TITLE.search(body)
            text = _BODY.search(body)
            content = "\n".join(_clean(m.group(1)) for m in (title, text) if m)
            yield Document(f"{attrs['NEWID']:0>5}", content, topics, split=split, site="reuters")


BUILDERS = {
    "bbc": ("bbc-news", bbc_documents, False),
    "reuters": ("reuters-21578", reuters_documents, True),
}


def build(name: str, outdir: Path, source: Path | None = None) -> int:
    """Build the named dataset's manifest and text files in ``outdir``."""
    try:
        folder, reader, with_split = BUILDERS[name]
    except KeyError:
        raise ValueError(f"unknown dataset {name!r}; known: {', '.join(BUILDERS)}") from None
    source = Path(source) if source else datasets_root() / folder
    if not source.is_dir():
        raise FileNotFoundError(f"dataset folder {source} not found (set WIMS_DATASETS)")
    return write_dataset(reader(source), Path(outdir), with_split)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m research.datasets", description=__doc__.split("\n\n")[0])
    parser.add_argument("name", choices=sorted(BUILDERS))
    parser.add_argument("outdir", type=Path, help="output folder (use var/..., it is gitignored)")
    parser.add_argument("--source", type=Path, help="dataset folder (default: $WIMS_DATASETS/<name>)")
    args = parser.parse_args(argv)
    try:
        count = build(args.name, args.outdir, args.source)
    except (FileNotFoundError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {count} documents and {args.outdir / MANIFEST}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
