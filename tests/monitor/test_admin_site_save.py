"""The admin's site save writes what the administrator changed, never the health it read before a poll ended."""

import pytest
from django.db.models.signals import pre_save
from django.utils import timezone

from monitor.models import Site

pytestmark = pytest.mark.django_db


def test_an_admin_save_keeps_the_health_a_poll_wrote_meanwhile(admin_client):
    site = Site.objects.create(
        name="Daily", home_url="https://daily.example/", consecutive_failures=3, last_error="HTTP 503"
    )
    ended = timezone.now()

    def poll_ends(sender, instance, **_):  # between the admin's read of the site and its write
        Site.objects.filter(pk=instance.pk).update(
            last_success_at=ended, consecutive_failures=0, last_error="", articles_found_last_poll=4
        )

    form = admin_client.get(f"/admin/monitor/site/{site.pk}/change/").context["adminform"].form
    data = {name: value for name, value in form.initial.items() if value is not None and name in form.fields}
    data.update({"name": "Daily News", "sources-TOTAL_FORMS": 0, "sources-INITIAL_FORMS": 0})
    data = {name: value for name, value in data.items() if value is not False}
    pre_save.connect(poll_ends, sender=Site, weak=False)
    try:
        response = admin_client.post(f"/admin/monitor/site/{site.pk}/change/", data)
    finally:
        pre_save.disconnect(poll_ends, sender=Site)
    assert response.status_code == 302, response.context["adminform"].form.errors
    site.refresh_from_db()
    assert site.name == "Daily News"
    assert (site.consecutive_failures, site.last_error, site.articles_found_last_poll) == (0, "", 4)
    assert site.last_success_at == ended
