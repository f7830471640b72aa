"""Shared fixtures: the shared datasets, and a real Celery worker process on the test database.

Tests run on whatever DATABASE_URL and CELERY_BROKER_URL say: SQLite and the embedded filesystem
broker by default, PostgreSQL and Redis in CI (.ci/run).
"""

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from tests.browser import browser, page, shot  # noqa: F401 - the browser tests' fixtures, registered once

ROOT = Path(__file__).resolve().parent.parent


def datasets_dir() -> Path:
    return Path(os.environ.get("WIMS_DATASETS", ROOT.parent / "shared" / "datasets"))


@pytest.fixture(scope="session")
def datasets() -> Path:
    """The shared datasets folder; tests that need it skip where it is absent (a user's fresh machine)."""
    path = datasets_dir()
    if not path.is_dir():
        pytest.skip(f"shared datasets not found at {path} (set WIMS_DATASETS)")
    return path


@pytest.fixture(autouse=True)
def _no_cached_corrections_count():
    """The header's cached count of pending corrections is not carried from one test's database to the next
    (a rolled-back test commits nothing, so its changes never clear it on commit)."""
    from django.core.cache import cache

    from classifier.services.corrections import PENDING_COUNT_KEY

    cache.delete(PENDING_COUNT_KEY)


def pytest_configure(config):
    """Keep the test broker apart from a `make run` worker that may be using var/broker."""
    from django.conf import settings

    if not settings.CELERY_BROKER_URL.startswith("filesystem://"):
        return
    broker_dir = ROOT / "var" / f"test-broker-{os.getpid()}"
    for sub in ("queue", "processed", "results", "control"):
        (broker_dir / sub).mkdir(parents=True, exist_ok=True)
    os.environ["WIMS_BROKER_DIR"] = str(broker_dir)  # read by the worker processes' settings
    from wims.celery import app

    app.conf.broker_transport_options = {
        "data_folder_in": str(broker_dir / "queue"),
        "data_folder_out": str(broker_dir / "queue"),
        "processed_folder": str(broker_dir / "processed"),
        "control_folder": str(broker_dir / "control"),
        "store_processed": False,
    }
    app.conf.result_backend = f"file://{broker_dir / 'results'}"
    config._wims_broker_dir = broker_dir


def pytest_unconfigure(config):
    broker_dir = getattr(config, "_wims_broker_dir", None)
    if broker_dir is not None:
        shutil.rmtree(broker_dir, ignore_errors=True)
    from django.conf import settings

    if settings.METRICS_DIR.name == f"test-metrics-{os.getpid()}":  # this run's own (tests/settings.py)
        shutil.rmtree(settings.METRICS_DIR, ignore_errors=True)


def database_url_for(settings_dict) -> str:
    """A DATABASE_URL naming the database that this test process uses (the test database)."""
    engine = settings_dict["ENGINE"]
    if engine.endswith("sqlite3"):
        return f"sqlite:///{settings_dict['NAME']}"
    if engine.endswith("postgresql"):
        user = settings_dict.get("USER") or ""
        password = f":{settings_dict['PASSWORD']}" if settings_dict.get("PASSWORD") else ""
        auth = f"{user}{password}@" if user else ""
        host = settings_dict.get("HOST") or "127.0.0.1"
        port = f":{settings_dict['PORT']}" if settings_dict.get("PORT") else ""
        return f"postgres://{auth}{host}{port}/{settings_dict['NAME']}"
    raise RuntimeError(f"no DATABASE_URL mapping for {engine}")


class WorkerProcess:
    """A `celery worker` subprocess; stop() ends it, kill() SIGKILLs it (crash tests).

    ``bare`` (the default) starts it without gossip, mingle and heartbeat, for a quick start; ``bare=False``
    keeps them, as `runall` and the systemd units start production workers (their broadcast subscriptions
    change what a broker outage does to the worker).
    """

    def __init__(
        self, queues: str, concurrency: int, extra_env: dict | None = None, pool: str = "prefork", bare: bool = True
    ):
        from django.db import connection

        self.hostname = f"test-{uuid.uuid4().hex[:8]}@%h"
        env = dict(os.environ)
        env["DATABASE_URL"] = database_url_for(connection.settings_dict)
        env.update(extra_env or {})
        self.log_path = ROOT / "var" / f"worker-{uuid.uuid4().hex[:8]}.log"
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self._log = open(self.log_path, "w")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "wims",
                "worker",
                "-Q",
                queues,
                "-c",
                str(concurrency),
                "-P",
                pool,
                "-n",
                self.hostname,
                *(("--without-gossip", "--without-mingle", "--without-heartbeat") if bare else ()),
                "-l",
                "info",
            ],
            cwd=ROOT,
            env=env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.wait_ready()

    def wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"celery worker exited early:\n{self.log()}")
            if " ready." in self.log():
                return
            time.sleep(0.2)
        raise RuntimeError(f"celery worker not ready after {timeout}s:\n{self.log()}")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def kill(self) -> None:
        """SIGKILL the whole worker process group, as a crash would."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=30)

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()
        self._log.close()


def purge_queues(queues: str) -> None:
    from wims.celery import app

    with app.connection_for_write() as conn:
        for name in queues.split(","):
            # A queue that was never declared has nothing to purge.
            with contextlib.suppress(Exception):
                conn.default_channel.queue_purge(name)


@pytest.fixture
def tunables(monkeypatch, settings):
    """tunables(WIMS_POLITENESS_DELAY="0.6", ...): WebMon's tunables (numbers, wims/settings.py) for this test,
    both as the settings this process reads (pytest-django's ``settings``) and in the environment, which the
    worker processes that the test starts afterwards read theirs from. Undone at the test's end."""

    def tune(**values) -> None:
        for name, value in values.items():
            monkeypatch.setenv(name, str(value))
            number = float(value)
            setattr(settings, name, int(number) if isinstance(getattr(settings, name), int) else number)

    return tune


@pytest.fixture
def make_expert(db, django_user_model):
    """make_expert("ada", email=...): a user (password "pw") in the experts' group (foundation/roles.py)."""
    from foundation.roles import EXPERTS, ensure_groups

    def make(username: str, **fields):
        user = django_user_model.objects.create_user(username, password="pw", **fields)  # noqa: S106
        user.groups.add(ensure_groups()[EXPERTS])
        return user

    return make


@pytest.fixture
def expert_user(make_expert):
    """A user in the experts' group (foundation/roles.py)."""
    return make_expert("ada")


@pytest.fixture
def ec(client, expert_user):
    """A client signed in as an expert."""
    client.force_login(expert_user)
    return client


@pytest.fixture
def start_worker(transactional_db):
    """Start real Celery worker processes on the test database: start_worker(queues=..., concurrency=...).

    Tests using it see committed data only (transactional_db). Workers are stopped at teardown,
    and their logs printed when a test fails.
    """
    workers: list[WorkerProcess] = []

    def start(queues: str = "celery,poll,fetch,process", concurrency: int = 1, **kwargs) -> WorkerProcess:
        if not workers:
            purge_queues(queues)
        worker = WorkerProcess(queues, concurrency, **kwargs)
        workers.append(worker)
        return worker

    yield start
    for worker in workers:
        worker.stop()
        if os.environ.get("WIMS_KEEP_WORKER_LOGS") is None:
            worker.log_path.unlink(missing_ok=True)
