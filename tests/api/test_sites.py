"""Sites through the API, for site administrators: validated as the admin's form validates them, saved as the
admin saves them (canonical URLs, due at the next dispatch), deactivated rather than deleted."""

from datetime import timedelta

import pytest
from django.utils import timezone

from monitor.models import Site

NEW = {"name": "Health News", "home_url": "HTTPS://News.Example.ORG:443/Health/?utm_source=x#top"}


@pytest.mark.django_db
def test_register_a_site_canonical_and_due_at_the_next_dispatch(api_as):
    response = api_as("site_admin").post(
        "/api/sites/",
        {
            **NEW,
            "feed_url": "https://News.Example.org/feed.xml",
            "include_patterns": r"/health/\d+",
            "poll_interval": 300,
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    site = Site.objects.get(name="Health News")
    assert site.home_url == "https://news.example.org/Health/"
    assert site.feed_url == "https://news.example.org/feed.xml"
    assert site.next_poll_at is None and site.active and not site.allow_private_addresses
    assert response.json()["home_url"] == site.home_url
    assert response.json()["id"] == site.pk


@pytest.mark.django_db
@pytest.mark.parametrize(
    "change, field",
    [
        ({"include_patterns": "/health/(\\d+"}, "include_patterns"),
        ({"exclude_patterns": "ok\n[unclosed"}, "exclude_patterns"),
        ({"section_urls": "https://news.example.org/a\nftp://news.example.org/b"}, "section_urls"),
        ({"home_url": "not a url"}, "home_url"),
        ({"feed_url": "javascript:alert(1)"}, "feed_url"),
        ({"poll_interval": 10}, "poll_interval"),
        ({"name": ""}, "name"),
    ],
)
def test_the_admins_validation_applies(api_as, change, field):
    response = api_as("site_admin").post("/api/sites/", {**NEW, **change}, format="json")
    assert response.status_code == 400
    assert field in response.json(), response.json()
    assert not Site.objects.exists()


@pytest.mark.django_db
def test_names_and_home_pages_are_unique_after_canonicalisation(api_as, site):
    client = api_as("site_admin")
    response = client.post("/api/sites/", {"name": "Daily", "home_url": "https://other.example/"}, format="json")
    assert response.status_code == 400 and "name" in response.json()
    response = client.post("/api/sites/", {"name": "Other", "home_url": "HTTPS://DAILY.example:443/"}, format="json")
    assert response.status_code == 400 and "home_url" in response.json()  # a clear error, not an IntegrityError
    assert Site.objects.count() == 1
    # a site keeps its own home page when edited
    assert client.patch(f"/api/sites/{site.pk}/", {"home_url": site.home_url}, format="json").status_code == 200


@pytest.mark.django_db
def test_only_a_superuser_lets_a_site_reach_private_addresses(api_as, site):
    admin = api_as("site_admin")
    response = admin.post("/api/sites/", {**NEW, "allow_private_addresses": True}, format="json")
    assert response.status_code == 400
    assert "superuser" in str(response.json()["allow_private_addresses"])
    assert admin.patch(f"/api/sites/{site.pk}/", {"allow_private_addresses": True}, format="json").status_code == 400
    site.refresh_from_db()
    assert not site.allow_private_addresses
    root = api_as("superuser")
    assert root.patch(f"/api/sites/{site.pk}/", {"allow_private_addresses": True}, format="json").status_code == 200
    site.refresh_from_db()
    assert site.allow_private_addresses
    # a site administrator edits such a site (sending the flag unchanged) but cannot take the decision back
    response = admin.put(
        f"/api/sites/{site.pk}/",
        {"name": "Daily", "home_url": site.home_url, "allow_private_addresses": True, "poll_interval": 120},
        format="json",
    )
    assert response.status_code == 200, response.json()
    assert admin.patch(f"/api/sites/{site.pk}/", {"allow_private_addresses": False}, format="json").status_code == 400
    site.refresh_from_db()
    assert site.allow_private_addresses and site.poll_interval == 120


@pytest.mark.django_db
def test_changing_what_is_watched_makes_the_site_due_now_other_changes_do_not(api_as, site):
    later = timezone.now() + timedelta(hours=1)
    Site.objects.filter(pk=site.pk).update(next_poll_at=later)
    client = api_as("site_admin")
    assert client.patch(f"/api/sites/{site.pk}/", {"poll_interval": 900}, format="json").status_code == 200
    site.refresh_from_db()
    assert site.next_poll_at == later and site.poll_interval == 900
    assert client.patch(f"/api/sites/{site.pk}/", {"include_patterns": "/news/"}, format="json").status_code == 200
    site.refresh_from_db()
    assert site.next_poll_at is None


@pytest.mark.django_db
def test_health_is_shown_and_read_only(api_as, site):
    Site.objects.filter(pk=site.pk).update(consecutive_failures=3, last_error="timeout")
    client = api_as("site_admin")
    data = client.get(f"/api/sites/{site.pk}/").json()
    assert data["consecutive_failures"] == 3 and data["last_error"] == "timeout"
    client.patch(f"/api/sites/{site.pk}/", {"consecutive_failures": 0, "last_error": ""}, format="json")
    site.refresh_from_db()
    assert site.consecutive_failures == 3 and site.last_error == "timeout"


@pytest.mark.django_db
def test_a_site_is_deactivated_never_deleted(api_as, site, other_site):
    client = api_as("site_admin")
    response = client.post(f"/api/sites/{site.pk}/deactivate/")
    assert response.status_code == 200 and response.json()["active"] is False
    site.refresh_from_db()
    assert not site.active
    assert client.delete(f"/api/sites/{site.pk}/").status_code == 405
    assert Site.objects.count() == 2
    names = [row["name"] for row in client.get("/api/sites/").json()["results"]]
    assert names == ["Daily", "Weekly"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "change",
    [
        {"section_urls": "https://daily.example/\nhttp://10.0.0.7/admin/"},
        {"home_url": "http://192.168.1.1/"},
        {"feed_url": "http://127.0.0.1:6379/"},
    ],
)
def test_a_site_administrator_cannot_change_the_urls_of_a_site_allowed_private_addresses(api_as, site, change):
    """The allowance was given for these URLs: an edit by a site administrator is refused, the site unchanged."""
    Site.objects.filter(pk=site.pk).update(allow_private_addresses=True, section_urls="https://daily.example/")
    before = Site.objects.get(pk=site.pk)
    response = api_as("site_admin").patch(f"/api/sites/{site.pk}/", change, format="json")
    assert response.status_code == 400, response.json()
    [field] = change
    assert "superuser" in str(response.json()[field])
    after = Site.objects.get(pk=site.pk)
    assert (after.home_url, after.section_urls, after.feed_url) == (
        before.home_url,
        before.section_urls,
        before.feed_url,
    )
    assert after.allow_private_addresses
    # a superuser may (the decision is theirs), and a site without the allowance is the site administrator's
    assert api_as("superuser").patch(f"/api/sites/{site.pk}/", change, format="json").status_code == 200
    Site.objects.filter(pk=site.pk).update(allow_private_addresses=False)
    response = api_as("site_admin").patch(f"/api/sites/{site.pk}/", {"feed_url": "https://daily.example/rss"})
    assert response.status_code == 200, response.json()


@pytest.fixture
def poll_ends_meanwhile():
    """A poll that ends between the moment a save read the site and the moment it writes it (a real race: the
    poller writes health while an administrator has the site open): its health is written just before the save."""
    from django.db.models.signals import pre_save

    ended = timezone.now()

    def poll_ends(sender, instance, **_):
        if instance.pk:
            Site.objects.filter(pk=instance.pk).update(
                last_poll_at=ended, last_success_at=ended, consecutive_failures=0, articles_found_last_poll=7
            )

    pre_save.connect(poll_ends, sender=Site, weak=False)
    yield ended
    pre_save.disconnect(poll_ends, sender=Site)


@pytest.mark.django_db
def test_a_save_keeps_the_health_a_poll_wrote_meanwhile(api_as, site, poll_ends_meanwhile):
    Site.objects.filter(pk=site.pk).update(consecutive_failures=3, last_error="HTTP 503")
    response = api_as("site_admin").patch(f"/api/sites/{site.pk}/", {"poll_interval": 900}, format="json")
    assert response.status_code == 200, response.json()
    site.refresh_from_db()
    assert site.poll_interval == 900
    assert site.last_success_at == poll_ends_meanwhile and site.articles_found_last_poll == 7
    assert site.consecutive_failures == 0, "the failures read before the poll ended are not written back"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "method, path, bodies",
    [
        ("patch", "/api/sites/{pk}/", [{"section_urls": f"https://daily.example/{name}/"} for name in ("a", "b")]),
        ("post", "/api/sites/{pk}/find-sources/", [None, None]),
    ],
)
def test_a_change_during_a_poll_keeps_its_lease(api_as, site, method, path, bodies):
    """A poll queued or under way holds the site by its lease (next_poll_at): emptied, a second poll would start
    beside it at the next dispatch. The poll under way reads the change; the sources are found at the next one."""
    send = getattr(api_as("site_admin"), method)
    lease = timezone.now() + timedelta(minutes=15)
    Site.objects.filter(pk=site.pk).update(poll_queued_at=timezone.now(), next_poll_at=lease)
    assert send(path.format(pk=site.pk), bodies[0], format="json").status_code == 200
    site.refresh_from_db()
    assert site.next_poll_at == lease
    Site.objects.filter(pk=site.pk).update(poll_queued_at=None)  # the poll ended: the same change is due at once
    assert send(path.format(pk=site.pk), bodies[1], format="json").status_code == 200
    site.refresh_from_db()
    assert site.next_poll_at is None


@pytest.mark.django_db
@pytest.mark.parametrize("interval, due_in", [(60, -240), (3600, 3300)])
def test_a_new_interval_counts_from_the_last_poll(api_as, site, interval, due_in):
    """A live trial: shortened from 10 minutes to 1, the site still waited for the poll planned 10 minutes after
    the last; the new interval now counts from the last poll (4 minutes ago: due at once, or in 55 minutes)."""
    now = timezone.now()
    polled = now - timedelta(minutes=5)
    Site.objects.filter(pk=site.pk).update(
        poll_interval=600, last_poll_at=polled, next_poll_at=polled + timedelta(seconds=600), consecutive_failures=0
    )
    response = api_as("site_admin").patch(f"/api/sites/{site.pk}/", {"poll_interval": interval}, format="json")
    assert response.status_code == 200, response.json()
    site.refresh_from_db()
    assert site.next_poll_at == polled + timedelta(seconds=interval)
    assert abs((site.next_poll_at - now).total_seconds() - due_in) < 61


@pytest.mark.django_db
def test_a_new_interval_leaves_a_polls_lease_and_a_failing_sites_back_off(api_as, site):
    lease = timezone.now() + timedelta(minutes=15)
    polled = timezone.now() - timedelta(minutes=5)
    Site.objects.filter(pk=site.pk).update(last_poll_at=polled, poll_queued_at=timezone.now(), next_poll_at=lease)
    client = api_as("site_admin")
    assert client.patch(f"/api/sites/{site.pk}/", {"poll_interval": 60}, format="json").status_code == 200
    site.refresh_from_db()
    assert site.next_poll_at == lease
    Site.objects.filter(pk=site.pk).update(poll_queued_at=None, consecutive_failures=2)
    assert client.patch(f"/api/sites/{site.pk}/", {"poll_interval": 120}, format="json").status_code == 200
    site.refresh_from_db()
    assert site.next_poll_at == lease
