"""A second site on a host another site watches (found in a live trial of ``make run``): "http://host/?ref=home"
beside "http://host/" was accepted, fetched faster, and took five of the real site's articles as its own (theirs
became its re-publications). Tracking and referral parameters are no part of a home page's address; a different
home page on the same host (a section watched as its own site) is accepted, with a warning."""

import pytest
from django.contrib.messages import get_messages

from monitor.models import Site

pytestmark = pytest.mark.django_db


def _add(admin_client, name: str, home_url: str) -> str:
    """The form's page when it refuses the site, else the messages the admin shows after saving it (not followed:
    the sources' preview would fetch the home page)."""
    response = admin_client.post(
        "/admin/monitor/site/add/", {"name": name, "home_url": home_url, "poll_interval": 600, "active": "on"}
    )
    if response.status_code == 200:
        return response.content.decode()
    return "\n".join(str(message) for message in get_messages(response.wsgi_request))


def test_a_home_page_with_a_referral_parameter_is_the_site_already_registered(admin_client):
    Site.objects.create(name="The Clinic Courier", home_url="http://courier.example:8952/")
    page = _add(admin_client, "Courier copy", "http://courier.example:8952/?ref=home&utm_source=x")
    assert "Site with this Home url already exists." in page
    assert Site.objects.count() == 1


def test_tracking_parameters_are_not_saved_with_a_home_page(admin_client):
    _add(admin_client, "Courier", "http://courier.example/news/?fbclid=abc&ref=home&page=2")
    assert Site.objects.get(name="Courier").home_url == "http://courier.example/news/?page=2"


def test_a_section_of_a_watched_host_is_registered_with_a_warning_naming_the_other_site(admin_client):
    Site.objects.create(name="The Clinic Courier", home_url="http://courier.example/")
    page = _add(admin_client, "Courier Health", "http://www.courier.example/health/")
    assert Site.objects.filter(name="Courier Health").exists(), "a section as its own site is legitimate"
    assert "same host as “The Clinic Courier” (http://courier.example/)" in page
    assert "credited to whichever fetched it first" in page


def test_a_site_on_a_host_of_its_own_has_no_warning(admin_client):
    Site.objects.create(name="The Clinic Courier", home_url="http://courier.example/")
    page = _add(admin_client, "Wellbeing Times", "http://wellbeing.example/")
    assert Site.objects.filter(name="Wellbeing Times").exists()
    assert "registered" in page and "same host as" not in page
