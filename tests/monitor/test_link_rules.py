"""Which links of a site are fetched as article candidates (monitor.discovery.LinkRules): on a site that keeps
pages that are not articles out (``Site.articles_only``), a link whose address alone names no article is not
fetched at all, unless the administrator's include patterns say what an article is (issue 33)."""

from demo.articles import articles_for_site
from demo.sites import article_url, get_site, render_home_page
from monitor.discovery import LinkRules, links_from_html, select_candidates

BASE = "http://127.0.0.1:9"


def home_links(key: str) -> tuple[list[str], set[str]]:
    """A demo home page's links as WebMon reads them, and the addresses of the site's articles."""
    links = links_from_html(render_home_page(key, base_url=BASE), BASE + "/")
    return links, {article_url(get_site(key), a, BASE) for a in articles_for_site(key)}


def test_a_home_page_s_navigation_is_not_fetched_on_a_site_of_articles_only():
    for key in ("healthwatch", "courier", "wellbeing"):
        links, articles = home_links(key)
        every = select_candidates(links, LinkRules(BASE + "/"))
        only = select_candidates(links, LinkRules(BASE + "/", articles_only=True))
        assert set(every) - articles, "the home page links to sections, about and privacy pages too"
        assert [u for u in every if u in articles] == [u for u in only if u in articles], "every article kept"
        # the demo's staff notes (under /private/, disallowed by its robots.txt) are the one page left
        assert {u for u in only if u not in articles} == {BASE + "/private/staff-notes.html"}, key


def test_include_patterns_decide_where_the_administrator_wrote_them():
    links, _ = home_links("wellbeing")
    rules = LinkRules(BASE + "/", include=[r"/about/$"], articles_only=True)
    assert select_candidates(links, rules) == [BASE + "/about/"]
