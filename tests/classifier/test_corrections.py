"""Rejection is a decision, kept (issue 16, item 2), and the "would reclassify" list acts (item 6).

Rejecting a folder the knowledge base gives records the expert's decision at once and a pending correction:
the article is "rejected, rule pending" until a commit takes the folder away from it (the correction is then
resolved with that rule), and the expert can withdraw it before. On the rule page an article of the "would
reclassify" list can be kept unchanged: it then counts like a cornerstone case to leave unchanged.
"""

import pytest
from django.core.exceptions import ValidationError

from classifier import selectors, services
from classifier.models import AuditEntry, Classification, Correction, Rule
from monitor.models import Article

pytestmark = pytest.mark.django_db


def review_state(case) -> str:
    return Article.objects.get(pk=case.article_id).review_state


def row(case, folder) -> Classification:
    return Classification.objects.get(case=case, folder=folder)


@pytest.fixture
def sport(make_case, folders, expert):
    """Rule "match -> Sport" made for "match goal"; the returned case got Sport suggested by it."""
    [rule] = services.commit_rule(make_case("match goal"), "new", expert, folder=folders["sport"], conditions=["match"])
    return rule, make_case("match chess")


def test_rejecting_records_the_decision_at_once_and_a_pending_correction(sport, folders, expert, check_kb):
    rule, case = sport
    assert review_state(case) == "suggested"
    services.reject(case, folders["sport"], expert, kind="refine")
    stored = row(case, folders["sport"])
    assert (stored.state, stored.decided_by, stored.rule_id) == ("rejected", expert, rule.pk)
    assert stored.decided_at is not None
    correction = Correction.objects.get()
    assert (correction.case_id, correction.folder, correction.kind, correction.state) == (
        case.pk,
        folders["sport"],
        "refine",
        "pending",
    )
    assert correction.rejected_by == expert and correction.rule is None
    assert correction.row_before["state"] == "suggested"
    # the article is not "reviewed with no folder": it waits for the rule
    assert review_state(case) == "correction"
    assert AuditEntry.objects.get(action="classification.reject").details == {
        "case": case.pk,
        "folder": folders["sport"].pk,
        "correction": correction.pk,
    }
    # rejecting again (a double click) keeps the one correction
    services.reject(case, folders["sport"], expert)
    assert Correction.objects.count() == 1
    check_kb()


def test_a_folder_no_rule_gives_is_rejected_without_a_correction(sport, make_case, folders, expert):
    rule, case = sport
    services.accept(case, expert)
    services.undo_last_rule(expert)  # the accepted row stays; no rule gives Sport now
    services.reject(case, folders["sport"], expert)
    assert not Correction.objects.exists()
    assert review_state(case) == "reviewed"


def test_pending_until_a_rule_takes_the_folder_away_then_resolved_with_that_rule(
    sport, make_case, folders, expert, expert2, check_kb
):
    rule, case = sport
    services.reject(case, folders["sport"], expert)
    # a rule that does not correct it (a new folder for the same article) leaves it pending
    services.commit_rule(case, "new", expert2, folder=folders["economy"], conditions=["chess"])
    correction = Correction.objects.get()
    assert correction.state == "pending" and row(case, folders["economy"]).state == "accepted"
    assert review_state(case) == "correction"
    # the stopping rule resolves it and is recorded; the rejected row keeps the rule that gave the folder
    [stop] = services.commit_rule(case, "stop", expert2, wrong_folder=folders["sport"], conditions=["chess"])
    correction.refresh_from_db()
    assert (correction.state, correction.rule, correction.closed_by) == ("resolved", stop, expert2)
    assert row(case, folders["sport"]).rule_id == rule.pk
    assert review_state(case) == "reviewed"
    entry = AuditEntry.objects.filter(action="rule.commit").first()
    assert entry.details["corrections_resolved"] == [correction.pk]
    check_kb()
    # undoing the rule takes the correction back to pending: the folder is given again
    services.undo_last_rule(expert2, stop.pk)
    correction.refresh_from_db()
    assert (correction.state, correction.rule) == ("pending", None)
    assert review_state(case) == "correction"
    check_kb()


def test_a_rule_made_for_another_article_resolves_every_correction_it_covers(sport, make_case, folders, expert):
    rule, case = sport
    other = make_case("match chess opening")
    services.reject(case, folders["sport"], expert)
    services.reject(other, folders["sport"], expert)
    stopper = make_case("match chess endgame")
    [stop] = services.commit_rule(stopper, "stop", expert, wrong_folder=folders["sport"], conditions=["chess"])
    assert set(Correction.objects.values_list("case_id", "state", "rule_id")) == {
        (case.pk, "resolved", stop.pk),
        (other.pk, "resolved", stop.pk),
    }
    assert {review_state(case), review_state(other)} == {"reviewed"}


def test_a_refining_rule_resolves_the_correction(sport, folders, expert):
    rule, case = sport
    services.reject(case, folders["sport"], expert, kind="refine")
    [refine] = services.commit_rule(
        case, "refine", expert, folder=folders["economy"], wrong_folder=folders["sport"], conditions=["chess"]
    )
    assert Correction.objects.get().rule == refine
    assert row(case, folders["economy"]).state == "accepted"


def test_withdrawing_restores_the_row_and_is_refused_once_a_rule_corrects_it(sport, folders, expert, expert2):
    rule, case = sport
    services.reject(case, folders["sport"], expert)
    correction = Correction.objects.get()
    services.withdraw_correction(correction, expert2)
    correction.refresh_from_db()
    assert (correction.state, correction.closed_by) == ("withdrawn", expert2)
    stored = row(case, folders["sport"])
    assert (stored.state, stored.decided_by, stored.rule_id) == ("suggested", None, rule.pk)
    assert review_state(case) == "suggested"
    assert AuditEntry.objects.filter(action="correction.withdraw", details__correction=correction.pk).exists()
    with pytest.raises(ValidationError, match="already withdrawn"):
        services.withdraw_correction(correction, expert)
    # rejected again, then corrected by a rule: withdrawing is refused (undo the rule instead)
    services.reject(case, folders["sport"], expert)
    services.commit_rule(case, "stop", expert, wrong_folder=folders["sport"], conditions=["chess"])
    resolved = Correction.objects.get(state="resolved")
    with pytest.raises(ValidationError, match="undo the rule"):
        services.withdraw_correction(resolved, expert)


def test_accepting_a_rejected_folder_again_withdraws_its_correction(sport, folders, expert):
    rule, case = sport
    services.reject(case, folders["sport"], expert)
    services.accept(case, expert, [folders["sport"]])
    assert Correction.objects.get().state == "withdrawn"
    assert review_state(case) == "reviewed"


def test_the_pending_list_is_oldest_first_mine_or_everyones(sport, make_case, folders, expert, expert2):
    rule, case = sport
    second, third = make_case("match poker"), make_case("match darts")
    services.reject(case, folders["sport"], expert)
    services.reject(second, folders["sport"], expert2)
    services.reject(third, folders["sport"], expert)
    page = selectors.pending_corrections_page(expert, mine=False, limit=10)
    assert [i["article"].pk for i in page["corrections"]] == [case.article_id, second.article_id, third.article_id]
    assert (page["total"], page["mine_total"]) == (3, 2)
    mine = selectors.pending_corrections_page(expert, mine=True, limit=10)
    assert [i["correction"].case_id for i in mine["corrections"]] == [case.pk, third.pk]


# --------------------------------------------------------------------------- item 6: keep an article unchanged
@pytest.fixture
def diabetes(make_case, folders, expert):
    """A first rule on "diabetes" would sweep in a wrong article: the draft, the right one and the wrong one."""
    health = services.create_folder("Health", expert)
    right = make_case("diabetes insulin clinic")
    wrong = make_case("diabetes marathon charity")
    case = make_case("diabetes insulin study")
    return case, right, wrong, health


def test_an_article_kept_unchanged_counts_like_a_cornerstone_case_and_blocks_the_commit(diabetes, expert):
    case, right, wrong, health = diabetes
    draft = {"kind": "new", "folder": health, "conditions": ["diabetes"]}
    swept = {a.case_id for a in services.validate_rule(case, **draft).affected_cases()}
    assert swept == {right.pk, wrong.pk}
    validation = services.validate_rule(case, kept_cases=[wrong.pk], **draft)
    [kept] = validation.cornerstone_cases
    assert kept.case.pk == wrong.pk and kept.kept and not kept.accepted
    assert validation.to_exclude == [kept]
    # the difference lists are computed against it: "insulin" leaves it unchanged, "marathon" must be absent
    assert validation.differences.changing == 1
    # (the first rule's ranking puts every word that leaves it unchanged first, then orders them by other evidence)
    assert validation.differences.conditions[0].excludes == 1
    assert "insulin" in {c.word for c in validation.differences.conditions if c.excludes == 1}
    assert {w.word for w in validation.differences.absent} == {"charity", "marathon"}
    # its change cannot be accepted: the commit is refused while the rule would change it
    with pytest.raises(ValidationError, match=f"case {wrong.pk}"):
        services.commit_rule(case, user=expert, accepted_cornerstones=[wrong.pk], kept_cases=[wrong.pk], **draft)
    assert not Rule.objects.exists()
    narrowed = {**draft, "conditions": ["diabetes", "insulin"]}
    assert services.validate_rule(case, kept_cases=[wrong.pk], **narrowed).cornerstone_cases == []
    services.commit_rule(case, user=expert, accepted_cornerstones=[], kept_cases=[wrong.pk], **narrowed)
    assert not Classification.objects.filter(case=wrong).exists()  # left unchanged
    assert row(right, health).state == "suggested"


def test_a_merge_carries_the_pending_correction_to_the_target_folder(sport, folders, expert):
    rule, case = sport
    services.reject(case, folders["sport"], expert)
    services.merge_folder(folders["sport"], folders["economy"], expert)  # the rule now concludes Economy
    correction = Correction.objects.get()
    assert (correction.folder, correction.state) == (folders["economy"], "pending")
    assert review_state(case) == "correction"
    [stop] = services.commit_rule(case, "stop", expert, wrong_folder=folders["economy"], conditions=["chess"])
    correction.refresh_from_db()
    assert (correction.state, correction.rule) == ("resolved", stop)


def test_the_header_s_count_is_cached_and_follows_every_change_of_a_correction(
    sport, folders, expert, expert2, django_assert_num_queries, django_capture_on_commit_callbacks
):
    """Every page's header shows how many rejections wait for their rule: counted once, then read from the cache
    until a correction changes (created, closed by an accept, resolved by a commit, reopened by an undo,
    withdrawn), each of which forgets it, also once its transaction commits."""
    from classifier.services.corrections import pending_count

    rule, case = sport
    assert pending_count() == 0
    with django_assert_num_queries(0):
        assert pending_count() == 0
    with django_capture_on_commit_callbacks(execute=True) as on_commit:
        services.reject(case, folders["sport"], expert)
    assert on_commit  # the count is forgotten again when the rejection commits
    assert pending_count() == 1
    services.accept(case, expert, [folders["sport"]])  # closes it (a bulk update: no signal)
    assert pending_count() == 0
    services.reject(case, folders["sport"], expert)
    assert pending_count() == 1
    [stop] = services.commit_rule(case, "stop", expert2, wrong_folder=folders["sport"], conditions=["chess"])
    assert pending_count() == 0  # resolved
    services.undo_last_rule(expert2, stop.pk)
    assert pending_count() == 1  # reopened
    services.withdraw_correction(Correction.objects.get(state="pending"), expert)
    assert pending_count() == 0
    Correction.objects.create(case=case, folder=folders["sport"], rejected_by=expert)
    assert pending_count() == 1
    Correction.objects.all().delete()
    assert pending_count() == 0
