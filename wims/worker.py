"""What WIMS adds to every Celery worker process: bounds on a task's memory and time, and a clean stop.

Memory (values in wims/settings.py, from the environment). A prefork pool child (the processing worker) may
hold ``WIMS_TASK_MEMORY_MB`` of data: past it an allocation raises MemoryError inside the task, which fails
its row, instead of the kernel's OOM killer picking a process of the machine. Celery replaces a child whose
resident size went past ``WIMS_MAX_MEMORY_PER_CHILD_MB`` after a task (CELERY_WORKER_MAX_MEMORY_PER_CHILD), so
memory one task grew is given back. A threads-pool worker (the dispatcher, the network worker) runs all its
tasks in one process: ``WIMS_WORKER_MEMORY_MB`` caps that process. The cap is RLIMIT_DATA (heap and private
writable mappings), not RLIMIT_AS: glibc reserves 64 MiB of address space for each thread's malloc arena, so a
16-thread worker's address space passes 1 GB with a tenth of it in use.

Time. Celery enforces time limits in prefork children only (a signal at the soft limit, SIGKILL at the hard
one); a threads pool ignores them. Here a watchdog raises SoftTimeLimitExceeded in the thread of a task past
its soft limit, as the signal does in a child. A thread cannot be killed, so a threads pool has no hard limit:
the network bounds (monitor/conf.py) and the row's lease stand for it.

Stop. A prefork child leaves its worker's process group. Ctrl-C in a terminal, ``kill -- -PGID``, ``timeout``
and the soak's teardown signal a whole group: a child that got SIGTERM that way died at once, its task lost
and an ERROR logged ("exited with 'signal 15 (SIGTERM)'"), and the worker at times hung at exit (blocked in
C code during its interpreter's last garbage collection until a signal woke it; runall killed it after 15 s).
Now only the worker's main process gets such a signal and stops its children itself (a warm shutdown: the
running task finishes). They still die with it: Celery sets their parent-death signal to SIGKILL.

Metrics. Every task ends counted by its outcome (``wims_tasks_total``), and a worker or pool child that ends moves
its counts into its host's archive (foundation/metrics.py), so that they outlive it.

What a row keeps when its task ran into a bound (``limit_exceeded``, ``MemoryLimitExceeded``) is
foundation/bounds.py's: the services that fail a row ask it too.
"""

from __future__ import annotations

import ctypes
import logging
import os
import resource
import sys
import threading
import time

from celery import Task as CeleryTask
from celery import signals
from celery.exceptions import SoftTimeLimitExceeded
from django import db
from django.conf import settings

from foundation.bounds import MemoryLimitExceeded, limit_exceeded

log = logging.getLogger(__name__)

#: the worker's main process (a forked child inherits the value; the solo pool runs tasks in the main process)
_main_pid: int | None = None
#: this process is a worker that keeps its database connections across tasks (_keep_database_connections)
_keeps_connections = False


class Task(CeleryTask):
    """Every WIMS task (the app's ``task_cls``): a MemoryError leaves it as MemoryLimitExceeded.

    Celery takes a task that failed with MemoryError for a broken process: the prefork worker re-raises it in
    its result thread, which dies, and the worker takes no result after that. Under the caps above a
    MemoryError is an expected failure of one task: the allocation that failed was never made.
    """

    def __call__(self, *args, **kwargs):
        try:
            return super().__call__(*args, **kwargs)
        except MemoryError as exc:
            raise MemoryLimitExceeded(limit_exceeded(exc)) from None


def cap_memory(megabytes: int) -> None:
    """Past ``megabytes`` of data, allocations in this process fail (MemoryError in Python)."""
    _, hard = resource.getrlimit(resource.RLIMIT_DATA)
    limit = megabytes << 20
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    try:
        resource.setrlimit(resource.RLIMIT_DATA, (limit, hard))
    except (ValueError, OSError) as exc:  # a platform without the limit: run uncapped, but say so
        log.warning("memory cap of %d MB not set: %s", megabytes, exc)


def _metrics():
    """foundation.metrics, imported once the settings are loaded: this module is imported with the Celery app,
    which the settings module's own import may import, and the metrics need the settings first."""
    from foundation import metrics

    return metrics


@signals.worker_init.connect
def _on_worker_init(sender, **kwargs) -> None:
    global _main_pid
    _main_pid = os.getpid()
    _metrics().retire_dead_processes()
    _keep_database_connections(settings.WIMS_WORKER_DB_CONN_MAX_AGE)
    from celery import concurrency

    pool = concurrency.get_implementation(sender.pool_cls).__module__
    if pool == "celery.concurrency.prefork":
        return  # each child is capped when it starts (below); the main process runs no task
    cap_memory(settings.WIMS_WORKER_MEMORY_MB)
    if pool == "celery.concurrency.thread":
        _deadlines.enabled = True


def _keep_database_connections(max_age: int) -> None:
    """The worker's connections (every thread's and pool child's, made from these settings) live ``max_age``
    seconds, with Django's health check before reuse; :func:`_on_task_start` closes those too old or broken."""
    global _keeps_connections
    if not max_age:
        return
    _keeps_connections = True
    for database in settings.DATABASES.values():
        database["CONN_MAX_AGE"] = max_age
        database["CONN_HEALTH_CHECKS"] = True


@signals.worker_process_init.connect
def _on_pool_child_start(**kwargs) -> None:
    if os.getpid() == _main_pid:
        return  # the solo pool: capped as a whole at worker_init
    try:
        os.setpgid(0, 0)  # out of the worker's process group: signals to the group reach the main process only
    except OSError as exc:  # never expected; the child still works, only less sheltered
        log.warning("pool child %d stays in its worker's process group: %s", os.getpid(), exc)
    cap_memory(settings.WIMS_TASK_MEMORY_MB)


class _Deadlines:
    """Soft time limits of the tasks running in a threads pool, watched by one daemon thread.

    The exception is raised when the thread next runs Python code: after a blocking call returns (each of
    WebMon's has a timeout), as a prefork child's signal handler runs only between two bytecodes too.
    """

    def __init__(self) -> None:
        self.enabled = False
        self.lock = threading.Lock()
        self.running: dict[int, tuple[float, object, str]] = {}  # thread id -> (deadline, task code, task name)
        self.watcher: threading.Thread | None = None

    def start(self, task) -> None:
        soft = (task.request.timelimit or (None, None))[1] or task.soft_time_limit
        if not soft:
            return
        run = getattr(task.run, "__func__", task.run)
        with self.lock:
            self.running[threading.get_ident()] = (time.monotonic() + soft, getattr(run, "__code__", None), task.name)
            if self.watcher is None:
                self.watcher = threading.Thread(target=self.watch, name="wims-soft-time-limits", daemon=True)
                self.watcher.start()

    def end(self) -> None:
        with self.lock:
            self.running.pop(threading.get_ident(), None)

    def watch(self) -> None:
        while True:
            time.sleep(0.5)
            now = time.monotonic()
            with self.lock:
                late = [(tid, entry) for tid, entry in self.running.items() if entry[0] <= now]
                for tid, (_, code, name) in late:
                    del self.running[tid]
                    # only while the task's own code is on the thread's stack: raised in Celery's bookkeeping
                    # after the task returned, the exception would fail a task that succeeded
                    if _runs(tid, code):
                        log.warning("%s: soft time limit exceeded, raising SoftTimeLimitExceeded in its thread", name)
                        ctypes.pythonapi.PyThreadState_SetAsyncExc(
                            ctypes.c_ulong(tid), ctypes.py_object(SoftTimeLimitExceeded)
                        )


def _runs(thread_id: int, code: object) -> bool:
    frame = sys._current_frames().get(thread_id)
    while frame is not None:
        if code is None or frame.f_code is code:
            return True
        frame = frame.f_back
    return False


_deadlines = _Deadlines()


@signals.task_prerun.connect
def _on_task_start(sender=None, **kwargs) -> None:
    _metrics().task_started()
    # a connection kept from the last task (CELERY_DB_REUSE_MAX): closed if too old or broken, and checked before
    # its first query (CONN_HEALTH_CHECKS), so a restarted PostgreSQL costs a reconnection, not a failed task;
    # only in a worker: a task applied in another process (a test, a command) leaves that process's connection
    if _keeps_connections:
        db.close_old_connections()
    if _deadlines.enabled and sender is not None:
        _deadlines.start(sender)


@signals.task_postrun.connect
def _on_task_end(sender=None, state=None, **kwargs) -> None:
    if _deadlines.enabled:
        _deadlines.end()
    if sender is not None:
        _metrics().count_task(sender.name, state or "")


# Metrics (foundation/metrics.py): a process's counts outlive it in the host's folder; one that ends cleanly moves
# them into the archive files, and a starting worker does so for the processes that were killed.
@signals.worker_process_shutdown.connect
def _on_pool_child_end(**kwargs) -> None:
    _metrics().retire_process()


@signals.worker_shutdown.connect
def _on_worker_end(**kwargs) -> None:
    _metrics().retire_process()


@signals.worker_ready.connect
def _dispatch_at_start(sender, **kwargs) -> None:
    """A worker that consumes the dispatcher's queue dispatches once as it starts: the first polls after a start
    (and /healthz's beat heartbeat) need not wait for the beat's first 30 s. The dispatcher claims what it
    dispatches, so a second worker doing the same, or the beat's own run, dispatches nothing twice."""
    queues = {queue.name for queue in sender.app.amqp.queues.consume_from.values()}
    if "celery" in queues:
        sender.app.send_task("monitor.dispatch_due_polls", queue="celery")
