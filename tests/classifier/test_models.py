"""Knowledge-base models: constraints the database enforces, kinds, the version row, the admin."""

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError

from classifier import kb, services
from classifier.kinds import RuleKind
from classifier.models import (
    AuditEntry,
    Case,
    CaseKeyword,
    Classification,
    Folder,
    KnowledgeBase,
    Rule,
    validate_folder_name,
)

pytestmark = pytest.mark.django_db


def test_migration_creates_the_version_row():
    row = KnowledgeBase.objects.get(pk=KnowledgeBase.SINGLETON_ID)
    assert row.version == 0 and str(row) == "knowledge base v0"


def test_version_row_is_recreated_when_missing():
    KnowledgeBase.objects.all().delete()
    assert kb.version() == 0


@pytest.mark.parametrize("name", ["", " x", "x ", "a/b"])
def test_folder_name_validator(name):
    with pytest.raises(ValidationError):
        validate_folder_name(name)


def test_folder_paths_and_sibling_names_are_unique(expert):
    sport = services.create_folder("Sport", expert)
    with pytest.raises(IntegrityError), transaction.atomic():
        Folder.objects.create(name="Sport", path="Sport-2")  # same name at the top level
    with pytest.raises(IntegrityError), transaction.atomic():
        Folder.objects.create(name="Other", parent=sport, path="Sport")
    assert str(sport) == "Sport" and sport.compute_path() == "Sport"


def test_rule_kinds_and_protection(make_case, folders, expert):
    case = make_case("match goal chess")
    [new] = services.commit_rule(case, "new", expert, folder=folders["sport"], conditions=["match"])
    [refine] = services.commit_rule(
        make_case("match goal"),
        "refine",
        expert,
        folder=folders["football"],
        wrong_folder=folders["sport"],
        conditions=["goal"],
    )
    [stop] = services.commit_rule(
        make_case("match chess x"), "stop", expert, wrong_folder=folders["sport"], conditions=["chess"]
    )
    assert (new.kind, refine.kind, stop.kind) == (RuleKind.NEW, RuleKind.REFINE, RuleKind.STOP)
    assert "STOP" in str(stop) and "match" in str(new)
    with pytest.raises(ProtectedError):
        new.delete()  # it has child rules
    with pytest.raises(ProtectedError):
        folders["sport"].delete()  # rules conclude it
    with pytest.raises(ProtectedError):
        case.delete()  # a cornerstone case is part of the knowledge base


def test_a_cornerstone_case_outlives_its_article(make_case, folders, expert):
    """Deleting its article was refused (PROTECT), and with it the article's whole site: the case stays now,
    without the article, with its keywords, address and rules (classifier.models.keep_cornerstones)."""
    case = make_case("match goal chess")
    [rule] = services.commit_rule(case, "new", expert, folder=folders["sport"], conditions=["match"])
    ordinary = make_case("match goal")
    url, keywords = case.article.url, case.keywords
    case.article.delete()
    ordinary.article.delete()
    kept = Case.objects.get(pk=case.pk)
    assert kept.article_id is None and kept.keywords == keywords and {"match", "chess"} <= kept.keyword_set
    assert kept.source == url and Rule.objects.get(pk=rule.pk).cornerstone_id == case.pk
    assert CaseKeyword.objects.filter(case=kept).count() == len(keywords)
    assert not Case.objects.filter(pk=ordinary.pk).exists(), "an ordinary case goes with its article"


def test_case_keyword_and_classification_uniqueness(make_case, folders):
    case = make_case("match")
    with pytest.raises(IntegrityError), transaction.atomic():
        CaseKeyword.objects.create(case=case, keyword="match")
    Classification.objects.create(case=case, folder=folders["sport"])
    with pytest.raises(IntegrityError), transaction.atomic():
        Classification.objects.create(case=case, folder=folders["sport"])
    assert case.keyword_set == frozenset({"match"})


def test_deleting_an_ordinary_article_removes_its_case_and_index(make_case):
    case = make_case("match goal")
    case.article.delete()
    assert not Case.objects.filter(pk=case.pk).exists()
    assert not CaseKeyword.objects.filter(case_id=case.pk).exists()


def test_rules_keep_their_folder_through_rename(make_case, folders, expert):
    [rule] = services.commit_rule(make_case("goal"), "new", expert, folder=folders["football"], conditions=["goal"])
    services.rename_folder(folders["sport"], "Games", expert)
    assert Rule.objects.get(pk=rule.pk).folder.path == "Games/Football"


def test_admin_pages_render_and_folder_admin_goes_through_services(admin_client, make_case, folders, expert):
    services.commit_rule(make_case("goal"), "new", expert, folder=folders["football"], conditions=["goal"])
    for name in ["folder", "rule", "case", "classification", "auditentry", "knowledgebase"]:
        assert admin_client.get(f"/admin/classifier/{name}/").status_code == 200, name
    response = admin_client.post(
        "/admin/classifier/folder/add/", {"name": "Tennis", "parent": folders["sport"].pk, "public": "on"}
    )
    assert response.status_code == 302
    assert Folder.objects.filter(path="Sport/Tennis").exists()
    response = admin_client.post(
        f"/admin/classifier/folder/{folders['sport'].pk}/change/", {"name": "Games", "parent": "", "public": "on"}
    )
    assert response.status_code == 302
    assert Folder.objects.filter(path="Games/Tennis").exists() and Folder.objects.filter(path="Games/Football")
    assert admin_client.get("/admin/classifier/rule/add/").status_code == 403


def test_folder_admin_changes_privacy_through_the_service_with_an_audit_entry(admin_client, folders):
    sport = folders["sport"]
    response = admin_client.post(f"/admin/classifier/folder/{sport.pk}/change/", {"name": "Sport", "parent": ""})
    assert response.status_code == 302
    assert Folder.objects.get(pk=sport.pk).public is False
    entry, subtree = AuditEntry.objects.filter(action="folder.public").order_by("pk")
    assert entry.details == {"folder": sport.pk, "path": "Sport", "public": False}
    assert subtree.details == {"folder": sport.pk, "subtree": ["Sport/Football"], "public": False}  # inherited
    assert entry.actor is not None


def test_the_admin_never_deletes_knowledge_base_rows_but_may_delete_webmon_rows(admin_client, make_case):
    case = make_case("goal")
    assert admin_client.get(f"/admin/classifier/case/{case.pk}/delete/").status_code == 403
    assert admin_client.get(f"/admin/monitor/article/{case.article_id}/delete/").status_code == 200


def test_a_folder_knows_its_subtree(folders):
    sport, football = folders["sport"], folders["football"]
    assert sport.holds("Sport") and sport.holds("Sport/Football") and not sport.holds("Sports")
    assert not football.holds("Sport") and football.ancestor_paths() == ["Sport"]
    assert set(Folder.objects.filter(sport.subtree_q()).values_list("path", flat=True)) == {"Sport", "Sport/Football"}
    assert list(Folder.objects.filter(sport.subtree_q(itself=False)).values_list("path", flat=True)) == [
        "Sport/Football"
    ]
