"""Drafting a rule: the proposal for a case, the cornerstone cases it would change (each needs the expert's
decision: a condition that leaves it unchanged, or "accept this change"), the difference lists that offer those
conditions, and the stored cases it would reclassify.

Nothing here is stored: :func:`validate_rule` and :func:`affected_cases` read the cached knowledge base, the
cornerstone cases and the keyword index; :func:`move_article` turns "move this article" into the rule to draft.
Committing and undoing are :mod:`classifier.services.rules`.
"""

from __future__ import annotations

import collections
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from itertools import islice

from django.core.exceptions import ValidationError
from django.db.models import Count, Q

from classifier import kb
from classifier.acquisition import (
    REACH_READ,
    RankedDifferences,
    RuleProposal,
    changed_cases,
    name_words,
    prior_words,
    proposal_for,
    reached_cases,
    rule_kind,
    scope_decisions,
    suggested_rule,
    suggestions,
)
from classifier.acquisition import difference_list as engine_difference_list
from classifier.engine import RuleTree
from classifier.features import FeatureSettings, proper_names
from classifier.frequencies import case_frequencies
from classifier.kinds import RuleKind
from classifier.models import Case, CaseKeyword, Classification, Folder
from classifier.services.cases import infer
from classifier.services.classifications import cases_holding, cases_reached, count_holding
from classifier.services.shared import as_case_id, as_folder_id, chunks, valid_keyword_set


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


@dataclass(frozen=True)
class Reach:
    """How far the suggested rule reaches among the other stored articles (the page says it beside the rule).

    ``files``: how many it would fire on (file into its folder; a stopping rule: withhold the wrong folder
    from them); ``already``: of those, how many are in the folder now (the knowledge base gives it or an expert
    accepted it there); ``elsewhere``: of the others, how many an expert accepted in another folder.
    """

    files: int
    already: int = 0
    elsewhere: int = 0
    exact: bool = True  # False: ``files`` is how many hold its words, the most it can fire on (REACH_READ)


#: a stopping rule's scope: the stored cases a rule it sits under fires on, each (id, its words)
Scope = list[tuple[int, frozenset[str]]]


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
    # the one-click rule offered while the draft has no condition yet (acquisition.suggested_rule)
    suggested: tuple[str, ...] = ()
    reach: Reach | None = None  # how many other stored articles the suggested rule files (suggested_reach)

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


def draft_proposal(tree: RuleTree, case: Case, kind: str, folder, wrong_folder, conditions, absent) -> RuleProposal:
    """The proposal for a draft rule on ``case`` (acquisition.proposal_for: its parent rules, its keywords), refused
    as a ValidationError for an unknown folder, a condition the case lacks or a rule that does not fit the tree."""
    try:
        kind = rule_kind(kind)
    except ValueError as exc:
        raise ValidationError(str(exc)) from exc
    folder_id, wrong_id = as_folder_id(folder), as_folder_id(wrong_folder)
    for fid in (folder_id, wrong_id):
        if fid is not None and not Folder.objects.filter(pk=fid).exists():
            raise ValidationError(f"no folder {fid}")
    conditions = valid_keyword_set(conditions, "conditions")
    absent = valid_keyword_set(absent, "absent")
    missing = conditions - case.keyword_set
    if missing:
        raise ValidationError(f"conditions must be keywords of the case; case {case.pk} lacks {sorted(missing)}")
    try:
        return proposal_for(tree, case.keyword_set, kind, folder_id, wrong_id, conditions, absent)
    except ValueError as exc:
        raise ValidationError(str(exc)) from exc


def _selected_keywords(snapshot: kb.Snapshot, selected: Iterable[Case | int]) -> tuple[list[int], list[frozenset]]:
    ids = [as_case_id(c) for c in selected]
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
    for ids in chunks(sorted(changed)):
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


def cornerstones_to_decide(snapshot: kb.Snapshot, proposal: RuleProposal, case_id: int) -> dict[int, tuple]:
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
    ids = {as_case_id(c) for c in kept} - {case_id}
    words = {i: snapshot.cornerstones[i] for i in ids if i in snapshot.cornerstones}
    if ids - set(words):
        stored = Case.objects.filter(id__in=ids - set(words)).values_list("id", "keywords")
        words.update((i, frozenset(w)) for i, w in stored)
    return words


def kept_changes(
    snapshot: kb.Snapshot, proposal: RuleProposal, kept: Iterable[Case | int], case_id: int
) -> dict[int, tuple[set, set]]:
    """Case id -> (folders before, after) for the excluded cases that the proposal still changes."""
    return changed_cases(snapshot.tree, proposal, _kept_keywords(snapshot, kept, case_id))


def _decisions(
    words: Iterable[str], folder_id: int | None, wrong_id: int | None, scope: Scope | None = None
) -> dict[str, tuple[int, int]]:
    """word -> (agreeing, holding): of the stored cases with an accepted folder that hold it, how many there are
    and how many of them the rule's decision agrees with: accepted in ``folder_id`` (a new or refining rule), or
    not accepted in ``wrong_id`` (a stopping rule). Words no such case holds are left out (precision unknown).

    A stopping rule's ``scope`` (:func:`_withheld_scope`): only the cases the rule it sits under fires on are
    counted, as only those can it change. Counted over every stored case, the words of most articles ("years",
    "clinics") looked sure -- most articles holding them are not in the wrong folder -- and led its list."""
    target = folder_id if folder_id is not None else wrong_id
    if target is None:
        return {}
    if folder_id is None and scope is not None:
        return _decisions_in_scope(frozenset(words), target, scope)
    accepted = Classification.objects.filter(state=Classification.State.ACCEPTED)
    # each index row is one (word, case): semi-joins on the accepted cases count each case once, where a join
    # with the classifications counted every accepted folder of a case and needed COUNT DISTINCT
    decided = accepted.values("case_id")
    agreeing = accepted.filter(folder_id=target).values("case_id")
    if folder_id is not None:
        decided = decided.exclude(case_id__in=_decided_before(folder_id).exclude(case_id__in=agreeing))
    result: dict[str, tuple[int, int]] = {}
    for chunk in chunks(sorted(words)):
        rows = (
            CaseKeyword.objects.filter(keyword__in=chunk, case_id__in=decided)
            .values("keyword")
            .annotate(n=Count("pk"), hit=Count("pk", filter=Q(case_id__in=agreeing)))
            .values_list("keyword", "n", "hit")
            .order_by()
        )
        for word, n, hit in rows:
            result[word] = (hit if folder_id is not None else n - hit, n)
    return result


def _decided_before(folder_id: int):
    """The cases accepted in a folder above ``folder_id`` before it existed: no evidence against it. A live trial:
    the two insomnia stories accepted in Health/Sleep made "insomnia" 0 % sure for a new Health/Sleep/Insomnia,
    so words no decision had ever seen ranked above the article's subject and the suggested rule was "IF course".
    """
    folder = Folder.objects.filter(pk=folder_id).values_list("path", "created_at").first()
    if folder is None:
        return Classification.objects.none().values("case_id")
    path, created = folder
    above = Folder(path=path).ancestor_paths()
    return Classification.objects.filter(
        state=Classification.State.ACCEPTED, folder__path__in=above, decided_at__lt=created
    ).values("case_id")


def _decisions_in_scope(words: frozenset[str], wrong_id: int, scope: Scope) -> dict[str, tuple[int, int]]:
    """:func:`_decisions` of a stopping rule over the cases of its ``scope`` with an accepted folder, whose words
    the scope holds already: one read of their decisions (acquisition.scope_decisions counts)."""
    accepted = _accepted_folders(pk for pk, _words in scope)
    return scope_decisions(words, wrong_id, ((case_words, accepted[pk]) for pk, case_words in scope if pk in accepted))


def _accepted_folders(case_ids: Iterable[int]) -> dict[int, set[int]]:
    """case id -> the folders an expert accepted it in (no entry: none), read in chunks."""
    accepted: dict[int, set[int]] = collections.defaultdict(set)
    for ids in chunks(sorted(case_ids)):
        stored = Classification.objects.filter(case_id__in=ids, state=Classification.State.ACCEPTED)
        for row_case, folder_id in stored.values_list("case_id", "folder_id"):
            accepted[row_case].add(folder_id)
    return accepted


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
    accepted cases holding it, so it is computed for every condition word but only for the
    :data:`~classifier.acquisition.PRECISION_WORDS` best placed must-be-absent words by the other keys and those
    containing ``search`` (acquisition.suggestions); the others rank as of unknown precision.
    """
    snapshot = kb.current()
    proposal = draft_proposal(snapshot.tree, case, kind, folder, wrong_folder, conditions, absent)
    changed = cornerstones_to_decide(snapshot, proposal, case.pk)
    kept_words = _kept_keywords(snapshot, kept_cases, case.pk)
    kept = changed_cases(snapshot.tree, proposal, kept_words)
    changed.update(kept)
    accepted = ({as_case_id(c) for c in accepted_cornerstones} & set(changed)) - set(kept)
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
    scope = _withheld_scope(snapshot.tree, proposal, case.pk) if proposal.kind == RuleKind.STOP else None
    wrong_id = as_folder_id(wrong_folder)
    differences = _ranked_differences(snapshot.tree, case, proposal, offending, wrong_id, search, scope)
    empty = not (proposal.conditions or proposal.absent)
    suggested, reach = _suggestion(snapshot, case, proposal, differences, offending, scope) if empty else ((), None)
    return Validation(case, proposal, stones, diff, selected, snapshot.version, differences, suggested, reach)


def _suggestion(
    snapshot: kb.Snapshot,
    case: Case,
    proposal: RuleProposal,
    differences: RankedDifferences,
    offending: Mapping[int, frozenset[str]],
    scope: Scope | None,
) -> tuple[tuple[str, ...], Reach | None]:
    """The one-click rule (acquisition.suggested_rule: the article's proper names give way, and its reach over
    the stored cases is narrowed, counted on their keyword index; a stopping rule's over the cases it would
    withhold the folder from, :func:`_withheld_reach` over its ``scope``) and how far it reaches."""
    stop = proposal.kind == RuleKind.STOP
    withheld = _withheld_reach(scope) if scope is not None else None
    words = suggested_rule(
        differences,
        offending,
        reach=withheld or (lambda chosen: count_holding(chosen, other_than=case.pk)),
        proper=_proper_names(case, snapshot.features),
        stop=stop,
    )
    if not words:
        return words, None
    if withheld is not None:  # the cases a stopping rule reaches, read once already: no second read to count them
        return words, Reach(withheld(frozenset(words)))
    return words, suggested_reach(snapshot.tree, case.pk, proposal.with_conditions(words))


def _withheld_scope(tree: RuleTree, proposal: RuleProposal, case_id: int) -> Scope | None:
    """For a stopping rule: the stored cases other than ``case_id`` that a rule it sits under fires on (read once
    through the keyword index), with their words: the only cases it can withhold the wrong folder from. None
    past :data:`REACH_READ` cases holding the words of those rules' paths (the callers count over every stored
    case instead)."""
    parents = frozenset(i for i in proposal.parent_ids if i is not None)
    rows = ((pk, words) for pk, words in cases_reached(tree, [tree.get(i) for i in sorted(parents)]) if pk != case_id)
    read = list(islice(rows, REACH_READ + 1))
    if len(read) > REACH_READ:
        return None
    return [(pk, words) for pk, words in read if tree.explain(words).fired & parents]


def _withheld_reach(scope: Scope) -> Callable[[frozenset[str]], int]:
    """words -> how many cases of a stopping rule's ``scope`` (:func:`_withheld_scope`) it would withhold the
    wrong folder from with those words as its conditions, as :func:`suggested_reach` counts them."""
    return lambda chosen: sum(1 for _pk, words in scope if chosen <= words)


def suggested_reach(tree: RuleTree, case_id: int, proposal: RuleProposal) -> Reach:
    """How far ``proposal`` reaches among the stored cases other than ``case_id``: the cases holding its
    conditions (the keyword index, as :func:`affected_cases` reads them) on which its rule would fire
    (acquisition.reached_cases), and of those the ones in its folder now or accepted in another."""
    holding = count_holding(proposal.conditions, other_than=case_id)
    if holding > REACH_READ:
        return Reach(holding, exact=proposal.kind == RuleKind.NEW)
    rows = (row for row in cases_holding(proposal.conditions, proposal.absent) if row[0] != case_id)
    reached = reached_cases(tree, proposal, rows)
    if proposal.folder is None or not reached:
        return Reach(len(reached))
    accepted = _accepted_folders(reached)
    already = {i for i, now in reached.items() if proposal.folder in now | accepted[i]}
    elsewhere = {i for i in reached if i not in already and accepted[i]}
    return Reach(len(reached), len(already), len(elsewhere))


def _proper_names(case: Case, features: FeatureSettings) -> frozenset[str]:
    """The proper names of the case's article (features.proper_names of its core text), none without one."""
    article = getattr(case, "article", None)
    text = article.extracted.core_text if article is not None else ""
    return proper_names(text, features) if text else frozenset()


def _ranked_differences(
    tree: RuleTree,
    case: Case,
    proposal: RuleProposal,
    offending: Mapping[int, frozenset[str]],
    wrong_id: int | None,
    search: str,
    scope: Scope | None = None,
) -> RankedDifferences:
    """Both difference lists against the ``offending`` cases, ranked as the simulated expert reads them
    (acquisition.suggestions): the stored decisions' precision, earlier rules' words, the article's own DocView
    keywords, the words' rarity among the stored cases and the page's CST weights."""
    words = case.keyword_set
    return suggestions(
        words,
        offending,
        lambda front: _decisions(front, proposal.folder, wrong_id, scope),
        prior=prior_words(tree, proposal, wrong_id),
        chosen=proposal.conditions | proposal.absent,
        weights=_token_weights(case),
        keywords=_article_keywords(case),
        frequency=case_frequencies(words),
        named=_folder_name_words(proposal.folder),
        search=search,
    )


def _folder_name_words(folder_id: int | None) -> frozenset[str]:
    """The words of the target folder's own name (acquisition.name_words), none for a stopping rule."""
    path = Folder.objects.filter(pk=folder_id).values_list("path", flat=True).first() if folder_id else None
    return name_words(path) if path else frozenset()


def _article_keywords(case: Case) -> dict[str, float]:
    """The article's DocView keywords with their weights, as processing stored them ({} without an article)."""
    article = getattr(case, "article", None)
    stored = article.extracted.keywords if article is not None else None
    return {str(pair[0]): float(pair[1]) for pair in stored or () if isinstance(pair, (list, tuple)) and len(pair) == 2}


def _token_weights(case: Case) -> dict[str, float]:
    """The CST weights of the words of the case's page, as processing stored them (a site with a learned style
    tree; filters.sst), or none."""
    article = getattr(case, "article", None)
    extraction = (article.extracted.extraction if article is not None else None) or {}
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
            rows.update(cases_holding(present, missing))
    else:
        rows = dict(cases_holding(proposal.conditions, proposal.absent))
    rows.pop(validation.case.pk, None)
    changed = changed_cases(snapshot.tree, proposal, rows)
    ids = sorted(changed)[:limit] if limit is not None else sorted(changed)
    folders = _folders_by_id({f for i in ids for f in changed[i][0] | changed[i][1]})
    return [AffectedCase(i, _as_folders(changed[i][0], folders), _as_folders(changed[i][1], folders)) for i in ids]


# --------------------------------------------------------------------------- moving an article
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
    to_id, from_id = as_folder_id(to_folder), as_folder_id(from_folder)
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
