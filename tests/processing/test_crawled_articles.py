"""The workspace's pages on articles WebMon really fetched and processing really stored (not fixtures)."""

import pytest
from django.urls import reverse

from monitor import services
from monitor.models import Article
from tests.monitor.conftest import poll_outcomes, register, run_tasks, seed_rule

pytestmark = pytest.mark.django_db(transaction=True)


def test_filter_and_article_pages_open_on_every_crawled_article(demo, fast_env, ec):
    """The filter view answered 500 on every crawled article: processing stores each phrase as a list."""
    seed_rule("diabetes", "Health/Diabetes")
    site = register(demo, "healthwatch")
    ran = run_tasks(services.poll_site(site.pk))
    assert sorted((name, outcome.result) for name, _, outcome in ran) == poll_outcomes(4)
    crawled = Article.objects.filter(site=site, state="processed")
    assert crawled.count() == 4
    for article in crawled:
        stored = article.content.extraction["phrases"]
        response = ec.get(reverse("classifier:article_filters", args=[article.pk]))
        assert response.status_code == 200, article.url
        assert response.context["origin"] == "stored"
        shown = [item["phrase"] for item in response.context["phrases"]]
        assert [(p.text, p.removed_by, p.note) for p in shown] == [(text, out, note) for text, out, _, note in stored]
        assert any(p.removed_by for p in shown) and any(p.is_core for p in shown)
        # the main-content stage's reasons reach the page
        page = response.content.decode()
        for p in shown:
            if p.removed_by == "content":
                assert p.note in page
        assert ec.get(reverse("classifier:article", args=[article.pk])).status_code == 200


def test_filter_view_shows_phrases_stored_before_the_main_content_stage(demo, fast_env, ec):
    # articles processed before notes were stored keep [text, removed_by, rescued_by]
    seed_rule("diabetes", "Health/Diabetes")
    site = register(demo, "courier")
    first, *_rest = services.poll_site(site.pk).enqueue
    [*_, (_, pk, _)] = run_tasks([first])
    article = Article.objects.get(pk=pk)
    article.content.extraction["phrases"] = [row[:3] for row in article.content.extraction["phrases"]]
    article.content.save(update_fields=["extraction"])
    response = ec.get(reverse("classifier:article_filters", args=[article.pk]))
    assert response.status_code == 200
    assert all(item["phrase"].note is None for item in response.context["phrases"])
