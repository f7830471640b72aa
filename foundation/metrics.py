"""WIMS's Prometheus metrics: what every app counts, and the folder the processes of one host count in.

The counters and histograms here are prometheus-client's, in its multiprocess mode: each process writes its
values into files of its own (``counter_<pid>.db``, ``histogram_<pid>.db``) in one folder per host,
``PROMETHEUS_MULTIPROC_DIR`` (wims/settings.py sets it, to ``var/metrics/`` by default, before any process
imports the client or forks its pool children), and a scrape (wims/metrics.py) sums every file of the folder.
So a count survives its process: a prefork child replaced after its task, a worker killed and started again,
all add up, and Prometheus sees one monotonic counter. A process that ends cleanly (a Celery worker or pool
child: wims/worker.py) adds its files into the folder's archive files (:func:`retire_process`), and a starting
worker does the same for processes that died without a word (:func:`retire_dead_processes`), so the folder
holds a pair of files per live process, not one per process that ever ran; a scrape and a retirement take the
folder's lock (:func:`scrape_lock`) so that a scrape never sees a count twice or not at all.

Why files rather than counts derived from database rows at scrape time: task outcomes and processing times
have no row of their own, fetch logs are subject to retention (a count that shrinks is a counter reset to
Prometheus), and a count of a growing table at every scrape costs more with every day. What the database
holds as a state (articles by state, the oldest overdue article) is a gauge read at scrape time instead.

Label values are bounded sets only (task names, ``Outcome.result`` words, fetch kinds and outcomes, refusal
reasons): never a site, a URL or an error message.
"""

from __future__ import annotations

import contextlib
import fcntl
import glob
import os
import shutil
from collections.abc import Iterator
from contextvars import ContextVar

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

# Loading the settings sets PROMETHEUS_MULTIPROC_DIR, which prometheus-client reads once, when it is imported.
METRICS_DIR = str(settings.METRICS_DIR)

from prometheus_client import Counter, Histogram, multiprocess, values  # noqa: E402
from prometheus_client.mmap_dict import MmapedDict  # noqa: E402

if not getattr(values.ValueClass, "_multiprocess", False):
    raise ImproperlyConfigured(
        "prometheus_client was imported before the settings set PROMETHEUS_MULTIPROC_DIR: its counts would stay "
        "in one process (load the Django settings first)"
    )

__all__ = [
    "ALERT_MESSAGES",
    "EXTRACTION_REFUSALS",
    "FETCHES",
    "FETCH_SECONDS",
    "PROCESSING_SECONDS",
    "TASKS",
    "count_task",
    "record_outcome",
    "retire_dead_processes",
    "retire_process",
    "scrape_lock",
    "task_started",
]

TASKS = Counter(
    "wims_tasks",
    "Celery tasks run, by task and outcome (the Outcome's result; done/error/retry for tasks without one)",
    ["task", "outcome"],
)
FETCHES = Counter(
    "wims_fetches",
    "HTTP requests WebMon made, by kind (robots, section, feed, article) and outcome (its fetch log's)",
    ["kind", "outcome"],
)
FETCH_SECONDS = Histogram(
    "wims_fetch_duration_seconds",
    "Time of one HTTP request WebMon made (redirects and the politeness wait included), by kind",
    ["kind"],
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 20.0, 40.0),
)
PROCESSING_SECONDS = Histogram(
    "wims_processing_duration_seconds",
    "Time to process one fetched article (read, extract, DocView, case and inference), by outcome",
    ["outcome"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0),
)
ALERT_MESSAGES = Counter(
    "wims_alert_messages",
    "Alert and digest messages, by kind (alert, digest) and outcome (sent, retry, failed)",
    ["kind", "outcome"],
)
EXTRACTION_REFUSALS = Counter(
    "wims_extraction_refusals",
    "Fetched pages processing refused at the door (filters/limits.py), by reason",
    ["reason"],
)

#: the outcome the running task's work reported (foundation.work.finish), read when the task ends
_outcome: ContextVar[str | None] = ContextVar("wims_task_outcome", default=None)


def task_started() -> None:
    _outcome.set(None)


def record_outcome(result: str) -> None:
    """The running task's outcome (an ``Outcome.result``), counted by :func:`count_task` when it ends."""
    _outcome.set(result)


def count_task(task: str, state: str) -> None:
    """Count a task that ended (Celery's ``task_postrun``): by its work's outcome, else by Celery's state."""
    outcome = _outcome.get()
    if state != "SUCCESS" or outcome is None:
        outcome = {"SUCCESS": "done", "FAILURE": "error", "RETRY": "retry"}.get(state, state.lower())
    TASKS.labels(task=task, outcome=outcome).inc()
    _outcome.set(None)


# --------------------------------------------------------------------------- the folder


#: the types whose values add up across processes (gauges do not: see retire_process)
_SUMMED = ("counter", "histogram", "summary")
_ARCHIVE = "archive"


@contextlib.contextmanager
def scrape_lock(exclusive: bool = False, path: str | None = None) -> Iterator[None]:
    """The folder's lock: shared while a scrape reads the files, exclusive while a retirement moves counts."""
    folder = path or METRICS_DIR
    with open(os.path.join(folder, ".lock"), "a") as lock:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)  # released on close
        yield


def _files_of(pid: int, folder: str) -> list[tuple[str, str]]:
    return [(typ, path) for typ in _SUMMED if os.path.exists(path := os.path.join(folder, f"{typ}_{pid}.db"))]


def retire_process(pid: int | None = None, path: str | None = None) -> None:
    """Move an ended process's counts into the folder's archive files, one type at a time, under the lock.

    Its live gauges are dropped (prometheus-client's ``mark_process_dead``). Its counters and histograms are
    added to ``<type>_archive.db`` (a copy of the archive, with them added, replaces it), then its files go:
    both under the exclusive lock, so a scrape sees them before or after, never twice. Called by the process
    itself as it ends (it counts nothing after), or for a process that is gone.
    """
    folder = path or METRICS_DIR
    pid = os.getpid() if pid is None else pid
    multiprocess.mark_process_dead(pid, folder)
    with scrape_lock(exclusive=True, path=folder):
        for typ, dead in _files_of(pid, folder):
            archive = os.path.join(folder, f"{typ}_{_ARCHIVE}.db")
            partial = os.path.join(folder, f".{typ}_{_ARCHIVE}.{os.getpid()}.part")  # not *.db: never scraped
            if os.path.exists(archive):
                shutil.copyfile(archive, partial)
            elif os.path.exists(partial):  # left by a retirement that crashed
                os.remove(partial)
            merged = MmapedDict(partial)
            try:
                for key, value, _timestamp, _pos in MmapedDict.read_all_values_from_file(dead):
                    old, _ = merged.read_value(key)
                    merged.write_value(key, old + value, 0.0)
            finally:
                merged.close()
            os.replace(partial, archive)
            os.remove(dead)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process: alive
    return True


def retire_dead_processes(path: str | None = None) -> list[int]:
    """Retire the files of every process of this host that is gone (killed, or ended without retiring).

    The folder is one host's: process ids from another machine or container would look dead here.
    """
    folder = path or METRICS_DIR
    pids = set()
    for file in glob.glob(os.path.join(folder, "*_*.db")):
        typ, _, rest = os.path.basename(file)[: -len(".db")].rpartition("_")
        if rest.isdigit() and (typ in _SUMMED or typ.startswith("gauge_")):
            pids.add(int(rest))
    dead = sorted(pid for pid in pids if pid != os.getpid() and not _alive(pid))
    for pid in dead:
        retire_process(pid, folder)
    return dead
