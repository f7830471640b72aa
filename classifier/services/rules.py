"""Committing and undoing rules: the knowledge base changes only here (and in a folder merge, which retargets rules).

A commit re-checks the draft under the knowledge-base lock (its version, its place in the tree, every cornerstone
case it would change decided on, the articles kept unchanged still unchanged), stores the rules with their
cornerstone cases, records the expert's decisions, re-infers only the stored cases the rules can reach, resolves the
pending corrections they answer and publishes the new knowledge base; an undo takes the last commit back the same
way. Drafting and validating the rule before the commit is :mod:`classifier.services.validation`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from classifier import kb
from classifier.acquisition import RuleProposal, rule_kind
from classifier.acquisition import apply as apply_proposal
from classifier.engine import Rule as EngineRule
from classifier.engine import keyword_set
from classifier.kinds import RuleKind
from classifier.models import AuditEntry, Case, Classification, Folder, Rule, RuleCornerstone
from classifier.services.cases import case_titles
from classifier.services.classifications import (
    SyncResult,
    add_ground_breaking,
    cases_reached,
    decision_rows,
    reclassified,
    refresh_review_states,
    sync_classifications,
)
from classifier.services.corrections import reopen_corrections, resolve_corrections
from classifier.services.shared import (
    CHUNK,
    actor,
    as_case_id,
    as_folder_id,
    audit,
    chunks,
    folder_map,
    valid_keyword_set,
)
from classifier.services.validation import cornerstones_to_decide, draft_proposal, kept_changes
from foundation import roles

#: A cornerstone case whose folders a commit changes: case id -> (its folders before, after)
Changes = dict[int, tuple[set[int], set[int]]]


# --------------------------------------------------------------------------- commit
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
    if (
        not valid_keyword_set(conditions, "conditions")
        and not valid_keyword_set(absent, "absent")
        and kind != RuleKind.STOP
    ):
        # one rule shape everywhere: a rule of absent keywords only is a rule (the engine and page take it);
        # a stopping rule needs no keyword of its own ("not this folder here")
        raise ValidationError("a rule needs at least one keyword, present or absent (pick from the difference list)")
    snapshot = kb.locked()
    case = Case.objects.get(pk=case.pk)  # the stored keywords, not a stale instance
    same = _same_commit(case, kind, folder, wrong_folder, conditions, absent)
    if same:
        return same
    proposal = draft_proposal(snapshot.tree, case, kind, folder, wrong_folder, conditions, absent)
    if version is not None and version != snapshot.version:
        raise ValidationError(
            f"the knowledge base changed since this rule was checked (version {version}, now {snapshot.version}): "
            "check the rule again before committing it"
        )
    try:
        apply_proposal(snapshot.tree, proposal, snapshot.tree.max_id + 1)  # placement check only
    except ValueError as exc:
        raise ValidationError(str(exc)) from exc
    accepted = _accepted_changes(snapshot, proposal, case.pk, accepted_cornerstones)
    _refuse_kept_changes(snapshot, proposal, kept_cases, case.pk)
    return _store_commit(snapshot, case, kind, proposal, as_folder_id(wrong_folder), accepted, user)


def _accepted_changes(
    snapshot: kb.Snapshot, proposal: RuleProposal, case_id: int, accepted_cornerstones: Iterable[Case | int] | None
) -> Changes:
    """The cornerstone cases whose change the expert accepted, by id, with their folders before and after.

    Refused, naming them, when the proposal would change a cornerstone case that is not among them (nobody decided
    on that change); ``None`` (scripts, imports): nothing is checked and nothing accepted.
    """
    if accepted_cornerstones is None:
        return {}
    changing = cornerstones_to_decide(snapshot, proposal, case_id)
    wanted = {as_case_id(c) for c in accepted_cornerstones}
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
    return {i: changing[i] for i in sorted(wanted & set(changing))}


def _refuse_kept_changes(
    snapshot: kb.Snapshot, proposal: RuleProposal, kept_cases: Iterable[Case | int], case_id: int
) -> None:
    """Refuse the proposal while it would still change a case the expert excluded from the "would reclassify" list."""
    still = sorted(kept_changes(snapshot, proposal, kept_cases, case_id))
    if still:
        raise ValidationError(
            f"the rule would still change case{'s' if len(still) != 1 else ''} {', '.join(map(str, still[:10]))}, "
            "which you excluded from the articles it would reclassify: add a condition that leaves "
            f"{'them' if len(still) != 1 else 'it'} unchanged, or take the exclusion back"
        )


def _store_commit(
    snapshot: kb.Snapshot, case: Case, kind: str, proposal: RuleProposal, wrong_id: int | None, accepted: Changes, user
) -> list[Rule]:
    """Store the checked proposal's rules and everything they change, publish the knowledge base, audit the commit.

    The accepted cornerstone changes and the expert's own decisions on ``case`` are recorded first, so that the
    re-inference finds them decided (not as conflicts); a rejected row keeps the rule that gave the folder (its
    rejections count against that rule). Then the stored cases the rules can reach are re-inferred and the pending
    corrections whose folder they take away resolved.
    """
    decisions_before = decision_rows(case.pk, [proposal.folder, wrong_id])
    stones_before = {i: decision_rows(i, before ^ after) for i, (before, after) in accepted.items()}
    now = timezone.now()
    rows = _store_rules(proposal, case, accepted, user, now)
    words = case.keyword_set
    added = [kb.engine_rule(r) for r in rows]
    new = snapshot.derive(add=added, cornerstones={**snapshot.cornerstones, case.pk: words})
    _decide_accepted_changes(snapshot, new, accepted, user)
    concluded = folder_map(new.tree, words)
    if proposal.folder is not None:
        _decide(case.pk, proposal.folder, Classification.State.ACCEPTED, user, concluded.get(proposal.folder))
    if wrong_id is not None:
        _decide(case.pk, wrong_id, Classification.State.REJECTED, user, folder_map(snapshot.tree, words).get(wrong_id))
    sync, reinferred = _reinfer_committed(snapshot, new, proposal, added, case.pk, concluded, now)
    # a folder taken away from a case whose rejection waited for its rule: that rejection is now corrected
    resolved = resolve_corrections(new.tree, {*reinferred, *accepted}, user, now, rows)
    refresh_review_states(c.case_id for c in resolved)
    published = kb.publish(new)
    audit(
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


def _store_rules(proposal: RuleProposal, case: Case, accepted: Changes, user, now) -> list[Rule]:
    """The proposal's rules, one per parent rule, each with ``case`` as the cornerstone case it was made for and
    the cornerstone cases whose change the expert accepted (RuleCornerstone "made" and "accepted")."""
    rows = [
        Rule.objects.create(
            parent_id=parent,
            folder_id=proposal.folder,
            conditions=sorted(proposal.conditions),
            absent=sorted(proposal.absent),
            cornerstone=case,
            created_by=actor(user),
            created_at=now,
        )
        for parent in proposal.parent_ids
    ]
    RuleCornerstone.objects.bulk_create(
        [
            RuleCornerstone(rule=r, case_id=i, decision=decision, decided_by=actor(user), decided_at=now)
            for r in rows
            for i, decision in [
                (case.pk, RuleCornerstone.Decision.MADE),
                *((i, RuleCornerstone.Decision.ACCEPTED) for i in accepted),
            ]
        ]
    )
    return rows


def _decide_accepted_changes(snapshot: kb.Snapshot, new: kb.Snapshot, accepted: Changes, user) -> None:
    """Record each accepted cornerstone change as the expert's decisions: the folders the rules give the case
    accepted (pointing at the new rule that concludes them), those they take away rejected (keeping the rule that
    gave them)."""
    for stone_id, (before, after) in accepted.items():
        concluded = folder_map(new.tree, snapshot.cornerstones[stone_id])
        gave = folder_map(snapshot.tree, snapshot.cornerstones[stone_id])
        for gained in sorted(after - before):
            _decide(stone_id, gained, Classification.State.ACCEPTED, user, concluded.get(gained))
        for lost in sorted(before - after):
            _decide(stone_id, lost, Classification.State.REJECTED, user, gave.get(lost))


def _reinfer_committed(
    snapshot: kb.Snapshot,
    new: kb.Snapshot,
    proposal: RuleProposal,
    added: list[EngineRule],
    case_id: int,
    concluded: dict[int, int],
    now,
) -> tuple[SyncResult, set[int]]:
    """Bring the stored suggestions in line with the new rules; returns what changed and the cases re-inferred.

    A ground-breaking rule only adds its folder, to the cases holding its keywords (one INSERT over the keyword
    index: no inference), so only the commit's own case is re-inferred; a refining or stopping rule re-infers the
    cases holding the keywords of its whole path.
    """
    if proposal.kind == RuleKind.NEW:
        sync = add_ground_breaking(added[0], now)
        sync_classifications({case_id: concluded})
        return sync, {case_id}
    desired = reclassified(snapshot.tree, new.tree, cases_reached(new.tree, added))
    desired[case_id] = concluded
    return sync_classifications(desired), set(desired)


def _same_commit(case: Case, kind, folder, wrong_folder, conditions, absent) -> list[Rule]:
    """The rules of an earlier commit of exactly this draft for this case, when they are all still stored."""
    draft = {
        "kind": str(rule_kind(kind)),
        "folder": as_folder_id(folder),
        "wrong_folder": as_folder_id(wrong_folder) if rule_kind(kind) != RuleKind.NEW else None,
        "conditions": sorted(keyword_set(conditions)),
        "absent": sorted(keyword_set(absent)),
    }
    for entry in AuditEntry.objects.filter(action="rule.commit", details__case=case.pk).order_by("-id")[:20]:
        if all(entry.details.get(key) == value for key, value in draft.items()):
            rules = list(Rule.objects.filter(pk__in=entry.details["rules"]).order_by("pk"))
            if len(rules) == len(entry.details["rules"]):
                return rules
    return []


def _decide(case_id: int, folder_id: int, state: str, user, rule_id: int | None) -> None:
    """The expert's decision on one (case, folder) row, created when missing; the article's review state follows."""
    now = timezone.now()
    Classification.objects.update_or_create(
        case_id=case_id,
        folder_id=folder_id,
        defaults={"state": state, "decided_by": actor(user), "decided_at": now, "rule_id": rule_id},
    )
    refresh_review_states([case_id])


# --------------------------------------------------------------------------- undo
@dataclass(frozen=True)
class _UndoPlan:
    """What undoing the last commit takes back, computed (nothing stored) on ``snapshot``."""

    snapshot: kb.Snapshot
    new: kb.Snapshot
    entry: AuditEntry | None
    ids: list[int]  # the last rule and the rules committed with it
    rules: list[Rule]
    stones: set[int]  # their cornerstone cases


def _undone_rules(
    snapshot: kb.Snapshot, user, rule_id: int | None, last: Rule | None = None
) -> tuple[AuditEntry | None, list[int]]:
    """The commit of the last rule and the ids of the rules it stored, when ``user`` may undo them: every refusal
    of an undo (not the last rule, not theirs, a child rule under them) is raised here, before any re-inference.
    ``last``: the newest rule with its author, when the caller has just read it."""
    last = _last_rule(user, rule_id, last)
    entry = _commit_entry(last.pk)
    group = entry.details["rules"] if entry else []
    ids = sorted({i for i in group if i in snapshot.tree} | {last.pk})
    if _other_children(snapshot, ids):
        raise ValidationError(f"rule {last.pk} has child rules and cannot be undone")
    return entry, ids


def _other_children(snapshot: kb.Snapshot, ids: list[int]) -> bool:
    """Whether a rule outside ``ids`` refines one of them: read from the snapshot's tree, which holds every rule
    row of its version, when it holds them all (a rule committed after the snapshot was read: from the rows)."""
    tree = snapshot.tree
    if all(i in tree for i in ids):
        return any(child.id not in ids for i in ids for child in tree.children(i))
    return Rule.objects.filter(parent_id__in=ids).exclude(id__in=ids).exists()


def _undo_plan(snapshot: kb.Snapshot, user, rule_id: int | None) -> _UndoPlan:
    entry, ids = _undone_rules(snapshot, user, rule_id)
    rules = list(Rule.objects.filter(id__in=ids))
    stones, cornerstones = _cornerstones_after_undo(snapshot, rules, ids)
    new = snapshot.derive(remove=ids, cornerstones=cornerstones)
    return _UndoPlan(snapshot, new, entry, ids, rules, stones)


@dataclass(frozen=True)
class UndoPreview:
    """What the confirm step of an undo says: the rules it removes and how many articles' folders change back."""

    rule_ids: list[int]
    articles: int  # articles whose suggestions change, or whose decisions by the commit are restored


def undo_preview(user, rule_id: int) -> UndoPreview:
    """What :func:`undo_last_rule` would change, without changing it: the same plan on the published knowledge
    base (no lock: the undo itself re-checks under it). Costs one re-inference of the cases the rules changed,
    as the undo does. Raises ValidationError as the undo would (not the last rule, not the expert's, a child)."""
    plan = _undo_plan(kb.current(), user, rule_id)
    desired = _undone_changes(plan.snapshot, plan.new, plan.rules, plan.stones)
    changing = _suggestions_changing(desired)
    if plan.entry is not None:  # the commit's own decisions, on its case and the cornerstone cases it accepted
        details = plan.entry.details
        restored = [details, *details.get("cornerstones", [])]  # each names its case and the decisions it undoes
        changing.update(item["case"] for item in restored if item.get("decisions_before"))
    articles = Case.objects.filter(pk__in=changing, article__isnull=False).count()
    return UndoPreview(plan.ids, articles)


def undo_refusal(user, rule_id: int, *, snapshot: kb.Snapshot | None = None, last: Rule | None = None) -> str:
    """Why :func:`undo_last_rule` would refuse ``user`` the undo of rule ``rule_id``, or "" when it would not: the
    pages show their undo button only to whom it serves. The undo's own checks on the published knowledge base,
    without the re-inference of :func:`undo_preview` (a query or two, cheap enough for every article page).
    ``snapshot`` and ``last``: the knowledge base and the newest rule (with its author), when the page has just
    read them."""
    try:
        _undone_rules(snapshot or kb.current(), user, rule_id, last)
    except ValidationError as exc:
        return "; ".join(exc.messages)
    return ""


def _suggestions_changing(desired: dict[int, dict[int, int]]) -> set[int]:
    """The cases whose suggested folders :func:`sync_classifications` would change for ``desired`` (a suggestion
    added or withdrawn; a decided folder stays as it is, a suggestion only pointed at another rule is no change)."""
    changing: set[int] = set()
    for ids in chunks(sorted(desired)):
        have: dict[int, dict[int, str]] = {}
        rows = Classification.objects.filter(case_id__in=ids).values_list("case_id", "folder_id", "state")
        for case_id, folder_id, state in rows:
            have.setdefault(case_id, {})[folder_id] = state
        for case_id in ids:
            stored = have.get(case_id, {})
            suggested = {f for f, state in stored.items() if state == Classification.State.SUGGESTED}
            if set(desired[case_id]) - set(stored) or suggested - set(desired[case_id]):
                changing.add(case_id)
    return changing


@transaction.atomic
def undo_last_rule(user, rule_id: int | None = None) -> list[int]:
    """Remove the most recent rule (with the sibling rules committed with it); returns their ids.

    ``rule_id`` is the rule the expert saw as the last one (the workspace always sends it): when another
    rule has been committed since, nothing is undone. Only the rule's author, or a knowledge-base
    administrator, may undo it. The affected cases' suggestions are re-inferred without them and the
    cornerstone case's decisions made by that commit are restored. Raises ValidationError when there is no
    rule to undo or the undo is refused. :func:`undo_preview` says beforehand what it changes.
    """
    plan = _undo_plan(kb.locked(), user, rule_id)
    snapshot, new, entry, ids, rules = plan.snapshot, plan.new, plan.entry, plan.ids, plan.rules
    # restore the committing expert's decisions on the cornerstone case, then re-infer
    restored = _restore_decisions(entry, ids) if entry is not None else []
    desired = _undone_changes(snapshot, new, rules, plan.stones)
    sync = sync_classifications(desired)
    reopened = reopen_corrections(new.tree, ids)
    # and the other way: a rejected folder that only the undone rules gave needs no rule any more
    closed = resolve_corrections(new.tree, desired, user, timezone.now())
    refresh_review_states(c.case_id for c in closed)
    Classification.objects.filter(rule_id__in=ids).update(rule_id=None)
    Rule.objects.filter(id__in=ids).delete()
    published = kb.publish(new)
    audit(
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


def _last_rule(user, rule_id: int | None, last: Rule | None = None) -> Rule:
    """The most recent rule, when it is the one the expert saw as the last (``rule_id``) and ``user`` may undo it:
    its author or a knowledge-base administrator. ``last``: the most recent rule, when the caller has read it."""
    if last is None:
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
    return last


def _commit_entry(rule_id: int) -> AuditEntry | None:
    """The audit entry of the commit that stored the rule (among the last 50 commits), or None."""
    for candidate in AuditEntry.objects.filter(action="rule.commit").order_by("-id")[:50]:
        if rule_id in candidate.details.get("rules", []):
            return candidate
    return None


def _cornerstones_after_undo(snapshot: kb.Snapshot, rules: list[Rule], ids: list[int]) -> tuple[set[int], dict]:
    """The cornerstone cases of the undone rules, and the knowledge base's cornerstone cases (id -> keywords)
    without those of them that no other rule keeps."""
    stones = {r.cornerstone_id for r in rules if r.cornerstone_id}
    stones |= set(RuleCornerstone.objects.filter(rule_id__in=ids).values_list("case_id", flat=True))
    still = set(
        Rule.objects.filter(cornerstone_id__in=stones).exclude(id__in=ids).values_list("cornerstone_id", flat=True)
    ) | set(
        RuleCornerstone.objects.filter(case_id__in=stones).exclude(rule_id__in=ids).values_list("case_id", flat=True)
    )
    return stones, {k: v for k, v in snapshot.cornerstones.items() if k not in stones - still}


def _restore_decisions(entry: AuditEntry, ids: list[int]) -> list[int]:
    """Put back the rows the commit of ``entry`` decided as they were before it: the commit's case first, then the
    cornerstone cases whose change it accepted (a rule among the undone ``ids`` is dropped from a restored row).
    Returns the folders restored on the commit's case."""
    restored = []
    decided = [(entry.details["case"], entry.details.get("decisions_before", []))]
    decided += [(item["case"], item["decisions_before"]) for item in entry.details.get("cornerstones", [])]
    for case_id, items in decided:
        for item in items:
            before = item["row"]
            qs = Classification.objects.filter(case_id=case_id, folder_id=item["folder"])
            if before is None:
                qs.delete()
            else:
                qs.update(
                    state=before["state"],
                    rule_id=before["rule_id"] if before["rule_id"] not in ids else None,
                    decided_by_id=before["decided_by_id"],
                    decided_at=before["decided_at"],
                    updated_at=timezone.now(),
                )
            if case_id == entry.details["case"]:
                restored.append(item["folder"])
    refresh_review_states([case_id for case_id, _ in decided])
    return restored


def _undone_changes(
    snapshot: kb.Snapshot, new: kb.Snapshot, rules: list[Rule], stones: set[int]
) -> dict[int, dict[int, int]]:
    """case id -> folder map without the undone rules, for every case they changed and their cornerstone cases.

    A ground-breaking rule changed only the cases where it is the first rule concluding its folder, i.e. those
    whose suggestion points at it; a refining or stopping rule those holding its whole path.
    """
    desired: dict[int, dict[int, int]] = {}
    roots = [r.pk for r in rules if r.parent_id is None]
    if roots:
        pointing = Case.objects.filter(
            classifications__rule_id__in=roots, classifications__state=Classification.State.SUGGESTED
        ).distinct()
        desired.update(
            reclassified(
                snapshot.tree,
                new.tree,
                (
                    (pk, frozenset(words))
                    for pk, words in pointing.values_list("id", "keywords").iterator(chunk_size=CHUNK)
                ),
            )
        )
    desired.update(
        reclassified(
            snapshot.tree,
            new.tree,
            cases_reached(snapshot.tree, [snapshot.tree.get(r.pk) for r in rules if r.parent_id is not None]),
        )
    )
    for case_id, words in Case.objects.filter(id__in=stones).values_list("id", "keywords"):
        desired[case_id] = folder_map(new.tree, frozenset(words))
    return desired
