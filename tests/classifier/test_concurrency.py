"""Two (or more) experts changing the knowledge base at the same time, on real connections.

Each thread has its own database connection, as two web processes would; the tests run on SQLite by
default and on PostgreSQL with DATABASE_URL (where the KB row lock, SELECT ... FOR UPDATE, does the work).
"""

import random
import threading
import time

import pytest
from django.core.exceptions import ValidationError
from django.db import connection, transaction

from classifier import kb, services
from classifier.engine import Rule as EngineRule
from classifier.engine import RuleTree
from classifier.models import AuditEntry, Case, Folder, KnowledgeBase, Rule
from monitor.models import Article

pytestmark = pytest.mark.django_db(transaction=True)


def run_threads(*targets, timeout=60):
    """Run the callables in threads started together; return their results or exceptions."""
    barrier = threading.Barrier(len(targets))
    results = [None] * len(targets)

    def wrap(i, target):
        try:
            barrier.wait()
            results[i] = target()
        except Exception as exc:  # noqa: BLE001 - handed back to the test
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=wrap, args=(i, t)) for i, t in enumerate(targets)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
        assert not thread.is_alive(), "a thread hung"
    return results


def assert_tree_valid():
    """The stored rules load into the engine (parents exist, placements legal) and match the version row."""
    rules = [
        EngineRule(r.pk, r.parent_id, r.folder_id, frozenset(r.conditions), frozenset(r.absent))
        for r in Rule.objects.order_by("id")
    ]
    tree = RuleTree(rules)
    commits = AuditEntry.objects.filter(action="rule.commit").count()
    assert KnowledgeBase.objects.get(pk=1).version >= commits
    return tree


def test_two_experts_committing_at_once_leave_a_consistent_kb(make_case, folders, expert, expert2, check_kb):
    shared = [make_case(f"match goal n{i}") for i in range(20)]
    case_a, case_b = make_case("match serve"), make_case("goal net")
    version = kb.version()
    results = run_threads(
        lambda: services.commit_rule(case_a, "new", expert, folder=folders["sport"], conditions=["match"]),
        lambda: services.commit_rule(case_b, "new", expert2, folder=folders["politics"], conditions=["goal"]),
    )
    assert all(isinstance(r, list) for r in results), results
    assert Rule.objects.count() == 2 and kb.version() == version + 2
    assert_tree_valid()
    check_kb()  # each shared case got both suggestions although two transactions re-inferred it
    for case in shared:
        assert set(case.classifications.values_list("folder__path", flat=True)) == {"Sport", "Politics"}


def test_conflicting_refinements_one_wins_the_other_gets_a_clear_error(make_case, folders, expert, expert2, check_kb):
    services.commit_rule(make_case("match"), "new", expert, folder=folders["sport"], conditions=["match"])
    case = make_case("match goal vote")
    results = run_threads(
        lambda: services.commit_rule(
            case, "refine", expert, folder=folders["football"], wrong_folder=folders["sport"], conditions=["goal"]
        ),
        lambda: services.commit_rule(
            case, "refine", expert2, folder=folders["politics"], wrong_folder=folders["sport"], conditions=["vote"]
        ),
    )
    errors = [r for r in results if isinstance(r, Exception)]
    assert len(errors) == 1 and isinstance(errors[0], ValidationError), results
    assert "not given folder" in str(errors[0])  # the loser's proposal was re-checked on the new tree
    assert Rule.objects.count() == 2
    assert_tree_valid()
    check_kb()


def test_a_commit_waits_for_the_lock_holder(make_case, folders, expert):
    case = make_case("budget tax")
    held = threading.Event()
    times = {}

    def holder():
        with transaction.atomic():
            kb.locked()
            held.set()
            time.sleep(1.0)
            times["released"] = time.monotonic()
        return "held"

    def committer():
        held.wait(10)
        services.commit_rule(case, "new", expert, folder=folders["economy"], conditions=["budget"])
        times["committed"] = time.monotonic()
        return "committed"

    results = run_threads(holder, committer)
    assert results == ["held", "committed"]
    assert times["committed"] >= times["released"]


def test_many_experts_and_ingestion_at_once(site, folders, expert, expert2, check_kb):
    """Commits, undos and ingestion interleaved in four threads; afterwards the tree and suggestions agree."""
    words = [f"w{i}" for i in range(12)]
    rng = random.Random(7)
    seeds = []
    for n in range(16):
        article = Article.objects.create(site=site, url=f"https://daily.example/s/{n}")
        seeds.append(services.ingest_case(article, rng.sample(words, 5)))
    targets = [f for f in Folder.objects.all()]

    def expert_work(user, seed):
        def work():
            local = random.Random(seed)
            done = 0
            for _ in range(6):
                case = Case.objects.get(pk=local.choice(seeds).pk)
                folder = local.choice(targets)
                try:
                    services.commit_rule(case, "new", user, folder=folder, conditions=local.sample(case.keywords, 2))
                    done += 1
                    if local.random() < 0.3:
                        services.undo_last_rule(user)
                except ValidationError:
                    pass
            return done

        return work

    def ingestion():
        local = random.Random(99)
        for n in range(15):
            article = Article.objects.create(site=site, url=f"https://daily.example/i/{n}")
            services.ingest_case(article, local.sample(words, 6))
        return "ingested"

    results = run_threads(expert_work(expert, 1), expert_work(expert2, 2), ingestion, expert_work(expert, 3))
    assert not [r for r in results if isinstance(r, Exception)], results
    assert sum(results[i] for i in (0, 1, 3)) > 0
    tree = assert_tree_valid()
    assert len(tree) == Rule.objects.count()
    check_kb()


def test_two_experts_bulk_accepting_overlapping_selections_decide_each_article_once(
    make_case, folders, expert, expert2
):
    """The second action waits for the first's locks, then finds the shared articles decided: it is refused as a
    whole (nothing half-applied), and each article has one accept, audited once."""
    services.commit_rule(make_case("goal"), "new", expert, folder=folders["football"], conditions=["goal"])
    cases = [make_case(f"goal n{i}") for i in range(6)]
    first, second = [c.article_id for c in cases[:4]], [c.article_id for c in cases[2:]]
    AuditEntry.objects.all().delete()
    results = run_threads(lambda: services.bulk_accept(first, expert), lambda: services.bulk_accept(second, expert2))
    done = [r for r in results if isinstance(r, list)]
    refused = [r for r in results if isinstance(r, services.BulkRefused)]
    assert len(done) == 1 and len(refused) == 1, results
    winner = first if results[0] is done[0] else second
    loser = second if winner is first else first
    assert [i.ok for i in refused[0].items] == [a not in winner for a in loser]
    entries = list(AuditEntry.objects.filter(action="classification.accept").values_list("details__case", flat=True))
    assert sorted(entries) == sorted(c.pk for c in cases if c.article_id in winner)
    decided = Article.objects.filter(pk__in=[c.article_id for c in cases], review_state="reviewed")
    assert set(decided.values_list("id", flat=True)) == set(winner)
