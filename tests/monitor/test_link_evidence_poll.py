"""A poll reads where each link sits and what the site's pages turned out to be (issue 33 item 2), and the new
Site.sibling_hosts option migrates in and out."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from monitor import services
from monitor.models import Article, Site

pytestmark = pytest.mark.django_db(transaction=True)

HTML = ("Content-Type", "text/html; charset=utf-8")
HOME = b"""<html><head><title>Home</title></head><body>
<nav><a href="/">Home</a> <a href="/news/menu-only-story-5001">Menu</a></nav>
<div class="stories">
  <article><h2><a href="/news/a-story-told-on-the-home-page-5002">A story told on the home page</a></h2></article>
  <article><h2><a href="/specials/winter-in-the-hills">Winter in the hills, a special</a></h2></article>
</div>
<footer><a href="/news/footer-favourite-5003">Our favourite story of the year</a></footer>
</body></html>"""


@pytest.fixture
def site(scripted, fast_env):
    scripted.routes["/"] = (200, [HTML], HOME)
    return Site.objects.create(
        name="Evidence", home_url=scripted.base + "/", allow_private_addresses=True, articles_only=True
    )


def polled_urls(site: Site) -> set[str]:
    outcome = services.poll_site(site.pk)
    assert outcome.result == "polled", outcome.detail
    return {url.removeprefix(site.home_url.rstrip("/")) for url in site.articles.values_list("url", flat=True)}


def test_a_poll_takes_the_stories_and_leaves_the_menu_and_the_footer(site):
    assert polled_urls(site) == {"/news/a-story-told-on-the-home-page-5002", "/specials/winter-in-the-hills"}


def test_a_template_whose_pages_were_not_articles_yields_no_more_candidates(site):
    base = site.home_url.rstrip("/")
    for name in ("autumn-colours", "summer-nights", "spring-walks"):  # fetched before: processing kept them out
        Article.objects.create(site=site, url=f"{base}/specials/{name}", state=Article.State.NOT_ARTICLE)
    assert "/specials/winter-in-the-hills" not in polled_urls(site)
    rules = services._rules(site)
    assert rules.judge(f"{base}/specials/winter-in-the-hills") == (
        False,
        "pages like /specials/{slug} were not articles (3 of 3)",
    )


def test_a_template_whose_pages_were_articles_is_taken_even_from_the_menu(site):
    base = site.home_url.rstrip("/")
    for n in (4001, 4002):
        Article.objects.create(site=site, url=f"{base}/news/earlier-story-{n}", state=Article.State.PROCESSED)
    assert "/news/menu-only-story-5001" in polled_urls(site)


def test_the_administrator_s_include_patterns_still_decide(site):
    site.include_patterns = r"/news/"
    site.save()
    assert polled_urls(site) == {
        "/news/menu-only-story-5001",
        "/news/a-story-told-on-the-home-page-5002",
        "/news/footer-favourite-5003",
    }


BEFORE = ("monitor", "0010_not_articles")


def test_sibling_hosts_is_added_off_for_the_sites_stored_before_and_removed_again():
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    try:
        old = executor.loader.project_state([BEFORE]).apps
        old.get_model("monitor", "Site").objects.create(name="Portal", home_url="http://uk.portal.test/")
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
        assert Site.objects.get(name="Portal").sibling_hosts is False
        executor = MigrationExecutor(connection)
        executor.migrate([BEFORE])
        columns = [c.name for c in connection.introspection.get_table_description(connection.cursor(), "monitor_site")]
        assert "sibling_hosts" not in columns
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
