"""The dashboards' numbers: one aggregate query per chart, shaped for 100,000 articles.

Days are the server's (settings.TIME_ZONE): bounds on the stored timestamps themselves (so the collected_at
index serves the range) and TruncDate in the current time zone for the grouping. Read-only; nothing here
infers or changes the knowledge base.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from django.db import connection
from django.db.models import Count, Q, QuerySet
from django.db.models.functions import TruncDate
from django.utils import timezone

from classifier.features import describe
from classifier.filtering import (
    CORRECTION,
    DUPLICATE,
    FAILED,
    REVIEWED,
    STATES,
    SUGGESTED,
    UNREVIEWED,
    day_start,
    filter_state,
)
from classifier.models import Classification, Rule
from monitor.models import Article

DAYS = 30
#: Series a chart over time draws one line each; the rest are summed as "other" (a line per site of 1,000 sites
#: would be unreadable).
TOP_SERIES = 8
OTHER = "other"
#: Rules the per-rule chart draws (those with the most decisions); the CSV has every rule.
TOP_RULES = 30
#: Rules each of the best and worst tables lists.
RULE_TABLE = 10
#: Rules with decided suggestions the best and worst tables need: with one, it would be both or an arbitrary one
RULE_TABLES_MIN = 2


@dataclass
class Series:
    label: str
    values: list[int]


@dataclass
class Chart:
    """A chart's data: the x values (ISO days, or category labels) and one series of counts per line or bar."""

    key: str
    x_label: str
    x: list[str]
    series: list[Series]
    by_day: bool = True
    links: list[str] = field(default_factory=list)  # per x value, where a bar leads (categories only)

    def table(self) -> list[list[str | int]]:
        """Header row, then one row per x value: what the CSV download holds."""
        rows: list[list[str | int]] = [[self.x_label, *(s.label for s in self.series)]]
        for i, x in enumerate(self.x):
            rows.append([x, *(s.values[i] for s in self.series)])
        return rows

    def as_json(self) -> dict:
        """What the page's script draws (rendered with json_script: data, never markup)."""
        return {
            "byDay": self.by_day,
            "xLabel": self.x_label,
            "x": self.x,
            "series": [{"label": s.label, "values": s.values} for s in self.series],
        }

    @property
    def empty(self) -> bool:
        return not any(any(s.values) for s in self.series)


def window(today: date | None = None, days: int = DAYS) -> list[date]:
    """The last ``days`` days, today included, in the server's time zone."""
    today = today or timezone.localdate()
    return [today - timedelta(days=days - 1 - i) for i in range(days)]


def _over_time(key: str, x_label: str, days: list[date], counts: dict[str, dict[date, int]], top: int) -> Chart:
    """One series per key of ``counts`` (the ``top`` biggest over the window, the rest summed as "other")."""
    ranked = sorted(counts, key=lambda name: (-sum(counts[name].values()), name))
    kept, rest = ranked[:top], ranked[top:]
    series = [Series(name, [counts[name].get(day, 0) for day in days]) for name in kept]
    if rest:
        series.append(Series(OTHER, [sum(counts[name].get(day, 0) for name in rest) for day in days]))
    return Chart(key, x_label, [day.isoformat() for day in days], series)


def _span(days: list[date]) -> tuple:
    return day_start(days[0]), day_start(days[-1] + timedelta(days=1))


def articles_per_site(today: date | None = None, top: int = TOP_SERIES) -> Chart:
    """Articles collected per site per day (every article WebMon stored: failed and duplicates included)."""
    days = window(today)
    start, end = _span(days)
    rows = (
        Article.objects.filter(collected_at__gte=start, collected_at__lt=end)
        .annotate(day=TruncDate("collected_at"))
        .values("day", "site__name")
        .annotate(n=Count("id"))
        .order_by()
    )
    counts: dict[str, dict[date, int]] = defaultdict(dict)
    for row in rows:
        counts[row["site__name"]][row["day"]] = row["n"]
    return _over_time("sites", "day", days, counts, top)


def accepted_per_folder(today: date | None = None, top: int = TOP_SERIES) -> Chart:
    """Articles accepted into each folder per day, by the day of the decision (the folder itself, not its
    subtree: an article accepted into Health/Diabetes counts for that folder only)."""
    days = window(today)
    start, end = _span(days)
    rows = (
        Classification.objects.filter(state=Classification.State.ACCEPTED, decided_at__gte=start, decided_at__lt=end)
        .annotate(day=TruncDate("decided_at"))
        .values("day", "folder__path")
        .annotate(n=Count("id"))
        .order_by()
    )
    counts: dict[str, dict[date, int]] = defaultdict(dict)
    for row in rows:
        counts[row["folder__path"]][row["day"]] = row["n"]
    return _over_time("folders", "day", days, counts, top)


BACKLOG_STATES = (UNREVIEWED, SUGGESTED, CORRECTION, REVIEWED, FAILED, DUPLICATE)


def counts(**querysets: QuerySet) -> dict[str, int]:
    """COUNT(*) of each queryset, as scalar subqueries of one statement: each can be an index-only scan (a GROUP
    BY over the articles reads the whole table: 209 ms against 16 ms, median, for 100,000 articles on PostgreSQL)."""
    parts: list[str] = []
    params: list[Any] = []
    for qs in querysets.values():
        sql, qs_params = qs.order_by().values("pk").query.sql_with_params()
        parts.append(f"(SELECT COUNT(*) FROM ({sql}) counted)")  # noqa: S608 - the ORM's SQL, its parameters apart
        params.extend(qs_params)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {', '.join(parts)}", params)  # noqa: S608
        row = cursor.fetchone()
    return dict(zip(querysets, row, strict=True))


def backlog() -> Chart:
    """Articles in each review state now, as the inbox's state filter counts them
    (classifier.filtering.filter_state, on the inbox's articles: the pages processing kept out are none of them):
    failed and duplicate by the article's work state, the others by its review state, an unreviewed one only once
    processed. The counts themselves are the inbox's filters, so that a bar and the inbox it links to agree (a live
    trial read "Unreviewed 31" beside an inbox of 29: its two pages kept out were counted).

    One statement, each count a scalar subquery on an index (article_review_idx, article_work_idx).

    Now only: the review state's history is not stored (an article goes back to "suggestions pending" when a
    later rule suggests another folder), so a past backlog cannot be derived from the rows as they are.
    """
    articles = Article.objects.exclude(state=Article.State.NOT_ARTICLE)
    totals = counts(**{state: filter_state(articles, state) for state in BACKLOG_STATES})
    return Chart(
        "backlog",
        "state",
        [STATES[state] for state in BACKLOG_STATES],
        [Series("articles", [totals[state] for state in BACKLOG_STATES])],
        by_day=False,
    )


@dataclass
class RuleRow:
    id: int
    folder: str
    conditions: list[str]
    absent: list[str]
    accepted: int
    rejected: int
    suggested: int

    @property
    def decided(self) -> int:
        return self.accepted + self.rejected

    @property
    def precision(self) -> float | None:
        """Share of the rule's decided suggestions that experts accepted (None before any decision)."""
        return self.accepted / self.decided if self.decided else None

    @property
    def text(self) -> str:
        """As the rule pages write it (classifier.features.describe): ``title has "measles" & not x → Health``."""
        words = [*map(describe, self.conditions), *(f"not {describe(w)}" for w in self.absent)]
        return f"{' & '.join(words) or '(always)'} → {self.folder}"


@dataclass
class RuleStats:
    rows: list[RuleRow]  # every rule that concludes a folder, by id

    @property
    def fired(self) -> list[RuleRow]:
        return [r for r in self.rows if r.accepted or r.rejected or r.suggested]

    @property
    def never_fired(self) -> list[RuleRow]:
        return [r for r in self.rows if not (r.accepted or r.rejected or r.suggested)]

    @property
    def ranked(self) -> list[RuleRow]:
        """Rules with decisions, best first: highest share accepted, then most decisions, then oldest."""
        decided = [r for r in self.rows if r.decided]
        return sorted(decided, key=lambda r: (-(r.precision or 0.0), -r.decided, r.id))

    @property
    def comparable(self) -> bool:
        """Whether there are rules enough to call some best and others worst (:data:`RULE_TABLES_MIN`)."""
        return len(self.ranked) >= RULE_TABLES_MIN

    @property
    def best(self) -> list[RuleRow]:
        """The upper half of :attr:`ranked` (at most :data:`RULE_TABLE`), so that no rule is both best and worst
        (a live trial's two rules were each listed in both tables); none when not :attr:`comparable`."""
        ranked = self.ranked
        return ranked[: min(RULE_TABLE, len(ranked) // 2)] if self.comparable else []

    @property
    def worst(self) -> list[RuleRow]:
        """Rules with a rejected suggestion and not among :attr:`best`, worst first: highest share rejected, then
        most rejected; none when not :attr:`comparable`."""
        best = {r.id for r in self.best}
        bad = [r for r in self.rows if r.rejected and r.id not in best] if self.comparable else []
        return sorted(bad, key=lambda r: (r.precision or 0.0, -r.rejected, r.id))[:RULE_TABLE]

    def chart(self, top: int = TOP_RULES) -> Chart:
        """Accepted and rejected suggestions of the ``top`` rules with the most decisions, best first."""
        busiest = {r.id for r in sorted(self.ranked, key=lambda r: (-r.decided, r.id))[:top]}
        shown = [r for r in self.ranked if r.id in busiest]
        return Chart(
            "rules",
            "rule",
            [f"rule {r.id}" for r in shown],
            [Series("accepted", [r.accepted for r in shown]), Series("rejected", [r.rejected for r in shown])],
            by_day=False,
        )

    def table(self) -> list[list[str | int]]:
        """The CSV: every rule that concludes a folder (never fired: all zero)."""
        rows: list[list[str | int]] = [["rule", "folder", "conditions", "accepted", "rejected", "suggested"]]
        for r in self.rows:
            rows.append([r.id, r.folder, r.text, r.accepted, r.rejected, r.suggested])
        return rows


def rule_stats() -> RuleStats:
    """Per rule that concludes a folder: its classification rows by state, in one grouped LEFT JOIN.

    A stopping rule concludes nothing and so has no rows; it is left out rather than listed as never firing.
    A row points at the last rule of its path (services keep Classification.rule so), so a rule refined
    on every case it fires on shows as never firing: its refinements took over.
    """
    state = "classifications__state"
    rows = (
        Rule.objects.filter(folder__isnull=False)
        .values("id", "folder__path", "conditions", "absent")
        .annotate(
            accepted=Count("classifications", filter=Q(**{state: Classification.State.ACCEPTED})),
            rejected=Count("classifications", filter=Q(**{state: Classification.State.REJECTED})),
            suggested=Count("classifications", filter=Q(**{state: Classification.State.SUGGESTED})),
        )
        .order_by("id")
    )
    return RuleStats(
        [
            RuleRow(
                r["id"],
                r["folder__path"],
                list(r["conditions"] or []),
                list(r["absent"] or []),
                r["accepted"],
                r["rejected"],
                r["suggested"],
            )
            for r in rows
        ]
    )
