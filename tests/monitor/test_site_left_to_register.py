"""The fourth demo site, The Morning Pulse: ``make run`` serves it and leaves it for the newcomer to register by its
home page alone (README, step 2; a live trial found every demo site registered already, so the tour's step 2 had
none left). Its own template and stories: WebMon, with no pattern typed in, takes its story links and nothing
else; its text is no near-duplicate of the other sites'; registered in the admin by name and home page, its
sources preview shows its feed, sitemaps and sections, and a poll puts its articles, and only them, in the inbox."""

from __future__ import annotations

import itertools
import re

import pytest

from classifier.selectors import inbox_queryset
from demo import DemoServer
from demo.articles import ARTICLES
from demo.editions import edition
from demo.listings import listings
from demo.setup import ensure_demo_sites
from demo.sites import DEMO_SITES, LEFT_TO_REGISTER, SERVED_SITES, article_url, fixed_context, template_for
from filters.docview import NEAR_DUPLICATE, fingerprint, resemblance
from filters.kind import link_kind
from monitor import services
from monitor.discovery import links_from_html, select_candidates
from monitor.models import Article, Site

from .conftest import ground_truth, run_tasks

BASE = "http://127.0.0.1:9"
SPEC = LEFT_TO_REGISTER


def test_it_is_served_and_not_registered():
    assert SPEC not in DEMO_SITES and (*DEMO_SITES, SPEC) == SERVED_SITES
    assert SPEC.address == "127.0.0.14" and SPEC.key not in {s.key for s in DEMO_SITES}
    assert DemoServer(port=0, interval=None).app.sites.keys() == {s.key for s in SERVED_SITES}


@pytest.mark.django_db
def test_make_runs_bootstrap_registers_the_three_and_not_the_fourth():
    ensure_demo_sites(8001)
    assert set(Site.objects.values_list("home_url", flat=True)) == {s.home_url(8001) for s in DEMO_SITES}


def test_its_pages_render_and_its_story_links_alone_are_candidates_with_no_pattern():
    """As registered by its home page alone: no include or exclude pattern, nothing learned yet."""
    site = Site(name=SPEC.name, home_url=BASE + "/", allow_private_addresses=True, articles_only=True)
    rules = services._rules(site, learned=False)
    tpl, ctx = template_for(SPEC), fixed_context(SPEC, BASE)
    stories = {article_url(SPEC, a, BASE) for a, _ in ctx.published}
    pages = {"home": tpl.home(ctx), "story": tpl.article(ctx, ctx.published[2][0])}
    pages |= {s: tpl.section(ctx, s) for s in SPEC.sections}
    pages |= {lst.title: lst.render(ctx, tpl, lst.first)[0] for lst in listings(ctx, tpl)}
    for name, page in pages.items():
        assert SPEC.name in page and "</html>" in page, name
        positions: dict = {}
        links = links_from_html(page, BASE + "/", positions)
        candidates = select_candidates(links, rules, positions)
        assert candidates == [u for u in links if u in stories], (name, sorted(set(candidates) ^ stories))
    # every kind of link a real home page has, each left out by its address
    home = set(links_from_html(pages["home"], BASE + "/"))
    for path in ("/care/", "/topic/", "/writers/", "/latest/page/2/", "/archive/20", "/about/", "/privacy/", "/feeds/"):
        linked = [u for u in home if u.startswith(BASE + path) and u not in stories]
        assert linked and all(link_kind(u) is not None for u in linked), path


def test_its_stories_and_their_follow_ups_are_no_near_duplicates_of_the_other_sites():
    """WIMS links a near-duplicate to its original instead of processing it: a fourth site retelling the others'
    stories would show the newcomer no new article."""
    own = [fingerprint(edition(a, r).core_text) for a in ARTICLES if a.site == SPEC.key for r in range(6)]
    others = [fingerprint(edition(a, r).core_text) for a in ARTICLES if a.site != SPEC.key for r in range(6)]
    assert len(own) == 6 * len(SPEC.articles) >= 60
    closest = max(resemblance(a, b) for a, b in itertools.product(own, others))
    assert closest < NEAR_DUPLICATE
    pool = [fingerprint(a.core_text) for a in ARTICLES]
    story = [fingerprint(a.core_text) for a in SPEC.articles]
    assert max(resemblance(a, b) for a in story for b in pool if b not in story) < 0.2, "its own words"


@pytest.mark.django_db(transaction=True)
def test_registered_in_the_admin_by_its_home_page_it_yields_its_articles_and_only_them(demo, fast_env, admin_client):
    base = demo.base_url(SPEC.key).rstrip("/")
    response = admin_client.post(
        "/admin/monitor/site/add/",
        {
            "name": SPEC.name,
            "home_url": base + "/",
            "active": "on",
            "articles_only": "on",
            "allow_private_addresses": "on",  # a superuser's tick: the demo sites are on loopback
            "poll_interval": "60",
        },
    )
    site = Site.objects.get(name=SPEC.name)
    assert response.status_code == 302 and response["Location"] == f"/admin/monitor/site/{site.pk}/sources/"
    assert not site.include_patterns and not site.exclude_patterns and not site.section_urls and not site.feed_url
    page = admin_client.get(response["Location"]).content.decode()
    assert f"feed: {base}/feeds/all.rss" in page and "announced in &lt;head&gt;" in page
    assert re.search(rf"sitemap: {re.escape(base)}/sitemap-(?:index|stories|news)\.xml", page), "named in robots.txt"
    for section in SPEC.sections:
        assert f"section: {base}/{section}/" in page
    ticked = re.findall(r'name="keep" value="([^"]+)" checked>', page)
    assert base + "/feeds/all.rss" in ticked
    signed = page.split('name="proposal" value="', 1)[1].split('"', 1)[0]
    admin_client.post(f"/admin/monitor/site/{site.pk}/sources/", {"proposal": signed, "keep": ticked})

    run_tasks(services.poll_site(site.pk))
    truth = set(ground_truth(demo, SPEC.key))
    assert len(truth) == 4
    inbox = dict(inbox_queryset().values_list("canonical_url", "state"))
    assert set(inbox) == truth and set(inbox.values()) == {"processed"}
    assert not Article.objects.exclude(canonical_url__in=truth).exists(), "no page but its stories was fetched"

    # the next story, at the next poll (one poll interval)
    story = demo.publish(SPEC.key)
    run_tasks(services.poll_site(site.pk))
    inbox = dict(inbox_queryset().values_list("canonical_url", "state"))
    assert demo.url(SPEC.key, template_for(SPEC).article_path(story)) in inbox and set(inbox) == set(
        ground_truth(demo, SPEC.key)
    )
    assert set(inbox.values()) == {"processed"}
    assert not Article.objects.exclude(state=Article.State.PROCESSED).exists()
