"""The administrator's sources preview (services.find_sources) of a demo site registered by its home page only, as
in the admin, with production's politeness delay (issue 33's live trial): a feed link is called a feed, no article
page is proposed as a section front, and the preview answers within a few seconds, saying what it did not read.
"""

from __future__ import annotations

import json
import re
import statistics
import time

import pytest
from django.core import signing

from filters.kind import Kind, link_kind
from monitor import services
from monitor.models import Site

from .conftest import request_log

pytestmark = pytest.mark.django_db


def home_only(server, key: str) -> Site:
    """A demo site as an administrator registers it: its home page, nothing else typed in (articles only: the
    admin's default for a new site)."""
    spec = server.sites[key]
    home = server.base_url(key).rstrip("/") + "/"
    return Site.objects.create(name=spec.name, home_url=home, allow_private_addresses=True, articles_only=True)


@pytest.fixture
def production_delay(tunables):
    """Production's politeness delay: the live trial's preview took 22 s with it."""
    tunables(WIMS_POLITENESS_DELAY="2", WIMS_POLITENESS_MAX_WAIT="0.25")


def verdicts(proposal) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for source in [*proposal.sources, *([proposal.home] if proposal.home else [])]:
        for link in source.links:
            found.setdefault(link.url, set()).add(link.reason)
    return found


@pytest.mark.parametrize(
    ("key", "feed"), [("wellbeing", "/feed/atom/"), ("healthwatch", "/rss.xml"), ("pulse", "/feeds/all.rss")]
)
def test_a_link_to_the_sites_feed_is_called_a_feed(demo, production_delay, key, feed):
    """The preview called the feed's link "a section front's address" (then "a site's own page", "a file")."""
    proposal = services.find_sources(home_only(demo, key))
    url = demo.base_url(key).rstrip("/") + feed
    reasons = verdicts(proposal).get(url)
    assert reasons, f"no source of the preview links the feed {url}"
    assert all(reason.startswith("a feed's address") for reason in reasons), reasons


@pytest.mark.parametrize("key", ["wellbeing", "healthwatch", "courier", "pulse"])
def test_no_article_page_is_proposed_as_a_section(demo, production_delay, key):
    """The Wellbeing Times' home page links each story three times (headline, picture, "Comments"): two of its
    stories were proposed as section fronts. Only the site's section fronts are proposed now."""
    proposal = services.find_sources(home_only(demo, key))
    sections = [source.url for source in proposal.sources if source.kind == "section"]
    assert len(sections) >= 3, (sections, proposal.notes)
    articles = {a["url"] for a in demo_articles(demo, key)}
    for url in sections:
        assert url not in articles, f"{url} is an article"
        verdict = link_kind(url)
        assert verdict is not None and verdict.kind is Kind.LISTING, (url, verdict)


def demo_articles(server, key: str) -> list[dict]:
    from .conftest import control

    return control(server, key, "GET", "articles.json")["articles"]


@pytest.mark.parametrize("key", ["wellbeing", "healthwatch", "courier", "pulse"])
def test_the_preview_answers_within_a_few_seconds_politely(demo, production_delay, key):
    """With a 2 s politeness delay the preview read its ten pages one after another, 2 s apart: 14 to 20 s on the
    demo sites, and sources left "not read for the preview: its 20 s were spent". It is one short burst now: a few
    small pages, WIMS_SOURCES_PREVIEW_DELAY (0.3 s) apart, never two at once."""
    site = home_only(demo, key)
    started = time.monotonic()
    proposal = services.find_sources(site)
    took = time.monotonic() - started
    assert took < 8, f"the preview took {took:.1f} s"
    assert all(source.links or source.error for source in proposal.sources), "every source read for the preview"
    log = sorted(r["time"] for r in request_log(demo, key) if not r["path"].startswith("/_control/"))
    assert 4 <= len(log) <= 17, "robots.txt and 16 pages at most"
    gaps = [b - a for a, b in zip(log, log[1:], strict=False)]
    # the slot is when a request leaves; its arrival varies by a few tens of ms (a first connection)
    assert min(gaps) >= 0.15, f"two requests {min(gaps):.2f} s apart"
    assert statistics.median(gaps) >= 0.28, gaps


def test_the_sources_left_by_the_preview_s_page_cap_say_so(demo, production_delay, tunables):
    tunables(WIMS_SOURCES_PREVIEW_PAGES="6")
    proposal = services.find_sources(home_only(demo, "wellbeing"))
    log = [r for r in request_log(demo, "wellbeing") if not r["path"].startswith("/_control/")]
    assert len(log) <= 7, "robots.txt and 6 pages"
    left = [source for source in proposal.sources if not source.links and not source.error]
    assert left, "the cap left sources unread"
    assert all(
        source.summary == "not read for the preview: the preview read its 6 pages of the site" for source in left
    )
    assert all(source.links for source in proposal.sources if source.kind == "sitemap"), "sitemaps first"


@pytest.mark.parametrize("key", ["wellbeing", "healthwatch", "courier"])
def test_a_link_robots_txt_disallows_is_listed_with_that_reason(demo, key):
    """A poll leaves out a link the site's robots.txt disallows (polite.robots_refuses); the preview did not list
    the home pages' staff link (/private/, disallowed) at all, since it showed no home page, and called Health
    Watch's /search.html (disallowed too) "a site's own page". Both are listed now, not taken, with that reason."""
    proposal = services.find_sources(home_only(demo, key))
    base = demo.base_url(key).rstrip("/")
    assert proposal.home is not None and proposal.home.url == base + "/", "the home page is previewed too"
    staff = base + "/private/staff-notes.html"
    assert verdicts(proposal).get(staff) == {"disallowed by robots.txt"}, verdicts(proposal).get(staff)
    assert not any(link.taken for source in proposal.sources for link in source.links if link.url == staff)
    if key == "healthwatch":  # its section pages link the search page, which robots.txt disallows too
        assert verdicts(proposal)[base + "/search.html"] == {"disallowed by robots.txt"}
    home_taken = [link.url for link in proposal.home.links if link.taken]
    assert home_taken and all(link.url not in home_taken for link in proposal.home.links if not link.taken)


def test_the_admins_preview_shows_the_home_pages_links_and_the_disallowed_one(demo, client):
    """The admin's preview page lists the home page's links too, the staff link robots.txt disallows unticked."""
    from django.contrib.auth import get_user_model

    from foundation import roles

    user = get_user_model().objects.create_user("siteadmin", password="pw-Long-enough-1", is_staff=True)
    user.groups.add(roles.ensure_groups()[roles.SITE_ADMINISTRATORS])
    client.force_login(user)
    site = home_only(demo, "courier")
    page = client.get(f"/admin/monitor/site/{site.pk}/sources/").content.decode()
    base = demo.base_url("courier").rstrip("/")
    assert f"home page: {base}/" in page and "Polled in any case" in page
    assert f"<td>{base}/private/staff-notes.html</td><td>no</td><td>disallowed by robots.txt</td>" in page
    assert f'name="keep" value="{base}/"' not in page, "the home page is polled in any case: no tick"
    # a live trial: each source's count was said twice ("9 link(s), 9 taken for articles", then "9 of 9 links
    # taken for article candidates"), and the breadcrumb skipped the site list and the site
    assert "taken for articles" not in page and "link(s)" not in page
    assert page.count("taken for article candidates") == page.count("<details><summary>Links and why")
    crumbs = page.split('<div class="breadcrumbs">', 1)[1].split("</div>", 1)[0]
    assert f'href="/admin/monitor/site/{site.pk}/change/"' in crumbs and "/admin/monitor/site/" in crumbs
    # a live trial's Morning Pulse read "Polled now, whatever is ticked: http://127.0.0.14:8942/ (section)": its
    # home page, polled as its only page of links, is called so
    polled = page.split("whatever is ticked:", 1)[1].split("</p>", 1)[0]
    assert f"{base}/</a> (home page)" in polled and "(section)" not in polled


def test_the_wellbeing_forum_is_not_proposed_as_a_news_section(demo):
    """/community/, the Wellbeing Times' forum, was proposed as a section like /mind/ or /body/."""
    proposal = services.find_sources(home_only(demo, "wellbeing"))
    base = demo.base_url("wellbeing").rstrip("/")
    sections = {source.url: source for source in proposal.sources if source.kind == "section"}
    forum = sections[base + "/community/"]
    assert not forum.keep and "a forum, not a news section" in forum.reason, forum.reason
    assert all("forum" not in source.reason for url, source in sections.items() if url != forum.url)


def site_requests(server, key: str) -> list[dict]:
    return [r for r in request_log(server, key) if not r["path"].startswith("/_control/")]


def test_the_preview_is_found_once_and_shown_again_until_find_again(demo, client):
    """A live trial: the preview read the home page, robots.txt and sitemaps on every load, 1.8 to 2.5 s alone and
    11 to 13 s while polls ran. A load shows what was found recently, saying when; *Find again* reads the site anew."""
    from django.contrib.auth import get_user_model

    from foundation import roles

    user = get_user_model().objects.create_user("siteadmin", password="pw-Long-enough-1", is_staff=True)
    user.groups.add(roles.ensure_groups()[roles.SITE_ADMINISTRATORS])
    client.force_login(user)
    site = home_only(demo, "courier")
    url = f"/admin/monitor/site/{site.pk}/sources/"
    first = client.get(url).content.decode()
    read = len(site_requests(demo, "courier"))
    assert read >= 2, "the first load finds the sources"
    services._robots_rows.clear()  # as another web process, which has no robots.txt row in memory
    started = time.monotonic()
    second = client.get(url).content.decode()
    assert time.monotonic() - started < 1.5
    assert len(site_requests(demo, "courier")) == read, "a second load reads nothing of the site"
    assert "Found moments ago" in second and "0\xa0minutes" not in second and 'name="find_again"' in second
    signed = lambda page: page.split('name="proposal" value="', 1)[1].split('"', 1)[0]  # noqa: E731
    assert signing.loads(signed(second), salt="monitor.site.sources") == signing.loads(
        signed(first), salt="monitor.site.sources"
    ), "the same sources proposed"
    shown = lambda page: re.sub(r'value="[^"]{40,}"', "", page.split('class="find-again"', 1)[1].split("</form>", 1)[1])  # noqa: E731
    assert shown(second) == shown(first), "the same sources and links, with the same verdicts"

    response = client.post(url, {"find_again": "1"})  # the test client checks no CSRF token: the browser test does
    assert response.status_code == 302 and response["Location"] == url
    assert len(site_requests(demo, "courier")) > read, "Find again reads the site"
    again = len(site_requests(demo, "courier"))
    client.get(url)
    assert len(site_requests(demo, "courier")) == again, "and is kept in turn"

    Site.objects.filter(pk=site.pk).update(exclude_patterns="/private/")
    client.get(url)
    assert len(site_requests(demo, "courier")) > again, "the site's link rules changed: found again"


def test_the_stored_preview_is_bounded():
    from monitor import previews
    from monitor.finding import Found, LinkVerdict, Proposal

    long = "https://example.org/" + "a" * 3000
    links = [LinkVerdict(f"https://example.org/{i}/" + "b" * 1500, True, "r" * 900) for i in range(60)]
    proposal = Proposal(
        "https://example.org/",
        [Found(f"https://example.org/s{i}", "section", "why" * 400, links=list(links), total=60) for i in range(40)],
        Found(long, "section", "the home page", links=list(links)),
        ["note " * 300] * 50,
    )
    data = previews.to_json(proposal)
    assert len(json.dumps(data)) <= previews.MAX_BYTES
    back = previews.from_json(json.loads(json.dumps(data)))
    assert len(back.sources) == previews.MAX_SOURCES and back.sources[0].total == 60
    assert 0 < len(back.sources[0].links) < 60 and len(back.home.url) == previews.MAX_URL


@pytest.mark.parametrize("superuser", [True, False], ids=["superuser", "site administrator"])
def test_a_private_site_not_allowed_private_addresses_says_who_may_allow_them(demo, client, superuser):
    """A live trial: the preview of a demo site (127.0.0.13) registered without *Allow private addresses* said only
    "refused: … resolves to a private address that this site may not use … No feed, sitemap or section page was
    found". It now says what to do: a superuser ticks *Allow private addresses*; anyone else asks one."""
    from django.contrib.auth import get_user_model

    from foundation import roles

    users = get_user_model().objects
    if superuser:
        user = users.create_superuser("root", password="pw-Long-enough-1")
    else:
        user = users.create_user("siteadmin", password="pw-Long-enough-1", is_staff=True)
        user.groups.add(roles.ensure_groups()[roles.SITE_ADMINISTRATORS])
    client.force_login(user)
    site = home_only(demo, "wellbeing")
    Site.objects.filter(pk=site.pk).update(allow_private_addresses=False)
    page = " ".join(client.get(f"/admin/monitor/site/{site.pk}/sources/").content.decode().split())
    assert "resolves to a private address that this site may not use" in page
    assert ("Tick <em>Allow private addresses</em> on" in page) is superuser
    assert ("Only a superuser may allow it: ask one to tick <em>Allow private addresses</em>" in page) is not superuser
    assert "will be polled" not in page, "a refused site is not polled either"
    # nor "polled now" beside "nothing can be polled" (a second live check)
    assert "Polled now" not in page and "Polled once a superuser allows it (below), whatever is ticked" in page


def test_the_preview_does_not_wait_behind_the_article_fetches_of_a_poll(demo, production_delay):
    """A live trial: right after *Allow private addresses* was ticked for a demo site, its first poll began and
    queued its articles' fetches, each holding its turn at the host (politeness.take_turn: 2 s apart, reserved
    ahead); the preview, opened then, waited behind all of them and timed out at 20 s. A retry, the fetches done,
    answered in 2 s. The preview is one short burst of its own (WIMS_SOURCES_PREVIEW_DELAY apart): it does not
    queue behind the turns a poll holds, nor do they move for it."""
    from monitor import politeness
    from monitor.canonical import host_of

    site = home_only(demo, "wellbeing")
    host = host_of(site.home_url)
    held = [politeness.take_turn(host) for _ in range(12)]  # twelve article fetches, deferred with their slots
    assert held[-1] is not None and held[-1] - time.time() > 20
    started = time.monotonic()
    proposal = services.find_sources(site)
    took = time.monotonic() - started
    assert took < 8, f"the preview took {took:.1f} s"
    assert all(source.links or source.error for source in proposal.sources), "every source read for the preview"
    # the fetches keep the turns they hold: the next free slot of the host is still after theirs
    assert politeness.take_turn(host) >= held[-1]


def test_the_preview_reads_the_site_at_once_after_private_addresses_are_allowed(demo):
    """A demo site registered without *Allow private addresses*: its preview says the home page resolves to a
    private address. Ticked, the preview read nothing still, for ten minutes: "robots.txt unreachable", the
    refusal having been kept as the origin's robots.txt (WIMS_ROBOTS_ERROR_TTL)."""
    home = demo.base_url("courier").rstrip("/") + "/"
    site = Site.objects.create(name="Courier", home_url=home, articles_only=True)
    refused = services.find_sources(site)
    assert refused.private_refused and "private address" in refused.notes[0], refused.notes
    site.allow_private_addresses = True
    site.save()
    services._robots_rows.clear()  # as another web process: what the database keeps counts
    proposal = services.find_sources(site)
    assert not proposal.private_refused and proposal.home is not None and proposal.home.links, proposal.notes
    assert proposal.sources, proposal.notes
