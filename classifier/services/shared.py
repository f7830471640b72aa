"""The small helpers every subject of the services shares: folder and case ids from models or ids, the acting
user, the audit entry, keyword checking, chunked id lists and a case's folders under a rule tree.

Internal to the classifier (its services and the knowledge-base exchange): other apps call the use cases that
:mod:`classifier.services` re-exports.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from django.core.exceptions import ValidationError

from classifier.engine import RuleTree, keyword_set
from classifier.models import AuditEntry, Case, Folder

CHUNK = 2000  # ids per IN (...) query; well below SQLite's variable limit


def as_folder_id(folder: Folder | int | None) -> int | None:
    """A folder given as a Folder or its id, as its id (None stays None); anything else is refused."""
    if folder is None:
        return None
    if isinstance(folder, Folder):
        return folder.pk
    if isinstance(folder, bool) or not isinstance(folder, int):
        raise ValidationError(f"a folder must be a Folder or a folder id, not {folder!r}")
    return folder


def as_case_id(case: Case | int) -> int:
    """A case given as a Case or its id, as its id."""
    return case.pk if isinstance(case, Case) else int(case)


def actor(user):
    """The user to store in a foreign key (None for anonymous / system changes)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return user


def audit(user, action: str, **details) -> AuditEntry:
    """Write the audit entry of a change (every knowledge-base change has one)."""
    return AuditEntry.objects.create(actor=actor(user), action=action, details=details)


def valid_keyword_set(words: Iterable[str], what: str) -> frozenset[str]:
    """engine.keyword_set, its errors as ValidationError (for views and forms)."""
    try:
        return keyword_set(words, what)
    except (TypeError, ValueError) as exc:
        raise ValidationError(str(exc)) from exc


def chunks(items: list, size: int = CHUNK) -> Iterator[list]:
    """``items`` in slices of ``size`` (one IN (...) query each)."""
    for start in range(0, len(items), size):
        yield items[start : start + size]


def folder_map(tree: RuleTree, keywords: frozenset[str]) -> dict[int, int]:
    """folder id -> the rule that concludes it (the first conclusion by rule path)."""
    result: dict[int, int] = {}
    for conclusion in tree.infer(keywords):
        result.setdefault(conclusion.folder, conclusion.rule_id)
    return result
