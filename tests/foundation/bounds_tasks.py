"""Tasks only the bounds tests' workers import (CELERY_WORKER_INCLUDE: click's variable for `worker --include`)."""

import os
import resource
import time

from celery import shared_task


@shared_task(name="tests.whoami", ignore_result=False)
def whoami() -> dict:
    """The process that runs tasks, its process group, its data cap (RLIMIT_DATA's soft limit, bytes) and the
    task's own id (WIMS's Task class keeps Celery's request context)."""
    return {
        "pid": os.getpid(),
        "pgid": os.getpgid(0),
        "data_cap": resource.getrlimit(resource.RLIMIT_DATA)[0],
        "task_id": whoami.request.id,
    }


@shared_task(name="tests.allocate", ignore_result=False)
def allocate(megabytes: int) -> int:
    """Take ``megabytes`` and write to every page of it, so that it is resident."""
    block = bytearray(megabytes << 20)
    block[:: 1 << 12] = b"\x01" * len(range(0, len(block), 1 << 12))
    return len(block) >> 20


@shared_task(name="tests.busy", soft_time_limit=1, time_limit=30, ignore_result=False)
def busy(seconds: float) -> str:
    """Python work for ``seconds`` (a soft time limit of 1 s)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        time.sleep(0.01)
    return "done"
