"""What the rule page would show the simulated expert: the ranked difference lists of its draft.

``python -m research.simulate --from-suggestions N`` lets the expert state a condition only when it is
among the first ``N`` words of the list the rule page would show for its draft at that moment (``0``: any
word, as before, with the ranks still recorded). The lists are ranked by the page's own code,
:func:`classifier.acquisition.suggestions`, called as :mod:`classifier.services.validation` calls it, from
what a knowledge base holds at that point of the stream:

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
from typing import Protocol

from classifier.acquisition import (
    RankedDifferences,
    RankedWord,
    RuleProposal,
    cornerstones_changed,
    name_words,
    prior_words,
    suggestions,
)
from classifier.engine import RuleTree
from classifier.index import KeywordIndex
from filters.docview import keywords as docview_keywords


class Drafting(Protocol):
    """The expert's side the page reads: its knowledge base and its decisions on cornerstone cases."""

    tree: RuleTree
    cornerstones: dict[int, frozenset[str]]
    index: KeywordIndex

    def _acceptable(self, cid: int, before: set[int], after: set[int]) -> bool: ...


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
    unlisted: int = 0  # conditions stated that the lists did not hold (only without a limit)

    def __post_init__(self) -> None:
        if self.limit is not None and self.limit < 1:
            raise ValueError("the expert chooses among at least one suggestion")
        self.names = {folder: name_words(label) for label, folder in self.folders.items()}

    # ------------------------------------------------------------------ the knowledge base as the stream fills it
    def arrive(self, case: Iterable[str], weights: Mapping[str, float]) -> None:
        """A case reaches the knowledge base: its DocView keywords against the cases stored before it, then stored."""
        self.keywords = dict(docview_keywords(weights, self.frequency, self.stored)) if weights else {}
        self.frequency.update(set(case))
        self.stored += 1

    def decided(self, case: Iterable[str], folders: Iterable[int]) -> None:
        """The expert is done with a case: it is accepted in ``folders`` (its gold ones)."""
        folders = list(folders)
        for word in set(case):
            self.holding[word] += 1
            counts = self.agreeing.setdefault(word, Counter())
            for folder in folders:
                counts[folder] += 1

    def precision(self, words: Iterable[str], folder: int | None, wrong: int | None) -> dict[str, float]:
        """As classifier.services.validation's: the share of accepted cases holding each word whose decision
        agrees with the rule (accepted in ``folder``; for a stopping rule, not accepted in ``wrong``)."""
        target = folder if folder is not None else wrong
        result: dict[str, float] = {}
        if target is None:
            return result
        for word in words:
            n = self.holding.get(word, 0)
            if n:
                hit = self.agreeing[word].get(target, 0) / n
                result[word] = hit if folder is not None else 1 - hit
        return result

    # ------------------------------------------------------------------ the page
    def ranked(
        self, expert: Drafting, case_id: int, case: frozenset[str], proposal: RuleProposal, wrong: int | None
    ) -> RankedDifferences:
        """The difference lists the rule page would show for the draft ``proposal`` on ``case``."""
        changed = cornerstones_changed(expert.tree, proposal, expert.cornerstones, expert.index)
        offending = {
            cid: expert.cornerstones[cid]
            for cid, (before, after) in changed.items()
            if cid != case_id and not expert._acceptable(cid, before, after)
        }
        return suggestions(
            case,
            offending,
            lambda front: self.precision(front, proposal.folder, wrong),
            prior=prior_words(expert.tree, proposal, wrong),
            chosen=proposal.conditions | proposal.absent,
            keywords=self.keywords,
            frequency=self.frequency,
            named=self.names.get(proposal.folder, ()) if proposal.folder is not None else (),
        )

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
        rank recorded); else, with ``substitute`` (the expert's score of a word), the shown word it scores
        best above ``floor``; else None. Without a limit every word is stated (counted unlisted when the lists
        do not hold it)."""
        place = ranked.rank(word, absent)
        if place is not None and (self.limit is None or place <= self.limit):
            self.ranks.append(place)
            return word
        if self.limit is None:
            self.unlisted += 1
            return word
        if substitute is None:
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
