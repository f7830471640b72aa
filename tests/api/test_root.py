"""GET /api/: the API's root lists where each endpoint is (docs/user-guide.md sends scripts to /api/)."""

import pytest
from django.urls import get_resolver, resolve, reverse

pytestmark = pytest.mark.django_db


def test_the_root_lists_every_collection_the_schema_and_the_docs(api_as):
    response = api_as("no_role").get("/api/")
    assert response.status_code == 200
    listed = response.json()
    assert listed["articles"] == "http://testserver/api/articles/"
    assert listed["subscriptions"] == "http://testserver/api/subscriptions/"
    assert listed["docs"] == "http://testserver/api/docs/"
    collections = {
        f"{p.namespace}:{q.name}"
        for p in get_resolver().url_patterns
        if getattr(p, "namespace", None) in ("api", "alerts-api")
        for q in p.url_patterns
        if q.name.endswith("-list")
    }
    assert {resolve(url.removeprefix("http://testserver")).view_name for url in listed.values()} >= collections


def test_anonymous_is_told_to_authenticate_as_on_every_endpoint(api_as):
    response = api_as("anonymous").get(reverse("api:root"))
    assert response.status_code == 401 and response["WWW-Authenticate"] == "Token"
