"""Knowledge acquisition: proposals, cornerstone cases, changed cases, difference lists, index."""

import random

import pytest

from classifier.acquisition import (
    PRECISION_WORDS,
    SEARCH_WORDS,
    RuleProposal,
    _unscored_front,
    apply,
    changed_cases,
    cornerstones_changed,
    difference_list,
    name_words,
    proposal_for,
    ranked_difference_lists,
    ranked_precision,
    reached_cases,
    suggested_rule,
    suggestions,
    wilson_lower_bound,
)
from classifier.engine import Rule, RuleTree
from classifier.index import KeywordIndex
from classifier.kinds import RuleKind

SPORT, FOOTBALL, POLITICS, ECONOMY = 1, 2, 3, 4


def fs(*words):
    return frozenset(words)


@pytest.fixture
def tree():
    return RuleTree(
        [
            Rule(1, None, SPORT, fs("match")),
            Rule(2, 1, FOOTBALL, fs("goal")),
            Rule(3, None, POLITICS, fs("vote")),
            Rule(4, None, SPORT, fs("stadium")),
        ]
    )


# cornerstone cases of rules 1..4, keyed by case id
CORNERSTONES = {
    101: fs("match", "tennis", "serve"),
    102: fs("match", "goal", "penalty"),
    103: fs("vote", "parliament"),
    104: fs("stadium", "concert"),
}


def test_new_proposal_sits_under_root(tree):
    p = proposal_for(tree, fs("budget", "tax"), "new", folder=ECONOMY, conditions=["budget"])
    assert p == RuleProposal("new", ECONOMY, fs("budget"), parent_ids=(None,))


def test_refine_goes_under_every_rule_that_gave_the_wrong_folder(tree):
    case = fs("match", "stadium", "vote", "ballot")
    p = proposal_for(tree, case, "refine", folder=POLITICS, wrong_folder=SPORT)
    assert p.parent_ids == (1, 4)
    rules = apply(tree, p.with_conditions(["ballot"]), first_id=10)
    assert [(rule.id, rule.parent_id, rule.folder, rule.kind) for rule in rules] == [
        (10, 1, POLITICS, RuleKind.REFINE),
        (11, 4, POLITICS, RuleKind.REFINE),
    ]
    assert len(tree) == 4  # not committed


def test_refine_of_a_refinement_goes_under_the_deepest_rule(tree):
    case = fs("match", "goal", "hockey")
    p = proposal_for(tree, case, "refine", folder=SPORT + 10, wrong_folder=FOOTBALL)
    assert p.parent_ids == (2,)


def test_stop_proposal(tree):
    case = fs("vote", "eurovision", "song")
    p = proposal_for(tree, case, "stop", wrong_folder=POLITICS, conditions=["eurovision"])
    assert p.kind == "stop" and p.folder is None and p.parent_ids == (3,)
    (rule,) = apply(tree, p, first_id=5, commit=True)
    assert rule.kind == RuleKind.STOP
    assert tree.folders(case) == set()
    assert tree.explain(case).stopped[0].path == (3, 5)


def test_proposal_errors(tree):
    case = fs("match", "tennis")
    with pytest.raises(ValueError, match="not given folder"):
        proposal_for(tree, case, "refine", folder=POLITICS, wrong_folder=ECONOMY)
    with pytest.raises(ValueError, match="needs the wrong folder"):
        proposal_for(tree, case, "stop")
    with pytest.raises(ValueError, match="other than the wrong one"):
        proposal_for(tree, case, "refine", folder=SPORT, wrong_folder=SPORT)
    with pytest.raises(ValueError, match="lacks condition"):
        proposal_for(tree, case, "new", folder=ECONOMY, conditions=["budget"])
    with pytest.raises(ValueError, match="required absent"):
        proposal_for(tree, case, "new", folder=ECONOMY, absent=["tennis"])
    with pytest.raises(ValueError, match="unknown rule kind"):
        proposal_for(tree, case, "move", folder=ECONOMY)
    with pytest.raises(ValueError, match="needs a target folder"):
        RuleProposal("new", None, fs("a"))
    with pytest.raises(ValueError, match="under the root only"):
        RuleProposal("new", 1, fs("a"), parent_ids=(1,))


def test_apply_refuses_empty_conditions_and_invalid_placement(tree):
    p = proposal_for(tree, fs("budget"), "new", folder=ECONOMY)
    with pytest.raises(ValueError, match="no conditions"):
        apply(tree, p, first_id=5)
    with pytest.raises(ValueError, match="duplicate"):
        apply(tree, p.with_conditions(["budget"]), first_id=4)


def test_apply_commit_is_all_or_nothing(tree):
    bad = RuleProposal("refine", ECONOMY, fs("x"), parent_ids=(1, 99))
    with pytest.raises(ValueError, match="unknown parent"):
        apply(tree, bad, first_id=5, commit=True)
    assert len(tree) == 4 and 5 not in tree


def test_changed_cases_lists_only_cases_whose_folders_change(tree):
    cases = dict(CORNERSTONES)
    cases[200] = fs("match", "tennis", "wimbledon")
    # refining "sport" (rule 1) to politics for cases holding "tennis"
    p = RuleProposal("refine", POLITICS, fs("tennis"), parent_ids=(1,))
    assert changed_cases(tree, p, cases) == {
        101: ({SPORT}, {POLITICS}),
        200: ({SPORT}, {POLITICS}),
    }
    # rule 1 does not conclude for 102 (rule 2 does): a sibling refinement would add a folder
    p2 = RuleProposal("refine", POLITICS, fs("match"), parent_ids=(1,))
    assert changed_cases(tree, p2, cases)[102] == ({FOOTBALL}, {FOOTBALL, POLITICS})


def test_new_rule_for_an_existing_folder_changes_only_cases_without_it(tree):
    p = RuleProposal("new", SPORT, fs("match"))
    # 101 already is in sport; 102 was refined to football and now gets sport as well
    assert changed_cases(tree, p, CORNERSTONES) == {102: ({FOOTBALL}, {FOOTBALL, SPORT})}


def test_empty_proposal_shows_every_case_the_parent_rule_reaches(tree):
    p = RuleProposal("stop", None, fs(), parent_ids=(1,))
    assert changed_cases(tree, p, CORNERSTONES) == {
        101: ({SPORT}, set()),
        # 102: rule 1 fires but rule 2 concludes; a stopping leaf does not block its sibling
    }
    p_new = RuleProposal("new", ECONOMY, fs())
    assert set(changed_cases(tree, p_new, CORNERSTONES)) == set(CORNERSTONES)


def test_index_limits_work_but_not_the_answer(tree):
    cases = {i: fs("match", f"w{i}", *(["tennis"] if i % 3 == 0 else [])) for i in range(60)}
    index = KeywordIndex(cases.items())
    p = RuleProposal("refine", POLITICS, fs("tennis"), parent_ids=(1,))
    plain = changed_cases(tree, p, cases)
    assert changed_cases(tree, p, cases, index=index) == plain
    assert set(plain) == {i for i in range(60) if i % 3 == 0}


def test_validation_loop_difference_list_then_no_cornerstone_changes(tree):
    """The expert's loop: see changed cornerstones, pick keywords from the difference list."""
    new_case = fs("match", "tennis", "doping", "ban")
    p = proposal_for(tree, new_case, "refine", folder=POLITICS, wrong_folder=SPORT)
    shown = cornerstones_changed(tree, p, CORNERSTONES)
    # 101 would lose sport; 102 would gain politics beside football (sibling refinement)
    assert set(shown) == {101, 102}
    diff = difference_list(new_case, [CORNERSTONES[i] for i in shown])
    assert diff == ["ban", "doping"]
    p = p.with_conditions([diff[0]])
    assert cornerstones_changed(tree, p, CORNERSTONES) == {}
    (rule,) = apply(tree, p, first_id=tree.max_id + 1, commit=True)
    assert tree.folders(new_case) == {POLITICS}
    assert tree.folders(CORNERSTONES[101]) == {SPORT}


def test_difference_list_is_recomputed_as_cases_are_selected():
    case = fs("a", "b", "c", "d")
    assert difference_list(case, []) == ["a", "b", "c", "d"]
    assert difference_list(case, [fs("a", "x")]) == ["b", "c", "d"]
    assert difference_list(case, [fs("a", "x"), fs("b", "c")]) == ["d"]
    assert difference_list(case, [fs("a", "b", "c", "d", "e")]) == []


def words(items):
    return [item.word for item in items]


def test_ranked_difference_lists_offer_both_directions_where_the_intersection_is_empty():
    """Case {a,b,c} against {a,c,x} and {b,c,y}: the old intersection is empty, yet a & b or NOT x & NOT y work."""
    case = fs("a", "b", "c")
    stones = {1: fs("a", "c", "x"), 2: fs("b", "c", "y")}
    assert difference_list(case, stones.values()) == []  # the old list, kept as it was
    ranked = ranked_difference_lists(case, stones)
    assert words(ranked.conditions) == ["a", "b", "c"]
    assert [(i.word, i.excludes) for i in ranked.conditions] == [("a", 1), ("b", 1), ("c", 0)]
    assert [(i.word, i.excludes) for i in ranked.absent] == [("x", 1), ("y", 1)]
    assert ranked.per_case == {1: (("b",), ("x",)), 2: (("a",), ("y",))}
    assert ranked.changing == 2


def test_ranked_difference_lists_rank_by_exclusions_then_precision_then_prior_rules():
    case = fs("goal", "match", "penalty", "referee", "var")
    stones = {
        1: fs("match", "tennis", "serve"),
        2: fs("match", "referee", "tennis"),
        3: fs("match", "var", "serve", "tennis"),
    }
    precision = {"goal": 0.5, "penalty": 0.9, "referee": 0.99, "tennis": 0.8, "serve": 0.1}
    ranked = ranked_difference_lists(case, stones, precision=precision, prior=["goal", "var"])
    # goal and penalty exclude all three (penalty is more precise); referee and var two each (referee is
    # more precise), match none
    assert [(i.word, i.excludes) for i in ranked.conditions] == [
        ("penalty", 3),
        ("goal", 3),
        ("referee", 2),
        ("var", 2),
        ("match", 0),
    ]
    # tennis is in all three; serve in two, with a precision low for the rule's folder (a good absent word)
    assert [(i.word, i.excludes) for i in ranked.absent] == [("tennis", 3), ("serve", 2)]
    # among equals, an unknown precision comes after a known one above the prior's bound and before one below
    # it, and of two unknown a word earlier rules use first
    tied = ranked_difference_lists(fs("p", "q", "r", "s"), {1: fs("z")}, precision={"r": 0.6, "s": 0.1}, prior=["q"])
    assert words(tied.conditions) == ["r", "q", "p", "s"]
    assert tied.conditions[1].prior and tied.conditions[0].precision == 0.6


def test_condition_words_rank_by_how_sure_their_precision_is_not_by_their_share_alone():
    """Sixty agreeing cases of eighty say more than three of three; a word no accepted case holds yet ranks as the
    prior, after the words with agreeing evidence and before one whose cases disagree (ranked_precision)."""
    case = fs("shares", "fiscal", "borussia", "club")
    precision = {"shares": 0.75, "fiscal": 1.0, "club": 0.0}
    support = {"shares": 80, "fiscal": 3, "club": 2}
    ranked = ranked_difference_lists(case, {}, precision=precision, support=support)
    assert words(ranked.conditions) == ["shares", "fiscal", "borussia", "club"]
    assert ranked_precision(0.75, 80) > ranked_precision(1.0, 3) > ranked_precision(None, None)
    assert ranked_precision(None, None) > ranked_precision(0.0, 2) and ranked_precision(0.4, None) == 0.4
    # among equal shares the larger support first; must-be-absent words keep low precision first, unknown last
    assert ranked_precision(1.0, 30) > ranked_precision(1.0, 2)
    absent = ranked_difference_lists(
        fs("a"), {1: fs("x", "y", "z")}, precision={"x": 0.9, "y": 0.1}, support={"x": 10, "y": 10}
    ).absent
    assert words(absent) == ["y", "x", "z"]
    assert wilson_lower_bound(0, 0) == 0.0 and 0.69 < wilson_lower_bound(61, 82) < 0.70


def test_ranked_difference_lists_use_only_the_cornerstones_still_changing_and_skip_chosen_words():
    case = fs("a", "b", "c")
    # with no cornerstone changing every keyword is still offered (to make the rule precise), none excluding
    nothing = ranked_difference_lists(case, {})
    assert [(i.word, i.excludes) for i in nothing.conditions] == [("a", 0), ("b", 0), ("c", 0)]
    assert nothing.absent == () and nothing.per_case == {}
    ranked = ranked_difference_lists(case, {2: fs("b", "c", "y")}, chosen=["a"])
    assert words(ranked.conditions) == ["b", "c"] and words(ranked.absent) == ["y"]
    assert ranked.per_case == {2: ((), ("y",))}


def test_keyword_index():
    index = KeywordIndex()
    index.add(1, ["a", "b"])
    index.add(2, ["b", "c"])
    index.add(3, ["a", "b", "c"])
    assert index.candidates(["b"]) == {1, 2, 3}
    assert index.candidates(["a", "b"]) == {1, 3}
    assert index.candidates(["a", "c"]) == {3}
    assert index.candidates(["z"]) == set()
    assert index.candidates([]) == {1, 2, 3}
    assert index.candidates(["b"], absent=["c"]) == {1}
    assert index.frequency("b") == 3
    index.add(3, ["z"])  # re-adding replaces the keywords
    assert index.candidates(["a"]) == {1}
    assert index.candidates(["z"]) == {3}
    index.remove(1)
    assert index.candidates(["a"]) == set() and index.frequency("a") == 0
    assert len(index) == 2 and 1 not in index
    with pytest.raises(KeyError):
        index.remove(1)
    # the caller's result is a copy: mutating it does not corrupt the postings
    index.candidates(["b"]).clear()
    assert index.candidates(["b"]) == {2}


def test_on_a_new_knowledge_base_the_article_s_keywords_lead_then_rarity():
    """No cornerstone case, no decision: the folder's name, the article's DocView keywords (the words themselves
    before the title words and phrases made of them), then the words rare among the stored cases."""
    case = fs("accounting", "adults", "sleep", "bedroom", "title:sleep", "bedroom sleep", "night", "pupils")
    keywords = {"bedroom": 0.6, "sleep": 0.5}
    frequency = {"accounting": 9, "adults": 2, "night": 5, "pupils": 1}
    ranked = ranked_difference_lists(case, {}, keywords=keywords, frequency=frequency)
    assert words(ranked.conditions) == [
        "bedroom",
        "sleep",
        "bedroom sleep",  # as heavy as title:sleep (its lighter word), then alphabetically
        "title:sleep",
        "pupils",
        "adults",
        "night",
        "accounting",
    ]
    assert ranked.conditions[0].weight == 0.6 and ranked.conditions[4].cases == 1
    named = ranked_difference_lists(case, {}, keywords=keywords, frequency=frequency, named=name_words("Health/Sleep"))
    assert words(named.conditions)[:2] == ["sleep", "title:sleep"] and named.conditions[0].named
    assert named.rank("sleep") == 1 and named.rank("pupils") == 5 and named.rank("nothing") is None
    # exclusions still come first once a cornerstone case would change
    stone = ranked_difference_lists(case, {7: fs("sleep", "bedroom")}, keywords=keywords, frequency=frequency)
    assert words(stone.conditions)[:2] == ["bedroom sleep", "title:sleep"] and stone.conditions[0].excludes == 1


def test_name_words_are_the_folder_s_own_name():
    assert name_words("Health/Child health") == {"child", "health"}
    assert name_words("money-fx") == {"money", "fx"}


def test_suggestions_ask_precision_for_every_condition_and_the_best_placed_absent_words():
    case = fs(*(f"w{n:02}" for n in range(PRECISION_WORDS + 10)))
    asked: list[set[str]] = []

    def decisions_of(front):
        asked.append(set(front))
        return {"w39": (3, 3), "w38": (1, 1), "w37": (0, 2)}

    ranked = suggestions(case, {1: fs(*(f"x{n:02}" for n in range(PRECISION_WORDS + 10)))}, decisions_of, search="x3")
    # every condition word, the best placed absent words and those matching the search (x30..x39)
    assert len(asked) == 1 and len(asked[0]) == 2 * PRECISION_WORDS + 10 + 10
    # three agreeing cases outweigh one; a word no accepted case holds ranks as the prior, before one that
    # none of its two cases agree with
    assert words(ranked.conditions)[:2] == ["w39", "w38"] and words(ranked.conditions)[-1] == "w37"
    assert (ranked.conditions[0].precision, ranked.conditions[0].support) == (1.0, 3)


def test_the_suggested_rule_takes_ranked_words_until_every_changing_case_is_left_unchanged():
    case = fs("a", "b", "c", "d")
    stones = {1: fs("a", "x"), 2: fs("a", "b")}
    ranked = ranked_difference_lists(case, stones, keywords={"a": 0.9, "b": 0.5, "c": 0.4, "d": 0.1})
    assert words(ranked.conditions) == ["c", "d", "b", "a"]
    assert suggested_rule(ranked, stones) == ("c",)
    assert suggested_rule(ranked_difference_lists(case, {}, keywords={"b": 1.0}), {}) == ("b",)
    # no word leaves the second case unchanged alone: the first that leaves one more, then stop at most
    hard = {1: fs("a", "b"), 2: fs("c", "d")}
    plain = ranked_difference_lists(case, hard)
    assert suggested_rule(plain, hard) == ("a", "c")
    assert suggested_rule(ranked_difference_lists(fs(), {}), {}) == ()


def _elmstead_kb():
    """A made-up knowledge base (issue 30): a diabetes follow-up set in the town of Elmstead, whose heaviest
    DocView keyword is the town; the stored articles: two more diabetes-clinic stories, four stories that mention
    diabetes in passing, and five other stories set in Elmstead."""
    own = {"elmstead": 3.0, "diabetes": 2.5, "clinics": 2.0, "nurses": 1.5, "referrals": 1.0}
    case = fs(*own, "health", "board")
    stored = KeywordIndex(
        [
            (0, case),
            (1, fs("diabetes", "clinics", "nurses", "oakley")),
            (2, fs("diabetes", "clinics", "referrals", "larkhill")),
            *((n, fs("diabetes", "heart", "exercise", "health")) for n in (3, 4, 5, 6)),
            *((n, fs("elmstead", "council", "road", "board")) for n in (7, 8, 9, 10, 11)),
        ]
    )
    return case, own, stored


def test_the_suggested_rule_leads_with_the_subject_not_a_place_and_narrows_a_wide_reach():
    case, own, stored = _elmstead_kb()
    ranked = ranked_difference_lists(case, {}, keywords=own)
    assert words(ranked.conditions)[:3] == ["elmstead", "diabetes", "clinics"]  # the ranking is unchanged

    def reach(chosen):  # the other stored articles holding every word
        return len(stored.candidates(chosen) - {0})

    assert suggested_rule(ranked, {}) == ("elmstead",)  # as before, without what the page now gives it
    assert reach(fs("elmstead")) == 5 and reach(fs("diabetes")) == 6
    # the town gives way to the subject, and "diabetes" alone would file six stories, four of them passing
    # mentions: the next strong keyword narrows it to the two diabetes-clinic stories
    suggested = suggested_rule(ranked, {}, reach=reach, proper={"elmstead"})
    assert suggested == ("diabetes", "clinics") and reach(fs(*suggested)) == 2
    # without names the lone town would be narrowed too; narrow enough already, a word stays alone
    assert suggested_rule(ranked, {}, reach=reach) == ("elmstead", "diabetes")
    assert suggested_rule(ranked, {}, reach=lambda chosen: 3, proper={"elmstead"}) == ("diabetes",)
    # the town stays first when no other word is supported as well: the stored decisions favour it
    sure = ranked_difference_lists(case, {}, {"elmstead": 1.0}, keywords=own, support={"elmstead": 5})
    assert suggested_rule(sure, {}, reach=lambda chosen: 0, proper={"elmstead"}) == ("elmstead",)


def test_the_suggested_rule_still_leaves_every_changing_cornerstone_unchanged_first():
    case, own, stored = _elmstead_kb()
    stones = {1: stored.keywords(1)}  # a diabetes-clinic story the rule must not file: its words cannot lead

    def reach(chosen):
        return len(stored.candidates(chosen) - {0})

    ranked = ranked_difference_lists(case, stones, keywords=own)
    assert words(ranked.conditions)[:2] == ["elmstead", "referrals"]  # the two keywords it lacks
    # the town leaves it unchanged but reaches five other stories: the next word of the pool narrows it
    assert suggested_rule(ranked, stones, reach=reach) == ("elmstead", "referrals")
    # the town gives way to the next word that leaves it unchanged, which reaches one other story
    assert suggested_rule(ranked, stones, reach=reach, proper={"elmstead"}) == ("referrals",)


def _injections_kb():
    """A made-up knowledge base (the live trial): "Demand for weight-loss injections", filed in Health/Sleep by
    "IF sleep" as it mentions sleep apnoea. The stored decisions make the common words sure for a stopping rule
    (most stored articles holding "years" or "clinics" are not in Sleep), so they lead its ranking; the
    article's own telling keywords come after. Of the stored articles the Sleep rule fires on, four are
    sleep-clinic stories and one mentions weight."""
    own = {"injections": 3.0, "weight": 2.5, "obesity": 2.0, "clinics": 1.5, "sleep": 1.0}
    case = fs(*own, "years", "people", "said", "health")
    stored = KeywordIndex(
        [
            (0, case),
            *((n, fs("sleep", "clinics", "years", "apnoea")) for n in (1, 2, 3, 4)),
            (5, fs("sleep", "weight", "years")),
            (6, fs("sleep", "insomnia", "people")),
            *((n, fs("clinics", "years", "people", "said", "health")) for n in range(7, 30)),
        ]
    )
    agreeing = {"years": (45, 48), "clinics": (38, 42), "people": (9, 10), "said": (20, 22), "health": (18, 20)}
    agreeing |= {"weight": (2, 3), "injections": (1, 1), "sleep": (0, 6)}
    precision = {w: agree / n for w, (agree, n) in agreeing.items()}
    support = {w: n for w, (_agree, n) in agreeing.items()}

    def reach(chosen):  # the other stored articles the Sleep rule fires on that hold every word
        return len(stored.candidates(chosen) & stored.candidates(fs("sleep")) - {0})

    return case, own, precision, support, reach


def test_a_suggested_stopping_rule_leads_with_the_articles_own_keyword_of_smallest_reach():
    case, own, precision, support, reach = _injections_kb()
    ranked = ranked_difference_lists(case, {}, precision, keywords=own, support=support)
    # the ranking is unchanged: the common words first, "clinics" second, the telling keywords past the fifth
    assert words(ranked.conditions)[:2] == ["years", "clinics"] and ranked.rank("injections") > 5
    assert suggested_rule(ranked, {}) == ("years",)  # "IF years THEN withhold Health/Sleep", as in the trial
    assert reach(fs("clinics")) == 4 and reach(fs("years")) == 5  # every sleep-clinic story would lose Sleep
    # a stopping rule leads with the article's own keyword that few Sleep articles hold (up to WIDE_REACH
    # alike: "injections", none, "weight", one, "obesity", none), the heaviest: withholding Sleep from no other
    assert suggested_rule(ranked, {}, reach=reach, stop=True) == ("injections",)
    assert suggested_rule(ranked, {}, reach=lambda chosen: 1 + 9 * ("injections" in chosen), stop=True) == ("weight",)
    # a Sleep cornerstone story about injections for apnoea: the heaviest keyword it lacks leads
    stones = {31: fs("sleep", "apnoea", "injections")}
    ranked = ranked_difference_lists(case, stones, precision, keywords=own, support=support)

    def reach_with_stone(chosen):
        return reach(chosen) + (chosen <= stones[31])

    assert suggested_rule(ranked, stones, reach=reach_with_stone, stop=True) == ("weight",)
    # without a reach (or for a new rule) the pick is as before
    assert suggested_rule(ranked, {}, stop=True) == suggested_rule(ranked, {})


def test_reached_cases_are_those_the_rule_would_fire_on_under_its_parents(tree):
    cases = [(1, fs("match", "goal")), (2, fs("match", "vote")), (3, fs("goal"))]
    new = RuleProposal(RuleKind.NEW, POLITICS, fs("goal"))
    assert reached_cases(tree, new, cases) == {1: {FOOTBALL}, 3: set()}
    refine = RuleProposal(RuleKind.REFINE, ECONOMY, fs("goal"), parent_ids=(1,))
    assert reached_cases(tree, refine, cases) == {1: {FOOTBALL}}  # case 3 is not in Sport: rule 1 does not fire


def test_suggestions_ask_for_the_words_the_unscored_ranking_places_first():
    """suggestions() picks the words it asks the precision of without ranking every must-be-absent word; they
    are those the full ranking with no precision known places first (random drafts, ties on every other key)."""
    rng = random.Random(3)
    vocabulary = [f"w{n}" for n in range(400)] + ["big deal", "title:w1", "url:w2"]
    for _ in range(40):
        case = frozenset(rng.sample(vocabulary, 30))
        stones = {i: frozenset(rng.sample(vocabulary, rng.randint(1, 60))) for i in range(rng.randint(0, 40))}
        prior = frozenset(rng.sample(vocabulary, 20))
        chosen = frozenset(rng.sample(sorted(case), 2))
        weights = {w: rng.choice([0.2, 0.5, 1.0]) for w in rng.sample(vocabulary, 100)}
        search = rng.choice(["", "w1", "deal"])
        full = ranked_difference_lists(case, stones, None, prior, chosen, weights, per_case=False)
        expected = {i.word for i in full.conditions} | {i.word for i in full.absent[:PRECISION_WORDS]}
        if search:
            expected |= {i.word for i in [i for i in full.absent if search in i.word][:SEARCH_WORDS]}
        assert _unscored_front(case, stones, prior, chosen, weights, search) == expected
        # each cornerstone's own pair: its words of each list, in the list's order
        listed = ranked_difference_lists(case, stones, None, prior, chosen, weights)
        order = [i.word for i in listed.conditions], [i.word for i in listed.absent]
        for case_id, other in stones.items():
            assert listed.per_case[case_id] == (
                tuple(w for w in order[0] if w not in other),
                tuple(w for w in order[1] if w in other),
            )
