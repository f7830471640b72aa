"""robots.txt read as RFC 9309 says, served by a real local HTTP server.

Rules: ``*`` matches any sequence of characters, a final ``$`` anchors the pattern at the end of the path, the
most specific (longest) matching rule wins and an Allow wins a tie with an equivalent Disallow; groups naming
the same crawler are combined (the standard library's parser took ``*`` and ``$`` literally and the first
matching rule in file order). Status: a 4xx robots.txt is "unavailable", so everything is allowed and the site
is healthy (it was recorded as a failed fetch, and the site shown "degraded" for a day); a 5xx one is
"unreachable", so the host is blocked for a while, as before.
"""

import pytest
from django.contrib.auth import get_user_model

from foundation import roles
from monitor import services
from monitor.models import FetchAttempt, RobotsFile, Site
from monitor.net import FetchError

pytestmark = pytest.mark.django_db(transaction=True)

TEXT = [("Content-Type", "text/plain")]

WILDCARDS = """\
User-agent: *
Disallow: /*.pdf
Disallow: /search*q=
Disallow: /*/print/
"""

ANCHORS = """\
User-agent: *
Disallow: /*.php$
Disallow: /exact$
Allow: /$
Disallow: /
"""

#: RFC 9309 2.2.2: "the most specific match found MUST be used", whatever the order of the lines
LONGEST_MATCH = """\
User-agent: *
Allow: /folder
Disallow: /folder/private
Disallow: /archive
Allow: /archive/public
Allow: /page
Disallow: /*.htm
"""

#: RFC 9309 2.2.2: "If an allow rule and a disallow rule are equivalent, then the allow rule SHOULD be used."
EQUIVALENT = """\
User-agent: *
Disallow: /same
Allow: /same
"""

#: RFC 9309 2.2.1: the groups naming the crawler are combined; its token is matched case-insensitively
GROUPS = """\
User-agent: wims
Disallow: /a/

User-agent: *
Disallow: /

User-agent: WIMS
Disallow: /b/
"""

CASES = [
    (WILDCARDS, "/files/report.pdf", False),
    (WILDCARDS, "/files/report.pdf?download=1", False),
    (WILDCARDS, "/search?lang=en&q=flu", False),
    (WILDCARDS, "/news/print/story.html", False),
    (WILDCARDS, "/news/story.html", True),
    (WILDCARDS, "/searching", True),
    (ANCHORS, "/index.php", False),
    (ANCHORS, "/index.php?page=2", False),  # "/" matches it, "/*.php$" does not
    (ANCHORS, "/exact", False),
    (ANCHORS, "/", True),
    (ANCHORS, "/news/", False),
    (LONGEST_MATCH, "/folder/page.html", True),
    (LONGEST_MATCH, "/folder/private/notes.html", False),
    (LONGEST_MATCH, "/archive/2024/a.html", False),
    (LONGEST_MATCH, "/archive/public/a.html", True),
    (LONGEST_MATCH, "/page.htm", False),  # "/*.htm" (6 octets) beats "/page" (5)
    (LONGEST_MATCH, "/page", True),
    (EQUIVALENT, "/same/x.html", True),
    (GROUPS, "/a/x.html", False),
    (GROUPS, "/b/x.html", False),
    (GROUPS, "/c/x.html", True),
]

NAMES = {WILDCARDS: "wildcard", ANCHORS: "anchor", LONGEST_MATCH: "longest", EQUIVALENT: "tie", GROUPS: "groups"}


@pytest.fixture
def site(scripted, fast_env):
    return Site.objects.create(name="Robots", home_url=scripted.base + "/", allow_private_addresses=True)


@pytest.mark.parametrize(
    ("body", "path", "allowed"),
    CASES,
    ids=[f"{NAMES[body]}:{path}" for body, path, _ in CASES],
)
def test_rules_follow_rfc_9309(scripted, site, body, path, allowed):
    scripted.routes["/robots.txt"] = (200, TEXT, body.encode())
    assert services.robots_allows(site, scripted.base + path) is allowed


def test_a_rule_beyond_the_group_is_not_applied_and_the_file_is_read_once(scripted, site):
    scripted.routes["/robots.txt"] = (200, TEXT, (LONGEST_MATCH + "\nUser-agent: otherbot\nDisallow: /\n").encode())
    assert services.robots_allows(site, scripted.base + "/folder/page.html")
    assert not services.robots_allows(site, scripted.base + "/folder/private/x")
    assert scripted.requests == ["/robots.txt"], "cached"
    [attempt] = FetchAttempt.objects.filter(kind="robots")
    assert (attempt.outcome, attempt.status) == ("ok", 200)


def _site_admin(client):
    user = get_user_model().objects.create_user("siteadmin", password="pw-Long-enough-1", is_staff=True)
    user.groups.add(roles.ensure_groups()[roles.SITE_ADMINISTRATORS])
    client.force_login(user)


@pytest.mark.parametrize("status", [404, 410])
def test_a_missing_robots_txt_allows_everything_and_the_site_stays_healthy(client, scripted, site, status):
    scripted.routes["/robots.txt"] = (status, TEXT, b"gone")
    scripted.routes["/"] = (200, [("Content-Type", "text/html")], b"<html><body><p>No news today.</p></body></html>")
    services.poll_site(site.pk)
    assert scripted.requests == ["/robots.txt", "/"]
    [robots] = FetchAttempt.objects.filter(kind="robots")
    assert (robots.outcome, robots.status, robots.error) == ("ok", status, ""), "RFC 9309: unavailable, not failed"
    assert RobotsFile.objects.get().status == status
    site.refresh_from_db()
    assert (site.consecutive_failures, site.last_error) == (0, "")
    _site_admin(client)
    page = client.get("/admin/monitor/site/").content.decode()
    assert "degraded" not in page and '<span class="health ok">ok</span>' in page


def test_an_unreachable_robots_txt_still_blocks_the_host_and_counts_as_a_failure(client, scripted, site):
    scripted.routes["/robots.txt"] = (500, TEXT, b"oops")
    with pytest.raises(FetchError) as caught:
        services.robots_allows(site, scripted.base + "/news/a.html")
    assert caught.value.transient, "asked again after WIMS_ROBOTS_ERROR_TTL, the fetch retried"
    [robots] = FetchAttempt.objects.filter(kind="robots")
    assert (robots.outcome, robots.status) == ("failed", 500)


def test_a_rate_limited_robots_txt_allows_everything_for_a_while_without_a_failure(scripted, site):
    scripted.routes["/robots.txt"] = (429, TEXT, b"slow down")
    assert services.robots_allows(site, scripted.base + "/news/a.html"), "RFC 9309: a 4xx is unavailable"
    [robots] = FetchAttempt.objects.filter(kind="robots")
    assert (robots.outcome, robots.status) == ("retry", 429), "asked again after WIMS_ROBOTS_ERROR_TTL"
