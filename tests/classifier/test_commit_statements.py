"""What a commit asks of the database does not grow with the cases its rule reaches (issue 30's storage speed,
docs/benchmarks/mcrdr-storage.md): a ground-breaking rule's suggestions are one INSERT ... SELECT and the review
state of their articles one UPDATE that reads no classification row."""

import pytest
from django.db import connection

from classifier import kb, services
from classifier.models import Classification
from monitor.models import Article

pytestmark = pytest.mark.django_db


class Statements:
    """Every statement run meanwhile, with its parameters (a list parameter flattened)."""

    def __init__(self):
        self.run: list[tuple[str, list]] = []

    def __call__(self, execute, sql, params, many, context):
        flat = []
        for p in params or ():
            flat += p if isinstance(p, (list, tuple)) else [p]
        self.run.append((sql, flat))
        return execute(sql, params, many, context)


def commit(stone, word, folder, expert) -> Statements:
    kb.current()  # loaded, as a serving process holds it between commits
    statements = Statements()
    with connection.execute_wrapper(statements):
        services.commit_rule(stone, "new", expert, folder=folder, conditions=[word])
    return statements


def test_a_ground_breaking_commit_runs_as_many_statements_for_30_cases_as_for_3(make_case, folders, expert):
    few = [make_case(f"goal match{i}") for i in range(3)]
    many = [make_case(f"vote poll{i}") for i in range(30)]
    small = commit(few[0], "goal", folders["football"], expert)
    large = commit(many[0], "vote", folders["politics"], expert)
    assert len(large.run) == len(small.run)

    reached = {c.pk for c in many[1:]}
    suggested = Classification.objects.filter(folder=folders["politics"], state=Classification.State.SUGGESTED)
    assert set(suggested.values_list("case_id", flat=True)) == reached
    assert set(Article.objects.filter(case__in=reached).values_list("review_state", flat=True)) == {"suggested"}
    # the statement that sets the reached cases' articles to "suggested" reads none of their rows
    review = [sql for sql, params in large.run if "review_state" in sql and reached <= set(params)]
    assert review and all("classifier_classification" not in sql for sql in review), review
