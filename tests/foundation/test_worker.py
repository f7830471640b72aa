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


def test_each_xdist_worker_has_a_redis_database_of_its_own():
    """`make test` runs two pytest-xdist workers: the Redis URL's database number plus the worker's index, so that
    one worker's Celery workers never take the other's tasks (CI's redis://…/0: databases 0 and 1)."""
    from tests.settings import redis_db_of_this_worker

    assert redis_db_of_this_worker("redis://127.0.0.1:6379/0", "gw0") == "redis://127.0.0.1:6379/0"
    assert redis_db_of_this_worker("redis://127.0.0.1:6379/0", "gw1") == "redis://127.0.0.1:6379/1"
    assert redis_db_of_this_worker("redis://:pw@127.0.0.1:6379/6", "gw1") == "redis://:pw@127.0.0.1:6379/7"
    assert redis_db_of_this_worker("redis://127.0.0.1:6379", "gw2") == "redis://127.0.0.1:6379/2"
    assert redis_db_of_this_worker("filesystem://", "gw1") == "filesystem://"


@pytest.mark.django_db
def test_under_xdist_the_worker_s_test_database_and_broker_are_its_own():
    """The test database carries the worker's suffix (pytest-django); the metrics folder is the worker's own."""
    import os

    from django.db import connection

    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker is None:
        pytest.skip("not under pytest-xdist: one test process, nothing to share")
    assert connection.settings_dict["NAME"].endswith(f"_{worker}")
    assert os.environ["WIMS_TEST_XDIST_WORKER"] == worker, "tests/settings.py moved the Redis number, once"
    assert settings.METRICS_DIR.name == f"test-metrics-{os.getpid()}", "not the controller's metrics folder"


def _backends() -> set[int]:
    """The PostgreSQL backends connected to the test database but this test's own."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return {pid for (pid,) in cursor.fetchall()}


@pytest.mark.worker
def test_a_worker_keeps_its_database_connection_and_survives_its_loss(start_worker):
    """One PostgreSQL backend for a worker's tasks, not one per task (Celery's fixup closed the connection after
    every task); a connection PostgreSQL ended between two tasks is replaced, the next task does not fail."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("pg_stat_activity: PostgreSQL only (CI runs it)")
    others = _backends()  # earlier tests' threads may hold some: not the worker's

    def worker_backends() -> set[int]:
        return _backends() - others

    start_worker(queues="celery", pool="solo")
    assert health_check.delay("one").get(timeout=60)["token"] == "one"
    first = worker_backends()
    assert len(first) == 1, "the worker's connection stays open after its task"
    for token in ("two", "three"):
        assert health_check.delay(token).get(timeout=60)["token"] == token
    assert worker_backends() == first, "the same backend served every task"

    (ended,) = first
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [ended])
    assert health_check.delay("after").get(timeout=60) == {"token": "after", "sites": 0}
    now = worker_backends()
    assert ended not in now and len(now) == 1, "a new connection replaced the ended one"
