"""The experts' workspace in a real browser: the full classification and rule-building flow."""

import re

import pytest
from playwright.sync_api import expect

from classifier.models import Classification, Rule
from tests.e2e import demo_data

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WALKING = "walking-after-meals-type-2-diabetes"  # topics diabetes + exercise
FOOTBALL = "walking-football-heart-health"  # shares "people" and "walking" with it
CORNERSTONE = "diabetes-foot-clinic-opens"  # the cornerstone case of the "diabetes" rule


def login(page, live_server, username="ada"):
    page.goto(f"{live_server.url}/")
    expect(page).to_have_url(re.compile(r"/accounts/login/"))  # anonymous: nothing but the login page
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", demo_data.PASSWORD)
    page.click("button[type=submit]")


def folders_of(article):
    return {
        (row.folder.path, row.state)
        for row in Classification.objects.filter(case__article=article).select_related("folder")
    }


def test_classify_and_build_a_rule_with_a_cornerstone_case_then_undo(page, live_server, django_user_model, shot):
    data = demo_data.load(django_user_model)
    walking, football = data["articles"][WALKING], data["articles"][FOOTBALL]
    stone = data["articles"][CORNERSTONE]

    _find_the_article_in_the_inbox(page, live_server, walking, data["articles"], shot)
    _accept_the_suggestion(page, walking, shot)
    _propose_a_rule_that_would_change_the_cornerstone_case(page, stone, shot)
    _keep_the_cornerstone_case_and_list_the_affected(page, football, shot)
    rule, affected_row = _commit(page, walking, football, stone, shot)
    _undo_from_the_affected_article(page, rule, affected_row, walking, football)
    assert page.dialogs == [] and page.console_errors == []


def _find_the_article_in_the_inbox(page, live_server, walking, articles, shot):
    # log in and find the article in the inbox: by default what waits for review, every article but the
    # cornerstone case (reviewed)
    login(page, live_server)
    expect(page.locator("h1")).to_have_text("Inbox")
    expect(page.locator("select[name=state]")).to_have_value("waiting")
    expect(page.locator("table.inbox tbody tr")).to_have_count(len(articles) - 1)
    expect(page.locator(f'tr[data-href^="/articles/{articles[CORNERSTONE].pk}/"]')).to_have_count(0)
    shot(page, "inbox")
    page.select_option("select[name=state]", "suggested")
    page.click("form.filters button[type=submit]")
    page.get_by_role("link", name=walking.title).click()


def _accept_the_suggestion(page, walking, shot):
    # the article page: core text, the original link, and the suggestion with its rule path
    expect(page.locator("#article-title")).to_have_text(walking.title)
    expect(page.locator("#core-text")).to_contain_text("walk")
    suggestion = page.locator(".suggestion", has_text="Health/Diabetes")
    expect(suggestion.locator(".why")).to_contain_text("diabetes → Health/Diabetes")
    shot(page, "article")

    # accept the suggestion with the keyboard
    page.keyboard.press("a")
    expect(page.locator(".messages")).to_contain_text("Accepted: Health/Diabetes")
    expect(suggestion.locator(".badge")).to_have_text("accepted")
    assert ("Health/Diabetes", "accepted") in folders_of(walking)


def _propose_a_rule_that_would_change_the_cornerstone_case(page, stone, shot):
    # add the missing folder: a new rule for Health/Exercise
    page.keyboard.press("c")
    expect(page).to_have_url(re.compile(r"/rule\?kind=new"))
    page.select_option("#folder-select", label="Health/Exercise")
    expect(page.locator("#difference-list label.kw")).to_have_count(20)  # the best ranked first
    # a keyword the cornerstone case also has (ranked low: it excludes nothing), found by the search
    page.fill("#word-search", "peop")  # the word, and the phrases that hold it ("people with"...)
    expect(page.locator("#difference-list label.kw", has_text=re.compile(r"^people \d+$"))).to_have_count(1)
    expect(page.locator("#difference-list label.kw", has_text=re.compile(r"^(?!.*peop)"))).to_have_count(0)
    expect(page.locator("#word-search")).to_be_focused()
    # that case would change, and it is shown
    page.locator("#difference-list label.kw", has_text=re.compile(r"^people \d+$")).click()
    expect(page.locator("#proposal")).to_contain_text("people")
    stone_case = page.locator("details.stone", has_text=stone.title)
    expect(stone_case).to_be_visible()
    expect(stone_case.locator(".change")).to_contain_text("Health/Diabetes → Health/Diabetes, Health/Exercise")
    stone_case.locator("summary strong").click()  # expand: its text and the keywords it differs by
    expect(stone_case.locator(".text")).to_be_visible()
    expect(stone_case.locator(".text")).to_contain_text("foot")
    expect(stone_case.locator(".body")).to_contain_text("Keywords only the cornerstone case has")
    page.locator("#cornerstones").evaluate("e => e.scrollIntoView()")
    shot(page, "rule-cornerstone")


def _keep_the_cornerstone_case_and_list_the_affected(page, football, shot):
    # it must not change: the commit waits for a decision; both lists work against it alone
    expect(page.locator("#commit")).to_be_disabled()
    page.fill("#word-search", "barefoot")  # a word of the cornerstone case only: a must-be-absent candidate
    expect(page.locator("#absent-list label.kw", has_text=re.compile(r"^barefoot \d+$"))).to_have_count(1)
    expect(page.locator("#difference-list label.kw")).to_have_count(0)
    page.fill("#word-search", "walking")
    expect(page.locator("#difference-list label.kw", has_text=re.compile(r"^walking \d+$"))).to_have_count(1)
    page.locator("#difference-list label.kw", has_text=re.compile(r"^walking \d+$")).click()
    expect(page.locator("#cornerstones")).to_contain_text("None: no case an earlier rule was made for would change")
    expect(page.locator("#proposal")).to_contain_text("walking")
    expect(page.locator("#commit")).to_be_enabled()

    # on request: every stored article the rule would reclassify
    page.keyboard.press("l")
    expect(page.locator("#affected table")).to_contain_text(football.title)
    page.locator("#cornerstones").evaluate("e => e.scrollIntoView()")
    shot(page, "rule-affected")


def _commit(page, walking, football, stone, shot):
    # commit (Ctrl+Enter): the article and an affected article show their new folders
    page.keyboard.press("Control+Enter")
    expect(page.locator("h1")).to_have_text("Rule committed")
    expect(page.locator("#rule-summary")).to_contain_text("people & walking → Health/Exercise")
    expect(page.locator("#cornerstone")).to_contain_text("Health/Exercise")
    affected_row = page.locator("#reclassified tr", has_text=football.title)
    expect(affected_row).to_contain_text("Health/Exercise")
    shot(page, "rule-committed")
    rule = Rule.objects.order_by("-id").first()
    assert sorted(rule.conditions) == ["people", "walking"] and rule.cornerstone.article_id == walking.pk
    assert ("Health/Exercise", "accepted") in folders_of(walking)
    assert ("Health/Exercise", "suggested") in folders_of(football)
    assert ("Health/Exercise", "suggested") not in folders_of(stone)
    return rule, affected_row


def _undo_from_the_affected_article(page, rule, affected_row, walking, football):
    # the affected article's page says why
    affected_row.get_by_role("link").click()
    expect(page.locator(".suggestion", has_text="Health/Exercise").locator(".why")).to_contain_text(
        "people & walking → Health/Exercise"
    )

    # undo the rule from the article page: a confirm step first says what changes back (a live trial's undo
    # asked nothing); cancelling changes nothing
    page.get_by_role("button", name="Undo last rule").click()
    expect(page.locator("h1")).to_have_text(f"Undo rule {rule.pk}?")
    expect(page.locator("#undo-articles")).to_contain_text(re.compile(r"^\d+ articles? changes? back"))
    page.get_by_role("link", name="Cancel").click()
    expect(page.locator(".suggestion", has_text="Health/Exercise")).to_have_count(1)
    assert Rule.objects.filter(pk=rule.pk).exists()
    page.get_by_role("button", name="Undo last rule").click()
    page.get_by_role("button", name=f"Undo rule {rule.pk}").click()
    expect(page.locator(".messages")).to_contain_text(f"Undone: rule {rule.pk}")
    expect(page.locator(".suggestion", has_text="Health/Exercise")).to_have_count(0)
    assert not Rule.objects.filter(pk=rule.pk).exists()
    assert not any(path == "Health/Exercise" for path, _ in folders_of(football))
    assert ("Health/Exercise", "accepted") not in folders_of(walking)


def test_accepting_a_cornerstone_change_changes_the_case_s_folders(page, live_server, django_user_model, shot):
    """The expert lets the cornerstone case change: it is accepted in the new folder by the same commit."""
    data = demo_data.load(django_user_model, slugs={WALKING})
    walking, stone = data["articles"][WALKING], data["articles"][CORNERSTONE]
    assert folders_of(stone) == {("Health/Diabetes", "accepted")}
    login(page, live_server)
    page.goto(f"{live_server.url}/articles/{walking.pk}/")
    page.keyboard.press("c")
    page.select_option("#folder-select", label="Health/Exercise")
    page.fill("#word-search", "people")
    page.locator("#difference-list label.kw", has_text=re.compile(r"^people \d+$")).click()
    stone_case = page.locator("details.stone", has_text=stone.title)
    expect(stone_case.locator(".change")).to_contain_text("Health/Diabetes → Health/Diabetes, Health/Exercise")
    expect(page.locator("#commit")).to_be_disabled()
    stone_case.get_by_label("accept this change").check()
    expect(page.locator("#decisions")).to_contain_text("1 accepted")
    expect(page.locator("#commit")).to_be_enabled()
    shot(page, "rule-accept-change")
    page.locator("#commit").click()
    expect(page.locator("h1")).to_have_text("Rule committed")
    # the cornerstone case's article shows its new folder, accepted by this expert
    page.goto(f"{live_server.url}/articles/{stone.pk}/")
    exercise = page.locator(".suggestion", has_text="Health/Exercise")
    expect(exercise.locator(".badge")).to_have_text("accepted")
    assert folders_of(stone) == {("Health/Diabetes", "accepted"), ("Health/Exercise", "accepted")}
    rule = Rule.objects.order_by("-id").first()
    assert set(rule.cornerstones.values_list("article_id", flat=True)) == {walking.pk, stone.pk}
    assert page.dialogs == [] and page.console_errors == []


def test_reject_starts_a_stopping_rule_and_folders_explain(page, live_server, django_user_model, shot):
    data = demo_data.load(django_user_model, slugs={WALKING, FOOTBALL, "teenager-type-1-diabetes"})
    walking = data["articles"][WALKING]
    login(page, live_server)
    page.goto(f"{live_server.url}/articles/{walking.pk}/")
    page.keyboard.press("1")  # select the first suggestion
    page.keyboard.press("r")  # reject it: a stopping rule
    expect(page).to_have_url(re.compile(r"kind=stop"))
    # one notice says the rejection once (the rule page's), not a message repeating it
    expect(page.locator(".messages")).to_have_count(0)
    expect(page.locator("#pending-correction")).to_contain_text("Rejected Health/Diabetes")
    expect(page.locator("#pending-correction")).to_contain_text("Make the rule that corrects it now")
    # a stopping rule gives no folder: no box to create one; the breadcrumb names the kind
    expect(page.locator("#folder-create")).to_be_hidden()
    expect(page.locator(".breadcrumbs")).to_contain_text("› stopping rule")
    page.fill("#word-search", "walking")
    page.locator("#difference-list label.kw", has_text=re.compile(r"^walking \d+$")).click()
    expect(page.locator("#proposal")).to_contain_text("THEN withhold Health/Diabetes (stopping rule")
    # another kind chosen on the page: the box and the breadcrumb follow it
    page.locator('input[name="kind"][value="refine"]').check()
    expect(page.locator("#folder-create")).to_be_visible()
    expect(page.locator(".breadcrumbs")).to_contain_text("› refining rule")
    page.locator('input[name="kind"][value="stop"]').check()
    expect(page.locator("#folder-create")).to_be_hidden()
    # the page redraws the draft for the kind chosen (its lists come from the server): wait for the word to be
    # back in the rule before committing, as an expert would (clicking at once raced the redraw)
    expect(page.locator("#proposal")).to_contain_text("IF walking THEN withhold Health/Diabetes (stopping rule")
    expect(page.get_by_role("button", name=re.compile("Commit rule"))).to_be_enabled()
    page.get_by_role("button", name=re.compile("Commit rule")).click()
    # the rejection is done: the next article of the inbox opens; the rule page shows the stop
    expect(page.locator(".messages")).to_contain_text("committed")
    stop = Rule.objects.order_by("-id").first()
    page.goto(f"{live_server.url}/rules/{stop.pk}/")
    expect(page.locator("#rule-summary")).to_contain_text("STOP")
    assert stop.folder is None and stop.parent_id == data["rule"].pk

    page.goto(f"{live_server.url}/folders/")
    expect(page.locator("#folder-tree")).to_contain_text("Diabetes")
    shot(page, "folders")
    page.locator("#folder-tree a", has_text="Diabetes").click()
    expect(page.locator("#folder-rules")).to_contain_text("diabetes → Health/Diabetes")
    expect(page.locator("#folder-articles")).to_contain_text(data["articles"][CORNERSTONE].title)
    page.locator("#folder-rules summary").first.click()
    expect(page.locator("#folder-rules")).to_contain_text("walking → STOP")
    shot(page, "folder")


def test_refining_by_keyboard_starts_on_the_folder_and_a_blocked_commit_says_why(page, live_server, django_user_model):
    """A live trial: after `e` the focus stayed on the page (a keyboard user tabbed to the folder chooser), and
    Ctrl+Enter with the commit disabled did nothing, its reason only in the button's tooltip."""
    data = demo_data.load(django_user_model, slugs={WALKING, FOOTBALL})
    login(page, live_server)
    page.goto(f"{live_server.url}/articles/{data['articles'][WALKING].pk}/")
    page.keyboard.press("1")
    page.keyboard.press("e")  # reject the suggestion and refine it to the right folder
    expect(page).to_have_url(re.compile(r"kind=refine"))
    expect(page.locator("#folder-select")).to_be_focused()
    page.select_option("#folder-select", str(data["folders"]["exercise"].pk))
    expect(page.locator("#commit")).to_be_disabled()
    page.keyboard.press("Control+Enter")
    expect(page.locator(".messages")).to_contain_text("Not yet: pick at least one keyword first.")


def test_filter_view_marking_mode(page, live_server, django_user_model, shot):
    data = demo_data.load(django_user_model, slugs={WALKING})
    walking = data["articles"][WALKING]
    login(page, live_server)
    page.goto(f"{live_server.url}/articles/{walking.pk}/")
    page.keyboard.press("f")
    expect(page.locator("h1")).to_have_text("Filter view")
    expect(page.locator("ol.phrases li.removed del").first).to_be_visible()
    page.keyboard.press("v")
    expect(page.locator("#label-form")).to_be_visible()
    first_removed = page.locator("ol.phrases li.removed").first
    first_removed.locator(".path").click()  # clicking a phrase toggles its label
    expect(first_removed).to_have_class(re.compile("mark-core"))
    shot(page, "filters-marking", full_page=False)
    page.keyboard.press("Control+Enter")
    expect(page.locator(".messages")).to_contain_text("Saved")
    expect(page.locator("#site-metrics")).to_contain_text(walking.site.name)
    expect(page.locator("#metrics")).to_contain_text("recall")
    shot(page, "filters")


def test_permissions_and_escaping(page, live_server, django_user_model):
    data = demo_data.load(django_user_model, slugs={WALKING})
    walking = data["articles"][WALKING]
    walking.title = "<script>alert('title')</script>Hostile"
    walking.save()
    walking.content.core_text = "First line <script>alert('xss')</script> <img src=x onerror=alert(1)>"
    walking.content.save()

    # anonymous: the article page sends to login
    page.goto(f"{live_server.url}/articles/{walking.pk}/")
    expect(page).to_have_url(re.compile(r"/accounts/login/\?next="))

    # a site administrator without the experts role: 403
    page.fill("input[name=username]", "sam")
    page.fill("input[name=password]", demo_data.PASSWORD)
    page.click("button[type=submit]")
    response = page.goto(f"{live_server.url}/articles/{walking.pk}/")
    assert response.status == 403
    page.context.clear_cookies()

    # an expert sees the script as text, and nothing runs
    login(page, live_server)
    page.goto(f"{live_server.url}/articles/{walking.pk}/")
    expect(page.locator("#core-text")).to_contain_text("<script>alert('xss')</script>")
    expect(page.locator("#article-title")).to_contain_text("<script>alert('title')</script>Hostile")
    assert page.locator("#core-text script, #core-text img").count() == 0
    page.goto(f"{live_server.url}/")
    expect(page.locator("table.inbox")).to_contain_text("<script>alert('title')</script>Hostile")
    assert page.dialogs == []


def test_every_page_runs_under_the_content_security_policy(page, live_server, django_user_model):
    """The workspace, the feeds and the admin send the policy and break none of it (a violation is a console
    error in Chromium): no inline script or style anywhere."""
    data = demo_data.load(django_user_model, slugs={WALKING})
    walking = data["articles"][WALKING]
    django_user_model.objects.create_superuser("root", password=demo_data.PASSWORD)  # noqa: S106
    login(page, live_server, username="root")
    folder = data["folders"]["diabetes"]
    paths = [
        "/",
        f"/articles/{walking.pk}/",
        f"/articles/{walking.pk}/filters",
        f"/articles/{walking.pk}/rule",
        "/folders/",
        f"/folders/{folder.pk}/",
        "/corrections/",
        "/feeds/",
        "/feeds/tokens/",
        "/admin/",
        "/admin/monitor/site/",
        f"/admin/monitor/site/{walking.site_id}/change/",
        "/admin/classifier/folder/",
        "/admin/axes/accessattempt/",
        "/admin/django_celery_beat/periodictask/add/",
    ]
    violations = []
    for path in paths:
        response = page.goto(live_server.url + path)
        assert response.status == 200, path
        policy = response.headers.get("content-security-policy", "")
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy, path
        page.wait_for_load_state("networkidle")
        violations += [f"{path}: {e[:120]}" for e in page.console_errors if "Content Security Policy" in e]
        page.console_errors.clear()
    assert violations == [], violations
    # the folder tree keeps its indentation through classes
    page.goto(live_server.url + "/folders/")
    assert page.locator("#folder-tree li.depth-1").count() > 0
