"""The inbox's bulk actions and per-user queues in a real browser: select with click, shift-click and x, accept,
reviewed with no folder, assign; the refusal report; read and unread; the assigned queues; who reviewed what."""

import re

import pytest
from playwright.sync_api import expect

from classifier.models import ArticleRead, AuditEntry, Classification
from foundation.roles import EXPERTS, ensure_groups
from monitor.models import Article
from tests.e2e import demo_data
from tests.e2e.test_workspace import login

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def inbox_ids(page) -> list[int]:
    hrefs = page.locator("table.inbox tbody tr[data-row]").evaluate_all("rows => rows.map(r => r.dataset.href)")
    return [int(re.search(r"/articles/(\d+)/", h).group(1)) for h in hrefs]


def boxes(page):
    return page.locator("table.inbox tbody input[name=article]")


def test_select_with_click_shift_click_and_x_then_accept_and_review_with_no_folder(
    page, live_server, django_user_model, shot
):
    demo_data.load(django_user_model)
    login(page, live_server)
    page.goto(f"{live_server.url}/?state=pending")
    pending = inbox_ids(page)
    assert len(pending) >= 4
    expect(page.locator("#bulk-count")).to_have_text("0 selected")
    # click the first box, shift-click the third: the range is ticked
    boxes(page).nth(0).click()
    boxes(page).nth(2).click(modifiers=["Shift"])
    expect(page.locator("#bulk-count")).to_have_text("3 selected")
    expect(page.locator("table.inbox tbody tr.selected")).to_have_count(3)
    # x toggles the chosen row (j moves to the first row): off, and on again
    page.locator("h1").click()  # the keys go to the page, not a focused box
    page.keyboard.press("j")
    page.keyboard.press("x")
    expect(page.locator("#bulk-count")).to_have_text("2 selected")
    expect(boxes(page).nth(0)).not_to_be_checked()
    page.keyboard.press("x")
    expect(page.locator("#bulk-count")).to_have_text("3 selected")
    shot(page, "inbox-bulk")
    page.get_by_role("button", name="Accept suggestions").click()
    expect(page.locator(".messages")).to_contain_text("Accept suggestions: done for 3 articles.")
    expect(page.locator("#bulk-report li.ok")).to_have_count(3)
    expect(page.locator("#bulk-report")).to_contain_text("accepted Health/Diabetes")
    expect(page).to_have_url(re.compile(r"\?state=pending$"))  # back to the same view
    accepted = pending[:3]
    assert set(
        Classification.objects.filter(case__article_id__in=accepted).values_list("case__article_id", "state")
    ) == {(pk, "accepted") for pk in accepted}
    assert AuditEntry.objects.filter(action="classification.accept", details__case__isnull=False).count() == 3
    assert inbox_ids(page) == pending[3:]

    # a selection with an article that cannot take the action: refused as a whole, with each reason
    page.goto(f"{live_server.url}/?state=any")  # the accepted ones too, reviewed: no longer waiting
    everything = inbox_ids(page)
    done_row = everything.index(accepted[0])
    open_row = everything.index(pending[3])
    boxes(page).nth(done_row).check()
    boxes(page).nth(open_row).check()
    page.get_by_role("button", name="Accept suggestions").click()
    expect(page.locator(".messages")).to_contain_text("refused for 1 of 2 selected articles; nothing was changed")
    expect(page.locator("#bulk-report li.refused")).to_contain_text("no suggestions to accept")
    # the article that could take it stays ticked: the expert posts again without the refused one
    expect(page.locator("#bulk-count")).to_have_text("1 selected")
    expect(boxes(page).nth(open_row)).to_be_checked()
    shot(page, "inbox-bulk-refused")
    assert not Classification.objects.filter(case__article_id=pending[3], state="accepted").exists()
    page.get_by_role("button", name="Accept suggestions").click()
    expect(page.locator(".messages")).to_contain_text("Accept suggestions: accepted Health/Diabetes.")
    assert Classification.objects.filter(case__article_id=pending[3], state="accepted").exists()

    # every unreviewed article on the page (the header box), reviewed with no folder
    page.goto(f"{live_server.url}/?state=unreviewed")
    unreviewed = inbox_ids(page)
    assert unreviewed
    page.locator("#select-page").check()
    expect(page.locator("#bulk-count")).to_have_text(f"{len(unreviewed)} selected")
    page.get_by_role("button", name="Reviewed, no folder").click()
    expect(page.locator("#bulk-report li.ok")).to_have_count(len(unreviewed))
    expect(page.locator("table.inbox tbody tr[data-row]")).to_have_count(0)
    assert set(Article.objects.filter(pk__in=unreviewed).values_list("review_state", flat=True)) == {"reviewed"}
    assert AuditEntry.objects.filter(action="case.no_folder").count() == len(unreviewed)
    assert page.console_errors == []


def box(page, article_id: int):
    return page.locator(f'tr[data-href^="/articles/{article_id}/"] input[name=article]')


def test_assign_queues_read_unread_and_who_reviewed_on_the_article(page, live_server, django_user_model, shot):
    demo_data.load(django_user_model)
    bob = django_user_model.objects.create_user("bob", password=demo_data.PASSWORD)
    bob.groups.add(ensure_groups()[EXPERTS])
    login(page, live_server)
    everything = inbox_ids(page)
    expect(page.locator("table.inbox tbody tr.unread")).to_have_count(len(everything))
    target = Article.objects.filter(review_state="suggested").order_by("-collected_at", "-id").first().pk
    others = [pk for pk in everything if pk != target][:2]

    # assign two articles to bob and one to me
    for pk in others:
        box(page, pk).check()
    page.select_option("#bulk-assignee", label="bob")
    page.get_by_role("button", name="Assign").click()
    expect(page.locator("#bulk-report li.ok")).to_have_count(2)
    expect(page.locator(f'tr[data-href^="/articles/{others[0]}/"]')).to_contain_text("→ bob")
    box(page, target).check()
    page.select_option("#bulk-assignee", label="ada")
    page.get_by_role("button", name="Assign").click()
    # the assignment's answer before the next filter (a full run once filtered first and found nothing)
    expect(page.locator(f'tr[data-href^="/articles/{target}/"]')).to_contain_text("→ ada")
    page.select_option("select[name=assigned]", label="To me")
    page.click("form.filters button[type=submit]")
    assert inbox_ids(page) == [target]
    page.select_option("select[name=assigned]", label="bob")
    page.click("form.filters button[type=submit]")
    assert inbox_ids(page) == others
    page.select_option("select[name=assigned]", label="Unassigned")
    page.click("form.filters button[type=submit]")
    assert inbox_ids(page) == [pk for pk in everything if pk not in {target, *others}]

    # open mine: it is read (for me only); accept it, hand it to bob; its page says who decided what and when
    page.goto(f"{live_server.url}/?assigned=me")
    page.locator(f'tr[data-href^="/articles/{target}/"] td.title a').click()
    expect(page.locator("#review")).to_contain_text("Assigned to ada by ada")
    page.keyboard.press("a")
    expect(page.locator(".messages")).to_contain_text("Accepted: Health/Diabetes")
    page.select_option("#assign-to", label="bob")
    page.locator("#review").get_by_role("button", name="Assign").click()
    expect(page.locator(".messages")).to_contain_text("Assign: assigned to bob (was ada).")
    record = page.locator("#review .review-record li")
    expect(record).to_have_count(2)
    expect(record.nth(0)).to_contain_text(re.compile(r"Accepted Health/Diabetes by ada, \d+ \w+ \d{4} \d\d:\d\d"))
    expect(record.nth(1)).to_contain_text("Assigned to bob by ada")
    shot(page, "article-review")
    assert ArticleRead.objects.filter(user__username="ada", article_id=target).exists()
    assert not ArticleRead.objects.filter(user=bob).exists()

    page.goto(f"{live_server.url}/?reading=unread")
    assert target not in inbox_ids(page)
    page.goto(f"{live_server.url}/?reading=read")
    assert inbox_ids(page) == [], "accepted: read, and no longer waiting for review"
    page.goto(f"{live_server.url}/?reading=read&state=any")
    assert inbox_ids(page) == [target]
    expect(page.locator("table.inbox tbody tr.unread")).to_have_count(0)

    # mark it unread from its page (Shift+u; u alone goes back to the view): back in the inbox, unread again
    page.goto(f"{live_server.url}/articles/{target}/?view=state%3Dany")
    page.locator("h1").click()
    page.keyboard.press("Shift+U")
    expect(page).to_have_url(re.compile(r"/\?state=any$"))
    expect(page.locator(f'tr[data-href^="/articles/{target}/"]')).to_have_class(re.compile(r"\bunread\b"))
    assert not ArticleRead.objects.filter(user__username="ada", article_id=target).exists()
    assert Article.objects.get(pk=target).assignee == bob
    assert page.console_errors == []
