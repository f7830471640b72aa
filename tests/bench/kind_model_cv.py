"""A learned page-kind decision against the committed one, cross-validated by site on the tuning split only.

Issue 33, sixth round: the rules of :func:`filters.kind.settle` and the cut-offs of :func:`filters.kind.facts`
were designed on the whole tuning split, so ``kind_cv.py`` (which refits the weights only) cannot see their
overfit.  Here a model learns the whole decision from the evidence's continuous values (counts, characters,
shares; the rules' triggers as features, not as verdicts), refitted on each fold with its threshold chosen by an
inner cross-validation on the fold's training sites, and is compared with the committed decision on the same
folds (``kind_cv._folds``: the same seeds, a site's pages in one fold).

Candidates: the committed decision (rules + weights refitted per fold, threshold -0.4, and with the threshold
calibrated as the others are); gradient-boosted trees (all pages, or the pages no rule settles); a random
forest; logistic regression on log-scaled counts and shares.  crawl-to-the-future's tuning years (2000, 2005)
count as articles at 0.3 each.  Never reads the held-out split (asserted on the rows).

    .venv/bin/python tests/bench/kind_model_cv.py [--seeds 8] [--only NAME,...] [--recall 0.978]
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from filters import kind as K  # noqa: E402
from tests.bench.bench_sources import held_out  # noqa: E402
from tests.bench.kind_cv import CTF_WEIGHT, Prepared, _fit, _folds, prepare, tuning_rows  # noqa: E402

#: the rules of settle(), by the start of the reason each gives: their triggers become features
RULES = (
    "almost no text", "schema.org", "og:type", "home page", "dated headline links and little", "further page",
    "dated headline links and no body", "edit the page", "code blocks", "service's address and little",
    "little prose", "prices and a cart", "names an offer",
)  # fmt: skip
URL_RULES = ("a product's address", "a forum thread's address", "a documentation address", "a documentation site",
             "a forum site")  # fmt: skip


def rule_of(verdict: K.PageKind | None) -> str:
    if verdict is None:
        return ""
    if verdict.reason in URL_RULES:
        return "url"
    for rule in RULES:
        if rule in verdict.reason:
            return rule
    raise ValueError(verdict.reason)


COUNTS = (
    "h1", "times", "heading_links", "articles", "code_blocks", "text_chars", "prose_chars", "prose_run", "we_words",
    "calls", "prices", "carts", "edit_links", "dated_cards", "headline_words", "title_words",
)  # fmt: skip
FLAGS = ("published", "author", "viewport", "byline_date", "byline_by")


def features(ev, settled: K.PageKind | None) -> tuple[list[str], list[float]]:
    """The evidence's values as numbers: counts (log-scaled), shares, flags, the URL's shape, the rules' triggers."""
    shape = K.url_shape(ev.url)
    found = K.facts(ev, shape)
    names, values = [], []

    def add(name: str, value: float) -> None:
        names.append(name)
        values.append(float(value))

    for name in COUNTS:
        add(f"log {name}", math.log1p(getattr(ev, name)))
    for name in FLAGS:
        add(name, getattr(ev, name))
    add("run / prose", ev.prose_run / ev.prose_chars if ev.prose_chars else 0.0)
    add("run / text", min(1.0, ev.prose_run / ev.text_chars) if ev.text_chars else 0.0)
    add("prose / text", min(1.0, ev.prose_chars / ev.text_chars) if ev.text_chars else 0.0)
    add("we per 1000", 1000 * ev.we_words / ev.prose_chars if ev.prose_chars else 0.0)
    add("schema article", bool(K.ARTICLE_TYPES & ev.types))
    add("schema other", bool(K.DECLARING_TYPES & ev.types))
    add("og article", ev.og_type == "article")
    add("og none", not ev.og_type)
    add("types", len(ev.types))
    add("url home", shape.home)
    add("url slug words", shape.slug_words)
    add("url dated", shape.dated)
    add("url article path", shape.article_path)
    for kind in (K.Kind.PRODUCT, K.Kind.FORUM, K.Kind.DOCUMENTATION, K.Kind.LISTING):
        add(f"url {kind}", shape.kind is kind)
    for name in ("url_service", "further_page", "title_docs", "offer_headline", "headline_style", "legacy"):
        add(name, found[name])
    rule = rule_of(settled)
    for one in ("url", *RULES):
        add(f"rule {one}", rule == one)
    return names, values


class Data:
    def __init__(self, p: Prepared) -> None:
        self.p = p
        rows = p.rows
        for r in rows:
            assert r.ctf or not held_out(r.site), f"a held-out page was read: {r.site}"
        matrix = [features(r.ev, s)[1] for r, s in zip(rows, p.settled, strict=True)]
        self.names = features(rows[0].ev, p.settled[0])[0]
        self.x = np.array(matrix)
        self.y = np.array([r.article for r in rows])
        self.w = np.array([CTF_WEIGHT if r.ctf else 1.0 for r in rows])
        self.free = np.array([s is None for s in p.settled])  # no rule settles it
        self.settled_article = np.array([s is not None and s.is_article for s in p.settled])


def make(name: str):
    from sklearn.ensemble import GradientBoostingClassifier, HistGradientBoostingClassifier, RandomForestClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    if name.startswith("hgbsmall"):  # fewer, shallower trees: less to overfit on ~1,100 pages
        return HistGradientBoostingClassifier(
            max_depth=2, max_iter=40, learning_rate=0.1, min_samples_leaf=20, l2_regularization=1.0
        )
    if name.startswith("hgb"):
        return HistGradientBoostingClassifier(max_depth=3, max_iter=100, learning_rate=0.1, min_samples_leaf=10)
    if name.startswith("gb"):
        return GradientBoostingClassifier(max_depth=2, n_estimators=60, learning_rate=0.1, random_state=0)
    if name.startswith("rf"):
        return RandomForestClassifier(n_estimators=200, min_samples_leaf=3, random_state=0, n_jobs=1)
    if name.startswith("lr"):
        return make_pipeline(StandardScaler(), LogisticRegression(C=0.3, max_iter=10000))
    raise ValueError(name)


CANDIDATES = ("committed", "committed-cal", "hgb-all", "hgb-rest", "gb-all", "gb-rest", "rf-all", "rf-rest",
              "lr-all", "lr-rest", "hgbsmall-all", "hgbsmall-rest", "lrf-all", "lrf-rest")  # fmt: skip


def scores_of(d: Data, name: str, train: list[int], test: list[int]) -> np.ndarray:
    """Scores of ``test`` pages from a model fitted on ``train`` (higher: an article); a settled page scores ±inf
    where the candidate keeps the rules (``-rest``, ``committed``)."""
    rules = not name.endswith("-all")
    tr = [i for i in train if d.free[i]] if rules else list(train)
    if name.startswith("committed"):
        model = _fit(d.p, train, 1.0)
        s = model.decision_function(d.p.x[test])
    else:
        model = make(name)
        fit_kw = {"sample_weight": d.w[tr]}
        if name.startswith("lr"):
            fit_kw = {"logisticregression__sample_weight": d.w[tr]}
        x = np.hstack([d.x, d.p.x]) if name.startswith("lrf") else d.x  # lrf: the committed facts too
        model.fit(x[tr], d.y[tr], **fit_kw)
        prob = model.predict_proba(x[test])[:, 1]
        s = np.log(np.clip(prob, 1e-6, 1 - 1e-6) / np.clip(1 - prob, 1e-6, 1))
    if rules:
        settled = ~d.free[test]
        s = np.where(settled, np.where(d.settled_article[test], np.inf, -np.inf), s)
    return s


def calibrate(d: Data, name: str, train: list[int], seed: int, k: int, recall: float) -> float:
    """The highest threshold whose inner cross-validated wcxb article recall on ``train``'s sites reaches
    ``recall`` (the training folds only: the outer fold's pages play no part)."""
    inner = np.zeros(len(d.y))
    for fold in _folds(d.p, train, k, seed + 1000):
        held = set(fold)
        inner[fold] = scores_of(d, name, [i for i in train if i not in held], fold)
    articles = np.array([i for i in train if d.y[i] and d.w[i] == 1.0])
    s = np.sort(inner[articles])
    # the score of the article at the recall's rank: all articles at or above it are shown
    cut = int(math.floor((1 - recall) * len(s)))
    return float(s[cut]) if len(s) else 0.0


def cross_validate(d: Data, name: str, seed: int, k: int, recall: float) -> tuple[np.ndarray, np.ndarray]:
    """Each page's verdict when its site was in no fit (the threshold refitted per fold), and its score."""
    shown = np.zeros(len(d.y), dtype=bool)
    scores = np.zeros(len(d.y))
    everything = list(range(len(d.y)))
    for fold in _folds(d.p, everything, k, seed):
        held = set(fold)
        train = [i for i in everything if i not in held]
        s = scores_of(d, name, train, fold)
        threshold = K.THRESHOLD if name == "committed" else calibrate(d, name, train, seed, k, recall)
        shown[fold] = s >= threshold
        scores[fold] = s
    return shown, scores


def at_recall(d: Data, scores: np.ndarray, recall: float) -> float:
    """Kept out at the one threshold over all folds' scores that reaches ``recall`` (an oracle's threshold, the
    same optimism for every candidate: how well the out-of-fold scores rank, whatever the calibration)."""
    articles = np.sort(scores[d.y & (d.w == 1.0)])
    t = articles[int(math.floor((1 - recall) * len(articles)))]
    return float(((scores < t) & ~d.y).sum() / (~d.y).sum())


def figures(d: Data, shown: np.ndarray) -> tuple[float, float, float]:
    wcxb = d.w == 1.0
    ctf = ~wcxb
    recall = (shown & d.y & wcxb).sum() / (d.y & wcxb).sum()
    kept = (~shown & ~d.y).sum() / (~d.y).sum()
    return float(recall), float(kept), float(shown[ctf].mean())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=8)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--only", default="", help="candidates to run (comma-separated; default all)")
    ap.add_argument("--recall", type=float, default=0.978, help="the inner-CV article recall each threshold aims at")
    ap.add_argument("--importance", action="store_true", help="print the features the trees split on most")
    args = ap.parse_args(argv)
    d = Data(prepare(tuning_rows()))
    types = [r.page_type if not r.ctf else "ctf" for r in d.p.rows]
    print(f"{len(d.y)} tuning pages ({int((d.w == 1).sum())} wcxb, {int((d.w < 1).sum())} ctf), "
          f"{len(d.names)} features, {int(d.free.sum())} no rule settles")  # fmt: skip
    names = args.only.split(",") if args.only else CANDIDATES
    head = "| decision | recall | kept out | ctf recall | kept out at 0.975 | at 0.980 | "
    print(head + " | ".join(t for t in sorted(set(types))) + " |")
    for name in names:
        runs, right = [], Counter()
        for seed in range(args.seeds):
            shown, scores = cross_validate(d, name, seed, args.folds, args.recall)
            runs.append((*figures(d, shown), at_recall(d, scores, 0.975), at_recall(d, scores, 0.98)))
            for i, t in enumerate(types):
                right[t] += shown[i] == d.y[i]
        cells = []
        for n in range(5):
            v = [r[n] for r in runs]
            cells.append(f"{statistics.mean(v):.3f} ± {statistics.stdev(v) if len(v) > 1 else 0:.3f}")
        per_type = Counter(types)
        cells += [f"{right[t] / args.seeds:.1f}/{per_type[t]}" for t in sorted(per_type)]
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
