"""A demo site's state: its publication timeline (pool articles, then follow-ups, one per interval, kept across
restarts), the faults switched on for it and its request log."""

from __future__ import annotations

import math
import threading
from collections import Counter, deque
from collections.abc import Callable
from datetime import UTC, datetime

from .articles import Article
from .editions import edition
from .faults import FaultSwitch
from .sites import SiteSpec

BACKDATE_SECONDS = 3 * 3600  # spacing of the articles that are already published at start
REQUEST_LOG_MAX = 5000  # per site; the benchmark makes many requests


def timestamp(t: float) -> datetime:
    return datetime.fromtimestamp(int(t), UTC)


class SiteState:
    """Publication timeline, fault switches and request log of one site (thread-safe).

    The timeline never runs out: after the last pool article the pool starts again as new editions (new
    slug, title and text, see :func:`edition`), so a site keeps publishing for as long as it runs.
    ``on_change`` is called (outside the lock) after every publication, to persist the timeline.
    """

    def __init__(
        self,
        spec: SiteSpec,
        interval: float | None,
        start_published: int,
        clock: Callable[[], float],
        on_change: Callable[[], None] | None = None,
    ):
        self.spec = spec
        self.interval = interval if interval and interval > 0 else None
        self.start_published = max(0, start_published)
        self.clock = clock
        self.on_change: Callable[[], None] | None = None
        self.lock = threading.Lock()
        self._editions: dict[int, Article] = {}
        self.reset()
        self.on_change = on_change  # after the first reset: a saved timeline is read before it is written

    def reset(self) -> None:
        with self.lock:
            now = self.clock()
            n0 = self.start_published
            # times[i] is when article_at(i) was published; the first n0 are back-dated.
            self.times: list[float] = [now - (n0 - i) * BACKDATE_SECONDS for i in range(n0)]
            self.next_tick = now + self.interval if self.interval else math.inf
            self.faults: list[FaultSwitch] = []
            self.log: deque[dict] = deque(maxlen=REQUEST_LOG_MAX)
            self.counts: Counter[str] = Counter()
        self._changed()

    def timeline(self) -> dict:
        """The persistent part of the state: publication times and the next scheduled publication."""
        with self.lock:
            return {"times": list(self.times), "next_tick": None if self.next_tick == math.inf else self.next_tick}

    def restore(self, saved: dict) -> None:
        """Continue a saved timeline; publications scheduled while the server was down happen at their times."""
        with self.lock:
            self.times = [float(t) for t in saved["times"]]
            tick = saved.get("next_tick")
            self.next_tick = float(tick) if tick is not None and self.interval else math.inf
            if self.interval and self.next_tick == math.inf:
                self.next_tick = self.clock() + self.interval
        self.published()

    def article_at(self, index: int) -> Article:
        pool = self.spec.articles
        if index < len(pool):
            return pool[index]
        if index not in self._editions:
            when = timestamp(self.times[index]) if index < len(self.times) else None
            # the followed story is the pool's article, first published in the first lap
            since = timestamp(self.times[index % len(pool)]) if when is not None else None
            self._editions[index] = edition(pool[index % len(pool)], index // len(pool), when, since)
        return self._editions[index]

    def _catch_up(self, now: float) -> bool:
        appended = False
        while self.next_tick <= now and self.spec.articles:
            self._append(self.next_tick)
            self.next_tick += self.interval or math.inf
            appended = True
        return appended

    def _append(self, when: float) -> None:
        # Publication dates are whole seconds in pages and feeds; keep them strictly increasing so that
        # "newest first" is unambiguous even when articles are published in quick succession.
        self.times.append(max(when, self.times[-1] + 1) if self.times else when)

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()

    def published(self) -> tuple[tuple[Article, datetime], ...]:
        """Published articles, newest first."""
        with self.lock:
            appended = self._catch_up(self.clock())
            result = tuple((self.article_at(i), timestamp(t)) for i, t in reversed(list(enumerate(self.times))))
        if appended:
            self._changed()
        return result

    def publish_next(self) -> Article | None:
        """Publish the next article now (``None`` only for a site without articles)."""
        with self.lock:
            if not self.spec.articles:
                return None
            self._catch_up(self.clock())
            self._append(self.clock())
            article = self.article_at(len(self.times) - 1)
        self._changed()
        return article

    def next_publication(self) -> float | None:
        with self.lock:
            self._catch_up(self.clock())
            if not self.spec.articles or self.next_tick == math.inf:
                return None
            return self.next_tick

    def take_fault(self, path: str) -> FaultSwitch | None:
        with self.lock:
            for switch in self.faults:
                if path.startswith(switch.path_prefix) and (switch.remaining is None or switch.remaining > 0):
                    if switch.remaining is not None:
                        switch.remaining -= 1
                    return switch
            return None

    def record(self, entry: dict) -> None:
        with self.lock:
            self.counts[entry["path"]] += 1
            self.log.append(entry)


# ----------------------------------------------------------------------------------------------------
# The application
# ----------------------------------------------------------------------------------------------------
