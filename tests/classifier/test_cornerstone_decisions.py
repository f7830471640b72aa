"""Cornerstone decisions (issue 14, D1) and the ranked difference lists on the database (D4).

For each cornerstone case a draft rule would change, the expert either leaves it unchanged (a condition) or
accepts the change; an accepted change is stored with the rule's commit, and later validations, conflict
counts and undo respect it.
"""

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction

from classifier import kb, services
from classifier.models import AuditEntry, Case, Classification, Rule, RuleCornerstone

pytestmark = pytest.mark.django_db


def rows(case):
    """{folder path: (state, rule id)} of a case's stored classifications."""
    return {
        c.folder.path: (c.state, c.rule_id) for c in Classification.objects.filter(case=case).select_related("folder")
    }


def all_rows():
    return sorted(Classification.objects.values_list("case_id", "folder_id", "state", "rule_id", "decided_by_id"))


def conflicts_of(result) -> set[tuple[int, int]]:
    return {(c["case"], c["folder"]) for c in result.conflicts}


@pytest.fixture
def sport(make_case, folders, expert):
    """Rule "match -> Sport" made for c1 ("match tennis serve"); c1 is accepted in Sport."""
    c1 = make_case("match tennis serve")
    [rule] = services.commit_rule(c1, "new", expert, folder=folders["sport"], conditions=["match"])
    return c1, rule


REFINE = {"kind": "refine", "conditions": ["tennis"]}


def refine_kwargs(folders):
    return {**REFINE, "folder": folders["politics"], "wrong_folder": folders["sport"]}


def test_a_cornerstone_change_must_be_decided_and_an_accepted_one_is_stored_with_the_commit(
    sport, make_case, folders, expert, check_kb
):
    c1, sport_rule = sport
    case = make_case("match tennis doping")
    validation = services.validate_rule(case, **refine_kwargs(folders))
    [change] = validation.cornerstone_cases
    assert change.case.pk == c1.pk and not change.accepted and validation.to_exclude == [change]
    # not decided: the commit is refused and names the case; nothing is stored
    version = kb.version()
    with pytest.raises(ValidationError, match=f"“{c1.article.title}”"):
        services.commit_rule(case, user=expert, accepted_cornerstones=[], **refine_kwargs(folders))
    assert Rule.objects.count() == 1 and kb.version() == version
    # accepted: the validation says so, and the commit changes the case's stored decisions
    validation = services.validate_rule(case, accepted_cornerstones=[c1], **refine_kwargs(folders))
    assert validation.accepted == [c1.pk] and validation.to_exclude == []
    [rule] = services.commit_rule(case, user=expert, accepted_cornerstones=[c1.pk], **refine_kwargs(folders))
    # the rejected row keeps the rule that gave the folder: its rejections count against that rule
    assert rows(c1) == {"Sport": ("rejected", sport_rule.pk), "Politics": ("accepted", rule.pk)}
    assert {row.decided_by for row in Classification.objects.filter(case=c1)} == {expert}
    # the case is a cornerstone case of both rules: the one made for it and the one whose change was accepted
    assert set(rule.cornerstones.values_list("id", flat=True)) == {case.pk, c1.pk}
    assert dict(rule.cornerstone_links.values_list("case_id", "decision")) == {case.pk: "made", c1.pk: "accepted"}
    assert set(c1.cornerstone_rules.values_list("id", flat=True)) == {sport_rule.pk, rule.pk}
    assert RuleCornerstone.objects.get(rule=sport_rule).decision == "made"  # the first rule's own row
    entry = AuditEntry.objects.filter(action="rule.commit").first()
    [recorded] = entry.details["cornerstones"]
    assert recorded["case"] == c1.pk and recorded["before"] == [folders["sport"].pk]
    assert recorded["after"] == [folders["politics"].pk]
    # no conflict: not in the commit's report, not when every case is re-inferred
    assert (c1.pk, folders["sport"].pk) not in {
        (c["case"], c["folder"]) for c in entry.details["reclassified"]["conflicts"]
    }
    assert c1.pk not in {case_id for case_id, _ in conflicts_of(services.reinfer_all(expert))}
    check_kb()


def test_an_accepted_change_rolls_back_with_its_commit(sport, make_case, folders, expert):
    c1, _ = sport
    before = all_rows()
    with pytest.raises(RuntimeError), transaction.atomic():
        services.commit_rule(
            make_case("match tennis doping"), user=expert, accepted_cornerstones=[c1], **refine_kwargs(folders)
        )
        assert rows(c1)["Politics"][0] == "accepted"
        raise RuntimeError("rollback")
    assert rows(c1) == {"Sport": ("accepted", Rule.objects.get().pk)}
    assert not RuleCornerstone.objects.filter(decision="accepted").exists()
    assert [r for r in all_rows() if r[0] == c1.pk] == [r for r in before if r[0] == c1.pk]


def test_the_old_way_left_a_conflict_the_decision_does_not(sport, make_case, folders, expert):
    """Without a decision (a script, no accepted_cornerstones) the case keeps its old accepted folder beside the
    new suggestion and is a conflict; with the decision it is not."""
    c1, _ = sport
    services.commit_rule(make_case("match tennis doping"), user=expert, **refine_kwargs(folders))
    assert rows(c1)["Sport"][0] == "accepted" and rows(c1)["Politics"][0] == "suggested"
    assert (c1.pk, folders["sport"].pk) in conflicts_of(services.reinfer_all(expert))


def test_later_validations_compare_a_cornerstone_with_its_decisions(sport, make_case, folders, expert):
    """A cornerstone whose stored decisions disagree with the knowledge base (Sport accepted, Politics rejected,
    the rules give Politics) is not listed by a rule that gives it back exactly what was decided."""
    c1, _ = sport
    services.commit_rule(make_case("match tennis doping"), user=expert, **refine_kwargs(folders))
    services.reject(c1, folders["politics"], expert)
    case = make_case("match tennis serve ace")
    back = {
        "kind": "refine",
        "folder": folders["sport"],
        "wrong_folder": folders["politics"],
        "conditions": ["serve"],
    }
    validation = services.validate_rule(case, **back)
    assert [s.case.pk for s in validation.cornerstone_cases] == []  # the knowledge base now agrees with c1's decisions
    services.commit_rule(case, user=expert, accepted_cornerstones=[], **back)
    assert c1.pk not in {case_id for case_id, _ in conflicts_of(services.reinfer_all(expert))}
    # a rule that takes c1 away from its accepted folder is listed
    other = make_case("match tennis serve ace lob")
    away = {"kind": "stop", "wrong_folder": folders["sport"], "conditions": ["serve"]}
    assert [s.case.pk for s in services.validate_rule(other, **away).cornerstone_cases] == [c1.pk, case.pk]


def test_commit_revalidates_decisions_against_the_knowledge_base_of_the_commit(
    sport, make_case, folders, expert, expert2
):
    c1, _ = sport
    case = make_case("match tennis doping")
    validation = services.validate_rule(case, accepted_cornerstones=[c1], **refine_kwargs(folders))
    # meanwhile a colleague makes a rule whose cornerstone case this draft would change too
    c3 = make_case("match tennis court")
    services.commit_rule(c3, "new", expert2, folder=folders["economy"], conditions=["court"])
    with pytest.raises(ValidationError, match="changed since"):
        services.commit_rule(
            case, user=expert, version=validation.version, accepted_cornerstones=[c1], **refine_kwargs(folders)
        )
    # checked again: c3 is new in the list and was never seen, so accepting c1 alone is refused
    again = services.validate_rule(case, accepted_cornerstones=[c1], **refine_kwargs(folders))
    assert [(s.case.pk, s.accepted) for s in again.cornerstone_cases] == [(c1.pk, True), (c3.pk, False)]
    with pytest.raises(
        ValidationError, match=f"1 cornerstone case would change without your decision \\(“{c3.article.title}”\\)"
    ):
        services.commit_rule(
            case, user=expert, version=again.version, accepted_cornerstones=[c1], **refine_kwargs(folders)
        )
    rules = services.commit_rule(
        case, user=expert, version=again.version, accepted_cornerstones=[c1, c3], **refine_kwargs(folders)
    )
    assert set(rules[0].cornerstones.values_list("id", flat=True)) == {case.pk, c1.pk, c3.pk}
    assert rows(c3) == {
        "Economy": ("accepted", Rule.objects.get(cornerstone=c3).pk),
        "Politics": ("accepted", rules[0].pk),
        "Sport": ("rejected", sport[1].pk),
    }


def test_undo_restores_an_accepted_cornerstone_and_its_links(sport, make_case, folders, expert, check_kb):
    c1, sport_rule = sport
    before = all_rows()
    [rule] = services.commit_rule(
        make_case("match tennis doping"), user=expert, accepted_cornerstones=[c1], **refine_kwargs(folders)
    )
    services.undo_last_rule(expert, rule.pk)
    assert rows(c1) == {"Sport": ("accepted", sport_rule.pk)}
    assert [r for r in all_rows() if r[0] == c1.pk] == [r for r in before if r[0] == c1.pk]
    assert list(RuleCornerstone.objects.values_list("rule_id", "case_id")) == [(sport_rule.pk, c1.pk)]
    check_kb()


def test_a_case_linked_as_an_accepted_cornerstone_is_a_cornerstone_case(make_case, folders, expert):
    """The snapshot and ingestion know every cornerstone case, not only the cases rules were made for."""
    [rule] = services.commit_rule(make_case("vote"), "new", expert, folder=folders["politics"], conditions=["vote"])
    other = make_case("vote budget")
    assert other.pk not in kb.current().cornerstones
    RuleCornerstone.objects.create(rule=rule, case=other, decision="accepted")
    kb.publish(kb.load("", 0))
    assert kb.current().cornerstones[other.pk] == frozenset({"vote", "budget"})
    services.ingest_case(other.article, ["something", "else"])  # its keywords stay those validated on
    assert Case.objects.get(pk=other.pk).keywords == ["budget", "vote"]


# --------------------------------------------------------------------------- ranked difference lists
def test_difference_lists_both_ways_against_the_cornerstones_still_changing(make_case, folders, expert):
    """Case {a,b,c} against cornerstones {a,c,x} and {b,c,y}: a and b offered as conditions, x and y as absent."""
    c1 = make_case("a c x")
    services.commit_rule(c1, "new", expert, folder=folders["sport"], conditions=["c"])
    c2 = make_case("b c y")
    services.commit_rule(c2, "new", expert, folder=folders["politics"], conditions=["y"])
    case = make_case("a b c")
    validation = services.validate_rule(case, "new", folder=folders["economy"])
    assert {s.case.pk for s in validation.cornerstone_cases} == {c1.pk, c2.pk}
    ranked = validation.differences
    assert [(w.word, w.excludes) for w in ranked.conditions] == [("a", 1), ("b", 1), ("c", 0)]
    assert [(w.word, w.excludes) for w in ranked.absent] == [("x", 1), ("y", 1)]
    assert ranked.per_case == {c1.pk: (("b",), ("x",)), c2.pk: (("a",), ("y",))}
    # precision among the stored accepted cases: c is held by c1 (Sport) and c2 (Politics), never Economy
    assert ranked.conditions[2].precision == 0.0
    # with "a" chosen only c1 still changes: the lists work against it alone (not every case ever ticked)
    ranked = services.validate_rule(case, "new", folder=folders["economy"], conditions=["a"]).differences
    assert [(w.word, w.excludes) for w in ranked.conditions] == [("b", 1), ("c", 0)]
    assert [w.word for w in ranked.absent] == ["x"] and set(ranked.per_case) == {c1.pk}
    # c1's change accepted: nothing is left to exclude
    ranked = services.validate_rule(
        case, "new", folder=folders["economy"], conditions=["a"], accepted_cornerstones=[c1]
    ).differences
    assert ranked.changing == 0 and ranked.absent == ()


def test_difference_lists_rank_by_precision_and_earlier_rules_for_the_folder(make_case, folders, expert):
    services.commit_rule(make_case("zz"), "new", expert, folder=folders["economy"], conditions=["zz"])
    services.commit_rule(make_case("budget growth"), "new", expert, folder=folders["economy"], conditions=["growth"])
    services.commit_rule(make_case("budget tax"), "new", expert, folder=folders["politics"], conditions=["tax"])
    case = make_case("budget tax vote")
    ranked = services.validate_rule(case, "new", folder=folders["politics"], conditions=["vote"]).differences
    # no cornerstone changes; "tax": the one accepted case holding it is in Politics, and the Politics rule uses
    # it; "budget": one of its two accepted cases is in Politics
    assert [(w.word, w.excludes, w.precision, w.prior) for w in ranked.conditions] == [
        ("tax", 0, 1.0, True),
        ("budget", 0, 0.5, False),
    ]


def test_the_migration_makes_each_rule_s_cornerstone_its_made_row(sport, make_case, folders, expert):
    from importlib import import_module

    from django.apps import apps

    c1, sport_rule = sport
    RuleCornerstone.objects.all().delete()  # as the database was before the migration
    Rule.objects.create(folder=folders["politics"], conditions=["vote"])  # no cornerstone case: no row
    import_module("classifier.migrations.0008_rule_cornerstones").made_rows(apps, None)
    assert list(RuleCornerstone.objects.values_list("rule_id", "case_id", "decision", "decided_by_id")) == [
        (sport_rule.pk, c1.pk, "made", expert.pk)
    ]


def test_precision_is_computed_for_every_condition_and_the_front_of_the_absent_list(make_case, folders, expert):
    words = [f"w{n:02}" for n in range(services.PRECISION_WORDS + 10)]
    services.commit_rule(make_case([*words, "tax"]), "new", expert, folder=folders["politics"], conditions=["tax"])
    case = make_case([*words, "vote"])
    last = words[-1]  # alphabetically last of many equals
    draft = {"kind": "new", "folder": folders["politics"], "conditions": ["vote"]}
    plain = {w.word: w.precision for w in services.validate_rule(case, **draft).differences.conditions}
    assert plain[words[0]] == 1.0 and plain[last] == 1.0  # every condition word: its precision decides its place
    # the must-be-absent list (the cornerstone case's words this case lacks): its front, and the searched words
    other = make_case(["tax", "sport"])
    absent_draft = {"kind": "new", "folder": folders["sport"], "conditions": ["tax"]}
    plain = {w.word: w.precision for w in services.validate_rule(other, **absent_draft).differences.absent}
    assert plain[words[0]] == 0.0 and plain[last] is None
    searched = services.validate_rule(other, **absent_draft, search=last).differences.absent
    assert {w.word: w.precision for w in searched}[last] == 0.0


def test_a_cornerstone_case_says_when_its_article_s_text_changed(sport, make_case, folders, expert, client):
    c1, _ = sport
    other = make_case("match goal")
    services.ingest_case(other.article, ["vote"])  # not a cornerstone: rebuilt, nothing flagged
    assert Case.objects.get(pk=other.pk).text_changed_at is None
    services.ingest_case(c1.article, ["match", "tennis", "serve", "ace"])
    c1.refresh_from_db()
    assert c1.keywords == ["match", "serve", "tennis"] and c1.text_changed_at is not None
    since = c1.text_changed_at
    services.ingest_case(c1.article, ["match", "ace"])  # changed again: still since the first change
    c1.refresh_from_db()
    assert c1.text_changed_at == since
    # the rule page shows it beside the cornerstone case
    from django.contrib.auth.models import Group
    from django.urls import reverse

    from foundation.roles import EXPERTS, ensure_groups

    ensure_groups()
    expert.groups.add(Group.objects.get(name=EXPERTS))
    client.force_login(expert)
    case = make_case("match tennis doping")
    page = client.get(
        reverse("classifier:rule", args=[case.article_id]),
        {"kind": "refine", "folder": folders["politics"].pk, "wrong": folders["sport"].pk, "c": "tennis"},
    )
    assert "its article's text has changed since" in page.content.decode()
    assert (
        "its text has changed since" in client.get(reverse("classifier:article", args=[c1.article_id])).content.decode()
    )
    services.ingest_case(c1.article, ["match", "tennis", "serve"])  # the validated keywords again
    c1.refresh_from_db()
    assert c1.text_changed_at is None


def test_difference_list_ties_are_broken_by_the_pages_cst_word_weights():
    """A word the site repeats where it stands (low CST weight, filters.sst) ranks after an informative one."""
    from classifier.acquisition import ranked_difference_lists

    plain = ranked_difference_lists({"advertisement", "insulin", "advertisement insulin"}, {})
    assert [i.word for i in plain.conditions] == ["advertisement", "advertisement insulin", "insulin"]
    weighted = ranked_difference_lists(
        {"advertisement", "insulin", "advertisement insulin"}, {}, weights={"advertisement": 0.2, "insulin": 1.0}
    )
    assert [i.word for i in weighted.conditions] == ["insulin", "advertisement", "advertisement insulin"]


def test_the_commit_reports_no_conflict_on_its_own_case(sport, make_case, folders, expert):
    """A refinement made for a case the expert had accepted in the wrong folder: the commit rejects that folder
    on the case itself, so its report must not list the case's old accepted row as a conflict."""
    case = make_case("match tennis doping")
    services.accept(case, expert, [folders["sport"]])
    services.commit_rule(case, user=expert, accepted_cornerstones=[sport[0]], **refine_kwargs(folders))
    entry = AuditEntry.objects.filter(action="rule.commit").first()
    assert case.pk not in {c["case"] for c in entry.details["reclassified"]["conflicts"]}
    assert rows(case) == {"Sport": ("rejected", sport[1].pk), "Politics": ("accepted", Rule.objects.latest("pk").pk)}


def test_a_new_rule_reports_no_conflict_on_its_own_case_rejected_before(make_case, folders, expert):
    """The expert rejected a folder on the case, then makes the rule that gives it: the commit's own decision
    (accepted) replaces the rejection; the report does not call it a conflict."""
    case = make_case("match tennis serve")
    services.commit_rule(make_case("match report"), "new", expert, folder=folders["sport"], conditions=["match"])
    services.reject(case, folders["sport"], expert)
    services.commit_rule(case, "new", expert, folder=folders["sport"], conditions=["tennis"], accepted_cornerstones=[])
    entry = AuditEntry.objects.filter(action="rule.commit").first()
    assert case.pk not in {c["case"] for c in entry.details["reclassified"]["conflicts"]}
    assert rows(case)["Sport"][0] == "accepted"


def test_precision_counts_each_accepted_case_once_whatever_its_folders(make_case, folders):
    """The stored decisions behind a word's precision: a case accepted in several folders counts once, a
    suggested or rejected folder not at all; a stopping rule agrees where the wrong folder is not accepted."""
    from classifier.services.validation import _decisions

    accepted, rejected = Classification.State.ACCEPTED, Classification.State.REJECTED
    stored = {
        "budget tax": [("politics", accepted), ("economy", accepted)],
        "budget growth": [("economy", accepted), ("politics", rejected)],
        "budget vote": [("politics", Classification.State.SUGGESTED)],
        "tax vote": [("sport", accepted), ("football", accepted), ("economy", accepted)],
    }
    for words, rows in stored.items():
        case = make_case(words)
        for folder, state in rows:
            Classification.objects.create(case=case, folder=folders[folder], state=state)
    words = ["budget", "tax", "vote", "growth", "unheld"]
    politics, economy = folders["politics"].pk, folders["economy"].pk
    assert _decisions(words, politics, None) == {"budget": (1, 2), "tax": (1, 2), "vote": (0, 1), "growth": (0, 1)}
    assert _decisions(words, None, economy) == {"budget": (0, 2), "tax": (0, 2), "vote": (0, 1), "growth": (0, 1)}
    assert _decisions(words, None, None) == {}
