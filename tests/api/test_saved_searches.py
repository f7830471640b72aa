"""Saved searches through the API: an expert's own, created, changed and deleted; another's is 404."""

import pytest

from search import services as search_services
from search.models import SavedSearch
from tests.api.conftest import make_article


@pytest.mark.django_db
def test_create_list_update_delete_ones_own_saved_search(api_as, users, kb, site):
    client = api_as("expert")
    response = client.post(
        "/api/saved-searches/",
        {"name": "Measles", "query": '"measles outbreak" -vaccine', "folder": kb["health"].pk, "state": "pending"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    saved = SavedSearch.objects.get(pk=response.json()["id"])
    assert saved.owner == users["expert"]
    assert (saved.query, saved.folder, saved.state, saved.public) == (
        '"measles outbreak" -vaccine',
        kb["health"],
        "suggested",  # posted as "pending", its name before issue 30
        False,
    )
    (row,) = client.get("/api/saved-searches/").json()["results"]
    assert (row["name"], row["review_state"], row["state"]) == ("Measles", "suggested", "suggested")
    response = client.patch(f"/api/saved-searches/{saved.pk}/", {"public": True, "site": site.pk}, format="json")
    assert response.status_code == 200
    saved.refresh_from_db()
    assert saved.public and saved.site == site
    assert client.delete(f"/api/saved-searches/{saved.pk}/").status_code == 204
    assert not SavedSearch.objects.exists()


@pytest.mark.django_db
def test_review_state_names_the_filter_and_state_is_its_deprecated_alias(api_as, kb):
    """Issue 30's trial: `state` meant the processing state in an article and the review state here; the
    saved search names its filter `review_state`, as the article list does, and still reads `state`."""
    client = api_as("expert")
    made = client.post("/api/saved-searches/", {"name": "A", "query": "measles", "review_state": "reviewed"})
    assert made.status_code == 201, made.json()
    assert (made.json()["review_state"], made.json()["state"]) == ("reviewed", "reviewed")
    saved = SavedSearch.objects.get(pk=made.json()["id"])
    assert saved.state == "reviewed"
    changed = client.patch(f"/api/saved-searches/{saved.pk}/", {"state": "classified"}, format="json")
    assert changed.json()["review_state"] == "reviewed"  # the old name and the old word, still read
    both = client.patch(
        f"/api/saved-searches/{saved.pk}/", {"state": "unreviewed", "review_state": "reviewed"}, format="json"
    )
    assert both.status_code == 400 and "review_state" in both.json()
    agreeing = client.patch(f"/api/saved-searches/{saved.pk}/", {"state": "pending", "review_state": "suggested"})
    assert agreeing.status_code == 200 and agreeing.json()["review_state"] == "suggested"


@pytest.mark.django_db
def test_a_saved_search_can_find_what_waits_for_review(api_as):
    """The search page saves `waiting` (the inbox's default, one of its state choices): the API reads and takes it."""
    client = api_as("expert")
    made = client.post("/api/saved-searches/", {"name": "Work", "query": "measles", "review_state": "waiting"})
    assert made.status_code == 201, made.json()
    assert SavedSearch.objects.get(pk=made.json()["id"]).state == "waiting"
    assert client.patch(f"/api/saved-searches/{made.json()['id']}/", {"state": "waiting"}).status_code == 200


@pytest.mark.django_db
def test_another_experts_saved_search_is_not_there_for_you(api_as, users, kb, django_user_model, groups):
    theirs = SavedSearch.objects.create(owner=users["superuser"], name="Theirs", query="rubella")
    client = api_as("expert")
    assert client.get("/api/saved-searches/").json()["results"] == []
    assert client.get(f"/api/saved-searches/{theirs.pk}/").status_code == 404
    assert client.patch(f"/api/saved-searches/{theirs.pk}/", {"query": "x"}, format="json").status_code == 404
    assert client.delete(f"/api/saved-searches/{theirs.pk}/").status_code == 404
    theirs.refresh_from_db()
    assert theirs.query == "rubella"
    # the owner is always the caller: a body naming another owner changes nothing
    response = client.post(
        "/api/saved-searches/", {"name": "Mine", "query": "mumps", "owner": users["superuser"].pk}, format="json"
    )
    assert response.status_code == 201
    assert SavedSearch.objects.get(name="Mine").owner == users["expert"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "body, field",
    [
        ({"name": "", "query": "measles"}, "name"),
        ({"name": "x", "query": "   "}, "query"),
        ({"name": "x", "query": "measles", "state": "lost"}, "state"),
        ({"name": "x", "query": "measles", "folder": 999999}, "folder"),
        ({"name": "x", "query": "measles", "date_from": "2026-02-01", "date_to": "2026-01-01"}, "date_to"),
        ({"name": "x", "query": "measles", "date_from": "yesterday"}, "date_from"),
        ({"name": "x" * 201, "query": "measles"}, "name"),
    ],
)
def test_bad_input_is_a_400_that_names_the_field(api_as, kb, body, field):
    response = api_as("expert").post("/api/saved-searches/", body, format="json")
    assert response.status_code == 400
    assert field in response.json()
    assert not SavedSearch.objects.exists()


@pytest.mark.django_db
def test_one_name_per_owner(api_as, users, kb):
    SavedSearch.objects.create(owner=users["superuser"], name="Measles", query="measles")
    client = api_as("expert")
    assert client.post("/api/saved-searches/", {"name": "Measles", "query": "a"}, format="json").status_code == 201
    response = client.post("/api/saved-searches/", {"name": "Measles", "query": "b"}, format="json")
    assert response.status_code == 400
    assert "non_field_errors" in response.json() or "name" in response.json()


@pytest.mark.django_db
def test_a_query_that_could_never_be_searched_is_refused_when_saved(api_as, kb):
    response = api_as("expert").post("/api/saved-searches/", {"name": "x", "query": "-measles"}, format="json")
    assert response.status_code == 400
    assert "query" in response.json()


@pytest.mark.django_db
def test_the_articles_a_saved_search_matches_newest_first(api_as, users, kb, site, other_site):
    elsewhere = make_article(other_site, "measles vaccination drive in the east")
    unrelated = make_article(site, "football results")
    for article in (kb["cornerstone"], kb["pending"], elsewhere, unrelated):
        search_services.index_article(article)
    client = api_as("expert")
    saved = SavedSearch.objects.create(owner=users["expert"], name="Measles", query="measles -vaccination")
    response = client.get(f"/api/saved-searches/{saved.pk}/articles/")
    assert response.status_code == 200
    assert [row["id"] for row in response.json()["results"]] == [kb["pending"].pk, kb["cornerstone"].pk]
    assert response.json()["results"][0]["folders"][0]["path"] == "Health/Measles"
    saved.query, saved.state = "measles", "pending"
    saved.save()
    assert [row["id"] for row in client.get(f"/api/saved-searches/{saved.pk}/articles/").json()["results"]] == [
        elsewhere.pk,
        kb["pending"].pk,
    ]
    # paged like the article list
    first = client.get(f"/api/saved-searches/{saved.pk}/articles/", {"page_size": 1}).json()
    assert [row["id"] for row in client.get(first["next"]).json()["results"]] == [kb["pending"].pk]
    # nobody else's
    assert api_as("superuser").get(f"/api/saved-searches/{saved.pk}/articles/").status_code == 404


@pytest.mark.django_db
def test_a_stored_query_the_backend_cannot_search_is_a_400_naming_the_query(api_as, users, kb):
    saved = SavedSearch.objects.create(owner=users["expert"], name="Broken", query="-measles")
    response = api_as("expert").get(f"/api/saved-searches/{saved.pk}/articles/")
    assert response.status_code == 400
    assert "query" in response.json()
