"""Multiple Classification Ripple-Down Rules (MCRDR): the rule tree and inference.

Pure Python, no Django: the persistence layer loads rows into a :class:`RuleTree`
and asks it for conclusions.

Terms (as in the thesis):

* a **case** is a set of keywords (an article's tokens after the filters);
* a **rule** holds keywords that must all be present (``conditions``), keywords
  that must be absent (``absent``) and a conclusion, a **folder** id;
* a **ground-breaking rule** hangs under the (implicit) root, a **refining rule**
  under a concluding rule with a different folder, a **stopping rule** (no folder)
  under any concluding rule: when it fires, its parent's folder is withheld.

Inference: the root's children are evaluated; for every satisfied rule all of its
children are evaluated; each path contributes the conclusion of its last satisfied
rule (nothing if that rule is a stopping rule).  A case can get several folders;
every :class:`Conclusion` carries the path of rule ids that produced it.

Speed: instead of walking the whole tree, each rule is filed in an inverted index
under one of its present-keywords, so a case only looks at rules one of whose
keywords it holds (plus the few rules that have absent-keywords only).  A rule
fires when it and all its ancestors are satisfied, which is exactly "reached by
the top-down walk and satisfied".
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import cast

from classifier.kinds import RuleKind


def keyword_set(values: Iterable[str], what: str = "keywords") -> frozenset[str]:
    """The one keyword normaliser: distinct keywords, each stripped of surrounding white space.

    Raises TypeError for a bare string (it would silently become a set of characters) and ValueError for a
    keyword that is not a string or is blank.
    """
    if isinstance(values, str):
        raise TypeError(f"{what} must be a collection of keywords, not the string {values!r}")
    words = set()
    for word in values:
        if not isinstance(word, str) or not word.strip():
            raise ValueError(f"{what} contains an invalid keyword: {word!r}")
        words.add(word.strip())
    return frozenset(words)


def as_case(case: Iterable[str]) -> frozenset[str]:
    """A case as a frozenset of keywords (accepts any iterable of strings)."""
    if isinstance(case, frozenset):
        return case
    if isinstance(case, str):
        raise TypeError("a case is a collection of keywords, not a single string")
    return frozenset(case)


@dataclass(frozen=True)
class Rule:
    """One MCRDR rule.  ``folder is None`` makes it a stopping rule."""

    id: int
    parent_id: int | None
    folder: int | None
    conditions: frozenset[str]
    absent: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if isinstance(self.id, bool) or not isinstance(self.id, int):
            raise TypeError(f"rule id must be an int, got {self.id!r}")
        object.__setattr__(self, "conditions", keyword_set(self.conditions, "conditions"))
        object.__setattr__(self, "absent", keyword_set(self.absent, "absent"))
        # A stopping rule may add no condition: it withholds its parent's folder wherever the parent fires
        # ("not this folder here"). Any other rule needs one, or it would fire on every case.
        if not self.conditions and not self.absent and not self.is_bare_stop:
            raise ValueError(f"rule {self.id} has no conditions: it would fire on every case")
        both = self.conditions & self.absent
        if both:
            raise ValueError(f"rule {self.id} requires keywords both present and absent: {sorted(both)}")

    @property
    def is_bare_stop(self) -> bool:
        return self.folder is None and self.parent_id is not None

    def satisfied_by(self, case: frozenset[str]) -> bool:
        """True when every condition keyword is in the case and no absent keyword is."""
        return self.conditions <= case and self.absent.isdisjoint(case)

    @property
    def kind(self) -> RuleKind:
        return RuleKind.of(self.parent_id, self.folder)


@dataclass(frozen=True)
class Conclusion:
    """A folder given to a case and the rule path (root side first) that gave it; in
    :attr:`Explanation.stopped`, a folder withheld by the stopping rule that ends the path."""

    folder: int
    path: tuple[int, ...]

    @property
    def rule_id(self) -> int:
        """The rule that concluded (last on the path)."""
        return self.path[-1]


@dataclass(frozen=True)
class Explanation:
    """Everything inference found for a case: the conclusions and the stopped paths."""

    conclusions: tuple[Conclusion, ...]
    stopped: tuple[Conclusion, ...] = ()  # folders withheld: the path ends in the stopping rule
    fired: frozenset[int] = field(default=frozenset())

    @property
    def folders(self) -> set[int]:
        return {c.folder for c in self.conclusions}


class RuleTree:
    """An MCRDR knowledge base: rules under an implicit root, with fast inference."""

    def __init__(self, rules: Iterable[Rule] = ()) -> None:
        self._rules: dict[int, Rule] = {}
        self._children: dict[int | None, list[int]] = {None: []}
        # inverted index: keyword -> ids of rules filed under it (one keyword per rule)
        self._by_keyword: dict[str, set[int]] = {}
        self._filed_under: dict[int, str] = {}
        # rules with no present-keyword (absent-only); checked for every case
        self._unindexed: set[int] = set()
        # Rules in any order, as long as their parents are in the batch: parents first, walking down from the
        # root (linear in the number of rules, whatever the depth of a refinement chain).
        waiting: dict[int | None, list[Rule]] = {}
        for rule in sorted(rules, key=lambda r: r.id):
            waiting.setdefault(rule.parent_id, []).append(rule)
        ready = deque(waiting.pop(None, []))
        while ready:
            rule = ready.popleft()
            self.add(rule)
            ready.extend(waiting.pop(rule.id, []))
        if waiting:
            missing = sorted(cast("set[int]", set(waiting)))
            raise ValueError(f"rules refer to unknown parent rules: {missing}")

    # ------------------------------------------------------------------ structure
    def __len__(self) -> int:
        return len(self._rules)

    def __iter__(self) -> Iterator[Rule]:
        """Rules in id order (parents are always added before their children)."""
        return iter(sorted(self._rules.values(), key=lambda r: r.id))

    def __contains__(self, rule_id: object) -> bool:
        return rule_id in self._rules

    def get(self, rule_id: int) -> Rule:
        try:
            return self._rules[rule_id]
        except KeyError:
            raise KeyError(f"no rule {rule_id}") from None

    def children(self, rule_id: int | None) -> list[Rule]:
        """Children of a rule (``None``: the ground-breaking rules), in id order."""
        if rule_id is not None and rule_id not in self._rules:
            raise KeyError(f"no rule {rule_id}")
        return [self._rules[i] for i in sorted(self._children.get(rule_id, ()))]

    def path(self, rule_id: int) -> tuple[int, ...]:
        """Rule ids from the ground-breaking rule down to ``rule_id``."""
        ids = []
        current: int | None = rule_id
        while current is not None:
            ids.append(current)
            current = self.get(current).parent_id
        return tuple(reversed(ids))

    @property
    def max_id(self) -> int:
        return max(self._rules, default=0)

    def check(self, rule: Rule) -> None:
        """Raise ValueError if ``rule`` cannot be added to this tree."""
        if rule.id in self._rules:
            raise ValueError(f"duplicate rule id {rule.id}")
        if rule.parent_id is None:
            if rule.folder is None:
                raise ValueError(f"stopping rule {rule.id} must sit under a concluding rule, not the root")
            return
        parent = self._rules.get(rule.parent_id)
        if parent is None:
            raise ValueError(f"rule {rule.id}: unknown parent rule {rule.parent_id}")
        if parent.folder is None:
            raise ValueError(f"rule {rule.id}: parent {parent.id} is a stopping rule and cannot have children")
        if rule.folder is not None and rule.folder == parent.folder:
            raise ValueError(
                f"refining rule {rule.id} must conclude a folder other than its parent's ({parent.folder})"
            )

    def add(self, rule: Rule) -> None:
        """Add a rule; ValueError on a duplicate id, unknown parent or invalid placement."""
        if not isinstance(rule, Rule):
            raise TypeError(f"expected a Rule, got {type(rule).__name__}")
        self.check(rule)
        self._rules[rule.id] = rule
        self._children.setdefault(rule.parent_id, []).append(rule.id)
        if rule.conditions:
            # file under the condition keyword with the shortest posting list so far;
            # sorted() makes the choice deterministic for equal lengths
            key = min(sorted(rule.conditions), key=lambda w: len(self._by_keyword.get(w, ())))
            self._by_keyword.setdefault(key, set()).add(rule.id)
            self._filed_under[rule.id] = key
        else:
            self._unindexed.add(rule.id)

    def remove(self, rule_id: int) -> Rule:
        """Remove a leaf rule (undo of the last rule); ValueError if it has children."""
        rule = self._rules.get(rule_id)
        if rule is None:
            raise ValueError(f"no rule {rule_id}")
        if self._children.get(rule_id):
            raise ValueError(f"rule {rule_id} has child rules; only a leaf can be removed")
        del self._rules[rule_id]
        self._children.pop(rule_id, None)
        self._children[rule.parent_id].remove(rule_id)
        key = self._filed_under.pop(rule_id, None)
        if key is None:
            self._unindexed.discard(rule_id)
        else:
            postings = self._by_keyword[key]
            postings.discard(rule_id)
            if not postings:
                del self._by_keyword[key]
        return rule

    # ------------------------------------------------------------------ inference
    def _satisfied(self, case: frozenset[str], extra: tuple[Rule, ...]) -> dict[int, Rule]:
        rules = self._rules
        found: dict[int, Rule] = {}
        by_keyword = self._by_keyword
        # iterate over the smaller side: the case's keywords or the index's keys
        if len(case) <= len(by_keyword):
            for word in case:
                ids = by_keyword.get(word)
                if ids:
                    for rid in ids:
                        rule = rules[rid]
                        if rule.conditions <= case and rule.absent.isdisjoint(case):
                            found[rid] = rule
        else:
            for word, ids in by_keyword.items():
                if word in case:
                    for rid in ids:
                        rule = rules[rid]
                        if rule.conditions <= case and rule.absent.isdisjoint(case):
                            found[rid] = rule
        for rid in self._unindexed:
            rule = rules[rid]
            if rule.absent.isdisjoint(case):
                found[rid] = rule
        for rule in extra:
            if rule.satisfied_by(case):
                found[rule.id] = rule
        return found

    def explain(self, case: Iterable[str], extra: Iterable[Rule] = ()) -> Explanation:
        """Conclusions and stopped paths for ``case``.

        ``extra`` adds hypothetical leaf rules (not stored) for a what-if evaluation,
        which is how knowledge acquisition previews a proposed rule.
        """
        case = as_case(case)
        extra = tuple(extra)
        satisfied = self._satisfied(case, extra)
        if not satisfied:
            return Explanation(())
        # a satisfied rule fires when all its ancestors are satisfied too
        fired: dict[int, bool] = {}

        def fires(rid: int) -> bool:
            known = fired.get(rid)
            if known is not None:
                return known
            chain = []
            current: int | None = rid
            result = True
            while current is not None:
                known = fired.get(current)
                if known is not None:
                    result = known
                    break
                rule = satisfied.get(current)
                if rule is None:
                    result = False
                    break
                chain.append(current)
                current = rule.parent_id
            for item in chain:
                fired[item] = result
            return result

        firing = [rid for rid in satisfied if fires(rid)]
        if not firing:
            return Explanation(())
        firing_set = set(firing)
        has_fired_child = {satisfied[rid].parent_id for rid in firing}
        conclusions: list[Conclusion] = []
        stopped: list[Conclusion] = []
        for rid in firing:
            if rid in has_fired_child:
                continue  # a deeper rule on this path decides
            rule = satisfied[rid]
            path = self._path_of(rid, satisfied)
            if rule.folder is not None:
                conclusions.append(Conclusion(rule.folder, path))
            else:
                # a stopping rule sits under a concluding rule (check()): both ids are ints
                parent = satisfied[cast(int, rule.parent_id)]
                stopped.append(Conclusion(cast(int, parent.folder), path))
        conclusions.sort(key=lambda c: c.path)
        stopped.sort(key=lambda s: s.path)
        return Explanation(tuple(conclusions), tuple(stopped), frozenset(firing_set))

    @staticmethod
    def _path_of(rid: int, satisfied: dict[int, Rule]) -> tuple[int, ...]:
        ids = []
        current: int | None = rid
        while current is not None:
            ids.append(current)
            current = satisfied[current].parent_id
        return tuple(reversed(ids))

    def infer(self, case: Iterable[str]) -> list[Conclusion]:
        """Conclusions for ``case``, ordered by rule path (deterministic)."""
        return list(self.explain(case).conclusions)

    def folders(self, case: Iterable[str]) -> set[int]:
        """The set of folders inference gives ``case``."""
        return {c.folder for c in self.explain(case).conclusions}
