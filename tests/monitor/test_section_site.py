"""A site registered at a section of a news site (``/mind/``, ``section.php?s=prevention``), as an administrator
registers a section of a site already watched: the whole site's feeds and sitemaps list the whole site, and kept,
they would give the section's site every article of the host (a live trial: 19 of 20 articles duplicates of the
parent site's, the parent's own stories credited to the section). They are proposed unticked unless most of what
they yield lies under the section, and the first poll's automatic keep follows the same tick."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from foundation import roles
from monitor import services
from monitor.finding import Section
from tests.monitor.conftest import ground_truth, register, special_report

pytestmark = pytest.mark.django_db(transaction=True)


def section_site(server, key: str, path: str):
    """The demo site ``key`` registered at its section ``path`` as the admin's add form registers a site."""
    base = server.base_url(key).rstrip("/")
    return register(server, key, home_url=base + path, section_urls="", feed_url="", find_sources=True)


def test_a_section_registered_as_its_own_site_does_not_tick_the_whole_sites_feed_and_sitemap(demo, fast_env):
    site = section_site(demo, "wellbeing", "/mind/")
    proposal = services.find_sources(site)
    wide = [found for found in proposal.sources if found.kind in ("feed", "sitemap")]
    assert wide, [(f.url, f.kind) for f in proposal.sources]
    for found in wide:
        assert not found.keep, (found.url, found.reason)
        assert "lists the whole site: " in found.reason and " under /mind/" in found.reason, found.reason
    ticked = [found.url for found in proposal.sources if found.keep]
    assert all("/mind/" in url for url in ticked), ticked


def test_a_query_section_registered_through_the_api_keeps_no_whole_site_source_at_its_first_poll(demo, fast_env):
    site = section_site(demo, "courier", "/section.php?s=prevention")
    services.keep_found(site, services.find_sources(site, read=False))
    active = list(site.sources.filter(active=True).values_list("url", flat=True))
    assert active == [], active
    assert site.sources.filter(kind="sitemap").exists(), "the whole site's sitemap is proposed, unticked"


def test_a_site_registered_at_its_root_still_ticks_its_feed_and_sitemap(demo, fast_env):
    site = register(demo, "wellbeing", section_urls="", feed_url="", find_sources=True)
    proposal = services.find_sources(site)
    keep = {found.kind: found.keep for found in proposal.sources if found.kind in ("feed", "sitemap")}
    assert keep and all(keep.values()), [(f.url, f.keep, f.reason) for f in proposal.sources]


def test_a_sections_links_are_those_below_its_path_or_with_its_query():
    assert Section.of("https://news.example/") is None and Section.of("https://news.example/index.php") is None
    mind = Section.of("https://news.example/mind")
    assert mind is not None and mind.label == "/mind/"
    assert mind.holds("https://www.news.example/mind/a-story/") and not mind.holds("https://news.example/body/x/")
    query = Section.of("https://news.example/section.php?s=prevention")
    assert query is not None and query.label == "/section.php?s=prevention"
    assert query.holds("https://news.example/section.php?s=prevention&page=2")
    assert not query.holds("https://news.example/story.php?id=a-story")


@pytest.fixture
def site_admin(client):
    user = get_user_model().objects.create_user("siteadmin", password="pw-Long-enough-1", is_staff=True)
    user.groups.add(roles.ensure_groups()[roles.SITE_ADMINISTRATORS])
    client.force_login(user)
    return client


def test_a_section_sites_poll_takes_its_own_articles_not_the_sidebars_headlines_of_other_sections(demo, fast_env):
    """A live trial: 4 of the 6 articles of the Wellbeing Times' /mind/ registered as a site came from /body/ and
    /family/, the headlines of the page's "Trending" sidebar (site-wide). Only /mind/'s own articles are taken."""
    site = section_site(demo, "wellbeing", "/mind/")
    assert site.articles_only and not site.include_list
    services.poll_site(site.pk)
    taken = set(site.articles.values_list("url", flat=True))
    truth = set(ground_truth(demo, "wellbeing"))
    mind = {url for url in truth if "/mind/" in url}
    assert mind and mind <= taken, mind - taken
    assert taken - special_report(demo, "wellbeing") == mind, sorted(taken - mind)


def test_the_sources_preview_says_why_another_sections_headline_is_no_candidate(demo, fast_env, site_admin):
    site = section_site(demo, "wellbeing", "/mind/")
    base = demo.base_url("wellbeing").rstrip("/")
    others = sorted(url for url in ground_truth(demo, "wellbeing") if "/mind/" not in url)
    proposal = services.find_sources(site)
    assert proposal.home is not None
    verdicts = {link.url: link for link in proposal.home.links}
    sidebar = [url for url in others if url in verdicts]
    assert sidebar, "the page's Trending sidebar links other sections' stories"
    for url in sidebar:
        assert not verdicts[url].taken, (url, verdicts[url].reason)
        assert verdicts[url].reason.startswith("outside the section /mind/"), verdicts[url].reason
    page = site_admin.get(f"/admin/monitor/site/{site.pk}/sources/").content.decode()
    assert f"<td>{sidebar[0]}</td><td>no</td><td>outside the section /mind/" in page, base
