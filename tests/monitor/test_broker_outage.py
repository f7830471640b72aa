"""Workers survive a Redis outage with polls and fetches in flight, and nothing is lost or duplicated.

The test starts its own ``redis-server`` on a free port (append-only file on, as a production broker
should run), the three workers of docs/operations.md against it, and plays beat through it; it stops Redis for
WIMS_TEST_OUTAGE_SECONDS (60 by default, as the issue asks) while fetches are in flight, starts it again
and publishes more articles. Every worker process must still be alive and every article processed once.

The network worker as production runs it (threads, gossip and heartbeat on) holding unacknowledged messages
with room for more, so that a BRPOP is outstanding when Redis goes away, died at once with
``AttributeError: 'NoneType' object has no attribute 'hostname'`` (kombu's ``restore_unacked``, on a
connection Celery had already collected; wims/kombu_fixes.py): the second test.
"""

import os
import shutil
import threading
import time
from urllib.parse import urlsplit

import pytest
from kombu import Connection

from classifier.models import Case
from demo.sites import DEMO_SITES
from monitor.models import Article
from tests.monitor.conftest import FAST_ENV, control, ground_truth, register, special_report, wait_for
from tests.redis_server import RedisServer

pytestmark = [
    pytest.mark.worker,
    pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server (installed on CI machines)"),
]

OUTAGE_SECONDS = float(os.environ.get("WIMS_TEST_OUTAGE_SECONDS", "60"))


@pytest.fixture
def redis_server(tmp_path):
    server = RedisServer(tmp_path)
    server.start()
    yield server
    server.stop()


class Beat(threading.Thread):
    """Send the dispatcher through the test's Redis every ``tick`` seconds, as celery beat would; like beat,
    it logs and goes on when the broker is down."""

    def __init__(self, url: str, tick: float = 1.5):
        super().__init__(daemon=True)
        self.url, self.tick = url, tick
        self.stopping = threading.Event()
        self.sent = self.refused = 0

    def run(self) -> None:
        from wims.celery import app

        while not self.stopping.wait(self.tick):
            try:
                with Connection(self.url, connect_timeout=1, transport_options={"max_retries": 0}) as conn:
                    conn.ensure_connection(max_retries=1)
                    app.send_task("monitor.dispatch_due_polls", connection=conn, retry=False)
                self.sent += 1
            except Exception:  # noqa: BLE001 - a broker outage, as beat sees it
                self.refused += 1


def test_workers_survive_a_redis_outage_with_work_in_flight(demo, start_worker, fast_env, redis_server):
    env = {
        **FAST_ENV,
        "WIMS_READ_TIMEOUT": "10",  # slow pages below, not failing ones
        "CELERY_BROKER_URL": redis_server.url,
        "CELERY_RESULT_BACKEND": redis_server.url,
    }
    keys = [spec.key for spec in DEMO_SITES]  # the three make run registers (the fourth is served, not registered)
    sites = [register(demo, key, poll_interval=30) for key in keys]
    # slow article pages, so that fetches are in flight when Redis goes away
    for key in keys:
        control(demo, key, "POST", "fault", mode="slow", seconds="1", count="all", path_prefix="/")
    # The production layout (runall, docs/deploy), gossip and heartbeat on: with 4 bare threads and no free one,
    # no BRPOP was outstanding when Redis went away, and the net worker's crash (second test) went unseen.
    workers = {
        "dispatch": start_worker(queues="celery", concurrency=2, pool="threads", extra_env=env, bare=False),
        "net": start_worker(queues="alerts,poll,fetch", concurrency=16, pool="threads", extra_env=env, bare=False),
        "process": start_worker(queues="process", concurrency=1, extra_env=env, bare=False),
    }
    beat = Beat(redis_server.url)
    beat.start()
    try:
        wait_for(lambda: Article.objects.filter(state="fetching").exists(), timeout=60, message="fetches in flight")
        redis_server.stop()
        for key in keys:  # the sites go on publishing during the outage
            demo.publish(key)
        time.sleep(OUTAGE_SECONDS)
        redis_server.start()
        for key in keys:
            demo.publish(key)
            control(demo, key, "DELETE", "fault")
        published = {url for key in keys for url in ground_truth(demo, key)}
        assert len(published) == 3 * 6
        # the special reports (lists of stories at a story's address): fetched too, and kept out
        reports = {url for key in keys for url in special_report(demo, key)}

        def all_processed():
            return Article.objects.filter(state="processed").count() >= len(published) and Article.objects.filter(
                state="not_article"
            ).count() >= len(reports)

        try:
            wait_for(all_processed, timeout=180, interval=1, message="every published article processed")
        except AssertionError as exc:
            from monitor.models import Site

            rows = list(Article.objects.values_list("url", "state", "last_error"))
            health = list(Site.objects.values_list("name", "last_error", "next_poll_at", "last_poll_at"))
            missing = published - {u for u, _, _ in rows}
            raise AssertionError(f"{exc}\nrows: {rows}\nmissing: {missing}\nsites: {health}") from None
    finally:
        beat.stopping.set()
        beat.join(timeout=10)
    dead = {name: w.log()[-3000:] for name, w in workers.items() if w.proc.poll() is not None}
    assert not dead, f"workers died in the outage: {dead}"
    urls = list(Article.objects.values_list("url", flat=True))
    assert sorted(urls) == sorted(published | reports), "nothing lost, nothing duplicated"
    assert Case.objects.count() == len(published)
    assert set(Article.objects.exclude(state="processed").values_list("url", flat=True)) == reports
    assert beat.refused > 0, "the outage was seen by the beat"
    assert {urlsplit(u).hostname for u in urls} == {urlsplit(s.home_url).hostname for s in sites}


#: the crash came the moment Redis went away; a short outage hits it and keeps the test short
SHORT_OUTAGE_SECONDS = min(OUTAGE_SECONDS, 15.0)


def _send(url: str, name: str, args: tuple, **options) -> str:
    from wims.celery import app

    with Connection(url, connect_timeout=5) as conn:
        return app.send_task(name, args, connection=conn, **options).id


def test_the_network_worker_survives_a_redis_outage_holding_unacknowledged_messages(start_worker, redis_server):
    env = {"CELERY_BROKER_URL": redis_server.url, "CELERY_RESULT_BACKEND": redis_server.url}
    # As runall and docs/deploy/wims-worker-net.service start it: gossip, mingle and heartbeat on.
    net = start_worker(queues="alerts,poll,fetch", concurrency=16, pool="threads", extra_env=env, bare=False)
    # Held unacknowledged until due (a countdown message), with 15 threads free: a BRPOP stays outstanding.
    held = [_send(redis_server.url, "wims.health_check", (f"held-{i}",), queue="fetch", countdown=3600) for i in (1, 2)]
    wait_for(lambda: all(f"[{i}] received" in net.log() for i in held), timeout=30, message="messages held")
    redis_server.stop()
    time.sleep(SHORT_OUTAGE_SECONDS)
    assert net.proc.poll() is None, f"the worker died in the outage:\n{net.log()[-4000:]}"
    redis_server.start()
    wait_for(lambda: net.log().count("Connected to redis") >= 2, timeout=60, message="the worker reconnected")
    after = _send(redis_server.url, "wims.health_check", ("after",), queue="fetch")
    wait_for(lambda: f"[{after}] succeeded" in net.log(), timeout=60, message="the task sent after the outage")
    time.sleep(3)  # a second delivery would show by now
    log = net.log()
    assert log.count(f"[{after}] received") == 1 and log.count(f"[{after}] succeeded") == 1, "exactly once"
    assert net.proc.poll() is None and "Unrecoverable error" not in log, log[-4000:]
