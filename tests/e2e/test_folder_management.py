"""Folder management from the folder page in a real browser: rename a folder, then merge it into another."""

import re

import pytest
from playwright.sync_api import expect

from classifier.models import AuditEntry, Classification, Folder, Rule
from tests.e2e import demo_data
from tests.e2e.test_workspace import login

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WALKING = "walking-after-meals-type-2-diabetes"  # the "diabetes" rule suggests Health/Diabetes for it


def test_rename_then_merge_a_folder_from_its_page(page, live_server, django_user_model, shot):
    data = demo_data.load(django_user_model, slugs={WALKING})
    diabetes, asthma, rule = data["folders"]["diabetes"], data["folders"]["asthma"], data["rule"]
    walking = data["articles"][WALKING]
    login(page, live_server)

    page.goto(f"{live_server.url}/folders/{diabetes.pk}/")
    expect(page.locator("h1")).to_have_text("Health/Diabetes")
    expect(page.locator("#folder-feeds")).to_contain_text("RSS")
    expect(page.locator("#folder-rules")).to_contain_text(f"rule {rule.pk}")

    # rename
    page.fill("#folder-rename input[name=name]", "Diabetes mellitus")
    page.click("#folder-rename button[type=submit]")
    expect(page.locator(".messages")).to_contain_text("Renamed: the folder is now Health/Diabetes mellitus")
    expect(page.locator("h1")).to_have_text("Health/Diabetes mellitus")
    shot(page, "folder-manage")

    # merge into Health/Asthma: the browser holds the form back until the confirm box is ticked
    page.select_option("#folder-merge select[name=target]", label="Health/Asthma")
    page.click("#folder-merge button[type=submit]")
    expect(page.locator("#folder-merge input[name=confirm]:invalid")).to_have_count(1)
    expect(page.locator("h1")).to_have_text("Health/Diabetes mellitus")
    assert Folder.objects.filter(pk=diabetes.pk).exists()
    page.check("#folder-merge input[name=confirm]")
    page.click("#folder-merge button[type=submit]")
    expect(page).to_have_url(re.compile(rf"/folders/{asthma.pk}/$"))
    expect(page.locator(".messages")).to_contain_text("Merged Health/Diabetes mellitus into Health/Asthma")
    expect(page.locator("#folder-rules")).to_contain_text(f"rule {rule.pk}")  # same rule, retargeted
    expect(page.locator("#folder-articles")).to_contain_text(walking.title)

    assert not Folder.objects.filter(pk=diabetes.pk).exists()
    assert Rule.objects.get(pk=rule.pk).folder_id == asthma.pk
    assert set(Classification.objects.filter(case__article=walking).values_list("folder_id", "state")) == {
        (asthma.pk, "suggested")
    }
    actions = AuditEntry.objects.filter(action__startswith="folder.").order_by("id").values_list("action", flat=True)
    assert list(actions)[-2:] == ["folder.rename", "folder.merge"]
    assert not page.dialogs and not page.console_errors
