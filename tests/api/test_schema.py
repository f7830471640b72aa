"""The OpenAPI 3 schema validates with no warning, describes every endpoint and both ways to authenticate, and
its documentation page is served from WIMS's own static files under the site's Content-Security-Policy."""

import io

import pytest
import yaml
from django.core.management import call_command
from django.test import Client


@pytest.fixture
def schema() -> dict:
    """The schema as `manage.py spectacular --validate --fail-on-warn` writes it: any warning fails the test."""
    out = io.StringIO()
    call_command("spectacular", "--validate", "--fail-on-warn", stdout=out)
    return yaml.safe_load(out.getvalue())


def test_the_schema_validates_without_warnings_and_covers_every_endpoint(schema):
    assert schema["openapi"].startswith("3.")
    paths = schema["paths"]
    assert {
        "/api/articles/",
        "/api/articles/{id}/",
        "/api/articles/{id}/accept/",
        "/api/articles/{id}/reject/",
        "/api/folders/",
        "/api/folders/{id}/",
        "/api/feeds/",
        "/api/saved-searches/",
        "/api/saved-searches/{id}/",
        "/api/sites/",
        "/api/sites/{id}/",
        "/api/sites/{id}/deactivate/",
        "/api/subscriptions/",
        "/api/subscriptions/{id}/",
        "/api/subscriptions/{id}/retry/",
    } <= set(paths)
    assert "/api/tokens/" not in paths  # the workspace page, not an API endpoint
    schemes = schema["components"]["securitySchemes"]
    assert (schemes["tokenAuth"]["type"], schemes["tokenAuth"]["in"], schemes["tokenAuth"]["name"]) == (
        "apiKey",
        "header",
        "Authorization",
    )
    assert "cookieAuth" in schemes
    assert "delete" not in paths["/api/sites/{id}/"]  # sites are deactivated, not deleted
    # every list says how it pages
    for path, item in paths.items():
        if path.endswith("/") and "{id}" not in path and "get" in item:
            names = {p["name"] for p in item["get"].get("parameters", [])}
            assert "cursor" in names, path


def test_article_filters_and_review_states_are_described(schema):
    parameters = {p["name"]: p for p in schema["paths"]["/api/articles/"]["get"]["parameters"]}
    assert {"site", "folder", "state", "cursor", "page_size"} <= set(parameters)
    for name in ("state", "review_state"):  # the review states, and the inbox's default group of them
        assert set(parameters[name]["schema"]["enum"]) == {
            "waiting",
            "unreviewed",
            "suggested",
            "correction",
            "reviewed",
            "failed",
            "duplicate",
        }, name


@pytest.mark.django_db
def test_the_docs_page_loads_swagger_ui_from_local_static_files_with_no_inline_script():
    response = Client().get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "swagger-ui" in html and "drf_spectacular_sidecar" in html
    assert "cdn" not in html.lower()
    assert "<script>" not in html.replace(" ", "")  # every script is a file (the CSP allows no inline script)
    csp = response["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp


@pytest.mark.django_db
def test_the_docs_page_has_no_inline_style_either():
    html = Client().get("/api/docs/").content.decode()
    assert "<style" not in html and "/static/api/docs.css" in html


def test_the_deprecated_state_is_marked_so_and_the_processing_state_named(schema):
    parameters = {p["name"]: p for p in schema["paths"]["/api/articles/"]["get"]["parameters"]}
    assert parameters["state"].get("deprecated") is True and "review_state" in parameters["state"]["description"]
    assert not parameters["review_state"].get("deprecated")
    for component in ("ArticleList", "ArticleDetail"):
        fields = schema["components"]["schemas"][component]["properties"]
        assert fields["state"].get("deprecated") is True, component
        assert "processing_state" in fields["state"]["description"]
        (ref,) = [part["$ref"] for part in fields["processing_state"]["allOf"]]
        words = schema["components"]["schemas"][ref.rsplit("/", 1)[1]]["enum"]
        assert "queued" in words and "pending" not in words
    saved = schema["components"]["schemas"]["SavedSearch"]["properties"]
    assert saved["state"].get("deprecated") is True and not saved["review_state"].get("deprecated")


def test_the_schema_says_suggested_not_the_retired_pending(schema):
    """Issue 30: "pending" named the suggested state; the schema's words are the pages' (the deprecated names
    are only mentioned as such, in backquotes)."""
    text = yaml.safe_dump(schema)
    assert "pending suggestion" not in text


def test_published_time_given_is_described_read_only_and_nullable(schema):
    for name in ("ArticleList", "ArticleDetail"):
        field = schema["components"]["schemas"][name]["properties"]["published_time_given"]
        assert (field["type"], field["readOnly"], field["nullable"]) == ("boolean", True, True), name
        assert "time of day" in field["description"], name
