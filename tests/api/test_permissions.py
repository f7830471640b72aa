"""Every endpoint with every role: anonymous 401, signed in without the role 403, the role (and superusers) 2xx.

The roles are the views' (foundation/roles.py): experts for articles, folders, suggestions and saved searches; site
administrators for sites; everybody signed in for the feed list. Requests carry a real token.
"""

import pytest
from django.urls import get_resolver, resolve

from alerts.models import Subscription
from search.models import SavedSearch
from tests.api.conftest import ROLES

EXPERT_ONLY = {"anonymous": 401, "no_role": 403, "expert": 200, "site_admin": 403, "superuser": 200}
SITE_ADMIN_ONLY = {"anonymous": 401, "no_role": 403, "expert": 403, "site_admin": 200, "superuser": 200}
SIGNED_IN = {"anonymous": 401, "no_role": 200, "expert": 200, "site_admin": 200, "superuser": 200}


APPRISE = {"channel": "apprise", "notify_url": "json://hooks.example/wims"}


def created(expected: dict) -> dict:
    return {role: 201 if code == 200 else code for role, code in expected.items()}


def endpoints(kb, site, saved, subscription):
    """(method, url, body, expected status per role) for every API endpoint; ``saved`` and ``subscription``: a
    saved search and a subscription of the requesting user's own (another's is 404 for everybody:
    test_saved_searches, test_subscriptions)."""
    article, folder = kb["pending"].pk, kb["measles"].pk
    return [
        ("get", "/api/", None, SIGNED_IN),
        ("get", "/api/articles/", None, EXPERT_ONLY),
        ("get", f"/api/articles/{article}/", None, EXPERT_ONLY),
        ("post", f"/api/articles/{article}/accept/", {"folders": [folder]}, EXPERT_ONLY),
        ("post", f"/api/articles/{article}/reject/", {"folder": folder}, EXPERT_ONLY),
        ("get", "/api/folders/", None, EXPERT_ONLY),
        ("get", f"/api/folders/{folder}/", None, EXPERT_ONLY),
        ("get", "/api/feeds/", None, SIGNED_IN),
        ("get", "/api/saved-searches/", None, EXPERT_ONLY),
        ("post", "/api/saved-searches/", {"name": "measles {n}", "query": "measles"}, created(EXPERT_ONLY)),
        ("get", f"/api/saved-searches/{saved}/", None, EXPERT_ONLY),
        ("get", f"/api/saved-searches/{saved}/articles/", None, EXPERT_ONLY),
        ("patch", f"/api/saved-searches/{saved}/", {"public": True}, EXPERT_ONLY),
        ("put", f"/api/saved-searches/{saved}/", {"name": "mine", "query": "rubella"}, EXPERT_ONLY),
        ("delete", f"/api/saved-searches/{saved}/", None, {**EXPERT_ONLY, "expert": 204, "superuser": 204}),
        ("get", "/api/subscriptions/", None, EXPERT_ONLY),
        ("post", "/api/subscriptions/", {"folder": folder, **APPRISE}, created(EXPERT_ONLY)),
        ("get", f"/api/subscriptions/{subscription}/", None, EXPERT_ONLY),
        ("patch", f"/api/subscriptions/{subscription}/", {"frequency": "weekly"}, EXPERT_ONLY),
        ("put", f"/api/subscriptions/{subscription}/", {"folder": folder, **APPRISE}, EXPERT_ONLY),
        ("post", f"/api/subscriptions/{subscription}/retry/", None, EXPERT_ONLY),
        ("delete", f"/api/subscriptions/{subscription}/", None, {**EXPERT_ONLY, "expert": 204, "superuser": 204}),
        ("get", "/api/sites/", None, SITE_ADMIN_ONLY),
        ("get", f"/api/sites/{site.pk}/", None, SITE_ADMIN_ONLY),
        ("patch", f"/api/sites/{site.pk}/", {"poll_interval": 900}, SITE_ADMIN_ONLY),
        ("post", f"/api/sites/{site.pk}/find-sources/", None, SITE_ADMIN_ONLY),
        ("post", f"/api/sites/{site.pk}/deactivate/", None, SITE_ADMIN_ONLY),
        ("post", "/api/sites/", {"name": "S{n}", "home_url": "https://s{n}.example/"}, created(SITE_ADMIN_ONLY)),
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
def test_every_endpoint_answers_each_role_as_the_views_do(role, api_as, users, kb, site):
    client = api_as(role)
    owner = users[role] or users["expert"]
    saved = SavedSearch.objects.create(owner=owner, name="mine", query="measles").pk
    sub = Subscription.objects.create(user=owner, folder=kb["measles"], **APPRISE).pk
    for n, (method, url, body, expected) in enumerate(endpoints(kb, site, saved, sub)):
        if body is not None:
            body = {k: v.format(n=n) if isinstance(v, str) else v for k, v in body.items()}
        response = getattr(client, method)(url, body, format="json")
        assert response.status_code == expected[role], (method, url, response.status_code, response.content[:300])
        if expected[role] == 401:
            assert response["WWW-Authenticate"] == "Token"  # says how to authenticate


@pytest.mark.django_db
def test_every_api_url_is_covered_by_the_role_matrix(kb, site):
    """A new endpoint must join the matrix above (or the open schema and docs, or the tokens page)."""
    tested = {resolve(url).view_name for _, url, _, _ in endpoints(kb, site, 1, 1)}
    names = {
        f"{p.namespace}:{q.name}"
        for p in get_resolver().url_patterns
        if getattr(p, "namespace", None) in ("api", "alerts-api")
        for q in p.url_patterns
    }
    assert names - tested == {"api:schema", "api:docs", "api:tokens", "api:token-revoke"}, names - tested


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
def test_the_schema_and_its_documentation_are_open(role, api_as):
    """They describe the API's shape (as the source does) and hold no data, so client generators and newcomers
    read them without a token; every endpoint they describe still needs one."""
    client = api_as(role)
    assert client.get("/api/schema/").status_code == 200
    assert client.get("/api/docs/").status_code == 200


@pytest.mark.django_db
def test_a_bad_or_revoked_token_is_401_not_anonymous_access(users, kb):
    from rest_framework.test import APIClient

    from api import services

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token wims_0123456789abcdef")
    assert client.get("/api/feeds/").status_code == 401
    row, token = services.issue_token(users["expert"], "laptop")
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert client.get("/api/articles/").status_code == 200
    assert services.revoke_token(users["expert"], row.pk)
    assert client.get("/api/articles/").status_code == 401


@pytest.mark.django_db
def test_an_inactive_users_token_is_refused(users, api_as):
    client = api_as("expert")
    users["expert"].is_active = False
    users["expert"].save()
    assert client.get("/api/articles/").status_code == 401


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["articles", "folders", "saved-searches", "sites", "subscriptions"])
def test_an_id_that_is_not_a_number_is_404(api_as, path):
    assert api_as("superuser").get(f"/api/{path}/abc/").status_code == 404
    assert api_as("superuser").post(f"/api/{path}/1x/accept/").status_code == 404
