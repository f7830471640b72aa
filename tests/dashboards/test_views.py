"""The dashboards page and its CSV downloads: permissions, what they show, the CSV's header and rows."""

import csv
import io
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from classifier.models import Rule
from monitor.models import Site
from tests.dashboards.conftest import make_article

pytestmark = pytest.mark.django_db

CHARTS = ("sites", "folders", "backlog", "rules")
URLS = [reverse("dashboards:index"), *(reverse("dashboards:csv", args=[c]) for c in CHARTS)]


def rows_of(response):
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].startswith('attachment; filename="wims-')
    return list(csv.reader(io.StringIO(response.content.decode())))


@pytest.mark.parametrize("url", URLS)
def test_anonymous_visitors_are_sent_to_the_login_page(client, url):
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login") + "?next=")


@pytest.mark.parametrize("url", URLS)
def test_signed_in_non_experts_get_403(client, outsider, url):
    client.force_login(outsider)
    assert client.get(url).status_code == 403


def test_page_carries_each_charts_data_and_links(client, expert, board):
    client.force_login(expert)
    response = client.get(reverse("dashboards:index"))
    assert response.status_code == 200
    html = response.content.decode()
    for chart in CHARTS:
        assert f'id="chart-{chart}-data" type="application/json"' in html
        assert f'data-chart="{chart}"' in html
        assert f'href="{reverse("dashboards:csv", args=[chart])}"' in html
    assert response.context["data"]["backlog"]["series"][0]["values"] == [1, 1, 2, 3, 1, 0]
    # no inline script: every <script> is a file or JSON data (the CSP allows nothing else)
    for tag in re.findall(r"<script[^>]*>", html):
        assert " src=" in tag or 'type="application/json"' in tag, tag
    assert "'unsafe-inline'" not in response["Content-Security-Policy"]
    rules = board["rules"]
    never = reverse("classifier:rule_detail", args=[rules["never"].pk])
    assert re.search(rf'id="never-fired".*href="{never}"', html, re.S)
    best = html[html.index('id="best-rules"') : html.index('id="worst-rules"')]
    worst = html[html.index('id="worst-rules"') : html.index('id="never-fired"')]
    # two rules: one best, the other worst, neither in both tables (a live trial saw each twice)
    assert f"rule {rules['diabetes'].pk}<" in best and f"rule {rules['football'].pk}<" not in best
    assert f"rule {rules['football'].pk}<" in worst and f"rule {rules['diabetes'].pk}<" not in worst
    assert 'id="rule-tables-too-few"' not in html
    assert f'href="{reverse("classifier:inbox")}?state=suggested"' in html
    assert '<th class="num">Suggested</th>' in html  # the folder state's word, as on every page (issue 30)
    assert 'href="/dashboards/"' in html  # the header's link
    # a trial read "The last 30 days" over a chart of 7: the page says where a chart over days starts
    assert "starts at its first day with a count" in html


def test_titles_and_names_are_escaped(client, expert, board):
    site = Site.objects.create(name="<img src=x onerror=alert(1)>", home_url="https://evil.example/")
    make_article(site, "x", 0)
    client.force_login(expert)
    html = client.get(reverse("dashboards:index")).content.decode()
    assert "<img src=x" not in html
    assert "\\u003Cimg src=x onerror=alert(1)\\u003E" in html  # json_script's escaping


def test_csv_of_articles_per_site(client, expert, board):
    client.force_login(expert)
    rows = rows_of(client.get(reverse("dashboards:csv", args=["sites"])))
    assert rows[0] == ["day", "Alpha News", "Beta Times"]
    assert len(rows) == 31
    today = timezone.localdate()
    body = {row[0]: row[1:] for row in rows[1:]}
    assert body[today.isoformat()] == ["3", "1"]
    assert body[(today - timedelta(days=1)).isoformat()] == ["0", "2"]
    assert body[(today - timedelta(days=2)).isoformat()] == ["1", "0"]


def test_csv_of_folders_backlog_and_rules(client, expert, board):
    client.force_login(expert)
    folders = rows_of(client.get(reverse("dashboards:csv", args=["folders"])))
    assert folders[0] == ["day", "Health/Diabetes", "Sport"]
    assert folders[-1] == [timezone.localdate().isoformat(), "1", "1"]
    backlog = rows_of(client.get(reverse("dashboards:csv", args=["backlog"])))
    assert backlog == [
        ["state", "articles"],
        ["Unreviewed", "1"],
        ["Suggested", "1"],
        ["Rejected, rule pending", "2"],
        ["Reviewed", "3"],
        ["Failed", "1"],
        ["Duplicate", "0"],
    ]
    rules = board["rules"]
    assert rows_of(client.get(reverse("dashboards:csv", args=["rules"]))) == [
        ["rule", "folder", "conditions", "accepted", "rejected", "suggested"],
        [str(rules["diabetes"].pk), "Health/Diabetes", "diabetes → Health/Diabetes", "3", "1", "1"],
        [str(rules["football"].pk), "Sport", "football → Sport", "1", "1", "0"],
        [str(rules["never"].pk), "Health/Exercise", "marathon → Health/Exercise", "0", "0", "0"],
    ]


def test_csv_cells_a_spreadsheet_would_run_are_text(client, expert, db):
    site = Site.objects.create(name='=HYPERLINK("http://evil.example")', home_url="https://evil.example/")
    make_article(site, "x", 0)
    client.force_login(expert)
    rows = rows_of(client.get(reverse("dashboards:csv", args=["sites"])))
    assert rows[0] == ["day", '\'=HYPERLINK("http://evil.example")']


@pytest.mark.django_db
def test_with_too_few_rules_the_page_says_so_instead_of_best_and_worst(client, expert):
    client.force_login(expert)
    html = client.get(reverse("dashboards:index")).content.decode()
    assert 'id="best-rules"' not in html and 'id="worst-rules"' not in html
    assert 'id="rule-tables-too-few"' in html and "Too few rules" in html


def test_unknown_chart_is_404(client, expert):
    client.force_login(expert)
    assert client.get("/dashboards/nothing.csv").status_code == 404
    assert client.post(reverse("dashboards:csv", args=["sites"])).status_code == 405


def test_a_long_list_of_rules_never_fired_is_cut_at_50(client, expert, board):
    folder = board["folders"]["Health/Exercise"]
    Rule.objects.bulk_create(Rule(folder=folder, conditions=[f"word{i}"]) for i in range(60))
    client.force_login(expert)
    html = client.get(reverse("dashboards:index")).content.decode()
    listed = html[html.index('id="never-fired"') :]
    assert listed.count("rule-text") == 50
    assert "and 11 more: the CSV lists them all." in html  # 61 never fired
    rules = rows_of(client.get(reverse("dashboards:csv", args=["rules"])))
    assert len(rules) == 1 + 2 + 61


def test_every_dashboards_view_requires_the_expert_role():
    from django.urls import get_resolver

    names = []
    for pattern in get_resolver().url_patterns:
        if getattr(pattern, "namespace", None) == "dashboards":
            for p in pattern.url_patterns:
                assert getattr(p.callback, "required_role", None) == "experts", p.name
                names.append(p.name)
    assert sorted(names) == ["csv", "index"]
