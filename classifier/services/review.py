"""An expert's review of articles: accepting and rejecting the folders the knowledge base suggests, the inbox's
bulk actions (accept, reviewed with no folder, assign to an expert) and the per-user read marks.

Rejecting a folder the knowledge base still gives opens a pending correction; its later life (withdrawn,
resolved by a rule, reopened by an undo) is :mod:`classifier.services.corrections`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import ngettext

from classifier.kinds import RuleKind
from classifier.models import ArticleRead, Case, Classification, Correction, Folder
from classifier.services.cases import infer
from classifier.services.classifications import decision_rows, refresh_review_states
from classifier.services.corrections import close_corrections, correction_kind
from classifier.services.shared import actor, as_folder_id, audit
from foundation import roles
from monitor.models import Article

#: why accepting "as is" is refused, one article or many (the API, the workspace and the bulk action say it alike)
NO_SUGGESTIONS = "no suggestions to accept"


@transaction.atomic
def accept(case: Case, user, folders: Iterable[Folder | int] | None = None) -> list[Classification]:
    """Accept the case's current suggestions (all, or those of the given folders); audited.

    A rejected folder given explicitly is turned back into accepted. A folder the case has no
    classification for is an error: adding a folder goes through a rule (commit_rule). So is accepting
    "as is" a case with no pending suggestion (nothing would change; the bulk action refuses it too).
    """
    rows = Classification.objects.select_for_update().filter(case=case)
    if folders is None:
        targets = list(rows.filter(state=Classification.State.SUGGESTED))
        if not targets:
            raise ValidationError(NO_SUGGESTIONS)
    else:
        wanted = {as_folder_id(f) for f in folders}
        targets = list(rows.filter(folder_id__in=wanted))
        missing = wanted - {row.folder_id for row in targets}
        if missing:
            paths = sorted(Folder.objects.filter(id__in=missing).values_list("path", flat=True)) or sorted(
                map(str, missing)
            )
            raise ValidationError(f"case {case.pk} has no classification in {paths}; add it with a rule instead")
    now = timezone.now()
    for row in targets:
        row.state, row.decided_by, row.decided_at = Classification.State.ACCEPTED, actor(user), now
        row.updated_at = now
    Classification.objects.bulk_update(targets, ["state", "decided_by", "decided_at", "updated_at"])
    # a rejected folder accepted again: the rule it waited for is no longer wanted
    withdrawn = close_corrections(case.pk, [row.folder_id for row in targets], user, now)
    refresh_review_states([case.pk])
    audit(
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
    folder_id = as_folder_id(folder)
    if folder_id is None:
        raise ValidationError("choose the folder to reject")
    kind = correction_kind(kind)
    row = Classification.objects.select_for_update().filter(case=case, folder_id=folder_id).first()
    if row is None:
        raise ValidationError(f"case {case.pk} is not classified in folder {folder_id}")
    before = decision_rows(case.pk, [folder_id])[0]["row"]
    now = timezone.now()
    row.state, row.decided_by, row.decided_at = Classification.State.REJECTED, actor(user), now
    row.save(update_fields=["state", "decided_by", "decided_at", "updated_at"])
    correction = None
    if folder_id in {c.folder for c in infer(case)}:
        correction = Correction.objects.filter(case=case, folder_id=folder_id, state=Correction.State.PENDING).first()
        if correction is None:
            correction = Correction.objects.create(
                case=case, folder_id=folder_id, kind=kind, rejected_by=actor(user), rejected_at=now, row_before=before
            )
    refresh_review_states([case.pk])
    audit(
        user,
        "classification.reject",
        case=case.pk,
        folder=folder_id,
        **({"correction": correction.pk} if correction else {}),
    )
    return row


# --------------------------------------------------------------------------- bulk actions
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
            f"{what} refused for {len(refused)} of {len(items)} selected "
            f"{ngettext('article', 'articles', len(items))}; nothing was changed.",
            items,
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
        else BulkItem(pk, title, False, NO_SUGGESTIONS)
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
    """Record that each article was reviewed and belongs in no folder (it counts as reviewed); one audit
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
    Case.objects.filter(pk__in=case_ids).update(no_folder_by=actor(user), no_folder_at=now)
    refresh_review_states(case_ids)
    for pk, _, case in targets:
        assert case is not None  # checked above
        audit(user, "case.no_folder", case=case.pk, article=pk)
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
    Article.objects.filter(pk__in=ids).update(assignee=assignee, assigned_by=actor(user), assigned_at=now)
    done = []
    for pk, title, case in targets:
        assert case is not None  # checked above
        was = before.get(pk)
        audit(user, "article.assign", case=case.pk, article=pk, assignee=to, previous=was)
        note = f"assigned to {to}" if to else "unassigned"
        done.append(BulkItem(pk, title, True, note + (f" (was {was})" if was and was != to else "")))
    return done


# --------------------------------------------------------------------------- per-user state
def mark_read(article_ids: Iterable[int], user) -> None:
    """The articles are read by ``user`` (the inbox's "mark read"). Personal state, not audited; a read article
    stays read from its first reading (a conflict keeps the row). Ids of no article are left out."""
    existing = Article.objects.filter(pk__in=list(article_ids)).values_list("id", flat=True)
    ArticleRead.objects.bulk_create([ArticleRead(user=user, article_id=pk) for pk in existing], ignore_conflicts=True)


def mark_opened(article: Article, user) -> None:
    """``user`` opened the article's page: it is read by them, in one INSERT that a first reading's row wins
    (no look-up first: the article was just loaded, and is read again on every later visit)."""
    ArticleRead.objects.bulk_create([ArticleRead(user=user, article_id=article.pk)], ignore_conflicts=True)


def mark_unread(article_ids: Iterable[int], user) -> int:
    """The articles are unread by ``user`` again; how many were read."""
    deleted, _ = ArticleRead.objects.filter(user=user, article_id__in=list(article_ids)).delete()
    return deleted
