"""Every task is bounded in time and memory (wims/settings.py, applied by wims/worker.py): a task past a bound
fails with the reason, and its worker lives on."""

import time

import pytest
from celery import current_app
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings

import monitor.services
import processing.services
from alerts.services import LEASE as DELIVERY_LEASE
from monitor import conf
from monitor.models import Article, Site
from monitor.services import POLL_RUN_LEASE

INCLUDE = {"CELERY_WORKER_INCLUDE": "tests.foundation.bounds_tasks"}  # the test tasks, for these workers only


def hard(name: str) -> int:
    return settings.TASK_SOFT_TIME_LIMITS[name] + settings.TIME_LIMIT_GRACE


def test_time_limits_are_declared_once_for_every_task_and_stay_below_the_leases():
    current_app.loader.import_default_modules()
    ours = {name for name in current_app.tasks if name.split(".")[0] in {"monitor", "processing", "alerts"}}
    assert ours == set(settings.TASK_SOFT_TIME_LIMITS), "every task of the pipeline has its limits in the table"
    for name, soft in settings.TASK_SOFT_TIME_LIMITS.items():
        task = current_app.tasks[name]
        assert (task.soft_time_limit, task.time_limit) == (soft, hard(name)), f"{name}: the table wins"
    # the sweep never hands a row to a second worker while its task may still run
    assert max(hard("monitor.fetch_article"), hard("processing.process_article")) < conf.lease_seconds()
    assert hard("monitor.poll_site") < POLL_RUN_LEASE.total_seconds()
    assert hard("alerts.send") < DELIVERY_LEASE.total_seconds()
    assert current_app.conf.worker_max_memory_per_child == settings.WIMS_MAX_MEMORY_PER_CHILD_MB * 1024


@pytest.fixture
def site(db):
    return Site.objects.create(name="Bounded", home_url="http://127.0.0.1:9/", allow_private_addresses=True)


def fetched(site) -> Article:
    article = Article(site=site, url="http://127.0.0.1:9/a", state=Article.State.FETCHED)
    article.set_raw_html(b"<html><body><p>A story.</p></body></html>")
    article.save()
    return article


@pytest.mark.parametrize(
    ("stage", "error", "reason"),
    [
        ("process", MemoryError(), "memory limit"),
        ("process", SoftTimeLimitExceeded(), "time limit"),
        ("fetch", MemoryError(), "memory limit"),
        ("fetch", SoftTimeLimitExceeded(), "time limit"),
    ],
)
def test_a_task_past_a_bound_fails_its_row_with_the_reason(stage, error, reason, site, monkeypatch):
    from monitor.tasks import fetch_article
    from processing.tasks import process_article

    def raise_it(*args, **kwargs):
        raise error

    if stage == "process":
        article = fetched(site)
        monkeypatch.setattr(processing.services, "read_article", raise_it)
        process_article(article.pk)
    else:
        article = Article.objects.create(site=site, url="http://127.0.0.1:9/b")
        monkeypatch.setattr(monitor.services, "fetch", raise_it)
        fetch_article(article.pk)
    article.refresh_from_db()
    assert article.state == Article.State.FAILED and article.lease_until is None
    assert article.last_error.startswith(reason), article.last_error


def run(name: str, queue: str, *args):
    result = current_app.send_task(name, args, queue=queue)
    result.get(timeout=60, propagate=False)
    if name == "tests.whoami":
        assert result.result["task_id"] == result.id
    return result


@pytest.mark.worker
def test_a_prefork_child_is_capped_recycled_when_grown_and_outside_the_workers_process_group(start_worker):
    env = {**INCLUDE, "WIMS_TASK_MEMORY_MB": "320", "WIMS_MAX_MEMORY_PER_CHILD_MB": "200"}
    worker = start_worker(queues="process", concurrency=1, extra_env=env)
    child = run("tests.whoami", "process").result
    assert child["data_cap"] == 320 << 20
    # signals to the worker's group (a terminal's Ctrl-C) reach only the worker, which stops its child itself
    assert child["pgid"] == child["pid"] != worker.proc.pid
    too_much = run("tests.allocate", "process", 400)
    # MemoryError in the task, reported as MemoryLimitExceeded: Celery takes a MemoryError for a broken worker
    assert too_much.state == "FAILURE" and type(too_much.result).__name__ == "MemoryLimitExceeded"
    assert str(too_much.result).startswith("memory limit")
    assert run("tests.whoami", "process").result["pid"] == child["pid"], "the child lives on"
    # under the cap, but past the resident size a child may keep: replaced after the task
    assert run("tests.allocate", "process", 150).result == 150
    assert run("tests.whoami", "process").result["pid"] != child["pid"]
    assert worker.proc.poll() is None


@pytest.mark.worker
def test_a_threads_worker_is_capped_as_a_whole_and_its_tasks_get_their_soft_time_limit(start_worker):
    worker = start_worker(
        queues="fetch", concurrency=2, pool="threads", extra_env={**INCLUDE, "WIMS_WORKER_MEMORY_MB": "700"}
    )
    me = run("tests.whoami", "fetch").result
    assert me["pid"] == worker.proc.pid and me["data_cap"] == 700 << 20
    too_much = run("tests.allocate", "fetch", 900)
    assert too_much.state == "FAILURE" and type(too_much.result).__name__ == "MemoryLimitExceeded"
    started = time.monotonic()
    late = run("tests.busy", "fetch", 30)
    assert late.state == "FAILURE" and type(late.result).__name__ == "SoftTimeLimitExceeded"
    assert time.monotonic() - started < 10, "stopped at its soft limit (1 s), not after its 30 s"
    assert run("tests.busy", "fetch", 0.2).result == "done", "a task within its limit is left alone"
    assert run("tests.whoami", "fetch").result["pid"] == worker.proc.pid and worker.proc.poll() is None
