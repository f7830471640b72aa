"""The admin's sources preview of a demo site registered by its home page, in real Chromium: the home page's links
are listed with the verdict on each, the staff link robots.txt disallows among them (never taken), and the forum's
front is proposed unticked, saying it is a forum."""

import pytest
from playwright.sync_api import expect

from demo.server import DemoServer
from monitor.models import Site
from tests.e2e import demo_data
from tests.e2e.test_workspace import login

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_preview_shows_the_home_pages_disallowed_link_and_the_forum_unticked(page, live_server, django_user_model):
    django_user_model.objects.create_superuser("root", password=demo_data.PASSWORD)  # noqa: S106
    with DemoServer(port=0, interval=None, start_published=4) as demo:
        base = demo.base_url("wellbeing").rstrip("/")
        site = Site.objects.create(
            name="Wellbeing Times", home_url=base + "/", allow_private_addresses=True, articles_only=True
        )
        login(page, live_server, username="root")
        page.goto(f"{live_server.url}/admin/monitor/site/{site.pk}/sources/")

        home = page.locator("fieldset.source-home")
        expect(home.locator("h2")).to_have_text(f"home page: {base}/")
        expect(home.locator("input[type=checkbox]")).to_have_count(0)
        home.locator("summary").click()
        staff = home.locator("tr", has_text=f"{base}/private/staff-notes.html")
        expect(staff).to_be_visible()
        expect(staff.locator("td").nth(1)).to_have_text("no")
        expect(staff.locator("td").nth(2)).to_have_text("disallowed by robots.txt")

        forum = page.locator("fieldset.source-section", has_text=f"section: {base}/community/")
        expect(forum.locator("input[name=keep]")).not_to_be_checked()
        expect(forum).to_contain_text("a forum, not a news section")
        expect(page.locator("fieldset.source-section", has_text="a forum")).to_have_count(1)

        # loaded again, the preview is the one found (no request to the site); Find again (a POST with the CSRF
        # token of the page) reads the site anew
        from tests.monitor.conftest import request_log

        read = len(request_log(demo, "wellbeing"))
        page.reload()
        expect(page.locator("form.find-again")).to_contain_text("Found moments ago")
        assert len(request_log(demo, "wellbeing")) == read
        page.get_by_role("button", name="Find again").click()
        expect(page.locator("fieldset.source-home h2")).to_have_text(f"home page: {base}/")
        assert len(request_log(demo, "wellbeing")) > read + 1
