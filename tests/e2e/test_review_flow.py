"""Working through a filtered inbox with the keyboard alone, as in an annotation tool: accept, skip and
reject-with-rule open the next article of the view; j / k walk the view; a progress count; the end of the view."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from classifier import services
from classifier.models import Classification, Rule
from monitor.models import Article, Site
from tests.articles import create_article
from tests.e2e import demo_data
from tests.e2e.test_workspace import login

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

IN_VIEW = 52  # articles of the view: the clinic's articles with a pending suggestion
LETTERS = "abcdefghijklmnopqrstuvwxyz"


def _word(i: int) -> str:
    """A word only article ``i`` has (a stopping rule on it changes no other article)."""
    return "zz" + LETTERS[i // 26] + LETTERS[i % 26]


def _article(site, title, when, words):
    text = f"{title}. " + " ".join(words) + ": the weekly news of the clinic, its opening hours and its advice."
    url = f"{site.home_url}{title.replace(' ', '-').lower()}"
    article = create_article(site=site, url=url, title=title, core_text=text)
    Article.objects.filter(pk=article.pk).update(collected_at=when)  # collected_at is set on insert
    article.refresh_from_db()
    services.ingest_case(article, words)
    return article


def clinic_view(django_user_model):
    """The demo knowledge base ("diabetes" -> Health/Diabetes) and, newest first, 52 articles of a clinic's site
    that the rule suggests a folder for, interleaved with articles the view leaves out: the same site's articles
    without a suggestion and another site's with one. Returns (data, the view's articles newest first)."""
    data = demo_data.load(django_user_model, slugs=set())
    clinic = Site.objects.create(name="Clinic News", home_url="https://clinic.example/")
    other = Site.objects.create(name="Other Post", home_url="https://other.example/")
    start = timezone.now() - timedelta(days=1)
    view = []
    for i in range(IN_VIEW):
        when = start - timedelta(minutes=10 * i)
        view.append(_article(clinic, f"Clinic bulletin {i + 1:02d}", when, ["diabetes", "clinic", _word(i)]))
        if i % 3 == 0:  # the same site, nothing suggested: not in a "suggested" view
            _article(clinic, f"Clinic notice {i + 1:02d}", when - timedelta(minutes=3), ["parking", "clinic"])
        if i % 4 == 0:  # suggested, another site: not in the clinic's view
            _article(other, f"Other diabetes story {i + 1:02d}", when - timedelta(minutes=6), ["diabetes", "story"])
    return data, view


def title(page):
    return page.locator("#article-title")


def shortcut_keys(page):
    page.keyboard.press("?")
    dialog = page.locator("dialog#shortcuts")
    expect(dialog).to_be_visible()
    keys = [dt.inner_text() for dt in dialog.locator("dt").all()]
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    return keys


def test_an_expert_works_through_a_filtered_inbox_of_52_articles_with_the_keyboard_alone(
    page, live_server, django_user_model, shot
):
    data, view = clinic_view(django_user_model)
    login(page, live_server)
    _filter_the_inbox(page)
    _open_and_walk_the_view(page, view, shot)
    _accept_then_skip(page, view)
    _reject_with_a_rule(page, view)
    _accept_the_others(page, view, shot)
    _back_to_the_inbox(page, view)
    assert page.dialogs == [] and page.console_errors == []
    del data


def _filter_the_inbox(page):
    # the inbox, filtered by site and state; its ? lists the list's keys, not the article's
    page.select_option("select[name=site]", label="Clinic News")
    page.select_option("select[name=state]", "suggested")
    page.click("form.filters button[type=submit]")
    expect(page.locator("table.inbox tbody tr")).to_have_count(50)  # one page of the 52
    inbox_keys = shortcut_keys(page)
    assert {"j", "k", "o", "x", "n", "p", "?"} <= set(inbox_keys) and "a" not in inbox_keys and "s" not in inbox_keys


def _open_and_walk_the_view(page, view, shot):
    # open the first article with the keyboard: the view's first, 1 of 52
    page.keyboard.press("j")
    page.keyboard.press("o")
    expect(title(page)).to_have_text(view[0].title)
    expect(page.locator("#progress")).to_have_text(f"1 of {IN_VIEW} in this view")
    article_keys = shortcut_keys(page)
    assert {"a", "Shift+a", "s", "r", "e", "c", "m", "f", "j", "k", "u", "?"} <= set(article_keys)
    assert "n" not in article_keys and "p" not in article_keys  # pages of a list: not on an article

    # j / k walk the view: the clinic's notices and the other site's stories in between are not in it
    page.keyboard.press("j")
    expect(title(page)).to_have_text(view[1].title)
    expect(page.locator("#progress")).to_have_text(f"2 of {IN_VIEW} in this view")
    page.keyboard.press("j")
    expect(title(page)).to_have_text(view[2].title)
    page.keyboard.press("k")
    expect(title(page)).to_have_text(view[1].title)
    page.keyboard.press("k")
    expect(title(page)).to_have_text(view[0].title)
    shot(page, "review-flow")


def _accept_then_skip(page, view):
    # accept: the next article of the view opens; the accepted one has left the view (state "suggested")
    page.keyboard.press("a")
    expect(page.locator(".messages")).to_contain_text("Accepted: Health/Diabetes")
    expect(title(page)).to_have_text(view[1].title)
    expect(page.locator("#progress")).to_have_text(f"1 of {IN_VIEW - 1} in this view")
    assert Classification.objects.get(case__article=view[0]).state == "accepted"

    # skip: on to the next without deciding
    page.keyboard.press("s")
    expect(title(page)).to_have_text(view[2].title)
    expect(page.locator("#progress")).to_have_text(f"2 of {IN_VIEW - 1} in this view")


def _reject_with_a_rule(page, view):
    # reject with a rule: r opens the stopping rule; once it is committed the next article of the view opens
    page.keyboard.press("1")
    page.keyboard.press("r")
    expect(page).to_have_url(re.compile(r"kind=stop.*view="))
    page.fill("#word-search", _word(2))
    page.locator("#difference-list label.kw", has_text=re.compile(f"^{_word(2)} \\d+$")).click()
    expect(page.locator("#proposal")).to_contain_text(_word(2))
    expect(page.locator("#commit")).to_be_enabled()
    page.keyboard.press("Control+Enter")
    expect(page.locator(".messages")).to_contain_text("committed")
    expect(title(page)).to_have_text(view[3].title)
    stop = Rule.objects.order_by("-id").first()
    assert stop.folder is None and stop.conditions == [_word(2)]
    # the skipped article is still in the view, before this one; the rejected one has left it
    expect(page.locator("#progress")).to_have_text(f"2 of {IN_VIEW - 2} in this view")
    page.keyboard.press("k")
    expect(title(page)).to_have_text(view[1].title)
    page.keyboard.press("j")
    expect(title(page)).to_have_text(view[3].title)


def _accept_the_others(page, view, shot):
    # accept all the others, one key each, in the view's order
    for expected in view[3:-1]:
        expect(title(page)).to_have_text(expected.title)
        page.keyboard.press("a")
    expect(title(page)).to_have_text(view[-1].title)
    expect(page.locator("#progress")).to_have_text("2 of 2 in this view")  # the skipped one and this
    expect(page.locator("#end-of-view")).to_be_visible()  # nothing after the last one

    # the last: accepting it says the view is done and offers the way back to the inbox
    page.keyboard.press("a")
    expect(page.locator(".messages")).to_contain_text("That was the last article of this view.")
    expect(title(page)).to_have_text(view[-1].title)
    expect(page.locator("#end-of-view")).to_contain_text("End of this view")
    expect(page.locator("#progress")).to_have_text("no longer in this view (1 article in it)")
    shot(page, "review-end-of-view")


def _back_to_the_inbox(page, view):
    # u: back to the inbox with the view's filters, where only the skipped article is left
    page.keyboard.press("u")
    expect(page.locator("h1")).to_have_text("Inbox")
    expect(page.locator("select[name=state]")).to_have_value("suggested")
    expect(page.locator("table.inbox tbody tr")).to_have_count(1)
    expect(page.locator("table.inbox tbody tr")).to_contain_text(view[1].title)
    accepted = Classification.objects.filter(case__article__in=view, state="accepted").count()
    assert accepted == IN_VIEW - 2  # all but the skipped and the rejected one


def test_u_goes_back_to_the_inbox_page_the_article_was_opened_from(page, live_server, django_user_model):
    """A live trial: u from an article opened on the inbox's second page opened its first page (the view carried
    the filters, not the page). It opens the second page, with the filters, after a decision too."""
    data, view = clinic_view(django_user_model)
    login(page, live_server)
    _filter_the_inbox(page)
    page.keyboard.press("n")  # the second page: the view's last two articles
    rows = page.locator("table.inbox tbody tr")
    expect(rows).to_have_count(IN_VIEW - 50)
    page.keyboard.press("j")
    page.keyboard.press("o")
    expect(title(page)).to_have_text(view[50].title)
    expect(page.locator("#progress")).to_have_text(f"51 of {IN_VIEW} in this view")
    expect(page.locator("#view-nav a").first).to_have_text("Inbox (this view)")
    page.keyboard.press("u")
    expect(page.locator("h1")).to_have_text("Inbox")
    expect(page.locator("select[name=state]")).to_have_value("suggested")
    expect(rows).to_have_count(IN_VIEW - 50)
    expect(rows.first).to_contain_text(view[50].title)

    # a decision opens the next article of the view: the way back still leads to the page it was opened from
    page.keyboard.press("j")
    page.keyboard.press("o")
    expect(title(page)).to_have_text(view[50].title)
    page.keyboard.press("a")
    expect(page.locator(".messages")).to_contain_text("Accepted: Health/Diabetes")
    expect(title(page)).to_have_text(view[51].title)
    page.keyboard.press("u")
    expect(rows).to_have_count(1)  # the accepted one has left the view
    expect(rows.first).to_contain_text(view[51].title)
    assert page.dialogs == [] and page.console_errors == []
    del data
