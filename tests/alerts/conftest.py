"""Fixtures for the alerts tests: experts with addresses, folders, articles, and a real JSON webhook server."""

import itertools
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.utils import timezone

from classifier import services as kb_services
from classifier.models import Case, Classification
from monitor.models import Article, Site
from tests.articles import create_article
from tests.classifier.conftest import _fresh_kb_cache  # noqa: F401  (autouse)

_n = itertools.count(1)


@pytest.fixture
def reader(make_expert):
    """An expert with an e-mail address."""
    return make_expert("reader", email="reader@example.org")


@pytest.fixture
def editor(make_expert):
    """The expert who accepts articles."""
    return make_expert("editor")


@pytest.fixture
def tree(editor):
    return {
        "health": kb_services.create_folder("Health", editor),
        "measles": kb_services.create_folder("Health/Measles", editor),
        "sport": kb_services.create_folder("Sport", editor),
    }


@pytest.fixture
def news(db):
    return Site.objects.create(name="Health Daily", home_url="https://health.example/")


@pytest.fixture
def make_article(news):
    def make(title="Measles cases rise", abstract="Cases of measles rose sharply in the region.", **fields):
        n = next(_n)
        return create_article(
            site=news,
            url=f"https://health.example/story/{n}",
            title=title,
            abstract=abstract,
            core_text=fields.pop("core_text", abstract + " More text."),
            state=fields.pop("state", Article.State.PROCESSED),
            processed_at=fields.pop("processed_at", timezone.now()),
            **fields,
        )

    return make


@pytest.fixture
def suggest():
    """suggest(article, *folders) -> Case: the article's case with suggestions in the folders (as inference leaves
    them); an expert then accepts through classifier.services.accept, as the accept view does."""

    def make(article, *folders):
        case, _ = Case.objects.get_or_create(article=article, defaults={"keywords": ["measles"], "source": article.url})
        for folder in folders:
            Classification.objects.get_or_create(case=case, folder=folder)
        return case

    return make


class Webhook:
    """A real HTTP server on loopback that records what it receives and answers ``status``."""

    def __init__(self):
        self.requests: list[dict] = []
        self.status = 200
        self.delay = 0.0  # seconds before answering (a slow service)
        hook = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                hook.requests.append({"path": self.path, "body": body, "headers": dict(self.headers)})
                time.sleep(hook.delay)
                self.send_response(hook.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path="hook") -> str:
        return f"json://127.0.0.1:{self.port}/{path}"

    def payloads(self) -> list[dict]:
        return [json.loads(r["body"]) for r in self.requests]

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def webhook():
    hook = Webhook()
    yield hook
    hook.close()
