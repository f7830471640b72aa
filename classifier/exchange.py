"""Export and import of the whole knowledge base (folders, rules, cornerstone cases) as JSON.

The document names folders by path and numbers rules and cases from 1 in id order, so it does not
depend on database ids: export -> import into an empty database -> export gives the identical text.
Not exported: articles (a cornerstone case keeps its keywords and its `source` URL), classifications
(they are re-inferred on import), rule authors (they stay in the source's audit log).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from classifier import kb, services
from classifier.engine import Rule as EngineRule
from classifier.engine import RuleTree, keyword_set
from classifier.features import FeatureSettings
from classifier.models import Case, CaseKeyword, Folder, Rule, RuleCornerstone
from classifier.services.folders import split_path
from classifier.services.shared import audit

FORMAT = "wims-mcrdr-kb"
#: 2: the knowledge base's feature settings (stemming, phrases, scopes: classifier.features) and each rule's
#: accepted cornerstone cases; version 1 files (words only, one cornerstone case per rule) still import
FORMAT_VERSION = 2
READABLE_VERSIONS = (1, 2)


def _time(value: datetime) -> str:
    return value.astimezone(UTC).isoformat()


def export_kb() -> dict:
    """The knowledge base as a JSON-ready dict (read in one transaction, so it is a consistent snapshot)."""
    with transaction.atomic():
        folders = [
            {"path": path, "public": public, "created_at": _time(created)}
            for path, public, created in Folder.objects.order_by("path").values_list("path", "public", "created_at")
        ]
        rules = list(
            Rule.objects.order_by("id").values_list(
                "id", "parent_id", "folder__path", "conditions", "absent", "cornerstone_id", "created_at"
            )
        )
        accepted: dict[int, list[int]] = {}
        for rule_id, case_id in RuleCornerstone.objects.filter(decision=RuleCornerstone.Decision.ACCEPTED).values_list(
            "rule_id", "case_id"
        ):
            accepted.setdefault(rule_id, []).append(case_id)
        stone_ids = sorted(
            {row[5] for row in rules if row[5] is not None} | {c for ids in accepted.values() for c in ids}
        )
        features = kb.current().features.to_dict()
        cases = {
            pk: (words, source, created)
            for pk, words, source, created in Case.objects.filter(id__in=stone_ids).values_list(
                "id", "keywords", "source", "created_at"
            )
        }
    case_no = {pk: n for n, pk in enumerate(stone_ids, start=1)}
    rule_no = {row[0]: n for n, row in enumerate(rules, start=1)}
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "features": features,
        "folders": folders,
        "cases": [
            {
                "id": case_no[pk],
                "keywords": sorted(cases[pk][0]),
                "source": cases[pk][1],
                "created_at": _time(cases[pk][2]),
            }
            for pk in stone_ids
        ],
        "rules": [
            {
                "id": rule_no[pk],
                "parent": rule_no[parent] if parent else None,
                "folder": folder,
                "conditions": sorted(cond),
                "absent": sorted(absent),
                "cornerstone": case_no[stone] if stone else None,
                "accepted": sorted(case_no[c] for c in accepted.get(pk, ())),
                "created_at": _time(created),
            }
            for pk, parent, folder, cond, absent, stone, created in rules
        ],
    }


def dumps(data: Mapping) -> str:
    """Canonical JSON text: sorted keys, two-space indent, UTF-8 kept, final newline."""
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def export_json() -> str:
    return dumps(export_kb())


# --------------------------------------------------------------------------- import
def _need(item: Mapping, key: str, kind: type | tuple, where: str):
    if not isinstance(item, Mapping) or key not in item:
        raise ValidationError(f"{where}: missing {key!r}")
    return _typed(item, key, kind, where)


def _typed(item: Mapping, key: str, kind: type | tuple, where: str, optional: bool = False):
    """``item[key]`` of type ``kind`` (None allowed when ``optional``); strings without NUL characters, which
    no database column takes."""
    value = item.get(key)
    if optional and value is None:
        return None
    if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
        raise ValidationError(f"{where}: {key!r} has the wrong type ({type(value).__name__})")
    if isinstance(value, str) and "\x00" in value:
        raise ValidationError(f"{where}: {key!r} holds a NUL character")
    return value


def _source(value: str, where: str) -> str:
    limit = Case._meta.get_field("source").max_length or 0
    if len(value) > limit:
        raise ValidationError(f"{where}: 'source' is longer than {limit} characters")
    return value


def _parse_time(value: str, where: str) -> datetime:
    try:
        parsed = datetime.fromisoformat(value)
    except (TypeError, ValueError):
        raise ValidationError(f"{where}: invalid created_at {value!r}") from None
    if timezone.is_naive(parsed):
        raise ValidationError(f"{where}: created_at needs a time zone")
    return parsed


def _words(value, where: str) -> list[str]:
    """The keywords as stored, or a clear error: a file holds them normalised (engine.keyword_set) already."""
    not_a_list = ValidationError(f"{where}: keywords must be a list of non-blank strings")
    if not isinstance(value, list):
        raise not_a_list
    try:
        words = keyword_set(value, "keywords")
    except (TypeError, ValueError):
        raise not_a_list from None
    if words != set(value):
        raise ValidationError(f"{where}: keywords must be a list of non-blank strings without surrounding spaces")
    if len(words) != len(value):
        raise ValidationError(f"{where}: repeated keywords")
    if any("\x00" in w for w in value):
        raise ValidationError(f"{where}: a keyword holds a NUL character")
    if any(len(w) > CaseKeyword.MAX_LENGTH for w in value):
        raise ValidationError(f"{where}: a keyword is longer than {CaseKeyword.MAX_LENGTH} characters")
    return sorted(value)


def _check(data: Mapping) -> tuple[list, dict, list]:
    """Validate the document and return (folders, cases by number, rules in order) or raise ValidationError."""
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise ValidationError(f"not a knowledge-base export (expected format {FORMAT!r})")
    version = data.get("format_version")
    if version not in READABLE_VERSIONS or isinstance(version, bool):
        raise ValidationError(f"unsupported format_version {version!r}; this WIMS reads {READABLE_VERSIONS}")
    folders = _check_folders(_need(data, "folders", list, "document"))
    cases = _check_cases(_need(data, "cases", list, "document"))
    paths = {path for path, *_rest in folders}
    rules = _check_rules(_need(data, "rules", list, "document"), paths, cases)
    _check_tree(rules, paths)
    return folders, cases, rules


def _check_folders(items: list) -> list[tuple]:
    """The folders as (path, name, parent path or None, public, created_at), each after its parent."""
    folders = []
    paths: set[str] = set()
    for n, item in enumerate(items):
        where = f"folders[{n}]"
        path = _need(item, "path", str, where)
        parts = split_path(path)  # the one place that defines valid paths
        if Folder.SEPARATOR.join(parts) != path or path in paths:
            raise ValidationError(f"{where}: invalid or repeated path {path!r}")
        parent = Folder.SEPARATOR.join(parts[:-1])
        if parent and parent not in paths:
            raise ValidationError(f"{where}: parent folder {parent!r} must come before {path!r}")
        paths.add(path)
        folders.append(
            (
                path,
                parts[-1],
                parent or None,
                _need(item, "public", bool, where),
                _parse_time(_need(item, "created_at", str, where), where),
            )
        )
    return folders


def _check_cases(items: list) -> dict[int, tuple]:
    """The cornerstone cases by their number in the document: (keywords, source, created_at)."""
    cases: dict[int, tuple] = {}
    for n, item in enumerate(items):
        where = f"cases[{n}]"
        number = _need(item, "id", int, where)
        if number in cases:
            raise ValidationError(f"{where}: repeated case id {number}")
        cases[number] = (
            _words(_need(item, "keywords", list, where), where),
            _source(_need(item, "source", str, where), where),
            _parse_time(_need(item, "created_at", str, where), where),
        )
    return cases


def _check_rules(items: list, paths: set[str], cases: Mapping[int, tuple]) -> list[tuple]:
    """The rules in document order as (number, parent number, folder path, conditions, absent, cornerstone case
    number, created_at, accepted case numbers), each after its parent."""
    rules: list[tuple] = []
    seen: set[int] = set()
    for n, item in enumerate(items):
        rules.append(_check_rule(item, f"rules[{n}]", seen, paths, cases))
        seen.add(rules[-1][0])
    return rules


def _check_rule(item: Mapping, where: str, seen: set[int], paths: set[str], cases: Mapping[int, tuple]) -> tuple:
    """One rule of the document, its parent among the ``seen`` rules, its folder and cases known."""
    number = _need(item, "id", int, where)
    parent = _typed(item, "parent", int, where, optional=True)
    folder = _typed(item, "folder", str, where, optional=True)
    stone = _typed(item, "cornerstone", int, where, optional=True)
    if number in seen:
        raise ValidationError(f"{where}: repeated rule id {number}")
    if parent is not None and parent not in seen:
        raise ValidationError(f"{where}: parent rule {parent!r} must come before rule {number}")
    if folder is not None and folder not in paths:
        raise ValidationError(f"{where}: unknown folder {folder!r}")
    if stone is not None and stone not in cases:
        raise ValidationError(f"{where}: unknown cornerstone case {stone!r}")
    accepted = _typed(item, "accepted", list, where, optional=True) or []
    if any(not isinstance(c, int) or isinstance(c, bool) or c not in cases for c in accepted):
        raise ValidationError(f"{where}: accepted names an unknown cornerstone case")
    conditions = _words(_need(item, "conditions", list, where), where)
    absent = _words(_need(item, "absent", list, where), where)
    if stone is not None:
        words = set(cases[stone][0])
        if not set(conditions) <= words or words & set(absent):
            raise ValidationError(f"{where}: rule {number} does not fire on its own cornerstone case")
    created = _parse_time(_need(item, "created_at", str, where), where)
    return number, parent, folder, conditions, absent, stone, created, sorted(set(accepted))


def _check_tree(rules: list[tuple], paths: set[str]) -> None:
    """Refuse rules that do not form a valid MCRDR tree (the engine's own checks, folder paths standing in for
    ids: the engine only compares them)."""
    try:
        tree = RuleTree()
        folder_no = {path: n for n, path in enumerate(sorted(paths), start=1)}
        for number, parent, folder, conditions, absent, *_rest in rules:
            tree.add(EngineRule(number, parent, folder_no.get(folder), frozenset(conditions), frozenset(absent)))
    except (TypeError, ValueError) as exc:
        raise ValidationError(f"the rules do not form a valid MCRDR tree: {exc}") from exc


def _features(data: Mapping) -> FeatureSettings | None:
    """The document's feature settings (version 2), or None (version 1: keep this knowledge base's)."""
    if data.get("format_version") == 1:
        return None
    raw = data.get("features")
    if not isinstance(raw, Mapping):
        raise ValidationError("features: expected an object (stemming, phrases, scopes)")
    try:
        return FeatureSettings.from_dict(dict(raw))
    except ValueError as exc:
        raise ValidationError(f"features: {exc}") from exc


@transaction.atomic
def import_kb(data: Mapping, user=None) -> dict:
    """Load an exported knowledge base into a database without rules; returns counts.

    Existing folders with the same path are reused; existing cases are re-inferred with the imported
    rules. Everything happens in one transaction under the knowledge-base lock, and is audited.
    """
    folders, cases, rules = _check(data)
    features = _features(data)
    kb.locked()
    if Rule.objects.exists():
        raise ValidationError("the knowledge base already has rules; import only into an empty one")
    if features is not None:
        services.set_feature_settings(features, user)  # no rules yet: always allowed; rebuilds existing cases
    by_path = {f.path: f for f in Folder.objects.all()}
    created_folders = 0
    for path, name, parent, public, created in folders:
        if path not in by_path:
            folder = Folder(
                name=name, parent=by_path[parent] if parent else None, path=path, public=public, created_at=created
            )
            folder.save()
            by_path[path] = folder
            created_folders += 1
    numbers = sorted(cases)
    stored = Case.objects.bulk_create(
        [Case(keywords=cases[n][0], source=cases[n][1], created_at=cases[n][2]) for n in numbers]
    )
    case_pk = {n: case.pk for n, case in zip(numbers, stored, strict=True)}
    CaseKeyword.objects.bulk_create(
        [CaseKeyword(case_id=case_pk[n], keyword=w) for n in numbers for w in cases[n][0]], batch_size=5000
    )
    # rules in document order (ids keep that order: undo and export rely on "later rule, higher id"),
    # then their parent links, which may only point backwards
    made = Rule.objects.bulk_create(
        [
            Rule(
                folder=by_path[folder] if folder else None,
                conditions=conditions,
                absent=absent,
                cornerstone_id=case_pk[stone] if stone else None,
                created_at=created,
            )
            for _number, _parent, folder, conditions, absent, stone, created, _accepted in rules
        ],
        batch_size=1000,
    )
    rule_pk = {r[0]: m.pk for r, m in zip(rules, made, strict=True)}
    if [m.pk for m in made] != sorted(m.pk for m in made):
        raise ValidationError("the database did not assign rule ids in order; import aborted")
    children = []
    for (_number, parent, *_rest), model in zip(rules, made, strict=True):
        if parent is not None:
            model.parent_id = rule_pk[parent]
            children.append(model)
    Rule.objects.bulk_update(children, ["parent"], batch_size=1000)
    RuleCornerstone.objects.bulk_create(
        [
            RuleCornerstone(rule_id=m.pk, case_id=m.cornerstone_id, decision=RuleCornerstone.Decision.MADE)
            for m in made
            if m.cornerstone_id
        ]
        + [
            RuleCornerstone(rule_id=m.pk, case_id=case_pk[n], decision=RuleCornerstone.Decision.ACCEPTED)
            for r, m in zip(rules, made, strict=True)
            for n in r[7]
            if case_pk[n] != m.cornerstone_id
        ],
        batch_size=1000,
    )
    kb.publish(kb.load("", 0))
    result = {"folders": created_folders, "cases": len(stored), "rules": len(rules)}
    audit(user, "kb.import", **result)
    services.reinfer_all(user)
    return result


def import_json(text: str, user=None) -> dict:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValidationError(f"not valid JSON: {exc}") from exc
    except RecursionError:
        raise ValidationError("not a knowledge-base export: JSON nested too deeply") from None
    return import_kb(data, user)
