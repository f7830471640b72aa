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
