"""An article opened from search results keeps its search, in Chromium: its list is the search (u goes back to
it, query and filters kept), and j / k step through the results, as they step through the inbox's view for an
article opened from the inbox. (A live trial: the article page's links led to the inbox, the search was lost.)"""

import re

import pytest
from playwright.sync_api import expect

from search import services as search_services
from search.forms import SearchForm
from tests.e2e import demo_data
from tests.e2e.test_workspace import login

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_an_article_opened_from_search_results_goes_back_to_them_and_steps_through_them(
    page, live_server, django_user_model
):
    demo_data.load(django_user_model)
    form = SearchForm({"q": "diabetes"})
    assert form.is_valid()
    ranked = [r.article.pk for r in search_services.search("diabetes", **form.filters()).results]
    assert len(ranked) >= 3, ranked
    login(page, live_server)
    page.locator("#search-box").fill("diabetes")
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/search/\?q=diabetes"))

    page.locator(".result-title").nth(1).click()
    expect(page).to_have_url(re.compile(rf"/articles/{ranked[1]}/\?"))
    nav = page.locator("#view-nav")
    expect(nav.get_by_role("link", name="Search results")).to_be_visible()
    expect(page.locator("#progress")).to_have_text("result 2 of this search")

    page.keyboard.press("j")  # the next result, not the inbox's next article
    expect(page).to_have_url(re.compile(rf"/articles/{ranked[2]}/\?"))
    page.keyboard.press("k")
    expect(page).to_have_url(re.compile(rf"/articles/{ranked[1]}/\?"))
    page.keyboard.press("k")
    expect(page).to_have_url(re.compile(rf"/articles/{ranked[0]}/\?"))
    expect(nav.locator("a[rel=prev]")).to_have_count(0)  # the first result has none before it

    page.keyboard.press("u")  # back to the list it was opened from: the search, with its query
    expect(page).to_have_url(re.compile(r"/search/\?q=diabetes$"))
    expect(page.locator("#search-box")).to_have_value("diabetes")
    expect(page.locator(".result-title")).to_have_count(len(ranked))


def test_a_rejection_made_from_search_results_keeps_the_search(page, live_server, django_user_model):
    """A live trial: an article opened from search, rejected, sent the expert to the inbox: the rule page led back
    to the inbox and to the article without its search. The rule page leads back to both, the search kept, and the
    stopping rule made opens the search's next result."""
    demo_data.load(django_user_model)
    form = SearchForm({"q": "diabetes"})
    assert form.is_valid()
    ranked = [r.article.pk for r in search_services.search("diabetes", **form.filters()).results]
    login(page, live_server)
    page.goto(f"{live_server.url}/search/?q=diabetes")
    page.locator(".result-title").nth(1).click()
    expect(page.locator("#progress")).to_have_text("result 2 of this search")

    page.locator(".suggestion", has_text="Health/Diabetes").get_by_role("button", name="Reject").click()
    expect(page).to_have_url(re.compile(rf"/articles/{ranked[1]}/rule\?.*kind=stop"))
    crumbs = page.locator("nav.breadcrumbs")
    expect(crumbs.get_by_role("link", name="Search results")).to_have_attribute("href", "/search/?q=diabetes")
    page.keyboard.press("b")  # back to the article, among the search results still
    expect(page.locator("#progress")).to_have_text("result 2 of this search")
    page.go_back()

    page.locator("#difference-list label.kw").first.click()
    expect(page.locator("ul.errors")).to_have_count(0)
    page.keyboard.press("Control+Enter")
    expect(page.locator(".messages")).to_contain_text("committed")
    expect(page).to_have_url(re.compile(rf"/articles/{ranked[2]}/\?"))  # the next result, not the inbox's next
    expect(page.locator("#progress")).to_have_text("result 3 of this search")
