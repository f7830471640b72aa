"""robots.txt larger than WIMS reads: RFC 9309 asks crawlers to parse at least the first 500 KiB, so the rules
in that part hold (they were dropped, and everything allowed for a day, when the file was over the cap)."""

import pytest

from monitor import services
from monitor.models import RobotsFile, Site

pytestmark = pytest.mark.django_db(transaction=True)

RULES = b"User-agent: *\nDisallow: /private/\n"


@pytest.fixture
def site(scripted, fast_env):
    return Site.objects.create(name="Big robots", home_url=scripted.base + "/", allow_private_addresses=True)


@pytest.mark.parametrize("declared", [True, False], ids=["content-length", "streamed-length"])
def test_rules_in_the_first_500_kib_of_a_larger_robots_txt_hold(scripted, site, declared):
    padding = b"".join(b"# comment line %06d of a very long robots file\n" % i for i in range(20_000))  # ~940 KiB
    body = RULES + padding + b"Disallow: /beyond-the-cap/\n"
    headers = [("Content-Type", "text/plain")]
    if not declared:
        headers.append(("Content-Length", "\u00b2"))  # unreadable: read to the end of the connection
    scripted.routes["/robots.txt"] = (200, headers, body)
    assert not services.robots_allows(site, scripted.base + "/private/notes.html")
    assert services.robots_allows(site, scripted.base + "/news/a.html")
    # the line cut by the cap, and what follows it, are not read
    assert services.robots_allows(site, scripted.base + "/beyond-the-cap/x.html")
    stored = RobotsFile.objects.get(origin=scripted.base)
    assert stored.status == 200 and stored.body.startswith(RULES.decode())
    assert 500 * 1024 - 100 < len(stored.body.encode()) <= 512 * 1024 and stored.body.endswith("\n")
