"""A superuser's allowance to reach private addresses is bound to the URLs it was given for: a site
administrator cannot point an allowed site somewhere else on the local network (monitor.services.check_site_change,
used by the admin's form and the API's serializer; tests/api/test_sites.py covers the API)."""

import pytest
from django.contrib.auth import get_user_model

from foundation import roles
from monitor import services
from monitor.models import Site
from tests.monitor.conftest import register, request_log

pytestmark = pytest.mark.django_db


def _form(site: Site, **changes) -> dict:
    """The admin change form's fields as the browser posts them (the flag is read-only for a site administrator)."""
    data = {
        "name": site.name,
        "home_url": site.home_url,
        "active": "on",
        "section_urls": site.section_urls,
        "feed_url": site.feed_url,
        "include_patterns": site.include_patterns,
        "exclude_patterns": site.exclude_patterns,
        "poll_interval": str(site.poll_interval),
        # the inline of the site's sources (none here): its management form
        "sources-TOTAL_FORMS": "0",
        "sources-INITIAL_FORMS": "0",
    }
    data.update(changes)
    return data


@pytest.fixture
def site_admin(client):
    user = get_user_model().objects.create_user("siteadmin", password="pw-Long-enough-1", is_staff=True)
    user.groups.add(roles.ensure_groups()[roles.SITE_ADMINISTRATORS])
    client.force_login(user)
    return client


def test_a_site_administrator_cannot_move_an_allowed_site_to_another_private_host(site_admin, demo, fast_env):
    courier = register(demo, "courier")  # on loopback: a superuser allowed private addresses
    assert courier.allow_private_addresses
    elsewhere = demo.home_url("healthwatch")  # another host of the local network
    url = f"/admin/monitor/site/{courier.pk}/change/"
    for field in ("section_urls", "home_url", "feed_url"):
        response = site_admin.post(url, _form(courier, **{field: elsewhere}))
        assert response.status_code == 200, f"{field}: saved ({response.status_code})"
        assert "a superuser" in response.content.decode()
        stored = Site.objects.get(pk=courier.pk)
        assert (stored.section_urls, stored.home_url, stored.feed_url) == (
            courier.section_urls,
            courier.home_url,
            courier.feed_url,
        )
    services.poll_site(courier.pk)
    assert request_log(demo, "healthwatch") == [], "the private host it was not allowed for is never asked"
    # other changes, and the same URLs sent back, are the site administrator's to make
    response = site_admin.post(url, _form(courier, poll_interval="900"))
    assert response.status_code == 302, response.content.decode()[:2000]
    stored = Site.objects.get(pk=courier.pk)
    assert stored.poll_interval == 900 and stored.allow_private_addresses


def test_a_superuser_changes_the_urls_of_an_allowed_site(client, demo, fast_env):
    courier = register(demo, "courier")
    client.force_login(get_user_model().objects.create_superuser("root", password="pw-Long-enough-2"))
    elsewhere = demo.home_url("healthwatch")
    data = _form(courier, section_urls=elsewhere, allow_private_addresses="on")
    response = client.post(f"/admin/monitor/site/{courier.pk}/change/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    stored = Site.objects.get(pk=courier.pk)
    assert stored.section_urls == elsewhere and stored.allow_private_addresses
