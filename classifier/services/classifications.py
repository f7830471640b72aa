"""Stored classifications: how the knowledge base's conclusions become classification rows, and the review
state the rows give each article.

Classification policy (what re-inference may change):

* ``suggested`` rows belong to the knowledge base: they are created, re-pointed to the concluding rule
  and deleted as inference changes.
* ``accepted`` and ``rejected`` rows are experts' decisions: re-inference never changes or deletes
  them. Where the knowledge base now disagrees (an accepted folder no longer concluded, a rejected
  folder concluded again) the disagreement is counted and listed in the audit entry as a *conflict*
  so that the workspace can show it; an expert resolves it with accept/reject or a new rule.
* The one exception is the case a rule is committed for: that commit *is* the expert's decision on
  it, so its target folder becomes ``accepted`` and the corrected (wrong) folder ``rejected`` by the
  committing expert; undo restores both rows as they were (:mod:`classifier.services.rules`).
* Likewise each cornerstone case whose change the committing expert accepted (``commit_rule``'s
  ``accepted_cornerstones``): the folders the rule gives it become ``accepted``, those it takes away
  ``rejected``, in the same transaction; it is then a cornerstone case of the new rule too
  (``RuleCornerstone``), and later validations compare it with those decisions, not only with the
  rules' conclusions (:func:`classifier.services.validation.validate_rule`).

This module owns the writing side of that policy (:func:`sync_classifications`, :func:`add_ground_breaking`),
the stored cases a rule can reach through the keyword index (:func:`cases_holding`, :func:`cases_reached`,
:func:`reclassified`), a case's rows before a decision (:func:`decision_rows`, for undo) and the articles'
review states (:func:`refresh_review_states`), which every writer of rows calls.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.db.models import QuerySet
from django.utils import timezone

from classifier.engine import RuleTree
from classifier.models import Case, Classification, Correction, ReviewState
from classifier.services.shared import CHUNK, chunks, folder_map
from monitor.models import Article

_REFRESH_SQL = """
    UPDATE {article} SET review_state = fresh.review_state
    FROM (
        SELECT c.article_id,
               CASE WHEN EXISTS (SELECT 1 FROM {classification} r WHERE r.case_id = c.id AND r.state = %s) THEN %s
                    WHEN EXISTS (SELECT 1 FROM {correction} k WHERE k.case_id = c.id AND k.state = %s) THEN %s
                    WHEN c.no_folder_at IS NOT NULL
                         OR EXISTS (SELECT 1 FROM {classification} r WHERE r.case_id = c.id) THEN %s
                    ELSE %s END AS review_state
        FROM {case} c
        WHERE c.id {ids} AND c.article_id IS NOT NULL
    ) AS fresh
    WHERE {article}.id = fresh.article_id AND {article}.review_state <> fresh.review_state
"""


# A case that holds a suggested row is "suggested" whatever its other rows and corrections say (the first branch
# of the rule above): the articles of cases that just gained one are set so without reading any row.
_SUGGESTED_SQL = """
    UPDATE {article} SET review_state = %s
    WHERE {article}.id IN (SELECT c.article_id FROM {case} c WHERE c.id {ids}) AND {article}.review_state <> %s
"""


def _tables() -> dict[str, str]:
    quote = connection.ops.quote_name
    return {
        "article": quote(Article._meta.db_table),
        "case": quote(Case._meta.db_table),
        "classification": quote(Classification._meta.db_table),
        "correction": quote(Correction._meta.db_table),
    }


def _update_articles(sql: str, case_ids: Iterable[int], before: Sequence[Any], after: Sequence[Any] = ()) -> int:
    """Run one of the review-state statements for these cases (``before``/``after``: the parameters around the
    ids); how many articles changed. PostgreSQL: one statement with an array parameter, however many cases (a
    commit can touch 20,000; chunks of IN lists cost a planning each, 3x slower in bench-kb); SQLite: IN lists
    in chunks."""
    ids = sorted(set(case_ids))
    if not ids:
        return 0
    statements: list[tuple[str, list[Any]]]
    if connection.vendor == "postgresql":
        statements = [(sql.format(ids="= ANY(%s)", **_tables()), [*before, ids, *after])]
    else:
        statements = [
            (sql.format(ids=f"IN ({', '.join(['%s'] * len(chunk))})", **_tables()), [*before, *chunk, *after])
            for chunk in chunks(ids)
        ]
    changed = 0
    with connection.cursor() as cursor:
        for statement, params in statements:
            cursor.execute(statement, params)  # noqa: S608 - table names and placeholders only
            changed += cursor.rowcount
    return changed


def refresh_review_states(case_ids: Iterable[int]) -> int:
    """Recompute Article.review_state for the articles of these cases; returns how many changed.

    Every writer of classification rows calls this in its own transaction, after its writes, with the
    cases whose rows it created, deleted or changed the state of: the stored state can then never
    drift from the rows (tests/classifier/test_review_state.py walks every writer). One UPDATE ... FROM
    per chunk: the cases by primary key, EXISTS probes on the case indexes (each stops at its first row):
    a suggestion pending, a rejection waiting for its rule (Correction), any row; only the articles whose
    state really changes are written. (The migration that added the column filled it by the rule of then:
    monitor/migrations/0003_article_review_state.py; there were no corrections yet.)
    """
    states = [
        Classification.State.SUGGESTED,
        ReviewState.SUGGESTED,
        Correction.State.PENDING,
        ReviewState.CORRECTION,
        ReviewState.REVIEWED,
        ReviewState.UNREVIEWED,
    ]
    return _update_articles(_REFRESH_SQL, case_ids, states)


def mark_suggested(case_ids: Iterable[int]) -> int:
    """The review state of the articles of cases that were just given a suggested row: "suggested", as
    :func:`refresh_review_states` would compute it, without reading their rows; how many changed."""
    return _update_articles(_SUGGESTED_SQL, case_ids, [ReviewState.SUGGESTED], [ReviewState.SUGGESTED])


@dataclass
class SyncResult:
    """What re-inference changed in the stored classifications."""

    cases: int = 0
    created: int = 0
    repointed: int = 0
    removed: int = 0
    conflicts: list[dict] = field(default_factory=list)

    def as_details(self) -> dict:
        return {
            "cases": self.cases,
            "created": self.created,
            "repointed": self.repointed,
            "removed": self.removed,
            "conflicts": self.conflicts[:100],
            "conflict_count": len(self.conflicts),
        }


def sync_classifications(
    desired: dict[int, dict[int, int]], *, new_cases: bool = False, refresh: bool = True
) -> SyncResult:
    """Make the stored suggestions of the given cases equal to ``desired`` (case -> folder -> rule).

    Accepted and rejected rows are left as they are (see the module docstring); disagreements are
    returned as conflicts. ``new_cases``: the cases were just inserted, so they have no rows to read.
    ``refresh=False`` (new cases only): the caller sets the articles' review states itself (a new case with
    suggestions is pending, one without is unreviewed, the article's default).
    """
    result = SyncResult(cases=len(desired))
    if not desired:
        return result
    now = timezone.now()
    create: list[Classification] = []
    delete_ids: list[int] = []
    repoint: dict[int, list[int]] = {}
    gained: set[int] = set()  # cases given a suggested row: "suggested" whatever else they hold
    touched: set[int] = set()  # cases whose rows are deleted (re-pointing keeps the state)
    for ids in chunks(sorted(desired)):
        existing: dict[int, dict[int, tuple[int, str, int | None]]] = {}
        stored = Classification.objects.filter(case_id__in=ids).values_list(
            "id", "case_id", "folder_id", "state", "rule_id"
        )
        for pk, case_id, folder_id, state, rule_id in () if new_cases else stored:
            existing.setdefault(case_id, {})[folder_id] = (pk, state, rule_id)
        for case_id in ids:
            want = desired[case_id]
            have = existing.get(case_id, {})
            for folder_id, rule_id in want.items():
                row = have.get(folder_id)
                if row is None:
                    create.append(Classification(case_id=case_id, folder_id=folder_id, rule_id=rule_id))
                    gained.add(case_id)
                elif row[1] == Classification.State.SUGGESTED:
                    if row[2] != rule_id:
                        repoint.setdefault(rule_id, []).append(row[0])
                elif row[1] == Classification.State.REJECTED:
                    result.conflicts.append({"case": case_id, "folder": folder_id, "state": row[1]})
            for folder_id, (pk, state, _rule_id) in have.items():
                if folder_id in want:
                    continue
                if state == Classification.State.SUGGESTED:
                    delete_ids.append(pk)
                    touched.add(case_id)
                elif state == Classification.State.ACCEPTED:
                    result.conflicts.append({"case": case_id, "folder": folder_id, "state": state})
    for ids in chunks(delete_ids):
        Classification.objects.filter(id__in=ids).delete()
    for rule_id, pks in repoint.items():
        for ids in chunks(pks):
            Classification.objects.filter(id__in=ids).update(rule_id=rule_id, updated_at=now)
    for new in create:
        new.updated_at = now
    Classification.objects.bulk_create(create, batch_size=1000)
    if refresh:
        mark_suggested(gained)
        refresh_review_states(touched - gained)
    result.created = len(create)
    result.removed = len(delete_ids)
    result.repointed = sum(len(p) for p in repoint.values())
    return result


def cases_holding(conditions: frozenset[str], absent: frozenset[str] = frozenset()) -> Iterator[tuple[int, frozenset]]:
    """(case id, keywords) of the stored cases holding every condition keyword and no absent one.

    Uses the CaseKeyword inverted index: one join per condition keyword on its (keyword, case) index,
    so only the cases that can satisfy the rule are read. No conditions means every case.
    """
    for pk, words in _holding(conditions).order_by().values_list("id", "keywords").iterator(chunk_size=CHUNK):
        words = frozenset(words)
        if absent.isdisjoint(words):
            yield pk, words


def count_holding(conditions: Iterable[str], other_than: int | None = None) -> int:
    """How many stored cases (but ``other_than``) hold every condition keyword: :func:`cases_holding`'s
    index joins, counted by the database without reading a case."""
    qs = _holding(frozenset(conditions))
    return (qs.exclude(pk=other_than) if other_than is not None else qs).count()


def _holding(conditions: frozenset[str]) -> QuerySet[Case]:
    """The stored cases holding every condition keyword, one join on the keyword index each."""
    qs = Case.objects.all()
    for word in sorted(conditions):
        qs = qs.filter(index_entries__keyword=word)
    return qs


def reclassified(
    old: RuleTree, new: RuleTree, candidates: Iterable[tuple[int, frozenset]]
) -> dict[int, dict[int, int]]:
    """case id -> new folder map, for the candidates whose folder map differs between the two trees."""
    desired: dict[int, dict[int, int]] = {}
    for case_id, words in candidates:
        after = folder_map(new, words)
        if after != folder_map(old, words):
            desired[case_id] = after
    return desired


def cases_reached(tree: RuleTree, rules: Iterable) -> Iterator[tuple[int, frozenset]]:
    """The stored cases a (new or removed) rule can affect: it fires only where it and every rule above
    it are satisfied, so only cases holding all present-keywords of its path are read (the index join).
    """
    seen: set[int] = set()
    queries = set()
    for rule in rules:
        conditions, absent = set(rule.conditions), set(rule.absent)
        parent = rule.parent_id
        while parent is not None:
            above = tree.get(parent)
            conditions |= above.conditions
            absent |= above.absent
            parent = above.parent_id
        queries.add((frozenset(conditions), frozenset(absent)))
    for present, missing in sorted(queries, key=lambda q: (sorted(q[0]), sorted(q[1]))):
        for pk, words in cases_holding(present, missing):
            if pk not in seen:
                seen.add(pk)
                yield pk, words


def _ids_holding(conditions: frozenset[str], absent: frozenset[str]):
    """A queryset of the ids of the cases holding all ``conditions`` and none of ``absent`` (index only)."""
    qs = Case.objects.all()
    for word in sorted(conditions):
        qs = qs.filter(index_entries__keyword=word)
    for word in sorted(absent):
        qs = qs.exclude(index_entries__keyword=word)
    return qs.order_by().values("id")


def add_ground_breaking(rule, now) -> SyncResult:
    """Suggestions for a new ground-breaking rule, in one INSERT ... SELECT over the keyword index.

    Such a rule fires on every case satisfying it, and an earlier rule concluding the same folder stays
    first (lower ids sort first on rule paths), so the only change is: the rule's folder becomes
    suggested for each candidate with no row for it yet. Rows that exist stay (a rejected one is a conflict).
    No inference is needed, which keeps commits over many stored cases fast.
    """
    candidates = _ids_holding(rule.conditions, rule.absent)
    result = SyncResult()
    result.conflicts = [
        {"case": pk, "folder": rule.folder, "state": Classification.State.REJECTED}
        for pk in Classification.objects.filter(
            folder_id=rule.folder, state=Classification.State.REJECTED, case_id__in=candidates
        ).values_list("case_id", flat=True)
    ]
    select, params = candidates.exclude(classifications__folder_id=rule.folder).query.sql_with_params()
    table = Classification._meta.db_table
    stamp = Classification._meta.get_field("updated_at").get_db_prep_value(now, connection)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (case_id, folder_id, rule_id, state, updated_at) "  # noqa: S608 - no user input
            f"SELECT candidate.id, %s, %s, %s, %s FROM ({select}) AS candidate RETURNING case_id",
            [rule.folder, rule.id, Classification.State.SUGGESTED, stamp, *params],
        )
        created = [case_id for (case_id,) in cursor.fetchall()]
    result.created = result.cases = len(created)
    mark_suggested(created)
    return result


def decision_rows(case_id: int, folder_ids: Iterable[int | None]) -> list[dict]:
    """The current state of the case's rows for these folders (for undo)."""
    rows = []
    for folder_id in sorted(f for f in set(folder_ids) if f is not None):
        found = (
            Classification.objects.filter(case_id=case_id, folder_id=folder_id)
            .values("state", "rule_id", "decided_by_id", "decided_at")
            .first()
        )
        row: dict[str, Any] | None = dict(found) if found is not None else None
        if row is not None and row["decided_at"] is not None:
            row["decided_at"] = row["decided_at"].isoformat()  # JSON for the audit entry
        rows.append({"folder": folder_id, "row": row})
    return rows
