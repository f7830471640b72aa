"""Each chart's numbers on a small workspace (tests/dashboards/conftest.py's board), one query each."""

from datetime import UTC, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from classifier.filtering import day_start, filter_state
from dashboards import selectors
from monitor.models import Article, Site
from tests.dashboards.conftest import make_article

BACKLOG = selectors.BACKLOG_STATES

pytestmark = pytest.mark.django_db


def day(days_ago: int) -> str:
    return (timezone.localdate() - timedelta(days=days_ago)).isoformat()


def by_label(chart):
    return {s.label: dict(zip(chart.x, s.values, strict=True)) for s in chart.series}


def nonzero(values: dict) -> dict:
    return {k: v for k, v in values.items() if v}


def test_articles_per_site_per_day_in_one_query(board):
    with CaptureQueriesContext(connection) as queries:
        chart = selectors.articles_per_site()
    assert len(queries) == 1
    assert len(chart.x) == 30 and chart.x[-1] == day(0) and chart.x[0] == day(29)
    series = by_label(chart)
    assert list(series) == ["Alpha News", "Beta Times"]  # biggest first
    assert nonzero(series["Alpha News"]) == {day(2): 1, day(0): 3}  # "old" is 40 days ago: outside
    assert nonzero(series["Beta Times"]) == {day(1): 2, day(0): 1}  # the failed article counts: it was collected


def test_sites_beyond_the_top_are_summed_as_other(board):
    series = by_label(selectors.articles_per_site(top=1))
    assert list(series) == ["Alpha News", "other"]
    assert nonzero(series["other"]) == {day(1): 2, day(0): 1}


def test_days_are_the_servers_days(db, settings):
    settings.TIME_ZONE = "America/New_York"
    gamma = Site.objects.create(name="Gamma", home_url="https://gamma.example/")
    late = make_article(gamma, "late", 0)
    # 22:00 yesterday in New York: already today in UTC
    moment = day_start(timezone.localdate() - timedelta(days=1)) + timedelta(hours=22)
    Article.objects.filter(pk=late.pk).update(collected_at=moment)
    assert moment.astimezone(UTC).date() != moment.date()
    assert nonzero(by_label(selectors.articles_per_site())["Gamma"]) == {day(1): 1}


def test_accepted_per_folder_per_day_in_one_query(board):
    with CaptureQueriesContext(connection) as queries:
        chart = selectors.accepted_per_folder()
    assert len(queries) == 1
    series = by_label(chart)
    assert list(series) == ["Health/Diabetes", "Sport"]
    assert nonzero(series["Health/Diabetes"]) == {day(2): 1, day(1): 1, day(0): 1}  # a1, a4, a2
    assert nonzero(series["Sport"]) == {day(0): 1}  # a3 (a4's Sport was rejected)
    assert by_label(selectors.accepted_per_folder(top=1))["other"][day(0)] == 1


def test_backlog_now_by_review_state_as_the_inbox_counts(board):
    with CaptureQueriesContext(connection) as queries:
        chart = selectors.backlog()
    assert len(queries) == 1
    assert chart.x == ["Unreviewed", "Suggested", "Rejected, rule pending", "Reviewed", "Failed", "Duplicate"]
    # b2 (no rule fires); "old" (its suggestion undecided); a4 and b1 (a rejection waiting for its rule); a1-a3; b3
    assert chart.series[0].values == [1, 1, 2, 3, 1, 0]
    # a re-publication has no case: it is no unreviewed work, as the inbox's filter says (classifier.filtering)
    original = Article.objects.filter(state=Article.State.PROCESSED).first()
    Article.objects.create(site=original.site, url=original.url + "?copy", state="duplicate", duplicate_of=original)
    assert selectors.backlog().series[0].values == [1, 1, 2, 3, 1, 1]


def test_rules_accepted_rejected_and_never_fired(board):
    rules = board["rules"]
    with CaptureQueriesContext(connection) as queries:
        stats = selectors.rule_stats()
    assert len(queries) == 1
    rows = {r.id: r for r in stats.rows}
    assert rules["stop"].pk not in rows  # a stopping rule concludes no folder: neither fired nor never fired
    diabetes, football = rows[rules["diabetes"].pk], rows[rules["football"].pk]
    assert (diabetes.accepted, diabetes.rejected, diabetes.suggested) == (3, 1, 1)  # a1 a2 a4 / b1 / old
    assert (football.accepted, football.rejected, football.suggested) == (1, 1, 0)  # a3 / a4
    # 75 % before 50 %; a rule is best or worst, not both (a live trial's two rules were listed in both tables)
    assert stats.comparable
    assert [r.id for r in stats.best] == [rules["diabetes"].pk]
    assert [r.id for r in stats.worst] == [rules["football"].pk]
    assert [r.id for r in stats.never_fired] == [rules["never"].pk]
    assert rows[rules["never"].pk].text == "marathon → Health/Exercise"
    chart = stats.chart()
    assert chart.x == [f"rule {rules['diabetes'].pk}", f"rule {rules['football'].pk}"]
    assert by_label(chart) == {
        "accepted": {chart.x[0]: 3, chart.x[1]: 1},
        "rejected": {chart.x[0]: 1, chart.x[1]: 1},
    }


def test_empty_workspace_draws_zeros(db):
    assert selectors.articles_per_site().series == []
    assert selectors.backlog().series[0].values == [0, 0, 0, 0, 0, 0]
    assert selectors.rule_stats().chart().x == []


def rule_row(rule_id: int, accepted: int, rejected: int) -> selectors.RuleRow:
    return selectors.RuleRow(rule_id, "F", [f"w{rule_id}"], [], accepted, rejected, 0)


@pytest.mark.parametrize(
    ("rows", "best", "worst"),
    [
        ([], [], []),
        ([(1, 1, 3)], [], []),  # one rule is neither best nor worst: the page says there are too few
        ([(1, 3, 1), (2, 1, 1)], [1], [2]),  # both rejected once: each in one table
        ([(1, 3, 0), (2, 2, 0)], [1], []),  # no rejection: nothing is worst
        ([(1, 4, 0), (2, 3, 1), (3, 1, 3)], [1], [3, 2]),
    ],
)
def test_a_rule_is_best_or_worst_never_both(rows, best, worst):
    stats = selectors.RuleStats([rule_row(*row) for row in rows])
    assert stats.comparable == (len(rows) >= selectors.RULE_TABLES_MIN)
    assert ([r.id for r in stats.best], [r.id for r in stats.worst]) == (best, worst)
    many = selectors.RuleStats([rule_row(i, 50 - i, i) for i in range(1, 41)])
    assert not {r.id for r in many.best} & {r.id for r in many.worst}
    assert len(many.best) == len(many.worst) == selectors.RULE_TABLE


def test_backlog_leaves_out_what_the_inbox_leaves_out(board):
    # a live trial read "Unreviewed 31" beside an inbox of 29 unreviewed: the pages processing kept out (not
    # articles) and an address still waiting to be fetched are no work for an expert, so the inbox lists neither
    alpha = board["sites"][0]
    make_article(alpha, "special-report", 0, state=Article.State.NOT_ARTICLE)
    make_article(alpha, "queued", 0, state=Article.State.PENDING)
    assert selectors.backlog().series[0].values == [1, 1, 2, 3, 1, 0]
    inbox = [filter_state(Article.objects.exclude(state=Article.State.NOT_ARTICLE), s).count() for s in BACKLOG]
    assert selectors.backlog().series[0].values == inbox
