"""The demo sites' pages through WIMS's own filters: the profile WIMS learns from a demo site's pages keeps every
line of every article's text, follow-ups included. Every follow-up carried one "Background" heading; the learned
profile took it for the site's furniture and removed it from all of them.

Plain pytest, no database, no server: the pages are rendered from a :class:`demo.timeline.SiteState` on a made-up
clock, as the server serves them.
"""

from __future__ import annotations

import re
from datetime import datetime

import pytest

from demo import ARTICLES, SERVED_SITES, PageContext
from demo.editions import angle_of, edition
from demo.sites import article_url, template_for
from demo.timeline import SiteState
from filters.learning import learn_profile
from filters.pipeline import extract

START = datetime(2026, 11, 28, 9).timestamp()
POOL = {(a.site, a.slug) for a in ARTICLES}
FOLLOW_UPS = 24  # as a site shows them after its pool at one a minute: pool pages and follow-ups side by side


def pages(spec) -> list[tuple]:
    """(article, url, page) of everything the site has published after its pool and FOLLOW_UPS follow-ups."""
    clock = [START]
    state = SiteState(spec, 60.0, len(spec.articles), lambda: clock[0])
    clock[0] += 60 * FOLLOW_UPS + 30
    ctx = PageContext(spec, spec.base_url(), state.published())
    template = template_for(spec)
    return [(a, article_url(spec, a, ctx.base_url), template.article(ctx, a)) for a, _ in ctx.published]


@pytest.mark.parametrize("spec", SERVED_SITES, ids=lambda spec: spec.key)
def test_the_learned_profile_keeps_every_line_of_the_demo_s_articles(spec):
    published = pages(spec)
    assert sum((a.site, a.slug) not in POOL for a, _, _ in published) == FOLLOW_UPS
    profile = learn_profile([(url, page) for _, url, page in published], name=spec.key)
    lost = []
    for article, url, page in published:
        kept = set(extract(page, url=url, profile=profile).text.splitlines())
        lost += [(article.slug, line) for line in article.core_text.splitlines() if line.strip() and line not in kept]
    assert lost == [], (len(lost), lost[:5], profile.filtering_phrases)


def test_a_follow_up_quotes_a_title_with_quotes_in_single_ones():
    """A follow-up read “Pollen counts to hit “very high” as hay fever season peaks”: quotes in quotes."""
    quoted = [a for a in ARTICLES if "“" in a.title]
    assert quoted
    for article in quoted:
        for round_ in range(1, 7):
            follow_up = edition(article, round_)
            text = " ".join([follow_up.standfirst, *(b.text for b in follow_up.blocks)])
            assert not re.search(r"“[^”]*“", text), text


def test_a_follow_up_closes_on_what_its_angle_has():
    """A readers' questions follow-up closed "A public meeting on the plans is due", figures "Funding is agreed
    for a year": plans, schemes, a change and its funding are an expansion's, a campaign's, a return visit's."""
    antecedents = re.compile(r"the plans|the scheme|the change|Similar schemes|Funding is agreed")
    for article in ARTICLES:
        for round_ in range(1, 13):
            if angle_of(article, round_) in {"questions", "figures"}:
                closing = edition(article, round_).blocks[1].text
                assert not antecedents.search(closing), closing
