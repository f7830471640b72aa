"""What the rule page would show the simulated expert: the ranked difference lists of its draft.

``python -m research.simulate --from-suggestions N`` lets the expert state a condition only when it is
among the first ``N`` words of the list the rule page would show for its draft at that moment (``0``: any
word of the lists, however far down; without the option the expert states any word, as before). The lists
are ranked by the page's own code, :func:`classifier.acquisition.suggestions`, called as
:mod:`classifier.services.validation` calls it, from what a knowledge base holds at that point of the stream:

* the cornerstone cases the draft would change against the expert's decisions (those it does not accept);
* precision: among the cases seen so far (each accepted in its gold folders once the expert is done with
  it), the share holding the word that the rule's decision agrees with;
* the words of earlier rules for the same folder, and the words of the folder's name (its label);
* the case's DocView keywords, computed when it arrives as processing computes them
  (:func:`filters.docview.keywords`: the words weighted by where they stand, times their inverse frequency
  among the cases stored before it), and how many stored cases hold each word (its rarity).

Each condition the expert states is recorded with its place in that list (:attr:`PageView.ranks`).
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Protocol, cast

from classifier.acquisition import (
    REACH_READ,
    RankedDifferences,
    RankedWord,
    RuleProposal,
    cornerstones_changed,
    name_words,
    prior_words,
    scope_decisions,
    suggestions,
)
from classifier.engine import RuleTree
from classifier.index import KeywordIndex
from classifier.kinds import RuleKind
from filters.docview import keywords as docview_keywords

#: a stopping rule's scope: the accepted cases a rule it sits under fires on, each (its words, its folders)
Scope = list[tuple[frozenset[str], frozenset[int]]]


def _path_words(tree: RuleTree, rule_id: int) -> frozenset[str]:
    """The words every case a rule fires on holds: its conditions and those of the rules above it."""
    words: set[str] = set()
    rule = tree.get(rule_id)
    while True:
        words |= rule.conditions
        if rule.parent_id is None:
            return frozenset(words)
        rule = tree.get(rule.parent_id)


class Drafting(Protocol):
    """The expert's side the page reads: its knowledge base and its decisions on cornerstone cases."""

    tree: RuleTree
    cornerstones: dict[int, frozenset[str]]
    index: KeywordIndex

    def _acceptable(self, cid: int, before: set[int], after: set[int]) -> bool: ...


@dataclass(frozen=True)
class Choice:
    """A condition the expert wanted: the rule's kind, how many conditions its draft had, the word, the condition
    list the page ranked for that draft, how many cornerstone cases it was ranked against, and how many accepted
    cases the rule's folder held (0 for a stopping rule)."""

    kind: RuleKind
    stated: int
    wanted: str
    listed: tuple[RankedWord, ...]
    changing: int
    folder_cases: int


@dataclass
class PageView:
    """The stored cases, decisions and keywords the rule page ranks with, kept as the stream goes.

    ``limit``: how many words of each list the expert may choose among (None: any word of the lists).
    """

    folders: Mapping[str, int]
    limit: int | None = None
    frequency: Counter[str] = field(default_factory=Counter)  # word -> stored cases holding it
    stored: int = 0
    holding: Counter[str] = field(default_factory=Counter)  # word -> accepted cases holding it
    agreeing: dict[str, Counter[int]] = field(default_factory=dict)  # word -> folder -> accepted cases
    keywords: dict[str, float] = field(default_factory=dict)  # the case at hand's DocView keywords
    ranks: list[int] = field(default_factory=list)  # the place of each condition stated, in its list
    unlisted: int = 0  # conditions the expert would have stated that the lists did not hold
    #: every condition the expert wanted, with the list it was wanted from (research.suggestion_bound)
    choices: list[Choice] = field(default_factory=list)
    folder_cases: Counter[int] = field(default_factory=Counter)  # folder -> accepted cases
    #: every accepted case's words and folders, in the order decided (a stopping rule's scope is read from them)
    accepted_cases: list[tuple[frozenset[str], frozenset[int]]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.limit is not None and self.limit < 1:
            raise ValueError("the expert chooses among at least one suggestion")
        self.names = {folder: name_words(label) for label, folder in self.folders.items()}
        self._tree_version: int | None = None
        self._drafting: tuple[RuleKind, int | None, int] = (RuleKind.NEW, None, 0)  # the draft last ranked
        self._folders_now: dict[int, frozenset[int]] = {}  # cornerstone case -> its folders, for that tree
        self._scope: tuple[tuple[int, int, frozenset[int]], Scope | None] | None = None  # the last scope read

    # ------------------------------------------------------------------ the knowledge base as the stream fills it
    def arrive(self, case: Iterable[str], weights: Mapping[str, float]) -> None:
        """A case reaches the knowledge base: its DocView keywords against the cases stored before it, then stored."""
        self.keywords = dict(docview_keywords(weights, self.frequency, self.stored)) if weights else {}
        self.frequency.update(set(case))
        self.stored += 1

    def decided(self, case: Iterable[str], folders: Iterable[int]) -> None:
        """The expert is done with a case: it is accepted in ``folders`` (its gold ones)."""
        folders = list(folders)
        self.folder_cases.update(folders)
        self.accepted_cases.append((frozenset(case), frozenset(folders)))
        for word in set(case):
            self.holding[word] += 1
            counts = self.agreeing.setdefault(word, Counter())
            for folder in folders:
                counts[folder] += 1

    def decisions(
        self, words: Iterable[str], folder: int | None, wrong: int | None, scope: Scope | None = None
    ) -> dict[str, tuple[int, int]]:
        """As classifier.services.validation's: word -> (accepted cases holding it whose decision agrees with the
        rule: accepted in ``folder``, for a stopping rule not accepted in ``wrong``; accepted cases holding it).
        A stopping rule's ``scope`` (:meth:`scope`): counted only among those cases, as there."""
        target = folder if folder is not None else wrong
        result: dict[str, tuple[int, int]] = {}
        if target is None:
            return result
        if folder is None and scope is not None:
            return scope_decisions(words, target, scope)
        for word in words:
            n = self.holding.get(word, 0)
            if n:
                hit = self.agreeing[word].get(target, 0)
                result[word] = (hit if folder is not None else n - hit, n)
        return result

    def scope(self, tree: RuleTree, proposal: RuleProposal) -> Scope | None:
        """A stopping rule's scope, as classifier.services.validation reads it: the accepted cases a rule it sits
        under fires on (every stored case here is accepted once the expert is done with it); None past
        REACH_READ cases holding the words of those rules' paths, where the page counts over every case."""
        parents = frozenset(i for i in proposal.parent_ids if i is not None)
        key = (tree.max_id, len(self.accepted_cases), parents)
        if self._scope is not None and self._scope[0] == key:
            return self._scope[1]
        paths = [_path_words(tree, i) for i in sorted(parents)]
        held = [item for item in self.accepted_cases if any(path <= item[0] for path in paths)]
        scope = None if len(held) > REACH_READ else [item for item in held if tree.explain(item[0]).fired & parents]
        self._scope = (key, scope)
        return scope

    # ------------------------------------------------------------------ the page
    def ranked(
        self, expert: Drafting, case_id: int, case: frozenset[str], proposal: RuleProposal, wrong: int | None
    ) -> RankedDifferences:
        """The difference lists the rule page would show for the draft ``proposal`` on ``case``."""
        changed = self._changed(expert, proposal)
        offending = {
            cid: expert.cornerstones[cid]
            for cid, (before, after) in changed.items()
            if cid != case_id and not expert._acceptable(cid, before, after)
        }
        self._drafting = (proposal.kind, proposal.folder, len(proposal.conditions))
        scope = self.scope(expert.tree, proposal) if proposal.kind == RuleKind.STOP else None
        return suggestions(
            case,
            offending,
            lambda front: self.decisions(front, proposal.folder, wrong, scope),
            prior=prior_words(expert.tree, proposal, wrong),
            chosen=proposal.conditions | proposal.absent,
            keywords=self.keywords,
            frequency=self.frequency,
            named=self.names.get(proposal.folder, ()) if proposal.folder is not None else (),
        )

    def _changed(self, expert: Drafting, proposal: RuleProposal) -> dict[int, tuple[set[int], set[int]]]:
        """The cornerstone cases the draft would change (acquisition.cornerstones_changed); a new rule the way
        classifier.services.validation reads it: it only adds its folder to those it fires on, whose folders
        now are kept until the next rule."""
        if proposal.kind != RuleKind.NEW:
            return cornerstones_changed(expert.tree, proposal, expert.cornerstones, expert.index)
        if self._tree_version != expert.tree.max_id:
            self._tree_version, self._folders_now = expert.tree.max_id, {}
        folder = cast(int, proposal.folder)
        changed = {}
        for cid in expert.index.candidates(proposal.conditions, proposal.absent):
            case = expert.cornerstones[cid]
            if not proposal.satisfied_by(case):
                continue
            before = self._folders_now.get(cid)
            if before is None:
                before = self._folders_now[cid] = frozenset(expert.tree.folders(case))
            if folder not in before:
                changed[cid] = (set(before), set(before) | {folder})
        return changed

    def shown(self, items: tuple[RankedWord, ...]) -> tuple[RankedWord, ...]:
        return items if self.limit is None else items[: self.limit]

    def choose(
        self,
        ranked: RankedDifferences,
        word: str,
        absent: bool = False,
        substitute: Callable[[str], float] | None = None,
        floor: float = 0.0,
    ) -> str | None:
        """The condition the expert states for ``word`` from the lists: ``word`` itself when it is shown (its
        rank recorded); else, with a limit and ``substitute`` (the expert's score of a word), the shown word it
        scores best above ``floor``; else None (a word the lists do not hold is counted unlisted)."""
        place = ranked.rank(word, absent)
        if not absent and place is not None:
            kind, folder, stated = self._drafting
            cases = self.folder_cases.get(folder, 0) if folder is not None else 0
            self.choices.append(Choice(kind, stated, word, ranked.conditions, ranked.changing, cases))
        if place is not None and (self.limit is None or place <= self.limit):
            self.ranks.append(place)
            return word
        if place is None:  # not on the page at all (a must-be-absent word no changing cornerstone case holds)
            self.unlisted += 1
        if self.limit is None or substitute is None:
            return None
        shown = self.shown(ranked.absent if absent else ranked.conditions)
        best = max(
            ((substitute(item.word), -n, item.word) for n, item in enumerate(shown, start=1)),
            default=None,
        )
        if best is None or best[0] <= floor:
            return None
        self.ranks.append(-best[1])
        return best[2]

    def summary(self) -> dict[str, object]:
        return {
            "from_suggestions": self.limit or "unlimited",
            "conditions_ranked": len(self.ranks),
            "median_rank": statistics.median(self.ranks) if self.ranks else None,
            "mean_rank": round(statistics.fmean(self.ranks), 2) if self.ranks else None,
            "share_in_first_5": round(sum(r <= 5 for r in self.ranks) / len(self.ranks), 3) if self.ranks else None,
            "unlisted": self.unlisted,
        }
