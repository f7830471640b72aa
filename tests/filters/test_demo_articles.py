"""The demo sites' article pages, as the demo server renders them, through the filter pipeline: the body the experts
read starts with the article's own text, with no section kicker ("Mind") and no "Posted: ... | Filed under ..." line
(issue 30 item 4), and keeps the article's first paragraph."""

from __future__ import annotations

from itertools import product

import pytest

from demo.articles import ARTICLES
from demo.pages import SECTION_TITLES
from demo.sites import render_article_page
from filters import analyse_page, extract, learn_profile

#: what the demo templates put around the article's text that is the site's label, not the article's
KICKER_NOTE, DATELINE_NOTE, BYLINE_NOTE = "section kicker", "byline or date line", "byline"


def site_labels(body: str, section: str) -> list[str]:
    """The body's lines that are the site's labels: the section's name alone, a "Posted:" or "Filed under" line."""
    name = SECTION_TITLES[section]
    return [
        line for line in body.splitlines() if line.strip() == name or line.startswith("Posted") or "Filed under" in line
    ]


@pytest.mark.parametrize("site", ["healthwatch", "courier", "wellbeing", "pulse"])
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


def test_the_morning_pulses_byline_is_the_byline_field_not_the_body():
    # "Callum Reid Science reporter 29 November 2026, 05:28": a writer's link, a role and a <time> in a block named
    # "byline", no "By"; it stayed in the body, learned profile or not (the names and dates vary)
    articles = [a for a in ARTICLES if a.site == "pulse"]
    pages = {a.slug: render_article_page("pulse", a.slug) for a in articles}
    learned = learn_profile(
        [analyse_page(html, url=f"https://pulse.example/{slug}", profile="default") for slug, html in pages.items()],
        base="default",
    )
    assert articles
    for article, profile in product(articles, ("default", learned)):
        ex = extract(pages[article.slug], profile=profile)
        byline = ex.lead.byline
        assert byline and ex.lead.date and ex.lead.date in byline, (article.slug, ex.lead, ex.explain())
        assert byline not in ex.body and ex.lead.date not in ex.body, (article.slug, ex.explain())
        assert [p.note for p in ex.phrases if p.text == byline] == [BYLINE_NOTE], ex.explain()
