"""A site deleted while its poll runs (an administrator deleting it from the admin as a worker polls it): the poll
stops as for a deleted site, with no error. Seen in `make run`: the poll's record of its robots.txt request named
the site just deleted (IntegrityError), logged twice as an error with a traceback ("finding its sources failed",
"poll failed") and counted as an unexpected failure."""

import logging

import pytest
from django.db import connection

from monitor import services
from monitor.models import Site

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_site_deleted_during_its_poll_is_skipped_without_an_error(scripted, fast_env, caplog):
    # as the admin registers a site: its first poll finds its sources first
    site = Site.objects.create(
        name="Going", home_url=scripted.base + "/", allow_private_addresses=True, find_sources=True
    )
    scripted.routes["/robots.txt"] = (200, [("Content-Type", "text/plain")], b"User-agent: *\nAllow: /\n")
    scripted.routes["/"] = (200, [("Content-Type", "text/html")], b"<html><body><a href='/a/1'>A</a></body></html>")

    def delete_the_site(path: str) -> None:
        if path == "/robots.txt":
            Site.objects.filter(pk=site.pk).delete()
            connection.close()  # the server thread's own connection

    scripted.on_request = delete_the_site
    with caplog.at_level(logging.ERROR, logger="monitor"):
        outcome = services.poll_site(site.pk)
    assert "/robots.txt" in scripted.requests
    assert (outcome.result, outcome.detail) == ("skipped", "site deleted during the poll")
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert not Site.objects.filter(pk=site.pk).exists()
