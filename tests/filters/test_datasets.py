"""Smoke test on real pages of the shared datasets (skipped where they are absent)."""

import csv
import gzip
import json

from filters import extract, get_profile, learn_profile
from filters.learning import analyse_page
from filters.metrics import aggregate_scores, shingle_scores


def test_wcxb_pages_extract_with_reasonable_f1(datasets):
    base = datasets / "wcxb-dev-articles"
    with open(base / "manifest.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))[:15]
    scores = []
    for row in rows:
        gold = json.loads((base / "ground-truth" / f"{row['id']}.json").read_text())["ground_truth"]
        if "main_content" not in gold:
            continue
        e = extract(gzip.decompress((base / "html" / f"{row['id']}.html.gz").read_bytes()))
        scores.append(shingle_scores(e.text, gold["main_content"]))
    assert aggregate_scores(scores)["f1"] > 0.7


def test_crawl_site_learning_removes_template_phrases(datasets):
    folder = datasets / "crawl-to-the-future" / "sites" / "news.bbc.co.uk" / "2005"
    pages = sorted(folder.glob("*.html.gz"))[:10]
    gold = pages[0].with_name(pages[0].name.replace(".html.gz", ".txt")).read_text(errors="replace")
    # the block phrases on libxml2's tree, without main-content detection: the template is left to learning
    libxml2 = get_profile("default").copy(parser="libxml2", main_content=False)
    samples = [analyse_page(gzip.decompress(p.read_bytes()), url=p.name, profile=libxml2) for p in pages[1:]]
    prof = learn_profile(samples, base=libxml2)
    assert prof.filtering_phrases
    e = extract(gzip.decompress(pages[0].read_bytes()), profile=prof)
    assert e.counts["redundancy"] > 0
    assert shingle_scores(e.text, gold).recall > 0.5
    # the default profile: main-content detection removes most of the template before learning
    samples = [analyse_page(gzip.decompress(p.read_bytes()), url=p.name) for p in pages[1:]]
    learned = extract(gzip.decompress(pages[0].read_bytes()), profile=learn_profile(samples))
    assert learned.counts["content"] > 0
    assert shingle_scores(learned.text, gold).recall > 0.5
    assert shingle_scores(learned.text, gold).precision >= shingle_scores(e.text, gold).precision
