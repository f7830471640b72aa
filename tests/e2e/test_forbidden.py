"""Users without the experts' role in a real browser: a site administrator signs in on the admin, and a
workspace page refuses them with the app's page, its reason, the way to the admin and a logout. (A live trial:
a bare, unstyled "403 Forbidden" right after login.)"""

import re

import pytest
from playwright.sync_api import expect

from foundation.roles import EXPERTS, SITE_ADMINISTRATORS, ensure_groups
from tests.e2e import demo_data
from tests.e2e.test_workspace import login

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_site_administrator_lands_on_the_admin_and_a_refusal_says_why(page, live_server, django_user_model):
    sam = django_user_model.objects.create_user("sam", password=demo_data.PASSWORD, is_staff=True)
    sam.groups.add(ensure_groups()[SITE_ADMINISTRATORS])
    login(page, live_server, username="sam")  # from "/", the inbox: the login page's next is "/"
    expect(page).to_have_url(f"{live_server.url}/admin/")

    page.goto(f"{live_server.url}/folders/")
    expect(page.locator("h1")).to_have_text("Not allowed")
    expect(page.locator("main")).to_contain_text("This page is for experts.")
    expect(page.locator("header.topbar .who")).to_have_text("sam")
    # the app's stylesheet is applied (the bare page had none)
    assert page.locator("header.topbar").evaluate("el => getComputedStyle(el).display") == "flex"
    page.get_by_role("link", name="Go to the site administration").click()
    expect(page).to_have_url(f"{live_server.url}/admin/")

    page.goto(f"{live_server.url}/folders/")
    page.locator("main").get_by_role("button", name="Log out").click()
    expect(page).to_have_url(re.compile(r"/accounts/login/"))


def test_a_user_with_no_role_lands_on_the_public_feeds(page, live_server, django_user_model):
    django_user_model.objects.create_user("nora", password=demo_data.PASSWORD)
    login(page, live_server, username="nora")
    expect(page).to_have_url(f"{live_server.url}/feeds/")


def _header_links(page) -> list[str]:
    return page.locator("header.topbar nav a").all_inner_texts()


def test_the_header_offers_each_user_only_the_links_they_may_open(page, live_server, django_user_model):
    """A live trial: a site administrator and a subscriber were offered the workspace's links (inbox, folders,
    subscriptions, dashboards), each a 403 to them. Every link the header shows must open."""
    groups = ensure_groups()
    sam = django_user_model.objects.create_user("sam", password=demo_data.PASSWORD, is_staff=True)
    sam.groups.add(groups[SITE_ADMINISTRATORS])
    django_user_model.objects.create_user("nora", password=demo_data.PASSWORD)
    ada = django_user_model.objects.create_user("ada", password=demo_data.PASSWORD)
    ada.groups.add(groups[EXPERTS])
    expected = {
        "sam": ("/admin/", ["Feeds", "API", "Admin"]),
        "nora": ("/feeds/", ["Feeds", "API"]),
        "ada": ("/", ["Inbox", "Folders", "Corrections", "Feeds", "Subscriptions", "Dashboards", "API"]),
    }
    for username, (landing, links) in expected.items():
        login(page, live_server, username=username)
        page.goto(f"{live_server.url}/feeds/")
        assert _header_links(page) == links, username
        # the WIMS link goes where this user lands after login (it was the inbox, a 403 for all but experts)
        assert page.locator("header.topbar a.brand").get_attribute("href") == landing, username
        for link in page.locator("header.topbar nav a").all():
            response = page.request.get(f"{live_server.url}{link.get_attribute('href')}")
            assert response.status == 200, (username, link.get_attribute("href"))
        # the ? dialog lists no key of a link the header does not show
        page.keyboard.press("?")
        dialog = page.locator("dialog#shortcuts")
        expect(dialog).to_be_visible()
        assert ("inbox" in dialog.locator("dd").all_inner_texts()) == ("Inbox" in links), username
        page.keyboard.press("Escape")
        page.locator("header.topbar .logout button").click()
        expect(page).to_have_url(re.compile(r"/accounts/login/"))
