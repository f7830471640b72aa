"""One bad page never stops the rest (issue 28): a page refused at the filters' door (filters.limits) is
refused everywhere, a learned profile never empties a page, and work that kills its worker is quarantined
(the count kept in the database) instead of being delivered again and again."""

from datetime import timedelta

import pytest
from django.utils import timezone

from filters.models import SiteProfile
from foundation import work
from monitor import services as monitor
from monitor.models import Article, Site
from processing import learning
from processing.extraction import FALLBACK_NOTE
from processing.models import SiteLearning
from processing.services import process_article

pytestmark = pytest.mark.django_db

STORY = (
    "<p>The clinic opened a new wing for patients with diabetes on {n} March, the board said on Monday.</p>"
    "<p>Nurses in the wing will see up to forty patients a day, and the waiting list is expected to halve.</p>"
    "<p>Doctors welcomed the news, saying that foot care for diabetes had waited far too long already.</p>"
)


def page(n: int) -> bytes:
    return (
        f"<html><head><title>Story {n} - The Clinic News</title></head><body>"
        "<nav><a href='/'>Home</a> <a href='/health'>Health</a></nav>"
        f"<article><h1>Story {n}</h1>{STORY.format(n=n)}</article>"
        "<footer>Copyright The Clinic News, all rights reserved.</footer></body></html>"
    ).encode()


#: 3,000 nested tables: 12,000 levels; site learning took 708 MiB on it before the door
BOMB = b"<html><body>" + b"<table><tr><td>" * 3000 + STORY.format(n=0).encode() + b"</body></html>"


@pytest.fixture
def site():
    return Site.objects.create(name="Clinic News", home_url="http://127.0.0.1:9/", allow_private_addresses=True)


def stored(site: Site, n: int, body: bytes) -> Article:
    """An article as WebMon leaves it after the fetch: its page stored, waiting to be processed."""
    article = Article(site=site, url=f"http://127.0.0.1:9/story-{n}", state=Article.State.FETCHED)
    article.set_raw_html(body)
    article.headers = {"content-type": "text/html; charset=utf-8"}
    article.save()
    return article


def test_a_page_refused_at_the_door_is_never_read_again(site, ec):
    bomb = stored(site, 0, BOMB)
    articles = [stored(site, n, page(n)) for n in range(1, 5)]
    for article in [bomb, *articles]:
        process_article(article.pk)
    bomb.refresh_from_db()
    assert bomb.state == "failed"
    assert "nested more than 2,048 deep" in bomb.last_error
    # site learning, its admin action and re-filtering read only the pages processing read
    pages, _ = learning.learning_pages(site)
    assert sorted(url for url, _ in pages) == sorted(a.url for a in articles)
    assert learning.stored_pages(site) == 4
    chosen, missing = learning.learning_pages(site, bomb.url)
    assert (chosen, missing) == ([], [bomb.url])
    # the filter view does not run the filters on it in a web request either
    response = ec.get(f"/articles/{bomb.pk}/filters")
    assert response.status_code == 200
    assert "The stored page was not read" in response.content.decode()
    assert "nested more than 2,048 deep" in response.content.decode()


def test_a_learned_profile_never_empties_a_page(site, ec):
    article = stored(site, 1, page(1))
    profile, _ = SiteProfile.objects.get_or_create(site=site)
    # a template learned from other pages that happens to hold every line of this one
    lines = [line.split(">", 1)[1] for line in STORY.format(n=1).split("</p>") if ">" in line]
    profile.filtering_phrases = ["Story 1", *lines]
    profile.learned_at = timezone.now()
    profile.save()
    outcome = process_article(article.pk)
    assert outcome.result == "processed", outcome
    article.refresh_from_db()
    assert "new wing for patients with diabetes" in article.content.core_text
    assert article.content.extraction["profile"] == f"site:{site.pk}", "filtered under the site's profile all the same"
    assert article.content.extraction["fallback"] == FALLBACK_NOTE.format(base="default")
    for url in (f"/articles/{article.pk}/", f"/articles/{article.pk}/filters"):
        assert "learned filter profile removed all of this page" in ec.get(url).content.decode(), url


def test_learning_that_kills_its_worker_is_quarantined_until_an_administrator_retries(site, settings):
    settings.WIMS_AUTO_LEARN_PAGES = 3
    settings.WIMS_MAX_PROCESS_ATTEMPTS = 2
    for n in range(1, 5):
        process_article(stored(site, n, page(n)).pk)
    site = Site.objects.select_related("learning").get(pk=site.pk)
    assert learning.after_processing(site, "default") == [("learn", site.pk, 0)]
    # Two runs started and never ended: what a run killed by the kernel's OOM killer or a hard time limit leaves
    for _ in range(2):
        assert learning.start_learning(site) == ""
    outcome = learning.learn_site(site.pk)
    assert outcome.result == "failed" and outcome.detail.startswith("quarantined:"), outcome
    assert not SiteProfile.objects.filter(site=site, learned_at__isnull=False).exists()
    record = SiteLearning.objects.get(site=site)
    assert record.quarantined_at is not None and "killed or timed out its worker 2 times" in record.last_error
    # a redelivered message and every later article leave it alone
    assert learning.learn_site(site.pk).result == "failed"
    assert SiteLearning.objects.get(site=site).unfinished == 2
    site = Site.objects.select_related("learning").get(pk=site.pk)
    assert learning.after_processing(site, "default") == []
    # the administrator's retry, after a fix
    assert learning.retry_learning(site).enqueue == [("learn", site.pk, 0)]
    assert learning.learn_site(site.pk).result == "learned"
    assert SiteLearning.objects.get(site=site).unfinished == 0


@pytest.mark.parametrize(
    ("stage", "working", "counter", "setting"),
    [
        ("process", "processing", "process_attempts", "WIMS_MAX_PROCESS_ATTEMPTS"),
        ("fetch", "fetching", "fetch_attempts", "WIMS_MAX_FETCH_ATTEMPTS"),
    ],
)
def test_a_row_whose_work_killed_its_worker_too_often_is_quarantined_not_delivered_again(
    site, settings, stage, working, counter, setting
):
    setattr(settings, setting, 3)
    article = stored(site, 1, page(1))
    lost = timezone.now() - timedelta(seconds=5)
    Article.objects.filter(pk=article.pk).update(state=working, lease_until=lost, **{counter: 3})
    # a redelivered message after the lease ran out: no attempt left, so it does not run the page again
    assert not work.claim(stage, article.pk)
    monitor.sweep()
    article.refresh_from_db()
    assert article.state == "failed"
    assert article.last_error.startswith("quarantined:") and "Fetch again" in article.last_error
    # with attempts left, the lost lease is taken over (the killed attempt counted)
    Article.objects.filter(pk=article.pk).update(state=working, lease_until=lost, **{counter: 2})
    assert work.claim(stage, article.pk)
    assert getattr(Article.objects.get(pk=article.pk), counter) == 3


def test_the_admin_shows_a_quarantined_learning_and_retries_it(site, admin_client):
    SiteLearning.objects.create(
        site=site, unfinished=3, quarantined_at=timezone.now(), last_error="quarantined: learning killed it"
    )
    listing = admin_client.get("/admin/monitor/site/").content.decode()
    assert "filter learning quarantined: quarantined: learning killed it" in listing
    response = admin_client.post(
        "/admin/monitor/site/", {"action": "retry_filter_learning", "_selected_action": site.pk}, follow=True
    )
    assert "Filter learning asked again for 1 quarantined site." in response.content.decode()
    record = SiteLearning.objects.get(site=site)
    assert (record.unfinished, record.quarantined_at, record.last_error) == (0, None, "")


def test_the_site_list_counts_quarantined_articles(site, admin_client):
    article = stored(site, 1, page(1))
    Site.objects.filter(pk=site.pk).update(last_poll_at=timezone.now())
    Article.objects.filter(pk=article.pk).update(state="failed", last_error=work.quarantine_note("process", 3))
    assert "degraded: 1 article quarantined" in admin_client.get("/admin/monitor/site/").content.decode()
