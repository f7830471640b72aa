"""The retention policy (monitor/retention.py): processed articles' raw pages and old fetch log rows are dropped
after their days, everything else stays; the filter view says when a page was dropped; learning skips them."""

from datetime import timedelta
from io import StringIO
from types import SimpleNamespace

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from monitor import retention, services
from monitor.models import Article, FetchAttempt
from processing import learning
from search.services import matching_articles
from tests.monitor.conftest import register, run_tasks

pytestmark = pytest.mark.django_db(transaction=True)


def age(queryset, days: int, field: str = "fetched_at") -> None:
    queryset.update(**{field: timezone.now() - timedelta(days=days)})


@pytest.fixture
def crawled(demo, fast_env, tunables):
    tunables(WIMS_AUTO_LEARN_PAGES=0)
    site = register(demo, "healthwatch")
    run_tasks(services.poll_site(site.pk), only=("poll", "fetch", "process"))
    articles = Article.objects.filter(site=site, state="processed").order_by("pk")
    assert articles.count() >= 3
    return site, list(articles)


def test_old_raw_pages_and_fetch_log_rows_are_dropped_and_nothing_else(crawled, settings):
    settings.WIMS_KEEP_RAW_PAGES_DAYS, settings.WIMS_KEEP_FETCH_LOG_DAYS = 30, 90
    site, (old, recent, *_) = crawled
    age(Article.objects.filter(pk=old.pk), 31)
    age(Article.objects.filter(pk=recent.pk), 29)
    waiting = Article.objects.create(site=site, url=f"{site.home_url}waiting", state="fetched")
    waiting.set_raw_html(b"<html><p>not processed yet</p></html>")
    waiting.save()
    age(Article.objects.filter(pk=waiting.pk), 40)  # not read by processing yet: kept whatever its age
    age(FetchAttempt.objects.filter(pk=FetchAttempt.objects.order_by("pk").first().pk), 91, "started_at")
    logs = FetchAttempt.objects.count()
    size = Article.objects.get(pk=old.pk).raw_size

    assert retention.apply_retention().detail == "1 raw pages dropped, 1 fetch log rows deleted"
    dropped = Article.objects.select_related("content").get(pk=old.pk)
    assert dropped.raw_html is None and dropped.raw_size == size and dropped.raw_page_dropped
    assert dropped.content.core_text and dropped.state == "processed"
    word = dropped.title.split()[0]
    assert old.pk in set(matching_articles(word).values_list("pk", flat=True)), "still searchable"
    assert Article.objects.get(pk=recent.pk).raw_html is not None
    assert Article.objects.get(pk=waiting.pk).raw_html is not None
    assert FetchAttempt.objects.count() == logs - 1
    assert retention.apply_retention().detail.startswith("0 raw pages dropped, 0 fetch log rows")  # done once


def test_zero_days_keeps_everything(crawled, settings):
    settings.WIMS_KEEP_RAW_PAGES_DAYS, settings.WIMS_KEEP_FETCH_LOG_DAYS = 0, 0
    age(Article.objects.all(), 3650)
    age(FetchAttempt.objects.all(), 3650, "started_at")
    assert retention.apply_retention().detail == "0 raw pages dropped, 0 fetch log rows deleted"
    assert not Article.objects.filter(state="processed", raw_html__isnull=True).exists()


def test_the_command_counts_then_drops(crawled, settings):
    settings.WIMS_KEEP_RAW_PAGES_DAYS = 30
    age(Article.objects.all(), 31)
    n = Article.objects.filter(state__in=Article.READ_STATES).count()
    out = StringIO()
    call_command("retention", "--dry-run", stdout=out)
    assert f"would drop {n} raw pages" in out.getvalue()
    assert not Article.objects.filter(raw_html__isnull=True, raw_size__gt=0).exists()
    call_command("retention", stdout=out)
    assert Article.objects.filter(raw_html__isnull=True, raw_size__gt=0).count() == n


def test_the_filter_view_says_the_page_was_dropped_and_learning_leaves_it(crawled, settings, ec):
    settings.WIMS_KEEP_RAW_PAGES_DAYS = 30
    site, (old, *_) = crawled
    page = ec.get(reverse("classifier:article_filters", args=[old.pk]))
    assert 'id="page-dropped"' not in page.content.decode()
    age(Article.objects.filter(pk=old.pk), 31)
    retention.apply_retention()
    html = ec.get(reverse("classifier:article_filters", args=[old.pk])).content.decode()
    assert 'id="page-dropped"' in html and "30 days after its fetch" in html
    assert "as stored when the article was processed" in html  # its phrases are still shown
    assert old.url not in [u for u, _ in learning.learning_pages(site)[0]]
    another = SimpleNamespace(name="site:another", provenance={"learned_at": "now"})  # every article is stale
    left = learning.refilter_site(site, another, batch=0)[2]
    assert left == Article.objects.filter(site=site, state="processed").count() - 1, "the dropped one is not"
