"""WebMon settings for the demo news sites (demo), shared by the bootstrap, the tests and the benchmark.

The demo sites are registered as a site administrator registers a real site: no include pattern, *Only
articles* on (issue 33). Their home and section pages link to sections, pagination, tags, writers, archives,
about, privacy and contact pages, a shop or a forum as well as to stories; WebMon leaves those links out by their
address (filters.kind.link_kind) and processing keeps out what it judges no article. The one exclude pattern
keeps out the staff notes under /private/ (robots.txt disallows them: a link there would be recorded as a
refused fetch). The section pages are watched besides the home page, and the feed their pages announce (Health
Watch's RSS, the Wellbeing Times's Atom; the Courier has none). The demo sites live on loopback addresses, so
they must be allowed private addresses (no real site should be).
"""

from __future__ import annotations

#: Article URL patterns of the three demo templates (matched against the canonical URL): what an administrator
#: would write to name them; the registration does without them, tests use them to tell articles apart.
ARTICLE_PATTERNS = {
    "healthwatch": r"^https?://[^/]+/news/[a-z0-9-]+/[a-z0-9-]+\.html$",
    "courier": r"^https?://[^/]+/story\.php\?id=[a-z0-9-]+$",
    "wellbeing": r"^https?://[^/]+/(?:mind|body|family)/[a-z0-9-]+/$",
}


def demo_site_settings(spec, base_url: str, *, sections: bool = True) -> dict:
    """Field values for a :class:`monitor.models.Site` serving ``spec`` (a demo SiteSpec) at ``base_url``.

    ``sections=False`` watches the home page (and feed) only, as the scale benchmark does.
    """
    from demo.sites import template_for

    base_url = base_url.rstrip("/")
    tpl = template_for(spec)
    watched = [base_url + "/"]
    if sections:
        watched += [base_url + tpl.section_path(s) for s in spec.sections]
    return {
        "name": spec.name,
        "home_url": base_url + "/",
        "section_urls": "\n".join(watched),
        "feed_url": base_url + spec.feed_path if spec.feed_path else "",
        "include_patterns": "",
        "exclude_patterns": r"/private/",
        "allow_private_addresses": True,
        "articles_only": True,
        # a new demo article every minute reaches the inbox within two minutes, as the README says
        "poll_interval": 60,
    }
