"""The dashboards page and its CSV downloads (experts only: classifier.permissions.expert_required)."""

from __future__ import annotations

import csv

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from classifier.permissions import expert_required
from dashboards import selectors

#: A text cell a spreadsheet would read as a formula (folder, site and rule names are typed by people).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _tables() -> dict:
    """Each chart's CSV rows, by the name in its URL: computed only for the chart asked for."""
    return {
        "sites": lambda: selectors.articles_per_site().table(),
        "folders": lambda: selectors.accepted_per_folder().table(),
        "backlog": lambda: selectors.backlog().table(),
        "rules": lambda: selectors.rule_stats().table(),
    }


@expert_required
@require_GET
def dashboards(request):
    rules = selectors.rule_stats()
    charts = {
        "sites": selectors.articles_per_site(),
        "folders": selectors.accepted_per_folder(),
        "backlog": selectors.backlog(),
        "rules": rules.chart(),
    }
    backlog = zip(selectors.BACKLOG_STATES, charts["backlog"].x, charts["backlog"].series[0].values, strict=True)
    return render(
        request,
        "dashboards/index.html",
        {
            "charts": charts,
            "data": {key: chart.as_json() for key, chart in charts.items()},
            "backlog": list(backlog),
            "rules": rules,
            "days": selectors.DAYS,
            "top_rules": selectors.TOP_RULES,
        },
    )


def _cell(value):
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value  # shown as text, never run (OWASP's advice for CSV injection)
    return value


@expert_required
@require_GET
def chart_csv(request, chart: str):
    table = _tables().get(chart)
    if table is None:
        raise Http404(f"no chart {chart!r}; the charts are {', '.join(_tables())}")
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    stamp = timezone.localdate().isoformat()
    response["Content-Disposition"] = f'attachment; filename="wims-{chart}-{stamp}.csv"'
    writer = csv.writer(response)
    for row in table():
        writer.writerow([_cell(value) for value in row])
    return response
