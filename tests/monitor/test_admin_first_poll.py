"""A site's first poll starts as soon as its administrator has chosen its sources (issue 30: a new site waited
for a dispatch, and before that for its whole poll interval)."""

import pytest
from celery.signals import before_task_publish
from django.core import signing
from django.utils import timezone

from monitor.models import Site

pytestmark = pytest.mark.django_db


@pytest.fixture
def published():
    """The names and site ids of the tasks sent to the broker (the real one: Celery's own signal)."""
    sent = []

    def record(sender=None, body=None, **_):
        sent.append((sender, list(body[0]) if body else None))

    before_task_publish.connect(record, weak=False)
    yield sent
    before_task_publish.disconnect(record)


def test_choosing_the_sources_starts_the_first_poll(admin_client, published, django_capture_on_commit_callbacks):
    site = Site.objects.create(name="New", home_url="https://new.example/", find_sources=True, poll_interval=600)
    proposal = signing.dumps([("https://new.example/feed.xml", "feed", "announced")], salt="monitor.site.sources")
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(
            f"/admin/monitor/site/{site.pk}/sources/", {"proposal": proposal, "keep": "https://new.example/feed.xml"}
        )
    assert response.status_code == 302
    assert published == [("monitor.poll_site", [site.pk])]
    site.refresh_from_db()
    assert site.next_poll_at > timezone.now(), "claimed like the dispatcher claims it: no second poll meanwhile"
    page = admin_client.get(response["Location"]).content.decode()
    assert "1 source kept, its first poll starts now" in page


def test_poll_now_queues_a_poll_of_each_active_site_and_says_how_many(admin_client, published):
    site = Site.objects.create(name="Daily", home_url="https://daily.example/")
    response = admin_client.post("/admin/monitor/site/", {"action": "poll_now", "_selected_action": [site.pk]})
    assert response.status_code == 302
    assert published == [("monitor.poll_site", [site.pk])]
    assert "1 poll queued." in admin_client.get(response["Location"]).content.decode()
