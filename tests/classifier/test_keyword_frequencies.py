"""The keywords' document frequencies (KeywordFrequency) follow the keyword index through every write.

Run on SQLite by default and on PostgreSQL with DATABASE_URL (statement triggers with transition tables there,
row triggers on SQLite). Each check compares the stored counts with a fresh recount of the index.
"""

import contextlib
import threading
import time

import pytest
from django.core.management import CommandError, call_command
from django.db import connection, transaction
from django.db.migrations.executor import MigrationExecutor

from classifier import exchange, frequencies, services
from classifier.features import FeatureSettings
from classifier.models import Case, CaseKeyword, KeywordFrequency
from classifier.selectors import document_frequencies
from monitor.models import Article
from tests.classifier.test_concurrency import run_threads


def recount() -> dict[str, int]:
    counted: dict[str, int] = {}
    for word in CaseKeyword.objects.values_list("keyword", flat=True):
        counted[word] = counted.get(word, 0) + 1
    return counted


def stored() -> dict[str, int]:
    return dict(KeywordFrequency.objects.filter(cases__gt=0).values_list("keyword", "cases"))


def assert_counts_follow_the_index():
    assert stored() == recount()
    assert frequencies.drift() == []


@pytest.mark.django_db
def test_ingestion_re_ingestion_and_deletion_keep_the_counts(make_case):
    a = make_case("match goal stadium")
    b = make_case("match goal vote")
    make_case("match tennis")
    assert frequencies.case_frequencies(["match", "goal", "vote", "unknown"]) == {"match": 3, "goal": 2, "vote": 1}
    assert_counts_follow_the_index()

    services.ingest_case(b.article, ["vote", "tax"])  # re-processed: goal and match go, tax comes
    assert frequencies.case_frequencies(["match", "goal", "tax"]) == {"match": 2, "goal": 1, "tax": 1}
    assert_counts_follow_the_index()

    a.article.delete()  # the case and its index rows go by cascade
    assert not Case.objects.filter(pk=a.pk).exists()
    assert frequencies.case_frequencies(["match", "goal", "stadium"]) == {"match": 1}
    assert KeywordFrequency.objects.get(keyword="stadium").cases == 0  # kept at 0 until a repair drops it
    assert_counts_follow_the_index()

    Article.objects.all().delete()  # several cases in one statement
    assert stored() == {}
    assert_counts_follow_the_index()


@pytest.mark.django_db
def test_a_rolled_back_ingestion_counts_nothing(make_case, site):
    make_case("match goal")
    article = Article.objects.create(site=site, url="https://daily.example/rolled-back")
    with pytest.raises(RuntimeError), transaction.atomic():
        services.ingest_case(article, ["match", "vote"])
        assert frequencies.case_frequencies(["match", "vote"]) == {"match": 2, "vote": 1}
        raise RuntimeError("the article's processing failed")
    assert frequencies.case_frequencies(["match", "vote"]) == {"match": 1}
    assert_counts_follow_the_index()


@pytest.mark.django_db
def test_rebuilt_cases_and_an_imported_knowledge_base_keep_the_counts(make_case, folders, expert):
    for text in ("match goal", "match vote", "budget vote"):
        make_case(text)
    services.commit_rule(make_case("match serve"), "new", expert, folder=folders["sport"], conditions=["match"])
    data = exchange.export_kb()
    # another feature setting rebuilds every case that is not a cornerstone: site words come in
    services.set_feature_settings(FeatureSettings(phrases=False, scopes=True), expert)
    assert any(word.startswith("site:") for word in stored())
    assert_counts_follow_the_index()

    services.undo_last_rule(expert)
    Article.objects.all().delete()
    Case.objects.all().delete()
    exchange.import_kb(data, expert)  # the cornerstone case, without its article; index rows by bulk_create
    assert frequencies.case_frequencies(["match", "serve", "vote"]) == {"match": 1, "serve": 1}
    assert_counts_follow_the_index()


@pytest.mark.django_db
def test_document_frequencies_read_the_counts(make_case):
    make_case("match goal")
    newest = make_case("match vote")
    assert document_frequencies(["match", "vote", "unheard"]) == ({"match": 2, "vote": 1}, newest.pk)
    assert document_frequencies(["unheard"]) == ({}, 0)


@pytest.mark.django_db(transaction=True)
def test_concurrent_ingestions_of_the_same_words_lose_no_count(site):
    """Four workers, each with its own connection, ingest cases sharing most words at the same moment."""
    shared = [f"common{i}" for i in range(40)]
    per_worker = 15

    def worker(n):
        def ingest():
            for i in range(per_worker):
                article = Article.objects.create(site=site, url=f"https://daily.example/w{n}/{i}")
                services.ingest_case(article, [*shared, f"own{n}x{i}", f"worker{n}"])
            return per_worker

        return ingest

    assert run_threads(*(worker(n) for n in range(4))) == [per_worker] * 4
    assert frequencies.case_frequencies([*shared, "worker0", "own1x3"]) == {
        **{word: 4 * per_worker for word in shared},
        "worker0": per_worker,
        "own1x3": 1,
    }
    assert_counts_follow_the_index()


@pytest.mark.django_db(transaction=True)
def test_an_ingestion_waits_for_an_uncommitted_one_and_adds_to_its_count(site):
    """The second transaction adds its case while the first, holding the same words, has not committed: it
    must wait for the first and add to its count, not overwrite it (a read-modify-write would keep 1)."""
    first_in = threading.Event()
    times = {}

    def first():
        with transaction.atomic():
            article = Article.objects.create(site=site, url="https://daily.example/first")
            services.ingest_case(article, ["election", "vote"])
            first_in.set()
            time.sleep(0.5)
            times["first"] = time.monotonic()
        return "first"

    def second():
        first_in.wait(10)
        article = Article.objects.create(site=site, url="https://daily.example/second")
        services.ingest_case(article, ["vote", "budget"])
        times["second"] = time.monotonic()
        return "second"

    assert run_threads(first, second) == ["first", "second"]
    if connection.vendor == "postgresql":  # SQLite serializes the two transactions from their start
        assert times["second"] >= times["first"]
    assert frequencies.case_frequencies(["election", "vote", "budget"]) == {"election": 1, "vote": 2, "budget": 1}
    assert_counts_follow_the_index()


@pytest.mark.django_db
def test_the_command_finds_and_repairs_drifted_counts(make_case):
    make_case("match goal")
    make_case("match vote")
    call_command("keyword_frequencies", "--check")  # nothing drifted
    # writes that bypass the triggers: a count changed by hand, a word no case holds, a word's row lost
    KeywordFrequency.objects.filter(keyword="match").update(cases=7)
    KeywordFrequency.objects.create(keyword="ghost", cases=3)
    KeywordFrequency.objects.filter(keyword="vote").delete()
    KeywordFrequency.objects.create(keyword="gone", cases=0)  # a word whose cases were all deleted
    with pytest.raises(CommandError, match="3 keyword frequencies drifted"):
        call_command("keyword_frequencies", "--check")
    assert [(d.keyword, d.counted, d.stored) for d in frequencies.drift()] == [
        ("ghost", 0, 3),
        ("match", 2, 7),
        ("vote", 1, 0),
    ]
    call_command("keyword_frequencies")
    assert dict(KeywordFrequency.objects.values_list("keyword", "cases")) == {"match": 2, "goal": 1, "vote": 1}
    call_command("keyword_frequencies", "--check")


@pytest.mark.django_db(transaction=True)
def test_the_migration_counts_the_index_rows_already_stored(make_case):
    make_case("match goal")
    make_case("match vote")
    before = recount()
    executor = MigrationExecutor(connection)
    try:
        executor.migrate([("classifier", "0013_case_keyword_primary_key")])
        assert "classifier_keywordfrequency" not in connection.introspection.table_names()
        with connection.cursor() as cursor:  # the index rows written before the counts existed
            cursor.execute("DELETE FROM classifier_casekeyword WHERE keyword = 'goal'")
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
    assert stored() == {w: n for w, n in before.items() if w != "goal"}
    assert_counts_follow_the_index()
    make_case("match")  # and the triggers count from there on
    assert frequencies.case_frequencies(["match"]) == {"match": 3}


@pytest.mark.django_db(transaction=True)
def test_two_re_ingestions_swapping_the_same_words_do_not_deadlock(make_case, monkeypatch):
    """Case X trades "alpha" for "beta" while case Y trades "beta" for "alpha". Re-ingestion deletes the removed
    words' index rows, then inserts the added ones, and the triggers lock each word's count as they go: without
    taking all its words' counts first, in keyword order, X would hold alpha and wait for beta while Y held beta
    and waited for alpha (PostgreSQL: "deadlock detected", one ingestion lost). The two threads meet between
    the deletion and the insertion, when both can get there."""
    from classifier.services import cases

    x, y = make_case("alpha common"), make_case("beta common")
    between = threading.Barrier(2)
    index_keywords = cases._index_keywords

    def meet_then_index(case_id, words):
        # with the counts locked first, the other one waits before its deletion: they never meet
        with contextlib.suppress(threading.BrokenBarrierError):
            between.wait(timeout=2)
        index_keywords(case_id, words)

    monkeypatch.setattr(cases, "_index_keywords", meet_then_index)
    results = run_threads(
        lambda: services.ingest_case(x.article, ["beta", "common"]).keywords,
        lambda: services.ingest_case(y.article, ["alpha", "common"]).keywords,
    )
    assert not [r for r in results if isinstance(r, Exception)], results
    assert "beta" in results[0] and "alpha" not in results[0]
    assert "alpha" in results[1] and "beta" not in results[1]
    assert frequencies.case_frequencies(["alpha", "beta", "common"]) == {"alpha": 1, "beta": 1, "common": 2}
    assert_counts_follow_the_index()
