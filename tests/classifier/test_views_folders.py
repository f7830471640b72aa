"""The experts' workspace views, continued: folder pages, state pages, the undo button and the rule page's
rules under it (tests/classifier/test_views.py holds permissions, inbox, article page and rule building)."""

import re

import pytest
from django.urls import reverse
from django.utils.html import escape

from classifier import services
from classifier.models import Folder, Rule
from monitor.models import Article
from tests.classifier.conftest import article_of


# --------------------------------------------------------------------------- folders
@pytest.mark.django_db
def test_folder_pages(ec, sport_kb):
    response = ec.get(reverse("classifier:folders"))
    nodes = {n.folder.path: n for n in response.context["nodes"]}
    assert nodes["Sport/Football"].count == 2  # the cornerstone (accepted) and the new article (suggested)
    assert nodes["Sport/Football"].depth == 1
    football = ec.get(reverse("classifier:folder", args=[sport_kb["football"].pk]))
    html = football.content.decode()
    assert "goal → Sport/Football" in html  # why is this here + the concluding rule
    assert [item["rule"].pk for item in football.context["rule_items"]] == [sport_kb["rule"].pk]
    assert football.context["rule_items"][0]["stone"].pk == sport_kb["stone"].article_id


@pytest.mark.django_db
def test_a_parent_folder_counts_its_subtree_too_each_article_once(ec, expert, make_case, django_assert_num_queries):
    """A live trial: "Health 3" beside its subfolders' dozen read as if Health held three articles in all. Each
    folder's count now has its subtree's beside it: articles at or below it, counted once however many of its
    folders hold them, rejected ones left out; "Health Policy" and a name with LIKE's wildcards are no subfolder."""
    from classifier import selectors
    from classifier.models import Classification

    paths = ["Health", "Health/Measles", "Health/Measles/Outbreaks", "Health Policy", "Heal%", "Heal%/X"]
    made = {path: services.create_folder(path, expert) for path in paths}
    state = Classification.State
    placed = [
        {"Health": state.ACCEPTED},
        {"Health/Measles": state.SUGGESTED},
        {"Health": state.ACCEPTED, "Health/Measles/Outbreaks": state.ACCEPTED},
        {"Health/Measles": state.REJECTED},
        {"Health Policy": state.ACCEPTED},
        {"Heal%/X": state.SUGGESTED},
    ]
    for i, where in enumerate(placed):
        case = make_case(f"word{i}")
        for path, st in where.items():
            Classification.objects.update_or_create(case=case, folder=made[path], defaults={"state": st})
    with django_assert_num_queries(2):  # however many folders: no query per folder
        nodes = {n.folder.path: (n.count, n.subtree) for n in selectors.folder_tree()}
    assert nodes == {
        "Health": (2, 3),
        "Health/Measles": (1, 2),
        "Health/Measles/Outbreaks": (1, 1),
        "Health Policy": (1, 1),
        "Heal%": (0, 1),
        "Heal%/X": (1, 1),
    }
    html = ec.get(reverse("classifier:folders")).content.decode()
    assert "3 with subfolders" in html and "2 with subfolders" in html
    assert html.count("with subfolders") == 3  # Health, Measles and Heal%: the others hold no more below


@pytest.mark.django_db
def test_folder_page_advertises_its_feeds_only_when_public(ec, sport_kb):
    folder = sport_kb["football"]
    url = reverse("classifier:folder", args=[folder.pk])
    Folder.objects.filter(pk=folder.pk).update(public=True)
    html = ec.get(url).content.decode()
    assert re.search(r'<link rel="alternate" type="application/rss\+xml"[^>]*href="/feeds/', html)
    assert 'type="application/atom+xml"' in html
    Folder.objects.filter(pk=folder.pk).update(public=False)
    assert 'rel="alternate"' not in ec.get(url).content.decode()


@pytest.mark.django_db
def test_create_folder_returns_to_the_rule_draft(ec, sport_kb):
    article = article_of(sport_kb["new"])
    next_url = reverse("classifier:rule", args=[article.pk]) + "?kind=new&c=goal&folder={folder}"
    response = ec.post(reverse("classifier:folder_create"), {"path": "News/Elections", "next": next_url})
    folder = Folder.objects.get(path="News/Elections")
    assert response["Location"].endswith(f"folder={folder.pk}")
    # an off-site next is ignored
    response = ec.post(reverse("classifier:folder_create"), {"path": "X", "next": "https://evil.example/"})
    assert response["Location"] == reverse("classifier:folder", args=[Folder.objects.get(path="X").pk])
    response = ec.post(reverse("classifier:folder_create"), {"path": "a//"})
    assert Folder.objects.filter(path="a").count() in (0, 1)


@pytest.mark.django_db
def test_state_pages_are_exact_keyset_pages_with_a_count(ec, site, make_case, folders, expert_user):
    """A state filter pages through exactly the articles in that state, newest first, both ways, and
    counts them, however rare the state is (the oldest article is the only reviewed one)."""
    from classifier import selectors

    stone = make_case("goal match")
    services.commit_rule(stone, "new", expert_user, folder=folders["football"], conditions=["goal"])
    pending = make_case("goal again")
    n = selectors.PAGE_SIZE + 5
    Article.objects.bulk_create(  # processed, no rule fired: unreviewed
        [Article(site=site, url=f"https://d.example/u/{i}", title=f"u{i}", state="processed") for i in range(n)]
    )
    classified = ec.get(reverse("classifier:inbox"), {"state": "reviewed"})
    page = classified.context["page"]
    assert [r.article.pk for r in page.rows] == [stone.article_id] and page.next_cursor is None
    assert page.total == 1 and b"1 article," in classified.content
    assert [r.article.pk for r in ec.get(reverse("classifier:inbox"), {"state": "pending"}).context["page"].rows] == [
        pending.article_id
    ]
    first = ec.get(reverse("classifier:inbox"), {"state": "unreviewed"}).context["page"]
    assert first.total == n and len(first.rows) == selectors.PAGE_SIZE
    assert {r.state for r in first.rows} == {"unreviewed"}
    second = ec.get(reverse("classifier:inbox"), {"state": "unreviewed", "after": first.next_cursor.encode()})
    second = second.context["page"]
    assert len(second.rows) == 5 and second.next_cursor is None
    expected = list(
        Article.objects.filter(case__isnull=True).order_by("-collected_at", "-id").values_list("pk", flat=True)
    )
    assert [r.article.pk for r in first.rows + second.rows] == expected
    back = ec.get(reverse("classifier:inbox"), {"state": "unreviewed", "before": second.prev_cursor.encode()})
    assert [r.article.pk for r in back.context["page"].rows] == [r.article.pk for r in first.rows]


@pytest.mark.django_db
def test_the_article_page_says_who_made_the_last_rule_and_its_undo_names_it(ec, sport_kb):
    article = article_of(sport_kb["new"])
    last = Rule.objects.order_by("-id").first()
    html = ec.get(reverse("classifier:article", args=[article.pk])).content.decode()
    assert f'name="rule" value="{last.pk}"' in html
    assert f"by {last.created_by.get_username()}" in html


def test_the_undo_button_is_live_only_for_whom_the_undo_serves(client, ec, sport_kb, make_expert):
    """A live trial: the undo button was shown to every expert, and refused only after the click (another
    expert's rule). Now it is disabled with the undo's own reason; its author's stays live."""
    article = article_of(sport_kb["new"])
    rule = sport_kb["rule"]
    pages = [reverse("classifier:article", args=[article.pk]), reverse("classifier:rule_detail", args=[rule.pk])]
    for url in pages:
        html = ec.get(url).content.decode()
        assert f'name="rule" value="{rule.pk}"' in html and "disabled" not in html.split('class="danger"')[1][:40]
        assert "undo-refused-reason" not in html
    client.force_login(make_expert("bob"))
    for url in pages:
        html = client.get(url).content.decode()
        button = re.search(r'<button type="submit" class="danger" id="undo[^"]*"[^>]*>', html).group(0)
        assert "disabled" in button, url
        reason = re.search(r'id="undo-refused-reason">([^<]*)<', html).group(1)
        assert reason == escape(
            f"Cannot be undone: rule {rule.pk} was made by ada: only they or a knowledge-base administrator may undo it"
        )
    # the same reason the undo gives when asked anyway
    confirm = client.get(reverse("classifier:rule_undo"), {"rule": rule.pk}).content.decode()
    assert escape(f"Rule {rule.pk} was made by ada") in confirm


@pytest.mark.django_db
def test_the_rule_page_lists_the_rules_made_under_it(ec, sport_kb):
    """A live trial: a rule's page did not list its refining and stopping rules."""
    stop = services.commit_rule(
        sport_kb["new"],
        "stop",
        sport_kb["rule"].created_by,
        wrong_folder=sport_kb["football"],
        conditions=["election"],
        accepted_cornerstones=[],
    )[0]
    html = ec.get(reverse("classifier:rule_detail", args=[sport_kb["rule"].pk])).content.decode()
    assert "with 1 rule under it" in html
    assert f'<a href="{reverse("classifier:rule_detail", args=[stop.pk])}">Rule {stop.pk}</a> (stopping)' in html
