"""Security issue: inherited folder privacy and clear 400s for malformed expert input (each failed before)."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from classifier import services
from classifier.models import Folder, Rule

pytestmark = pytest.mark.django_db


def test_inbox_dates_at_the_ends_of_the_calendar_are_a_400_with_the_reason_not_a_500(ec):
    response = ec.get(reverse("classifier:inbox"), {"date_from": "0001-01-01", "date_to": "9999-12-31"})
    assert response.status_code == 400
    text = response.content.decode()
    assert "From:" in text and "To:" in text and "not applied" in text
    assert ec.get(reverse("classifier:inbox"), {"date_from": "2026-01-01"}).status_code == 200


def test_a_folder_name_over_100_characters_is_refused_with_the_reason(ec, expert_user):
    response = ec.post(reverse("classifier:folder_create"), {"path": "Health/" + "x" * 101}, follow=True)
    assert response.status_code == 200
    assert "100 characters at most" in response.content.decode()
    assert not Folder.objects.exists()
    with pytest.raises(ValidationError):
        services.create_folder("y" * 101, expert_user)


def test_a_folder_created_under_a_private_folder_is_private_and_never_named_publicly(client, expert_user):
    secret = services.create_folder("Outbreaks", expert_user, public=False)
    child = services.create_folder("Outbreaks/Measles", expert_user, public=True)  # the form's default
    assert not child.public
    for url in (reverse("feeds:list"), reverse("feeds:opml")):
        assert "Outbreaks" not in client.get(url).content.decode()
    assert client.get(reverse("feeds:folder-by-id", args=[child.pk, "rss"])).status_code == 404
    with pytest.raises(ValidationError, match="inside the private folder Outbreaks"):
        services.set_folder_public(child, True, expert_user)
    assert secret.pk


def test_making_a_folder_private_or_moving_it_under_one_makes_its_subtree_private(expert_user):
    leaf = services.create_folder("Health/Diabetes/Type 2", expert_user, public=True)
    health = Folder.objects.get(path="Health")
    services.set_folder_public(health, False, expert_user)
    assert not Folder.objects.filter(public=True).exists()

    moved = services.create_folder("Open/Flu", expert_user, public=True)
    services.move_folder(Folder.objects.get(path="Open"), health, expert_user)
    assert not Folder.objects.get(pk=moved.pk).public
    assert leaf.pk


def test_the_migration_makes_existing_subtrees_of_private_folders_private(expert_user):
    from importlib import import_module

    from django.apps import apps

    services.create_folder("Team/Notes", expert_user, public=True)
    Folder.objects.filter(path="Team").update(public=False)  # as an older version could leave it
    import_module("classifier.migrations.0007_inherited_folder_privacy").make_subtrees_private(apps, None)
    assert not Folder.objects.get(path="Team/Notes").public


def test_undo_names_its_rule_and_refuses_when_another_rule_is_now_last(make_case, folders, expert, expert2):
    """Expert A is shown "Last rule: rule 31"; B commits rule 32; A's Undo used to remove rule 32."""
    mine = services.commit_rule(make_case("match"), "new", expert, folder=folders["sport"], conditions=["match"])
    theirs = services.commit_rule(make_case("vote"), "new", expert2, folder=folders["politics"], conditions=["vote"])
    with pytest.raises(ValidationError, match=f"rule {mine[0].pk} is no longer the last rule.*by expert2"):
        services.undo_last_rule(expert, mine[0].pk)
    assert Rule.objects.filter(pk=theirs[0].pk).exists(), "nothing undone"


def test_only_the_author_or_a_knowledge_base_administrator_undoes_a_rule(make_case, folders, expert, expert2):
    from foundation.roles import KB_ADMINISTRATORS, ensure_groups

    rule = services.commit_rule(make_case("match"), "new", expert, folder=folders["sport"], conditions=["match"])[0]
    with pytest.raises(ValidationError, match="made by expert: only they or a knowledge-base administrator"):
        services.undo_last_rule(expert2, rule.pk)
    expert2.groups.add(ensure_groups()[KB_ADMINISTRATORS])
    assert services.undo_last_rule(expert2, rule.pk) == [rule.pk]


def test_committing_the_same_rule_twice_creates_one_rule(make_case, folders, expert, expert2):
    """A double click, or two experts making the same rule, used to store two identical rules."""
    case = make_case("match goal")
    first = services.commit_rule(case, "new", expert, folder=folders["sport"], conditions=["match"])
    second = services.commit_rule(case, "new", expert2, folder=folders["sport"], conditions=["match"])
    assert [r.pk for r in second] == [r.pk for r in first]
    assert Rule.objects.count() == 1


def test_a_commit_checked_on_an_older_knowledge_base_is_refused(make_case, folders, expert, expert2):
    from classifier import kb

    case = make_case("match goal")
    checked_on = kb.version()  # expert A checks the draft
    services.commit_rule(make_case("vote"), "new", expert2, folder=folders["politics"], conditions=["vote"])
    with pytest.raises(ValidationError, match="changed since this rule was checked"):
        services.commit_rule(case, "new", expert, folder=folders["sport"], conditions=["match"], version=checked_on)
    assert not Rule.objects.filter(folder=folders["sport"]).exists()
    now = kb.version()
    rule = services.commit_rule(case, "new", expert, folder=folders["sport"], conditions=["match"], version=now)
    assert rule[0].folder == folders["sport"]


def test_a_stopping_rule_committed_twice_is_stored_once(make_case, folders, expert):
    services.commit_rule(make_case("match"), "new", expert, folder=folders["sport"], conditions=["match"])
    case = make_case("match vote")
    kwargs = {"wrong_folder": folders["sport"], "conditions": ["vote"]}
    first = services.commit_rule(case, "stop", expert, **kwargs)
    assert services.commit_rule(case, "stop", expert, **kwargs) == first
    assert Rule.objects.filter(folder__isnull=True).count() == 1


# ------------------------------------------------------------------- one rule shape everywhere (issue 14, D6/D7)
def test_a_rule_of_absent_keywords_only_commits_as_the_page_and_engine_allow(make_case, folders, expert, check_kb):
    """The engine and the rule page took it, the commit refused it."""
    make_case("match goal")
    case = make_case("budget vote")
    [rule] = services.commit_rule(case, "new", expert, folder=folders["politics"], absent=["match"])
    assert rule.conditions == [] and rule.absent == ["match"]
    check_kb()


def test_a_stopping_rule_without_a_condition_of_its_own_withholds_the_folder_where_its_parent_fires(
    make_case, folders, expert, check_kb
):
    """It was refused as "would fire on every case"; it fires only where its parent fires."""
    from classifier.models import Classification

    services.commit_rule(make_case("match"), "new", expert, folder=folders["sport"], conditions=["match"])
    other = make_case("match final")
    case = make_case("match report")
    validation = services.validate_rule(case, "stop", wrong_folder=folders["sport"])
    affected = {a.case_id for a in services.affected_cases(validation)}
    assert other.pk in affected
    [stop] = services.commit_rule(case, "stop", expert, wrong_folder=folders["sport"])
    assert stop.folder is None and stop.conditions == [] and stop.parent_id is not None
    assert not Classification.objects.filter(case=other, folder=folders["sport"], state="suggested").exists()
    check_kb()
    with pytest.raises(ValidationError, match="at least one keyword"):
        services.commit_rule(make_case("vote"), "new", expert, folder=folders["politics"])


def test_the_undo_s_confirm_step_counts_the_articles_a_stopping_rule_s_undo_changes_back(
    ec, make_case, folders, expert_user, expert2
):
    """Undoing asked nothing (a live trial). The confirm step says how many articles change back, here for a
    stopping rule (its undo suggests the withheld folder again), and refuses up front what the undo refuses."""
    services.commit_rule(make_case("match goal"), "new", expert_user, folder=folders["sport"], conditions=["match"])
    wrong = make_case("match vote")
    also = [make_case(f"match vote w{n}") for n in range(2)]
    untouched = make_case("match final")
    stop = services.commit_rule(wrong, "stop", expert_user, wrong_folder=folders["sport"], conditions=["vote"])[0]
    preview = services.undo_preview(expert_user, stop.pk)
    assert preview.rule_ids == [stop.pk] and preview.articles == 3  # the two others, and its own case
    html = ec.get(reverse("classifier:rule_undo"), {"rule": stop.pk}).content.decode()
    assert "<strong>3 articles</strong> change back" in html
    with pytest.raises(ValidationError, match="made by ada"):
        services.undo_preview(expert2, stop.pk)
    services.undo_last_rule(expert_user, stop.pk)
    assert all(c.classifications.filter(folder=folders["sport"], state="suggested").exists() for c in also)
    assert untouched.classifications.filter(folder=folders["sport"]).count() == 1
