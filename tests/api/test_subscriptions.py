"""Subscriptions through the API (/api/subscriptions/, alerts/api.py): the pages' rules, one's own only."""

import pytest
from django.utils import timezone

from alerts.models import Delivery, Subscription
from search.models import SavedSearch

URL = "/api/subscriptions/"
APPRISE = {"channel": "apprise", "notify_url": "json://hooks.example/x"}


@pytest.fixture
def expert_with_address(users):
    users["expert"].email = "expert@example.org"
    users["expert"].save()
    return users["expert"]


@pytest.mark.django_db
def test_subscribe_list_change_and_unsubscribe(api_as, kb, expert_with_address):
    client = api_as("expert")
    response = client.post(
        URL,
        {"folder": kb["measles"].pk, "frequency": "daily", "send_time": "07:30", "time_zone": "Europe/Berlin"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    sub = Subscription.objects.get(pk=body["id"])
    assert (sub.user, sub.folder, sub.channel, str(sub.send_time)) == (
        expert_with_address,
        kb["measles"],
        "email",
        "07:30:00",
    )
    assert sub.next_digest_at is not None and body["next_digest_at"] is not None, "the next digest is scheduled"
    assert (body["waiting"], body["sent"], body["failed"]) == (0, 0, 0)
    assert [row["id"] for row in client.get(URL).json()["results"]] == [sub.pk]

    response = client.patch(f"{URL}{sub.pk}/", {"frequency": "immediate"}, format="json")
    assert response.status_code == 200, response.json()
    sub.refresh_from_db()
    assert sub.frequency == "immediate" and sub.next_digest_at is None and response.json()["next_digest_at"] is None

    assert client.delete(f"{URL}{sub.pk}/").status_code == 204
    assert not Subscription.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "body, field",
    [
        ({}, "non_field_errors"),  # neither a folder nor a saved search
        ({"folder": "measles", "saved_search": "mine"}, "non_field_errors"),  # both
        ({"folder": "measles", "channel": "apprise"}, "notify_url"),  # a notification URL needs its URL
        ({"folder": "measles", "channel": "apprise", "notify_url": "json://127.0.0.1:8000/hook"}, "notify_url"),
        (
            {"folder": "measles", "channel": "apprise", "notify_url": "json://hooks.example/x json://127.0.0.1/y"},
            "notify_url",
        ),
        (
            {"folder": "measles", "channel": "apprise", "notify_url": "mailto://u:p@hooks.example?smtp=127.0.0.1"},
            "notify_url",
        ),
        ({"folder": "measles", "channel": "apprise", "notify_url": "syslog://"}, "notify_url"),
        ({"folder": "measles", "time_zone": "Mars/Olympus"}, "time_zone"),
        ({"folder": "measles", "frequency": "hourly"}, "frequency"),
        ({"folder": "measles", "allow_private_addresses": True}, "allow_private_addresses"),  # a superuser's
        ({"saved_search": "theirs"}, "saved_search"),  # another expert's private saved search
    ],
)
def test_bad_input_is_a_400_that_names_the_field_and_saves_nothing(api_as, users, kb, expert_with_address, body, field):
    mine = SavedSearch.objects.create(owner=users["expert"], name="mine", query="measles")
    theirs = SavedSearch.objects.create(owner=users["superuser"], name="theirs", query="rubella")
    ids = {"measles": kb["measles"].pk, "mine": mine.pk, "theirs": theirs.pk}
    body = {k: ids.get(v, v) if isinstance(v, str) else v for k, v in body.items()}
    response = api_as("expert").post(URL, body, format="json")
    assert response.status_code == 400
    assert field in response.json(), response.json()
    assert not Subscription.objects.exists()


@pytest.mark.django_db
def test_e_mail_needs_an_address_and_a_public_saved_search_of_another_is_fine(api_as, users, kb):
    public = SavedSearch.objects.create(owner=users["superuser"], name="public", query="rubella", public=True)
    client = api_as("expert")
    response = client.post(URL, {"saved_search": public.pk}, format="json")
    assert response.status_code == 400 and "no e-mail address" in response.json()["channel"][0]
    response = client.post(
        URL, {"saved_search": public.pk, "channel": "apprise", "notify_url": "json://hooks.example/x"}
    )
    assert response.status_code == 201, response.json()


@pytest.mark.django_db
def test_a_superuser_may_allow_a_private_address(api_as, kb):
    body = {"folder": kb["measles"].pk, "channel": "apprise", "notify_url": "json://127.0.0.1:8000/hook"}
    client = api_as("superuser")
    assert client.post(URL, body, format="json").status_code == 400
    response = client.post(URL, {**body, "allow_private_addresses": True}, format="json")
    assert response.status_code == 201, response.json()


@pytest.mark.django_db
def test_another_users_subscription_is_not_there_for_you(api_as, users, kb):
    theirs = Subscription.objects.create(user=users["superuser"], folder=kb["measles"])
    client = api_as("expert")
    assert client.get(URL).json()["results"] == []
    for method in ("get", "patch", "delete"):
        assert getattr(client, method)(f"{URL}{theirs.pk}/", {}, format="json").status_code == 404
    assert client.post(f"{URL}{theirs.pk}/retry/").status_code == 404
    assert Subscription.objects.filter(pk=theirs.pk).exists()


@pytest.mark.django_db
def test_retry_sends_the_failed_deliveries_again(api_as, users, kb, expert_with_address):
    sub = Subscription.objects.create(user=users["expert"], folder=kb["measles"])
    Delivery.objects.create(subscription=sub, article=kb["pending"], state=Delivery.State.FAILED, error="refused")
    client = api_as("expert")
    assert client.get(f"{URL}{sub.pk}/").json()["failed"] == 1
    response = client.post(f"{URL}{sub.pk}/retry/")
    assert response.status_code == 200 and (response.json()["failed"], response.json()["waiting"]) == (0, 1)
    delivery = Delivery.objects.get()
    assert delivery.state == Delivery.State.PENDING and delivery.error == "" and delivery.due_at <= timezone.now()


@pytest.mark.django_db
def test_a_superusers_allowance_survives_what_the_expert_sends_back_but_only_a_superuser_changes_it(api_as, users, kb):
    """A GET sent back as a PUT changes nothing, so it is accepted (it was a 400: any ``true`` was refused);
    taking the allowance back is a change, and a superuser's decision too (it was ignored, answering 200)."""
    sub = Subscription.objects.create(
        user=users["expert"],
        folder=kb["measles"],
        channel="apprise",
        notify_url="json://127.0.0.1:9/hook",
        allow_private_addresses=True,  # given in the admin by a superuser
    )
    client = api_as("expert")
    shown = client.get(f"{URL}{sub.pk}/").json()
    response = client.put(f"{URL}{sub.pk}/", shown, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["allow_private_addresses"] is True
    response = client.patch(f"{URL}{sub.pk}/", {"allow_private_addresses": False}, format="json")
    assert response.status_code == 400 and "superuser" in str(response.json()["allow_private_addresses"])
    sub.refresh_from_db()
    assert sub.allow_private_addresses and sub.notify_url == "json://127.0.0.1:9/hook"


@pytest.mark.django_db
def test_another_experts_private_saved_search_is_answered_as_one_that_does_not_exist(api_as, users, kb):
    """As at /api/saved-searches/ (404): its id is not told apart from a free one (it was "Select a valid choice")."""
    theirs = SavedSearch.objects.create(owner=users["superuser"], name="theirs", query="rubella")
    free = theirs.pk + 1000
    client = api_as("expert")
    for pk in (theirs.pk, free):
        response = client.post(URL, {"saved_search": pk, **APPRISE}, format="json")
        assert response.status_code == 400
        assert response.json() == {"saved_search": [f'Invalid pk "{pk}" - object does not exist.']}
    assert not Subscription.objects.exists()
