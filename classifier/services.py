"""Knowledge-base use cases: one function per use case, each in one transaction, each change audited.

Views, tasks and commands call these functions; the MCRDR logic itself lives in the pure engine
(classifier/engine.py, acquisition.py) and the loaded rule tree comes from classifier/kb.py.

Classification policy (what re-inference may change):

* ``suggested`` rows belong to the knowledge base: they are created, re-pointed to the concluding rule
  and deleted as inference changes.
* ``accepted`` and ``rejected`` rows are experts' decisions: re-inference never changes or deletes
  them. Where the knowledge base now disagrees (an accepted folder no longer concluded, a rejected
  folder concluded again) the disagreement is counted and listed in the audit entry as a *conflict*
  so that the workspace can show it; an expert resolves it with accept/reject or a new rule.
* The one exception is the case a rule is committed for: that commit *is* the expert's decision on
  it, so its target folder becomes ``accepted`` and the corrected (wrong) folder ``rejected`` by the
  committing expert; undo restores both rows as they were.
* Likewise each cornerstone case whose change the committing expert accepted (``commit_rule``'s
  ``accepted_cornerstones``): the folders the rule gives it become ``accepted``, those it takes away
  ``rejected``, in the same transaction; it is then a cornerstone case of the new rule too
  (``RuleCornerstone``), and later validations compare it with those decisions, not only with the
  rules' conclusions (:func:`validate_rule`).
"""

from __future__ import annotations

import collections
import functools
import logging
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.models import Count, Q
from django.utils import timezone

from classifier import kb
from classifier.acquisition import (
    RankedDifferences,
    RuleProposal,
    changed_cases,
    proposal_for,
    ranked_difference_lists,
    rule_kind,
)
from classifier.acquisition import apply as apply_proposal
from classifier.acquisition import difference_list as engine_difference_list
from classifier.engine import Conclusion, RuleTree, keyword_set
from classifier.features import FeatureSettings, case_features, kind_of
from classifier.kinds import RuleKind
from classifier.models import (
    ArticleRead,
    AuditEntry,
    Case,
    CaseKeyword,
    Classification,
    Correction,
    Folder,
    KnowledgeBase,
    ReviewState,
    Rule,
    RuleCornerstone,
    validate_folder_name,
)
from filters.stopwords import get_stop_words
from monitor.models import Article
from wims import roles

log = logging.getLogger(__name__)

CHUNK = 2000  # ids per IN (...) query; well below SQLite's variable limit


# --------------------------------------------------------------------------- small helpers
def _folder_id(folder: Folder | int | None) -> int | None:
    if folder is None:
        return None
    if isinstance(folder, Folder):
        return folder.pk
    if isinstance(folder, bool) or not isinstance(folder, int):
        raise ValidationError(f"a folder must be a Folder or a folder id, not {folder!r}")
    return folder


def _case_id(case: Case | int) -> int:
    return case.pk if isinstance(case, Case) else int(case)


def _actor(user):
    """The user to store in a foreign key (None for anonymous / system changes)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return user


def _audit(user, action: str, **details) -> AuditEntry:
    return AuditEntry.objects.create(actor=_actor(user), action=action, details=details)


def _keyword_set(words: Iterable[str], what: str) -> frozenset[str]:
    """engine.keyword_set, its errors as ValidationError (for views and forms)."""
    try:
        return keyword_set(words, what)
    except (TypeError, ValueError) as exc:
        raise ValidationError(str(exc)) from exc


def clean_keywords(tokens: Iterable[str]) -> list[str]:
    """A case's keywords from filter tokens: engine.keyword_set of them, sorted, blank tokens dropped.

    Tokens longer than the index column (CaseKeyword.MAX_LENGTH, e.g. a stray URL) are left out: a keyword
    that cannot be indexed could never be found by re-inference, so it must not be a rule condition either.
    """
    if isinstance(tokens, str):
        raise ValidationError("tokens must be a list of keywords, not a single string")
    indexable = (t for t in tokens if not isinstance(t, str) or 0 < len(t.strip()) <= CaseKeyword.MAX_LENGTH)
    return sorted(_keyword_set(indexable, "tokens"))


def case_keywords(article, tokens: Sequence[str], settings: FeatureSettings) -> list[str]:
    """The keywords of an article's case: its tokens, and the phrases and title/site/URL words the knowledge
    base's feature settings ask for (classifier.features)."""
    url = getattr(article, "canonical_url", "") or getattr(article, "url", "") or ""
    title = getattr(article, "title", "") or ""
    return clean_keywords(
        case_features(tokens, title=title, url=url, settings=settings, stop_words=get_stop_words("en"))
    )


def _chunks(items: list, size: int = CHUNK) -> Iterator[list]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _folder_map(tree: RuleTree, keywords: frozenset[str]) -> dict[int, int]:
    """folder id -> the rule that concludes it (the first conclusion by rule path)."""
    result: dict[int, int] = {}
    for conclusion in tree.infer(keywords):
        result.setdefault(conclusion.folder, conclusion.rule_id)
    return result


def _is_cornerstone(case_id: int) -> bool:
    return Case.objects.filter(kb.cornerstone_q(), pk=case_id).exists()


# --------------------------------------------------------------------------- review state
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
    quote = connection.ops.quote_name
    tables = {
        "article": quote(Article._meta.db_table),
        "case": quote(Case._meta.db_table),
        "classification": quote(Classification._meta.db_table),
        "correction": quote(Correction._meta.db_table),
    }
    states = [
        Classification.State.SUGGESTED,
        ReviewState.PENDING,
        Correction.State.PENDING,
        ReviewState.CORRECTION,
        ReviewState.CLASSIFIED,
        ReviewState.UNREVIEWED,
    ]
    ids = sorted(set(case_ids))
    if not ids:
        return 0
    # PostgreSQL: one statement with an array parameter, however many cases (a commit can touch 20,000;
    # chunks of IN lists cost a planning each, 3x slower in bench-kb); SQLite: IN lists in chunks
    statements: list[tuple[str, list[Any]]]
    if connection.vendor == "postgresql":
        statements = [(_REFRESH_SQL.format(ids="= ANY(%s)", **tables), [*states, ids])]
    else:
        statements = [
            (_REFRESH_SQL.format(ids=f"IN ({', '.join(['%s'] * len(chunk))})", **tables), [*states, *chunk])
            for chunk in _chunks(ids)
        ]
    changed = 0
    with connection.cursor() as cursor:
        for sql, params in statements:
            cursor.execute(sql, params)  # noqa: S608 - table names and placeholders only
            changed += cursor.rowcount
    return changed


# --------------------------------------------------------------------------- classification sync
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


def _sync_classifications(desired: dict[int, dict[int, int]], *, new_cases: bool = False) -> SyncResult:
    """Make the stored suggestions of the given cases equal to ``desired`` (case -> folder -> rule).

    Accepted and rejected rows are left as they are (see the module docstring); disagreements are
    returned as conflicts. ``new_cases``: the cases were just inserted, so they have no rows to read.
    """
    result = SyncResult(cases=len(desired))
    if not desired:
        return result
    now = timezone.now()
    create: list[Classification] = []
    delete_ids: list[int] = []
    repoint: dict[int, list[int]] = {}
    touched: set[int] = set()  # cases whose rows are created or deleted (re-pointing keeps the state)
    for ids in _chunks(sorted(desired)):
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
                    touched.add(case_id)
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
    for ids in _chunks(delete_ids):
        Classification.objects.filter(id__in=ids).delete()
    for rule_id, pks in repoint.items():
        for ids in _chunks(pks):
            Classification.objects.filter(id__in=ids).update(rule_id=rule_id, updated_at=now)
    for new in create:
        new.updated_at = now
    Classification.objects.bulk_create(create, batch_size=1000)
    refresh_review_states(touched)
    result.created = len(create)
    result.removed = len(delete_ids)
    result.repointed = sum(len(p) for p in repoint.values())
    return result


def _candidates(conditions: frozenset[str], absent: frozenset[str] = frozenset()) -> Iterator[tuple[int, frozenset]]:
    """(case id, keywords) of the stored cases holding every condition keyword and no absent one.

    Uses the CaseKeyword inverted index: one join per condition keyword on its (keyword, case) index,
    so only the cases that can satisfy the rule are read. No conditions means every case.
    """
    qs = Case.objects.all()
    for word in sorted(conditions):
        qs = qs.filter(index_entries__keyword=word)
    for pk, words in qs.order_by().values_list("id", "keywords").iterator(chunk_size=CHUNK):
        words = frozenset(words)
        if absent.isdisjoint(words):
            yield pk, words


def _changed(old: RuleTree, new: RuleTree, candidates: Iterable[tuple[int, frozenset]]) -> dict[int, dict[int, int]]:
    """case id -> new folder map, for the candidates whose folder map differs between the two trees."""
    desired: dict[int, dict[int, int]] = {}
    for case_id, words in candidates:
        after = _folder_map(new, words)
        if after != _folder_map(old, words):
            desired[case_id] = after
    return desired


def _path_candidates(tree: RuleTree, rules: Iterable) -> Iterator[tuple[int, frozenset]]:
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
        for pk, words in _candidates(present, missing):
            if pk not in seen:
                seen.add(pk)
                yield pk, words


def _candidate_ids(conditions: frozenset[str], absent: frozenset[str]):
    """A queryset of the ids of the cases holding all ``conditions`` and none of ``absent`` (index only)."""
    qs = Case.objects.all()
    for word in sorted(conditions):
        qs = qs.filter(index_entries__keyword=word)
    for word in sorted(absent):
        qs = qs.exclude(index_entries__keyword=word)
    return qs.order_by().values("id")


def _add_ground_breaking(rule, now) -> SyncResult:
    """Suggestions for a new ground-breaking rule, in one INSERT ... SELECT over the keyword index.

    Such a rule fires on every case satisfying it, and an earlier rule concluding the same folder stays
    first (lower ids sort first on rule paths), so the only change is: the rule's folder becomes
    suggested for each candidate with no row for it yet. Rows that exist stay (a rejected one is a conflict).
    No inference is needed, which keeps commits over many stored cases fast.
    """
    candidates = _candidate_ids(rule.conditions, rule.absent)
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
    refresh_review_states(created)
    return result


# --------------------------------------------------------------------------- cases and inference
@functools.cache
def _case_insert() -> tuple[str, list]:
    """The statement of _insert_case and its fields, in parameter order (built once per process)."""
    concrete = {f.name: f for f in Case._meta.concrete_fields}
    fields = [concrete[name] for name in ("article", "keywords", "source", "created_at")]
    quote = connection.ops.quote_name
    columns = ", ".join(quote(f.column) for f in fields)
    sql = (
        f"INSERT INTO {quote(Case._meta.db_table)} ({columns}) VALUES (%s, %s, %s, %s) "  # noqa: S608 - no user input
        f"ON CONFLICT ({quote(fields[0].column)}) DO NOTHING RETURNING {quote(Case._meta.pk.column)}"
    )
    return sql, fields


def _insert_case(article, words: list[str]) -> int | None:
    """Insert the article's case; its id, or None when the article has one already.

    One statement whatever happens (INSERT ... ON CONFLICT DO NOTHING RETURNING, PostgreSQL and SQLite
    3.35+): a concurrent ingestion of the same article needs no savepoint to recover from.
    """
    sql, fields = _case_insert()
    values = {"article": article.pk, "keywords": words, "source": (getattr(article, "url", "") or "")[:2000]}
    values["created_at"] = timezone.now()
    params = [field.get_db_prep_save(values[field.name], connection) for field in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    return row[0] if row else None


def _index_keywords(case_id: int, words: list[str]) -> None:
    """Add the keyword index rows of a case (one statement, no model instance per keyword)."""
    if not words:
        return
    quote = connection.ops.quote_name
    table = quote(CaseKeyword._meta.db_table)
    columns = f"{quote(CaseKeyword._meta.get_field('case').column)}, {quote('keyword')}"
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            sql = f"INSERT INTO {table} ({columns}) SELECT %s, unnest(%s::varchar[])"  # noqa: S608 - no user input
            cursor.execute(sql, [case_id, words])
        else:
            sql = f"INSERT INTO {table} ({columns}) VALUES (%s, %s)"  # noqa: S608 - no user input
            cursor.executemany(sql, [(case_id, word) for word in words])


@transaction.atomic(savepoint=False)
def ingest_case(article, tokens: Iterable[str]) -> Case:
    """Store (or update) the article's case and keyword index, run inference, store the suggestions.

    Idempotent: calling it again with the same tokens changes nothing. A cornerstone case keeps its
    keywords (rules were validated against them); new tokens for its article are ignored with a warning,
    and the case records when its article's text first changed (``Case.text_changed_at``, cleared when the
    article gives those keywords again), which the workspace shows beside it.
    Inside a caller's transaction it takes no savepoint of its own (processing calls it once per article:
    a new case costs four statements and the suggestions two more).
    """
    if isinstance(tokens, str):  # case_keywords checks each token (clean_keywords); a string is not a list
        raise ValidationError("tokens must be a list of keywords, not a single string")
    tokens = list(tokens)
    snapshot = kb.shared()
    words = case_keywords(article, tokens, snapshot.features)
    case_id = _insert_case(article, words)
    if case_id is not None:  # a new case: nothing indexed or suggested yet
        _index_keywords(case_id, words)
        _sync_classifications({case_id: _folder_map(snapshot.tree, frozenset(words))}, new_cases=True)
        return Case(pk=case_id, article=article, keywords=words, source=(getattr(article, "url", "") or "")[:2000])
    case = Case.objects.get(article=article)
    if case.keywords == words and case.text_changed_at is not None:
        case.text_changed_at = None  # the article gives the validated keywords again
        case.save(update_fields=["text_changed_at"])
    if case.keywords != words:
        if _is_cornerstone(case.pk):
            log.warning("case %s is a cornerstone case; its keywords are kept although the article changed", case.pk)
            if case.text_changed_at is None:
                case.text_changed_at = timezone.now()
                case.save(update_fields=["text_changed_at"])
        else:
            _replace_keywords(case, words)
    _sync_classifications({case.pk: _folder_map(snapshot.tree, frozenset(case.keywords))})
    return case


def _replace_keywords(case: Case, words: list[str]) -> None:
    """Store a case's new keywords and bring its keyword index in line (no re-inference)."""
    old = set(case.keywords)
    case.keywords = words
    case.save(update_fields=["keywords"])
    CaseKeyword.objects.filter(case=case, keyword__in=list(old - set(words))).delete()
    _index_keywords(case.pk, [w for w in words if w not in old])


def infer(case: Case) -> list[Conclusion]:
    """The conclusions the current knowledge base gives the case (folder ids with rule-id paths)."""
    return kb.current().tree.infer(case.keyword_set)


@dataclass(frozen=True)
class Explained:
    """One conclusion for "why is this here": the folder and the rules of its path, root side first.

    ``stopped`` is True for a path that ended in a stopping rule (the folder was withheld).
    """

    folder: Folder
    rules: list[Rule]
    stopped: bool = False


def explain(case: Case, include_stopped: bool = False) -> list[Explained]:
    """The case's conclusions with their rule paths as Rule model instances (optionally stopped paths)."""
    explanation = kb.current().tree.explain(case.keyword_set)
    paths = [(c.folder, c.path, False) for c in explanation.conclusions]
    if include_stopped:
        paths += [(s.folder, s.path, True) for s in explanation.stopped]
    rule_ids = {rid for _, path, _ in paths for rid in path}
    rules = Rule.objects.select_related("folder").in_bulk(rule_ids)
    folders = Folder.objects.in_bulk({folder for folder, _, _ in paths})
    return [Explained(folders[f], [rules[r] for r in path], stopped) for f, path, stopped in paths]


def case_titles(case_ids: Iterable[int]) -> dict[int, str]:
    """case id -> how the workspace names the case: its article's title (else its URL), or for an imported case
    without an article its source; one query. Experts know articles by title, not by case number."""
    rows = Case.objects.filter(pk__in=list(case_ids)).values_list("id", "article__title", "article__url", "source")
    return {pk: title or url or source or f"case {pk}" for pk, title, url, source in rows}


# --------------------------------------------------------------------------- accept / reject
@transaction.atomic
def accept(case: Case, user, folders: Iterable[Folder | int] | None = None) -> list[Classification]:
    """Accept the case's current suggestions (all, or those of the given folders); audited.

    A rejected folder given explicitly is turned back into accepted. A folder the case has no
    classification for is an error: adding a folder goes through a rule (commit_rule).
    """
    rows = Classification.objects.select_for_update().filter(case=case)
    if folders is None:
        targets = list(rows.filter(state=Classification.State.SUGGESTED))
    else:
        wanted = {_folder_id(f) for f in folders}
        targets = list(rows.filter(folder_id__in=wanted))
        missing = wanted - {row.folder_id for row in targets}
        if missing:
            paths = sorted(Folder.objects.filter(id__in=missing).values_list("path", flat=True)) or sorted(
                map(str, missing)
            )
            raise ValidationError(f"case {case.pk} has no classification in {paths}; add it with a rule instead")
    now = timezone.now()
    for row in targets:
        row.state, row.decided_by, row.decided_at = Classification.State.ACCEPTED, _actor(user), now
        row.updated_at = now
    Classification.objects.bulk_update(targets, ["state", "decided_by", "decided_at", "updated_at"])
    # a rejected folder accepted again: the rule it waited for is no longer wanted
    withdrawn = _close_corrections(case.pk, [row.folder_id for row in targets], user, now)
    refresh_review_states([case.pk])
    _audit(
        user,
        "classification.accept",
        case=case.pk,
        as_is=folders is None,
        folders=sorted(row.folder_id for row in targets),
        **({"corrections_withdrawn": withdrawn} if withdrawn else {}),
    )
    return targets


@transaction.atomic
def reject(case: Case, folder: Folder | int, user, kind: str = RuleKind.STOP) -> Classification:
    """Reject one folder of the case (the row stays, so inference will not suggest it again); audited.

    The decision is recorded at once (who, when, which folder). When the knowledge base still gives the case
    that folder, the rule that corrects it is still to be made: a pending :class:`Correction` (``kind``: the
    stopping or refining rule the expert means to make) keeps the article "rejected, rule pending" until a
    commit takes the folder away (:func:`commit_rule`) or the expert withdraws it (:func:`withdraw_correction`).
    """
    folder_id = _folder_id(folder)
    if folder_id is None:
        raise ValidationError("choose the folder to reject")
    kind = _correction_kind(kind)
    row = Classification.objects.select_for_update().filter(case=case, folder_id=folder_id).first()
    if row is None:
        raise ValidationError(f"case {case.pk} is not classified in folder {folder_id}")
    before = _decision_rows(case.pk, [folder_id])[0]["row"]
    now = timezone.now()
    row.state, row.decided_by, row.decided_at = Classification.State.REJECTED, _actor(user), now
    row.save(update_fields=["state", "decided_by", "decided_at", "updated_at"])
    correction = None
    if folder_id in {c.folder for c in infer(case)}:
        correction = Correction.objects.filter(case=case, folder_id=folder_id, state=Correction.State.PENDING).first()
        if correction is None:
            correction = Correction.objects.create(
                case=case, folder_id=folder_id, kind=kind, rejected_by=_actor(user), rejected_at=now, row_before=before
            )
    refresh_review_states([case.pk])
    _audit(
        user,
        "classification.reject",
        case=case.pk,
        folder=folder_id,
        **({"correction": correction.pk} if correction else {}),
    )
    return row


def _correction_kind(kind: str) -> RuleKind:
    try:
        value = rule_kind(kind)
    except ValueError as exc:
        raise ValidationError(str(exc)) from exc
    if value == RuleKind.NEW:
        raise ValidationError("a rejected folder is corrected by a stopping or a refining rule")
    return value


@transaction.atomic
def withdraw_correction(correction: Correction | int, user) -> Correction:
    """Take back a rejection whose rule is still pending: the folder's row is as it was before the rejection
    (a suggestion again, or the earlier decision) and the correction is closed as withdrawn; audited."""
    pk = correction.pk if isinstance(correction, Correction) else int(correction)
    found = Correction.objects.select_for_update().filter(pk=pk).first()
    if found is None:
        raise ValidationError(f"no correction {pk}")
    if found.state != Correction.State.PENDING:
        raise ValidationError(
            "a rule already corrects this folder: undo the rule instead"
            if found.state == Correction.State.RESOLVED
            else "this rejection was already withdrawn"
        )
    before = found.row_before or {}
    concluded = _folder_map(kb.current().tree, Case.objects.get(pk=found.case_id).keyword_set)
    Classification.objects.filter(case_id=found.case_id, folder_id=found.folder_id).update(
        state=before.get("state", Classification.State.SUGGESTED),
        rule_id=concluded.get(found.folder_id),
        decided_by_id=before.get("decided_by_id"),
        decided_at=before.get("decided_at"),
        updated_at=timezone.now(),
    )
    found.state, found.closed_by, found.closed_at = Correction.State.WITHDRAWN, _actor(user), timezone.now()
    found.save(update_fields=["state", "closed_by", "closed_at"])
    refresh_review_states([found.case_id])
    _audit(user, "correction.withdraw", correction=found.pk, case=found.case_id, folder=found.folder_id)
    return found


def _close_corrections(case_id: int, folder_ids: Iterable[int], user, now) -> list[int]:
    """Close as withdrawn the case's pending corrections of these folders (an expert accepted them again)."""
    qs = Correction.objects.filter(case_id=case_id, folder_id__in=list(folder_ids), state=Correction.State.PENDING)
    ids = list(qs.values_list("id", flat=True))
    qs.update(state=Correction.State.WITHDRAWN, closed_by=_actor(user), closed_at=now)
    return ids


def _resolve_corrections(
    tree: RuleTree, case_ids: Iterable[int], user, now, rules: Sequence[Rule] = ()
) -> list[Correction]:
    """Resolve the pending corrections of these cases whose folder the knowledge base ``tree`` no longer gives
    them, recording the committed ``rules``' one that took it away (the first under a rule that gave the
    folder; none when an undo or a re-inference took the folder away); returns them. Only cases whose
    inference changed can have lost a folder."""
    pending = list(
        Correction.objects.filter(case_id__in=list(case_ids), state=Correction.State.PENDING).select_related("case")
    )
    resolved = []
    for correction in pending:
        words = correction.case.keyword_set
        if correction.folder_id in _folder_map(tree, words):
            continue
        under = (r for r in rules if r.parent_id is not None and tree.get(r.parent_id).folder == correction.folder_id)
        correction.state, correction.rule = Correction.State.RESOLVED, next(under, rules[0] if rules else None)
        correction.closed_by, correction.closed_at = _actor(user), now
        resolved.append(correction)
    Correction.objects.bulk_update(resolved, ["state", "rule", "closed_by", "closed_at"])
    return resolved


# --------------------------------------------------------------------------- folders
def _split_path(path: str) -> list[str]:
    if not isinstance(path, str) or not path.strip(Folder.SEPARATOR).strip():
        raise ValidationError(f"invalid folder path {path!r}")
    parts = [part.strip() for part in path.strip().strip(Folder.SEPARATOR).split(Folder.SEPARATOR)]
    for part in parts:
        validate_folder_name(part)
    return parts


@transaction.atomic
def create_folder(path: str, user, public: bool = True) -> Folder:
    """The folder at ``path`` ("Health/Diabetes"), creating it and any missing parents; idempotent.

    ``public`` applies to the folders it creates; an existing folder is returned unchanged. Privacy is
    inherited: a folder created under a private one is private whatever ``public`` says (its public feed
    would name its private parents).
    """
    parent = None
    folder: Folder | None = None
    for part in _split_path(path):
        folder = Folder.objects.filter(parent=parent, name=part).first()
        if folder is None:
            folder = Folder(parent=parent, name=part, public=public and (parent is None or parent.public))
            folder.path = folder.compute_path()
            folder.save()
            _audit(user, "folder.create", folder=folder.pk, path=folder.path, public=public)
        parent = folder
    assert folder is not None  # _split_path gives one part at least
    return folder


@transaction.atomic
def set_folder_public(folder: Folder, public: bool, user) -> Folder:
    """Make a folder's feed public or private (private feeds need a token); audited.

    Privacy is inherited: a folder under a private one cannot be made public, and making a folder private
    makes its whole subtree private (a public feed below it would name it).
    """
    before = Folder.objects.select_for_update().values_list("public", flat=True).get(pk=folder.pk)
    if public and not before:
        private = Folder.objects.filter(path__in=folder.ancestor_paths(), public=False).order_by("path").first()
        if private is not None:
            raise ValidationError(f"{folder.path} cannot be public: it is inside the private folder {private.path}")
    folder.public = bool(public)
    if before != folder.public:
        Folder.objects.filter(pk=folder.pk).update(public=folder.public)
        _audit(user, "folder.public", folder=folder.pk, path=folder.path, public=folder.public)
    if not folder.public:
        below = list(Folder.objects.filter(folder.subtree_q(itself=False), public=True).values_list("pk", "path"))
        if below:
            Folder.objects.filter(pk__in=[pk for pk, _ in below]).update(public=False)
            _audit(user, "folder.public", folder=folder.pk, subtree=[path for _, path in below], public=False)
    return folder


def _repath(folder: Folder, old_path: str) -> int:
    """Recompute the stored paths of ``folder``'s descendants after its own path changed."""
    prefix = old_path + Folder.SEPARATOR  # the old subtree: the folder's own path has changed already
    descendants = list(Folder.objects.filter(path__startswith=prefix).order_by("path"))
    for item in descendants:
        item.path = folder.descendant_prefix + item.path[len(prefix) :]
    Folder.objects.bulk_update(descendants, ["path"])
    return len(descendants)


def _check_sibling_free(parent: Folder | None, name: str, exclude: int) -> None:
    if Folder.objects.filter(parent=parent, name=name).exclude(pk=exclude).exists():
        where = parent.path if parent else "the top level"
        raise ValidationError(f"a folder named {name!r} already exists in {where}")


@transaction.atomic
def rename_folder(folder: Folder, name: str, user) -> Folder:
    """Rename a folder; descendants' paths follow, rules keep pointing at the same folder ids."""
    name = name.strip() if isinstance(name, str) else name
    validate_folder_name(name)
    given, folder = folder, Folder.objects.select_for_update().get(pk=folder.pk)
    _check_sibling_free(folder.parent, name, folder.pk)
    old_path = folder.path
    folder.name = name
    folder.path = folder.compute_path()
    folder.save(update_fields=["name", "path"])
    moved = _repath(folder, old_path)
    _audit(user, "folder.rename", folder=folder.pk, old_path=old_path, path=folder.path, descendants=moved)
    given.refresh_from_db()
    return given


@transaction.atomic
def move_folder(folder: Folder, new_parent: Folder | None, user) -> Folder:
    """Move a folder (with its subtree) under ``new_parent`` (None: top level)."""
    given, folder = folder, Folder.objects.select_for_update().get(pk=folder.pk)
    if new_parent is not None:
        new_parent = Folder.objects.get(pk=new_parent.pk)
        if folder.holds(new_parent.path):
            raise ValidationError(f"cannot move {folder.path} into itself or one of its subfolders")
    _check_sibling_free(new_parent, folder.name, folder.pk)
    old_path = folder.path
    folder.parent = new_parent
    folder.path = folder.compute_path()
    folder.save(update_fields=["parent", "path"])
    moved = _repath(folder, old_path)
    _audit(user, "folder.move", folder=folder.pk, old_path=old_path, path=folder.path, descendants=moved)
    if new_parent is not None and not new_parent.public:  # moved under a private folder: private with it
        set_folder_public(folder, False, user)
    given.refresh_from_db()
    return given


# --------------------------------------------------------------------------- knowledge acquisition
@dataclass(frozen=True)
class CornerstoneChange:
    """A cornerstone case whose folders the proposed rule would change.

    ``differs_by``: the new case's keywords this cornerstone lacks (adding one as a condition excludes it);
    ``lacks``: the cornerstone's keywords the new case lacks (candidates for "must be absent").
    """

    case: Case
    before_ids: frozenset[int]
    after_ids: frozenset[int]
    folders: dict[int, Folder] = field(repr=False, compare=False)  # shared by the validation's changes
    case_keywords: frozenset[str] = field(repr=False)
    cornerstone_keywords: frozenset[str] = field(repr=False)
    accepted: bool = False  # the expert accepts this change (it is recorded when the rule is committed)
    # not a cornerstone case: a stored article the expert excluded from the "would reclassify" list, which must
    # be left unchanged (its change cannot be accepted; the exclusion can be taken back)
    kept: bool = False

    # computed on access: the widest validation lists every cornerstone case, the page shows a few
    @property
    def before(self) -> list[Folder]:
        return _as_folders(self.before_ids, self.folders)

    @property
    def after(self) -> list[Folder]:
        return _as_folders(self.after_ids, self.folders)

    @property
    def differs_by(self) -> list[str]:
        return sorted(self.case_keywords - self.cornerstone_keywords)

    @property
    def lacks(self) -> list[str]:
        return sorted(self.cornerstone_keywords - self.case_keywords)


@dataclass(frozen=True)
class AffectedCase:
    """A stored case the proposed rule would reclassify (the duplicated-cases list)."""

    case_id: int
    before: list[Folder]
    after: list[Folder]


@dataclass
class Validation:
    """What the expert sees while drafting a rule; computed on KB version ``version``."""

    case: Case
    proposal: RuleProposal
    cornerstone_cases: list[CornerstoneChange]
    difference_list: list[str]  # the case's words no selected case has (acquisition.difference_list)
    selected: list[int]
    version: int
    # both ranked difference lists, against the cornerstone cases still changing and not accepted
    differences: RankedDifferences | None = None

    @property
    def accepted(self) -> list[int]:
        """The cornerstone cases the rule would change whose change the expert accepts."""
        return [s.case.pk for s in self.cornerstone_cases if s.accepted]

    @property
    def changed_cornerstones(self) -> list[CornerstoneChange]:
        """The cornerstone cases of earlier rules the rule would change (without the articles kept unchanged)."""
        return [s for s in self.cornerstone_cases if not s.kept]

    @property
    def kept(self) -> list[CornerstoneChange]:
        """The articles excluded from the "would reclassify" list that the rule still changes."""
        return [s for s in self.cornerstone_cases if s.kept]

    @property
    def to_exclude(self) -> list[CornerstoneChange]:
        """The cornerstone cases the rule would change and the expert has not accepted: each must be left
        unchanged by a condition before the rule can be committed (or its change accepted)."""
        return [s for s in self.cornerstone_cases if not s.accepted]

    def affected_cases(self, limit: int | None = None) -> list[AffectedCase]:
        return affected_cases(self, limit)


def _folders_by_id(ids: Iterable[int]) -> dict[int, Folder]:
    return Folder.objects.in_bulk(set(ids))


def _as_folders(ids: Iterable[int], folders: dict[int, Folder]) -> list[Folder]:
    return sorted((folders[i] for i in ids), key=lambda f: f.path)


def _proposal(tree: RuleTree, case: Case, kind: str, folder, wrong_folder, conditions, absent) -> RuleProposal:
    try:
        kind = rule_kind(kind)
    except ValueError as exc:
        raise ValidationError(str(exc)) from exc
    folder_id, wrong_id = _folder_id(folder), _folder_id(wrong_folder)
    for fid in (folder_id, wrong_id):
        if fid is not None and not Folder.objects.filter(pk=fid).exists():
            raise ValidationError(f"no folder {fid}")
    conditions = _keyword_set(conditions, "conditions")
    absent = _keyword_set(absent, "absent")
    missing = conditions - case.keyword_set
    if missing:
        raise ValidationError(f"conditions must be keywords of the case; case {case.pk} lacks {sorted(missing)}")
    try:
        return proposal_for(tree, case.keyword_set, kind, folder_id, wrong_id, conditions, absent)
    except ValueError as exc:
        raise ValidationError(str(exc)) from exc


def _selected_keywords(snapshot: kb.Snapshot, selected: Iterable[Case | int]) -> tuple[list[int], list[frozenset]]:
    ids = [_case_id(c) for c in selected]
    known = {i: snapshot.cornerstones[i] for i in ids if i in snapshot.cornerstones}
    others = [i for i in ids if i not in known]
    if others:
        found = dict(Case.objects.filter(id__in=others).values_list("id", "keywords"))
        missing = set(others) - set(found)
        if missing:
            raise ValidationError(f"no cases {sorted(missing)}")
        known.update((i, frozenset(words)) for i, words in found.items())
    return ids, [known[i] for i in ids]


def _cornerstone_changes(snapshot: kb.Snapshot, proposal: RuleProposal) -> dict[int, tuple[set, set]]:
    """Cornerstone case id -> (folders before, after) for those the proposal would change.

    Only cornerstones satisfying the proposal are looked at (cornerstone keyword index), and their
    current conclusions are cached per KB version. A ground-breaking rule fires on all of them and only
    adds its folder; a refining/stopping rule can only change a cornerstone on which one of its parent
    rules fires, and only those are re-evaluated with the engine.
    """
    ids = snapshot.cornerstone_index.candidates(proposal.conditions, proposal.absent)
    if proposal.kind == RuleKind.NEW:
        changed = {}
        for case_id in ids:
            before = snapshot.explanation(case_id).folders
            if proposal.folder not in before:
                changed[case_id] = (before, before | {proposal.folder})
        return changed
    parents = set(proposal.parent_ids)
    reached = {i: snapshot.cornerstones[i] for i in ids if parents & snapshot.explanation(i).fired}
    return changed_cases(snapshot.tree, proposal, reached)


def _agreeing(changed: dict[int, tuple[set, set]]) -> set[int]:
    """The cornerstone cases whose change agrees with the experts' stored decisions on them: every folder
    gained is accepted and every folder lost rejected for that case (the rule only restores what an expert
    approved, so there is nothing to decide)."""
    folders = {f for before, after in changed.values() for f in before ^ after}
    decided: dict[int, dict[int, str]] = {}
    for ids in _chunks(sorted(changed)):
        stored = (
            Classification.objects.filter(case_id__in=ids, folder_id__in=folders)
            .exclude(state=Classification.State.SUGGESTED)
            .values_list("case_id", "folder_id", "state")
        )
        for case_id, folder_id, state in stored:
            decided.setdefault(case_id, {})[folder_id] = state
    agreeing = set()
    for case_id, (before, after) in changed.items():
        rows = decided.get(case_id, {})
        if all(rows.get(f) == Classification.State.ACCEPTED for f in after - before) and all(
            rows.get(f) == Classification.State.REJECTED for f in before - after
        ):
            agreeing.add(case_id)
    return agreeing


def _cornerstones_to_decide(snapshot: kb.Snapshot, proposal: RuleProposal, case_id: int) -> dict[int, tuple]:
    """Cornerstone case id -> (folders before, after): the cornerstone cases (other than the case the rule is
    made for) whose folders the proposal would change against what the experts decided on them."""
    changed = _cornerstone_changes(snapshot, proposal)
    changed.pop(case_id, None)  # the case being fixed is meant to change
    if changed:
        for agreed in _agreeing(changed):
            del changed[agreed]
    return changed


def _kept_keywords(snapshot: kb.Snapshot, kept: Iterable[Case | int], case_id: int) -> dict[int, frozenset[str]]:
    """The keywords of the cases the expert excluded from the "would reclassify" list (they must not change);
    the case the rule is made for is never one."""
    ids = {_case_id(c) for c in kept} - {case_id}
    words = {i: snapshot.cornerstones[i] for i in ids if i in snapshot.cornerstones}
    if ids - set(words):
        stored = Case.objects.filter(id__in=ids - set(words)).values_list("id", "keywords")
        words.update((i, frozenset(w)) for i, w in stored)
    return words


def _kept_changes(
    snapshot: kb.Snapshot, proposal: RuleProposal, kept: Iterable[Case | int], case_id: int
) -> dict[int, tuple[set, set]]:
    """Case id -> (folders before, after) for the excluded cases that the proposal still changes."""
    return changed_cases(snapshot.tree, proposal, _kept_keywords(snapshot, kept, case_id))


#: Difference-list words whose precision is computed per list (the best placed by exclusions and earlier
#: rules), and at most how many words containing the expert's search are scored besides.
PRECISION_WORDS = 30
SEARCH_WORDS = 200


def _precision(words: Iterable[str], folder_id: int | None, wrong_id: int | None) -> dict[str, float]:
    """word -> among the stored cases with an accepted folder that hold it, the share whose decisions agree with
    the rule: accepted in ``folder_id`` (a new or refining rule), or not accepted in ``wrong_id`` (a stopping
    rule). Words no such case holds are left out (their precision is unknown)."""
    target = folder_id if folder_id is not None else wrong_id
    if target is None:
        return {}
    result: dict[str, float] = {}
    for chunk in _chunks(sorted(words)):
        rows = (
            Classification.objects.filter(state=Classification.State.ACCEPTED, case__index_entries__keyword__in=chunk)
            .values_list("case__index_entries__keyword")
            .annotate(
                n=Count("case_id", distinct=True),
                hit=Count("case_id", distinct=True, filter=Q(folder_id=target)),
            )
            .order_by()
        )
        for word, n, hit in rows:
            result[word] = hit / n if folder_id is not None else 1 - hit / n
    return result


def _prior_words(tree: RuleTree, proposal: RuleProposal, wrong_id: int | None) -> frozenset[str]:
    """The keywords (present or absent) of the earlier rules for the same folder: the rules concluding the
    folder, or for a stopping rule the stopping rules under rules concluding the wrong folder."""
    if proposal.kind == RuleKind.STOP:
        parents = {r.id for r in tree if r.folder == wrong_id}
        rules = [r for r in tree if r.folder is None and r.parent_id in parents]
    else:
        rules = [r for r in tree if r.folder == proposal.folder]
    return frozenset().union(*(r.conditions | r.absent for r in rules))


def validate_rule(
    case: Case,
    kind: str,
    folder: Folder | int | None = None,
    wrong_folder: Folder | int | None = None,
    conditions: Iterable[str] = (),
    absent: Iterable[str] = (),
    selected_cornerstones: Iterable[Case | int] = (),
    accepted_cornerstones: Iterable[Case | int] = (),
    search: str = "",
    kept_cases: Iterable[Case | int] = (),
) -> Validation:
    """The proposal with the cornerstone cases it would change and the difference lists.

    A cornerstone case is listed when the proposal would change its folders and the change does not merely
    restore the experts' decisions on it (an accepted change is compared against its accepted folders).
    ``accepted_cornerstones``: the listed cases whose change the expert accepts; the others are to be left
    unchanged, and ``differences`` ranks both ways the words that do so (acquisition.ranked_difference_lists:
    the case's words they lack, their words the case lacks), against only the cases still changing.
    ``difference_list`` is the older list: the case's keywords absent from every ``selected_cornerstones``
    case (minus the conditions already chosen). ``kept_cases``: stored cases the expert excluded from the
    articles the rule would reclassify; each one the proposal still changes is listed like a cornerstone case
    to leave unchanged (``kept``, never accepted) and counts in the difference lists. Reads only the cached
    knowledge base, the cornerstone cases and the keyword index, so it stays fast with many stored cases; the
    full list of stored cases it would change is :func:`affected_cases`. Precision costs a join per word over the
    accepted cases holding it, so it is computed for the :data:`PRECISION_WORDS` best placed words of each list by
    the other keys and for the words containing ``search`` (at most :data:`SEARCH_WORDS`); the others rank as of
    unknown precision.
    """
    snapshot = kb.current()
    proposal = _proposal(snapshot.tree, case, kind, folder, wrong_folder, conditions, absent)
    changed = _cornerstones_to_decide(snapshot, proposal, case.pk)
    kept_words = _kept_keywords(snapshot, kept_cases, case.pk)
    kept = changed_cases(snapshot.tree, proposal, kept_words)
    changed.update(kept)
    accepted = ({_case_id(c) for c in accepted_cornerstones} & set(changed)) - set(kept)
    folders = _folders_by_id({f for before, after in changed.values() for f in before | after})
    cases = snapshot.cornerstone_rows(changed)
    words = case.keyword_set
    stone_words = collections.ChainMap(kept_words, snapshot.cornerstones)  # no copy of every cornerstone
    stones = [
        CornerstoneChange(
            cases[case_id],
            frozenset(changed[case_id][0]),
            frozenset(changed[case_id][1]),
            folders,
            words,
            stone_words[case_id],
            case_id in accepted,
            case_id in kept,
        )
        for case_id in sorted(changed)
    ]
    selected, selected_words = _selected_keywords(snapshot, selected_cornerstones)
    diff = [w for w in engine_difference_list(words, selected_words) if w not in proposal.conditions]
    offending = {i: stone_words[i] for i in changed if i not in accepted}
    chosen = proposal.conditions | proposal.absent
    wrong_id = _folder_id(wrong_folder)
    prior = _prior_words(snapshot.tree, proposal, wrong_id)
    weights = _token_weights(case)
    unscored = ranked_difference_lists(words, offending, prior=prior, chosen=chosen, weights=weights)
    front = {i.word for items in (unscored.conditions, unscored.absent) for i in items[:PRECISION_WORDS]}
    needle = search.strip().casefold()
    if needle:
        for items in (unscored.conditions, unscored.absent):
            front.update([i.word for i in items if needle in i.word.casefold()][:SEARCH_WORDS])
    differences = ranked_difference_lists(
        words,
        offending,
        precision=_precision(front, proposal.folder, wrong_id),
        prior=prior,
        chosen=chosen,
        weights=weights,
    )
    return Validation(case, proposal, stones, diff, selected, snapshot.version, differences)


def _token_weights(case: Case) -> dict[str, float]:
    """The CST weights of the words of the case's page, as processing stored them (a site with a learned style
    tree; filters.sst), or none."""
    article = getattr(case, "article", None)
    extraction = getattr(article, "extraction", None) or {}
    weights = extraction.get("token_weights") if isinstance(extraction, dict) else None
    return weights if isinstance(weights, dict) else {}


def affected_cases(validation: Validation, limit: int | None = None) -> list[AffectedCase]:
    """Every stored case the proposal would reclassify (the duplicated-cases list), by case id.

    Only the cases holding all the proposal's keywords are read, through the CaseKeyword index.
    """
    snapshot = kb.current()
    proposal = validation.proposal
    if not proposal.conditions and not proposal.absent:
        if proposal.kind != RuleKind.STOP:
            raise ValidationError("add at least one condition before listing the cases the rule would change")
        # a bare stopping rule fires wherever a parent does: the cases holding a parent's path keywords
        rows: dict[int, frozenset[str]] = {}
        for parent in proposal.parent_ids:
            path = [snapshot.tree.get(i) for i in snapshot.tree.path(parent)] if parent is not None else []
            present = frozenset().union(*(r.conditions for r in path))
            missing = frozenset().union(*(r.absent for r in path))
            rows.update(_candidates(present, missing))
    else:
        rows = dict(_candidates(proposal.conditions, proposal.absent))
    rows.pop(validation.case.pk, None)
    changed = changed_cases(snapshot.tree, proposal, rows)
    ids = sorted(changed)[:limit] if limit is not None else sorted(changed)
    folders = _folders_by_id({f for i in ids for f in changed[i][0] | changed[i][1]})
    return [AffectedCase(i, _as_folders(changed[i][0], folders), _as_folders(changed[i][1], folders)) for i in ids]


@dataclass(frozen=True)
class RuleRequest:
    """What validate_rule / commit_rule need for a move or copy of an article between folders."""

    kind: RuleKind
    folder: int
    wrong_folder: int | None

    def as_kwargs(self) -> dict:
        return {"kind": self.kind, "folder": self.folder, "wrong_folder": self.wrong_folder}


def move_article(
    case: Case, from_folder: Folder | int | None, to_folder: Folder | int, user, copy: bool = False
) -> RuleRequest:
    """Translate "move/copy this article from one folder to another" into the rule to draft.

    A copy, or a move away from a folder no rule gave (set by hand), needs a new rule for the target;
    a move away from a folder the knowledge base concluded needs a refining rule under those rules.
    Nothing is stored here: the expert then validates and commits the rule.
    """
    to_id, from_id = _folder_id(to_folder), _folder_id(from_folder)
    if to_id is None:
        raise ValidationError("choose the folder to move or copy the article to")
    if from_id == to_id:
        raise ValidationError("the article is already in that folder")
    concluded = {c.folder for c in infer(case)}
    if to_id in concluded:
        raise ValidationError("the knowledge base already gives this article that folder; accept it instead")
    if copy or from_id is None or from_id not in concluded:
        return RuleRequest(RuleKind.NEW, to_id, None)
    return RuleRequest(RuleKind.REFINE, to_id, from_id)


def _decision_rows(case_id: int, folder_ids: Iterable[int | None]) -> list[dict]:
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


def _decide(case_id: int, folder_id: int, state: str, user, rule_id: int | None) -> None:
    now = timezone.now()
    Classification.objects.update_or_create(
        case_id=case_id,
        folder_id=folder_id,
        defaults={"state": state, "decided_by": _actor(user), "decided_at": now, "rule_id": rule_id},
    )
    refresh_review_states([case_id])


@transaction.atomic
def commit_rule(
    case: Case,
    kind: str,
    user,
    folder: Folder | int | None = None,
    wrong_folder: Folder | int | None = None,
    conditions: Iterable[str] = (),
    absent: Iterable[str] = (),
    version: int | None = None,
    accepted_cornerstones: Iterable[Case | int] | None = None,
    kept_cases: Iterable[Case | int] = (),
) -> list[Rule]:
    """Store the rule (one per parent rule for refine/stop), with ``case`` as its cornerstone case.

    ``kept_cases``: stored cases the expert excluded from the "would reclassify" list (they must not change);
    the commit is refused while the rule would still change one of them.

    ``accepted_cornerstones``: the cornerstone cases of earlier rules whose change the expert accepts (the
    workspace always sends them, possibly none). Every cornerstone case the rule would change (against the
    experts' decisions on it, as :func:`validate_rule` lists them) must be among them, else the commit is
    refused and names the cases: each was either left unchanged by a condition or its change was seen and
    accepted. An accepted change is recorded in this transaction: the case's folders the rule takes away are
    rejected and the folders it gives accepted, by the committing expert (undo restores them), and the case
    becomes a cornerstone case of the new rule too (RuleCornerstone "accepted"). ``None`` (scripts, imports,
    older callers): the cornerstone cases are not checked and no change is recorded as accepted.

    Idempotent: when the same rules (parent, folder, conditions, absent keywords, cornerstone case) exist
    already, they are returned and nothing is stored (a double click, two experts making the same rule).
    ``version``: the knowledge-base version the expert validated the rule on (the workspace sends it); when
    the knowledge base has changed since, the commit is refused, as the cornerstone cases shown may be stale.

    Under the knowledge-base lock: re-checks the proposal against the current tree, re-infers only
    the stored cases holding the rule's keywords (CaseKeyword index), updates their suggestions, makes
    the expert's decision on ``case`` (target accepted, wrong folder rejected), bumps the KB version
    and writes the audit entry. Raises ValidationError for conditions that are not keywords of the
    case, empty conditions, or a rule that does not fit the case.
    """
    if not _keyword_set(conditions, "conditions") and not _keyword_set(absent, "absent") and kind != RuleKind.STOP:
        # one rule shape everywhere: a rule of absent keywords only is a rule (the engine and page take it);
        # a stopping rule needs no keyword of its own ("not this folder here")
        raise ValidationError("a rule needs at least one keyword, present or absent (pick from the difference list)")
    snapshot = kb.locked()
    case = Case.objects.get(pk=case.pk)  # the stored keywords, not a stale instance
    same = _same_commit(case, kind, folder, wrong_folder, conditions, absent)
    if same:
        return same
    proposal = _proposal(snapshot.tree, case, kind, folder, wrong_folder, conditions, absent)
    if version is not None and version != snapshot.version:
        raise ValidationError(
            f"the knowledge base changed since this rule was checked (version {version}, now {snapshot.version}): "
            "check the rule again before committing it"
        )
    try:
        apply_proposal(snapshot.tree, proposal, snapshot.tree.max_id + 1)  # placement check only
    except ValueError as exc:
        raise ValidationError(str(exc)) from exc
    accepted: dict[int, tuple] = {}
    if accepted_cornerstones is not None:
        changing = _cornerstones_to_decide(snapshot, proposal, case.pk)
        wanted = {_case_id(c) for c in accepted_cornerstones}
        unseen = sorted(set(changing) - wanted)
        if unseen:
            titles = case_titles(unseen[:10])
            listed = "; ".join(f"“{titles[i]}”" for i in unseen[:10])
            listed += f" and {len(unseen) - 10} more" if len(unseen) > 10 else ""
            raise ValidationError(
                f"{len(unseen)} cornerstone case{'s' if len(unseen) != 1 else ''} would change without your "
                f"decision ({listed}): leave {'them' if len(unseen) != 1 else 'it'} unchanged with a "
                "condition from the difference lists, or accept the change"
            )
        accepted = {i: changing[i] for i in sorted(wanted & set(changing))}
    still = sorted(_kept_changes(snapshot, proposal, kept_cases, case.pk))
    if still:
        raise ValidationError(
            f"the rule would still change case{'s' if len(still) != 1 else ''} {', '.join(map(str, still[:10]))}, "
            "which you excluded from the articles it would reclassify: add a condition that leaves "
            f"{'them' if len(still) != 1 else 'it'} unchanged, or take the exclusion back"
        )
    wrong_id = _folder_id(wrong_folder)
    decisions_before = _decision_rows(case.pk, [proposal.folder, wrong_id])
    stones_before = {i: _decision_rows(i, before ^ after) for i, (before, after) in accepted.items()}
    now = timezone.now()
    rows = [
        Rule.objects.create(
            parent_id=parent,
            folder_id=proposal.folder,
            conditions=sorted(proposal.conditions),
            absent=sorted(proposal.absent),
            cornerstone=case,
            created_by=_actor(user),
            created_at=now,
        )
        for parent in proposal.parent_ids
    ]
    RuleCornerstone.objects.bulk_create(
        [
            RuleCornerstone(rule=r, case_id=i, decision=decision, decided_by=_actor(user), decided_at=now)
            for r in rows
            for i, decision in [
                (case.pk, RuleCornerstone.Decision.MADE),
                *((i, RuleCornerstone.Decision.ACCEPTED) for i in accepted),
            ]
        ]
    )
    words = case.keyword_set
    added = [kb.engine_rule(r) for r in rows]
    new = snapshot.derive(add=added, cornerstones={**snapshot.cornerstones, case.pk: words})
    # the accepted changes first: the commit's re-inference then finds them decided (not as conflicts); a
    # rejected row keeps the rule that gave the folder (its rejections count against that rule)
    for stone_id, (before, after) in accepted.items():
        concluded = _folder_map(new.tree, snapshot.cornerstones[stone_id])
        gave = _folder_map(snapshot.tree, snapshot.cornerstones[stone_id])
        for gained in sorted(after - before):
            _decide(stone_id, gained, Classification.State.ACCEPTED, user, concluded.get(gained))
        for lost in sorted(before - after):
            _decide(stone_id, lost, Classification.State.REJECTED, user, gave.get(lost))
    # and the expert's own decisions on the case: the re-inference must not report them as conflicts
    concluded = _folder_map(new.tree, words)
    if proposal.folder is not None:
        _decide(case.pk, proposal.folder, Classification.State.ACCEPTED, user, concluded.get(proposal.folder))
    if wrong_id is not None:
        _decide(case.pk, wrong_id, Classification.State.REJECTED, user, _folder_map(snapshot.tree, words).get(wrong_id))
    if proposal.kind == RuleKind.NEW:
        sync = _add_ground_breaking(added[0], now)
        _sync_classifications({case.pk: concluded})
    else:
        desired = _changed(snapshot.tree, new.tree, _path_candidates(new.tree, added))
        desired[case.pk] = concluded
        sync = _sync_classifications(desired)
    # a folder taken away from a case whose rejection waited for its rule: that rejection is now corrected
    # (a ground-breaking rule only adds folders, so then only the commit's own case is looked at)
    reinferred = {case.pk, *accepted} if proposal.kind == RuleKind.NEW else {case.pk, *accepted, *desired}
    resolved = _resolve_corrections(new.tree, reinferred, user, now, rows)
    refresh_review_states(c.case_id for c in resolved)
    published = kb.publish(new)
    _audit(
        user,
        "rule.commit",
        rules=[r.pk for r in rows],
        kind=kind,
        case=case.pk,
        folder=proposal.folder,
        wrong_folder=wrong_id,
        parents=list(proposal.parent_ids),
        conditions=sorted(proposal.conditions),
        absent=sorted(proposal.absent),
        decisions_before=decisions_before,
        cornerstones=[
            {
                "case": i,
                "before": sorted(before),
                "after": sorted(after),
                "decisions_before": stones_before[i],
            }
            for i, (before, after) in accepted.items()
        ],
        corrections_resolved=[c.pk for c in resolved],
        version=published.version,
        reclassified=sync.as_details(),
    )
    return rows


def _same_commit(case: Case, kind, folder, wrong_folder, conditions, absent) -> list[Rule]:
    """The rules of an earlier commit of exactly this draft for this case, when they are all still stored."""
    draft = {
        "kind": str(rule_kind(kind)),
        "folder": _folder_id(folder),
        "wrong_folder": _folder_id(wrong_folder) if rule_kind(kind) != RuleKind.NEW else None,
        "conditions": sorted(keyword_set(conditions)),
        "absent": sorted(keyword_set(absent)),
    }
    for entry in AuditEntry.objects.filter(action="rule.commit", details__case=case.pk).order_by("-id")[:20]:
        if all(entry.details.get(key) == value for key, value in draft.items()):
            rules = list(Rule.objects.filter(pk__in=entry.details["rules"]).order_by("pk"))
            if len(rules) == len(entry.details["rules"]):
                return rules
    return []


@transaction.atomic
def undo_last_rule(user, rule_id: int | None = None) -> list[int]:
    """Remove the most recent rule (with the sibling rules committed with it); returns their ids.

    ``rule_id`` is the rule the expert saw as the last one (the workspace always sends it): when another
    rule has been committed since, nothing is undone. Only the rule's author, or a knowledge-base
    administrator, may undo it. The affected cases' suggestions are re-inferred without them and the
    cornerstone case's decisions made by that commit are restored. Raises ValidationError when there is no
    rule to undo or the undo is refused.
    """
    snapshot = kb.locked()
    last = Rule.objects.select_related("created_by").order_by("-id").first()
    if last is None:
        raise ValidationError("there is no rule to undo")
    if rule_id is not None and rule_id != last.pk:
        by = f" by {last.created_by.get_username()}" if last.created_by else ""
        raise ValidationError(
            f"rule {rule_id} is no longer the last rule: rule {last.pk} was committed since{by}; nothing was undone"
        )
    author = last.created_by
    if author is not None and author.pk != user.pk and not roles.is_kb_administrator(user):
        raise ValidationError(
            f"rule {last.pk} was made by {author.get_username()}: only they or a knowledge-base "
            "administrator may undo it"
        )
    entry = None
    for candidate in AuditEntry.objects.filter(action="rule.commit").order_by("-id")[:50]:
        if last.pk in candidate.details.get("rules", []):
            entry = candidate
            break
    group = entry.details["rules"] if entry else []
    ids = sorted({i for i in group if i in snapshot.tree} | {last.pk})
    if Rule.objects.filter(parent_id__in=ids).exclude(id__in=ids).exists():
        raise ValidationError(f"rule {last.pk} has child rules and cannot be undone")
    rules = list(Rule.objects.filter(id__in=ids))
    stones = {r.cornerstone_id for r in rules if r.cornerstone_id}
    stones |= set(RuleCornerstone.objects.filter(rule_id__in=ids).values_list("case_id", flat=True))
    still = set(
        Rule.objects.filter(cornerstone_id__in=stones).exclude(id__in=ids).values_list("cornerstone_id", flat=True)
    ) | set(
        RuleCornerstone.objects.filter(case_id__in=stones).exclude(rule_id__in=ids).values_list("case_id", flat=True)
    )
    cornerstones = {k: v for k, v in snapshot.cornerstones.items() if k not in stones - still}
    new = snapshot.derive(remove=ids, cornerstones=cornerstones)
    # restore the committing expert's decisions on the cornerstone case, then re-infer
    restored = []
    if entry is not None:
        # the commit's case first, then the cornerstone cases whose change the commit accepted
        decided = [(entry.details["case"], entry.details.get("decisions_before", []))]
        decided += [(item["case"], item["decisions_before"]) for item in entry.details.get("cornerstones", [])]
        for case_id, items in decided:
            for item in items:
                before = item["row"]
                qs = Classification.objects.filter(case_id=case_id, folder_id=item["folder"])
                if before is None:
                    qs.delete()
                else:
                    rule_id = before["rule_id"] if before["rule_id"] not in ids else None
                    qs.update(
                        state=before["state"],
                        rule_id=rule_id,
                        decided_by_id=before["decided_by_id"],
                        decided_at=before["decided_at"],
                        updated_at=timezone.now(),
                    )
                if case_id == entry.details["case"]:
                    restored.append(item["folder"])
        refresh_review_states([case_id for case_id, _ in decided])
    desired: dict[int, dict[int, int]] = {}
    # a ground-breaking rule changed only the cases where it is the first rule concluding its folder,
    # i.e. those whose suggestion points at it; a refining/stopping rule those holding its whole path
    roots = [r.pk for r in rules if r.parent_id is None]
    if roots:
        pointing = Case.objects.filter(
            classifications__rule_id__in=roots, classifications__state=Classification.State.SUGGESTED
        ).distinct()
        desired.update(
            _changed(
                snapshot.tree,
                new.tree,
                (
                    (pk, frozenset(words))
                    for pk, words in pointing.values_list("id", "keywords").iterator(chunk_size=CHUNK)
                ),
            )
        )
    desired.update(
        _changed(
            snapshot.tree,
            new.tree,
            _path_candidates(snapshot.tree, [snapshot.tree.get(r.pk) for r in rules if r.parent_id is not None]),
        )
    )
    for case_id, words in Case.objects.filter(id__in=stones).values_list("id", "keywords"):
        desired[case_id] = _folder_map(new.tree, frozenset(words))
    sync = _sync_classifications(desired)
    reopened = _reopen_corrections(new.tree, ids)
    # and the other way: a rejected folder that only the undone rules gave needs no rule any more
    closed = _resolve_corrections(new.tree, desired, user, timezone.now())
    refresh_review_states(c.case_id for c in closed)
    Classification.objects.filter(rule_id__in=ids).update(rule_id=None)
    Rule.objects.filter(id__in=ids).delete()
    published = kb.publish(new)
    _audit(
        user,
        "rule.undo",
        rules=ids,
        undone_entry=entry.pk if entry else None,
        restored_folders=restored,
        corrections_reopened=reopened,
        corrections_resolved=[c.pk for c in closed],
        version=published.version,
        reclassified=sync.as_details(),
    )
    return ids


def _reopen_corrections(tree: RuleTree, rule_ids: list[int]) -> list[int]:
    """The corrections these (undone) rules resolved whose folder ``tree`` gives the case again: pending again,
    so that the rejection waits for its rule as before the commit; returns their ids."""
    resolved = Correction.objects.filter(rule_id__in=rule_ids, state=Correction.State.RESOLVED).select_related("case")
    again = [c for c in resolved if c.folder_id in _folder_map(tree, c.case.keyword_set)]
    for correction in again:
        correction.state, correction.rule, correction.closed_by, correction.closed_at = (
            Correction.State.PENDING,
            None,
            None,
            None,
        )
    Correction.objects.bulk_update(again, ["state", "rule", "closed_by", "closed_at"])
    refresh_review_states(c.case_id for c in again)
    return [c.pk for c in again]


@transaction.atomic
def reinfer_all(user=None) -> SyncResult:
    """Re-infer every stored case (after an import, or edits made outside the services); audited."""
    snapshot = kb.locked()
    result = SyncResult()
    ids = list(Case.objects.order_by("id").values_list("id", flat=True))
    for chunk in _chunks(ids):
        desired = {
            pk: _folder_map(snapshot.tree, frozenset(words))
            for pk, words in Case.objects.filter(id__in=chunk).values_list("id", "keywords")
        }
        part = _sync_classifications(desired)
        _resolve_corrections(snapshot.tree, chunk, user, timezone.now())
        refresh_review_states(chunk)  # also repairs states after edits made outside the services
        result.cases += part.cases
        result.created += part.created
        result.repointed += part.repointed
        result.removed += part.removed
        result.conflicts += part.conflicts
    _audit(user, "kb.reinfer", version=snapshot.version, reclassified=result.as_details())
    return result


def set_feature_settings(settings: FeatureSettings, user=None) -> int:
    """Change how the knowledge base builds its cases (stemming, phrases, scopes) and rebuild them; audited.

    Every case that is not a cornerstone case gets its keywords again from its article's tokens, title and
    URL, and is re-inferred. Refused with the reason when rules would stop meaning what they meant: a change
    of stemming while rules exist (their words were typed for the old stems), or switching off phrases or
    scopes that a rule's conditions use. Returns the number of cases rebuilt.
    """
    with transaction.atomic():
        snapshot = kb.locked()
        old = snapshot.features
        if settings == old:
            return 0
        rules = list(snapshot.tree)
        if settings.stemming != old.stemming and rules:
            raise ValidationError(
                f"the knowledge base has {len(rules)} rules whose words were chosen "
                f"{'with ' + old.stemming + ' stemming' if old.stemming else 'without stemming'}; "
                "change stemming before the first rule, or export, change and import the knowledge base"
            )
        used = {kind_of(w) for rule in rules for w in rule.conditions | rule.absent}
        if not settings.phrases and "phrase" in used:
            raise ValidationError("rules use phrase conditions: phrases cannot be switched off")
        if not settings.scopes and used & {"title", "site", "url"}:
            raise ValidationError("rules use title, site or URL conditions: scopes cannot be switched off")
        row = KnowledgeBase.objects.select_for_update().get(pk=KnowledgeBase.SINGLETON_ID)
        row.features = settings.to_dict()
        row.save(update_fields=["features"])
        new = kb.publish(kb.load("", snapshot.version))
        stones = set(new.cornerstones)
        rebuilt = 0
        cases = Case.objects.exclude(id__in=stones).select_related("article").order_by("id")
        for case in cases.iterator(chunk_size=CHUNK):
            article = case.article
            if article is None:
                continue
            words = case_keywords(article, list(article.tokens or []), settings)
            if words != case.keywords:
                _replace_keywords(case, words)
                rebuilt += 1
        _audit(user, "kb.features", before=old.to_dict(), after=settings.to_dict(), rebuilt=rebuilt)
        reinfer_all(user)
    return rebuilt


# --------------------------------------------------------------------------- folder management (workspace)
# Creating, renaming and moving are create_folder, rename_folder and move_folder above (the admin uses them
# too); the workspace adds merging and deleting a folder that still holds articles.

#: Which row wins when a merge brings two rows of one case together (unique (case, folder)): an expert's
#: acceptance over a rejection (the case belonged to one of the two folders, which are now one), any decision
#: over a suggestion; on a tie the target's row stays.
_MERGE_RANK: dict[str, int] = {
    Classification.State.ACCEPTED: 2,
    Classification.State.REJECTED: 1,
    Classification.State.SUGGESTED: 0,
}


@dataclass(frozen=True)
class FolderDependents:
    """What points at a folder from outside the knowledge base (feeds, search, alerts), counted for the
    confirm step and the audit log. All three foreign keys CASCADE: deleting the folder deletes them."""

    classifications: int
    feed_tokens: int
    saved_searches: int
    subscriptions: int


def folder_dependents(folder: Folder) -> FolderDependents:
    # the reverse relations, not the models: the classifier imports neither feeds, search nor alerts
    return FolderDependents(
        classifications=folder.classifications.count(),
        feed_tokens=folder.feed_tokens.count(),
        saved_searches=folder.saved_searches.count(),
        subscriptions=folder.subscriptions.count(),
    )


def _merged_rule_clash(tree: RuleTree, source_id: int, target_id: int) -> str | None:
    """Why retargeting the rules concluding ``source_id`` to ``target_id`` breaks the rule tree, or None.

    The engine refuses a refining rule that concludes its parent's own folder; after a merge that is every
    refinement from one of the two folders to the other."""
    pair = {source_id, target_id}
    for rule in tree:
        if rule.parent_id is None or rule.folder not in pair:
            continue
        parent = tree.get(rule.parent_id)
        if parent.folder in pair and parent.folder != rule.folder:
            return (
                f"rule {rule.id} refines rule {rule.parent_id} to give one of the two folders instead of the other: "
                "merged, it would conclude its parent's own folder (undo it, or correct it with a stopping rule, first)"
            )
    return None


@transaction.atomic
def merge_folder(source: Folder, target: Folder, user) -> dict:
    """Merge ``source`` into ``target``: the rules concluding ``source`` conclude ``target`` (same ids), its
    classifications, subfolders, saved searches and subscriptions move to ``target``, and ``source`` is
    deleted; one transaction, audited, the knowledge base published when rules were retargeted.

    Two rows of one case meet on the unique (case, folder): the accepted row wins, then the rejected one,
    then the suggestion (on a tie the target's row stays). A subscription whose user already subscribes to
    ``target`` and ``source``'s feed tokens are deleted with ``source``: a token to ``target`` would open more
    than its subscriber was given. Returns the audit details.
    """
    snapshot = kb.locked()
    source = Folder.objects.select_for_update().get(pk=source.pk)
    target = Folder.objects.select_for_update().get(pk=target.pk)
    if source.pk == target.pk:
        raise ValidationError("a folder cannot be merged into itself")
    if source.holds(target.path):
        raise ValidationError(f"{source.path} cannot be merged into its own subfolder {target.path}")
    clashes = sorted(
        set(source.children.values_list("name", flat=True))
        & set(target.children.exclude(pk=source.pk).values_list("name", flat=True))
    )
    if clashes:
        raise ValidationError(
            f"{source.path} and {target.path} both have a subfolder named {', '.join(map(repr, clashes))}: "
            "merge or rename those first"
        )
    clash = _merged_rule_clash(snapshot.tree, source.pk, target.pk)
    if clash:
        raise ValidationError(f"{source.path} cannot be merged into {target.path}: {clash}")
    retargeted = [r for r in snapshot.tree if r.folder == source.pk]
    new = snapshot.derive(
        remove=[r.id for r in retargeted],
        add=[replace(r, folder=target.pk) for r in retargeted],
    )
    # the rows of both folders for the cases that have one in each: the lower-ranked of each pair goes
    rows = Classification.objects.filter(folder=source).values_list("case_id", "id", "state")
    moving = {case_id: (pk, state) for case_id, pk, state in rows}
    dropped = []
    for case_id, pk, state in Classification.objects.filter(folder=target, case_id__in=list(moving)).values_list(
        "case_id", "id", "state"
    ):
        source_pk, source_state = moving[case_id]
        loser = (pk, state) if _MERGE_RANK[source_state] > _MERGE_RANK[state] else (source_pk, source_state)
        dropped.append({"case": case_id, "row": loser[0], "state": loser[1]})
    Classification.objects.filter(id__in=[d["row"] for d in dropped]).delete()
    # updated_at and decided_at stay: the feeds keep their order and alerts do not announce the articles again
    moved = Classification.objects.filter(folder=source).update(folder=target)
    Rule.objects.filter(folder=source).update(folder=target)
    children = list(source.children.order_by("name"))
    for child in children:
        old_path = child.path
        child.parent = target
        child.path = child.compute_path()
        child.save(update_fields=["parent", "path"])
        _repath(child, old_path)
        if not target.public:  # a public feed below a private folder would name it
            set_folder_public(child, False, user)
    # pending corrections follow their rows; one the target already has for the case goes with the source
    waiting = Correction.objects.filter(folder=target, state=Correction.State.PENDING).values("case_id")
    Correction.objects.filter(folder=source).exclude(state=Correction.State.PENDING, case_id__in=waiting).update(
        folder=target
    )
    searches = source.saved_searches.update(folder=target)
    subscribed = target.subscriptions.values("user_id")
    kept = source.subscriptions.exclude(user_id__in=subscribed).update(folder=target)
    dependents = folder_dependents(source)  # what is left goes with it
    sync = SyncResult()
    published_version = snapshot.version
    if retargeted:
        desired = {
            pk: _folder_map(new.tree, frozenset(words))
            for pk, words in Case.objects.filter(id__in=list(moving)).values_list("id", "keywords")
        }
        sync = _sync_classifications(desired)
        published_version = kb.publish(new).version
    refresh_review_states(moving)
    details = {
        "folder": source.pk,
        "path": source.path,
        "target": target.pk,
        "target_path": target.path,
        "rules": [r.id for r in retargeted],
        "classifications": moved,
        "dropped": dropped[:100],
        "dropped_count": len(dropped),
        "subfolders": [c.path for c in children],
        "saved_searches_moved": searches,
        "subscriptions_moved": kept,
        "subscriptions_dropped": dependents.subscriptions,
        "feed_tokens_dropped": dependents.feed_tokens,
        "version": published_version,
        "reclassified": sync.as_details(),
    }
    _audit(user, "folder.merge", **details)
    source.delete()
    return details


@transaction.atomic
def discard_folder(folder: Folder, user) -> FolderDependents:
    """Delete a folder with its classifications (its articles stay, out of it); audited.

    Refused with the reason while it has subfolders or rules conclude it: merging it into another folder
    keeps both. Its feed tokens, the saved searches narrowed to it and the subscriptions to it are deleted
    with it (CASCADE); the confirm step names them. No conclusion changes, so the knowledge base keeps its
    version; the articles' review states are recomputed.
    """
    kb.locked()  # no rule may be committed for it meanwhile
    folder = Folder.objects.select_for_update().get(pk=folder.pk)
    children = list(folder.children.order_by("name").values_list("name", flat=True))
    if children:
        raise ValidationError(
            f"{folder.path} has subfolders ({', '.join(children)}): move or delete them first, "
            "or merge it into another folder"
        )
    rules = list(folder.rules.order_by("id").values_list("id", flat=True))
    if rules:
        listed = ", ".join(map(str, rules[:10])) + (" …" if len(rules) > 10 else "")
        raise ValidationError(
            f"rule{'s' if len(rules) != 1 else ''} {listed} conclude{'' if len(rules) != 1 else 's'} {folder.path}: "
            "merge it into another folder (the rules follow), or undo them first"
        )
    cases = list(folder.classifications.values_list("case_id", flat=True))
    dependents = folder_dependents(folder)
    _audit(user, "folder.delete", folder=folder.pk, path=folder.path, **asdict(dependents))
    folder.delete()
    refresh_review_states(cases)
    return dependents


# --------------------------------------------------------------------------- bulk actions and per-user state
#: the most articles one bulk action takes (a page holds 50; a form posting more is refused, not truncated)
BULK_MAX = 500


@dataclass(frozen=True)
class BulkItem:
    """What a bulk action did to one article, or why the action was refused for it."""

    article_id: int
    title: str
    ok: bool
    note: str


class BulkRefused(ValidationError):
    """A bulk action refused as a whole (nothing changed); ``items`` says, per article, what stood in the way."""

    def __init__(self, message: str, items: list[BulkItem]):
        super().__init__(message)
        self.items = items


def _bulk_targets(article_ids: Iterable[int]) -> list[tuple[int, str, Case | None]]:
    """(article id, title, its case locked for the action's transaction, or None) in the order given."""
    ids = list(dict.fromkeys(article_ids))
    if not ids:
        raise ValidationError("Select the articles first.")
    if len(ids) > BULK_MAX:
        raise ValidationError(f"{len(ids)} articles selected; one action takes {BULK_MAX} at most.")
    titles = {
        pk: title or url for pk, title, url in Article.objects.filter(pk__in=ids).values_list("id", "title", "url")
    }
    # locked in id order, so that two bulk actions on overlapping selections queue rather than deadlock
    cases = {c.article_id: c for c in Case.objects.select_for_update().filter(article_id__in=ids).order_by("pk")}
    missing = [pk for pk in ids if pk not in titles]
    if missing:
        raise ValidationError(f"There is no article {', '.join(map(str, missing[:10]))}.")
    return [(pk, titles[pk], cases.get(pk)) for pk in ids]


def _refuse_unless_all_ok(items: list[BulkItem], what: str) -> None:
    refused = [item for item in items if not item.ok]
    if refused:
        raise BulkRefused(
            f"{what} refused for {len(refused)} of {len(items)} selected article(s); nothing was changed.", items
        )


NOT_PROCESSED = "not processed yet: it has no case to review"


def _folder_paths(case_ids: list[int], state: str) -> dict[int, list[str]]:
    rows = Classification.objects.filter(case_id__in=case_ids, state=state).order_by("folder__path")
    paths: dict[int, list[str]] = {}
    for case_id, path in rows.values_list("case_id", "folder__path"):
        paths.setdefault(case_id, []).append(path)
    return paths


@transaction.atomic
def bulk_accept(article_ids: Iterable[int], user) -> list[BulkItem]:
    """Accept every pending suggestion of each article, through :func:`accept` (one audit entry each), all in one
    transaction: an article without a case or without suggestions refuses the whole action (BulkRefused)."""
    targets = _bulk_targets(article_ids)
    suggested = _folder_paths([c.pk for _, _, c in targets if c], Classification.State.SUGGESTED)
    checked = [
        BulkItem(pk, title, False, NOT_PROCESSED)
        if case is None
        else BulkItem(pk, title, False, "no suggestions to accept")
        if not suggested.get(case.pk)
        else BulkItem(pk, title, True, "")
        for pk, title, case in targets
    ]
    _refuse_unless_all_ok(checked, "Accepting")
    done = []
    for pk, title, case in targets:
        assert case is not None  # checked above
        rows = accept(case, user)
        if not rows:  # another expert decided them between the check and the row locks
            raise BulkRefused(
                "An article's suggestions changed meanwhile; nothing was changed.",
                [BulkItem(pk, title, False, "its suggestions were decided meanwhile")],
            )
        done.append(BulkItem(pk, title, True, "accepted " + ", ".join(sorted(r.folder.path for r in rows))))
    return done


@transaction.atomic
def bulk_mark_no_folder(article_ids: Iterable[int], user) -> list[BulkItem]:
    """Record that each article was reviewed and belongs in no folder (it counts as classified); one audit
    entry per article, one transaction. Refused as a whole for an article without a case, with suggestions
    still pending (accept or reject them: a wrong suggestion needs a rule) or accepted in a folder."""
    targets = _bulk_targets(article_ids)
    case_ids = [c.pk for _, _, c in targets if c]
    suggested = _folder_paths(case_ids, Classification.State.SUGGESTED)
    accepted = _folder_paths(case_ids, Classification.State.ACCEPTED)
    checked = []
    for pk, title, case in targets:
        if case is None:
            checked.append(BulkItem(pk, title, False, NOT_PROCESSED))
        elif suggested.get(case.pk):
            pending = ", ".join(suggested[case.pk])
            checked.append(BulkItem(pk, title, False, f"suggestions pending ({pending}): accept or reject them"))
        elif accepted.get(case.pk):
            checked.append(BulkItem(pk, title, False, f"already accepted in {', '.join(accepted[case.pk])}"))
        else:
            checked.append(BulkItem(pk, title, True, "it belongs in no folder"))
    _refuse_unless_all_ok(checked, "Marking reviewed without a folder")
    now = timezone.now()
    Case.objects.filter(pk__in=case_ids).update(no_folder_by=_actor(user), no_folder_at=now)
    refresh_review_states(case_ids)
    for pk, _, case in targets:
        assert case is not None  # checked above
        _audit(user, "case.no_folder", case=case.pk, article=pk)
    return checked


@transaction.atomic
def bulk_assign(article_ids: Iterable[int], assignee, user) -> list[BulkItem]:
    """Assign each article to one expert, or to nobody (``assignee=None``); one audit entry per article with the
    previous assignee, one transaction. Refused for a user who is not an active expert, and as a whole for an
    article without a case (nothing to review)."""
    if assignee is not None and not roles.is_expert(assignee):
        raise ValidationError(f"{assignee.get_username()} is not an expert: articles are assigned to experts only.")
    targets = _bulk_targets(article_ids)
    checked = [
        BulkItem(pk, title, case is not None, NOT_PROCESSED if case is None else "") for pk, title, case in targets
    ]
    _refuse_unless_all_ok(checked, "Assigning")
    ids = [pk for pk, _, _ in targets]
    before = dict(Article.objects.filter(pk__in=ids, assignee__isnull=False).values_list("id", "assignee__username"))
    now, to = timezone.now(), assignee.get_username() if assignee is not None else None
    Article.objects.filter(pk__in=ids).update(assignee=assignee, assigned_by=_actor(user), assigned_at=now)
    done = []
    for pk, title, case in targets:
        assert case is not None  # checked above
        was = before.get(pk)
        _audit(user, "article.assign", case=case.pk, article=pk, assignee=to, previous=was)
        note = f"assigned to {to}" if to else "unassigned"
        done.append(BulkItem(pk, title, True, note + (f" (was {was})" if was and was != to else "")))
    return done


def mark_read(article_ids: Iterable[int], user) -> None:
    """The articles are read by ``user`` (opening one's page does this). Personal state, not audited; a read
    article stays read from its first reading (a conflict keeps the row). Ids of no article are left out."""
    existing = Article.objects.filter(pk__in=list(article_ids)).values_list("id", flat=True)
    ArticleRead.objects.bulk_create([ArticleRead(user=user, article_id=pk) for pk in existing], ignore_conflicts=True)


def mark_unread(article_ids: Iterable[int], user) -> int:
    """The articles are unread by ``user`` again; how many were read."""
    deleted, _ = ArticleRead.objects.filter(user=user, article_id__in=list(article_ids)).delete()
    return deleted
