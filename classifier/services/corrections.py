"""Pending corrections: a rejected folder that the knowledge base still gives a case waits, as a
:class:`~classifier.models.Correction`, for the rule that takes it away.

This module owns their life after :func:`~classifier.services.review.reject` opened one: withdrawing it (the
expert takes the rejection back), closing it when the folder is accepted again, resolving it when a commit or a
re-inference takes the folder away, and reopening it when the rule that resolved it is undone.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from classifier import kb
from classifier.acquisition import rule_kind
from classifier.engine import RuleTree
from classifier.kinds import RuleKind
from classifier.models import Case, Classification, Correction, Rule
from classifier.services.classifications import refresh_review_states
from classifier.services.shared import actor, audit, folder_map

#: the header's count of pending corrections, shown on every page: cached until a correction changes
PENDING_COUNT_KEY = "classifier:pending-corrections-count"
#: how long another process may show a count from before a change (its memory cache, without CACHE_URL)
PENDING_COUNT_SECONDS = 60


def pending_count() -> int:
    """How many rejections wait for their rule (everyone's), read from the cache when a page counted them since
    the last change of a correction (:func:`forget_pending_count`)."""
    count = cache.get(PENDING_COUNT_KEY)
    if count is None:
        count = Correction.objects.filter(state=Correction.State.PENDING).count()
        cache.set(PENDING_COUNT_KEY, count, PENDING_COUNT_SECONDS)
    return count


def forget_pending_count(**_signal) -> None:
    """Corrections changed: the cached count goes now, and again once the change commits (a page counted
    meanwhile saw the corrections as they were). Connected to every save and delete of a correction
    (classifier/apps.py); the bulk updates here call it themselves."""
    cache.delete(PENDING_COUNT_KEY)
    transaction.on_commit(lambda: cache.delete(PENDING_COUNT_KEY))


def correction_kind(kind: str) -> RuleKind:
    """The rule a rejection waits for: a stopping or a refining rule (a new rule gives a folder, never takes one)."""
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
    concluded = folder_map(kb.current().tree, Case.objects.get(pk=found.case_id).keyword_set)
    Classification.objects.filter(case_id=found.case_id, folder_id=found.folder_id).update(
        state=before.get("state", Classification.State.SUGGESTED),
        rule_id=concluded.get(found.folder_id),
        decided_by_id=before.get("decided_by_id"),
        decided_at=before.get("decided_at"),
        updated_at=timezone.now(),
    )
    found.state, found.closed_by, found.closed_at = Correction.State.WITHDRAWN, actor(user), timezone.now()
    found.save(update_fields=["state", "closed_by", "closed_at"])
    refresh_review_states([found.case_id])
    audit(user, "correction.withdraw", correction=found.pk, case=found.case_id, folder=found.folder_id)
    return found


def close_corrections(case_id: int, folder_ids: Iterable[int], user, now) -> list[int]:
    """Close as withdrawn the case's pending corrections of these folders (an expert accepted them again)."""
    qs = Correction.objects.filter(case_id=case_id, folder_id__in=list(folder_ids), state=Correction.State.PENDING)
    ids = list(qs.values_list("id", flat=True))
    qs.update(state=Correction.State.WITHDRAWN, closed_by=actor(user), closed_at=now)
    forget_pending_count()
    return ids


def resolve_corrections(
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
        if correction.folder_id in folder_map(tree, words):
            continue
        under = (r for r in rules if r.parent_id is not None and tree.get(r.parent_id).folder == correction.folder_id)
        correction.state, correction.rule = Correction.State.RESOLVED, next(under, rules[0] if rules else None)
        correction.closed_by, correction.closed_at = actor(user), now
        resolved.append(correction)
    Correction.objects.bulk_update(resolved, ["state", "rule", "closed_by", "closed_at"])
    forget_pending_count()
    return resolved


def reopen_corrections(tree: RuleTree, rule_ids: list[int]) -> list[int]:
    """The corrections these (undone) rules resolved whose folder ``tree`` gives the case again: pending again,
    so that the rejection waits for its rule as before the commit; returns their ids."""
    resolved = Correction.objects.filter(rule_id__in=rule_ids, state=Correction.State.RESOLVED).select_related("case")
    again = [c for c in resolved if c.folder_id in folder_map(tree, c.case.keyword_set)]
    for correction in again:
        correction.state, correction.rule, correction.closed_by, correction.closed_at = (
            Correction.State.PENDING,
            None,
            None,
            None,
        )
    Correction.objects.bulk_update(again, ["state", "rule", "closed_by", "closed_at"])
    forget_pending_count()
    refresh_review_states(c.case_id for c in again)
    return [c.pk for c in again]
