"""Fixtures for WebMon tests: a demo news server, the demo sites registered, small delays for workers.

WebMon's tunables are settings read from the environment (wims/settings.py): worker processes get FAST_ENV in
theirs, and the ``fast_env`` fixture gives the same values to this process's settings. FAST_ENV keeps the
politeness delay, backoffs and leases short so that the fault tests take seconds, not minutes.
"""

import heapq
import itertools
import time

import pytest
import requests

from demo import DemoServer
from demo.registration import demo_site_settings
from demo.sites import report_url
from foundation.work import Outcome
from monitor.models import Site

FAST_ENV = {
    "WIMS_POLITENESS_DELAY": "0.2",
    "WIMS_POLITENESS_MAX_WAIT": "2",
    "WIMS_RETRY_BASE": "0.5",
    "WIMS_RETRY_MAX_DELAY": "5",
    "WIMS_READ_TIMEOUT": "2",
    "WIMS_CONNECT_TIMEOUT": "2",
    # a lease longer than the tasks' hard time limit (the time limit + 20 s), as wims/settings.py requires
    "WIMS_TASK_TIME_LIMIT": "20",
    "WIMS_LEASE_SECONDS": "45",
    "WIMS_SWEEP_GRACE": "1",
    "WIMS_MAX_FETCH_ATTEMPTS": "4",
    "WIMS_MISSING_PAGE_ATTEMPTS": "3",
    "WIMS_MISSING_PAGE_DELAY": "0.2",
    "WIMS_MAX_BYTES": "1000000",
}


@pytest.fixture
def fast_env(tunables):
    """The same small settings for this test process (in-process service calls) as for its workers."""
    tunables(**FAST_ENV)
    return dict(FAST_ENV)


@pytest.fixture
def demo():
    """The demo sites (the three registered and the one left to register) on a free port, four articles published
    each, no automatic publication."""
    with DemoServer(port=0, interval=None, start_published=4) as server:
        yield server


def register(server, key: str, **overrides) -> Site:
    spec = server.sites[key]
    fields = demo_site_settings(spec, server.base_url(key))
    fields.update(overrides)
    return Site.objects.create(**fields)


def control(server, key: str, method: str, name: str, **params):
    resp = requests.request(method, server.url(key, f"/_control/{name}"), params=params, timeout=5)
    resp.raise_for_status()
    return resp.json()


def ground_truth(server, key: str) -> dict[str, dict]:
    """Published articles of a site by URL, with their core text."""
    return {a["url"]: a for a in control(server, key, "GET", "articles.json")["articles"]}


def special_report(server, key: str) -> set[str]:
    """The site's special report (demo.furniture.REPORTS), none or one: a list of stories at a story's address, which
    a poll fetches as it fetches a story and processing keeps out as no article (state ``not_article``)."""
    url = report_url(server.sites[key], server.base_url(key))
    return {url} if url else set()


def poll_outcomes(stories: int, reports: int = 1) -> list[tuple[str, str]]:
    """A poll's tasks and results, sorted as ``sorted((name, outcome.result) ...)`` gives them: every story and
    special report fetched, the stories processed, the reports kept out (Health Watch and Wellbeing have one)."""
    fetched = [("fetch", "fetched")] * (stories + reports)
    return fetched + [("process", "not_article")] * reports + [("process", "processed")] * stories


def request_log(server, key: str, path_prefix: str = "/") -> list[dict]:
    return control(server, key, "GET", "requests.json", path_prefix=path_prefix)["requests"]


def wait_for(predicate, timeout: float = 60, interval: float = 0.3, message: str = "condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s waiting for {message}")


TERMINAL = ("processed", "failed", "duplicate", "not_article")  # not_article: kept out by its kind


def run_until(predicate, timeout: float = 90, tick: float = 1.5, message: str = "WebMon to finish"):
    """Play beat: send the dispatcher every ``tick`` seconds (it also sweeps) until ``predicate()`` holds."""
    from monitor.tasks import dispatch_due_polls

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        dispatch_due_polls.delay()
        end = time.monotonic() + tick
        while time.monotonic() < end:
            value = predicate()
            if value:
                return value
            time.sleep(0.25)
    raise AssertionError(f"timed out after {timeout}s waiting for {message}")


def run_tasks(tasks, only: tuple[str, ...] = ("poll", "fetch", "process", "learn")) -> list:
    """Play a worker in this process: run each task when its countdown is due, then what its outcome asks for.

    ``tasks``: an Outcome, or (work name, id, countdown) triples as an Outcome lists them; work not named in
    ``only`` is dropped. Returns (work name, id, outcome) in the order run. A fetch sent before its turn is
    refused as not yet due, as a worker's early message would be.
    """
    from monitor import services
    from processing import learning
    from processing import services as processing

    steps = {
        "poll": services.poll_site,
        "fetch": services.fetch_article,
        "process": processing.process_article,
        "learn": learning.learn_site,
    }
    order = itertools.count()
    queue: list = []

    def send(enqueue) -> None:
        for name, pk, countdown in enqueue:
            if name in only:
                heapq.heappush(queue, (time.monotonic() + countdown, next(order), name, pk))

    send(tasks.enqueue if isinstance(tasks, Outcome) else tasks)
    ran = []
    while queue:
        due, _, name, pk = heapq.heappop(queue)
        time.sleep(max(0.0, due - time.monotonic()))
        outcome = steps[name](pk)
        ran.append((name, pk, outcome))
        send(outcome.enqueue)
    return ran


def seed_rule(keyword: str, folder_path: str):
    """A folder and one MCRDR rule "keyword -> folder", with a cornerstone case on a seed article."""
    from django.contrib.auth import get_user_model

    from classifier import services
    from monitor.models import Article

    user = get_user_model().objects.create(username=f"expert-{keyword}")
    folder = services.create_folder(folder_path, user)
    seed_site = Site.objects.create(name="Seed", home_url="http://seed.invalid/", active=False)
    article = Article.objects.create(site=seed_site, url="http://seed.invalid/a", state="processed")
    case = services.ingest_case(article, [keyword, "seed"])
    [rule] = services.commit_rule(case, "new", user, folder=folder, conditions=[keyword])
    return folder, rule


@pytest.fixture(autouse=True)
def _forget_robots_rows():
    """robots.txt rows are cached per process (monitor/services.py); each test starts from its own database."""
    from monitor import services

    services._robots_rows.clear()
    yield
    services._robots_rows.clear()


class ScriptedServer:
    """A local HTTP server answering each path as scripted: ``routes[path] = (status, headers, body)``.

    For headers no demo site sends (malformed numbers, odd redirects); ``requests`` lists the paths asked;
    ``on_request(path)``, when set, runs (in the server's thread) before each answer.
    """

    def __init__(self):
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        server = self
        self.routes: dict[str, tuple[int, list[tuple[str, str]], bytes]] = {}
        self.requests: list[str] = []
        self.on_request = None

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 - http.server's name
                server.requests.append(self.path)
                if server.on_request is not None:
                    server.on_request(self.path)
                status, headers, body = server.routes.get(self.path, (404, [], b""))
                self.send_response(status)
                for name, value in headers:
                    self.send_header(name, value)
                if not any(name.lower() == "content-length" for name, _ in headers):
                    self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._thread.start()
        self.base = f"http://127.0.0.1:{self._httpd.server_address[1]}"

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()


@pytest.fixture
def scripted():
    server = ScriptedServer()
    yield server
    server.stop()
