"""The review flow's server side: the inbox view carried as one parameter, next by keyset after a decision, the
progress count, and the one key map."""

import re
from datetime import timedelta
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from django.urls import reverse
from django.utils import timezone

from classifier import keys, selectors, services
from classifier.models import Classification, Rule
from monitor.models import Article


@pytest.fixture
def ec(client, expert_user):
    client.force_login(expert_user)
    return client


@pytest.fixture
def football_view(folders, make_case, expert_user):
    """Six articles newest first, a rule ("goal" -> Sport/Football) suggesting a folder for the even ones."""
    stone = make_case("goal stone")
    services.commit_rule(stone, "new", expert_user, folder=folders["football"], conditions=["goal"])
    now = timezone.now()
    articles = []
    for i in range(6):
        # each with a word of its own ("wa", "wb"...): a rule on it changes no other article
        case = make_case(f"goal match w{'abcdef'[i]}" if i % 2 == 0 else f"parliament vote w{'abcdef'[i]}")
        Article.objects.filter(pk=case.article_id).update(collected_at=now - timedelta(minutes=i))
        articles.append(Article.objects.get(pk=case.article_id))
    Article.objects.filter(pk=stone.article_id).update(collected_at=now - timedelta(days=1))
    return articles  # pending: 0, 2, 4


def view_of(response):
    return parse_qs(urlsplit(response["Location"]).query).get("view", [""])[0]


@pytest.mark.django_db
def test_accept_opens_the_next_article_of_the_view_although_the_accepted_one_left_it(ec, football_view):
    first, third, fifth = football_view[0], football_view[2], football_view[4]
    view = "state=pending"
    page = ec.get(reverse("classifier:inbox"), {"state": "pending"})
    assert f'href="/articles/{first.pk}/?view=state%3Dpending"' in page.content.decode()
    assert ec.get(reverse("classifier:article", args=[first.pk]), {"view": view}).context["position"].text == (
        "1 of 3 in this view"
    )
    response = ec.post(reverse("classifier:accept", args=[first.pk]), {"view": view})
    # the first left the view (accepted): an index-based "next" (position 2 of the new view) would skip the third
    assert response["Location"] == f"/articles/{third.pk}/?view=state%3Dpending"
    assert Classification.objects.get(case__article=first).state == "accepted"
    position = ec.get(response["Location"]).context["position"]
    assert position.text == "1 of 2 in this view" and position.older.pk == fifth.pk and position.newer is None
    # at the end of the view: the article again, said so
    ec.post(reverse("classifier:accept", args=[third.pk]), {"view": view})
    last = ec.post(reverse("classifier:accept", args=[fifth.pk]), {"view": view}, follow=True)
    assert last.redirect_chain[-1][0] == f"/articles/{fifth.pk}/?view=state%3Dpending"
    html = last.content.decode()
    assert "That was the last article of this view." in html and 'id="end-of-view"' in html
    assert 'href="/?state=pending"' in html  # back to the inbox, filtered as it was


@pytest.mark.django_db
def test_the_view_carries_only_the_inbox_filters(ec, football_view):
    """Whatever the parameter holds, only the inbox form's fields and a readable page cursor travel: no malformed
    cursor, no address to go to."""
    first = football_view[0]
    hostile = "state=pending&after=x~1&next=https://evil.example/&view=//evil.example"
    response = ec.post(reverse("classifier:accept", args=[first.pk]), {"view": hostile})
    assert response["Location"].startswith("/articles/") and view_of(response) == "state=pending"
    # an unreadable filter is ignored as the inbox ignores it: the inbox's default view, what waits for review
    page = ec.get(reverse("classifier:article", args=[football_view[1].pk]), {"view": "state=nonsense"})
    waiting = Article.objects.exclude(review_state="reviewed").count()  # not the cornerstone nor the accepted
    assert page.status_code == 200 and page.context["position"].total == waiting == len(football_view) - 1
    # a next outside the site is refused (the existing _safe_next)
    away = ec.post(reverse("classifier:accept", args=[football_view[2].pk]), {"next": "https://evil.example/"})
    assert not away["Location"].startswith("https://evil.example")


@pytest.mark.django_db
def test_the_view_carries_the_inbox_page_the_article_was_opened_from(ec, football_view):
    """The way back to the inbox (u) opens the page the article was opened from, after a decision too; the page
    alone is no filter: the inbox, not "this view"."""
    first, third = football_view[0], football_view[2]
    cursor = selectors.Cursor.of(football_view[1]).encode()
    inbox = ec.get(reverse("classifier:inbox"), {"state": "pending", "after": cursor}).content.decode()
    view = urlencode({"state": "pending", "after": cursor})
    assert f'href="/articles/{third.pk}/?{urlencode({"view": view})}"' in inbox
    page = ec.get(reverse("classifier:article", args=[third.pk]), {"view": view})
    assert page.context["inbox_url"] == f"/?{view}" and page.context["filtered_view"]
    response = ec.post(reverse("classifier:accept", args=[first.pk]), {"view": view})
    assert view_of(response) == view
    paged = ec.get(reverse("classifier:article", args=[third.pk]), {"view": urlencode({"after": cursor})})
    assert paged.context["inbox_url"] == f"/?{urlencode({'after': cursor})}" and not paged.context["filtered_view"]
    assert paged.context["position"].text.endswith("in the inbox")


@pytest.mark.django_db
def test_the_page_carried_is_the_one_the_inbox_shows_when_a_link_holds_both_cursors(ec, football_view):
    """Review: with both ``after`` and ``before`` readable the inbox shows the page before its cursor
    (selectors.inbox_page reads ``before`` first); the articles opened from it lead back to that page, not to
    the one after the other cursor."""
    after = selectors.Cursor.of(football_view[1]).encode()
    before = selectors.Cursor.of(football_view[4]).encode()
    inbox = ec.get(reverse("classifier:inbox"), {"after": after, "before": before})
    shown = [row.article for row in inbox.context["page"].rows]
    assert football_view[1] in shown and football_view[4] not in shown  # the articles newer than ``before``
    href = inbox.context["page"].rows[0].href
    assert parse_qs(parse_qs(urlsplit(href).query)["view"][0]) == {"before": [before]}


@pytest.mark.django_db
def test_a_committed_correction_opens_the_next_article_and_a_new_rule_its_page(ec, football_view, folders):
    first, third = football_view[0], football_view[2]
    view = "state=pending"
    rejected = ec.post(reverse("classifier:reject", args=[first.pk]), {"folder": folders["football"].pk, "view": view})
    assert "kind=stop" in rejected["Location"] and "view=state%3Dpending" in rejected["Location"]
    rule_page = ec.get(rejected["Location"]).content.decode()
    assert '<input type="hidden" name="view" value="state=pending">' in rule_page
    stop = {"kind": "stop", "wrong": folders["football"].pk, "c": ["wa"], "view": view}
    committed = ec.post(reverse("classifier:rule_commit", args=[first.pk]), stop)
    assert committed["Location"] == f"/articles/{third.pk}/?view=state%3Dpending"
    # the commit said so on the next article: the rule's page, opened later (a live trial, from the folder's
    # rules), is the rule's, not "Rule committed" as if it had just been made
    stopping = Rule.objects.order_by("-id").first()
    later = ec.get(reverse("classifier:rule_detail", args=[stopping.pk])).content.decode()
    assert "Rule committed" not in later and f"<h1>Rule {stopping.pk}</h1>" in later
    # adding a missing folder is not a decision on the article: the new rule's page, as before
    new = {"kind": "new", "folder": folders["politics"].pk, "c": ["parliament"], "view": view}
    made = ec.post(reverse("classifier:rule_commit", args=[football_view[1].pk]), new)
    assert made["Location"].startswith("/rules/") and "view=state%3Dpending" in made["Location"]
    # whose page leads back (b) to the article in the view it was opened in
    detail = ec.get(made["Location"]).content.decode()
    assert f'href="/articles/{football_view[1].pk}/?view=state%3Dpending" id="back-to-article"' in detail


@pytest.mark.django_db
def test_progress_counts_are_capped_like_the_inbox(ec, football_view, monkeypatch):
    monkeypatch.setattr(selectors, "COUNT_CAP", 2)
    last = football_view[5]
    position = ec.get(reverse("classifier:article", args=[last.pk])).context["position"]
    assert position.text == "more than 2 of more than 2 in the inbox"  # no filter carried: the whole inbox


def test_one_key_one_meaning():
    by_key: dict[str, set[str]] = {}
    for name, key in keys.KEYS.items():
        by_key.setdefault(key.key, set()).add(name)
    # Ctrl+Enter submits the page's main form: a rule's commit, the labels' save (never on the same page)
    shared = {k: names for k, names in by_key.items() if len(names) > 1}
    assert shared == {"Ctrl+Enter": {"commit", "save_labels"}}
    for page, names in keys.PAGES.items():
        assert len({keys.KEYS[n].key for n in names}) == len(names), page


@pytest.mark.django_db
def test_the_help_dialog_lists_exactly_the_page_s_keys(ec, football_view):
    """Every key an element of the page answers to is in its ? list, and the list has no key the page lacks."""
    html = ec.get(reverse("classifier:article", args=[football_view[2].pk])).content.decode()
    dialog = html.split('<dialog id="shortcuts"', 1)[1].split("</dialog>", 1)[0]
    listed = {"".join(re.findall(r"<kbd>(.*?)</kbd>", dt)) for dt in re.findall(r"<dt>(.*?)</dt>", dialog)}
    answered = set(re.findall(r'data-key="([^"]+)"', html))
    shown = {keys.KEYS[n].key: keys.KEYS[n].label.replace("+", "") for n in keys.KEYS}
    assert {shown[k] for k in answered} <= listed
    assert "n" not in listed and "p" not in listed  # a list's pages: not an article's keys
    inbox = ec.get(reverse("classifier:inbox")).content.decode()
    inbox_dialog = inbox.split('<dialog id="shortcuts"', 1)[1].split("</dialog>", 1)[0]
    assert "<kbd>n</kbd>" in inbox_dialog and "<kbd>a</kbd>" not in inbox_dialog
    # x selects a row in a list; u goes back to the view and Shift+u marks the article unread
    assert "<kbd>x</kbd>" in inbox_dialog and "<kbd>x</kbd>" not in dialog
    assert {"u", "Shiftu"} <= listed and 'data-key="U"' in html and 'data-key="u"' in html


@pytest.mark.django_db
def test_the_filter_view_keeps_the_article_s_view(ec, football_view):
    article = football_view[2]
    html = ec.get(reverse("classifier:article", args=[article.pk]), {"view": "state=pending"}).content.decode()
    assert f'href="/articles/{article.pk}/filters?view=state%3Dpending"' in html
    filters = ec.get(reverse("classifier:article_filters", args=[article.pk]), {"view": "state=pending"})
    assert f'href="/articles/{article.pk}/?view=state%3Dpending" data-key="b"' in filters.content.decode()


@pytest.mark.django_db
def test_the_admin_names_cases_by_their_article_s_title(client, django_user_model, football_view):
    client.force_login(django_user_model.objects.create_superuser("root", password="pw"))  # noqa: S106
    rules = client.get("/admin/classifier/rule/").content.decode()
    stone = Classification.objects.filter(rule__isnull=False).select_related("rule__cornerstone__article").first()
    assert stone.rule.cornerstone.article.title in rules and not re.search(r"\bcase \d+", rules)
    rows = client.get("/admin/classifier/classification/").content.decode()
    assert football_view[0].title in rows


@pytest.mark.django_db
def test_the_queues_filters_travel_with_the_view(ec, football_view, expert_user, make_expert):
    """ "Assigned to me, unread" is a view like any other: the inbox's links carry it, the progress counts it, j/k
    and accept walk it, and opening an article (which reads it) does not lose the article's place."""
    bob = make_expert("bob")
    first, second, third, fifth = football_view[0], football_view[1], football_view[2], football_view[4]
    services.bulk_assign([first.pk, third.pk, fifth.pk], expert_user, expert_user)
    services.bulk_assign([second.pk], bob, expert_user)
    services.mark_read([third.pk], expert_user)  # read already: not in the unread view
    view = "assigned=me&reading=unread"
    inbox = ec.get(reverse("classifier:inbox"), {"assigned": "me", "reading": "unread"}).content.decode()
    carried = "?view=assigned%3Dme%26reading%3Dunread"
    hrefs = re.findall(r'data-href="/articles/(\d+)/([^"]*)"', inbox)
    assert hrefs == [(str(first.pk), carried), (str(fifth.pk), carried)]
    page = ec.get(reverse("classifier:article", args=[first.pk]), {"view": view})
    # counted before the article is marked read: it is the first of two, and j leads to the fifth (not the third)
    assert page.context["position"].text == "1 of 2 in this view"
    assert page.context["older_url"] == f"/articles/{fifth.pk}/{carried}"
    assert page.context["inbox_url"] == f"/?{view}"
    accepted = ec.post(reverse("classifier:accept", args=[first.pk]), {"view": view})
    assert accepted["Location"] == f"/articles/{fifth.pk}/{carried}"
    # the view is read for whoever looks: bob's "assigned to me" is his own queue
    ec.force_login(bob)
    assert ec.get(accepted["Location"]).context["position"].total == 1
    # a bulk action from a filtered inbox comes back to it, filters kept
    bulk = ec.post(
        reverse("classifier:bulk"), {"action": "read", "article": [second.pk], "next": f"/?{view}&state=pending"}
    )
    assert bulk["Location"] == f"/?{view}&state=pending"


@pytest.mark.django_db
def test_a_rejection_left_on_the_rule_page_stays_pending_and_its_commit_still_advances(ec, football_view, folders):
    first, third = football_view[0], football_view[2]
    view = "state=pending"
    rejected = ec.post(reverse("classifier:reject", args=[first.pk]), {"folder": folders["football"].pk, "view": view})
    assert ec.get(rejected["Location"]).status_code == 200
    # the expert leaves the rule page without committing: the decision is kept, the rule pending
    assert Article.objects.get(pk=first.pk).review_state == "correction"
    html = ec.get(reverse("classifier:article", args=[first.pk]), {"view": view}).content.decode()
    assert html.count(">rejected, rule pending</span>") == 2  # the article's state and the folder's
    assert re.search(r'<a href="/articles/\d+/\?view=state%3Dpending" data-key="j"', html)
    inbox = ec.get(reverse("classifier:inbox"), {"state": "correction"}).content.decode()
    assert re.findall(r'data-href="/articles/(\d+)/', inbox) == [str(first.pk)]
    assert '<span class="folder-chip correction"' in inbox and ">rejected, rule pending</span>" in inbox
    # coming back to it later (from Corrections or the article), the commit still opens the next of the view
    stop = {"kind": "stop", "wrong": folders["football"].pk, "c": ["wa"], "view": view}
    committed = ec.post(reverse("classifier:rule_commit", args=[first.pk]), stop)
    assert committed["Location"] == f"/articles/{third.pk}/?view=state%3Dpending"
    assert Article.objects.get(pk=first.pk).review_state == "reviewed"


@pytest.mark.django_db
def test_a_rule_made_from_the_corrections_list_shows_the_rule(ec, football_view, folders):
    """From the Corrections list there is no view to go on with: the commit shows the rule it made."""
    first = football_view[0]
    ec.post(reverse("classifier:reject", args=[first.pk]), {"folder": folders["football"].pk})
    page = ec.get(reverse("classifier:corrections"))
    listed = page.context["corrections"]
    # the list walks with j / k / o like the inbox, and its ? dialog says so
    dialog = page.content.decode().split('<dialog id="shortcuts"', 1)[1].split("</dialog>", 1)[0]
    assert "<kbd>j</kbd>" in dialog and "<kbd>o</kbd>" in dialog and "<kbd>x</kbd>" not in dialog
    assert "origin=corrections" in listed[0]["rule_url"]
    rule_page = ec.get(listed[0]["rule_url"]).content.decode()
    assert '<input type="hidden" name="origin" value="corrections">' in rule_page
    stop = {"kind": "stop", "wrong": folders["football"].pk, "c": ["wa"], "origin": "corrections"}
    committed = ec.post(reverse("classifier:rule_commit", args=[first.pk]), stop)
    assert committed["Location"].startswith("/rules/")


@pytest.mark.django_db
def test_reviewed_no_folder_on_the_article_opens_the_next_of_the_view(ec, football_view):
    second, third = football_view[1], football_view[2]  # "parliament vote": no rule fires, unreviewed
    view = "state=unreviewed"
    html = ec.get(reverse("classifier:article", args=[second.pk]), {"view": view}).content.decode()
    next_url = re.search(r'name="next" value="([^"]*)">\s*<button[^>]*value="no_folder"', html).group(1)
    assert next_url == f"/articles/{football_view[3].pk}/?view=state%3Dunreviewed"
    done = ec.post(reverse("classifier:bulk"), {"action": "no_folder", "article": [second.pk], "next": next_url})
    assert done["Location"] == next_url and Article.objects.get(pk=second.pk).review_state == "reviewed"
    assert Article.objects.get(pk=third.pk).review_state == "suggested"  # the view skips the suggested one between


def text_of(html: str) -> str:
    """The page's words as a reader sees them: tags dropped, white space collapsed."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


@pytest.mark.django_db
def test_the_stopping_rule_page_after_a_rejection_says_it_once_and_names_the_folder_it_withholds(
    ec, football_view, folders
):
    first = football_view[0]
    page = ec.post(reverse("classifier:reject", args=[first.pk]), {"folder": folders["football"].pk}, follow=True)
    assert page.redirect_chain[-1][0].startswith(f"/articles/{first.pk}/rule?kind=stop")
    html = page.content.decode()
    # one notice of the rejection (the rule page's), not a message repeating it
    assert [m.message for m in page.context["messages"]] == []
    text = text_of(html)
    assert text.count("Make the rule that corrects it") == 1 and text.count("Rejected Sport/Football") == 1
    assert "Corrections until a rule corrects it" in text
    # a stopping rule gives no folder: the box creating one is hidden
    assert re.search(r'<form [^>]*id="folder-create" hidden>', html)
    # the sentence names the folder withheld, and the page names the rule's kind
    assert "THEN withhold Sport/Football (stopping rule" in text
    assert "› stopping rule" in text and "› new rule" not in text
    # a new rule's page keeps both as they were
    new = text_of(ec.get(reverse("classifier:rule", args=[first.pk]), {"folder": folders["sport"].pk}).content.decode())
    assert "THEN Sport (new rule" in new and "› new rule" in new
    assert re.search(
        r'<form [^>]*id="folder-create">', ec.get(reverse("classifier:rule", args=[first.pk])).content.decode()
    )


@pytest.mark.django_db
def test_a_rejection_made_from_search_results_goes_back_to_them(ec, football_view, folders):
    """An article opened from search results, rejected: the rule page leads back to it and to the search (not to
    the inbox), and the committed rule opens the search's next result. (A live trial: the rule page and the
    commit returned the expert to the inbox; the search was lost.)"""
    first = football_view[0]
    came_from = {"search": "q=goal&site=", "rank": "2"}  # as search.views._link_results writes it
    article = ec.get(reverse("classifier:article", args=[first.pk]), came_from).content.decode()
    assert '<input type="hidden" name="search" value="q=goal">' in article
    rejected = ec.post(reverse("classifier:reject", args=[first.pk]), {"folder": folders["football"].pk, **came_from})
    query = parse_qs(urlsplit(rejected["Location"]).query)
    assert query["search"] == ["q=goal"] and query["rank"] == ["2"] and "view" not in query
    rule_page = ec.get(rejected["Location"]).content.decode()
    crumbs = rule_page.split('<nav class="breadcrumbs">', 1)[1].split("</nav>", 1)[0]
    assert 'href="/search/?q=goal">Search results</a>' in crumbs
    assert f'href="/articles/{first.pk}/?search=q%3Dgoal&amp;rank=2"' in crumbs
    assert '<input type="hidden" name="rank" value="2">' in rule_page
    stop = {"kind": "stop", "wrong": folders["football"].pk, "c": ["wa"], **came_from}
    committed = ec.post(reverse("classifier:rule_commit", args=[first.pk]), stop)
    assert committed["Location"] == f"{reverse('search:open')}?q=goal&rank=3"
    # so does an acceptance: the next result, not the inbox's next article
    accepted = ec.post(reverse("classifier:accept", args=[football_view[4].pk]), came_from)
    assert accepted["Location"] == f"{reverse('search:open')}?q=goal&rank=3"
    # a new rule's page leads back (b) to the article among the search results too
    new = {"kind": "new", "folder": folders["politics"].pk, "c": ["parliament"], **came_from}
    made = ec.post(reverse("classifier:rule_commit", args=[football_view[1].pk]), new)
    detail = ec.get(made["Location"]).content.decode()
    assert f'href="/articles/{football_view[1].pk}/?search=q%3Dgoal&amp;rank=2" id="back-to-article"' in detail
    # a search that is not the search page's own query is never a way out of the site
    hostile = {"folder": folders["football"].pk, "search": "//evil.example/?q=x", "rank": "1"}
    away = ec.post(reverse("classifier:reject", args=[football_view[2].pk]), hostile)
    page = ec.get(away["Location"]).content.decode()
    assert 'evil.example">' not in page and 'href="//' not in page


@pytest.mark.django_db
def test_the_filter_view_of_an_article_opened_from_search_keeps_the_search(ec, football_view):
    first = football_view[0]
    article = ec.get(reverse("classifier:article", args=[first.pk]), {"search": "q=goal", "rank": "2"})
    filters = f"/articles/{first.pk}/filters?search=q%3Dgoal&amp;rank=2"
    assert f'href="{filters}"' in article.content.decode()
    page = ec.get(reverse("classifier:article_filters", args=[first.pk]), {"search": "q=goal", "rank": "2"})
    crumbs = page.content.decode().split('<nav class="breadcrumbs">', 1)[1].split("</nav>", 1)[0]
    assert 'href="/search/?q=goal">Search results</a>' in crumbs
    assert f'href="/articles/{first.pk}/?search=q%3Dgoal&amp;rank=2"' in crumbs
    saved = ec.post(reverse("classifier:article_filters", args=[first.pk]), {"search": "q=goal", "rank": "2"})
    assert saved["Location"] == f"/articles/{first.pk}/filters?search=q%3Dgoal&rank=2"
