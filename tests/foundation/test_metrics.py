"""/metrics (wims/metrics.py, foundation/metrics.py): Prometheus's text format read by its own parser, every name
starting with wims_; only allowed networks and the bearer token get it; counts of several processes add up, and
outlive them (multiprocess mode), in a real prefork worker too."""

import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from foundation import metrics
from monitor.models import Article, Site
from tests.metrics import counted, key, scrape
from tests.monitor.conftest import wait_for

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_the_page_is_prometheus_text_with_every_state_and_queue(client):
    site = Site.objects.create(name="S", home_url="http://s.test/")
    Article.objects.create(site=site, url="http://s.test/a", due_at=timezone.now() - timedelta(hours=1))
    Article.objects.create(site=site, url="http://s.test/b", state="processed")
    metrics.EXTRACTION_REFUSALS.labels(reason="too_deep").inc(0)  # a family from the folder, parsed alike

    samples = scrape(client)

    # an article waiting to be fetched is "queued", as the API's processing_state says: "pending" is a retired
    # word (issue 30: the review state "suggested" until then; a correction's and a delivery's state)
    assert samples[key("wims_articles", state="queued")] == 1
    assert not [name for name in samples if "pending" in str(name)], "no label value says pending"
    assert samples[key("wims_articles", state="processed")] == 1
    assert samples[key("wims_articles", state="failed")] == 0, "every state, 0 included"
    assert samples[key("wims_oldest_overdue_article_age_seconds")] >= 3600
    assert samples[key("wims_broker_up")] == 1
    from django.conf import settings

    for queue in settings.WIMS_QUEUES:
        assert key("wims_queue_depth", queue=queue) in samples
    assert key("wims_extraction_refusals_total", reason="too_deep") in samples


@pytest.mark.django_db
def test_a_message_waiting_in_the_broker_is_a_queue_depth(client):
    from wims.celery import app

    before = scrape(client)[key("wims_queue_depth", queue="alerts")]
    app.send_task("alerts.send", (0,), countdown=None)  # no worker takes the alerts queue in this test
    try:
        assert scrape(client)[key("wims_queue_depth", queue="alerts")] == before + 1
    finally:
        from tests.conftest import purge_queues

        purge_queues("alerts")


@pytest.mark.django_db
def test_only_allowed_networks_get_it(client, settings):
    import ipaddress

    assert client.get("/metrics", REMOTE_ADDR="::1").status_code == 200
    refused = client.get("/metrics", REMOTE_ADDR="203.0.113.7")
    assert refused.status_code == 403 and b"network" in refused.content
    # behind a proxy the peer is the proxy (often loopback): a forwarded request is never taken for a local one
    assert client.get("/metrics", HTTP_X_FORWARDED_FOR="203.0.113.7").status_code == 403
    assert client.get("/metrics", HTTP_FORWARDED="for=203.0.113.7").status_code == 403
    settings.WIMS_METRICS_NETWORKS = [ipaddress.ip_network("203.0.113.0/24")]
    assert client.get("/metrics", REMOTE_ADDR="203.0.113.7").status_code == 200
    assert client.get("/metrics", REMOTE_ADDR="::ffff:203.0.113.7").status_code == 200
    assert client.get("/metrics").status_code == 403, "loopback is allowed only while listed"


@pytest.mark.django_db
def test_a_token_when_set_is_needed_too(client, settings):
    settings.WIMS_METRICS_TOKEN = "a-long-random-scrape-token"  # noqa: S105
    missing = client.get("/metrics")
    assert missing.status_code == 401 and missing["WWW-Authenticate"].startswith("Bearer")
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong").status_code == 401
    assert client.get("/metrics", HTTP_AUTHORIZATION="Basic a-long-random-scrape-token").status_code == 401
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer a-long-random-scrape-token").status_code == 200
    forbidden = client.get(
        "/metrics", REMOTE_ADDR="203.0.113.7", HTTP_AUTHORIZATION="Bearer a-long-random-scrape-token"
    )
    assert forbidden.status_code == 403, "the token does not open the page to any network"


def test_the_settings_refuse_a_network_that_is_none():
    env = dict(os.environ, WIMS_METRICS_ALLOWED_NETWORKS="127.0.0.1/8,localhost")
    run = subprocess.run(
        [sys.executable, "-c", "import wims.settings"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert run.returncode != 0 and "WIMS_METRICS_ALLOWED_NETWORKS" in run.stderr


COUNT = """
import sys
from foundation import metrics
metrics.TASKS.labels(task="test.sum", outcome="done").inc(int(sys.argv[1]))
metrics.FETCH_SECONDS.labels(kind="article").observe(float(sys.argv[1]))
if sys.argv[2] == "retire":
    metrics.retire_process()
print(__import__("os").getpid())
"""


def count_in_a_process(folder: Path, n: int, end: str) -> int:
    env = dict(os.environ, PROMETHEUS_MULTIPROC_DIR=str(folder))
    run = subprocess.run(
        [sys.executable, "-c", COUNT, str(n), end], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    return int(run.stdout.split()[-1])


def test_two_processes_count_and_one_scrape_sums_them_after_they_are_gone(tmp_path):
    folder = str(tmp_path)
    count_in_a_process(tmp_path, 2, "retire")  # ended cleanly: its counts moved into the archive
    killed = count_in_a_process(tmp_path, 3, "stay")  # as if killed: its files stay

    def total() -> tuple[float, float, float]:
        return (
            counted("wims_tasks_total", path=folder, task="test.sum", outcome="done"),
            counted("wims_fetch_duration_seconds_count", path=folder, kind="article"),
            counted("wims_fetch_duration_seconds_bucket", path=folder, kind="article", le="2.5"),
        )

    assert total() == (5, 2, 1)
    assert sorted(p.name for p in tmp_path.glob("*.db")) == sorted(
        ["counter_archive.db", "histogram_archive.db", f"counter_{killed}.db", f"histogram_{killed}.db"]
    )
    assert metrics.retire_dead_processes(folder) == [killed]  # what a starting worker does
    assert sorted(p.name for p in tmp_path.glob("*.db")) == ["counter_archive.db", "histogram_archive.db"]
    assert total() == (5, 2, 1), "nothing lost, nothing counted twice"
    count_in_a_process(tmp_path, 1, "retire")
    assert total() == (6, 3, 2)
    assert not list(tmp_path.glob(".*.part"))


@pytest.mark.worker
def test_a_prefork_worker_counts_its_tasks_and_they_outlive_it(start_worker, settings):
    from wims.tasks import health_check

    def done() -> float:
        return counted("wims_tasks_total", task="wims.health_check", outcome="done")

    def counts(n: float) -> None:
        # a task is counted when it has ended (task_postrun), a moment after its result was stored
        wait_for(lambda: done() == n, timeout=10, message=f"{n} health checks counted, not {done()}")

    before = done()
    worker = start_worker(queues="celery", concurrency=1, pool="prefork")
    assert health_check.delay("one").get(timeout=60)["token"] == "one"
    assert health_check.delay("two").get(timeout=60)["token"] == "two"
    counts(before + 2)
    worker.stop()  # a warm shutdown: its pool child retires its counts as it ends
    assert done() == before + 2
    folder = Path(metrics.METRICS_DIR)
    left = {int(p.stem.rpartition("_")[2]) for p in folder.glob("*_*.db") if p.stem.rpartition("_")[2].isdigit()}
    assert left <= {os.getpid()}, f"the worker's processes left files: {left}"
    start_worker(queues="celery", concurrency=1, pool="prefork")  # started again: the count goes on from there
    assert health_check.delay("three").get(timeout=60)["token"] == "three"
    counts(before + 3)


@pytest.mark.django_db
def test_a_task_counts_by_the_outcome_its_work_reported_else_by_its_state():
    from monitor.tasks import fetch_article
    from wims.tasks import health_check

    def tasks(task: str, outcome: str) -> float:
        return counted("wims_tasks_total", task=task, outcome=outcome)

    skipped, done, error = (
        tasks("monitor.fetch_article", "skipped"),
        tasks("wims.health_check", "done"),
        tasks("wims.health_check", "error"),
    )
    # run as a worker runs them (Celery's signals included), in this process
    assert fetch_article.apply((0,)).get().startswith("skipped")  # no such article: the claim fails
    health_check.apply(("token",))
    health_check.apply((), throw=False)  # its argument missing: it raises
    assert tasks("monitor.fetch_article", "skipped") == skipped + 1
    assert tasks("wims.health_check", "done") == done + 1
    assert tasks("wims.health_check", "error") == error + 1


@pytest.mark.django_db
def test_the_page_is_not_redirected_to_https(client, settings):
    settings.SECURE_SSL_REDIRECT = True  # production's: the proxy terminates HTTPS, the scrape reaches the app server
    assert client.get("/healthz").status_code == 301
    assert client.get("/metrics").status_code == 200
