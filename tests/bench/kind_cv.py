"""The page kind cross-validated by site on the tuning split only (issue 33): how the decision generalises.

``bench_sources.py --fit`` refits :data:`filters.kind.WEIGHTS` and prints the cross-validated figures of the
weights at a few thresholds; this reads the tuning split alone (never the held-out one) and estimates the whole
decision on sites it was not fitted on, with several seeds of the folds to show their variance:

* for each seed, the tuning sites are shuffled into ``--folds`` groups (a site's pages go together: wcxb has one
  page a domain, crawl-to-the-future ten sites of about 50 tuning pages each);
* on each fold the weights are refitted on the other folds' pages no rule settles (as ``--fit``: logistic
  regression, crawl-to-the-future's pages at 0.3 each), and the threshold is either the committed
  :data:`filters.kind.THRESHOLD` or, with ``--calibrate``, the highest whose inner cross-validated article recall
  on the other folds reaches ``--recall``;
* the fold's pages are judged: settled by the rules (fixed), else weighed with those weights.

Article recall and the share of other pages kept out are those of wcxb-dev-kinds' tuning split, with their mean
and spread over the seeds; crawl-to-the-future's recall and its per-site breakdown beside them.

    .venv/bin/python tests/bench/kind_cv.py [--seeds 5] [--folds 5] [--C 1.0] [--calibrate] [--per-site]

The tuning pages' evidence is kept in ``/tmp`` (keyed by the evidence code) so that a rerun reads no page.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import pickle
import statistics
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from filters import ExtractionError, read_page  # noqa: E402
from filters import kind as K  # noqa: E402
from filters.kind_evidence import Evidence, gather  # noqa: E402
from tests.bench.bench_sources import DATASETS, ctf_pages, kinds_pages, page_url  # noqa: E402

CTF_WEIGHT = 0.3


@dataclass
class Row:
    ev: Evidence
    article: bool
    page_type: str
    site: str
    ctf: bool


def tuning_rows(root: Path = DATASETS) -> list[Row]:
    """The tuning split's pages as evidence (read once, then from the cache in /tmp)."""
    code = (ROOT / "filters" / "kind_evidence.py").read_bytes() + (ROOT / "filters" / "pipeline.py").read_bytes()
    cache = Path(f"/tmp/wims-kind-cv-{hashlib.sha256(code).hexdigest()[:12]}.pkl")
    if cache.exists():  # plain tuples: the rows' class is __main__'s when this runs as a script
        return [Row(*fields) for fields in pickle.loads(cache.read_bytes())]
    rows = []
    for sources, ctf in ((kinds_pages("tune", root), False), (ctf_pages("tune", root), True)):
        for source in sources:
            try:
                page = read_page(gzip.decompress(source.path.read_bytes()))
                page.tree  # noqa: B018
            except ExtractionError:
                continue
            url = page_url(source, page)
            rows.append(Row(gather(page, url), source.page_type == "article", source.page_type, source.site, ctf))
    cache.write_bytes(pickle.dumps([(r.ev, r.article, r.page_type, r.site, r.ctf) for r in rows]))
    return rows


@dataclass
class Prepared:
    """Each row's facts, whether a rule settles it (and how), as arrays for the fits."""

    rows: list[Row]
    settled: list[K.PageKind | None]
    x: object  # numpy array of the weighed facts
    names: list[str]


def prepare(rows: list[Row], also: tuple[str, ...] = (), without: tuple[str, ...] = ()) -> Prepared:
    import numpy as np

    names = [n for n in K.WEIGHTS if n not in without] + list(also)
    settled, matrix = [], []
    for row in rows:
        shape = K.url_shape(row.ev.url)
        found = K.facts(row.ev, shape)
        settled.append(K.settle(row.ev, shape, found))
        matrix.append([float(found[n]) for n in names])
    return Prepared(rows, settled, np.array(matrix), names)


def _fit(p: Prepared, idx, c: float):
    import numpy as np
    from sklearn.linear_model import LogisticRegression

    idx = np.array([i for i in idx if p.settled[i] is None])
    y = np.array([p.rows[i].article for i in idx])
    w = np.array([CTF_WEIGHT if p.rows[i].ctf else 1.0 for i in idx])
    return LogisticRegression(C=c, max_iter=10000).fit(p.x[idx], y, sample_weight=w)


def _folds(p: Prepared, idx, k: int, seed: int):
    """``k`` folds of ``idx`` by site, the sites shuffled by ``seed``."""
    import numpy as np

    sites = sorted({p.rows[i].site for i in idx})
    rng = np.random.default_rng(seed)
    rng.shuffle(sites)
    fold_of = {s: n % k for n, s in enumerate(sites)}
    return [[i for i in idx if fold_of[p.rows[i].site] == f] for f in range(k)]


def _calibrate(p: Prepared, idx, c: float, k: int, seed: int, recall: float) -> float:
    """The highest threshold whose inner cross-validated recall (wcxb articles of ``idx``) reaches ``recall``."""
    import numpy as np

    scores: dict[int, float] = {}
    for fold in _folds(p, idx, k, seed + 1000):
        held = set(fold)
        model = _fit(p, [i for i in idx if i not in held], c)
        for i in fold:
            if p.settled[i] is None:
                scores[i] = float(model.decision_function(p.x[i : i + 1])[0])
    articles = [i for i in idx if p.rows[i].article and not p.rows[i].ctf]
    best = -3.0
    for t in np.arange(-3.0, 1.01, 0.1):
        shown = sum(1 for i in articles if p.settled[i] is None and scores[i] >= t)
        if shown / len(articles) >= recall:
            best = float(t)
    return best


def cross_validate(p: Prepared, seed: int, k: int, c: float, calibrate: float | None) -> dict[int, bool]:
    """Each tuning page's verdict (an article or not) when its site was in no fit."""
    verdict: dict[int, bool] = {}
    everything = list(range(len(p.rows)))
    for fold in _folds(p, everything, k, seed):
        held = set(fold)
        train = [i for i in everything if i not in held]
        model = _fit(p, train, c)
        threshold = K.THRESHOLD if calibrate is None else _calibrate(p, train, c, k, seed, calibrate)
        for i in fold:
            if p.settled[i] is not None:
                verdict[i] = p.settled[i].is_article
            else:
                verdict[i] = float(model.decision_function(p.x[i : i + 1])[0]) >= threshold
    return verdict


def figures(p: Prepared, verdict: dict[int, bool]) -> tuple[float, float, float]:
    """wcxb article recall, wcxb other pages kept out, crawl-to-the-future recall."""
    wa = [verdict[i] for i, r in enumerate(p.rows) if r.article and not r.ctf]
    wo = [not verdict[i] for i, r in enumerate(p.rows) if not r.article]
    ca = [verdict[i] for i, r in enumerate(p.rows) if r.ctf]
    return sum(wa) / len(wa), sum(wo) / len(wo), sum(ca) / len(ca)


def committed(p: Prepared) -> dict[int, bool]:
    """The committed decision's verdicts (rules and WEIGHTS as they are): the tuning figures."""
    out = {}
    for i, row in enumerate(p.rows):
        out[i] = (
            p.settled[i].is_article
            if p.settled[i] is not None
            else K.score(dict(zip(p.names, map(bool, p.x[i]), strict=True))) >= K.THRESHOLD
        )
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--C", type=float, default=1.0, help="the inverse of the weights' L2 regularisation")
    ap.add_argument("--calibrate", type=float, default=None, metavar="RECALL",
                    help="pick each fold's threshold by inner CV to reach this article recall")  # fmt: skip
    ap.add_argument("--per-site", action="store_true", help="per page type and crawl-to-the-future site, seed 0")
    ap.add_argument("--also", default="", help="facts to weigh beyond WEIGHTS' (comma-separated), to try them")
    ap.add_argument("--without", default="", help="facts of WEIGHTS to leave out of the fits (comma-separated)")
    args = ap.parse_args(argv)
    also, without = (tuple(filter(None, a.split(","))) for a in (args.also, args.without))
    p = prepare(tuning_rows(), also, without)
    wa, wo, ca = figures(p, committed(p))
    print(f"tuning, committed weights: recall {wa:.3f}  kept out {wo:.3f}  ctf recall {ca:.3f}")
    runs = []
    for seed in range(args.seeds):
        verdict = cross_validate(p, seed, args.folds, args.C, args.calibrate)
        runs.append(figures(p, verdict))
        if args.per_site and seed == 0:
            groups: Counter[str] = Counter()
            right: Counter[str] = Counter()
            for i, r in enumerate(p.rows):
                g = f"ctf {r.site}" if r.ctf else r.page_type
                groups[g] += 1
                right[g] += verdict[i] == r.article
            for g in sorted(groups):
                print(f"  {g:28} {right[g]:4}/{groups[g]:4} = {right[g] / groups[g]:.3f}")
    for name, n in (("recall", 0), ("kept out", 1), ("ctf recall", 2)):
        values = [r[n] for r in runs]
        spread = statistics.stdev(values) if len(values) > 1 else 0.0
        print(
            f"cross-validated by site ({args.seeds} seeds x {args.folds} folds): {name} "
            f"{statistics.mean(values):.3f} ± {spread:.3f} (min {min(values):.3f}, max {max(values):.3f})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
