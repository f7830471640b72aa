"""The filter view: phrases with the filters' decisions, marking mode, metrics per site."""

import pytest
from django.urls import reverse

from classifier.models_labels import PhraseLabel
from demo.articles import articles_for_site
from demo.sites import render_article_page
from monitor.models import Article, Site
from processing.models import ArticleContent

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo_article():
    if not hasattr(Article, "set_raw_html"):
        pytest.skip("WebMon's Article has no stored page yet")
    pool = articles_for_site("healthwatch")[0]
    site = Site.objects.create(name="HealthWatch", home_url="http://healthwatch.demo.test/")
    # processed before its phrase decisions were stored: the filter view runs the filters again on its page
    article = Article(
        site=site,
        url="http://healthwatch.demo.test/a",
        title=pool.title,
        state=Article.State.PROCESSED,
    )
    article.set_raw_html(render_article_page("healthwatch", pool.slug).encode())
    article.save()
    ArticleContent.objects.create(article=article, core_text=pool.core_text)
    return article, pool


def test_phrases_show_removed_ones_struck_through_with_their_filter(ec, demo_article):
    article, pool = demo_article
    response = ec.get(reverse("classifier:article_filters", args=[article.pk]))
    assert response.status_code == 200
    phrases = [item["phrase"] for item in response.context["phrases"]]
    assert any(p.removed_by for p in phrases) and any(p.is_core for p in phrases)
    html = response.content.decode()
    removed = next(p for p in phrases if p.removed_by)
    assert "<del>" in html and f"{removed.removed_by} filter" in html
    assert pool.title in [p.text for p in phrases if p.is_core]


def test_marking_stores_labels_and_shows_metrics_per_site(ec, demo_article):
    article, pool = demo_article
    url = reverse("classifier:article_filters", args=[article.pk])
    phrases = [item["phrase"] for item in ec.get(url, {"mark": "1"}).context["phrases"]]
    gold = set(pool.core_lines())
    data = {f"p{i}": ("core" if p.text in gold else "noise") for i, p in enumerate(phrases)}
    response = ec.post(url, {**data, "every": "1"})  # the expert checked every phrase
    assert response.status_code == 302
    assert PhraseLabel.objects.filter(article=article).count() == len(phrases)
    page = ec.get(url)
    row = page.context["per_site"][0]
    assert row["site"] == article.site and row["m"]["n"] == len(phrases)
    kept = [p.is_core for p in phrases]
    labels = [p.text in gold for p in phrases]
    a = sum(k and g for k, g in zip(kept, labels, strict=True))
    assert row["m"]["a"] == a
    assert row["m"]["recall"] == a / sum(labels)
    html = page.content.decode()
    for name in ("recall", "precision", "fallout", "accuracy", "error"):
        assert name in html


def test_marking_stores_only_the_phrases_the_expert_changed(ec, demo_article):
    """Issue 30: the form sends every phrase's mark; saving after correcting two stored them all, so the
    quality table counted the filters agreeing with themselves. Only the changed phrases are labels now."""
    article, _ = demo_article
    url = reverse("classifier:article_filters", args=[article.pk])
    phrases = [item["phrase"] for item in ec.get(url, {"mark": "1"}).context["phrases"]]
    marks = {f"p{i}": ("core" if p.is_core else "noise") for i, p in enumerate(phrases)}
    kept = next(i for i, p in enumerate(phrases) if p.is_core)
    removed = next(i for i, p in enumerate(phrases) if not p.is_core)
    ec.post(url, {**marks, f"p{kept}": "noise", f"p{removed}": "core"})
    labels = {label.position: label.is_core for label in PhraseLabel.objects.filter(article=article)}
    assert labels == {kept: False, removed: True}
    row = ec.get(url).context["per_site"][0]
    assert row["m"]["n"] == 2 and row["m"]["b"] == 1 and row["m"]["c"] == 1
    # a later save keeps those labels, and a label marked back to the filters' decision is the expert's word
    ec.post(url, {**marks, f"p{removed}": "core"})
    labels = {label.position: label.is_core for label in PhraseLabel.objects.filter(article=article)}
    assert labels == {kept: True, removed: True}


def test_marking_and_saving_keep_the_view_the_article_was_opened_in(ec, demo_article):
    """Saving phrase labels used to drop the view: back on the article, j/k walked the whole inbox."""
    article, _ = demo_article
    url = reverse("classifier:article_filters", args=[article.pk])
    html = ec.get(url, {"view": "state=pending"}).content.decode()
    assert 'href="?mark=1&amp;view=state%3Dpending"' in html
    marking = ec.get(url, {"mark": "1", "view": "state=pending"}).content.decode()
    assert '<input type="hidden" name="view" value="state=pending">' in marking
    assert 'href="?view=state%3Dpending"' in marking  # leaving marking mode keeps it too
    response = ec.post(url, {"p0": "core", "view": "state=pending"})
    assert response.status_code == 302 and response["Location"] == f"{url}?view=state%3Dpending"


def test_labels_for_phrases_that_do_not_exist_are_refused(ec, demo_article):
    article, _ = demo_article
    url = reverse("classifier:article_filters", args=[article.pk])
    response = ec.post(url, {"p99999": "core"}, follow=True)
    assert "no phrase at positions [99999]" in response.content.decode()
    assert not PhraseLabel.objects.exists()


def test_article_without_stored_page(ec):
    site = Site.objects.create(name="S", home_url="https://s.example/")
    article = Article.objects.create(site=site, url="https://s.example/1", title="t")
    html = ec.get(reverse("classifier:article_filters", args=[article.pk])).content.decode()
    assert "No stored page" in html


def test_one_labelled_phrase_is_said_in_the_singular(ec, demo_article):
    # a live trial's first label read "Saved: this article has 1 labelled phrases." and "(1 labelled phrases)"
    article, _ = demo_article
    url = reverse("classifier:article_filters", args=[article.pk])
    phrases = [item["phrase"] for item in ec.get(url, {"mark": "1"}).context["phrases"]]
    kept = next(i for i, p in enumerate(phrases) if p.is_core)
    html = ec.post(url, {f"p{kept}": "noise"}, follow=True).content.decode()
    assert "this article has 1 labelled phrase." in html and "This article (1 labelled phrase)" in html
    assert "1 labelled phrases" not in html
