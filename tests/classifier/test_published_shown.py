"""The publication date on the article page and in search results: its time when the source gave one, the day
alone when it gave a date only (never a made-up midnight), in the server's time zone as every date is shown."""

from datetime import UTC, datetime

import pytest
from django.test import override_settings
from django.urls import reverse

from monitor.models import Article
from search import services as search_services
from tests.articles import create_article

pytestmark = pytest.mark.django_db

MORNING = datetime(2025, 3, 3, 8, 5, tzinfo=UTC)
DAY = datetime(2025, 3, 3, tzinfo=UTC)  # a page's "2025-03-03": midnight UTC stands for the day


def _article(site, n, published_at, time_given):
    return create_article(
        site=site,
        url=f"https://daily.example/p/{n}",
        title="Measles report",
        core_text="measles",
        state=Article.State.PROCESSED,
        published_at=published_at,
        published_time_given=time_given,
    )


def _meta(html: str) -> str:
    start = html.index('class="article-meta"')
    return html[start : html.index("</div>", start)]


@override_settings(TIME_ZONE="Europe/Paris")
def test_the_article_page_shows_the_time_only_when_the_source_gave_one(ec, site):
    timed = _article(site, 1, MORNING, True)
    day = _article(site, 2, DAY, False)
    unknown = _article(site, 3, MORNING, None)  # stored before the source's precision was kept: as before
    assert "published 3 Mar 2025 09:05" in _meta(
        ec.get(reverse("classifier:article", args=[timed.pk])).content.decode()
    )
    page = _meta(ec.get(reverse("classifier:article", args=[day.pk])).content.decode())
    assert "published 3 Mar 2025" in page and "01:00" not in page and "00:00" not in page
    page = _meta(ec.get(reverse("classifier:article", args=[unknown.pk])).content.decode())
    assert "published 3 Mar 2025" in page and "09:05" not in page


@override_settings(TIME_ZONE="America/New_York")
def test_a_date_alone_is_the_day_the_source_named_whatever_the_server_zone(ec, site):
    # midnight UTC is the evening before in New York: the day shown is the source's, not 2 Mar
    day = _article(site, 1, DAY, False)
    page = _meta(ec.get(reverse("classifier:article", args=[day.pk])).content.decode())
    assert "published 3 Mar 2025" in page and "2 Mar" not in page


@override_settings(TIME_ZONE="Europe/Paris")
def test_search_results_show_the_publication_time_the_same_way(ec, site):
    search_services.index_article(_article(site, 1, MORNING, True))
    search_services.index_article(_article(site, 2, DAY, False))
    html = ec.get(reverse("search:results"), {"q": "measles"}).content.decode()
    assert "published 3 Mar 2025 09:05" in html
    assert html.count("published 3 Mar 2025") == 2 and "published 3 Mar 2025 01:00" not in html
