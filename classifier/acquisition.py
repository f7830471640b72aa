"""Knowledge acquisition for MCRDR: rule proposals, cornerstone cases, difference lists.

The expert never sees the rule tree.  When they disagree with (or miss) a
conclusion for a case they pick a target folder and a kind of rule; this module
turns that into a :class:`RuleProposal`, shows which **cornerstone cases** (the
cases earlier rules were made for) the proposal would reclassify, and computes
the **difference list**: the new case's keywords absent from the cornerstone
cases the expert selected as "must not change".  Adding keywords from it to the
proposal's conditions removes those cornerstone cases from the changed set.

Pure Python, no Django; the services layer stores what :func:`apply` returns.
"""

from __future__ import annotations

import heapq
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from itertools import chain, filterfalse

from classifier.engine import Rule, RuleTree, as_case, keyword_set
from classifier.index import KeywordIndex
from classifier.kinds import RuleKind


def rule_kind(value: str) -> RuleKind:
    """The rule kind named by ``value`` ("new", "refine", "stop"), or ValueError."""
    try:
        return RuleKind(value)
    except ValueError:
        raise ValueError(f"unknown rule kind {value!r}; choose one of {', '.join(RuleKind)}") from None


@dataclass(frozen=True)
class RuleProposal:
    """A rule the expert is drafting, possibly placed under several parent rules.

    ``kind`` is "new" (ground-breaking, parent None), "refine" (a different folder
    under every rule that gave the wrong one) or "stop" (withhold the wrong folder).
    Conditions may still be empty while the expert is drafting; :func:`apply`
    refuses an empty rule.
    """

    kind: RuleKind
    folder: int | None
    conditions: frozenset[str]
    absent: frozenset[str] = frozenset()
    parent_ids: tuple[int | None, ...] = (None,)

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", rule_kind(self.kind))
        object.__setattr__(self, "conditions", keyword_set(self.conditions, "conditions"))
        object.__setattr__(self, "absent", keyword_set(self.absent, "absent"))
        object.__setattr__(self, "parent_ids", tuple(self.parent_ids))
        if not self.parent_ids:
            raise ValueError("a proposal needs at least one parent (None for the root)")
        if self.kind == RuleKind.STOP and self.folder is not None:
            raise ValueError("a stopping rule has no folder")
        if self.kind != RuleKind.STOP and self.folder is None:
            raise ValueError(f"a {self.kind} rule needs a target folder")
        if self.kind == RuleKind.NEW and self.parent_ids != (None,):
            raise ValueError("a new (ground-breaking) rule sits under the root only")
        if self.kind != RuleKind.NEW and None in self.parent_ids:
            raise ValueError(f"a {self.kind} rule sits under existing rules, not the root")
        both = self.conditions & self.absent
        if both:
            raise ValueError(f"keywords both required and absent: {sorted(both)}")

    def with_conditions(self, conditions: Iterable[str] = (), absent: Iterable[str] = ()) -> RuleProposal:
        """A copy with extra present / absent keywords (the expert adding from the difference list)."""
        return RuleProposal(
            self.kind,
            self.folder,
            self.conditions | keyword_set(conditions, "conditions"),
            self.absent | keyword_set(absent, "absent"),
            self.parent_ids,
        )

    def satisfied_by(self, case: frozenset[str]) -> bool:
        return self.conditions <= case and self.absent.isdisjoint(case)


def proposal_for(
    tree: RuleTree,
    case: Iterable[str],
    kind: str,
    folder: int | None = None,
    wrong_folder: int | None = None,
    conditions: Iterable[str] = (),
    absent: Iterable[str] = (),
) -> RuleProposal:
    """Build a proposal for ``case``, placing refine/stop rules under every rule that
    gave ``case`` the ``wrong_folder``.

    ValueError when the request does not fit the case: a refine/stop without a
    wrong folder or for a folder the case did not get, or conditions the case
    itself does not satisfy (the case becomes the rule's cornerstone case).
    """
    kind = rule_kind(kind)
    case = as_case(case)
    conditions = keyword_set(conditions, "conditions")
    absent = keyword_set(absent, "absent")
    missing = conditions - case
    if missing:
        raise ValueError(f"the case lacks condition keywords {sorted(missing)}")
    present = absent & case
    if present:
        raise ValueError(f"the case holds keywords required absent: {sorted(present)}")
    if kind == RuleKind.NEW:
        if wrong_folder is not None:
            raise ValueError("a new rule adds a folder; use refine or stop to replace one")
        return RuleProposal(RuleKind.NEW, folder, conditions, absent, (None,))
    if wrong_folder is None:
        raise ValueError(f"a {kind} rule needs the wrong folder it corrects")
    if kind == RuleKind.REFINE and folder == wrong_folder:
        raise ValueError("a refining rule must conclude a folder other than the wrong one")
    if kind == RuleKind.STOP and folder is not None:
        raise ValueError("a stopping rule has no folder")
    parents = sorted({c.rule_id for c in tree.infer(case) if c.folder == wrong_folder})
    if not parents:
        raise ValueError(f"the case was not given folder {wrong_folder}; nothing to {kind}")
    return RuleProposal(kind, folder, conditions, absent, tuple(parents))


def apply(tree: RuleTree, proposal: RuleProposal, first_id: int, commit: bool = False) -> list[Rule]:
    """The rules ``proposal`` adds (ids ``first_id``, ``first_id + 1``, ...).

    The tree is only changed with ``commit=True``, and then all or nothing.
    """
    if not proposal.conditions and not proposal.absent and proposal.kind != RuleKind.STOP:
        raise ValueError("the proposal has no conditions yet; add keywords from the difference list")
    rules = [
        Rule(first_id + n, parent, proposal.folder, proposal.conditions, proposal.absent)
        for n, parent in enumerate(proposal.parent_ids)
    ]
    for rule in rules:
        tree.check(rule)
    if commit:
        added = []
        try:
            for rule in rules:
                tree.add(rule)
                added.append(rule)
        except Exception:
            for rule in reversed(added):
                tree.remove(rule.id)
            raise
    return rules


# Stands in for "no condition yet": never a real token, added to the case for the what-if.
_ANY = "\x00any"


def _hypothetical(proposal: RuleProposal) -> tuple[Rule, ...]:
    """Proposal rules with ids that cannot clash with stored ones (negative)."""
    conditions = proposal.conditions if (proposal.conditions or proposal.absent) else frozenset((_ANY,))
    return tuple(
        Rule(-1 - n, parent, proposal.folder, conditions, proposal.absent)
        for n, parent in enumerate(proposal.parent_ids)
    )


def changed_cases(
    tree: RuleTree,
    proposal: RuleProposal,
    cases: Mapping[int, frozenset[str]],
    index: KeywordIndex | None = None,
) -> dict[int, tuple[set[int], set[int]]]:
    """case id -> (folders before, folders after) for the cases ``proposal`` would change.

    Only cases satisfying the proposal's conditions can change; with an ``index``
    over (a superset of) ``cases`` only those candidates are looked at, which keeps
    the duplicated-cases list fast over many stored cases.  An empty proposal
    (no conditions yet) is evaluated as a rule that fires under its parents on
    every case, i.e. the widest possible change.
    """
    if index is not None:
        ids: Iterable[int] = (i for i in index.candidates(proposal.conditions, proposal.absent) if i in cases)
    else:
        ids = cases.keys()
    extra = _hypothetical(proposal)
    empty = not (proposal.conditions or proposal.absent)
    changed: dict[int, tuple[set[int], set[int]]] = {}
    for case_id in ids:
        case = as_case(cases[case_id])
        if not proposal.satisfied_by(case):
            continue
        before = tree.folders(case)
        after = tree.explain(case | {_ANY} if empty else case, extra).folders
        if after != before:
            changed[case_id] = (before, after)
    return changed


def cornerstones_changed(
    tree: RuleTree,
    proposal: RuleProposal,
    cornerstones: Mapping[int, frozenset[str]],
    index: KeywordIndex | None = None,
) -> dict[int, tuple[set[int], set[int]]]:
    """The cornerstone cases to show: those whose folders ``proposal`` would change."""
    return changed_cases(tree, proposal, cornerstones, index)


def difference_list(case: frozenset[str], selected_cornerstones: Iterable[frozenset[str]]) -> list[str]:
    """The case's keywords absent from every selected cornerstone case, sorted.

    Recompute it whenever the expert selects another case that must not change:
    any of these keywords added as a condition excludes all selected cases.
    """
    remaining = set(as_case(case))
    for other in selected_cornerstones:
        remaining.difference_update(other)
        if not remaining:
            break
    return sorted(remaining)


@dataclass(frozen=True)
class RankedWord:
    """A word of a difference list with what ranks it.

    ``excludes``: how many of the still-changing cornerstone cases adding it would leave unchanged (as a
    condition: those lacking it; as a must-be-absent keyword: those holding it); ``precision``: among the
    stored accepted cases holding it, the share whose decision agrees with the rule (None: no such case);
    ``prior``: an earlier rule for the same folder uses it; ``weight``: the article's own keyword weight
    (DocView, 0 for a word that is not one of its keywords); ``cases``: how many of the knowledge base's
    cases hold it (None: not known); ``named``: the folder's name holds it (as a word, title word or URL word);
    ``support``: how many stored accepted cases hold it, what ``precision`` is a share of (None: not known).
    """

    word: str
    excludes: int
    precision: float | None = None
    prior: bool = False
    weight: float = 0.0
    cases: int | None = None
    named: bool = False
    support: int | None = None


@dataclass(frozen=True)
class RankedDifferences:
    """Both difference lists of a draft, best first, and each still-changing cornerstone's own pair.

    ``conditions``: every keyword of the case (those that exclude no cornerstone case last);
    ``absent``: every keyword of a still-changing cornerstone case that the case lacks;
    ``per_case``: cornerstone case id -> (its conditions, its absent words), as words in the same order.
    """

    conditions: tuple[RankedWord, ...]
    absent: tuple[RankedWord, ...]
    per_case: Mapping[int, tuple[tuple[str, ...], tuple[str, ...]]]
    changing: int  # how many cornerstone cases the lists were computed against

    def rank(self, word: str, absent: bool = False) -> int | None:
        """The word's place (1 = first) in its list, None when the list does not hold it."""
        for n, item in enumerate(self.absent if absent else self.conditions, start=1):
            if item.word == word:
                return n
        return None


def name_words(name: str) -> frozenset[str]:
    """The words of a folder's own name (its path's last part), as keywords are written: "Health/Child health"
    -> child, health; "money-fx" -> money, fx."""
    last = name.rsplit("/", 1)[-1].casefold()
    return frozenset(re.findall(r"[^\W_]+", last))


def _base_words(feature: str) -> list[str]:
    """The plain words of a feature: ``title:sleep`` -> sleep, ``sleep apnoea`` -> sleep, apnoea."""
    kind, colon, rest = feature.partition(":")
    text = rest if colon and kind in ("title", "url") else feature
    return text.split()


#: the m-estimate of a word's precision: its share of agreeing accepted cases pulled towards PRECISION_PRIOR as
#: if PRECISION_M more cases had been seen; a condition word ranks by the lower Wilson score bound (z =
#: PRECISION_Z) of those counts (tuned on the simulation's validation splits, docs/benchmarks/mcrdr.md)
PRECISION_M = 2.0
PRECISION_PRIOR = 0.5
PRECISION_Z = 1.0
#: the share of the changing cornerstone cases a word may leave changed and still rank by precision among the
#: words leaving all of them unchanged: a new rule's first word is drafted against every cornerstone case of the
#: other folders, and a word that is in one of a hundred of them but agrees with twenty accepted cases says
#: more than a word no stored case holds (tuned as PRECISION_M)
NEARLY_ALL_SLACK = 0.1


def smoothed_precision(precision: float | None, support: int | None) -> float | None:
    """``precision`` as a must-be-absent word ranks: the m-estimate over its ``support`` cases (as given without
    a support)."""
    if precision is None or not support:
        return precision
    agreeing, cases = _m_estimate_counts(precision, support)
    return agreeing / cases


def _m_estimate_counts(precision: float, support: int) -> tuple[float, float]:
    """The m-estimate's agreeing cases and cases: ``support`` cases at ``precision``, and PRECISION_M more at
    PRECISION_PRIOR."""
    return precision * support + PRECISION_PRIOR * PRECISION_M, support + PRECISION_M


def wilson_lower_bound(agreeing: float, cases: float, z: float = PRECISION_Z) -> float:
    """The lower bound of the Wilson score interval of the share ``agreeing`` / ``cases`` (0 with no case)."""
    if cases <= 0:
        return 0.0
    share = agreeing / cases
    spread = z * math.sqrt(share * (1 - share) / cases + z * z / (4 * cases * cases))
    return (share + z * z / (2 * cases) - spread) / (1 + z * z / cases)


def ranked_precision(precision: float | None, support: int | None) -> float:
    """A condition word's precision as it ranks: how sure the stored decisions make it that the word means the
    rule's conclusion, so that the number of agreeing cases counts as well as their share. With its ``support``
    (the accepted cases ``precision`` is a share of): the lower Wilson bound of the m-estimate's counts (60
    agreeing cases of 80: 0.69, before 3 of 3: 0.58, 1 of 1: 0.39); a word no accepted case holds (``precision``
    None) ranks as the prior with no case of its own (0.21), after those and before a word most of whose cases
    disagree (0 of 2: 0.10); without a support, ``precision`` as given."""
    if precision is None:
        return wilson_lower_bound(*_m_estimate_counts(0.0, 0))
    if not support:
        return precision
    return wilson_lower_bound(*_m_estimate_counts(precision, support))


def _derived(feature: str) -> bool:
    """A title word, URL word, site or phrase: a feature made of words, not a word itself."""
    return ":" in feature or " " in feature


def keyword_weight(feature: str, keywords: Mapping[str, float]) -> float:
    """A feature's weight among the article's own keywords (DocView): a word's own weight, a title word's as its
    word's, a phrase's as its lightest word's; 0 for a feature with a word that is not a keyword."""
    if not keywords:
        return 0.0
    parts = _base_words(feature)
    return min((keywords.get(part, 0.0) for part in parts), default=0.0)


def ranked_difference_lists(
    case: Iterable[str],
    changing_cornerstones: Mapping[int, Iterable[str]],
    precision: Mapping[str, float] | None = None,
    prior: Iterable[str] = (),
    chosen: Iterable[str] = (),
    weights: Mapping[str, float] | None = None,
    keywords: Mapping[str, float] | None = None,
    frequency: Mapping[str, int] | None = None,
    named: Iterable[str] = (),
    support: Mapping[str, int] | None = None,
    per_case: bool = True,
) -> RankedDifferences:
    """The difference lists both ways against the cornerstone cases that would still change, ranked.

    ``changing_cornerstones``: the cornerstone cases the current draft would still change and the expert has
    not accepted (not every case ever ticked: a case the draft already leaves unchanged no longer counts).
    A condition word is a keyword of ``case`` (a changing cornerstone lacking it is excluded by it); a
    must-be-absent word is a keyword of a changing cornerstone that ``case`` lacks (it excludes the
    cornerstones holding it). Both are ranked by how many changing cornerstones the word excludes (those
    leaving all but :data:`NEARLY_ALL_SLACK` of them unchanged alike, first), then by ``precision`` (word ->
    the share of stored accepted cases holding it whose decisions agree with the rule's conclusion; with
    ``support``, word -> how many accepted cases that share is of): conditions the surest first (a lower bound,
    :func:`ranked_precision`: twenty agreeing cases before two of two, unknown as the prior), must-be-absent
    words low first (:func:`smoothed_precision`, unknown last), then
    by whether ``prior`` (the words of earlier rules for the same folder) holds it, then by whether the
    folder's name holds it (``named``: the name's words, :func:`name_words`). Conditions then rank by
    ``keywords`` (the article's own DocView keyword weights, :func:`keyword_weight`: the keywords themselves
    first, then the title words, URL words and phrases made of them, each heavy first), then by rarity among
    the knowledge base's cases (``frequency``: word -> how many cases hold it; rare first), so that on a new
    knowledge base, with no cornerstone case and no decision yet, the article's own subject comes first.
    Last come ``weights`` (the CST weight of each word of the case's page, filters.sst: 1.0 informative,
    lower where the site repeats it; a phrase weighs as its lighter word; a missing word 1.0)
    and the alphabet. ``chosen``: words already in the draft, left out of both lists. ``per_case=False``
    leaves each cornerstone's own pair out (the ranking alone, without their cost).

    Example: case {a, b, c} against {a, c, x} and {b, c, y}: conditions a and b (one each), then c
    (none); must be absent x and y (one each). ``a & b`` or ``NOT x & NOT y`` leave both unchanged.
    """
    words = as_case(case)
    skip = keyword_set(chosen, "chosen") if chosen else frozenset()
    stones = {case_id: as_case(other) for case_id, other in changing_cornerstones.items()}
    known = precision or {}
    earlier = frozenset(prior)
    weight_of = weights or {}
    own = keywords or {}
    held_by = frequency or {}
    name = frozenset(named)
    counted = support or {}

    def weight(word: str) -> float:
        return _cst_weight(word, weight_of)

    held = Counter(chain.from_iterable(stones.values()))  # word -> changing cornerstones holding it
    total = len(stones)
    nearly_all = total - int(total * NEARLY_ALL_SLACK)

    def ranked(candidates: Iterable[str], excludes: Callable[[str], int], absent: bool) -> tuple[RankedWord, ...]:
        items = [
            RankedWord(
                w,
                excludes(w),
                known.get(w),
                w in earlier,
                0.0 if absent else keyword_weight(w, own),
                held_by.get(w) if frequency is not None else None,
                not absent and bool(name) and set(_base_words(w)) <= name,
                counted.get(w) if support is not None else None,
            )
            for w in candidates
            if w not in skip
        ]

        return tuple(sorted(items, key=lambda item: _rank_key(item, absent, nearly_all, weight(item.word))))

    conditions = ranked(words, lambda w: total - held.get(w, 0), absent=False)
    absent = ranked((w for w in held if w not in words), lambda w: held[w], absent=True)
    if not per_case:
        return RankedDifferences(conditions, absent, {}, total)
    return RankedDifferences(conditions, absent, _Pairs(stones, conditions, absent), total)


def _cst_weight(word: str, weights: Mapping[str, float]) -> float:
    """A word's CST weight on the case's page (a phrase weighs as its lighter word; a missing word 1.0)."""
    return min(weights.get(part, 1.0) for part in word.split()) if weights else 1.0


def _rank_key(item: RankedWord, absent: bool, nearly_all: int, cst_weight: float) -> tuple[object, ...]:
    """Where a word stands in its list (ranked_difference_lists), smallest first."""
    if absent:  # low precision first, an unknown one (2.0) after every known one
        share = smoothed_precision(item.precision, item.support)
        score = 2.0 if share is None else share
    else:  # the surest first (ranked_precision)
        score = -ranked_precision(item.precision, item.support)
    rarity = 0 if absent or item.cases is None else item.cases
    # the article's keywords themselves, then the title words, URL words and phrases made of them
    own = 2 if not item.weight else 1 if _derived(item.word) else 0
    # the words leaving (nearly) every changing case unchanged first, by precision among them
    tier = 0 if item.excludes >= nearly_all else 1
    first = -item.excludes if tier else 0
    rest = (own, -item.weight, rarity, -cst_weight, item.word)
    return (tier, first, score, -item.excludes, not item.prior, not item.named, *rest)


class _Pairs(Mapping[int, tuple[tuple[str, ...], tuple[str, ...]]]):
    """Each changing cornerstone case's own pair of lists (its conditions, its absent words), in rank order:
    computed for a case when asked for, as the page shows a few of the widest draft's thousand cases."""

    def __init__(
        self,
        stones: Mapping[int, frozenset[str]],
        conditions: tuple[RankedWord, ...],
        absent: tuple[RankedWord, ...],
    ) -> None:
        self._stones, self._conditions, self._absent = stones, conditions, absent
        self._pairs: dict[int, tuple[tuple[str, ...], tuple[str, ...]]] = {}
        self._order: tuple[list[str], list[str], dict[str, int], frozenset[str]] | None = None

    def __getitem__(self, case_id: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
        if case_id not in self._pairs:
            other = self._stones[case_id]
            if self._order is None:
                absent_words = [item.word for item in self._absent]
                place = {word: n for n, word in enumerate(absent_words)}  # never a word of the case
                self._order = [item.word for item in self._conditions], absent_words, place, frozenset(place)
            condition_words, absent_words, place, listed = self._order
            self._pairs[case_id] = (
                tuple(filterfalse(other.__contains__, condition_words)),
                tuple(map(absent_words.__getitem__, sorted(map(place.__getitem__, other & listed)))),
            )
        return self._pairs[case_id]

    def __iter__(self) -> Iterator[int]:
        return iter(self._stones)

    def __len__(self) -> int:
        return len(self._stones)

    def __repr__(self) -> str:
        return repr(dict(self))


#: How many must-be-absent words have their precision asked for (the best placed by the other keys; every
#: condition word has), and at most how many words containing the expert's search are asked for besides:
#: precision costs the caller a look at the stored decisions on the cases holding each word.
PRECISION_WORDS = 30
SEARCH_WORDS = 200


def suggestions(
    case: Iterable[str],
    changing_cornerstones: Mapping[int, Iterable[str]],
    decisions_of: Callable[[Iterable[str]], Mapping[str, tuple[int, int]]],
    prior: Iterable[str] = (),
    chosen: Iterable[str] = (),
    weights: Mapping[str, float] | None = None,
    keywords: Mapping[str, float] | None = None,
    frequency: Mapping[str, int] | None = None,
    named: Iterable[str] = (),
    search: str = "",
) -> RankedDifferences:
    """The ranked difference lists as the rule page shows them, and as the simulated expert reads them: ONE
    ranking (:func:`ranked_difference_lists`) for both.

    ``decisions_of``: words -> word -> (stored accepted cases holding it whose decision agrees with the rule,
    stored accepted cases holding it), its precision and support. It is asked for every condition word, for
    the :data:`PRECISION_WORDS` best placed must-be-absent words by the other keys and for the words
    containing ``search`` (at most :data:`SEARCH_WORDS`); the others rank as of unknown precision.
    """
    words = as_case(case)
    stones = {case_id: as_case(other) for case_id, other in changing_cornerstones.items()}
    earlier, chosen, name = frozenset(prior), frozenset(chosen), frozenset(named)

    def ranked(counts: Mapping[str, tuple[int, int]] | None) -> RankedDifferences:
        precision = {w: agree / n for w, (agree, n) in counts.items() if n} if counts is not None else None
        support = {w: n for w, (_agree, n) in counts.items()} if counts is not None else None
        return ranked_difference_lists(
            words, stones, precision, earlier, chosen, weights, keywords, frequency, name, support, counts is not None
        )

    front = _unscored_front(words, stones, earlier, chosen, weights, search)
    return ranked(decisions_of(front) if front else {})


def _unscored_front(
    words: frozenset[str],
    stones: Mapping[int, frozenset[str]],
    prior: frozenset[str],
    chosen: frozenset[str],
    weights: Mapping[str, float] | None,
    search: str,
) -> set[str]:
    """The words :func:`suggestions` asks the precision of: every condition word, the :data:`PRECISION_WORDS`
    must-be-absent words ranked first while no precision is known, and the first :data:`SEARCH_WORDS` of them
    containing ``search`` -- as ranked_difference_lists without precision would give them, without ranking the
    thousands of must-be-absent words of the widest draft. With every precision unknown, a must-be-absent
    word's :func:`_rank_key` is (tier, first, 2.0, -excludes, not prior, True, 2, -0.0, 0, -CST weight, word):
    its constant parts left out, it orders as :func:`_absent_key`."""
    skip = keyword_set(chosen, "chosen") if chosen else frozenset()
    front = set(words - skip)
    held = Counter(chain.from_iterable(stones.values()))
    candidates = [w for w in held if w not in words and w not in skip]
    nearly_all = len(stones) - int(len(stones) * NEARLY_ALL_SLACK)
    weight_of = weights or {}

    def key(word: str) -> tuple[object, ...]:
        return _absent_key(held[word], nearly_all, word in prior, _cst_weight(word, weight_of), word)

    front.update(heapq.nsmallest(PRECISION_WORDS, candidates, key=key))
    needle = search.strip().casefold()
    if needle:
        found = [w for w in candidates if needle in w.casefold()]
        front.update(heapq.nsmallest(SEARCH_WORDS, found, key=key))
    return front


def _absent_key(excludes: int, nearly_all: int, prior: bool, cst_weight: float, word: str) -> tuple[object, ...]:
    """:func:`_rank_key` of a must-be-absent word of unknown precision, less its parts every such word shares."""
    tier = 0 if excludes >= nearly_all else 1
    return (tier, -excludes if tier else 0, -excludes, not prior, -cst_weight, word)


def scope_decisions(
    words: Iterable[str], wrong: int, decided: Iterable[tuple[frozenset[str], Iterable[int]]]
) -> dict[str, tuple[int, int]]:
    """A stopping rule's precision counts over its scope (the page's and the simulated page's alike): word ->
    (the ``decided`` cases holding it not accepted in ``wrong``, the decided cases holding it); ``decided``: each
    decided case of the scope, (its words, its accepted folders)."""
    wanted = frozenset(words)
    holding: Counter[str] = Counter()
    agreeing: Counter[str] = Counter()
    for case_words, folders in decided:
        shared = wanted & case_words
        holding.update(shared)
        if wrong not in folders:
            agreeing.update(shared)
    return {word: (agreeing[word], n) for word, n in holding.items()}


#: the suggested rule's reach, and a stopping rule's scope, are read case by case (keywords, inference, decisions)
#: up to this many other stored cases holding its words; beyond, it is their count alone (exact for a new rule,
#: which fires on all of them), and a stopping rule's list counts the decisions on every stored case
REACH_READ = 1000
#: the first ranked conditions the suggested rule may lead with or narrow its reach with (suggested_rule)
SUGGESTION_POOL = 5
#: the suggested rule takes one more word while it reaches more than this many other stored articles
WIDE_REACH = 3
#: a suggested stopping rule leads with (and narrows its reach with) the first this many of the article's own
#: DocView keywords in rank order, wherever the ranking places them (suggested_rule)
STOP_POOL = 20


def suggested_rule(
    ranked: RankedDifferences,
    changing_cornerstones: Mapping[int, Iterable[str]],
    most: int = 3,
    reach: Callable[[frozenset[str]], int] | None = None,
    proper: Iterable[str] = (),
    stop: bool = False,
) -> tuple[str, ...]:
    """The conditions of the one-click rule the page offers, at most ``most`` words; empty when the list is.
    The ranking itself (:func:`ranked_difference_lists`) is not changed: the rule picks among its words.

    1. It leads with the first condition of the ranked list, unless that is a proper name of the article
       (``proper``: the words it writes capitalised even inside a sentence, :func:`classifier.features.
       proper_names`; a feature is one when one of its words is) and one of the first :data:`SUGGESTION_POOL`
       words is supported as well without being one (:func:`_supported_as_well`): then the best placed such
       word leads ("IF elmstead" -- the town the story is set in -- gives way to the article's subject).
    2. While a changing cornerstone case is still not left unchanged, it takes the next condition in rank
       order that leaves one more of them unchanged (as before: the cornerstone cases come first).
    3. With ``reach`` (words -> how many other stored articles hold them all), while the rule reaches more
       than :data:`WIDE_REACH` of them, it takes the next word of the first :data:`SUGGESTION_POOL` in rank
       order that is no proper name and narrows that reach: "IF diabetes", which 6 stored articles mention,
       most in passing, becomes "IF diabetes & clinics", the article's next strongest keyword.

    A stopping rule (``stop``, with ``reach``: words -> how many other stored articles it would withhold the
    wrong folder from, those the folder's rule fires on that hold them all) leads instead with a word
    distinctive of this article (:func:`_distinctive_word`): of the first :data:`STOP_POOL` of its own DocView
    keywords in rank order (plain words, however far down the ranking puts them), the one with the smallest
    reach (up to :data:`WIDE_REACH` alike), then the heaviest, and it narrows with those keywords (step 3).
    Its ranking may still lead with a common word the few decided articles of its scope are sure of, and "IF
    clinics THEN withhold Health/Sleep" would hide the folder from every sleep-clinic story not yet decided. A
    new or refining rule still leads as above: the ranking already puts the heavier own keyword first among
    words the decisions are as sure of, and a word they are surer of ("exercises" before "anxious" for
    Health/Mental health) is stored evidence that the article's keyword weights are not; step 3 adds the next
    word while the rule is wide.
    """
    conditions = ranked.conditions
    if not conditions:
        return ()
    names = frozenset(proper)
    pool = conditions[:SUGGESTION_POOL]
    lead = _leading_word(pool, names)
    if stop and reach is not None:
        own = (item for item in conditions if item.weight > 0 and not _derived(item.word))
        pool = tuple(item for item in own if not _is_proper(item.word, names))[:STOP_POOL]
        lead = _distinctive_word(pool, reach) or lead
    left = {case_id: as_case(other) for case_id, other in changing_cornerstones.items()}
    chosen: list[str] = []
    for item in chain((lead,), conditions):
        if len(chosen) >= most or (chosen and not left):
            break
        spared = {case_id for case_id, other in left.items() if item.word not in other}
        if item.word in chosen or (chosen and not spared):
            continue
        chosen.append(item.word)
        for case_id in spared:
            del left[case_id]
    if reach is not None:
        _narrow(chosen, pool, names, reach, most)
    return tuple(chosen)


def _is_proper(feature: str, names: frozenset[str]) -> bool:
    """One of the feature's words is a proper name of the article (``title:elmstead``, ``elmstead clinics``)."""
    return bool(names) and any(word in names for word in _base_words(feature))


def _supported_as_well(item: RankedWord, than: RankedWord) -> bool:
    """``item`` may lead the suggested rule instead of ``than``: it leaves as many changing cornerstone cases
    unchanged, the stored decisions are as sure of it (:func:`ranked_precision`), and it is one of the
    article's own keywords, an earlier rule's word for the folder or a word of the folder's name."""
    return (
        item.excludes >= than.excludes
        and ranked_precision(item.precision, item.support) >= ranked_precision(than.precision, than.support)
        and (item.weight > 0 or item.prior or item.named)
    )


def _leading_word(pool: tuple[RankedWord, ...], names: frozenset[str]) -> RankedWord:
    """The suggested rule's first word: the first ranked, or the best placed word of the pool supported as well
    that is no proper name when the first is one."""
    first = pool[0]
    if not _is_proper(first.word, names):
        return first
    return next((w for w in pool[1:] if not _is_proper(w.word, names) and _supported_as_well(w, first)), first)


def _distinctive_word(pool: tuple[RankedWord, ...], reach: Callable[[frozenset[str]], int]) -> RankedWord | None:
    """A stopping rule's first word (None for an empty pool): the pool's word with the smallest reach (all
    reaching at most :data:`WIDE_REACH` alike, so that a rare word such as "arrives" does not win over the
    subject "flu" that one other article holds), then the one leaving most changing cornerstone cases
    unchanged, the article's heaviest keyword, the best placed."""
    if not pool:
        return None
    place = {item.word: n for n, item in enumerate(pool)}

    def key(item: RankedWord) -> tuple[int, int, float, int]:
        return max(reach(frozenset((item.word,))), WIDE_REACH), -item.excludes, -item.weight, place[item.word]

    return min(pool, key=key)


def _narrow(
    chosen: list[str],
    pool: tuple[RankedWord, ...],
    names: frozenset[str],
    reach: Callable[[frozenset[str]], int],
    most: int,
) -> None:
    """Add to ``chosen`` the pool's words, in rank order, that narrow its reach while it is wider than
    :data:`WIDE_REACH` (proper names and words that narrow nothing are passed over)."""
    reached = reach(frozenset(chosen))
    for item in pool:
        if len(chosen) >= most or reached <= WIDE_REACH:
            return
        if item.word in chosen or _is_proper(item.word, names):
            continue
        narrower = reach(frozenset((*chosen, item.word)))
        if narrower < reached:
            chosen.append(item.word)
            reached = narrower


def reached_cases(
    tree: RuleTree, proposal: RuleProposal, cases: Iterable[tuple[int, Iterable[str]]]
) -> dict[int, set[int]]:
    """case id -> its folders now, for the ``cases`` the proposal's rule would fire on (it holds the conditions
    and a parent rule fires): those a new or refining rule files into its folder, whether it changes them or
    they are there already, and those a stopping rule withholds its wrong folder from."""
    extra = _hypothetical(proposal)
    ids = {rule.id for rule in extra}
    reached: dict[int, set[int]] = {}
    for case_id, words in cases:
        case = as_case(words)
        if proposal.satisfied_by(case) and tree.explain(case, extra).fired & ids:
            reached[case_id] = tree.folders(case)
    return reached


def prior_words(tree: RuleTree, proposal: RuleProposal, wrong_folder: int | None) -> frozenset[str]:
    """The keywords (present or absent) of the earlier rules for the same folder: the rules concluding the
    folder, or for a stopping rule the stopping rules under rules concluding the wrong folder."""
    if proposal.kind == RuleKind.STOP:
        parents = {r.id for r in tree if r.folder == wrong_folder}
        rules = [r for r in tree if r.folder is None and r.parent_id in parents]
    else:
        rules = [r for r in tree if r.folder == proposal.folder]
    return frozenset().union(*(r.conditions | r.absent for r in rules))
