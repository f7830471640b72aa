"""MCRDR engine semantics: rule kinds, inference paths, stopping, refinement, removal."""

import pytest

from classifier.engine import Conclusion, Rule, RuleTree
from classifier.kinds import RuleKind

SPORT, FOOTBALL, CRICKET, POLITICS, ECONOMY = 1, 2, 3, 4, 5


def r(rid, parent, folder, *conditions, absent=()):
    return Rule(rid, parent, folder, frozenset(conditions), frozenset(absent))


@pytest.fixture
def tree():
    #  1 sport <- {match}
    #    2 football <- {goal}
    #      3 stop <- {rugby}
    #      4 cricket <- {wicket}          (refinement inside refinement)
    #    5 stop <- {chess}
    #  6 politics <- {election}
    #    7 economy <- {budget}, absent {sport}
    return RuleTree(
        [
            r(1, None, SPORT, "match"),
            r(2, 1, FOOTBALL, "goal"),
            r(3, 2, None, "rugby"),
            r(4, 2, CRICKET, "wicket"),
            r(5, 1, None, "chess"),
            r(6, None, POLITICS, "election"),
            r(7, 6, ECONOMY, "budget", absent=["sport"]),
        ]
    )


def test_rule_kinds():
    assert r(1, None, SPORT, "a").kind == RuleKind.NEW
    assert r(2, 1, FOOTBALL, "a").kind == RuleKind.REFINE
    assert r(3, 1, None, "a").kind == RuleKind.STOP


def test_satisfied_by_present_and_absent_keywords():
    rule = r(1, None, SPORT, "match", "goal", absent=["rugby"])
    assert rule.satisfied_by(frozenset({"match", "goal", "extra"}))
    assert not rule.satisfied_by(frozenset({"match"}))
    assert not rule.satisfied_by(frozenset({"match", "goal", "rugby"}))


def test_no_rule_fires(tree):
    assert tree.infer({"weather", "rain"}) == []
    assert tree.folders(set()) == set()


def test_ground_breaking_rule_concludes(tree):
    assert tree.infer({"match", "report"}) == [Conclusion(SPORT, (1,))]


def test_refining_rule_replaces_parent_conclusion(tree):
    assert tree.infer({"match", "goal"}) == [Conclusion(FOOTBALL, (1, 2))]


def test_refinement_inside_refinement(tree):
    assert tree.infer({"match", "goal", "wicket"}) == [Conclusion(CRICKET, (1, 2, 4))]


def test_refining_rule_not_reached_without_parent(tree):
    # "goal" and "wicket" alone: rule 2 and 4 are satisfied but rule 1 is not
    assert tree.infer({"goal", "wicket"}) == []


def test_stopping_rule_withholds_parent_folder(tree):
    explanation = tree.explain({"match", "goal", "rugby"})
    assert explanation.conclusions == ()
    assert explanation.stopped == (Conclusion(FOOTBALL, (1, 2, 3)),)


def test_stop_and_sibling_refinement_both_evaluated(tree):
    # rule 3 stops football, rule 4 still gives cricket: both children of 2 are evaluated
    explanation = tree.explain({"match", "goal", "rugby", "wicket"})
    assert explanation.conclusions == (Conclusion(CRICKET, (1, 2, 4)),)
    assert explanation.stopped == (Conclusion(FOOTBALL, (1, 2, 3)),)


def test_stop_directly_under_ground_breaking_rule(tree):
    explanation = tree.explain({"match", "chess"})
    assert explanation.conclusions == ()
    assert explanation.stopped == (Conclusion(SPORT, (1, 5)),)
    # a refining sibling still concludes
    assert tree.infer({"match", "chess", "goal"}) == [Conclusion(FOOTBALL, (1, 2))]


def test_multiple_conclusions_from_separate_branches(tree):
    conclusions = tree.infer({"match", "goal", "election", "budget"})
    assert conclusions == [Conclusion(FOOTBALL, (1, 2)), Conclusion(ECONOMY, (6, 7))]
    assert tree.folders({"match", "goal", "election", "budget"}) == {FOOTBALL, ECONOMY}


def test_absent_keyword_blocks_refinement(tree):
    assert tree.infer({"election", "budget", "sport"}) == [Conclusion(POLITICS, (6,))]


def test_several_refinements_of_one_rule_all_conclude():
    tree = RuleTree([r(1, None, SPORT, "match"), r(2, 1, FOOTBALL, "goal"), r(3, 1, CRICKET, "wicket")])
    assert tree.infer({"match", "goal", "wicket"}) == [
        Conclusion(FOOTBALL, (1, 2)),
        Conclusion(CRICKET, (1, 3)),
    ]


def test_same_folder_from_two_paths_is_listed_twice_but_one_folder():
    tree = RuleTree([r(1, None, SPORT, "match"), r(2, None, SPORT, "goal")])
    assert tree.infer({"match", "goal"}) == [Conclusion(SPORT, (1,)), Conclusion(SPORT, (2,))]
    assert tree.folders({"match", "goal"}) == {SPORT}


def test_absent_only_rule_is_evaluated():
    tree = RuleTree([r(1, None, SPORT, "match"), Rule(2, 1, FOOTBALL, frozenset(), frozenset({"bat"}))])
    assert tree.folders({"match"}) == {FOOTBALL}
    assert tree.folders({"match", "bat"}) == {SPORT}


def test_inference_is_deterministic_and_accepts_any_iterable(tree):
    case = ["match", "goal", "election", "budget", "goal"]
    assert tree.infer(case) == tree.infer(frozenset(case)) == tree.infer(iter(case))


def test_invalid_rules_are_rejected():
    with pytest.raises(ValueError, match="no conditions"):
        Rule(1, None, SPORT, frozenset())
    with pytest.raises(ValueError, match="both present and absent"):
        r(1, None, SPORT, "a", absent=["a"])
    with pytest.raises(TypeError):
        Rule(1, None, SPORT, "match")  # a string is not a keyword set
    with pytest.raises(ValueError, match="invalid keyword"):
        r(1, None, SPORT, "")


def test_add_validates_placement(tree):
    with pytest.raises(ValueError, match="duplicate"):
        tree.add(r(1, None, SPORT, "x"))
    with pytest.raises(ValueError, match="unknown parent"):
        tree.add(r(99, 42, SPORT, "x"))
    with pytest.raises(ValueError, match="stopping rule and cannot have children"):
        tree.add(r(99, 3, SPORT, "x"))
    with pytest.raises(ValueError, match="stopping rule and cannot have children"):
        tree.add(r(99, 5, None, "x"))
    with pytest.raises(ValueError, match="not the root"):
        tree.add(r(99, None, None, "x"))
    with pytest.raises(ValueError, match="other than its parent"):
        tree.add(r(99, 2, FOOTBALL, "x"))
    assert len(tree) == 7


def test_constructor_accepts_rules_in_any_order():
    rules = [r(3, 2, CRICKET, "c"), r(1, None, SPORT, "a"), r(2, 1, FOOTBALL, "b")]
    tree = RuleTree(rules)
    assert [rule.id for rule in tree] == [1, 2, 3]
    with pytest.raises(ValueError, match="unknown parent"):
        RuleTree([r(2, 1, FOOTBALL, "b")])


def test_structure_accessors(tree):
    assert [c.id for c in tree.children(None)] == [1, 6]
    assert [c.id for c in tree.children(2)] == [3, 4]
    assert tree.children(4) == []
    assert tree.path(4) == (1, 2, 4)
    assert tree.get(7).absent == frozenset({"sport"})
    assert 7 in tree and 8 not in tree
    assert tree.max_id == 7
    with pytest.raises(KeyError):
        tree.get(8)


def test_remove_leaf_undoes_rule(tree):
    before = tree.infer({"match", "goal", "wicket"})
    tree.add(r(8, 4, POLITICS, "umpire"))
    assert tree.folders({"match", "goal", "wicket", "umpire"}) == {POLITICS}
    removed = tree.remove(8)
    assert removed.id == 8
    assert tree.infer({"match", "goal", "wicket", "umpire"}) == before
    assert 8 not in tree and len(tree) == 7


def test_remove_refuses_inner_rules_and_unknown_ids(tree):
    with pytest.raises(ValueError, match="child rules"):
        tree.remove(2)
    with pytest.raises(ValueError, match="no rule"):
        tree.remove(42)


def test_remove_keeps_index_consistent():
    tree = RuleTree([r(1, None, SPORT, "match"), r(2, None, POLITICS, "match", "vote")])
    tree.remove(2)
    assert tree.folders({"match", "vote"}) == {SPORT}
    tree.add(r(2, None, ECONOMY, "match", "vote"))
    assert tree.folders({"match", "vote"}) == {SPORT, ECONOMY}


# --- property: the indexed inference equals a plain top-down walk of the tree -------------

import contextlib  # noqa: E402

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

WORDS = ["a", "b", "c", "d", "e", "f", "g"]


def naive_infer(tree, case):
    """The textbook MCRDR walk, used as the oracle."""
    case = frozenset(case)
    out = []

    def walk(rule, path):
        fired_children = [c for c in tree.children(rule.id) if c.satisfied_by(case)]
        if not fired_children:
            if rule.folder is not None:
                out.append(Conclusion(rule.folder, path))
            return
        for child in fired_children:
            walk(child, path + (child.id,))

    for top in tree.children(None):
        if top.satisfied_by(case):
            walk(top, (top.id,))
    return sorted(out, key=lambda c: c.path)


@st.composite
def trees_and_cases(draw):
    tree = RuleTree()
    for rid in range(1, draw(st.integers(1, 25)) + 1):
        parents = [None] + [rule.id for rule in tree if rule.folder is not None]
        parent = draw(st.sampled_from(parents))
        folder = draw(st.sampled_from([None, 1, 2, 3, 4])) if parent else draw(st.integers(1, 4))
        cond = draw(st.frozensets(st.sampled_from(WORDS), min_size=1, max_size=3))
        absent = draw(st.frozensets(st.sampled_from(WORDS), max_size=1)) - cond
        rule = Rule(rid, parent, folder, cond, absent)
        with contextlib.suppress(ValueError):  # e.g. a refinement with the parent's own folder
            tree.add(rule)
    cases = draw(st.lists(st.frozensets(st.sampled_from(WORDS)), min_size=1, max_size=5))
    return tree, cases


@settings(max_examples=80, deadline=None)
@given(trees_and_cases())
def test_indexed_inference_matches_top_down_walk(data):
    tree, cases = data
    for case in cases:
        assert tree.infer(case) == naive_infer(tree, case)


def test_building_a_deep_refinement_chain_is_linear():
    """A 20,000-deep chain made every knowledge-base load take 10 s (each pass added one level): the tree is now
    built in one walk from the root, so each rule's parent is looked at a bounded number of times."""
    from classifier.engine import Rule, RuleTree

    looked_at = [0]

    class CountingRule(Rule):
        def __getattribute__(self, name):
            if name == "parent_id":
                looked_at[0] += 1
            return super().__getattribute__(name)

    n = 20_000
    chain = [CountingRule(i, i - 1 if i > 1 else None, 1 + i % 2, frozenset({f"k{i}"})) for i in range(1, n + 1)]
    looked_at[0] = 0
    tree = RuleTree(reversed(chain))  # any order: children before parents here
    assert len(tree.path(n)) == n
    assert looked_at[0] <= 5 * n, looked_at[0]


def test_rules_whose_parents_are_missing_or_circular_are_refused():
    from classifier.engine import Rule, RuleTree

    with pytest.raises(ValueError, match=r"unknown parent rules: \[7\]"):
        RuleTree([Rule(1, None, 1, frozenset({"a"})), Rule(2, 7, 2, frozenset({"b"}))])
    with pytest.raises(ValueError, match="unknown parent rules"):
        RuleTree([Rule(1, None, 1, frozenset({"a"})), Rule(2, 3, 2, frozenset({"b"})), Rule(3, 2, 1, frozenset({"c"}))])
