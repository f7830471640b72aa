"""Article.review_state never drifts from the classification rows: every writer keeps it.

The inbox filters on the stored state (one index range scan); these tests walk through every service
that writes classification rows and, after each step, compare every article's stored state with the
state recomputed in Python from its rows.
"""

import importlib

import pytest
from django.apps import apps

from classifier import exchange, services
from classifier.models import Classification
from monitor.models import Article
from tests.classifier.conftest import review_states_from_rows

pytestmark = pytest.mark.django_db


def stored() -> dict[int, str]:
    return dict(Article.objects.values_list("pk", "review_state"))


def assert_in_step(label: str) -> dict[int, str]:
    want = review_states_from_rows()
    assert stored() == want, label
    return want


def state(case) -> str:
    return Article.objects.get(pk=case.article_id).review_state


def test_every_writer_keeps_the_review_state(make_case, folders, expert, expert2, site):
    Article.objects.create(site=site, url="https://daily.example/never-processed", title="not processed")
    stone = make_case("goal match striker")
    other = make_case("goal match election")
    vote = make_case("election vote")
    assert_in_step("ingest, no rules")
    assert {state(stone), state(other), state(vote)} == {"unreviewed"}

    services.commit_rule(stone, "new", expert, folder=folders["football"], conditions=["goal"])  # ground-breaking
    assert_in_step("commit new")
    assert (state(stone), state(other), state(vote)) == ("reviewed", "suggested", "unreviewed")

    late = make_case("goal late")  # ingestion with a rule firing
    assert_in_step("ingest, a rule fires")
    assert state(late) == "suggested"

    services.accept(late, expert)  # accept as is
    assert_in_step("accept all")
    assert state(late) == "reviewed"

    services.commit_rule(vote, "new", expert, folder=folders["politics"], conditions=["election"])
    assert_in_step("second new rule")
    services.accept(other, expert2, folders=[folders["football"]])  # accept one of two suggestions
    assert_in_step("accept selected")
    assert state(other) == "suggested"  # Politics is still suggested
    services.reject(other, folders["politics"], expert2)
    assert_in_step("reject")
    assert state(other) == "correction"  # a rule still gives Politics: the rejection waits for its rule
    withdrawn = services.withdraw_correction(other.corrections.get(), expert2)
    assert_in_step("withdraw the rejection")
    assert state(other) == "suggested"
    services.reject(other, folders["politics"], expert2)
    assert_in_step("reject again")
    assert withdrawn.state == "withdrawn" and state(other) == "correction"

    refine_case = make_case("goal match ballot")
    services.commit_rule(
        refine_case,
        "refine",
        expert,
        folder=folders["politics"],
        wrong_folder=folders["football"],
        conditions=["ballot"],
    )  # re-inference moves suggestions, the case's wrong folder is rejected
    assert_in_step("commit refine")

    stopped = make_case("goal offside")
    assert state(stopped) == "suggested"
    services.commit_rule(stopped, "stop", expert, wrong_folder=folders["football"], conditions=["offside"])
    assert_in_step("commit stop")
    bystander = make_case("goal offside replay")
    assert state(bystander) == "unreviewed"  # the stopping rule withholds its only folder

    services.ingest_case(Article.objects.get(pk=late.article_id), ["weather"])  # new tokens: suggestion dropped
    assert_in_step("re-ingest with other tokens")

    for step in range(3):  # stop, refine, second new
        services.undo_last_rule(expert)
        assert_in_step(f"undo {step + 1}")
    assert state(bystander) == "suggested"

    Classification.objects.filter(case=other).delete()  # an edit outside the services ...
    services.reinfer_all(expert)  # ... repaired by re-inferring every case
    assert_in_step("reinfer all")

    document = exchange.export_kb()
    services.undo_last_rule(expert)  # the first rule: the knowledge base is empty again
    assert_in_step("undo the first rule")
    assert state(other) == "unreviewed"
    exchange.import_kb(document, expert)  # rules come back; stored cases are re-inferred
    assert_in_step("import")
    assert state(other) == "suggested"


def test_the_migration_fills_the_state_from_the_rows(make_case, folders, expert, site):
    stone = make_case("goal match")
    make_case("goal again")
    make_case("nothing here")
    Article.objects.create(site=site, url="https://daily.example/raw", title="raw")
    services.commit_rule(stone, "new", expert, folder=folders["football"], conditions=["goal"])
    want = assert_in_step("before")
    assert set(want.values()) == {"suggested", "reviewed", "unreviewed"}
    Article.objects.update(review_state="reviewed")  # as if the column had just been added, wrongly
    migration = importlib.import_module("monitor.migrations.0003_article_review_state")
    migration.fill_review_states(apps, None)
    assert set(stored().values()) == {"pending", "classified", "unreviewed"}  # the names until 0013
    importlib.import_module("monitor.migrations.0013_review_state_words").forward(apps, None)
    assert stored() == want


def test_refresh_writes_only_articles_whose_state_changed(make_case, folders, expert):
    stone, other = make_case("goal match"), make_case("goal again")
    services.commit_rule(stone, "new", expert, folder=folders["football"], conditions=["goal"])
    assert services.refresh_review_states([stone.pk, other.pk]) == 0
    Article.objects.filter(pk=other.article_id).update(review_state="unreviewed")
    assert services.refresh_review_states([stone.pk, other.pk]) == 1
    assert state(other) == "suggested"
