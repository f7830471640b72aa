"""Manifest builders for the simulated-expert evaluation.

A dataset folder holds ``manifest.csv`` with columns ``path,labels,site,split``:
``path`` relative to the folder, ``labels`` separated by ``;``, ``site``
optional, ``split`` ``train``/``test`` (optional: the simulator then makes a
seeded 70/30 split).  The builders write plain ``.txt`` files next to the
manifest, so write them under ``var/`` (gitignored), never into the repository.

    python -m research.datasets bbc var/datasets/bbc
    python -m research.datasets reuters var/datasets/reuters
    python -m research.datasets kinds4 var/datasets/kinds4   # WebKB-4-like: wcxb-dev-kinds' pages by kind

``bbc`` has no official split (the manifest leaves ``split`` out); ``reuters``
uses the ModApte split: ``LEWISSPLIT="TRAIN"``/``"TEST"`` with ``TOPICS="YES"``,
keeping the documents that carry at least one topic (multi-label).

The simulator reads a dataset folder with :func:`load_manifest`: one :class:`Item` per row, its tokens
(``.txt`` through the filters' tokenizer and stop words, ``.html`` / ``.html.gz`` through
``filters.extract``; a page the filters reject is kept as skipped) and its case's features as WIMS builds
them (:func:`wims_features`); :func:`validation_split` carves the split to tune on from the training part.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import html
import os
import random
import re
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

try:  # the filters package's tokenizer and stop words, so .txt and HTML cases match
    from filters import ExtractionError
    from filters import tokenize as _filters_tokenize
    from filters.stopwords import ENGLISH as _STOP_WORDS
except ImportError:  # pragma: no cover - only while the filters package is missing
    _STOP_WORDS = frozenset()

    class ExtractionError(ValueError):  # type: ignore[no-redef]
        pass

    _WORD = re.compile(r"\w+(?:'\w+)*")

    def _filters_tokenize(text: str, stop_words: frozenset[str] = frozenset()) -> list[str]:
        return [t for t in _WORD.findall(text.lower()) if len(t) > 1 and not t.isdigit() and t not in stop_words]


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


# ------------------------------------------------------------------ WebKB-4-like: web pages by their kind
#: the four page kinds of wcxb-dev-kinds with most pages after articles: like WebKB-4 (university pages as
#: student, faculty, course or project), a page is classified by what kind of page it is, from its HTML
PAGE_KINDS = ("service", "forum", "listing", "product")


def write_page_kinds(source: Path, outdir: Path, kinds: Sequence[str] = PAGE_KINDS) -> int:
    """A manifest over wcxb-dev-kinds' own HTML files (absolute paths, nothing copied): label = page kind,
    site = domain, no split (the simulator's seeded 70/30)."""
    source = Path(source)
    with open(source / MANIFEST, newline="", encoding="utf-8") as handle:
        rows = [row for row in csv.DictReader(handle) if row["page_type"] in kinds and row.get("html")]
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    with open(outdir / MANIFEST, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(FIELDS[:3])
        for row in rows:
            writer.writerow([str((source / row["html"]).resolve()), row["page_type"], row["domain"]])
    return len(rows)


def build(name: str, outdir: Path, source: Path | None = None) -> int:
    """Build the named dataset's manifest and text files in ``outdir``."""
    if name == "kinds4":
        return write_page_kinds(Path(source) if source else datasets_root() / "wcxb-dev-kinds", Path(outdir))
    try:
        folder, reader, with_split = BUILDERS[name]
    except KeyError:
        raise ValueError(f"unknown dataset {name!r}; known: {', '.join(BUILDERS)}") from None
    source = Path(source) if source else datasets_root() / folder
    if not source.is_dir():
        raise FileNotFoundError(f"dataset folder {source} not found (set WIMS_DATASETS)")
    return write_dataset(reader(source), Path(outdir), with_split)


# ------------------------------------------------------------------ reading a dataset: its cases
def tokenize_text(text: str) -> list[str]:
    """Tokens of a plain-text document, as the filters produce them for a page's core text."""
    return _filters_tokenize(text, _STOP_WORDS)


@dataclass
class Item:
    """One labelled document of a dataset."""

    id: int
    path: Path
    labels: frozenset[str]
    split: str
    site: str = ""
    tokens: list[str] = field(default_factory=list)
    skipped: str = ""  # why the filters rejected the page (filters.ExtractionError); such items are not used
    #: its words weighted by where they stand, as DocView weighs a page's terms (filters.docview.term_weights):
    #: what its keywords are computed from when it reaches the knowledge base (research.suggestions)
    weights: dict[str, float] = field(default_factory=dict)
    #: the case's features as WIMS builds them (classifier.features.case_features); empty: the words alone
    features: list[str] = field(default_factory=list)

    @property
    def case(self) -> frozenset[str]:
        return frozenset(self.features or self.tokens)


def read_tokens(path: Path, profile=None) -> list[str]:
    """Tokens of one dataset file: .txt directly, .html/.html.gz through the filters."""
    return read_document(path, profile)[0]


def read_document(path: Path, profile=None) -> tuple[list[str], str, str]:
    """Tokens, title and URL of one dataset file: .txt directly (the title is its first line, as both
    builders of :mod:`research.datasets` write it; no URL), .html/.html.gz through the filters."""
    tokens, title, url, _weights = read_weighted_document(path, profile)
    return tokens, title, url


def text_term_weights(tokens: Sequence[str], title: str) -> dict[str, float]:
    """A plain text's words weighted as DocView weighs a page's (filters.docview.term_weights): each occurrence
    counts 1, an occurrence in the title (its first line, the headline) counts HEADLINE_WEIGHT."""
    from filters.docview import HEADLINE_WEIGHT

    weights: dict[str, float] = {}
    for token in tokens:
        weights[token] = weights.get(token, 0.0) + 1.0
    for token in tokenize_text(title):  # the title's words are among the tokens once already
        if token in weights:
            weights[token] += HEADLINE_WEIGHT - 1.0
    return weights


def read_weighted_document(path: Path, profile=None) -> tuple[list[str], str, str, dict[str, float]]:
    """:func:`read_document` with the words weighted as DocView weighs them (:func:`text_term_weights` for a
    .txt; filters.docview.term_weights of a page's extraction)."""
    name = path.name.lower()
    if name.endswith(".txt"):
        text = path.read_text(encoding="utf-8", errors="replace")
        title = next((line.strip() for line in text.splitlines() if line.strip()), "")
        tokens = tokenize_text(text)
        return tokens, title, "", text_term_weights(tokens, title)
    if name.endswith(".html.gz") or name.endswith(".htm.gz"):
        with gzip.open(path, "rb") as handle:
            data = handle.read()
    elif name.endswith((".html", ".htm")):
        data = path.read_bytes()
    else:
        raise ValueError(f"{path}: unsupported file type (expected .txt, .html or .html.gz)")
    import filters  # the HTML path needs the filters package
    from filters.docview import term_weights

    extraction = filters.extract(data, profile=profile)
    return list(extraction.tokens), extraction.title, extraction.url or "", term_weights(extraction)


#: how a case is built: ``words`` (the bag of words) or ``wims`` (classifier.features.case_features with the
#: default FeatureSettings, as WIMS builds its cases: words, two-word phrases, ``title:`` words, ``site:`` /
#: ``url:`` words where there is a URL)
FEATURES = ("words", "wims")
DEFAULT_FEATURES = "wims"


#: the knowledge base's optional Snowball stemming (``FeatureSettings.stemming``): off, or a language
STEMMING = ("none", "english")
DEFAULT_STEMMING = "none"


def wims_features(tokens: Sequence[str], title: str = "", url: str = "", stemming: str | None = None) -> list[str]:
    """The case's features exactly as the product builds them (classifier.services.case_keywords), for a
    knowledge base with ``stemming`` (a Snowball language) or without it (None)."""
    from classifier.features import FeatureSettings, case_features

    settings = FeatureSettings(stemming=stemming)
    return case_features(tokens, title=title, url=url, settings=settings, stop_words=_STOP_WORDS)


def load_manifest(
    dataset: Path,
    seed: int = 0,
    profile=None,
    test_share: float = 0.3,
    features: str = DEFAULT_FEATURES,
    stemming: str = DEFAULT_STEMMING,
) -> list[Item]:
    """Read ``manifest.csv`` and the documents; a missing split column gets a seeded split.  ``features``
    (:data:`FEATURES`) says how each case is built, ``stemming`` (:data:`STEMMING`) whether the knowledge
    base stems its words (``wims`` features only)."""
    if features not in FEATURES:
        raise ValueError(f"unknown features {features!r}; choose one of {', '.join(FEATURES)}")
    if stemming not in STEMMING:
        raise ValueError(f"unknown stemming {stemming!r}; choose one of {', '.join(STEMMING)}")
    if stemming != "none" and features != "wims":
        raise ValueError("stemming applies to cases built as WIMS builds them (features 'wims')")
    dataset = Path(dataset)
    manifest = dataset / MANIFEST
    if not manifest.is_file():
        raise FileNotFoundError(f"{manifest} not found")
    with open(manifest, newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        missing = {"path", "labels"} - set(reader.fieldnames or ())
        if missing:
            raise ValueError(f"{manifest}: missing column(s) {sorted(missing)}")
        rows = list(reader)
    if not rows:
        raise ValueError(f"{manifest} lists no documents")
    items = []
    for n, row in enumerate(rows):
        labels = frozenset(x.strip() for x in (row["labels"] or "").split(";") if x.strip())
        if not labels:
            raise ValueError(f"{manifest}: row {n + 2} ({row['path']}) has no label")
        split = (row.get("split") or "").strip().lower()
        if split not in ("", "train", "test"):
            raise ValueError(f"{manifest}: row {n + 2}: split must be train or test, not {split!r}")
        path = dataset / row["path"]
        items.append(Item(n, path, labels, split, (row.get("site") or "").strip()))
    if any(not item.split for item in items):
        # seeded split of the rows without one, the same for every run with this seed
        rng = random.Random(seed)
        free = [item for item in items if not item.split]
        rng.shuffle(free)
        cut = round(len(free) * test_share)
        for i, item in enumerate(free):
            item.split = "test" if i < cut else "train"
    for item in items:
        try:
            item.tokens, title, url, item.weights = read_weighted_document(item.path, profile)
            if features == "wims":
                item.features = wims_features(item.tokens, title, url, None if stemming == "none" else stemming)
        except ExtractionError as exc:  # a page the filters reject: skipped and counted, never fatal
            item.skipped = str(exc) or type(exc).__name__
    return items


def validation_split(items: Sequence[Item], share: float = 0.2, seed: int = 0) -> list[Item]:
    """The training part only, a seeded ``share`` of it relabelled "test": the split to tune on.

    The real test part is dropped, so nothing tuned this way has seen it.
    """
    train = [item for item in items if item.split == "train"]
    order = list(train)
    random.Random(seed + 1).shuffle(order)
    held = {item.id for item in order[: round(len(order) * share)]}
    return [replace(item, split="test" if item.id in held else "train") for item in train]


def usable(items: Sequence[Item]) -> tuple[list[Item], int]:
    """The items the filters could read, and how many they rejected (skipped)."""
    kept = [item for item in items if not item.skipped]
    return kept, len(items) - len(kept)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m research.datasets", description=__doc__.split("\n\n")[0])
    parser.add_argument("name", choices=sorted([*BUILDERS, "kinds4"]))
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
