"""Polls go before a backlog of fetches: on Redis a worker takes its queues in the order -Q lists them."""

import re
import time

import pytest

from monitor.tasks import fetch_article, poll_site
from tests.conftest import purge_queues


@pytest.mark.worker
def test_a_worker_takes_every_waiting_poll_before_the_waiting_fetches(start_worker, settings):
    if not settings.CELERY_BROKER_URL.startswith("redis"):
        pytest.skip("queue_order_strategy is a Redis transport option; the embedded broker goes round robin")
    start_worker(queues="unused")  # the fixture purges the queues of its first worker only: not ours below
    purge_queues("alerts,poll,fetch")
    for pk in range(10**6, 10**6 + 20):  # no such articles or sites: each task is skipped at once
        fetch_article.delay(pk)
    for pk in range(10**6, 10**6 + 5):
        poll_site.delay(pk)
    # the network worker's queues (runall's worker-net; the dispatcher's "celery" queue has a worker of its own, which
    # dispatches as it starts)
    worker = start_worker(queues="alerts,poll,fetch", concurrency=1, pool="threads")
    deadline = time.monotonic() + 60
    while worker.log().count(" succeeded in ") < 25 and time.monotonic() < deadline:
        time.sleep(0.2)
    order = re.findall(r"Task monitor\.(\w+)\[[^\]]+\] received", worker.log())
    assert len(order) == 25, worker.log()
    # round robin would alternate poll, fetch, poll, fetch...
    assert order[:5] == ["poll_site"] * 5, order
