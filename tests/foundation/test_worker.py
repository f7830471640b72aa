"""A real Celery worker process runs a task through the configured broker (embedded locally, Redis in CI)."""

import pytest
from celery import current_app
from celery.result import AsyncResult
from django.conf import settings

from monitor.models import Heartbeat, Site
from tests.monitor.conftest import run_until
from wims.tasks import health_check


@pytest.mark.worker
def test_worker_runs_task_through_broker_and_reads_database(start_worker):
    Site.objects.create(name="One", home_url="http://127.0.0.1:9/one/")
    Site.objects.create(name="Two", home_url="http://127.0.0.1:9/two/")
    start_worker(queues="celery")
    result = health_check.delay("hello").get(timeout=60)
    assert result == {"token": "hello", "sites": 2}


@pytest.mark.worker
def test_the_pipeline_s_tasks_store_no_result(start_worker):
    """Their outcome is in the database; a stored result would only fill the backend (issue 31)."""
    start_worker(queues="celery")
    sent = current_app.send_task("monitor.dispatch_due_polls", queue="celery")
    run_until(lambda: Heartbeat.objects.filter(name="dispatch").exists(), message="the dispatcher's run")
    assert health_check.delay("after").get(timeout=60)["token"] == "after"  # the worker is done with the dispatch
    assert AsyncResult(sent.id).state == "PENDING", "no result stored for a task nobody waits for"


def test_broker_comes_from_the_environment():
    """Redis in CI (CELERY_BROKER_URL set by .ci/run), the embedded filesystem broker by default."""
    import os

    configured = os.environ.get("CELERY_BROKER_URL") or "filesystem://"
    assert configured == settings.CELERY_BROKER_URL
