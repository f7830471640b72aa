"""The site list's health is coloured by a stylesheet, not by inline styles, which the app's own
Content-Security-Policy refuses (the browser dropped them with a console error on every load: issue 30)."""

import re

import pytest
from django.utils import timezone

from monitor.models import Site

pytestmark = pytest.mark.django_db


def test_site_health_is_coloured_by_classes_that_the_csp_allows(admin_client):
    now = timezone.now()
    Site.objects.create(name="Fine", home_url="https://fine.example/", last_poll_at=now)
    Site.objects.create(
        name="Down", home_url="https://down.example/", last_poll_at=now, consecutive_failures=2, last_error="timeout"
    )
    response = admin_client.get("/admin/monitor/site/")
    page = response.content.decode()
    assert '<span class="health ok">ok</span>' in page
    assert '<span class="health failing" title="timeout">failing ×2: timeout</span>' in page
    assert not re.search(r"<span style=", page), "an inline style: the CSP refuses it"
    assert 'href="/static/css/admin.css"' in page
    csp = response.headers["Content-Security-Policy"]
    assert "'unsafe-inline'" not in re.search(r"style-src[^;]*", csp).group(0)


def test_a_home_page_already_registered_under_another_spelling_is_a_form_error(admin_client):
    """Found in a live trial: "http://host" for a site registered as "http://host/" passed the form's check
    that no other site has the address, was canonicalised on save and answered 500 (the database refused it)."""
    Site.objects.create(name="Wellbeing Times", home_url="http://wellbeing.example/")
    response = admin_client.post(
        "/admin/monitor/site/add/",
        {"name": "Wellbeing Times Two", "home_url": "http://WELLBEING.example", "poll_interval": 600, "active": "on"},
    )
    assert response.status_code == 200
    assert "Site with this Home url already exists." in response.content.decode()
    assert Site.objects.count() == 1


def test_the_hosts_list_says_when_the_next_request_may_start_as_a_time(admin_client, settings):
    # a live trial's host list read "1795941382.774142": the politeness slot is stored as a Unix time (one portable
    # conditional UPDATE reserves it), the list shows it in the server's time zone, as the site list shows its dates
    from datetime import UTC, datetime

    from monitor.models import Host

    settings.TIME_ZONE = "UTC"
    Host.objects.create(name="news.example", next_request_at=datetime(2026, 11, 29, 8, 42, 5, tzinfo=UTC).timestamp())
    Host.objects.create(name="idle.example", next_request_at=0.0)  # never reserved: free now
    page = admin_client.get("/admin/monitor/host/").content.decode()
    assert "1795941725" not in page
    assert "29 Nov 08:42:05" in page
    assert 'field-next_request">—</td>' in page
    assert "29 Nov 08:42:05" in admin_client.get("/admin/monitor/host/news.example/change/").content.decode()
