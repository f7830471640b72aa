"""The project's icon: /favicon.ico answers (browsers ask for it on the raw feeds), and the pages name it (the
admin's too), so no page logs a 404 for it."""

import pytest
from django.contrib.staticfiles import finders

pytestmark = pytest.mark.django_db

LINK = '<link rel="icon" href="/static/favicon.ico">'


def test_favicon_ico_leads_to_the_static_icon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 302 and response["Location"] == "/static/favicon.ico"
    with open(finders.find("favicon.ico"), "rb") as icon:
        assert icon.read(4) == b"\x00\x00\x01\x00"  # an ICO file


@pytest.mark.parametrize("url", ["/admin/", "/admin/monitor/site/", "/accounts/login/", "/api/docs/"])
def test_the_admin_and_the_app_pages_link_the_icon(admin_client, url):
    response = admin_client.get(url)
    assert response.status_code == 200 and LINK in response.content.decode()
