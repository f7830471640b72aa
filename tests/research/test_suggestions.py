"""The rule page as the simulated expert reads it (research.suggestions.PageView): the page's own ranking."""

from classifier.acquisition import RuleProposal, proposal_for
from classifier.engine import Rule, RuleTree
from classifier.kinds import RuleKind
from research.experts import SimulatedExpert
from research.knowledge import Knowledge
from research.suggestions import PageView


def test_the_simulated_page_ranks_with_the_page_s_own_function():
    """The first word of a new rule on an empty knowledge base: the folder's name, then the case's keywords."""

    folders = {"sport": 1, "business": 2}
    view = PageView(folders, limit=2)
    expert = SimulatedExpert(Knowledge({}, {}), folders)
    case = frozenset({"goal", "sport", "shares", "title:goal"})
    view.arrive(case, {"goal": 3.0, "sport": 1.0, "shares": 1.0})
    assert max(view.keywords, key=view.keywords.get) == "goal"

    ranked = view.ranked(expert, 1, case, RuleProposal(RuleKind.NEW, 1, frozenset()), None)
    # the words themselves before the title words made of them
    assert [item.word for item in ranked.conditions] == ["sport", "goal", "shares", "title:goal"]
    assert view.choose(ranked, "goal") == "goal" and view.ranks == [2]
    assert view.choose(ranked, "shares") is None  # not among the first two shown, nothing to put instead
    assert view.choose(ranked, "shares", substitute=lambda w: 1.0 if w == "sport" else 0.0) == "sport"
    view.decided(case, [1])
    assert view.decisions(["goal", "nothing"], 1, None) == {"goal": (1, 1)}
    assert view.decisions(["goal"], None, 2) == {"goal": (1, 1)}  # a stop of business: agrees where not business


def test_the_simulated_page_counts_a_stopping_rules_decisions_where_its_parent_fires():
    """As the rule page: a stopping rule can change only the cases the rule it sits under fires on, so its
    list's precision counts the decisions there; over every case, a word of most cases looked sure."""

    view = PageView({"sport": 1, "business": 2})
    tree = RuleTree([Rule(1, None, 1, frozenset({"match"}))])
    for words, folder in [("match goal years", 1), ("match years", 1), ("years shares", 2), ("years bank", 2)]:
        view.decided(frozenset(words.split()), [folder])
    case = frozenset({"match", "years", "chess"})
    proposal = proposal_for(tree, case, "stop", wrong_folder=1)
    scope = view.scope(tree, proposal)
    assert scope is not None and sorted(sorted(words) for words, _folders in scope) == [
        ["goal", "match", "years"],
        ["match", "years"],
    ]
    # "years": every case the sport rule files holding it is rightly in sport; over every case, half agree
    assert view.decisions(["years", "chess"], None, 1, scope) == {"years": (0, 2)}
    assert view.decisions(["years", "chess"], None, 1) == {"years": (2, 4)}
