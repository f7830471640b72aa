"""Rejection is a decision, kept, and the "would reclassify" list acts (issue 16, items 2 and 6), in Chromium."""

import re

import pytest
from playwright.sync_api import expect

from classifier.models import Classification, Correction, Rule
from tests.e2e import demo_data
from tests.e2e.test_workspace import FOOTBALL, WALKING, folders_of, login

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_rejection_left_on_the_rule_page_waits_in_the_list_and_its_rule_is_made_later(
    page, live_server, django_user_model, shot
):
    data = demo_data.load(django_user_model, slugs={WALKING, FOOTBALL})
    walking = data["articles"][WALKING]
    login(page, live_server)
    expect(page.locator("#nav-corrections .nav-count")).to_have_count(0)  # nothing waits yet
    page.goto(f"{live_server.url}/articles/{walking.pk}/")
    page.keyboard.press("1")
    page.keyboard.press("r")
    expect(page).to_have_url(re.compile(r"kind=stop"))
    expect(page.locator("#pending-correction")).to_contain_text("rejected, rule pending")

    # the expert leaves the rule page: the decision is kept, the article says so
    page.goto(f"{live_server.url}/articles/{walking.pk}/")
    suggestion = page.locator(".suggestion", has_text="Health/Diabetes")
    expect(suggestion.locator(".badge")).to_have_text("rejected, rule pending")
    expect(page.locator(".article-meta .badge")).to_have_text("rejected, rule pending")
    expect(suggestion).to_contain_text("Rejected by ada")
    assert ("Health/Diabetes", "rejected") in folders_of(walking)

    # the inbox filters such articles; the header counts them and links the list
    page.goto(f"{live_server.url}/?state=correction")
    expect(page.locator("table.inbox tbody tr")).to_have_count(1)
    expect(page.locator("table.inbox")).to_contain_text(walking.title)
    expect(page.locator("#nav-corrections .nav-count")).to_have_text("1")
    page.locator("#nav-corrections").click()
    expect(page.locator("h1")).to_have_text("Rejected, rule pending")
    row = page.locator("#corrections tbody tr", has_text=walking.title)
    expect(row).to_contain_text("Health/Diabetes")
    expect(row).to_contain_text("ada")
    page.get_by_role("link", name=re.compile("Mine")).click()
    expect(page.locator("#corrections tbody tr", has_text=walking.title)).to_have_count(1)
    shot(page, "corrections")

    # later, from the list: make the stopping rule; the correction is resolved with it
    page.locator("#corrections tbody tr", has_text=walking.title).get_by_role("link", name="Make the").click()
    expect(page).to_have_url(re.compile(r"kind=stop.*wrong="))
    page.fill("#word-search", "walking")
    page.locator("#difference-list label.kw", has_text=re.compile(r"^walking \d+$")).click()
    expect(page.locator("#proposal")).to_contain_text("THEN withhold Health/Diabetes (stopping rule")
    page.get_by_role("button", name=re.compile("Commit rule")).click()
    expect(page.locator("h1")).to_have_text("Rule committed")
    stop = Rule.objects.order_by("-id").first()
    correction = Correction.objects.get(case__article=walking)
    assert (correction.state, correction.rule_id) == ("resolved", stop.pk)
    page.goto(f"{live_server.url}/corrections/")
    expect(page.locator("#corrections")).to_contain_text("No rejection is waiting for its rule")
    expect(page.locator("#nav-corrections .nav-count")).to_have_count(0)
    page.goto(f"{live_server.url}/articles/{walking.pk}/")
    expect(page.locator(".article-meta .badge")).to_have_text("reviewed")
    assert page.dialogs == [] and page.console_errors == []


def test_a_rejection_can_be_withdrawn_before_its_rule_exists(page, live_server, django_user_model):
    data = demo_data.load(django_user_model, slugs={WALKING})
    walking = data["articles"][WALKING]
    login(page, live_server)
    page.goto(f"{live_server.url}/articles/{walking.pk}/")
    page.locator(".suggestion", has_text="Health/Diabetes").get_by_role("button", name="Reject").click()
    page.goto(f"{live_server.url}/articles/{walking.pk}/")
    page.get_by_role("button", name="Withdraw the rejection").click()
    expect(page.locator(".messages")).to_contain_text("withdrawn")
    expect(page.locator(".suggestion", has_text="Health/Diabetes").locator(".badge")).to_have_text("suggested")
    expect(page.locator(".article-meta .badge")).to_have_text("suggested")
    assert ("Health/Diabetes", "suggested") in folders_of(walking)
    assert Correction.objects.get().state == "withdrawn"
    assert page.dialogs == [] and page.console_errors == []


def _draft_for_exercise(page, live_server, walking):
    page.goto(f"{live_server.url}/articles/{walking.pk}/")
    page.keyboard.press("c")
    page.select_option("#folder-select", label="Health/Exercise")
    page.fill("#word-search", "walking")
    page.locator("#difference-list label.kw", has_text=re.compile(r"^walking \d+$")).click()
    expect(page.locator("#proposal")).to_contain_text("walking")


def test_an_article_excluded_from_the_would_reclassify_list_stays_unchanged(page, live_server, django_user_model, shot):
    data = demo_data.load(django_user_model, slugs={WALKING, FOOTBALL})
    walking, football = data["articles"][WALKING], data["articles"][FOOTBALL]
    login(page, live_server)
    _draft_for_exercise(page, live_server, walking)
    expect(page.locator("#cornerstones h2")).to_contain_text(": 0")
    expect(page.locator("#commit")).to_be_enabled()
    page.keyboard.press("l")
    swept = page.locator("#affected-list tr", has_text=football.title)
    expect(swept).to_contain_text("Health/Exercise")

    # the football article must not change: kept, it is listed as a case to leave unchanged (live, no reload)
    swept.get_by_role("button", name="Keep unchanged").click()
    kept = page.locator("details.stone.kept", has_text=football.title)
    expect(kept).to_be_visible()
    assert "kind=new" in page.url  # updated in place by the page's script (a form post would leave the query)
    expect(page.locator("#cornerstones h2")).to_contain_text(": 0, and 1 article that must not change")
    expect(page.locator("#affected-list tr", has_text=football.title)).to_contain_text("must not change")
    expect(page.locator("#commit")).to_be_disabled()
    # the difference lists are now computed against it: the best word leaves it unchanged
    expect(page.locator("#difference-list label.kw").first).to_have_attribute("data-excludes", "1")
    kept.locator("summary strong").click()
    page.locator("#cornerstones").evaluate("e => e.scrollIntoView()")
    shot(page, "rule-keep-unchanged")
    word = kept.locator(".body .kw-list label.kw").first
    chosen = word.inner_text()
    word.click()
    expect(page.locator("#proposal")).to_contain_text(chosen)
    expect(page.locator("details.stone.kept")).to_have_count(0)
    expect(page.locator(".kept-unchanged")).to_contain_text("must not change, and this rule leaves it unchanged")
    expect(page.locator("#affected-list tr", has_text=football.title)).to_have_count(0)
    expect(page.locator("#commit")).to_be_enabled()
    page.locator("#commit").click()
    expect(page.locator("h1")).to_have_text("Rule committed")
    assert ("Health/Exercise", "accepted") in folders_of(walking)
    assert not Classification.objects.filter(case__article=football, folder__path="Health/Exercise").exists()
    assert page.dialogs == [] and page.console_errors == []


def test_keeping_an_article_unchanged_works_without_javascript(browser, live_server, django_user_model):
    data = demo_data.load(django_user_model, slugs={WALKING, FOOTBALL})
    walking, football = data["articles"][WALKING], data["articles"][FOOTBALL]
    exercise = data["folders"]["exercise"]
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    try:
        login(page, live_server)
        page.goto(f"{live_server.url}/articles/{walking.pk}/rule?kind=new&folder={exercise.pk}&c=walking&affected=1")
        swept = page.locator("#affected-list tr", has_text=football.title)
        swept.get_by_role("button", name="Keep unchanged").click()  # posts the whole draft to the rule page
        expect(page.locator("details.stone.kept", has_text=football.title)).to_have_count(1)
        expect(page.locator("#commit")).to_be_disabled()
        expect(page.locator("#proposal")).to_contain_text("walking")
    finally:
        context.close()
