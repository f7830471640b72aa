"""Upgrading the previous release's database (main at 5562b12, the last that landed): its migrations' state,
populated through the historical models, migrated to today's; everything stays and today's behaviour holds on it
(the search index follows the content rows; a site's new options start off)."""

import pytest

from monitor.models import Article, Site, Source
from processing.models import ArticleContent
from search import backends
from search.services import matching_articles
from tests.feeds.test_migrations import latest, migrate, state_before_the_move

#: the leaf migrations that changed since the previous release; the other apps' leaves are unchanged
PREVIOUS_RELEASE = [("monitor", "0010_not_articles"), ("search", "0005_index_after_content_move")]


@pytest.mark.django_db(transaction=True)
def test_the_previous_release_s_database_upgrades_with_its_data():
    executor = migrate(PREVIOUS_RELEASE)
    try:
        old = state_before_the_move(executor)
        site = old.get_model("monitor", "Site").objects.create(
            name="Old Daily", home_url="https://old.example/", feed_url="https://old.example/rss.xml"
        )
        article = old.get_model("monitor", "Article").objects.create(
            site=site, url="https://old.example/cholera", title="Cholera outbreak", state="processed"
        )
        old.get_model("processing", "ArticleContent").objects.create(
            article=article, core_text="Cholera cases rise in the port.", keywords=[["cholera", 1.0]]
        )
        backends.index_range(article.pk, article.pk)  # the previous release's processing indexed explicitly

        migrate(latest())
        upgraded = Site.objects.get(pk=site.pk)
        assert (upgraded.sibling_hosts, upgraded.find_sources, upgraded.feed_url) == (
            False,
            False,
            "https://old.example/rss.xml",
        )
        assert not Source.objects.exists()
        assert ("https://old.example/rss.xml", "feed") in upgraded.polled_sources()  # the feed typed in is polled
        assert Article.objects.get(pk=article.pk).state == "processed"
        assert list(matching_articles("cholera").values_list("pk", flat=True)) == [article.pk]
        # today's search index follows the content row on the upgraded database too
        ArticleContent.objects.filter(pk=article.pk).update(core_text="Typhoid cases rise in the port.")
        assert list(matching_articles("typhoid").values_list("pk", flat=True)) == [article.pk]
    finally:
        migrate(latest())
