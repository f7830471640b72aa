"""WebMon's services against the demo sites, called in this process (the worker tests cover the queues):
robots.txt, the private-address rule, conditional GET, dispatching, the sweep, duplicates, rel=canonical,
the politeness slot reservation, and the admin."""

import time
from datetime import timedelta
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from classifier.models import Case
from demo.registration import ARTICLE_PATTERNS
from filters.services import profile_for_site
from foundation import roles
from monitor import politeness, services
from monitor.models import Article, FetchAttempt, Host, RobotsFile, Site
from monitor.net import Deferred
from processing import services as processing
from tests.monitor.conftest import control, ground_truth, register, request_log, run_tasks

pytestmark = pytest.mark.django_db(transaction=True)


def test_robots_txt_is_honoured_and_cached(demo, fast_env):
    # Let the staff-notes page through the patterns: only robots.txt stands between WIMS and /private/.
    site = register(
        demo, "wellbeing", include_patterns=ARTICLE_PATTERNS["wellbeing"] + "\n/private/", exclude_patterns=""
    )
    run_tasks(services.poll_site(site.pk))
    # robots.txt was read before the home page: the disallowed link is no article (it would only fail, in the
    # experts' inbox, and mark the site degraded: a live trial)
    assert not Article.objects.filter(url__contains="/private/").exists()
    assert not request_log(demo, "wellbeing", "/private/"), "never requested"
    assert Article.objects.filter(state="processed").count() == 4
    assert len(request_log(demo, "wellbeing", "/robots.txt")) == 1, "cached for the whole poll"
    assert RobotsFile.objects.get().status == 200
    run_tasks(services.poll_site(site.pk))
    assert len(request_log(demo, "wellbeing", "/robots.txt")) == 1


def test_unreachable_robots_txt_blocks_the_host_for_a_while(demo, fast_env):
    site = register(demo, "courier")
    control(demo, "courier", "POST", "fault", mode="503", count="1", path_prefix="/robots.txt")
    services.poll_site(site.pk)
    site.refresh_from_db()
    assert site.consecutive_failures == 1 and "robots.txt" in site.last_error
    assert [r["path"] for r in request_log(demo, "courier")] == ["/robots.txt"], "nothing else asked"


def test_private_addresses_are_refused_unless_the_site_allows_them(demo, fast_env):
    site = register(demo, "healthwatch", allow_private_addresses=False)
    before = timezone.now()
    outcome = services.poll_site(site.pk)
    assert outcome.enqueue == []
    site.refresh_from_db()
    assert "private address that this site may not use: 127.0.0.11" in site.last_error
    assert site.consecutive_failures == 1 and site.last_success_at is None
    assert site.next_poll_at >= before + timedelta(seconds=site.poll_interval)
    assert request_log(demo, "healthwatch") == [], "not a single byte sent"
    assert FetchAttempt.objects.filter(outcome="failed", error__contains="may not use").count() == 5
    # A second failure doubles the wait before the next poll (a dead site costs little).
    services.poll_site(site.pk)
    site.refresh_from_db()
    assert site.consecutive_failures == 2
    assert site.next_poll_at >= timezone.now() + timedelta(seconds=2 * site.poll_interval - 5)


def test_redirect_to_a_private_address_is_refused_at_the_hop(demo, fast_env, monkeypatch):
    """Each redirect hop is checked: a public page redirecting to loopback is refused at the hop."""
    from monitor import net

    calls = []

    def fake_check(host, port, url="", allow_private=False):
        calls.append(url)
        if url.endswith("/fault/redirect-loop"):  # pretend the first URL was public, the hop is not
            raise net.AddressRefused(f"refused: {host} resolves to non-public address 127.0.0.11", url=url)

    monkeypatch.setattr(net, "check_host", fake_check)
    monkeypatch.setattr(net, "address_allowed", lambda address, allow_private=False: True)  # plays a public host
    with pytest.raises(net.AddressRefused):
        net.fetch(demo.url("healthwatch", "/fault/redirect-loop/b"), allow_private=False)
    assert len(calls) == 2


def test_conditional_get_on_section_pages_and_feed(demo, fast_env):
    site = register(demo, "healthwatch")
    run_tasks(services.poll_site(site.pk))
    assert services.poll_site(site.pk).enqueue == []
    second = FetchAttempt.objects.filter(kind__in=["section", "feed"]).order_by("-id")[:5]
    assert {a.outcome for a in second} == {"not_modified"} and {a.status for a in second} == {304}
    site.refresh_from_db()
    assert site.articles_found_last_poll == 0 and site.consecutive_failures == 0


def test_dispatch_claims_each_due_site_once_and_skips_inactive_ones(fast_env):
    due = Site.objects.create(name="Due", home_url="http://due.test/")
    Site.objects.create(name="Later", home_url="http://later.test/", next_poll_at=timezone.now() + timedelta(minutes=5))
    Site.objects.create(name="Off", home_url="http://off.test/", active=False)
    first = services.dispatch_due_polls()
    assert [t for t in first.enqueue if t[0] == "poll"] == [("poll", due.pk, 0)]
    assert [t for t in services.dispatch_due_polls().enqueue if t[0] == "poll"] == []
    due.refresh_from_db()
    assert due.next_poll_at > timezone.now() + timedelta(seconds=due.poll_interval - 5)


def test_a_poll_killed_mid_flight_is_dispatched_again_within_its_run_lease(demo, fast_env, monkeypatch):
    """The dispatcher's lease (interval + 5 minutes) kept a poll killed mid-flight away for 65 minutes here."""
    site = register(demo, "wellbeing", poll_interval=3600)
    services.dispatch_due_polls()
    regular = Site.objects.get(pk=site.pk).next_poll_at - services.POLL_LEASE
    seen = []
    real_fetch = services.fetch

    def fetch(url, **kwargs):
        seen.append(Site.objects.get(pk=site.pk).next_poll_at)  # what a worker killed now would leave
        return real_fetch(url, **kwargs)

    monkeypatch.setattr(services, "fetch", fetch)
    started = timezone.now()
    assert services.poll_site(site.pk).result == "polled"
    # Within five minutes of the run's start, whatever the interval (POLL_RUN_LEASE: the task's time limit).
    assert seen and all(lease <= started + timedelta(minutes=5) for lease in seen), seen
    assert Site.objects.get(pk=site.pk).next_poll_at == regular, "a finished poll keeps the regular schedule"


def test_sweep_requeues_lost_messages_and_expired_leases(fast_env, monkeypatch):
    site = Site.objects.create(name="S", home_url="http://s.test/")
    old = timezone.now() - timedelta(minutes=5)
    lost = Article.objects.create(site=site, url="http://s.test/lost", due_at=old)
    crashed = Article.objects.create(
        site=site, url="http://s.test/crashed", state="fetching", lease_until=old, fetch_attempts=1
    )
    doomed = Article.objects.create(
        site=site, url="http://s.test/doomed", state="fetching", lease_until=old, fetch_attempts=4
    )
    unprocessed = Article.objects.create(site=site, url="http://s.test/fetched", state="fetched", due_at=old)
    busy = Article.objects.create(
        site=site, url="http://s.test/busy", state="fetching", lease_until=timezone.now() + timedelta(minutes=1)
    )
    queued = set(services.sweep().enqueue)
    assert {("fetch", lost.pk, 0), ("fetch", crashed.pk, 0), ("process", unprocessed.pk, 0)} == queued
    doomed.refresh_from_db()
    busy.refresh_from_db()
    assert doomed.state == "failed" and doomed.last_error.startswith("quarantined:")
    assert busy.state == "fetching"
    assert services.sweep().enqueue == [], "not again before the grace period has passed"
    # A message delivered twice does nothing the second time.
    assert services.fetch_article(busy.pk).result == "skipped"


def test_create_pending_is_idempotent():
    site = Site.objects.create(name="S", home_url="http://s.test/")
    urls = ["http://s.test/a", "http://s.test/b"]
    assert len(services.create_pending(site, urls)) == 2
    assert services.create_pending(site, urls + ["http://s.test/c"]) == [Article.objects.get(url__endswith="c").pk]


def test_a_feed_read_after_the_section_pages_still_gives_its_dates():
    """A poll continuation read the section pages first: the feed's dates were dropped for known links."""
    site = Site.objects.create(name="S", home_url="http://s.test/")
    urls = ["http://s.test/a", "http://s.test/b"]
    services.create_pending(site, urls)  # from a section page: no dates
    when = timezone.now().replace(microsecond=0) - timedelta(hours=3)
    dated = Article.objects.create(site=site, url="http://s.test/c", published_at=when - timedelta(days=1))
    assert services.create_pending(site, [*urls, dated.url], {urls[0]: when, dated.url: when}) == []
    assert Article.objects.get(url=urls[0]).published_at == when
    assert Article.objects.get(url=urls[1]).published_at is None
    assert Article.objects.get(pk=dated.pk).published_at == when - timedelta(days=1), "a known date is kept"


def test_republished_article_is_linked_not_classified_twice(demo, fast_env):
    """The same page under two URLs of two sites: one case; the copy points to the original."""
    site = register(demo, "healthwatch")
    other = Site.objects.create(name="Mirror", home_url="http://mirror.test/", allow_private_addresses=True)
    url = sorted(ground_truth(demo, "healthwatch"))[0]
    first = Article.objects.create(site=site, url=url)
    run_tasks([("fetch", first.pk, 0)])
    mirror = Article.objects.create(
        site=other,
        url="http://mirror.test/copy",
        state="fetched",
        raw_html=Article.objects.get(pk=first.pk).raw_html,
        headers={"content-type": "text/html; charset=utf-8"},
    )
    assert processing.process_article(mirror.pk).result == "duplicate"
    mirror.refresh_from_db()
    assert mirror.state == "duplicate" and mirror.duplicate_of_id == first.pk
    assert Case.objects.filter(article=first).exists() and not Case.objects.filter(article=mirror).exists()
    assert processing.process_article(mirror.pk).result == "skipped", "idempotent"


def test_rel_canonical_moves_the_content_to_the_canonical_url(demo, fast_env):
    site = register(demo, "wellbeing")
    url = sorted(ground_truth(demo, "wellbeing"))[0]
    alias = Article.objects.create(site=site, url=url + "?page=1")  # a spelling our rules keep
    run_tasks([("fetch", alias.pk, 0)])
    alias.refresh_from_db()
    canonical = Article.objects.get(site=site, url=url)
    assert alias.state == "duplicate" and alias.duplicate_of == canonical and alias.canonical_url == url
    assert canonical.state == "processed" and Case.objects.filter(article=canonical).exists()
    # The next poll finds the canonical URL known: nothing fetched twice.
    assert canonical.pk not in [pk for _, pk, _ in services.poll_site(site.pk).enqueue]


def test_politeness_reservations_are_spaced_and_deferred_beyond_max_wait():
    now = 1000.0
    assert politeness.reserve("h.test", 2.0, 5.0, now=now) == 0.0
    assert politeness.reserve("h.test", 2.0, 5.0, now=now) == 2.0
    assert politeness.reserve("h.test", 2.0, 5.0, now=now + 1) == 3.0
    with pytest.raises(Deferred) as info:  # the next free slot (now + 6) is beyond max_wait (5)
        politeness.reserve("h.test", 2.0, 5.0, now=now)
    assert info.value.delay == pytest.approx(1.0), "when a slot within max_wait frees up"
    assert Host.objects.get(name="h.test").next_request_at == now + 6.0, "a deferral takes no slot"
    assert politeness.reserve("other.test", 2.0, 5.0, now=now) == 0.0, "hosts are independent"


def test_a_deferred_fetch_holds_its_slot_and_a_missed_one_takes_the_next(settings):
    settings.WIMS_POLITENESS_DELAY = 10.0
    settings.WIMS_POLITENESS_MAX_WAIT = 1.0
    assert politeness.take_turn("h.test") is None, "a free host: no wait"
    first = politeness.take_turn("h.test")
    second = politeness.take_turn("h.test")
    assert first is not None and second == pytest.approx(first + 10), "each deferral reserves its own slot"
    end = Host.objects.get(name="h.test").next_request_at
    assert politeness.take_turn("h.test", held=second) == second, "back early: the same slot, none taken"
    assert Host.objects.get(name="h.test").next_request_at == end
    missed = time.time() - 5
    assert politeness.take_turn("h.test", held=missed) == pytest.approx(end), "a slot gone by: the next free one"


def test_site_administrator_registers_a_site_and_sees_health_in_the_admin(client, demo, fast_env):
    groups = roles.ensure_groups()
    user = get_user_model().objects.create_user("siteadmin", password="pw-Long-enough-1", is_staff=True)
    user.groups.add(groups[roles.SITE_ADMINISTRATORS])
    client.force_login(user)
    response = client.post(
        "/admin/monitor/site/add/",
        {
            "name": "Courier",
            "home_url": demo.home_url("courier"),
            "active": "on",
            "section_urls": demo.home_url("courier"),
            "feed_url": "",
            "poll_interval": "600",
            "include_patterns": ARTICLE_PATTERNS["courier"],
            "exclude_patterns": "",
            "allow_private_addresses": "on",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    site = Site.objects.get(name="Courier")
    assert not site.allow_private_addresses, "opening the local network is a superuser's decision"
    superuser = get_user_model().objects.create_superuser("root", password="pw-Long-enough-2")
    client.force_login(superuser)
    change = client.get(f"/admin/monitor/site/{site.pk}/change/").content.decode()
    assert 'name="allow_private_addresses"' in change
    Site.objects.filter(pk=site.pk).update(allow_private_addresses=True)  # what the superuser's form saves
    client.force_login(user)
    change = client.get(f"/admin/monitor/site/{site.pk}/change/").content.decode()
    assert 'name="allow_private_addresses"' not in change, "shown, not editable, for a site administrator"
    site.refresh_from_db()
    assert site.next_poll_at is None, "due at the next dispatcher tick: no restart needed"
    run_tasks(services.dispatch_due_polls())
    assert Article.objects.filter(site=site, state="processed").count() == 4
    page = client.get("/admin/monitor/site/").content.decode()
    assert "Courier" in page and "ok" in page
    # Re-learn the filter profile: a preview first, nothing stored until confirmed.
    preview = client.post("/admin/monitor/site/", {"action": "relearn_filter_profile", "_selected_action": site.pk})
    assert preview.status_code == 200
    text = preview.content.decode()
    assert "Filtering phrases" in text and "What it removes" in text
    assert not hasattr(Site.objects.get(pk=site.pk), "filter_profile")
    confirm = client.post(
        "/admin/monitor/site/",
        {"action": "relearn_filter_profile", "_selected_action": site.pk, "confirm": "yes", "page_urls": ""},
    )
    assert confirm.status_code == 302
    site = Site.objects.get(pk=site.pk)
    assert site.filter_profile.sample_size >= 2
    assert profile_for_site(site).provenance["learned_from"], "the learned profile is what processing uses next"


def test_failed_articles_make_a_site_degraded_and_can_be_fetched_again_from_the_admin(client, demo, fast_env):
    groups = roles.ensure_groups()
    user = get_user_model().objects.create_user("siteadmin", password="pw-Long-enough-1", is_staff=True)
    user.groups.add(groups[roles.SITE_ADMINISTRATORS])
    client.force_login(user)
    site = register(demo, "courier")
    [url, *_] = sorted(ground_truth(demo, "courier"))
    control(demo, "courier", "POST", "fault", path_prefix=urlsplit(url).path, mode="binary", count="1")
    run_tasks(services.poll_site(site.pk))
    broken = Article.objects.get(url=url)
    assert broken.state == "failed" and "not an HTML page" in broken.last_error
    page = client.get("/admin/monitor/site/").content.decode()
    assert "degraded: 1 failed fetch in the last day" in page, "polls work but an article failed: not ok"
    response = client.post("/admin/monitor/article/", {"action": "fetch_again", "_selected_action": broken.pk})
    assert response.status_code == 302
    broken.refresh_from_db()
    assert (broken.state, broken.fetch_attempts, broken.last_error) == ("pending", 0, "")
    run_tasks([("fetch", broken.pk, 0)])  # the fault served once only
    assert Article.objects.get(pk=broken.pk).state == "processed"
    page = client.get("/admin/monitor/site/").content.decode()
    assert '<span class="health ok">ok</span>' in page, "a failure its address's next fetch made good is past"


def test_the_sweep_re_enqueues_every_row_left_behind_up_to_its_limit(fast_env):
    """After an outage many rows are left due; the sweep sends them all again (up to 2,000 per stage), not three:
    a loop variable of the quarantine once shadowed the sweep's limit with the attempts allowed."""
    site = Site.objects.create(name="S", home_url="http://s.test/")
    old = timezone.now() - timedelta(minutes=5)
    lost = [Article.objects.create(site=site, url=f"http://s.test/lost-{n}", due_at=old).pk for n in range(8)]
    unprocessed = [
        Article.objects.create(site=site, url=f"http://s.test/fetched-{n}", state="fetched", due_at=old).pk
        for n in range(8)
    ]
    queued = services.sweep().enqueue
    assert sorted(pk for stage, pk, _ in queued if stage == "fetch") == lost
    assert sorted(pk for stage, pk, _ in queued if stage == "process") == unprocessed
    assert len(services.sweep(limit=5).enqueue) == 0, "not again before the grace period has passed"
