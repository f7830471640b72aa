"""A site's first poll starts as soon as its administrator has chosen its sources (issue 30: a new site waited
for a dispatch, and before that for its whole poll interval)."""

from datetime import timedelta

import pytest
from celery.signals import before_task_publish
from django.core import signing
from django.utils import timezone

from monitor import services
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


def test_poll_now_queues_a_poll_of_each_active_site_and_says_how_many(
    admin_client, published, django_capture_on_commit_callbacks
):
    site = Site.objects.create(name="Daily", home_url="https://daily.example/")
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post("/admin/monitor/site/", {"action": "poll_now", "_selected_action": [site.pk]})
    assert response.status_code == 302
    assert published == [("monitor.poll_site", [site.pk])]
    assert "1 poll queued." in admin_client.get(response["Location"]).content.decode()


def test_the_site_page_says_the_first_poll_is_under_way_after_the_sources_are_chosen(
    admin_client, django_capture_on_commit_callbacks
):
    """A live trial: right after "its first poll starts now" the site page said "Next poll at" a quarter of an hour
    on (the claim's lease: the interval and five minutes), later than the time shown before saving."""
    before = timezone.now() + timedelta(minutes=7)
    site = Site.objects.create(name="New", home_url="https://new.example/", poll_interval=600, next_poll_at=before)
    proposal = signing.dumps([("https://new.example/feed.xml", "feed", "announced")], salt="monitor.site.sources")
    with django_capture_on_commit_callbacks(execute=False):
        response = admin_client.post(
            f"/admin/monitor/site/{site.pk}/sources/", {"proposal": proposal, "keep": "https://new.example/feed.xml"}
        )
    page = admin_client.get(response["Location"]).content.decode()
    assert "its first poll starts now" in page
    shown = page.split("field-next_poll", 1)[1].split('class="readonly">', 1)[1].split("<", 1)[0]
    assert shown.startswith("under way (queued "), shown
    listed = admin_client.get("/admin/monitor/site/").content.decode()
    assert "under way (queued " in listed
    services._finish_poll(Site.objects.get(pk=site.pk), [], 0, {}, 1, services._progress(None, site, timezone.now()))
    page = admin_client.get(response["Location"]).content.decode()
    assert "under way" not in page, "the poll ended: its regular time again"


def test_poll_now_queues_no_second_poll_beside_one_queued_or_deferred(
    admin_client, published, django_capture_on_commit_callbacks
):
    """A live trial: 249 deferred polls against 59 done. *Poll now* sent a poll of a site whose poll was queued or
    deferred already: both were deferred for the host's turn, one behind the other, until both had polled."""
    site = Site.objects.create(name="Daily", home_url="https://daily.example/", next_poll_at=timezone.now())
    for _ in range(2):
        with django_capture_on_commit_callbacks(execute=True):
            response = admin_client.post("/admin/monitor/site/", {"action": "poll_now", "_selected_action": [site.pk]})
    assert published == [("monitor.poll_site", [site.pk])], "one poll, not two"
    assert "0 polls queued. 1 already under way." in admin_client.get(response["Location"]).content.decode()
    # its poll deferred (a continuation queued with a countdown): still under way
    Site.objects.filter(pk=site.pk).update(next_poll_at=timezone.now() + timedelta(seconds=30))
    with django_capture_on_commit_callbacks(execute=True):
        admin_client.post("/admin/monitor/site/", {"action": "poll_now", "_selected_action": [site.pk]})
    assert len(published) == 1
    # once it has ended, *Poll now* polls before the site's time
    Site.objects.filter(pk=site.pk).update(poll_queued_at=None, next_poll_at=timezone.now() + timedelta(hours=1))
    with django_capture_on_commit_callbacks(execute=True):
        admin_client.post("/admin/monitor/site/", {"action": "poll_now", "_selected_action": [site.pk]})
    assert published == [("monitor.poll_site", [site.pk])] * 2


def test_keeping_sources_of_a_site_polled_before_does_not_call_it_its_first_poll(
    admin_client, django_capture_on_commit_callbacks
):
    """A live trial kept the ticked sources of a site that had polled for an hour and read "its first poll"."""
    site = Site.objects.create(name="Old", home_url="https://old.example/", last_poll_at=timezone.now())
    proposal = signing.dumps([("https://old.example/feed.xml", "feed", "announced")], salt="monitor.site.sources")
    with django_capture_on_commit_callbacks(execute=False):
        response = admin_client.post(
            f"/admin/monitor/site/{site.pk}/sources/", {"proposal": proposal, "keep": "https://old.example/feed.xml"}
        )
    page = admin_client.get(response["Location"]).content.decode()
    assert "1 source kept, a poll with them starts now" in page and "first poll" not in page
