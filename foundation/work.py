"""Work between the stages: what a task should do next, as the service it called returns it.

A Celery task loads ids, calls one service function and enqueues what the returned ``Outcome`` asks for
(``monitor.tasks.enqueue``, by work name).
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Outcome"]


@dataclass
class Outcome:
    """What a task should do next: ``enqueue`` lists (work name, id, countdown seconds)."""

    result: str
    detail: str = ""
    enqueue: list[tuple[str, int, float]] = field(default_factory=list)
