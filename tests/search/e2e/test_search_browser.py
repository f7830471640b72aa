"""Search in a real browser: the header's box, highlighted and escaped results, saving a search, its feed."""

import re

import feedparser
import pytest
import requests
from django.utils import timezone
from playwright.sync_api import expect

from classifier.models import Case, Classification
from monitor.models import Article
from search import services
from search.models import SavedSearch
from tests.articles import create_article
from tests.e2e import demo_data

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_search_from_the_header_save_it_and_read_its_feed(page, live_server, django_user_model, shot):
    data = demo_data.load(django_user_model)
    site = next(iter(data["sites"].values()))[0]
    hostile = create_article(
        site=site,
        url="http://hostile.test/diabetes",
        title="<img src=x onerror=alert(1)> Diabetes myths",
        core_text="Diabetes myths <script>alert('x')</script> debunked by nurses.",
    )
    Article.objects.update(state="processed", processed_at=timezone.now())
    services.reindex()
    # an open feed publishes the matches experts accepted into a public folder (feeds.syndication.publicly_accepted)
    public = data["folders"]["diabetes"]
    assert public.public
    for article in Article.objects.all():
        case, _ = Case.objects.get_or_create(article=article)
        Classification.objects.update_or_create(case=case, folder=public, defaults={"state": "accepted"})

    page.goto(f"{live_server.url}/")
    page.fill("input[name=username]", "ada")
    page.fill("input[name=password]", demo_data.PASSWORD)
    page.click("button[type=submit]")
    expect(page.locator("h1")).to_have_text("Inbox")

    page.keyboard.press("/")  # the header's search box
    page.keyboard.type("diabetes")
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/search/\?q=diabetes"))
    results = page.locator("ol.results > li")
    expect(results.first).to_be_visible()
    assert results.count() >= 2
    expect(page.locator(".snippet mark").first).to_have_text(re.compile("diabetes", re.I))
    hostile_row = results.filter(has_text="Diabetes myths")
    expect(hostile_row.locator(".result-title")).to_have_text("<img src=x onerror=alert(1)> Diabetes myths")
    expect(hostile_row.locator(".snippet")).to_contain_text("<script>alert('x')</script>")
    assert page.dialogs == [], "no script of an article ran"
    shot(page, "search")

    # a filter, then save the search with it
    page.select_option("select[name=site]", str(site.pk))
    page.click("form.filters button[type=submit]")
    expect(page.locator("ol.results > li").first).to_be_visible()
    page.click("details.save-search summary")
    page.fill("details.save-search input[name=name]", "Diabetes here")
    page.click("details.save-search button[type=submit]")
    expect(page.locator("h1")).to_have_text("Saved searches")
    expect(page.locator(".messages")).to_contain_text("Saved as")
    saved = SavedSearch.objects.get(name="Diabetes here")
    assert saved.site_id == site.pk and saved.query == "diabetes"
    row = page.locator("table.saved-searches tbody tr", has_text="Diabetes here")
    expect(row).to_contain_text("get a token")  # private: no open feed

    row.locator("input[name=public]").check()
    row.get_by_role("button", name="Save").click()
    row = page.locator("table.saved-searches tbody tr", has_text="Diabetes here")
    # Atom titles are text (RSS ones are HTML-escaped once more for readers that render them as HTML)
    feed_url = row.get_by_role("link", name="Atom").get_attribute("href")
    feed = feedparser.parse(requests.get(live_server.url + feed_url, timeout=10).content)
    expected = {a.title for a in services.saved_search_articles(saved)}
    assert expected and {e.title for e in feed.entries} == expected
    assert hostile.title in expected
    shot(page, "saved-searches")

    # opening the saved search shows its results
    row.get_by_role("link", name="Diabetes here").click()
    expect(page.locator("select[name=site]")).to_have_value(str(site.pk))
    expect(page.locator("ol.results > li").first).to_be_visible()
