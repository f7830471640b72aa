"""The simulated experts: each grows an MCRDR knowledge base case by case, the way the thesis's expert would.

The simulated expert knows the gold labels and reads the training cases in
(seeded, shuffled) stream order; whenever inference is wrong or incomplete it
makes the rule a person would: a **refining** rule under every rule that gave a
wrong folder when a folder is also missing, a **stopping** rule when nothing is
missing, a **new** rule for a missing folder.  Its domain knowledge comes from
the training part only.  Two experts:

* ``trace`` (default), the rule-trace expert of Compton's simulated-expert method:
  one binary decision tree per label (one-vs-rest, binary term features) induced
  on the training part.  A new or refining rule's conditions are the case's path
  through the target label's tree (its present-word tests; its absent-word tests
  become must-be-absent conditions unless ``--no-absent``), generalised as in
  C4.5rules: the conditions the label does not need dropped, as long as the rule
  stays as precise in the training part as the whole path (``--no-generalize``:
  the whole path); a stopping rule's are the case's path through the wrong label's
  tree, the path that says "not this label".  When the tree is wrong about the case, the condition is a general
  high-precision word instead: the case's word with the best precision for the
  label in the training part; when even that word means the label less often than
  ``--pair-below`` (0.9), it is paired with the case's word that makes the pair
  most precise there.  Levels of expertise: ``--depth``, ``--min-leaf``,
  ``--balanced`` (how the trees are grown) and ``--noise`` (the chance that a path
  word is replaced by a random word of the case).  ``--knowledge-source covering``
  replaces the path by the first rule (in learned order) of the label's list learned
  by sequential covering (:func:`research.covering.learn_covering_rules`: by default each rule grown on
  the label's cases not yet covered until it takes in no training case outside the label,
  its words chosen by the m-estimate of its precision, ``--m-estimate``; or IREP's FOIL
  gain with a pruning part, ``--m-estimate 0 --grow-share 0.67``) that covers the case, the tree path
  when none does; ``best`` takes whichever of the two has the larger training
  precision x label cases covered; ``words`` states only the high-precision word (or
  pair).  On the validation splits none beat the tree path on BBC (see
  docs/benchmarks/mcrdr.md), so ``tree`` stays the default.
* ``svm``: the ``k`` highest-weighted terms of the target label present in the
  case, from a one-vs-rest linear SVM on binary term features (for a stopping
  rule the terms weighing most against the wrong label); ``--knowledge N`` limits
  it to the N best terms per label; ``--noise`` as above.

Either way it then looks at the cornerstone cases the rule would change, selects
those whose change it does not accept (a correct folder lost or a wrong one
gained), and adds the best word of the recomputed difference list (or, for the
trace expert when none is left, a must-be-absent word those cornerstone cases all
hold), until no unacceptable change remains.  Neither expert ever picks an
arbitrary word: with nothing it knows, the correction is counted unresolved.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import cast

from classifier.acquisition import (
    RuleProposal,
    apply,
    cornerstones_changed,
    difference_list,
    proposal_for,
)
from classifier.engine import RuleTree
from classifier.index import KeywordIndex
from classifier.kinds import RuleKind
from research.knowledge import Knowledge, TraceKnowledge, TracePath
from research.scikit import sklearn
from research.suggestions import PageView


@dataclass
class ExpertStats:
    cases_seen: int = 0
    accepted: int = 0  # cases whose conclusions the expert accepted as they were
    rules: int = 0
    conditions: int = 0
    shown: int = 0  # cornerstone cases shown, summed over validations
    unresolved: int = 0  # corrections the expert could not make without harming a cornerstone
    skipped: int = 0  # pages the filters rejected (filters.ExtractionError): not used
    fallbacks: int = 0  # rules whose first condition is a high-precision word, not a tree path


class SimulatedExpert:
    """Builds an MCRDR rule tree case by case, the way the thesis's expert would."""

    def __init__(
        self,
        knowledge: Knowledge,
        folders: dict[str, int],
        k: int = 3,
        noise: float = 0.0,
        seed: int = 0,
    ) -> None:
        if k < 1:
            raise ValueError("k must be at least 1")
        if not 0 <= noise <= 1:
            raise ValueError("noise must be between 0 and 1")
        self.knowledge = knowledge
        self.folders = folders
        self.labels = {v: k_ for k_, v in folders.items()}
        self.k = k
        self.noise = noise
        self.rng = random.Random(seed)
        self.tree = RuleTree()
        self.cornerstones: dict[int, frozenset[str]] = {}
        self.cornerstone_gold: dict[int, set[int]] = {}
        self.rule_cornerstone: dict[int, int] = {}
        self.index = KeywordIndex()
        self.stats = ExpertStats()
        self.ceiling: dict[str, float] = {}  # the expert's knowledge classifying alone (trace expert)
        #: the rule page's lists, when the expert states only what they show (research.suggestions; trace expert)
        self.view: PageView | None = None
        self._drafting: tuple[int, int | None] = (0, None)  # the case and wrong folder of the rule being drafted

    # scoring of terms for a proposal: the target label's weight, or for a stop the
    # weight against the wrong label
    def _scorer(self, proposal: RuleProposal, wrong: int | None) -> Callable[[str], float]:
        if proposal.kind == RuleKind.STOP:
            weights = self.knowledge.weights.get(self.labels[cast(int, wrong)], {})  # a stop names the wrong folder
            return lambda t: -weights.get(t, 0.0)
        weights = self.knowledge.weights.get(self.labels[cast(int, proposal.folder)], {})  # not a stop: a folder
        return lambda t: weights.get(t, 0.0)

    def _pick(self, candidates: list[str], score: Callable[[str], float], n: int) -> list[str]:
        """The n best-scored candidates; with noise, some replaced by random candidates."""
        best = sorted(candidates, key=lambda t: (-score(t), t))[:n]
        if self.noise:
            chosen = []
            for term in best:
                if self.rng.random() < self.noise:
                    pool = [t for t in candidates if t not in chosen]
                    term = self.rng.choice(pool)
                if term not in chosen:
                    chosen.append(term)
            best = chosen
        return best

    def _acceptable(self, cid: int, before: set[int], after: set[int]) -> bool:
        gold = self.cornerstone_gold[cid]
        return (before & gold) <= (after & gold) and (after - gold) <= (before - gold)

    def _make_rule(self, case_id: int, case: frozenset[str], proposal: RuleProposal, wrong) -> bool:
        score = self._scorer(proposal, wrong)
        # the difference list against no selected cornerstone is the whole case;
        # a positively weighted term is what a person would pick first
        start = [t for t in case if score(t) > 0]
        if not start:  # no word it knows for this: never an arbitrary one (say, the alphabetically first)
            self.stats.unresolved += 1
            return False
        return self._validate_and_commit(
            case_id, case, proposal.with_conditions(self._pick(start, score, self.k)), score
        )

    def _exclude(
        self, case: frozenset[str], proposal: RuleProposal, selected: list[int], bad: list[int], score
    ) -> RuleProposal | None:
        """The proposal with one more condition that leaves the ``selected`` cornerstone cases unchanged
        (``bad``: those the last check found), or None when the expert knows none."""
        diff = difference_list(case, (self.cornerstones[c] for c in selected))
        diff = [t for t in diff if t not in proposal.conditions]
        return proposal.with_conditions(self._pick(diff, score, 1)) if diff else None

    def _validate_and_commit(self, case_id: int, case: frozenset[str], proposal: RuleProposal, score) -> bool:
        """Show the cornerstone cases the proposal would change; while one would change unacceptably, add a
        condition (:meth:`_exclude`); then commit. False (counted unresolved) when no condition is found."""
        selected: list[int] = []
        shown: set[int] = set()
        while True:
            changed = cornerstones_changed(self.tree, proposal, self.cornerstones, self.index)
            shown.update(changed)
            bad = [
                cid
                for cid, (before, after) in changed.items()
                if cid != case_id and not self._acceptable(cid, before, after)
            ]
            if not bad:
                break
            selected.extend(bad)
            refined = self._exclude(case, proposal, selected, bad, score)
            if refined is None:
                self.stats.unresolved += 1
                return False
            proposal = refined
        rules = apply(self.tree, proposal, self.tree.max_id + 1, commit=True)
        self.cornerstones[case_id] = case
        self.index.add(case_id, case)
        for rule in rules:
            self.rule_cornerstone[rule.id] = case_id
        self.stats.rules += len(rules)
        self.stats.conditions += len(rules) * (len(proposal.conditions) + len(proposal.absent))
        self.stats.shown += len(shown - {case_id})
        return True

    def learn(self, case_id: int, case: frozenset[str], gold_labels: Iterable[str]) -> int:
        """Look at one case; make rules until its conclusions are right.  Returns rules made."""
        gold = {self.folders[label] for label in gold_labels}
        self.stats.cases_seen += 1
        if self.tree.folders(case) == gold:
            self.stats.accepted += 1
            return 0
        made = 0
        for _ in range(2 * len(self.folders) + 2):  # every round fixes one folder
            given = self.tree.folders(case)
            wrong = sorted(given - gold)
            missing = sorted(gold - given)
            if not wrong and not missing:
                break
            if wrong:
                bad = wrong[0]
                if missing:
                    proposal = proposal_for(self.tree, case, RuleKind.REFINE, folder=missing[0], wrong_folder=bad)
                else:
                    proposal = proposal_for(self.tree, case, RuleKind.STOP, wrong_folder=bad)
            else:
                bad = None
                proposal = RuleProposal(RuleKind.NEW, missing[0], frozenset())
            if self.cornerstone_gold.get(case_id) is None:
                self.cornerstone_gold[case_id] = gold
            before = self.stats.rules
            if not self._make_rule(case_id, case, proposal, bad):
                break
            made += self.stats.rules - before
        else:  # pragma: no cover - a safety net, rules always fix the folder they target
            self.stats.unresolved += 1
        return made


class RuleTraceExpert(SimulatedExpert):
    """Compton's simulated expert: a new rule's conditions are the case's path through the target label's
    tree (present words; absent-word tests as must-be-absent conditions), taken from the difference list.

    * new / refining rule for a missing label L: the case's path through L's tree;
    * stopping rule for a wrong label W: the case's path through W's tree (the path that says "not W");
    * a path with no usable present word (the tree is wrong about this case): the case's word with the best
      precision for the label in the training part (for a stop: for the case's own labels against W); for a
      new or refining rule, when that precision is below ``pair_below``, with the case's word that makes the
      pair most precise;
    * then, while a cornerstone case would change unacceptably, the best such word of the recomputed
      difference list, or failing that a must-be-absent word common to those cornerstone cases.

    Never an arbitrary word: when no word qualifies the correction is counted unresolved.
    """

    def __init__(self, knowledge: TraceKnowledge, folders: dict[str, int], seed: int = 0) -> None:
        super().__init__(Knowledge({}, {}), folders, k=1, noise=knowledge.settings.noise, seed=seed)
        self.trace = knowledge
        self.settings = knowledge.settings
        self._gold_names: set[str] = set()
        if self.settings.kb_aware:
            np = sklearn()["np"]
            #: the knowledge base's verdicts on the training part, kept up to date rule by rule: the folders
            #: each training case gets, and the rules that conclude for it
            self._kb_given = np.zeros((max(folders.values(), default=0) + 1, knowledge.n), dtype=bool)
            self._kb_rules: list[frozenset[int]] = [frozenset()] * knowledge.n
            self._kb_x = knowledge._x.tocsr()

    # ------------------------------------------------------------------ knowledge-base-aware rules (kb_aware)
    def _validate_and_commit(self, case_id: int, case: frozenset[str], proposal: RuleProposal, score) -> bool:
        last = self.tree.max_id
        committed = super()._validate_and_commit(case_id, case, proposal, score)
        if committed and self.settings.kb_aware:
            rule = self.tree.get(last + 1)  # every rule of one proposal has the same conditions
            self._kb_update(rule.conditions, rule.absent)
        return committed

    def _kb_update(self, present: Iterable[str], absent: Iterable[str]) -> None:
        """Recompute the verdicts of the training cases the new rule covers (no other case can change)."""
        np = sklearn()["np"]
        for i in np.flatnonzero(self.trace.cover(present, absent)):
            conclusions = self.tree.infer(self.trace.cases[i])
            self._kb_given[:, i] = False
            for c in conclusions:
                self._kb_given[c.folder, i] = True
            self._kb_rules[i] = frozenset(c.rule_id for c in conclusions)

    def _kb_universe(self, proposal: RuleProposal):
        """The training cases the proposal's rule can reach: all for a new rule, else those its parents conclude for."""
        np = sklearn()["np"]
        if proposal.kind == RuleKind.NEW:
            return np.ones(self.trace.n, dtype=bool)
        parents = set(proposal.parent_ids)
        return np.array([not parents.isdisjoint(r) for r in self._kb_rules], dtype=bool)

    def _kb_fresh(self, proposal: RuleProposal):
        """The training cases of the proposal's label it can reach that the knowledge base does not give it."""
        folder = cast(int, proposal.folder)
        y = self.trace._y[self.labels[folder]]
        return y & self._kb_universe(proposal) & ~self._kb_given[folder]

    def _kb_words(self, case: frozenset[str]) -> list[int]:
        """The case's words the expert can state from the training part (vocabulary indices, alphabetical)."""
        trace = self.trace
        least = self.settings.min_support
        return sorted(i for w in case if (i := trace.term_index.get(w)) is not None and trace.df[i] >= least)

    def _kb_choose(
        self, case: frozenset[str], proposal: RuleProposal, present: list[str], absent: list[str]
    ) -> tuple[list[str], list[str]]:
        """Of the rule it would state and the case's one- and two-word conjunctions, the conditions covering
        the most training cases of the label the knowledge base does not yet give it (less the weighted
        training cases outside the label taken in), at no lower training precision."""
        np = sklearn()["np"]
        trace = self.trace
        folder = cast(int, proposal.folder)
        y = trace._y[self.labels[folder]]
        universe = self._kb_universe(proposal)
        positive = y & universe
        uncovered = positive & ~self._kb_given[folder]
        weight = self.settings.kb_negative_weight
        mask = trace.cover(present, absent) & universe
        total, hits, new = int(mask.sum()), int((mask & positive).sum()), int((mask & uncovered).sum())
        m = self.settings.kb_m
        prior = float(positive.sum()) / max(int(universe.sum()), 1)
        floor = (hits + m * prior) / max(total + m, 1e-12)
        floor = max(floor, self.settings.kb_floor)
        covered_weight = self.settings.kb_covered_weight
        best = (new + covered_weight * (hits - new) - weight * (total - hits), floor)
        words = self._kb_words(case)
        rows = np.flatnonzero(universe)
        if not words or not len(rows):
            return present, absent
        xu = self._kb_x[rows][:, words].astype(np.float64)  # universe cases x case words
        pos = positive[rows].astype(np.float64)
        unc = uncovered[rows].astype(np.float64)
        totals = np.asarray(xu.sum(axis=0)).ravel()
        hit = xu.T @ pos
        fresh = xu.T @ unc
        candidates = [(totals, hit, fresh, None)]
        if self.settings.kb_pairs and len(words) > 1:
            xt = xu.T.tocsr()
            both = (xt @ xu).toarray()
            both_hit = (xt.multiply(pos) @ xu).toarray()
            both_fresh = (xt.multiply(unc) @ xu).toarray()
            upper = np.triu(np.ones((len(words), len(words)), dtype=bool), 1)
            if self.settings.kb_anchor:  # only pairs holding a word of the rule it would state
                anchor = np.array([trace.terms[i] in present for i in words])
                upper &= anchor[:, None] | anchor[None, :]
            candidates.append((np.where(upper, both, 0.0), both_hit, both_fresh, upper))
        chosen = None
        for tot, h, f, _ in candidates:
            with np.errstate(divide="ignore", invalid="ignore"):
                precision = np.where(tot > 0, (h + m * prior) / np.maximum(tot + m, 1e-12), 0.0)
            value = f + covered_weight * (h - f) - weight * (tot - h)
            ok = (tot >= self.settings.min_support) & (precision >= floor - 1e-12) & (f > 0)
            if not ok.any():
                continue
            value = np.where(ok, value, -np.inf)
            top = value.max()
            ties = ok & (value == top)
            precision_top = np.where(ties, precision, -1.0).max()
            at = np.flatnonzero((ties & (precision == precision_top)).ravel())[0]  # alphabetical first
            key = (float(top), float(precision_top))
            if key > best:  # a single word wins ties with a pair (it comes first)
                best = key
                chosen = [words[at]] if tot.ndim == 1 else [words[at // len(words)], words[at % len(words)]]
        if chosen is None:
            return present, absent
        return sorted(trace.terms[i] for i in chosen), []

    def _kb_choose_stop(
        self, case: frozenset[str], proposal: RuleProposal, wrong: int, present: list[str], absent: list[str]
    ) -> tuple[list[str], list[str]]:
        """Of the stop it would state and the case's words, the one that stops the most of the stopped rules'
        false positives among the training cases, stopping no more of their true positives."""
        np = sklearn()["np"]
        y = self.trace._y[self.labels[wrong]]
        universe = self._kb_universe(proposal)
        false = universe & ~y  # type: ignore[operator]
        true = universe & y
        mask = self.trace.cover(present, absent) & universe
        stopped_true = int((mask & true).sum())
        best = (int((mask & false).sum()), 0)
        words = self._kb_words(case)
        rows = np.flatnonzero(universe)
        if not words or not len(rows):
            return present, absent
        xu = self._kb_x[rows][:, words].astype(np.float64)
        fp = xu.T @ false[rows].astype(np.float64)
        tp = xu.T @ true[rows].astype(np.float64)
        ok = tp <= stopped_true
        if not ok.any():
            return present, absent
        fp = np.where(ok, fp, -1.0)
        at = int(np.flatnonzero(fp == fp.max())[0])
        if (float(fp[at]), 0) > best:
            return [self.trace.terms[words[at]]], []
        return present, absent

    def learn(self, case_id: int, case: frozenset[str], gold_labels: Iterable[str]) -> int:
        self._gold_names = set(gold_labels)
        return super().learn(case_id, case, self._gold_names)

    def _word_score(self, proposal: RuleProposal, wrong: int | None) -> Callable[[str], float]:
        trace = self.trace
        if proposal.kind == RuleKind.STOP:
            bad = self.labels[cast(int, wrong)]
            gold = sorted(self._gold_names)

            def stop_score(word: str) -> float:
                own = max((trace.precision(g, word) for g in gold), default=0.0)
                return own - trace.precision(bad, word)

            return stop_score
        target = self.labels[cast(int, proposal.folder)]
        return lambda word: trace.precision(target, word)

    def _path_conditions(self, case: frozenset[str], proposal: RuleProposal, wrong: int | None):
        """Present and absent conditions from the case's path in the relevant tree."""
        if proposal.kind == RuleKind.STOP and self.settings.stop_from == "gold":
            paths = [self.trace.path(g, case) for g in sorted(self._gold_names)]
            paths = [p for p in paths if p.positive and p.present]
            path = paths[0] if paths else TracePath([], False)
            useful = path.positive
        elif proposal.kind == RuleKind.STOP:
            path = self.trace.path(self.labels[cast(int, wrong)], case)
            useful = not path.positive  # the path that says "not W"
        else:
            label = self.labels[cast(int, proposal.folder)]
            if self.settings.knowledge == "words":
                return [], []
            rule = self.trace.covering_rule(label, case) if self.settings.knowledge in ("covering", "best") else None
            if rule is not None and self.settings.knowledge == "best":
                tree_path = self.trace.path(label, case)
                if tree_path.positive and tree_path.present:
                    present, absent = self.trace.generalize(
                        label, list(dict.fromkeys(tree_path.present)), tree_path.absent
                    )
                    precision, hits = self.trace.quality(label, present, absent)
                    if precision * hits > rule.precision * rule.positives:
                        return self._noisy(case, present), sorted(set(absent) - case)
            if rule is not None:  # the learned rule list's reason for the case, as learned (already pruned)
                return self._noisy(case, list(rule.present)), sorted(set(rule.absent) - case)
            path = self.trace.path(label, case).prefix(self.settings.precision)
            useful = path.positive
        if not useful:
            return [], []
        present = list(dict.fromkeys(path.present))
        absent = list(path.absent) if self.settings.absent else []
        if self.settings.generalize and proposal.kind != RuleKind.STOP and present:
            # the most general reason the path gives: its conditions the label does not need dropped
            fresh = None
            if self.settings.kb_aware and self.settings.kb_generalize:
                fresh = self._kb_fresh(proposal)
            present, absent = self.trace.generalize(self.labels[cast(int, proposal.folder)], present, absent, fresh)
        if self.settings.absent_limit is not None:
            absent = absent[: self.settings.absent_limit]
        limit = self.settings.max_conditions
        if limit and len(present) > limit:
            score = self._word_score(proposal, wrong)
            present = sorted(present, key=lambda w: (-score(w), w))[:limit]
        return self._noisy(case, present), sorted(set(absent) - case)

    def _noisy(self, case: frozenset[str], present: list[str]) -> list[str]:
        """The present conditions as stated: with ``noise``, a word now and then replaced by a random case word."""
        if self.noise and present:
            pool = sorted(case)
            present = [self.rng.choice(pool) if self.rng.random() < self.noise else w for w in present]
        return sorted(set(present))

    def _make_rule(self, case_id: int, case: frozenset[str], proposal: RuleProposal, wrong) -> bool:
        score = self._word_score(proposal, wrong)
        present, absent = self._path_conditions(case, proposal, wrong)
        fallback = not present
        if (
            not present
            and proposal.kind != RuleKind.STOP
            or (proposal.kind == RuleKind.STOP and not present and not absent)
        ):
            best = max(sorted(case), key=lambda w: (score(w), -len(w)), default=None)
            floor = 0.0 if proposal.kind == RuleKind.STOP else self.settings.fallback_precision
            if best is None or score(best) <= floor:
                self.stats.unresolved += 1
                return False
            present = [best]
            pair_below = self.settings.pair_below
            if proposal.kind != RuleKind.STOP and pair_below is not None and score(best) < pair_below:
                # a word that means the label only now and then: a person names the case's second word that
                # makes the pair reliable (in the training part), rather than a rule that fires too widely
                target = self.labels[cast(int, proposal.folder)]
                partner = self.trace.best_partner(target, best, case)
                if partner is not None and partner[1] > score(best):
                    present.append(partner[0])
            self.stats.fallbacks += 1
        if self.settings.kb_aware:
            scope = self.settings.kb_scope
            if proposal.kind != RuleKind.STOP:
                if scope == "all" or (scope == "fallback" and fallback) or (scope == "path" and not fallback):
                    present, absent = self._kb_choose(case, proposal, present, absent)
            elif self.settings.kb_stop:
                present, absent = self._kb_choose_stop(case, proposal, cast(int, wrong), present, absent)
        self._drafting = (case_id, wrong)
        if self.view is not None:
            stated = self._stated(case, proposal, present, absent, score)
            if stated is None:  # nothing it would state is on the page
                self.stats.unresolved += 1
                return False
            present, absent = stated
        return self._validate_and_commit(case_id, case, proposal.with_conditions(present, absent), score)

    def _substitute(self, proposal: RuleProposal, wrong: int | None, score, floor: float) -> Callable[[str], float]:
        """How the expert values a shown word in place of one not shown: for a new or refining rule, among the
        words it knows to mean the label at least SUBSTITUTE_PRECISION of the time, the one covering the most
        training cases of it; else its score above ``floor``. 0: not a word it would state."""
        if proposal.kind == RuleKind.STOP:
            return lambda w: score(w) if score(w) > floor else 0.0
        label = self.labels[cast(int, proposal.folder)]

        def value(word: str) -> float:
            precision = score(word)
            if precision <= floor:
                return 0.0
            if precision < SUBSTITUTE_PRECISION:
                return precision
            return 1.0 + self.trace.quality(label, [word], [])[1]

        return value

    def _stated(
        self, case: frozenset[str], proposal: RuleProposal, present: list[str], absent: list[str], score
    ) -> tuple[list[str], list[str]] | None:
        """The conditions as stated from the rule page's lists (research.suggestions): one at a time, in the
        expert's order, each from the lists of the draft as it stands; a word not among the words shown is
        replaced by the shown word the expert knows best for the label, a must-be-absent word is dropped.
        None when no condition is left (for a stopping rule: neither kind)."""
        view = cast(PageView, self.view)
        case_id, wrong = self._drafting
        floor = 0.0 if proposal.kind == RuleKind.STOP else self.settings.fallback_precision
        chosen: list[str] = []
        missing: list[str] = []
        substitute = self._substitute(proposal, wrong, score, floor)
        for word in sorted(present, key=lambda w: (-score(w), w)):
            ranked = view.ranked(self, case_id, case, proposal.with_conditions(chosen, missing), wrong)
            # a word not shown: replaced by a shown one only while the rule has none yet, else left out
            pick = view.choose(ranked, word, substitute=None if chosen else substitute, floor=0.0)
            if pick is not None and pick not in chosen:
                chosen.append(pick)
        for word in absent:
            ranked = view.ranked(self, case_id, case, proposal.with_conditions(chosen, missing), wrong)
            pick = view.choose(ranked, word, absent=True)
            if pick is not None and pick not in missing and pick not in case:
                missing.append(pick)
        if not chosen and (proposal.kind != RuleKind.STOP or not missing):
            return None
        return chosen, missing

    def _exclude(
        self, case: frozenset[str], proposal: RuleProposal, selected: list[int], bad: list[int], score
    ) -> RuleProposal | None:
        """The best word of the recomputed difference list the expert knows for the label; failing that, a
        word the offending cornerstone cases all hold and the case lacks, must be absent."""
        diff = difference_list(case, (self.cornerstones[c] for c in selected))
        diff = [w for w in diff if w not in proposal.conditions and score(w) > 0]
        view = self.view
        ranked = view.ranked(self, self._drafting[0], case, proposal, self._drafting[1]) if view else None
        if diff:
            word: str | None = max(diff, key=lambda w: (score(w), w))
            if view is not None and ranked is not None:  # stated from the page (research.suggestions)
                # the page lists words against the cases still changing: a shown word leaving them all unchanged
                now = difference_list(case, (self.cornerstones[c] for c in bad))
                allowed = {w for w in now if w not in proposal.conditions and score(w) > 0}
                word = view.choose(ranked, cast(str, word), substitute=lambda w: score(w) if w in allowed else 0.0)
            if word is not None:
                return proposal.with_conditions([word])
        common = set.intersection(*(set(self.cornerstones[c]) for c in bad)) - case - proposal.absent
        common = {w for w in common if self.trace.support(w) >= self.settings.min_support}
        if not common:
            return None
        word = min(common, key=lambda w: (score(w), w))
        if view is not None and ranked is not None:
            word = view.choose(
                ranked, word, absent=True, substitute=lambda w: -score(w) if w in common else -3.0, floor=-2.0
            )
        return proposal.with_conditions(absent=[word]) if word is not None else None


EXPERTS = ("trace", "svm")
#: a shown word the expert states in place of one not shown means the label at least this often in training
SUBSTITUTE_PRECISION = 0.9
