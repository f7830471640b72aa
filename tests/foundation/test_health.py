"""/healthz: 200 when the database, broker, beat and work queue are fine; 503 naming what is not."""

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from monitor import services
from monitor.models import Article, Heartbeat, Site

pytestmark = pytest.mark.django_db


@pytest.fixture
def beat_ran():
    services.dispatch_due_polls()  # what the beat's message makes the dispatch worker run


def test_healthy(client, beat_ran):
    response = client.get("/healthz")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["status"] == "ok" and set(body["checks"]) == {"database", "broker", "beat", "work"}


def test_a_dispatcher_that_never_ran_or_stopped_is_unhealthy(client):
    response = client.get("/healthz")
    assert response.status_code == 503
    checks = response.json()["checks"]
    assert not checks["beat"]["ok"] and "never been dispatched" in checks["beat"]["error"]
    assert checks["database"]["ok"] and checks["broker"]["ok"]
    Heartbeat.objects.create(name="dispatch", at=timezone.now() - timedelta(minutes=10))
    assert client.get("/healthz").json()["checks"]["beat"] == {"ok": False, "last_dispatch_seconds_ago": 600}


def test_work_nobody_takes_is_unhealthy_until_done(client, beat_ran):
    site = Site.objects.create(name="S", home_url="http://s.test/")
    stuck = Article.objects.create(site=site, url="http://s.test/a", due_at=timezone.now() - timedelta(hours=1))
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["checks"]["work"]["oldest_overdue_seconds"] >= 3600
    Article.objects.filter(pk=stuck.pk).update(state="processed")
    assert client.get("/healthz").status_code == 200


def test_an_unreachable_broker_is_unhealthy(client, beat_ran, monkeypatch):
    from wims.celery import app

    # Celery reads CELERY_BROKER_URL from the environment before its settings; nothing listens on port 1
    monkeypatch.setenv("CELERY_BROKER_URL", "redis://127.0.0.1:1/0")
    saved = app.conf.broker_transport
    app.conf.broker_transport = None  # the embedded broker's transport class would override the URL
    try:
        response = client.get("/healthz")
    finally:
        app.conf.broker_transport = saved
    assert response.status_code == 503
    broker = response.json()["checks"]["broker"]
    assert not broker["ok"] and broker["error"]


@pytest.mark.worker
def test_a_starting_dispatch_worker_dispatches_at_once(start_worker, client):
    """The first dispatch comes with the worker's start, not the beat's first run 30 s later: a fresh `make run`
    answers /healthz 200 (and polls its sites) within seconds, with no beat running here at all."""
    assert client.get("/healthz").status_code == 503
    start_worker(queues="celery", concurrency=2, pool="threads")
    deadline = time.monotonic() + 30
    while not Heartbeat.objects.filter(name="dispatch").exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    response = client.get("/healthz")
    assert response.status_code == 200, response.json()
