"""The work queue (foundation/work.py): the stages the apps register, sending by work name, and no app naming
another's tasks."""

import ast
from pathlib import Path

import pytest
from celery import current_app
from django.conf import settings

from foundation import work

ROOT = Path(__file__).resolve().parents[2]
APPS = ("monitor", "processing", "alerts", "classifier", "feeds", "search", "api", "dashboards", "filters")


def test_each_app_registers_its_own_stages_with_their_queues():
    registered = {s.name: (s.task, work.queue(s.name), s.rows is not None) for s in work.stages()}
    assert registered == {
        "poll": ("monitor.poll_site", "poll", False),
        "fetch": ("monitor.fetch_article", "fetch", True),
        "process": ("processing.process_article", "process", True),
        "learn": ("processing.learn_site_profile", "process", False),
        "deliver": ("alerts.send", "alerts", False),
    }
    assert set(settings.WIMS_QUEUES) >= {work.queue(s.name) for s in work.stages()}


def test_a_name_is_registered_once():
    fetch = work.stage("fetch")
    assert work.register("fetch", fetch.task, fetch.rows) is fetch  # the same again: nothing changes
    with pytest.raises(ValueError, match="registered already"):
        work.register("fetch", "processing.process_article")
    assert work.stage("fetch") is fetch


def test_enqueue_sends_by_the_registered_task_and_leaves_long_countdowns_to_the_sweep(monkeypatch):
    sent = []
    monkeypatch.setattr(
        current_app, "send_task", lambda name, args, countdown=None: sent.append((name, args, countdown))
    )
    outcome = work.Outcome("done", "x", [("process", 1, 0), ("fetch", 2, 1.5), ("fetch", 3, work.MAX_COUNTDOWN + 1)])
    assert work.finish(outcome) == "done x"
    assert sent == [("processing.process_article", (1,), None), ("monitor.fetch_article", (2,), 1.5)]


def test_no_app_names_another_apps_tasks():
    """A task name in an app's code is its own: another app's work is asked for by work name."""
    tasks = {s.task for s in work.stages()}
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in tasks:
                    owner = node.value.split(".")[0]
                    assert owner == app, f"{path.relative_to(ROOT)} names {node.value}, a task of {owner}"
