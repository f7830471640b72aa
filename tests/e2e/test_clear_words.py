"""Clear words in the browser: one status vocabulary, no contradicting texts after a rejection, cases named by
their article's title, and a rule page that opens without an error."""

import re

import pytest
from playwright.sync_api import expect

from classifier.models import Rule
from classifier.vocabulary import ARTICLE_STATES, FOLDER_STATES
from tests.e2e import demo_data
from tests.e2e.test_workspace import CORNERSTONE, FOOTBALL, WALKING, login

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_rejected_folder_reads_the_same_everywhere(page, live_server, django_user_model):
    data = demo_data.load(django_user_model, slugs={WALKING, FOOTBALL})
    walking = data["articles"][WALKING]
    login(page, live_server)

    # one word for "a rule suggests a folder nobody decided on": inbox badge, filter choice, article, chips
    suggested = ARTICLE_STATES["suggested"].word
    row = page.locator("table.inbox tbody tr", has_text=walking.title)
    expect(row.locator(".badge")).to_have_text(suggested)
    expect(row.locator(".folder-chip")).to_contain_text(f"Health/Diabetes {FOLDER_STATES['suggested'].word}")
    expect(page.locator("select[name=state] option[value=suggested]")).to_contain_text(suggested.capitalize())
    page.goto(f"{live_server.url}/articles/{walking.pk}/")
    expect(page.locator("#review-state")).to_have_text(suggested)

    # reject Diabetes: the rule page opens without an error and says the folder is rejected, not "now in" it
    page.keyboard.press("1")
    page.keyboard.press("r")
    expect(page).to_have_url(re.compile(r"kind=stop"))
    expect(page.locator("ul.errors")).to_have_count(0)
    folders = page.locator("#article-folders")
    expect(folders).to_contain_text("Health/Diabetes rejected")
    expect(page.get_by_text("Now in:")).to_have_count(0)
    page.fill("#word-search", "walking")
    page.locator("#difference-list label.kw", has_text=re.compile(r"^walking \d+$")).click()
    expect(page.locator("#proposal")).to_contain_text("walking")
    expect(page.locator("ul.errors")).to_have_count(0)
    page.keyboard.press("Control+Enter")
    expect(page.locator(".messages")).to_contain_text("committed")
    stop = Rule.objects.order_by("-id").first()

    # the article gives one account: rejected by the expert, withheld by the stopping rule
    page.goto(f"{live_server.url}/articles/{walking.pk}/")
    diabetes = page.locator(".suggestion", has_text="Health/Diabetes")
    expect(diabetes.locator(".badge")).to_have_text(FOLDER_STATES["rejected"].word)
    expect(diabetes.locator(".why")).to_contain_text(f"Rejected by ada; withheld by the stopping rule {stop.pk}")
    expect(page.locator("#folders")).not_to_contain_text("no rule gives this folder now")
    expect(page.locator("#folders")).not_to_contain_text("Withheld:")
    expect(page.locator("#review-state")).to_have_text(ARTICLE_STATES["reviewed"].word)
    assert page.dialogs == [] and page.console_errors == []


def test_cases_are_named_by_their_article_s_title(page, live_server, django_user_model):
    data = demo_data.load(django_user_model, slugs={WALKING})
    walking, stone = data["articles"][WALKING], data["articles"][CORNERSTONE]
    login(page, live_server)
    page.goto(f"{live_server.url}/articles/{walking.pk}/")

    # the rule page opens without an error: what to do next is a plain prompt
    page.keyboard.press("c")
    expect(page).to_have_url(re.compile(r"/rule\?kind=new"))
    expect(page.locator("ul.errors")).to_have_count(0)
    expect(page.locator("#next-step")).to_contain_text("Choose the folder the article belongs in")

    # a cornerstone change, accepted, then no longer made: still named by its article's title
    page.select_option("#folder-select", label="Health/Exercise")
    expect(page.locator("#next-step")).to_have_count(0)
    expect(page.locator("ul.errors")).to_have_count(0)
    page.fill("#word-search", "people")
    page.locator("#difference-list label.kw", has_text=re.compile(r"^people \d+$")).click()
    stone_case = page.locator("details.stone", has_text=stone.title)
    stone_case.get_by_label("accept this change").check()
    expect(page.locator("#decisions")).to_contain_text("1 accepted")
    page.fill("#word-search", "walking")
    page.locator("#difference-list label.kw", has_text=re.compile(r"^walking \d+$")).click()
    unchanged = page.locator("#cornerstones p.muted", has_text="change accepted, but this rule no longer changes it")
    expect(unchanged).to_contain_text(stone.title)
    expect(page.locator("#cornerstones")).not_to_contain_text(re.compile(r"\bcase \d+"))

    # the rule's page names its cornerstone case and its folders in the same words
    page.keyboard.press("Control+Enter")
    expect(page.locator("h1")).to_have_text("Rule committed")
    expect(page.locator("#cornerstone")).to_contain_text(walking.title)
    expect(page.locator("#cornerstone")).not_to_contain_text(re.compile(r"\bcase \d+"))
    expect(page.locator("#cornerstone")).to_contain_text("its folders now")
    assert page.dialogs == [] and page.console_errors == []


def test_m_moves_with_the_keyboard_alone(page, live_server, django_user_model):
    """m focuses the move form's folder picker and Enter there moves (the key no longer only focuses)."""
    data = demo_data.load(django_user_model, slugs={WALKING})
    walking = data["articles"][WALKING]
    login(page, live_server)
    page.goto(f"{live_server.url}/articles/{walking.pk}/")
    page.keyboard.press("m")
    expect(page.locator("#id_to_folder")).to_be_focused()
    page.select_option("#id_from_folder", label="Health/Diabetes")
    page.locator("#id_to_folder").focus()
    page.keyboard.type("Health/Ex")  # a select's type-ahead picks the folder
    expect(page.locator("#id_to_folder option:checked")).to_have_text("Health/Exercise")
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/rule\?kind=refine"))
    expect(page.locator("ul.errors")).to_have_count(0)
