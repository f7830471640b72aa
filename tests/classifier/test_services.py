"""Knowledge-base services on the database: cases, inference, decisions, rule validation/commit/undo."""

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction

from classifier import kb, services
from classifier.kinds import RuleKind
from classifier.models import AuditEntry, Case, CaseKeyword, Classification, KnowledgeBase, Rule
from classifier.services import validation

pytestmark = pytest.mark.django_db


def rows(case):
    """{folder path: (state, rule id)} of a case's stored classifications."""
    return {
        c.folder.path: (c.state, c.rule_id) for c in Classification.objects.filter(case=case).select_related("folder")
    }


def all_rows():
    return sorted(Classification.objects.values_list("case_id", "folder_id", "state", "rule_id", "decided_by_id"))


# --------------------------------------------------------------------------- ingestion
def test_ingest_stores_keywords_index_and_is_idempotent(make_case, site):
    case = make_case("match goal match  stadium ")
    assert case.keywords == ["goal", "match", "stadium"]
    assert sorted(CaseKeyword.objects.filter(case=case).values_list("keyword", flat=True)) == case.keywords
    again = services.ingest_case(case.article, ["stadium", "goal", "match"])
    assert again.pk == case.pk
    assert CaseKeyword.objects.filter(case=case).count() == 3
    assert Case.objects.count() == 1


def test_ingest_suggests_folders_with_concluding_rule(make_case, folders, expert):
    first = make_case("match goal")
    [rule] = services.commit_rule(first, "new", expert, folder=folders["sport"], conditions=["match"])
    second = make_case("match tennis")
    assert rows(second) == {"Sport": ("suggested", rule.pk)}
    services.ingest_case(second.article, ["match", "tennis"])  # idempotent: nothing duplicated
    assert rows(second) == {"Sport": ("suggested", rule.pk)}


def test_reingest_with_new_tokens_updates_index_and_drops_stale_suggestion(make_case, folders, expert):
    services.commit_rule(make_case("match goal"), "new", expert, folder=folders["sport"], conditions=["match"])
    case = make_case("match tennis")
    assert "Sport" in rows(case)
    services.ingest_case(case.article, ["vote", "tennis"])
    case.refresh_from_db()
    assert case.keywords == ["tennis", "vote"]
    assert sorted(CaseKeyword.objects.filter(case=case).values_list("keyword", flat=True)) == ["tennis", "vote"]
    assert rows(case) == {}


def test_ingest_keeps_cornerstone_keywords(make_case, folders, expert):
    case = make_case("match goal")
    services.commit_rule(case, "new", expert, folder=folders["sport"], conditions=["match"])
    services.ingest_case(case.article, ["vote"])
    case.refresh_from_db()
    assert case.keywords == ["goal", "match"]


def test_ingest_drops_overlong_tokens_and_rejects_a_string(make_case, site):
    case = make_case(["ok", "x" * 101, "  "])
    assert case.keywords == ["ok"]
    with pytest.raises(ValidationError):
        services.ingest_case(case.article, "match goal")


# --------------------------------------------------------------------------- inference and explanation
def test_explain_gives_rule_paths_as_model_instances(make_case, folders, expert):
    base = make_case("match goal stadium")
    [sport] = services.commit_rule(base, "new", expert, folder=folders["sport"], conditions=["match"])
    football_case = make_case("match goal penalty")
    [football] = services.commit_rule(
        football_case,
        "refine",
        expert,
        folder=folders["football"],
        wrong_folder=folders["sport"],
        conditions=["penalty"],
    )
    case = make_case("match penalty vote")
    [conclusion] = services.infer(case)
    assert conclusion.folder == folders["football"].pk and conclusion.path == (sport.pk, football.pk)
    [why] = services.explain(case)
    assert why.folder == folders["football"]
    assert why.rules == [sport, football] and all(isinstance(r, Rule) for r in why.rules)


def test_two_rules_giving_one_folder_are_one_suggestion_with_both_rules(make_case, folders, expert):
    """A live trial: two rules concluding Health/Diabetes showed it as suggestions 1 and 2 on the article page,
    and twice in the API's suggestions."""
    sport = folders["sport"]
    [by_goal] = services.commit_rule(make_case("goal match"), "new", expert, folder=sport, conditions=["goal"])
    [by_race] = services.commit_rule(make_case("race lap"), "new", expert, folder=sport, conditions=["race"])
    both = make_case("goal race crowd")
    [why] = services.explain(both)
    assert why.folder == sport and why.rules == [by_goal, by_race]


def test_explain_can_show_stopped_paths(make_case, folders, expert):
    base = make_case("match goal")
    [sport] = services.commit_rule(base, "new", expert, folder=folders["sport"], conditions=["match"])
    stop_case = make_case("match chess")
    [stop] = services.commit_rule(stop_case, "stop", expert, wrong_folder=folders["sport"], conditions=["chess"])
    assert services.explain(stop_case) == []
    [stopped] = services.explain(stop_case, include_stopped=True)
    assert stopped.stopped and stopped.folder == folders["sport"] and stopped.rules == [sport, stop]
    assert rows(stop_case) == {"Sport": ("rejected", sport.pk)}  # the rule that gave the rejected folder


# --------------------------------------------------------------------------- accept / reject
def test_accept_as_is_and_reject_are_recorded(make_case, folders, expert, expert2):
    services.commit_rule(make_case("match vote"), "new", expert, folder=folders["sport"], conditions=["match"])
    services.commit_rule(make_case("vote match"), "new", expert, folder=folders["politics"], conditions=["vote"])
    case = make_case("match vote budget")
    assert {v[0] for v in rows(case).values()} == {"suggested"}
    accepted = services.accept(case, expert2)
    assert {c.folder.path for c in accepted} == {"Sport", "Politics"}
    assert {v[0] for v in rows(case).values()} == {"accepted"}
    entry = AuditEntry.objects.filter(action="classification.accept").first()
    assert entry.actor == expert2 and entry.details["as_is"] is True and entry.details["case"] == case.pk
    services.reject(case, folders["politics"], expert2)
    row = Classification.objects.get(case=case, folder=folders["politics"])
    assert row.state == "rejected" and row.decided_by == expert2 and row.decided_at is not None
    assert AuditEntry.objects.filter(action="classification.reject").exists()
    services.accept(case, expert, folders=[folders["politics"]])  # an expert may take the rejection back
    assert rows(case)["Politics"][0] == "accepted"


def test_accept_or_reject_unknown_folder_is_an_error(make_case, folders, expert):
    case = make_case("anything")
    with pytest.raises(ValidationError, match="add it with a rule"):
        services.accept(case, expert, folders=[folders["economy"]])
    with pytest.raises(ValidationError):
        services.reject(case, folders["economy"], expert)


# --------------------------------------------------------------------------- folders
def test_create_folder_makes_parents_and_is_idempotent(expert):
    leaf = services.create_folder("Health/Diabetes/Type 2", expert, public=False)
    assert leaf.path == "Health/Diabetes/Type 2" and not leaf.public
    assert leaf.parent.path == "Health/Diabetes" and leaf.parent.parent.parent is None
    assert services.create_folder("/Health/Diabetes/Type 2/", expert).pk == leaf.pk
    assert AuditEntry.objects.filter(action="folder.create").count() == 3


@pytest.mark.parametrize("path", ["", "/", "A//B", "A/ /B", 7])
def test_create_folder_rejects_bad_paths(expert, path):
    with pytest.raises(ValidationError):
        services.create_folder(path, expert)


def test_rename_and_move_update_descendant_paths_and_keep_rules(make_case, folders, expert):
    [rule] = services.commit_rule(make_case("goal"), "new", expert, folder=folders["football"], conditions=["goal"])
    deep = services.create_folder("Sport/Football/Premier", expert)
    services.rename_folder(folders["sport"], "Sports", expert)
    deep.refresh_from_db()
    assert deep.path == "Sports/Football/Premier"
    news = services.create_folder("News", expert)
    moved = services.move_folder(folders["football"], news, expert)
    assert moved.path == "News/Football"
    deep.refresh_from_db()
    assert deep.path == "News/Football/Premier"
    rule.refresh_from_db()
    assert rule.folder.path == "News/Football"  # the rule still concludes the same folder
    [conclusion] = services.infer(make_case("goal"))
    assert conclusion.folder == folders["football"].pk
    services.move_folder(moved, None, expert)
    assert moved.path == "Football"
    assert AuditEntry.objects.filter(action__in=["folder.rename", "folder.move"]).count() == 3


def test_folder_moves_and_renames_that_would_break_the_tree_are_refused(folders, expert):
    with pytest.raises(ValidationError, match="into itself"):
        services.move_folder(folders["sport"], folders["football"], expert)
    with pytest.raises(ValidationError, match="already exists"):
        services.rename_folder(folders["economy"], "Politics", expert)
    with pytest.raises(ValidationError):
        services.rename_folder(folders["economy"], "A/B", expert)


def test_delete_folder_refused_with_subfolders_or_rules(make_case, folders, expert):
    with pytest.raises(ValidationError, match="subfolders"):
        services.discard_folder(folders["sport"], expert)
    services.commit_rule(make_case("vote"), "new", expert, folder=folders["politics"], conditions=["vote"])
    with pytest.raises(ValidationError, match="conclude"):
        services.discard_folder(folders["politics"], expert)
    services.discard_folder(folders["economy"], expert)
    assert AuditEntry.objects.filter(action="folder.delete").exists()


# --------------------------------------------------------------------------- validation
@pytest.fixture
def sport_kb(make_case, folders, expert):
    """Rules: match -> Sport (cornerstone c1), vote -> Politics (c2)."""
    c1 = make_case("match tennis serve")
    services.commit_rule(c1, "new", expert, folder=folders["sport"], conditions=["match"])
    c2 = make_case("vote parliament match")
    services.commit_rule(c2, "new", expert, folder=folders["politics"], conditions=["vote"])
    return c1, c2


def test_validate_lists_cornerstones_that_would_change_and_difference_list(sport_kb, make_case, folders):
    c1, c2 = sport_kb
    case = make_case("match goal penalty")
    v = services.validate_rule(case, "refine", folder=folders["football"], wrong_folder=folders["sport"])
    assert v.proposal.parent_ids == (Rule.objects.get(cornerstone=c1).pk,)
    changed = {s.case.pk: s for s in v.cornerstone_cases}
    # c1 and c2 both reach the Sport rule; a refinement with no conditions yet would move both
    assert set(changed) == {c1.pk, c2.pk}
    assert [f.path for f in changed[c1.pk].before] == ["Sport"]
    assert [f.path for f in changed[c1.pk].after] == ["Sport/Football"]
    assert changed[c1.pk].differs_by == ["goal", "penalty"]
    assert changed[c1.pk].lacks == ["serve", "tennis"]
    assert v.difference_list == ["goal", "match", "penalty"]
    # the expert selects c1 as "must not change": the difference list shrinks
    v = services.validate_rule(
        case, "refine", folder=folders["football"], wrong_folder=folders["sport"], selected_cornerstones=[c1]
    )
    assert v.difference_list == ["goal", "penalty"]
    # a condition from it excludes c1 and c2
    v = services.validate_rule(
        case,
        "refine",
        folder=folders["football"],
        wrong_folder=folders["sport"],
        conditions=["goal"],
        selected_cornerstones=[c1.pk],
    )
    assert v.cornerstone_cases == [] and v.difference_list == ["penalty"]


def test_validate_rejects_conditions_that_are_not_keywords_of_the_case(sport_kb, make_case, folders):
    case = make_case("match goal")
    with pytest.raises(ValidationError, match="keywords of the case"):
        services.validate_rule(case, "new", folder=folders["economy"], conditions=["budget"])
    with pytest.raises(ValidationError, match="unknown rule kind"):
        services.validate_rule(case, "sideways", folder=folders["economy"])
    with pytest.raises(ValidationError, match="not given folder"):
        services.validate_rule(case, "stop", wrong_folder=folders["economy"])


def test_affected_cases_lists_every_stored_case_not_only_cornerstones(sport_kb, make_case, folders):
    c1, c2 = sport_kb
    others = [make_case("match goal"), make_case("match goal tennis"), make_case("goal only")]
    case = make_case("match goal penalty")
    v = services.validate_rule(
        case, "refine", folder=folders["football"], wrong_folder=folders["sport"], conditions=["goal"]
    )
    affected = services.affected_cases(v)
    assert [a.case_id for a in affected] == [others[0].pk, others[1].pk]  # "goal only" never had Sport
    assert [f.path for f in affected[0].after] == ["Sport/Football"]
    assert v.affected_cases(limit=1) == affected[:1]


# --------------------------------------------------------------------------- commit
def test_commit_new_rule_reclassifies_cases_and_accepts_cornerstone(make_case, folders, expert, check_kb):
    others = [make_case("budget tax"), make_case("budget match"), make_case("tax")]
    case = make_case("budget deficit")
    before_version = kb.version()
    [rule] = services.commit_rule(case, "new", expert, folder=folders["economy"], conditions=["budget"])
    assert rule.cornerstone == case and rule.created_by == expert and rule.kind == RuleKind.NEW
    assert rows(case) == {"Economy": ("accepted", rule.pk)}
    assert Classification.objects.get(case=case).decided_by == expert
    assert rows(others[0]) == {"Economy": ("suggested", rule.pk)}
    assert rows(others[2]) == {}
    assert kb.version() == before_version + 1
    entry = AuditEntry.objects.get(action="rule.commit")
    # suggestions the rule created: the two other "budget" cases (the rule's own case is the expert's decision)
    assert entry.details["rules"] == [rule.pk] and entry.details["reclassified"]["created"] == 2
    check_kb()


def test_commit_refine_under_every_wrong_rule_and_reject_the_wrong_folder(make_case, folders, expert, check_kb):
    services.commit_rule(make_case("match"), "new", expert, folder=folders["sport"], conditions=["match"])
    services.commit_rule(make_case("stadium"), "new", expert, folder=folders["sport"], conditions=["stadium"])
    bystander = make_case("stadium match ballot count")
    case = make_case("stadium match ballot")
    rules = services.commit_rule(
        case, "refine", expert, folder=folders["politics"], wrong_folder=folders["sport"], conditions=["ballot"]
    )
    assert len(rules) == 2 and {r.parent_id for r in rules} == set(
        Rule.objects.filter(parent=None).values_list("id", flat=True)
    )
    # the rejected row keeps the first rule (by path) that gave the folder
    assert rows(case) == {"Politics": ("accepted", rules[0].pk), "Sport": ("rejected", min(r.parent_id for r in rules))}
    assert rows(bystander) == {"Politics": ("suggested", rules[0].pk)}
    check_kb()


def test_commit_stop_rule_removes_suggestion(make_case, folders, expert, check_kb):
    services.commit_rule(make_case("match"), "new", expert, folder=folders["sport"], conditions=["match"])
    chess = make_case("match chess")
    other = make_case("match chess board")
    [stop] = services.commit_rule(
        make_case("match chess"), "stop", expert, wrong_folder=folders["sport"], conditions=["chess"]
    )
    assert stop.kind == RuleKind.STOP and stop.folder is None
    assert rows(chess) == {} and rows(other) == {}
    check_kb()


def test_commit_refuses_empty_or_foreign_conditions(make_case, folders, expert):
    case = make_case("budget tax")
    with pytest.raises(ValidationError, match="at least one keyword"):
        services.commit_rule(case, "new", expert, folder=folders["economy"])
    with pytest.raises(ValidationError, match="keywords of the case"):
        services.commit_rule(case, "new", expert, folder=folders["economy"], conditions=["deficit"])
    with pytest.raises(ValidationError, match="required absent"):
        services.commit_rule(case, "new", expert, folder=folders["economy"], conditions=["budget"], absent=["tax"])
    with pytest.raises(ValidationError, match="no folder"):
        services.commit_rule(case, "new", expert, folder=999999, conditions=["budget"])
    assert Rule.objects.count() == 0 and not AuditEntry.objects.filter(action="rule.commit").exists()


def test_commit_reinfers_only_cases_holding_the_rule_keywords(make_case, folders, expert):
    """A case without the rule's keyword is not even looked at (its deliberately stale row survives)."""
    services.commit_rule(make_case("match"), "new", expert, folder=folders["sport"], conditions=["match"])
    untouched = make_case("vote")
    Classification.objects.create(case=untouched, folder=folders["economy"])  # stale on purpose
    holder = make_case("vote budget")
    Classification.objects.create(case=holder, folder=folders["economy"])  # stale, but holds "budget"
    services.commit_rule(make_case("budget tax"), "new", expert, folder=folders["politics"], conditions=["budget"])
    assert rows(untouched) == {"Economy": ("suggested", None)}
    assert rows(holder)["Politics"] == ("suggested", Rule.objects.last().pk)


def test_refinement_reads_only_cases_holding_its_whole_rule_path(make_case, folders, expert, check_kb):
    """A refining rule can only fire where its parent fires: cases lacking the parent's keyword are skipped."""
    services.commit_rule(make_case("match"), "new", expert, folder=folders["sport"], conditions=["match"])
    services.commit_rule(make_case("goal"), "new", expert, folder=folders["economy"], conditions=["goal"])
    outside = make_case("goal penalty")  # holds the refinement's keyword but not "match"
    Classification.objects.filter(case=outside).update(rule=None)  # stale on purpose: must stay untouched
    inside = make_case("match penalty")
    [rule] = services.commit_rule(
        make_case("match penalty x"),
        "refine",
        expert,
        folder=folders["football"],
        wrong_folder=folders["sport"],
        conditions=["penalty"],
    )
    assert rows(outside) == {"Economy": ("suggested", None)}
    assert rows(inside) == {"Sport/Football": ("suggested", rule.pk)}
    Classification.objects.filter(case=outside).update(rule=Rule.objects.get(conditions=["goal"]))
    check_kb()


def test_commit_never_overrides_expert_decisions_and_reports_conflicts(make_case, folders, expert, expert2):
    services.commit_rule(make_case("match"), "new", expert, folder=folders["sport"], conditions=["match"])
    kept = make_case("match chess")
    services.accept(kept, expert2)
    refused = make_case("budget chess")
    services.commit_rule(make_case("budget"), "new", expert, folder=folders["economy"], conditions=["budget"])
    services.reject(refused, folders["economy"], expert2)
    # a stopping rule withholds Sport from "chess" cases; a new rule concludes Economy for chess cases
    services.commit_rule(make_case("match chess"), "stop", expert, wrong_folder=folders["sport"], conditions=["chess"])
    assert rows(kept)["Sport"][0] == "accepted"
    services.commit_rule(
        make_case("chess budget"),
        "refine",
        expert,
        folder=folders["politics"],
        wrong_folder=folders["economy"],
        conditions=["chess"],
    )
    assert rows(refused)["Economy"][0] == "rejected"
    conflicts = [
        c for e in AuditEntry.objects.filter(action="rule.commit") for c in e.details["reclassified"]["conflicts"]
    ]
    assert {"case": kept.pk, "folder": folders["sport"].pk, "state": "accepted"} in conflicts


# --------------------------------------------------------------------------- undo
def test_undo_restores_classifications_exactly(make_case, folders, expert, expert2, check_kb):
    services.commit_rule(make_case("match"), "new", expert, folder=folders["sport"], conditions=["match"])
    services.commit_rule(make_case("stadium"), "new", expert, folder=folders["sport"], conditions=["stadium"])
    for words in ("match ballot", "stadium ballot", "match stadium ballot x", "ballot"):
        make_case(words)
    case = make_case("match stadium ballot")
    services.accept(make_case("stadium ballot y"), expert2)
    before_rows, before_rules, version = all_rows(), list(Rule.objects.values_list("id", flat=True)), kb.version()
    rules = services.commit_rule(
        case, "refine", expert, folder=folders["politics"], wrong_folder=folders["sport"], conditions=["ballot"]
    )
    assert all_rows() != before_rows
    undone = services.undo_last_rule(expert, rules[-1].pk)
    assert undone == [r.pk for r in rules]
    assert all_rows() == before_rows
    assert list(Rule.objects.values_list("id", flat=True)) == before_rules
    assert kb.version() == version + 2
    entry = AuditEntry.objects.filter(action="rule.undo").first()
    assert entry.actor == expert and entry.details["rules"] == undone
    check_kb()


def test_undo_twice_and_with_nothing_left(make_case, folders, expert):
    services.commit_rule(make_case("match"), "new", expert, folder=folders["sport"], conditions=["match"])
    services.commit_rule(make_case("vote"), "new", expert, folder=folders["politics"], conditions=["vote"])
    services.undo_last_rule(expert)
    services.undo_last_rule(expert)
    assert Rule.objects.count() == 0 and Classification.objects.count() == 0
    with pytest.raises(ValidationError, match="no rule"):
        services.undo_last_rule(expert)


# --------------------------------------------------------------------------- move/copy helper
def test_move_article_translates_to_rule_request(sport_kb, make_case, folders, expert):
    case = make_case("match goal")
    move = services.move_article(case, folders["sport"], folders["football"], expert)
    assert move.as_kwargs() == {"kind": "refine", "folder": folders["football"].pk, "wrong_folder": folders["sport"].pk}
    copy = services.move_article(case, folders["sport"], folders["economy"], expert, copy=True)
    assert copy.kind == "new" and copy.wrong_folder is None
    v = services.validate_rule(case, **move.as_kwargs(), conditions=["goal"])
    assert v.proposal.kind == "refine"
    with pytest.raises(ValidationError, match="already"):
        services.move_article(case, folders["economy"], folders["sport"], expert)


# --------------------------------------------------------------------------- the cached tree
def test_cache_follows_changes_made_elsewhere_and_ignores_rolled_back_ones(make_case, folders, expert):
    case = make_case("match goal")
    assert services.infer(case) == []
    # another process commits a rule: simulated by writing the row and bumping the stamp directly
    rule = Rule.objects.create(folder=folders["sport"], conditions=["match"], cornerstone=case)
    KnowledgeBase.objects.filter(pk=1).update(version=99, stamp=KnowledgeBase.new_stamp())
    assert [c.folder for c in services.infer(case)] == [folders["sport"].pk]
    # a commit that rolls back must not leave its tree in the cache
    with pytest.raises(RuntimeError), transaction.atomic():
        services.commit_rule(
            case, "refine", expert, folder=folders["football"], wrong_folder=folders["sport"], conditions=["goal"]
        )
        raise RuntimeError("rollback")
    assert [c.rule_id for c in services.infer(case)] == [rule.pk]


def test_cornerstone_shortcuts_agree_with_the_engine(make_case, folders, expert):
    """The cached/shortcut cornerstone changes equal the engine's changed_cases on random proposals."""
    import random

    from classifier.acquisition import changed_cases

    rng = random.Random(3)
    words = [f"k{i}" for i in range(8)]
    targets = list(folders.values())
    made = 0
    for _ in range(20):
        case = make_case(rng.sample(words, 4))
        fired = services.infer(case)
        try:
            if fired and rng.random() < 0.5:
                wrong = fired[0].folder
                kind = rng.choice(["refine", "stop"])
                folder = None if kind == "stop" else rng.choice([f for f in targets if f.pk != wrong])
                services.commit_rule(
                    case, kind, expert, folder=folder, wrong_folder=wrong, conditions=rng.sample(case.keywords, 1)
                )
            else:
                services.commit_rule(
                    case,
                    "new",
                    expert,
                    folder=rng.choice(targets),
                    conditions=rng.sample(case.keywords, rng.randint(1, 2)),
                )
            made += 1
        except ValidationError:
            pass
        snapshot = kb.current()
        fired = services.infer(case)
        proposals = [
            validation.draft_proposal(
                snapshot.tree, case, "new", rng.choice(targets), None, rng.sample(case.keywords, rng.randint(0, 1)), ()
            )
        ]
        if fired:
            wrong = fired[0].folder
            proposals.append(validation.draft_proposal(snapshot.tree, case, "stop", None, wrong, (), ()))
        for proposal in proposals:
            expected = changed_cases(snapshot.tree, proposal, snapshot.cornerstones)
            assert validation._cornerstone_changes(snapshot, proposal) == expected
    assert made > 5
