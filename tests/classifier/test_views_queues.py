"""The inbox's bulk actions and queues without JavaScript: forms post the ticked ids, links filter and select."""

import re

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from classifier import services
from classifier.models import ArticleRead, AuditEntry, Classification
from monitor.models import Article

pytestmark = pytest.mark.django_db
BULK = reverse("classifier:bulk")


@pytest.fixture
def desk(folders, make_case, expert_user, make_expert):
    stone = make_case("goal match striker")
    services.commit_rule(stone, "new", expert_user, folder=folders["football"], conditions=["goal"])
    first, second = make_case("goal late winner"), make_case("goal keeper injured")
    quiet = make_case("parliament budget vote")
    return {"bob": make_expert("bob"), "first": first, "second": second, "quiet": quiet, "stone": stone}


def rows(html: str) -> list[str]:
    return re.findall(r"<tr data-row[^>]*>", html)


def test_the_inbox_offers_a_box_per_row_and_a_bulk_form_with_csrf(ec, desk):
    html = ec.get("/?state=any").content.decode()  # the cornerstone too, reviewed
    assert len(re.findall(r'<input type="checkbox" name="article" value="\d+" form="bulk"', html)) == 4
    form = html[html.index('<form class="bulk card"') :]
    assert 'name="csrfmiddlewaretoken"' in form[: form.index("</form>")]
    assert all('class="unread"' in row for row in rows(html))  # nothing opened yet
    # without JavaScript, "select all on this page" is the same page with every box ticked
    link = re.search(r'href="\?([^"]*select=all)" id="select-all-link"', html).group(1).replace("&amp;", "&")
    ticked = ec.get("/?" + link).content.decode()
    assert "state=any" in link
    assert len(re.findall(r'name="article" value="\d+" form="bulk"[^>]* checked', ticked)) == 4


def test_bulk_accept_posts_the_ticked_ids_and_reports_per_article(ec, desk, expert_user):
    chosen = [desk["first"].article_id, desk["second"].article_id]
    response = ec.post(BULK, {"article": chosen, "action": "accept", "next": "/?state=pending"})
    assert response.status_code == 302 and response["Location"] == "/?state=pending"
    assert Classification.objects.filter(case__article_id__in=chosen, state="accepted").count() == 2
    assert AuditEntry.objects.filter(action="classification.accept", actor=expert_user).count() == 2
    html = ec.get("/").content.decode()
    assert "Accept suggestions: done for 2 articles." in html
    report = html[html.index('id="bulk-report"') :]
    assert report.count('class="ok"') == 2 and "accepted Sport/Football" in report
    assert 'id="bulk-report"' not in ec.get("/").content.decode()  # shown once


def test_a_refused_bulk_action_names_each_article_s_reason_and_changes_nothing(ec, desk):
    chosen = [desk["first"].article_id, desk["quiet"].article_id]
    ec.post(BULK, {"article": chosen, "action": "accept"})
    html = ec.get("/").content.decode()
    assert "Accepting refused for 1 of 2 selected articles; nothing was changed." in html
    assert "<strong>no suggestions to accept</strong>" in html
    assert not Classification.objects.filter(state="accepted", case__article_id__in=chosen).exists()


def test_reviewed_no_folder_and_assign_from_the_inbox(ec, desk):
    quiet = desk["quiet"].article_id
    ec.post(BULK, {"article": [quiet], "action": "no_folder"})
    assert Article.objects.get(pk=quiet).review_state == "reviewed"
    ec.post(BULK, {"article": [quiet, desk["first"].article_id], "action": "assign", "assignee": desk["bob"].pk})
    assert set(Article.objects.filter(assignee=desk["bob"]).values_list("id", flat=True)) == {
        quiet,
        desk["first"].article_id,
    }
    response = ec.post(BULK, {"article": [quiet], "action": "assign", "assignee": ""}, follow=True)
    assert "Choose the expert to assign the articles to." in response.content.decode()
    response = ec.post(BULK, {"article": [], "action": "accept"}, follow=True)
    assert "Select the articles first" in response.content.decode()


def test_bulk_actions_need_the_csrf_token(expert_user, desk):
    client = Client(enforce_csrf_checks=True)
    client.force_login(expert_user)
    response = client.post(BULK, {"article": [desk["first"].article_id], "action": "accept"})
    assert response.status_code == 403
    assert not Classification.objects.filter(state="accepted", case=desk["first"]).exists()


def test_opening_an_article_marks_it_read_and_mark_unread_takes_it_back(ec, desk, expert_user):
    first = desk["first"].article_id
    assert ec.get("/?reading=unread").content.decode().count(f'value="{first}" form="bulk"') == 1
    ec.get(reverse("classifier:article", args=[first]))
    assert ArticleRead.objects.filter(user=expert_user, article_id=first).exists()
    unread_page = ec.get("/?reading=unread").content.decode()
    assert f'value="{first}" form="bulk"' not in unread_page
    assert f'value="{first}" form="bulk"' in ec.get("/?reading=read").content.decode()
    response = ec.post(BULK, {"article": [first], "action": "unread", "next": "/"})
    assert response["Location"] == "/"
    assert not ArticleRead.objects.filter(user=expert_user, article_id=first).exists()


def test_the_assigned_queues_and_the_article_s_review_record(ec, desk, expert_user):
    first, second = desk["first"].article_id, desk["second"].article_id
    services.bulk_assign([first], expert_user, desk["bob"])
    services.bulk_assign([second], desk["bob"], expert_user)
    mine = ec.get("/?assigned=me").content.decode()
    assert [re.search(r'data-href="/articles/(\d+)/', r).group(1) for r in rows(mine)] == [str(first)]
    theirs = ec.get(f"/?assigned={desk['bob'].pk}").content.decode()
    assert len(rows(theirs)) == 1 and "→ bob" in theirs
    assert len(rows(ec.get("/?assigned=none").content.decode())) == 1  # waiting: not the reviewed cornerstone
    assert len(rows(ec.get("/?assigned=none&state=any").content.decode())) == 2
    assert ec.get("/?assigned=12345").status_code == 400  # not an expert's id: said, not ignored
    services.accept(desk["first"], expert_user)
    page = ec.get(reverse("classifier:article", args=[first])).content.decode()
    record = page[page.index('id="review"') :]
    assert re.search(r"Assigned to ada <span class=\"muted\">by bob, ", record)
    assert re.search(r"Accepted Sport/Football <span class=\"muted\">by ada, ", record)


def test_an_article_no_rule_fires_on_can_be_marked_reviewed_with_no_folder_from_its_page(ec, desk):
    quiet = desk["quiet"].article_id
    page = ec.get(reverse("classifier:article", args=[quiet])).content.decode()
    assert 'value="no_folder"' in page
    response = ec.post(BULK, {"article": [quiet], "action": "no_folder", "next": f"/articles/{quiet}/"}, follow=True)
    html = response.content.decode()
    assert "Reviewed, no folder: it belongs in no folder." in html
    assert re.search(r"Reviewed, no folder <span class=\"muted\">by ada, ", html)
    assert 'value="no_folder"' not in html  # reviewed now: nothing left to mark
    pending = ec.get(reverse("classifier:article", args=[desk["first"].article_id])).content.decode()
    assert 'value="no_folder"' not in pending  # a suggestion waits for a decision


@pytest.mark.parametrize("work", ["pending", "fetching", "fetched", "processing"])
def test_an_article_not_processed_yet_waits_for_no_expert(ec, desk, work, expert_user):
    """A live trial: each poll's new addresses stood in "Waiting for review" (titled by their URL, "No core text
    was extracted") for the seconds until they were fetched and processed. They are no work for an expert yet:
    out of the waiting and unreviewed lists (the inbox, the REST API), still under "Any state"."""
    queued = Article.objects.create(site=desk["quiet"].article.site, url=f"https://example.com/new-{work}", state=work)
    assert queued.review_state == "unreviewed"
    for query in ("/", "/?state=waiting", "/?state=unreviewed"):
        assert f'value="{queued.pk}"' not in ec.get(query).content.decode(), query
    assert f'value="{queued.pk}"' in ec.get("/?state=any").content.decode()
    assert f'value="{desk["quiet"].article_id}"' in ec.get("/").content.decode()  # a processed one still waits
    api = APIClient()
    api.force_authenticate(expert_user)
    listed = api.get("/api/articles/", {"review_state": "waiting"}).json()["results"]
    assert queued.pk not in {row["id"] for row in listed} and desk["quiet"].article_id in {row["id"] for row in listed}
