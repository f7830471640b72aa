"""Logins are throttled (django-axes): after 5 wrong passwords a user name is locked on that address with a
clear page, the right password no longer works there, other users and other addresses are unaffected, and a
site administrator unlocks it in the admin. (The right password used to work after 200 wrong ones.)"""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def attempt(client, username, password, address="10.0.0.1"):
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address, follow=False
    )


@pytest.mark.parametrize("login_url", ["login", "admin:login"])
def test_five_wrong_passwords_lock_that_user_on_that_address_only(client, django_user_model, login_url):
    django_user_model.objects.create_user("victim", password="right-horse-battery")  # noqa: S106
    django_user_model.objects.create_user("colleague", password="other-staple-2")  # noqa: S106
    for i in range(5):
        response = client.post(reverse(login_url), {"username": "victim", "password": "guess"}, REMOTE_ADDR="10.0.0.1")
        assert response.status_code == (200 if i < 4 else 429)  # the form with its error; the fifth locks
    locked = client.post(
        reverse(login_url), {"username": "victim", "password": "right-horse-battery"}, REMOTE_ADDR="10.0.0.1"
    )
    assert locked.status_code == 429
    assert "Too many failed logins" in locked.content.decode()
    assert "_auth_user_id" not in client.session
    # the same user from another address, and another user from this address, still log in
    assert attempt(client, "victim", "right-horse-battery", "10.0.0.2").status_code == 302
    client.logout()
    assert attempt(client, "colleague", "other-staple-2").status_code == 302


def test_a_site_administrator_unlocks_in_the_admin(client, django_user_model, admin_client):
    from axes.models import AccessAttempt

    django_user_model.objects.create_user("victim", password="right-horse-battery")  # noqa: S106
    for _ in range(5):
        attempt(client, "victim", "guess")
    assert attempt(client, "victim", "right-horse-battery").status_code == 429
    assert admin_client.get(reverse("admin:axes_accessattempt_changelist")).status_code == 200
    AccessAttempt.objects.filter(username="victim").delete()  # what the admin's delete action does
    assert attempt(client, "victim", "right-horse-battery").status_code == 302
