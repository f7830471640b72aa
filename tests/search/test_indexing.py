"""Indexing through real processing: demo pages WebMon fetched, filtered and stored, then searched; the index
follows the re-filtering after the site's profile is learned."""

import pytest

from monitor import services as webmon
from monitor.models import Article, Site
from processing import services as processing
from search.models import SearchDocument
from search.services import matching_articles, search
from tests.monitor.conftest import ground_truth, register, run_tasks

pytestmark = pytest.mark.django_db(transaction=True)

PAGES = 6


def test_processed_articles_are_searchable_and_follow_the_refiltering(demo, fast_env, settings):
    settings.WIMS_AUTO_LEARN_PAGES = PAGES
    key = "healthwatch"
    site = register(demo, key)
    demo.publish(key)  # 5 published
    run_tasks(webmon.poll_site(site.pk))
    processed = Article.objects.filter(site=site, state="processed")
    assert processed.count() == PAGES - 1
    assert SearchDocument.objects.count() == PAGES - 1
    name = demo.sites[key].name
    # the pages' <title> is the headline with the site's name around it: the headline is the title already;
    # before the site's profile is learned, the site's name is in the core text (the newsroom's note under every
    # story, demo/healthwatch.py) of every page
    assert not any(name in a.title for a in processed)
    assert all(name in a.content.core_text for a in processed)
    assert set(matching_articles(f'"{name}"', site=site)) == set(processed)

    demo.publish(key)  # the sixth page: the profile is learned and the site's articles filtered again
    run_tasks(webmon.poll_site(site.pk))
    truth = ground_truth(demo, key)
    articles = list(Article.objects.filter(site=site, state="processed"))
    assert len(articles) == PAGES
    for article in articles:
        expected = truth[article.url]
        assert article.title == expected["title"]
        # each article is found by its own title, ranked first
        page = search(f'"{expected["title"]}"')
        assert page.results and page.results[0].article.pk == article.pk, article.title
    # the site's name left the titles: the index followed the re-filtered text
    still = {a.pk for a in matching_articles(f'"{name}"', site=site)}
    assert still == {a.pk for a in articles if name in a.content.core_text or name in a.title}
    assert len(still) < PAGES


def test_a_re_publication_is_not_indexed(demo, fast_env):
    key = "courier"
    site = register(demo, key)
    run_tasks(webmon.poll_site(site.pk))
    original = Article.objects.filter(site=site, state="processed").first()
    # a mirror site's copy (on the same site, the page's rel=canonical would make it an alias instead)
    mirror = Site.objects.create(name="Mirror", home_url="http://mirror.test/", allow_private_addresses=True)
    copy = Article(site=mirror, url="http://mirror.test/copy", state="fetched", headers=original.headers)
    copy.set_raw_html(original.get_raw_html())
    copy.save()
    assert processing.process_article(copy.pk).result == "duplicate"
    assert not SearchDocument.objects.filter(pk=copy.pk).exists()
    assert SearchDocument.objects.filter(pk=original.pk).exists()
    assert copy.pk not in set(matching_articles(f'"{original.title}"').values_list("pk", flat=True))
