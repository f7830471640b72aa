"""A real Celery worker process runs a task through the configured broker (embedded locally, Redis in CI)."""

import os

import pytest
from celery import current_app
from django.conf import settings

from monitor.models import Site
from tests.monitor.conftest import wait_for
from wims.tasks import health_check


@pytest.mark.worker
def test_worker_runs_task_through_broker_and_reads_database(start_worker):
    Site.objects.create(name="One", home_url="http://127.0.0.1:9/one/")
    Site.objects.create(name="Two", home_url="http://127.0.0.1:9/two/")
    start_worker(queues="celery")
    result = health_check.delay("hello").get(timeout=60)
    assert result == {"token": "hello", "sites": 2}


def stored_results() -> int:
    """Task results the backend holds: files in the embedded broker's results folder, or keys in Redis."""
    backend = current_app.backend
    if hasattr(backend, "path"):  # the file backend: one file per stored result
        return len(os.listdir(backend.path))  # a bytes path
    return len(backend.client.keys(backend.task_keyprefix + b"*"))


@pytest.mark.worker
def test_the_pipeline_s_tasks_store_no_result(start_worker):
    """At most 1 stored result per 100 tasks (issue 31): the pipeline's tasks record their outcome in the
    database, and a stored result would only fill the backend (one file per task in var/broker/results)."""
    worker = start_worker(queues="celery")
    before = stored_results()
    sent = [current_app.send_task("monitor.dispatch_due_polls", queue="celery").id for _ in range(100)]
    wait_for(
        lambda: sum(f"[{task_id}] succeeded" in worker.log() for task_id in sent) == len(sent),
        timeout=120,
        message="the 100 dispatches run",
    )
    assert health_check.delay("after").get(timeout=60)["token"] == "after"  # a result its caller reads: stored
    assert stored_results() - before <= 1, "the health check's result at most"


def test_broker_comes_from_the_environment():
    """Redis in CI (CELERY_BROKER_URL set by .ci/run), the embedded filesystem broker by default."""
    import os

    configured = os.environ.get("CELERY_BROKER_URL") or "filesystem://"
    assert configured == settings.CELERY_BROKER_URL
