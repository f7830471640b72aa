"""The reasons a row keeps when its task ran into its worker's bounds (time and memory).

The bounds themselves are set in every worker by wims/worker.py (values in wims/settings.py); the services
that fail a row with its error ask ``limit_exceeded`` what to record.
"""

from __future__ import annotations

from celery.exceptions import SoftTimeLimitExceeded

__all__ = ["MEMORY_LIMIT", "TIME_LIMIT", "MemoryLimitExceeded", "limit_exceeded"]

#: what a row keeps when its task ran into a bound
TIME_LIMIT = "time limit: the task ran past its soft time limit and was stopped"
MEMORY_LIMIT = (
    "memory limit: the task needed more memory than its worker may hold (WIMS_TASK_MEMORY_MB, WIMS_WORKER_MEMORY_MB)"
)


def limit_exceeded(exc: BaseException) -> str | None:
    """The reason a row keeps when its task ran into a bound, else None (any other error)."""
    if isinstance(exc, SoftTimeLimitExceeded):
        return TIME_LIMIT
    if isinstance(exc, MemoryError):
        return MEMORY_LIMIT
    return None


class MemoryLimitExceeded(Exception):
    """A task's MemoryError, as its worker reports it (wims.worker.Task)."""
