"""Article links without hand-written patterns (issue 33 item 2): where a link sits on the page
(monitor.links.anchor_positions), what the site's pages like it turned out to be (URL templates), sibling hosts,
and the reason LinkRules.judge gives for each link."""

import pytest

from monitor.canonical import registrable_domain, sibling_host
from monitor.discovery import LinkRules, links_from_html, select_candidates
from monitor.links import Position, UrlTemplates, url_template

BASE = "http://news.test/"

PAGE = """<html><head><title>News Test</title></head><body>
<header class="site-header"><a href="/">News Test</a>
  <nav><a href="/world/">World</a> <a href="/sport/">Sport</a> <a href="/2026/11/27/menu-story/">Today</a></nav>
</header>
<div class="tag-cloud"><a href="/tag/a">a</a> <a href="/tag/b">b</a> <a href="/tag/c">c</a> <a href="/tag/d">d</a>
  <a href="/tag/e">e</a> <a href="/tag/f">f</a></div>
<main>
  <div class="card"><div class="card-header"><a href="/2026/11/27/menu-story/">The story the menu links to as well</a>
  </div></div>
  <div class="card"><h2><a href="/news/rates-held-again-4821">Central bank holds its rates again</a></h2>
    <a href="/news/rates-held-again-4821"><img src="/i.jpg" alt=""></a></div>
  <p>As <a href="/news/earlier-report-4711">reported</a> before, the bank said little.</p>
</main>
<aside><a href="/newsletter-signup-offer">Sign up</a></aside>
<footer><a href="/about/">About us</a> <a href="/2026/01/02/an-old-story/">An old story we liked</a></footer>
</body></html>"""


def positions_of(page: str, url: str = BASE) -> dict[str, Position]:
    positions: dict[str, Position] = {}
    links_from_html(page, url, positions)
    return positions


def test_links_are_read_with_their_position_on_the_page():
    p = positions_of(PAGE)
    assert p[BASE + "world/"] is Position.NAVIGATION  # <nav> in <header>
    assert p[BASE + "tag/a"] is Position.NAVIGATION  # a list of short links, no name says so
    assert p[BASE + "news/rates-held-again-4821"] is Position.STORY  # a card's headline (its image link too)
    assert p[BASE + "news/earlier-report-4711"] is Position.CONTENT  # a word in the main content's prose
    assert p[BASE + "newsletter-signup-offer"] is Position.ASIDE
    assert p[BASE + "about/"] is Position.FOOTER
    assert p[BASE + "2026/01/02/an-old-story/"] is Position.FOOTER  # a headline, but in the footer
    # linked from the menu and from a card (whose "card-header" is no page header): its best position counts
    assert p[BASE + "2026/11/27/menu-story/"] is Position.STORY


def test_the_page_s_own_names_say_nothing_of_where_a_link_sits():
    # a site whose <body> names its navigation style (found on wired.com's home page: every story was "navigation")
    page = PAGE.replace("<body>", '<body class="standardnavigation-site-navigation footer-light">')
    assert positions_of(page) == positions_of(PAGE)


def test_without_positions_asked_links_are_read_as_before():
    assert links_from_html(PAGE, BASE) == list(positions_of(PAGE))


def test_a_link_only_in_navigation_is_no_candidate_on_a_site_of_articles_only():
    p = positions_of(PAGE)
    links = list(p)
    rules = LinkRules(BASE, articles_only=True)
    assert rules.judge(BASE + "tag/a", p[BASE + "tag/a"])[0] is False
    assert rules.judge(BASE + "2026/01/02/an-old-story/", Position.FOOTER) == (False, "only in the page's footer")
    assert rules.judge(BASE + "newsletter-signup-offer", Position.ASIDE) == (False, "only in an aside or sidebar")
    assert rules.judge(BASE + "news/rates-held-again-4821", Position.STORY) == (
        True,
        "in a story list (its text is a headline)",
    )
    assert rules.judge(BASE + "news/earlier-report-4711", Position.CONTENT) == (True, "in the page's main content")
    # a feed's or a sitemap's link has no position: its address decides
    assert rules.judge(BASE + "news/from-a-feed-4900") == (True, "its address may be an article's")
    assert select_candidates(links, rules, p) == [
        BASE + "2026/11/27/menu-story/",
        BASE + "news/rates-held-again-4821",
        BASE + "news/earlier-report-4711",
    ]
    # accepts is judge's answer without its reason
    assert all(rules.accepts(u, p[u]) == rules.judge(u, p[u])[0] for u in links)


def test_a_site_without_articles_only_takes_every_link_of_the_site():
    p = positions_of(PAGE)
    rules = LinkRules(BASE)
    assert rules.judge(BASE + "tag/a", p[BASE + "tag/a"]) == (True, "a link of the site")
    assert rules.judge(BASE, Position.NAVIGATION) == (False, "a watched page or feed itself")
    assert rules.judge("http://elsewhere.test/x", Position.STORY) == (False, "on another site")
    assert rules.judge(BASE + "i.jpg", Position.STORY) == (False, "a file, not a page")


def test_include_and_exclude_patterns_override_the_evidence():
    rules = LinkRules(BASE, include=[r"/about/$"], exclude=[r"/tag/"], articles_only=True)
    assert rules.judge(BASE + "about/", Position.FOOTER) == (True, "matches the include pattern /about/$")
    assert rules.judge(BASE + "news/x-1234", Position.STORY) == (False, "matches no include pattern")
    rules = LinkRules(BASE, exclude=[r"/news/"], articles_only=True)
    assert rules.judge(BASE + "news/x-1234", Position.STORY) == (False, "matches the exclude pattern '/news/'")


@pytest.mark.parametrize(
    ("url", "template"),
    [
        ("http://a.test/news/uk-politics-12345", "/news/{slug}-{id}"),
        ("http://a.test/tag/economy", "/tag/{word}"),
        ("http://a.test/2013/12/17/politics/senate-budget-deal/index.html", "/{n}/{n}/{n}/politics/{slug}/index.html"),
        ("http://a.test/2/hi/europe/4610729.stm", "/{n}/hi/{word}/{id}.stm"),
        ("http://a.test/page.cfm?page_id=3112&x=1", "/page.cfm?page_id=&x="),
        ("http://a.test/world/europe/", "/world/{word}/"),
        ("http://a.test/", "/"),
    ],
)
def test_url_templates_generalise_numbers_slugs_and_words(url, template):
    assert url_template(url) == template


def test_templates_learned_from_the_site_s_pages_decide_before_the_position():
    outcomes = [(f"{BASE}specials/{w}", False) for w in ("red", "blue", "green")]
    outcomes += [(f"{BASE}news/story-number-{n}", True) for n in (1001, 1002)]
    outcomes += [(f"{BASE}video/clip-one-{n}", n % 2 == 0) for n in (2001, 2002, 2003, 2004)]  # not clear
    templates = UrlTemplates.learn(outcomes)
    rules = LinkRules(BASE, articles_only=True, templates=templates)
    assert rules.judge(BASE + "specials/gold", Position.STORY) == (
        False,
        "pages like /specials/{word} were not articles (3 of 3)",
    )
    assert rules.judge(BASE + "news/another-story-1003", Position.NAVIGATION) == (
        True,
        "pages like /news/{slug}-{id} were articles (2 of 2)",
    )
    assert rules.judge(BASE + "video/clip-two-2005", Position.NAVIGATION) == (False, "only in the page's navigation")
    # two pages that were not articles are not yet clear evidence
    assert UrlTemplates.learn(outcomes[:2]).verdict(BASE + "specials/gold") is None


YAHOO = """<html><body>
<div id="masthead"><a href="http://uk.yahoo.com/">Yahoo</a> <a href="http://uk.news.yahoo.com/">News</a>
  <a href="http://uk.sports.yahoo.com/">Sport</a> <a href="http://uk.weather.yahoo.com/">Weather</a>
  <a href="http://uk.celebrity.yahoo.com/">Celebrity</a></div>
<ul class="stories">
  <li><a href="http://uk.news.yahoo.com/police-name-man-found-dead-in-river-123456789.html">Police name man found
      dead in river</a></li>
  <li><a href="http://uk.celebrity.yahoo.com/blogs/celeb-news/star-weds-in-secret-ceremony-103412345.html">Star weds
      in secret ceremony abroad</a></li>
  <li><a href="http://www.example-partner.com/story-we-syndicate-55555.html">A partner's story we syndicate</a></li>
</ul>
<div id="footer"><a href="http://info.yahoo.com/privacy/uk/yahoo/">Privacy</a></div>
</body></html>"""


def test_a_site_spans_the_hosts_of_its_registrable_domain_when_it_is_ticked():
    positions: dict[str, Position] = {}
    links = links_from_html(YAHOO, "http://uk.yahoo.com/", positions)
    assert select_candidates(links, LinkRules("http://uk.yahoo.com/", articles_only=True), positions) == []
    rules = LinkRules("http://uk.yahoo.com/", articles_only=True, sibling_hosts=True)
    assert select_candidates(links, rules, positions) == [
        "http://uk.news.yahoo.com/police-name-man-found-dead-in-river-123456789.html",
        "http://uk.celebrity.yahoo.com/blogs/celeb-news/star-weds-in-secret-ceremony-103412345.html",
    ]
    assert rules.judge("http://www.example-partner.com/story-we-syndicate-55555.html", Position.STORY) == (
        False,
        "on another site",
    )
    assert rules.judge("http://uk.news.yahoo.com/", positions["http://uk.news.yahoo.com/"])[0] is False
    assert positions[links[-1]] is Position.FOOTER and rules.judge(links[-1], positions[links[-1]])[0] is False


def test_registrable_domains_come_from_the_public_suffix_list_offline():
    assert registrable_domain("uk.news.yahoo.com") == "yahoo.com"
    assert registrable_domain("news.bbc.co.uk") == "bbc.co.uk"
    assert registrable_domain("127.0.0.1") == ""
    assert sibling_host("https://www.bbc.co.uk/news", "http://news.bbc.co.uk/")
    assert not sibling_host("http://other.co.uk/", "http://news.bbc.co.uk/")  # a public suffix is no site
    assert not sibling_host("http://alice.blogspot.com/", "http://bob.blogspot.com/")  # a private suffix neither
    assert not sibling_host("http://127.0.0.2/", "http://127.0.0.1/")


def test_the_demo_home_pages_yield_their_articles_and_no_navigation_with_positions():
    from demo.articles import articles_for_site
    from demo.sites import article_url, get_site, render_home_page, report_url

    base = "http://127.0.0.1:9"
    for key in ("healthwatch", "courier", "wellbeing"):
        positions: dict[str, Position] = {}
        links = links_from_html(render_home_page(key, base_url=base), base + "/", positions)
        articles = {article_url(get_site(key), a, base) for a in articles_for_site(key)}
        taken = select_candidates(links, LinkRules(base + "/", articles_only=True), positions)
        assert [u for u in links if u in articles] == [u for u in taken if u in articles], key
        # the staff notes (robots-disallowed, under /private/) are the one other page, as without positions, and the
        # special report (a list of stories at a story's address: only its page tells, once fetched)
        report = report_url(get_site(key), base)
        assert {u for u in taken if u not in articles} <= {base + "/private/staff-notes.html", report}, key


def test_the_suffix_list_is_the_snapshot_tldextract_ships_never_fetched_nor_cached():
    from monitor import canonical

    assert canonical._SUFFIXES.suffix_list_urls == ()  # no URL to fetch the list from at run time
    assert canonical._SUFFIXES.fallback_to_snapshot
    assert not canonical._SUFFIXES._cache.enabled  # nothing written to a cache folder


def section_page(cards: list[str], sidebar: list[str], prose: str = "") -> str:
    """A section front: its cards (headlines), a sentence of prose linking ``prose``, a "Trending" sidebar."""
    card = '<article class="card"><h3><a href="{}">A headline of four words or more</a></h3></article>'
    item = '<li><a href="{}">Another headline that is trending now</a></li>'
    aside = '<aside class="sidebar"><h2>Trending</h2><ol>' + "".join(item.format(u) for u in sidebar) + "</ol></aside>"
    said = f'<p>As <a href="{prose}">reported</a> before.</p>' if prose else ""
    return f"<html><body><main>{''.join(card.format(u) for u in cards)}{said}</main>{aside}</body></html>"


def test_a_section_sites_sidebar_headlines_of_other_sections_are_no_candidates():
    """Issue 33, a live trial: a site registered at /mind/ took the "Trending" sidebar's stories of /family/."""
    home = BASE + "mind/"
    mind = [home + "calm-breathing/", home + "winter-light/"]
    family = [BASE + "family/sleep-for-toddlers/", BASE + "family/school-lunches/"]
    page = section_page(mind, [*family, mind[0]], prose=BASE + "body/walking-football/")
    positions: dict[str, Position] = {}
    links = links_from_html(page, home, positions)
    assert positions[family[0]] is Position.ASIDE_STORY and positions[mind[0]] is Position.STORY
    rules = LinkRules(home, articles_only=True)
    verdicts = rules.judge_all(links, positions)
    assert select_candidates(links, rules, positions) == [*mind, BASE + "body/walking-football/"]
    for url in family:
        assert verdicts[url] == (False, "outside the section /mind/, only in a sidebar's list of headlines")
    # the same page on a site at the host's root, on one with an include pattern or of any pages: all taken
    for other in (
        LinkRules(BASE, articles_only=True),
        LinkRules(home, include=["/(mind|family)/"], articles_only=True),
        LinkRules(home),
    ):
        assert set(family) <= set(select_candidates(links, other, positions)), other
    assert LinkRules(BASE, articles_only=True).judge_all(links, positions)[family[0]] == (
        True,
        "in a sidebar's list of headlines",
    )


def test_a_section_front_listing_stories_at_root_level_addresses_keeps_them_all():
    """A real section front (/health/) may list its stories at dated addresses outside its path: its cards, and its
    sidebar too (nothing shows that the site files its stories under /health/), stay candidates."""
    home = BASE + "health/"
    cards = [BASE + f"2026/11/2{day}/health-story-{day}/" for day in range(6)]
    sidebar = [BASE + "2026/11/28/a-sport-story/", BASE + "2026/11/27/a-money-story/"]
    positions: dict[str, Position] = {}
    links = links_from_html(section_page(cards, sidebar), home, positions)
    rules = LinkRules(home, articles_only=True)
    assert select_candidates(links, rules, positions) == [*cards, *sidebar]
    # one card under the section is no evidence that its stories are filed there
    links = links_from_html(section_page([home + "a-health-story/", *cards], sidebar), home, positions)
    assert set(sidebar) <= set(select_candidates(links, rules, positions))


#: a section front with no story of its own yet, as a news site shows a new or quiet section: its sidebar's
#: "Most read" and "Related" boxes list the other sections' stories
EMPTY_SECTION = """<html><head><title>Mind · The Wellbeing Times</title></head><body>
<header class="site-header"><a href="/">The Wellbeing Times</a>
  <nav><a href="/mind/">Mind</a> <a href="/body/">Body</a> <a href="/family/">Family</a></nav></header>
<div class="layout">
  <main><h1>Mind</h1><p>No stories in this section yet: come back soon.</p></main>
  <aside class="sidebar"><h2>Most read</h2><ol>
    <li><a href="{0}">Sleep for toddlers: what the studies say</a></li>
    <li><a href="{1}">Walking football is back in the parks</a></li>
    <li><a href="{2}">School lunches that children will eat</a></li></ol>
  <h2>Related</h2><ul><li><a href="{3}">Winter running without the injuries</a></li></ul></aside>
</div>
<footer><a href="/about/">About us</a></footer></body></html>"""


def test_an_empty_section_front_takes_none_of_its_sidebars_headlines_of_other_sections():
    """A /mind/ site whose front listed no story of its own took the sidebar's as its articles: all four were
    /family/'s and /body/'s. The sidebar's own addresses show the site files its stories under its sections."""
    home = BASE + "mind/"
    others = ["family/sleep-for-toddlers/", "body/walking-football/", "family/school-lunches/", "body/winter-run/"]
    sidebar = [BASE + path for path in others]
    positions: dict[str, Position] = {}
    links = links_from_html(EMPTY_SECTION.format(*sidebar), home, positions)
    assert {positions[url] for url in sidebar} == {Position.ASIDE_STORY}
    rules = LinkRules(home, articles_only=True)
    assert select_candidates(links, rules, positions) == []
    verdicts = rules.judge_all(links, positions)
    assert all(verdicts[url][1].startswith("outside the section /mind/") for url in sidebar)
    # a story of the section's own in the sidebar stays one
    mind = [BASE + "mind/calm-breathing/", *sidebar[1:]]
    assert select_candidates(links_from_html(EMPTY_SECTION.format(*mind), home, positions), rules, positions) == [
        mind[0]
    ]
    # dated addresses show nothing of where the site files a section's stories: the sidebar's are taken, as before
    dated = [BASE + f"2026/11/2{day}/a-story-{day}/" for day in range(4)]
    links = links_from_html(EMPTY_SECTION.format(*dated), home, positions)
    assert select_candidates(links, rules, positions) == dated
