"""Folders: creating, renaming and moving them (their subtree's stored paths follow), their feeds' privacy,
merging one into another and deleting one.

Rules and classifications point at folder ids, so renaming and moving change no conclusion and keep the
knowledge-base version; a merge retargets the rules (same ids) and publishes the knowledge base. The admin and the
workspace both call these functions.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace

from django.core.exceptions import ValidationError
from django.db import transaction

from classifier import kb
from classifier.engine import RuleTree
from classifier.models import Case, Classification, Correction, Folder, Rule, validate_folder_name
from classifier.services.classifications import SyncResult, refresh_review_states, sync_classifications
from classifier.services.shared import audit, folder_map


def split_path(path: str) -> list[str]:
    """The names along a folder path ("Health/Diabetes"), each a valid folder name: the one definition of a valid
    path (the knowledge-base import checks its folders with it)."""
    if not isinstance(path, str) or not path.strip(Folder.SEPARATOR).strip():
        raise ValidationError(f"invalid folder path {path!r}")
    parts = [part.strip() for part in path.strip().strip(Folder.SEPARATOR).split(Folder.SEPARATOR)]
    for part in parts:
        validate_folder_name(part)
    return parts


@transaction.atomic
def create_folder(path: str, user, public: bool = True) -> Folder:
    """The folder at ``path`` ("Health/Diabetes"), creating it and any missing parents; idempotent, and the same
    folder whatever the case of its names ("health/diabetes").

    ``public`` applies to the folders it creates; an existing folder is returned unchanged. Privacy is
    inherited: a folder created under a private one is private whatever ``public`` says (its public feed
    would name its private parents).
    """
    parent = None
    folder: Folder | None = None
    for part in split_path(path):
        # case aside: "health/diabetes" is the Health/Diabetes folder, not a second one beside it (a live trial)
        folder = Folder.objects.filter(parent=parent, name__iexact=part).order_by("pk").first()
        if folder is None:
            folder = Folder(parent=parent, name=part, public=public and (parent is None or parent.public))
            folder.path = folder.compute_path()
            folder.save()
            audit(user, "folder.create", folder=folder.pk, path=folder.path, public=public)
        parent = folder
    assert folder is not None  # split_path gives one part at least
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
        audit(user, "folder.public", folder=folder.pk, path=folder.path, public=folder.public)
    if not folder.public:
        below = list(Folder.objects.filter(folder.subtree_q(itself=False), public=True).values_list("pk", "path"))
        if below:
            Folder.objects.filter(pk__in=[pk for pk, _ in below]).update(public=False)
            audit(user, "folder.public", folder=folder.pk, subtree=[path for _, path in below], public=False)
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
    if Folder.objects.filter(parent=parent, name__iexact=name).exclude(pk=exclude).exists():
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
    audit(user, "folder.rename", folder=folder.pk, old_path=old_path, path=folder.path, descendants=moved)
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
    audit(user, "folder.move", folder=folder.pk, old_path=old_path, path=folder.path, descendants=moved)
    if new_parent is not None and not new_parent.public:  # moved under a private folder: private with it
        set_folder_public(folder, False, user)
    given.refresh_from_db()
    return given


# --------------------------------------------------------------------------- merging and deleting
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


def _refuse_merge(tree: RuleTree, source: Folder, target: Folder) -> None:
    """Refuse, with the reason, a merge of ``source`` into ``target`` that would break the folder tree (the
    same folder, its own subfolder, two subfolders of one name) or the rule tree (:func:`_merged_rule_clash`)."""
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
    clash = _merged_rule_clash(tree, source.pk, target.pk)
    if clash:
        raise ValidationError(f"{source.path} cannot be merged into {target.path}: {clash}")


def _drop_losing_rows(source: Folder, target: Folder) -> tuple[dict[int, tuple[int, str]], list[dict]]:
    """Delete the lower-ranked row (:data:`_MERGE_RANK`) of each case classified in both folders; returns the
    source's rows by case id (id, state) and the dropped rows (case, row id, state)."""
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
    return moving, dropped


def _move_subfolders(source: Folder, target: Folder, user) -> list[Folder]:
    """Move ``source``'s subfolders (with their subtrees) under ``target``, private under a private target."""
    children = list(source.children.order_by("name"))
    for child in children:
        old_path = child.path
        child.parent = target
        child.path = child.compute_path()
        child.save(update_fields=["parent", "path"])
        _repath(child, old_path)
        if not target.public:  # a public feed below a private folder would name it
            set_folder_public(child, False, user)
    return children


def _move_dependents(source: Folder, target: Folder) -> tuple[int, int]:
    """Move ``source``'s corrections, saved searches and subscriptions to ``target``; returns how many saved
    searches and subscriptions moved (a user's second subscription stays, to go with ``source``)."""
    # pending corrections follow their rows; one the target already has for the case goes with the source
    waiting = Correction.objects.filter(folder=target, state=Correction.State.PENDING).values("case_id")
    Correction.objects.filter(folder=source).exclude(state=Correction.State.PENDING, case_id__in=waiting).update(
        folder=target
    )
    searches = source.saved_searches.update(folder=target)
    subscribed = target.subscriptions.values("user_id")
    kept = source.subscriptions.exclude(user_id__in=subscribed).update(folder=target)
    return searches, kept


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
    _refuse_merge(snapshot.tree, source, target)
    retargeted = [r for r in snapshot.tree if r.folder == source.pk]
    new = snapshot.derive(
        remove=[r.id for r in retargeted],
        add=[replace(r, folder=target.pk) for r in retargeted],
    )
    # the rows of both folders for the cases that have one in each: the lower-ranked of each pair goes
    moving, dropped = _drop_losing_rows(source, target)
    # updated_at and decided_at stay: the feeds keep their order and alerts do not announce the articles again
    moved = Classification.objects.filter(folder=source).update(folder=target)
    Rule.objects.filter(folder=source).update(folder=target)
    children = _move_subfolders(source, target, user)
    searches, kept = _move_dependents(source, target)
    dependents = folder_dependents(source)  # what is left goes with it
    sync = SyncResult()
    published_version = snapshot.version
    if retargeted:
        desired = {
            pk: folder_map(new.tree, frozenset(words))
            for pk, words in Case.objects.filter(id__in=list(moving)).values_list("id", "keywords")
        }
        sync = sync_classifications(desired)
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
    audit(user, "folder.merge", **details)
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
    audit(user, "folder.delete", folder=folder.pk, path=folder.path, **asdict(dependents))
    folder.delete()
    refresh_review_states(cases)
    return dependents
