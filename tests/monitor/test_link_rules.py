"""Which links of a site are fetched as article candidates (monitor.discovery.LinkRules): on a site that keeps
pages that are not articles out (``Site.articles_only``), a link whose address alone names no article is not
fetched at all, unless the administrator's include patterns say what an article is (issue 33)."""

import pytest

from demo.articles import articles_for_site
from demo.sites import article_url, get_site, render_home_page, report_url
from filters.kind import link_kind, not_a_section
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
        # the demo's staff notes (under /private/, disallowed by its robots.txt) are the one page left, and its
        # special report, a list of stories at a story's address (its page's kind keeps it out, once fetched)
        report = {url} if (url := report_url(get_site(key), BASE)) else set()
        assert {u for u in only if u not in articles} == {BASE + "/private/staff-notes.html", *report}, key


def test_include_patterns_decide_where_the_administrator_wrote_them():
    links, _ = home_links("wellbeing")
    rules = LinkRules(BASE + "/", include=[r"/about/$"], articles_only=True)
    assert select_candidates(links, rules) == [BASE + "/about/"]


@pytest.mark.parametrize(
    "url",
    [
        "https://news.example/author/jane-doe/",
        "https://news.example/authors/jane-doe",
        "https://news.example/author.php?id=jane-doe",
        "https://news.example/contributors/sam-whitfield/?utm_source=x",
        "https://news.example/page/2/",
        "https://news.example/tag/sleep/page/3/",
        "https://news.example/?page=2",
        "https://news.example/topics/mental-health/?page=2",
        "https://news.example/index.php?page=2&s=x",
        "https://news.example/2025/03/",
        "https://news.example/2025/03/14/",
        "https://news.example/email.php?id=some-story",
        "https://news.example/print/",
    ],
)
def test_writers_pages_further_pages_and_date_archives_are_no_candidates(url):
    """Links every real news front carries (issue 33); the demo sites have each of them."""
    assert link_kind(url) is not None


@pytest.mark.parametrize(
    "url",
    [
        "https://news.example/2025/03/14/walking-after-meals-lowers-blood-sugar/",
        "https://news.example/news/2025/03/clinic-opens.html",
        "https://news.example/story.php?id=diabetes-foot-clinic-opens",
        "https://news.example/?p=1234",
        "https://news.example/authors-guild-wins-copyright-case-against-ai-firm",
        "https://news.example/health/2025/0314/sleep-study",
    ],
)
def test_stories_stay_candidates(url):
    assert link_kind(url) is None


@pytest.mark.parametrize(
    "url",
    [
        # CNN's dated stories as its search and home page link them: a query WIMS does not know as tracking
        "https://edition.cnn.com/2013/11/27/justice/tucson-arizona-captive-girls/index.html?iref=allsearch",
        "https://edition.cnn.com/2000/WORLD/europe/01/05/jordan.talks/index.html?eref=sitesearch",
        "https://news.example/health/walking-after-meals-lowers-blood-sugar/index.html?ref=home",
    ],
)
def test_a_story_s_index_page_with_an_unknown_query_is_still_a_candidate(url):
    """A story's address carrying a query (not only the tracking parameters monitor.canonical knows) stays a
    candidate: once it was taken for a listing's ``index.html?...`` and CNN's dated stories were hidden."""
    assert link_kind(url) is None
    assert LinkRules("https://edition.cnn.com/", articles_only=True, sibling_hosts=True).judge(url)[0] is (
        "cnn.com" in url
    )


@pytest.mark.parametrize(
    "url",
    [
        "https://news.example/world/index.html?ref=nav",  # a section front with a query: still a section front
        "https://news.example/world/index.html",
        "https://news.example/index.php?s=health",
        "https://news.example/2013/11/index.html?ref=archive",  # a date archive's index
        "https://news.example/2013/11/index.html",
    ],
)
def test_a_listing_s_index_page_stays_out_with_or_without_a_query(url):
    assert link_kind(url) is not None


@pytest.mark.parametrize(
    ("url", "section"),
    [
        ("https://news.example/world/", True),
        ("https://news.example/section.php?s=health", True),
        ("https://news.example/category/health/", True),
        ("https://news.example/tag/vaccines/", False),
        ("https://news.example/tags.php?tag=heart", False),
        ("https://news.example/author.php?id=dennis-cole", False),
        ("https://news.example/contributors/amelia-hart/", False),
        ("https://news.example/archive.php?y=2025&m=03", False),
        ("https://news.example/world/page/2/", False),
        ("https://news.example/about/", False),
    ],
)
def test_a_section_front_by_its_address(url, section):
    """find-sources proposes as sections only what link_kind takes for a section front or a collection."""
    assert (not_a_section(url) is None) is section
