"""A site registered at a section of a news site (``/mind/``, ``section.php?s=prevention``), as an administrator
registers a section of a site already watched: the whole site's feeds and sitemaps list the whole site, and kept,
they would give the section's site every article of the host (a live trial: 19 of 20 articles duplicates of the
parent site's, the parent's own stories credited to the section). They are proposed unticked unless most of what
they yield lies under the section, and the first poll's automatic keep follows the same tick."""

from __future__ import annotations

import pytest

from monitor import services
from monitor.finding import Section
from tests.monitor.conftest import register

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
