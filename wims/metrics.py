"""``/metrics``: WIMS's Prometheus metrics, in the text format, to the networks and the token the settings allow.

Two kinds of figure. Counts of events (tasks by outcome, fetches, processing time, alerts sent, refused pages)
are counted by the processes that do the work, into this host's metrics folder (foundation/metrics.py), and
summed here over every process, living or gone. States (the articles in each state, the oldest article
overdue for work, the broker's queue depths) are read when Prometheus scrapes: one grouped query, one
indexed query, and one length per queue (a Redis LLEN, or a listing of the embedded broker's folder).

Who may scrape: a client whose address is in ``WIMS_METRICS_ALLOWED_NETWORKS`` (loopback by default) and, when
``WIMS_METRICS_TOKEN`` is set, that sends it as ``Authorization: Bearer <token>``. A request a proxy forwarded
(``X-Forwarded-For`` or ``Forwarded``) is refused: its client's address is not the one this server sees, and the
proxy's own (often loopback) must not stand for it. Scrape the app server directly.
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
from collections.abc import Iterator

from django.conf import settings
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest, multiprocess
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from classifier.vocabulary import work_state
from foundation import metrics
from monitor.models import Article
from wims.celery import app
from wims.health import oldest_overdue

log = logging.getLogger(__name__)

#: a proxy's headers: the client behind it is not REMOTE_ADDR
FORWARDED = ("HTTP_X_FORWARDED_FOR", "HTTP_FORWARDED", "HTTP_X_REAL_IP")


class StateCollector(Collector):
    """The gauges read from the database and the broker when Prometheus scrapes."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        articles = GaugeMetricFamily(
            "wims_articles", "Articles by processing state (as the API's processing_state names it)", labels=["state"]
        )
        counts = dict(Article.objects.order_by().values_list("state").annotate(n=Count("pk")))
        for state in Article.State.values:  # every state, 0 included: a series that vanishes alerts nobody
            articles.add_metric([work_state(state)], counts.get(state, 0))
        yield articles
        now = timezone.now()
        yield GaugeMetricFamily(
            "wims_oldest_overdue_article_age_seconds",
            "Age of the oldest article due for a fetch or processing (0 when none is overdue)",
            value=(now - oldest).total_seconds() if (oldest := oldest_overdue(now)) else 0.0,
        )
        yield from _queues()


def _queues() -> Iterator[GaugeMetricFamily]:
    """Messages waiting in each of WIMS's queues (not those a worker holds, e.g. a countdown), and whether the
    broker answered at all."""
    depth = GaugeMetricFamily("wims_queue_depth", "Messages waiting in a broker queue", labels=["queue"])
    try:
        with app.connection_for_read() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
            channel = conn.default_channel
            for queue in settings.WIMS_QUEUES:
                # not passive: Redis deletes an empty list, and a passive declaration of it fails (not found); the
                # declaration itself does nothing on Redis or the embedded broker, the count is a LLEN or a listing
                depth.add_metric([queue], channel.queue_declare(queue=queue).message_count)
        up = 1.0
    except Exception as exc:  # the broker is down: say so, and leave the depths out rather than fail the scrape
        log.warning("metrics: the broker did not answer: %s: %s", type(exc).__name__, exc)
        up = 0.0
    yield GaugeMetricFamily("wims_broker_up", "1 when the broker answered this scrape, 0 when it did not", value=up)
    if up:
        yield depth


def _client_allowed(request: HttpRequest) -> bool:
    if any(request.META.get(header) for header in FORWARDED):
        return False
    try:
        address = ipaddress.ip_address(request.META.get("REMOTE_ADDR", ""))
    except ValueError:
        return False
    if address.version == 6 and address.ipv4_mapped:
        address = address.ipv4_mapped
    return any(address in network for network in settings.WIMS_METRICS_NETWORKS)


def _token_ok(request: HttpRequest) -> bool:
    token = settings.WIMS_METRICS_TOKEN
    if not token:
        return True
    scheme, _, given = request.headers.get("Authorization", "").partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), token.encode())


def exposition() -> bytes:
    """Every process's counts from the metrics folder (under its lock, briefly: a worker that ends waits for
    it), then the states read now."""
    counts = CollectorRegistry()
    multiprocess.MultiProcessCollector(counts, path=metrics.METRICS_DIR)
    states = CollectorRegistry()
    states.register(StateCollector())
    with metrics.scrape_lock():
        body = generate_latest(counts)
    return body + generate_latest(states)


@never_cache
@require_safe
def metrics_view(request: HttpRequest) -> HttpResponse:
    if not _client_allowed(request):
        return HttpResponse("forbidden: not from an allowed network\n", status=403, content_type="text/plain")
    if not _token_ok(request):
        response = HttpResponse("unauthorized: bearer token needed\n", status=401, content_type="text/plain")
        response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    return HttpResponse(exposition(), content_type=CONTENT_TYPE_LATEST)
