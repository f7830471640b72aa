"""A real Celery worker process runs a task through the configured broker (embedded locally, Redis in CI)."""

import pytest
from django.conf import settings

from monitor.models import Site
from wims.tasks import health_check


@pytest.mark.worker
def test_worker_runs_task_through_broker_and_reads_database(start_worker):
    Site.objects.create(name="One", home_url="http://127.0.0.1:9/one/")
    Site.objects.create(name="Two", home_url="http://127.0.0.1:9/two/")
    start_worker(queues="celery")
    result = health_check.delay("hello").get(timeout=60)
    assert result == {"token": "hello", "sites": 2}


def test_broker_comes_from_the_environment():
    """Redis in CI (CELERY_BROKER_URL set by .ci/run), the embedded filesystem broker by default."""
    import os

    configured = os.environ.get("CELERY_BROKER_URL") or "filesystem://"
    assert configured == settings.CELERY_BROKER_URL
