"""A redirect to the same host with production politeness (delay longer than the maximum wait): the redirect
hop waits for its slot instead of deferring the fetch, which would start again at the first hop for ever."""

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from monitor import services
from monitor.models import Article, Site

pytestmark = pytest.mark.django_db(transaction=True)


class Redirecting(BaseHTTPRequestHandler):
    requests: list[str] = []

    def do_GET(self):  # noqa: N802 - http.server's name
        Redirecting.requests.append(self.path)
        if self.path == "/old":
            self.send_response(301)
            self.send_header("Location", "/new")
            self.end_headers()
        elif self.path == "/new":
            body = b"<html><head><title>Moved</title></head><body><p>The article, at its new address.</p></body></html>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        else:
            self.send_response(404)
            self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def server():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Redirecting)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    Redirecting.requests = []
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def test_a_same_host_redirect_is_followed_when_the_delay_exceeds_the_maximum_wait(server, monkeypatch):
    monkeypatch.setenv("WIMS_POLITENESS_DELAY", "0.6")
    monkeypatch.setenv("WIMS_POLITENESS_MAX_WAIT", "0.1")
    monkeypatch.setenv("WIMS_RETRY_BASE", "0.1")
    site = Site.objects.create(name="Moved", home_url=server + "/", allow_private_addresses=True)
    article = Article.objects.create(site=site, url=server + "/old")
    results = []
    for _ in range(6):
        outcome = services.fetch_article(article.pk)
        results.append(outcome.result)
        if outcome.result != "deferred":
            break
        [(_, _, countdown)] = outcome.enqueue
        time.sleep(countdown)  # what the re-queued task's countdown does
    assert results[-1] == "fetched", results
    # robots.txt, then one fetch that follows the redirect after waiting for its slot (never /old again)
    assert Redirecting.requests == ["/robots.txt", "/old", "/new"], Redirecting.requests
    assert Article.objects.get(pk=article.pk).final_url == server + "/new"
