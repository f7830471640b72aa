"""Folders (the tree, each with its path) and the feed list (public folders for everybody signed in, private ones
for experts, as the feed list page shows them)."""

import pytest
from django.test import Client

from classifier import services


@pytest.mark.django_db
def test_folders_in_path_order_and_a_folders_place_in_the_tree(api_as, users, kb):
    services.create_folder("Health/Measles/Europe", users["expert"])
    client = api_as("expert")
    rows = client.get("/api/folders/").json()["results"]
    assert [r["path"] for r in rows] == ["Health", "Health/Measles", "Health/Measles/Europe", "Internal"]
    assert rows[1]["parent"] == kb["health"].pk and rows[1]["name"] == "Measles"
    detail = client.get(f"/api/folders/{kb['measles'].pk}/").json()
    assert detail["ancestors"] == [{"id": kb["health"].pk, "path": "Health"}]
    assert [c["path"] for c in detail["children"]] == ["Health/Measles/Europe"]
    assert client.get("/api/folders/999999/").status_code == 404


@pytest.mark.django_db
def test_folder_pages_follow_the_cursor(api_as, users, kb):
    client = api_as("expert")
    first = client.get("/api/folders/", {"page_size": 2}).json()
    second = client.get(first["next"]).json()
    assert [r["path"] for r in first["results"] + second["results"]] == ["Health", "Health/Measles", "Internal"]
    assert second["next"] is None


@pytest.mark.django_db
@pytest.mark.parametrize("role, private_listed", [("no_role", False), ("site_admin", False), ("expert", True)])
def test_the_feed_list_shows_what_the_feed_page_shows(api_as, kb, role, private_listed):
    rows = api_as(role).get("/api/feeds/").json()["results"]
    paths = [r["folder"]["path"] for r in rows]
    assert paths == (["Health", "Health/Measles", "Internal"] if private_listed else ["Health", "Health/Measles"])
    measles = rows[1]
    assert measles["public"] is True and measles["needs_token"] is False
    slugged = f"/feeds/{kb['measles'].pk}-health-measles/"
    assert measles["rss"] == f"http://testserver{slugged}rss/"
    assert measles["atom_subfolders"] == f"http://testserver{slugged}atom/?subfolders=1"
    if private_listed:
        assert rows[2]["needs_token"] is True


@pytest.mark.django_db
def test_the_listed_feed_urls_answer(api_as, kb):
    rows = api_as("expert").get("/api/feeds/").json()["results"]
    browser = Client()
    for row in rows:
        for key in ("rss", "atom", "rss_subfolders", "atom_subfolders"):
            response = browser.get(row[key].removeprefix("http://testserver"))
            # a private folder's feed needs a feed token: without one it is not there
            assert response.status_code == (404 if row["needs_token"] else 200), (row[key], response.status_code)
