"""The demo sites' article pages, as the demo server renders them, through the filter pipeline: the body the experts
read starts with the article's own text, with no section kicker ("Mind") and no "Posted: ... | Filed under ..." line
(issue 30 item 4), and keeps the article's first paragraph."""

from __future__ import annotations

import pytest

from demo.articles import ARTICLES
from demo.pages import SECTION_TITLES
from demo.sites import render_article_page
from filters import extract

#: what the demo templates put around the article's text that is the site's label, not the article's
KICKER_NOTE, DATELINE_NOTE = "section kicker", "byline or date line"


def site_labels(body: str, section: str) -> list[str]:
    """The body's lines that are the site's labels: the section's name alone, a "Posted:" or "Filed under" line."""
    name = SECTION_TITLES[section]
    return [
        line for line in body.splitlines() if line.strip() == name or line.startswith("Posted") or "Filed under" in line
    ]


@pytest.mark.parametrize("site", ["healthwatch", "courier", "wellbeing"])
def test_the_demo_articles_bodies_carry_no_kicker_or_filed_under_line(site):
    articles = [a for a in ARTICLES if a.site == site]
    assert articles
    for article in articles:
        ex = extract(render_article_page(site, article.slug), profile="default")
        assert ex.headline == article.title, ex.explain()
        assert site_labels(ex.body, article.section) == [], (article.slug, ex.explain())
        lines = ex.body.splitlines()
        first = next(b.text for b in article.blocks if b.kind == "p")
        assert lines[0] == article.standfirst and first in lines, (article.slug, lines[:3])


def test_the_demo_sites_labels_are_removed_with_their_reasons():
    for site, note in (("courier", DATELINE_NOTE), ("wellbeing", KICKER_NOTE)):
        article = next(a for a in ARTICLES if a.site == site)
        ex = extract(render_article_page(site, article.slug), profile="default")
        labels = [p for p in ex.phrases if site_labels(p.text, article.section)]
        assert labels and all(p.removed_by for p in labels), ex.explain()
        assert note in [p.note for p in labels], ex.explain()
