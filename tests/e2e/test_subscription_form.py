"""The subscription form in a real browser: it shows the digest's fields only for a digest (a live trial: the
time of day, weekday and time zone were asked for an alert sent at once)."""

import pytest
from playwright.sync_api import expect

from foundation.roles import EXPERTS, ensure_groups
from tests.e2e import demo_data
from tests.e2e.test_workspace import login

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_digest_fields_show_for_a_digest_only(page, live_server, django_user_model):
    ada = django_user_model.objects.create_user("ada", password=demo_data.PASSWORD)
    ada.groups.add(ensure_groups()[EXPERTS])
    login(page, live_server)
    page.goto(f"{live_server.url}/alerts/new")
    fields = {name: page.locator(f"#id_{name}") for name in ("send_time", "weekday", "time_zone")}
    page.select_option("#id_frequency", "immediate")
    for field in fields.values():
        expect(field).to_be_hidden()
    page.select_option("#id_frequency", "daily")
    expect(fields["send_time"]).to_be_visible()
    expect(fields["time_zone"]).to_be_visible()
    expect(fields["weekday"]).to_be_hidden()
    page.select_option("#id_frequency", "weekly")
    for field in fields.values():
        expect(field).to_be_visible()
