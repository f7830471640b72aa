"""Export/import of the whole knowledge base: exact round trip, validation of foreign documents."""

import copy
import json

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command

from classifier import exchange, kb, services
from classifier.models import AuditEntry, Case, Classification, Folder, Rule, RuleCornerstone

pytestmark = pytest.mark.django_db


@pytest.fixture
def built_kb(make_case, folders, expert):
    """A KB with every rule kind: new, refining under two parents, stopping, absent keywords, nested folders."""
    services.create_folder("Health/Diabetes", expert, public=False)
    services.commit_rule(make_case("match serve"), "new", expert, folder=folders["sport"], conditions=["match"])
    services.commit_rule(make_case("stadium"), "new", expert, folder=folders["sport"], conditions=["stadium"])
    services.commit_rule(
        make_case("match stadium ballot"),
        "refine",
        expert,
        folder=folders["politics"],
        wrong_folder=folders["sport"],
        conditions=["ballot"],
    )
    services.commit_rule(
        make_case("match chess"), "stop", expert, wrong_folder=folders["sport"], conditions=["chess"], absent=["goal"]
    )
    services.commit_rule(
        make_case("insulin glucose ünïcode"),
        "new",
        expert,
        folder=Folder.objects.get(path="Health/Diabetes"),
        conditions=["insulin", "ünïcode"],
    )
    make_case("match tennis")  # not a cornerstone: not exported
    return exchange.export_json()


def wipe_kb():
    """Empty the knowledge base tables, as in a fresh database."""
    Classification.objects.all().delete()
    for rule in Rule.objects.order_by("-id"):
        rule.delete()
    Case.objects.all().delete()
    for folder in Folder.objects.order_by("-path"):
        folder.delete()
    kb.clear_cache()


def test_export_names_folders_by_path_and_numbers_from_one(built_kb):
    data = json.loads(built_kb)
    assert data["format"] == "wims-mcrdr-kb" and data["format_version"] == 2
    assert data["features"] == {"stemming": None, "phrases": False, "scopes": False}
    assert [f["path"] for f in data["folders"]] == [
        "Economy",
        "Health",
        "Health/Diabetes",
        "Politics",
        "Sport",
        "Sport/Football",
    ]
    assert [f["public"] for f in data["folders"] if f["path"].startswith("Health")] == [False, False]
    assert [r["id"] for r in data["rules"]] == list(range(1, 7))
    assert [c["id"] for c in data["cases"]] == list(range(1, 6))
    refine = [r for r in data["rules"] if r["folder"] == "Politics"]
    assert [r["parent"] for r in refine] == [1, 2] and {r["cornerstone"] for r in refine} == {3}
    stop = data["rules"][4]
    assert stop["folder"] is None and stop["absent"] == ["goal"] and stop["parent"] == 1
    assert built_kb.endswith("\n") and "ünïcode" in built_kb


def test_round_trip_into_an_empty_database_is_exact(built_kb, make_case, expert):
    wipe_kb()
    counts = exchange.import_json(built_kb, expert)
    assert counts == {"folders": 6, "cases": 5, "rules": 6}
    assert exchange.export_json() == built_kb
    # the imported KB infers like the original one
    assert [Folder.objects.get(pk=c.folder).path for c in services.infer(make_case("stadium match ballot x"))] == [
        "Politics",
        "Politics",
    ]
    assert services.infer(make_case("match chess")) == []
    assert services.infer(make_case("match chess goal"))[0].folder == Folder.objects.get(path="Sport").pk
    assert AuditEntry.objects.filter(action="kb.import", actor=expert).exists()


def test_import_reinfers_existing_cases(built_kb, make_case):
    wipe_kb()
    waiting = make_case("match tennis")
    assert Classification.objects.filter(case=waiting).count() == 0
    exchange.import_json(built_kb)
    assert list(Classification.objects.filter(case=waiting).values_list("folder__path", "state")) == [
        ("Sport", "suggested")
    ]


def test_import_refuses_a_knowledge_base_with_rules(built_kb):
    with pytest.raises(ValidationError, match="already has rules"):
        exchange.import_json(built_kb)


def _broken(text, change):
    data = json.loads(text)
    change(data)
    return data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="other"), "not a knowledge-base export"),
        (lambda d: d.update(format_version=3), "unsupported format_version"),
        (lambda d: d.update(format_version=True), "unsupported format_version"),
        (lambda d: d.update(features={"stemming": "klingon"}), "unknown stemming"),
        (lambda d: d.update(features=["english"]), "features: expected an object"),
        (lambda d: d["folders"].reverse(), "must come before"),
        (lambda d: d["rules"][0].update(folder="Nowhere"), "unknown folder"),
        (lambda d: d["rules"][2].update(parent=99), "must come before"),
        (lambda d: d["rules"][0].update(cornerstone=42), "unknown cornerstone"),
        (lambda d: d["rules"][0].update(conditions=["absent-from-case"]), "does not fire on its own cornerstone"),
        (lambda d: d["rules"][0].update(conditions="match"), "wrong type"),
        (lambda d: d["rules"][0].update(folder=None), "valid MCRDR tree"),
        (lambda d: d["rules"][2].update(folder="Sport"), "valid MCRDR tree"),
        (lambda d: d["cases"][0].update(created_at="yesterday"), "invalid created_at"),
        (lambda d: d["cases"][0].pop("keywords"), "missing 'keywords'"),
        # these raised TypeError or a database error (issue: import_kb answered with tracebacks)
        (lambda d: d["rules"][2].update(parent=[1]), "'parent' has the wrong type"),
        (lambda d: d["rules"][0].update(folder={"a": 1}), "'folder' has the wrong type"),
        (lambda d: d["rules"][0].update(cornerstone=[1]), "'cornerstone' has the wrong type"),
        (lambda d: d["folders"].append({**d["folders"][0], "path": "x" * 101}), "100 characters at most"),
        (lambda d: d["cases"][0].update(source="s" * 2001), "longer than 2000 characters"),
        (lambda d: d["folders"][0].update(path="Sp\x00ort"), "NUL"),
        (lambda d: d["cases"][0]["keywords"].append("nul\x00word"), "NUL"),
    ],
)
def test_import_rejects_broken_documents_with_a_clear_error(built_kb, change, message):
    wipe_kb()
    with pytest.raises(ValidationError, match=message):
        exchange.import_kb(_broken(built_kb, change))
    assert Rule.objects.count() == 0 and Folder.objects.count() == 0  # all or nothing


def test_import_rejects_invalid_json():
    with pytest.raises(ValidationError, match="not valid JSON"):
        exchange.import_json("{")
    with pytest.raises(ValidationError, match="nested too deeply"):  # was a RecursionError
        exchange.import_json("[" * 100_000 + "]" * 100_000)


def test_the_command_names_what_is_wrong_with_a_file_it_cannot_read(tmp_path):
    binary = tmp_path / "kb.json"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    with pytest.raises(CommandError, match="is not UTF-8 text"):  # was a UnicodeDecodeError
        call_command("import_kb", str(binary))
    with pytest.raises(CommandError, match="cannot read"):
        call_command("import_kb", str(tmp_path / "missing.json"))
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(CommandError, match="nested too deeply"):
        call_command("import_kb", str(deep))


def test_commands_round_trip(built_kb, tmp_path, expert, capsys):
    path = tmp_path / "kb.json"
    call_command("export_kb", "-o", str(path))
    assert path.read_text(encoding="utf-8") == built_kb
    wipe_kb()
    call_command("import_kb", str(path), "--user", "expert")
    assert "imported 6 rules" in capsys.readouterr().out
    call_command("export_kb")
    assert capsys.readouterr().out == built_kb
    with pytest.raises(CommandError, match="already has rules"):
        call_command("import_kb", str(path))
    with pytest.raises(CommandError, match="no user"):
        call_command("import_kb", str(path), "--user", "nobody")


def test_export_of_an_empty_knowledge_base_round_trips():
    text = exchange.export_json()
    assert json.loads(text) == {
        "format": "wims-mcrdr-kb",
        "format_version": 2,
        "features": {"stemming": None, "phrases": False, "scopes": False},
        "folders": [],
        "cases": [],
        "rules": [],
    }
    exchange.import_json(copy.copy(text))
    assert exchange.export_json() == text


def test_a_version_1_file_still_imports(built_kb):
    """Files written before format 2 (no feature settings, one cornerstone case per rule) import as they were."""
    data = json.loads(built_kb)
    data["format_version"] = 1
    del data["features"]
    for rule in data["rules"]:
        del rule["accepted"]
    wipe_kb()
    assert exchange.import_kb(data)["rules"] == len(data["rules"])
    again = json.loads(exchange.export_json())
    assert [r["conditions"] for r in again["rules"]] == [r["conditions"] for r in data["rules"]]


def test_feature_settings_and_accepted_cornerstones_travel_with_the_knowledge_base(news_features, expert):
    from classifier.features import FeatureSettings
    from monitor.models import Article, Site

    services.set_feature_settings(FeatureSettings(stemming="english"), expert)
    site = Site.objects.create(name="News", home_url="https://news.example/")
    first = Article.objects.create(site=site, url="https://news.example/politics/1", title="Prime Minister resigns")
    second = Article.objects.create(site=site, url="https://news.example/politics/2", title="Ministers meet")
    case = services.ingest_case(first, ["prime", "minister", "resigns"])
    other = services.ingest_case(second, ["ministers", "meet"])
    folder = services.create_folder("Politics", expert)
    [rule] = services.commit_rule(case, "new", expert, folder=folder, conditions=["title:minist"])
    assert services.infer(other), "stemmed: 'Ministers' in the other title fires the rule on 'minist'"
    RuleCornerstone.objects.create(rule=rule, case=other, decision=RuleCornerstone.Decision.ACCEPTED)
    text = exchange.export_json()
    data = json.loads(text)
    assert data["features"] == {"stemming": "english", "phrases": True, "scopes": True}
    assert data["rules"][0]["accepted"] == [2]
    wipe_kb()
    services.set_feature_settings(FeatureSettings(), expert)  # the importing database starts without stemming
    exchange.import_json(text)
    assert kb.current().features == FeatureSettings(stemming="english")
    assert exchange.export_json() == text
