"""API tokens: created and revoked in the workspace (/api/tokens/), shown once, stored as a digest, used with
`Authorization: Token`, several per user, each revocable on its own, nobody else's to revoke."""

import hashlib
import re

import pytest
from django.test import Client
from rest_framework.test import APIClient

from api.models import ApiToken

TOKEN = re.compile(r'<code class="token">(wims_[0-9a-f]{64})</code>')


def create(client, name: str) -> str:
    response = client.post("/api/tokens/", {"name": name})
    assert response.status_code == 201, response.content[:500]
    assert "no-store" in response["Cache-Control"]  # the one page that shows the token is never cached
    (token,) = TOKEN.findall(response.content.decode())
    return token


def bearer(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


@pytest.mark.django_db
def test_a_token_is_created_in_the_workspace_shown_once_and_stored_as_a_digest(users, kb):
    page = Client(enforce_csrf_checks=False)
    page.force_login(users["expert"])
    token = create(page, "outbreak desk script")
    row = ApiToken.objects.get(user=users["expert"])
    assert row.name == "outbreak desk script"
    assert row.digest == hashlib.sha512(token.encode()).hexdigest()  # knox's digest: the token is nowhere
    assert token not in {getattr(row, f.attname) for f in ApiToken._meta.concrete_fields}
    listing = page.get("/api/tokens/").content.decode()
    assert "outbreak desk script" in listing and token not in listing  # never shown again
    assert row.token_key in listing  # only its first characters, to tell tokens apart
    # the token works for the API, as its user, with its user's roles
    client = bearer(token)
    assert client.get("/api/articles/").status_code == 200
    assert client.get("/api/sites/").status_code == 403
    row.refresh_from_db()
    assert row.last_used_at is not None


@pytest.mark.django_db
def test_several_named_tokens_each_revoked_on_its_own(users, kb):
    page = Client()
    page.force_login(users["expert"])
    laptop, server = create(page, "laptop"), create(page, "server")
    response = page.post("/api/tokens/", {"name": "laptop"})
    assert response.status_code == 400 and "already have a token named" in response.content.decode()
    assert page.post("/api/tokens/", {"name": "  "}).status_code == 400
    row = ApiToken.objects.get(name="laptop")
    response = page.post(f"/api/tokens/{row.pk}/revoke/")
    assert response.status_code == 302
    assert bearer(laptop).get("/api/articles/").status_code == 401  # refused at once
    assert bearer(server).get("/api/articles/").status_code == 200  # the other one still works


@pytest.mark.django_db
def test_nobody_revokes_another_users_token(users, kb):
    page = Client()
    page.force_login(users["expert"])
    token = create(page, "mine")
    row = ApiToken.objects.get(user=users["expert"])
    intruder = Client()
    intruder.force_login(users["superuser"])
    assert intruder.post(f"/api/tokens/{row.pk}/revoke/").status_code == 404
    assert "mine" not in intruder.get("/api/tokens/").content.decode()  # nor sees it
    assert bearer(token).get("/api/articles/").status_code == 200


@pytest.mark.django_db
def test_the_tokens_page_needs_a_login_and_its_forms_need_the_csrf_token(users):
    anonymous = Client()
    response = anonymous.get("/api/tokens/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert anonymous.post("/api/tokens/", {"name": "x"}).status_code == 302
    assert not ApiToken.objects.exists()
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(users["no_role"])
    assert strict.get("/api/tokens/").status_code == 200  # any signed-in user: the API applies the roles
    assert strict.post("/api/tokens/", {"name": "x"}).status_code == 403
    assert not ApiToken.objects.exists()
    assert strict.get("/api/tokens/1/revoke/").status_code == 405


@pytest.mark.django_db
def test_a_token_name_is_escaped_on_the_page(users):
    page = Client()
    page.force_login(users["expert"])
    create(page, "<script>alert(1)</script>")
    html = page.get("/api/tokens/").content.decode()
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
