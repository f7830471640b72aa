"""Articles: the list (filters, newest first, cursor pages), the detail (core text, DocView elements, suggestions
with their rule paths, classifications), and accept / reject with the effects the workspace's buttons have."""

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from classifier.models import AuditEntry, Classification, Correction
from monitor.models import Article
from processing.models import ArticleContent
from tests.api.conftest import make_article


def ids(response) -> list[int]:
    return [row["id"] for row in response.json()["results"]]


def classification(article, folder) -> Classification:
    return Classification.objects.get(case__article=article, folder=folder)


# --------------------------------------------------------------------------- list
@pytest.mark.django_db
def test_the_list_is_newest_first_with_each_articles_folders(api_as, kb):
    response = api_as("expert").get("/api/articles/")
    assert response.status_code == 200
    assert ids(response) == [kb["pending"].pk, kb["cornerstone"].pk]
    first = response.json()["results"][0]
    assert first["site"] == {"id": kb["pending"].site_id, "name": "Daily"}
    assert first["review_state"] == "suggested"
    assert first["folders"] == [{"folder_id": kb["measles"].pk, "path": "Health/Measles", "state": "suggested"}]
    assert "core_text" not in first  # the list stays light: the text is in the detail


@pytest.mark.django_db
def test_the_list_filters_by_site_folder_and_review_state(api_as, kb, site, other_site):
    elsewhere = make_article(other_site, "measles in the east")  # suggested Health/Measles too
    unrelated = make_article(site, "football results")
    client = api_as("expert")
    assert ids(client.get("/api/articles/", {"site": other_site.pk})) == [elsewhere.pk]
    assert ids(client.get("/api/articles/", {"folder": kb["measles"].pk})) == [
        elsewhere.pk,
        kb["pending"].pk,
        kb["cornerstone"].pk,
    ]
    assert ids(client.get("/api/articles/", {"state": "reviewed"})) == [kb["cornerstone"].pk]
    # issue 30: "reviewed" was "classified" in the API; the old value still filters (deprecated, docs/user-guide.md)
    assert ids(client.get("/api/articles/", {"state": "classified"})) == [kb["cornerstone"].pk]
    assert client.get(f"/api/articles/{kb['cornerstone'].pk}/").json()["review_state"] == "reviewed"
    assert ids(client.get("/api/articles/", {"state": "unreviewed"})) == [unrelated.pk]
    assert ids(client.get("/api/articles/", {"state": "suggested", "site": site.pk})) == [kb["pending"].pk]
    # the filter also goes by the results' own name for the field (it was silently ignored)
    assert ids(client.get("/api/articles/", {"review_state": "reviewed"})) == [kb["cornerstone"].pk]
    # what the inbox lists by default, by the inbox's name for it; without a filter, every state
    waiting = [unrelated.pk, elsewhere.pk, kb["pending"].pk]
    assert ids(client.get("/api/articles/", {"review_state": "waiting"})) == waiting
    assert ids(client.get("/api/articles/")) == [*waiting, kb["cornerstone"].pk]
    both = client.get("/api/articles/", {"review_state": "reviewed", "state": "unreviewed"})
    assert both.status_code == 400 and "review_state" in both.json()
    # a rejected classification takes the article out of the folder's list
    client.post(f"/api/articles/{elsewhere.pk}/reject/", {"folder": kb["measles"].pk}, format="json")
    assert elsewhere.pk not in ids(client.get("/api/articles/", {"folder": kb["measles"].pk}))
    # a folder holds what its subfolders hold, as the search's folder filter says
    assert ids(client.get("/api/articles/", {"folder": kb["health"].pk})) == [kb["pending"].pk, kb["cornerstone"].pk]
    assert ids(client.get("/api/articles/", {"folder": kb["internal"].pk})) == []


@pytest.mark.django_db
def test_the_list_filters_by_assignee_and_by_what_the_caller_has_read(api_as, kb, users):
    from classifier import services

    expert, root = users["expert"], users["superuser"]
    services.bulk_assign([kb["pending"].pk], expert, root)
    client = api_as("expert")
    assert ids(client.get("/api/articles/", {"assigned": "me"})) == [kb["pending"].pk]
    assert ids(client.get("/api/articles/", {"assigned": str(expert.pk)})) == [kb["pending"].pk]
    assert ids(client.get("/api/articles/", {"assigned": "none"})) == [kb["cornerstone"].pk]
    assert ids(api_as("superuser").get("/api/articles/", {"assigned": "me"})) == []
    # read and unread are the caller's own: the workspace's article page (or mark_read) marks an article read
    services.mark_read([kb["cornerstone"].pk], expert)
    assert ids(client.get("/api/articles/", {"unread": "true"})) == [kb["pending"].pk]
    assert ids(client.get("/api/articles/", {"unread": "false"})) == [kb["cornerstone"].pk]
    assert ids(api_as("superuser").get("/api/articles/", {"unread": "true"})) == [
        kb["pending"].pk,
        kb["cornerstone"].pk,
    ]
    assert ids(client.get("/api/articles/", {"unread": "true", "assigned": "me", "state": "pending"})) == [
        kb["pending"].pk
    ]
    response = client.get("/api/articles/", {"assigned": "someone"})
    assert response.status_code == 400 and "assigned" in response.json()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "params, field",
    [({"state": "lost"}, "state"), ({"site": "999"}, "site"), ({"folder": "x"}, "folder"), ({"site": "-1"}, "site")],
)
def test_a_filter_that_cannot_be_read_is_a_400_that_names_it(api_as, kb, params, field):
    response = api_as("expert").get("/api/articles/", params)
    assert response.status_code == 400
    assert field in response.json()


@pytest.mark.django_db
def test_cursor_pages_walk_every_article_once_even_while_new_ones_arrive(api_as, site):
    now = timezone.now()
    made = [make_article(site, f"story number {i}") for i in range(7)]
    # two articles collected in the same instant: the id breaks the tie, neither is lost or repeated
    Article.objects.filter(pk__in=[made[2].pk, made[3].pk]).update(collected_at=now - timedelta(minutes=1))
    expected = list(Article.objects.order_by("-collected_at", "-id").values_list("id", flat=True))
    client = api_as("expert")
    response = client.get("/api/articles/", {"page_size": 3})
    seen, pages = ids(response), 1
    make_article(site, "a story that arrives while the client pages")  # newer: it must not shift the pages
    while response.json()["next"]:
        response = client.get(response.json()["next"])
        assert response.status_code == 200
        seen += ids(response)
        pages += 1
    assert seen == expected
    assert pages == 3
    back = client.get(response.json()["previous"])  # and back again
    assert ids(back) == expected[3:6]


@pytest.mark.django_db
def test_a_malformed_cursor_is_a_404_not_a_server_error(api_as, kb):
    response = api_as("expert").get("/api/articles/", {"cursor": "not-a-cursor"})
    assert response.status_code == 404
    assert "cursor" in response.json()["detail"].lower()


# --------------------------------------------------------------------------- detail
@pytest.mark.django_db
def test_the_detail_has_the_text_docview_elements_suggestions_with_rule_paths_and_classifications(api_as, kb):
    ArticleContent.objects.filter(pk=kb["pending"].pk).update(abstract="Measles cases rise.")
    Article.objects.filter(pk=kb["pending"].pk).update(title="<b>Measles</b>")
    response = api_as("expert").get(f"/api/articles/{kb['pending'].pk}/")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    data = response.json()
    assert data["title"] == "<b>Measles</b>"  # untrusted text travels as data, never as markup
    assert data["core_text"] == "measles cases rise again"
    assert data["abstract"] == "Measles cases rise."
    assert data["keywords"] == [{"term": "measles", "weight": 0.9}, {"term": "cases", "weight": 0.4}]
    (suggestion,) = data["suggestions"]
    assert suggestion["folder"] == {"id": kb["measles"].pk, "path": "Health/Measles"}
    assert suggestion["state"] == "suggested"
    assert [r["id"] for r in suggestion["rules"]] == [kb["rule"].pk]
    assert suggestion["rules"][0]["conditions"] == ["measles"]
    assert suggestion["rules"][0]["kind"] == "new"
    (row,) = data["classifications"]
    assert row["folder"]["path"] == "Health/Measles"
    assert row["state"] == "suggested"
    assert row["rule"] == kb["rule"].pk
    assert row["decided_by"] is None
    assert data["assignee"] is None


@pytest.mark.django_db
def test_the_detail_names_the_expert_the_article_is_assigned_to(api_as, users, kb):
    Article.objects.filter(pk=kb["pending"].pk).update(assignee=users["expert"])
    data = api_as("expert").get(f"/api/articles/{kb['pending'].pk}/").json()
    assert data["assignee"] == {"id": users["expert"].pk, "username": "expert"}


@pytest.mark.django_db
def test_an_article_not_yet_processed_has_no_decisions_and_cannot_be_decided_on(api_as, site):
    article = Article.objects.create(site=site, url="https://daily.example/new", title="new")
    client = api_as("expert")
    data = client.get(f"/api/articles/{article.pk}/").json()
    assert data["suggestions"] == [] and data["classifications"] == []
    response = client.post(f"/api/articles/{article.pk}/accept/", {}, format="json")
    assert response.status_code == 400
    assert "not processed" in str(response.json())
    assert client.get("/api/articles/999999/").status_code == 404


# --------------------------------------------------------------------------- accept / reject
@pytest.mark.django_db
def test_accept_goes_through_the_classifier_service_state_audit_and_review_state(api_as, users, kb):
    article = kb["pending"]
    response = api_as("expert").post(f"/api/articles/{article.pk}/accept/", {}, format="json")
    assert response.status_code == 200
    row = classification(article, kb["measles"])
    assert row.state == Classification.State.ACCEPTED
    assert row.decided_by == users["expert"]
    article.refresh_from_db()
    assert article.review_state == "reviewed"
    entry = AuditEntry.objects.filter(action="classification.accept").first()
    assert entry is not None and entry.actor == users["expert"]
    assert entry.details == {"case": article.case.pk, "as_is": True, "folders": [kb["measles"].pk]}
    # the answer is the article as it is now
    assert response.json()["review_state"] == "reviewed"
    assert response.json()["classifications"][0]["state"] == "accepted"
    assert response.json()["classifications"][0]["decided_by"] == "expert"
    # accepting again: nothing is pending any more, refused with the bulk action's reason (200 and no change before)
    again = api_as("expert").post(f"/api/articles/{article.pk}/accept/", {}, format="json")
    assert again.status_code == 400 and "no suggestions to accept" in str(again.json())
    assert AuditEntry.objects.filter(action="classification.accept").count() == 1


@pytest.mark.django_db
def test_accept_named_folders_only_and_refuse_a_folder_the_article_is_not_in(api_as, kb):
    client = api_as("expert")
    article = kb["pending"]
    response = client.post(f"/api/articles/{article.pk}/accept/", {"folders": [kb["internal"].pk]}, format="json")
    assert response.status_code == 400
    assert "Internal" in str(response.json())  # names the folder
    assert classification(article, kb["measles"]).state == Classification.State.SUGGESTED  # nothing changed
    assert not AuditEntry.objects.filter(action="classification.accept").exists()
    for bad in ({"folders": []}, {"folders": ["x"]}, {"folders": "3"}):
        assert client.post(f"/api/articles/{article.pk}/accept/", bad, format="json").status_code == 400
    response = client.post(f"/api/articles/{article.pk}/accept/", {"folders": [kb["measles"].pk]}, format="json")
    assert response.status_code == 200
    assert AuditEntry.objects.get(action="classification.accept").details["as_is"] is False


@pytest.mark.django_db
def test_reject_goes_through_the_classifier_service_and_a_rejected_folder_can_be_accepted_again(api_as, users, kb):
    article = kb["pending"]
    client = api_as("expert")
    response = client.post(f"/api/articles/{article.pk}/reject/", {"folder": kb["measles"].pk}, format="json")
    assert response.status_code == 200
    row = classification(article, kb["measles"])
    assert row.state == Classification.State.REJECTED and row.decided_by == users["expert"]
    article.refresh_from_db()
    # a rule still gives the folder: the rejection waits for the rule that corrects it, as in the workspace
    assert article.review_state == "correction"
    correction = Correction.objects.get(case=article.case, folder=kb["measles"])
    assert correction.state == Correction.State.PENDING
    entry = AuditEntry.objects.get(action="classification.reject")
    assert entry.actor == users["expert"]
    assert entry.details == {"case": article.case.pk, "folder": kb["measles"].pk, "correction": correction.pk}
    assert response.json()["suggestions"][0]["state"] == "rejected"
    # accepted again when named explicitly, as in the workspace: the pending correction is withdrawn with it
    client.post(f"/api/articles/{article.pk}/accept/", {"folders": [kb["measles"].pk]}, format="json")
    assert classification(article, kb["measles"]).state == Classification.State.ACCEPTED
    correction.refresh_from_db()
    assert correction.state == Correction.State.WITHDRAWN
    article.refresh_from_db()
    assert article.review_state == "reviewed"


@pytest.mark.django_db
@pytest.mark.parametrize("body", [{}, {"folder": "x"}, {"folder": 999999}])
def test_reject_needs_a_folder_the_article_is_in(api_as, kb, body):
    response = api_as("expert").post(f"/api/articles/{kb['pending'].pk}/reject/", body, format="json")
    assert response.status_code == 400
    assert classification(kb["pending"], kb["measles"]).state == Classification.State.SUGGESTED


@pytest.mark.django_db
def test_the_browsers_session_works_and_needs_the_csrf_token_to_change_anything(users, kb):
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(users["expert"])
    assert client.get("/api/articles/").status_code == 200
    url = f"/api/articles/{kb['pending'].pk}/accept/"
    response = client.post(url, {}, format="json")
    assert response.status_code == 403
    assert "CSRF" in response.json()["detail"]
    assert classification(kb["pending"], kb["measles"]).state == Classification.State.SUGGESTED
    client.get("/api/tokens/")  # any page sets the CSRF cookie
    token = client.cookies["csrftoken"].value
    assert client.post(url, {}, format="json", HTTP_X_CSRFTOKEN=token).status_code == 200
    assert classification(kb["pending"], kb["measles"]).state == Classification.State.ACCEPTED


@pytest.mark.django_db
def test_a_list_page_costs_the_same_queries_however_many_articles_it_shows(api_as, kb, site):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client = api_as("expert")
    client.get("/api/articles/")  # the token's last use is written once a minute at most: out of the count

    def queries(path: str) -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(path).status_code == 200
        return len(captured)

    few = queries("/api/articles/")
    for i in range(20):
        make_article(site, f"measles report {i}")
    assert queries("/api/articles/") == few  # no query per article (site, folders: loaded per page)
    assert queries("/api/folders/") == queries("/api/folders/?page_size=1")


@pytest.mark.django_db
def test_each_result_names_the_state_its_filter_found_it_by(api_as, kb, site):
    """A failed or duplicate article reads so in the results and the detail, as the inbox and the filter say it
    (it read "unreviewed", its review state, which never changes without a case)."""
    failed, copy = make_article(site, "fetch failed"), make_article(site, "measles again")
    Article.objects.filter(pk=failed.pk).update(state=Article.State.FAILED)
    Article.objects.filter(pk=copy.pk).update(state=Article.State.DUPLICATE, duplicate_of=kb["pending"])
    client = api_as("expert")
    for state, article in (("failed", failed), ("duplicate", copy)):
        listed = client.get("/api/articles/", {"state": state}).json()["results"]
        assert [(row["id"], row["review_state"]) for row in listed] == [(article.pk, state)]
        assert client.get(f"/api/articles/{article.pk}/").json()["review_state"] == state


@pytest.mark.django_db
def test_state_means_one_thing_review_state_and_processing_state_each_another(api_as, kb, site):
    """Issue 30's trial: each result's `state` was the processing state while `?state=` filtered by review state.
    The answers name the processing state `processing_state` (in today's words: `queued`, not `pending`); the
    old `state` stays in them, unchanged, for old clients; `?state=` still filters by review state but says it is
    deprecated, pointing to `review_state`."""
    waiting = make_article(site, "measles in the south")
    Article.objects.filter(pk=waiting.pk).update(state=Article.State.PENDING)
    client = api_as("expert")
    listed = {row["id"]: row for row in client.get("/api/articles/").json()["results"]}
    assert (listed[waiting.pk]["processing_state"], listed[waiting.pk]["state"]) == ("queued", "pending")
    row = listed[kb["pending"].pk]
    assert (row["processing_state"], row["state"], row["review_state"]) == ("processed", "processed", "suggested")
    detail = client.get(f"/api/articles/{waiting.pk}/").json()
    assert (detail["processing_state"], detail["state"]) == ("queued", "pending")

    named = client.get("/api/articles/", {"review_state": "suggested"})
    assert "Deprecation" not in named and "Warning" not in named
    old = client.get("/api/articles/", {"state": "suggested"})
    assert ids(old) == ids(named) == [waiting.pk, kb["pending"].pk]
    assert old["Deprecation"].startswith("@") and int(old["Deprecation"][1:]) > 0
    assert "review_state" in old["Warning"] and old["Warning"].startswith("299 ")
    assert 'rel="deprecation"' in old["Link"] and "/api/docs/" in old["Link"]


@pytest.mark.django_db
def test_the_list_and_the_detail_say_whether_the_page_gave_the_time_of_day(api_as, kb, site):
    """Monitor migration 0017 keeps whether the source gave a time of day or only a day (stored as midnight UTC):
    a client could not tell a day from a story published at midnight (a live trial)."""
    published = timezone.now().replace(hour=0, minute=0, second=0, microsecond=0)
    day = make_article(site, "a day only", published_at=published, published_time_given=False)
    timed = make_article(site, "a time too", published_at=published, published_time_given=True)
    client = api_as("expert")
    rows = {row["id"]: row for row in client.get("/api/articles/").json()["results"]}
    assert rows[day.pk]["published_time_given"] is False
    assert rows[timed.pk]["published_time_given"] is True
    assert rows[kb["pending"].pk]["published_time_given"] is None  # no date given at all
    assert client.get(f"/api/articles/{day.pk}/").json()["published_time_given"] is False
    # read-only: an accept's body does not change it
    answer = client.post(f"/api/articles/{kb['pending'].pk}/accept/", {"published_time_given": True}, format="json")
    assert answer.status_code == 200 and answer.json()["published_time_given"] is None
