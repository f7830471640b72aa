"""DocView elements stored by processing on pages WebMon really fetched from the demo sites, and near-duplicates:
a re-publication with another byline and date is linked to the original, another article is not."""

import re

import pytest
from django.contrib.auth import get_user_model

from classifier.models import Case
from demo.articles import get_article
from filters import docview
from monitor import services
from monitor.models import Article, Site
from processing import services as processing
from processing.models import FingerprintBand
from tests.monitor.conftest import ground_truth, poll_outcomes, register, run_tasks

pytestmark = pytest.mark.django_db(transaction=True)


def crawl(site) -> list[Article]:
    ran = run_tasks(services.poll_site(site.pk))
    assert sorted((name, outcome.result) for name, _, outcome in ran) == poll_outcomes(4)
    kept_out = Article.objects.filter(site=site).exclude(state=Article.State.PROCESSED)
    assert [a.state for a in kept_out] == [Article.State.NOT_ARTICLE], "the special report"
    return list(Article.objects.filter(site=site, state=Article.State.PROCESSED).order_by("pk"))


def test_processing_stores_keywords_abstract_relevant_links_and_fingerprint(demo, fast_env):
    site = register(demo, "wellbeing")
    articles = crawl(site)
    truth = ground_truth(demo, "wellbeing")
    for article in articles:
        title_words = set(re.findall(r"[a-z]+", article.title.lower()))
        terms = [term for term, _ in article.content.keywords]
        weights = [weight for _, weight in article.content.keywords]
        assert len(terms) == docview.KEYWORDS and weights == sorted(weights, reverse=True) and 0 < weights[-1] <= 1
        assert title_words & set(terms[:5]), (article.title, article.content.keywords)  # the headline weighs most
        assert 100 < len(article.content.abstract) <= docview.ABSTRACT_CHARS
        core = " ".join(truth[article.url]["core_text"].split())
        sentences = re.split(r"(?<=[.!?]) ", article.content.abstract)
        assert all(s in core for s in sentences), article.content.abstract  # the article's own sentences
        # the link on the first words of the body is the only one inside this template's topic content; not
        # the byline's (a byline and date line is no article text), the menu, the share buttons, the related
        # stories or the comments' link
        body = get_article("wellbeing", truth[article.url]["slug"]).blocks
        first_words = " ".join(next(b.text for b in body if b.kind == "p").split()[:3])
        assert [anchor for _, anchor in article.content.relevant_links] == [first_words]
        assert article.content.relevant_links[0][0].startswith(demo.base_url("wellbeing") + "/")
        assert "/about/" not in article.content.relevant_links[0][0]
        assert "utm_" not in article.content.relevant_links[0][0], "the demo's links carry utm_* parameters"
        assert len(docview.fingerprint_from_bytes(article.content.fingerprint)) == docview.PERMUTATIONS
        assert FingerprintBand.objects.filter(article=article).count() == docview.BANDS
        assert article.content.extraction["timings"]["docview_ms"] >= 0


def test_a_republication_with_another_byline_and_date_is_a_near_duplicate(demo, fast_env, client):
    site = register(demo, "healthwatch")
    first, other, *_ = crawl(site)
    page = first.get_raw_html().decode("utf-8")
    byline = re.search(r'<div class="byline">(.*?)</div>', page).group(1)
    # another byline (removed as no article text) and a sentence more: nearly the same core text, not the same
    copy_page = page.replace(byline, "By Jo Syndicate, Press Association | Updated 2 January 2027, 08:00")
    copy_page = copy_page.replace("</p>", " Reported by the Press Association.</p>", 1)
    assert copy_page != page
    mirror = Site.objects.create(name="Mirror", home_url="http://mirror.test/", allow_private_addresses=True)
    copy = Article(site=mirror, url="http://mirror.test/copy", state="fetched", headers=first.headers)
    copy.set_raw_html(copy_page.encode("utf-8"))
    copy.save()
    outcome = processing.process_article(copy.pk)
    assert outcome.result == "duplicate" and f"article {first.pk}" in outcome.detail
    copy.refresh_from_db()
    assert copy.state == "duplicate" and copy.duplicate_of_id == first.pk
    assert copy.content_hash != first.content_hash, "not an exact copy"
    assert not Case.objects.filter(article=copy).exists() and not FingerprintBand.objects.filter(article=copy)
    assert copy.content.abstract and copy.content.keywords, "a duplicate keeps its DocView too"
    # the site's other articles, on health topics too, are originals
    assert other.state == "processed" and other.duplicate_of is None
    assert processing.process_article(copy.pk).result == "skipped", "idempotent"
    # its page says what it is a copy of (a live trial found "not processed yet" there)
    client.force_login(get_user_model().objects.create_superuser("boss", password="pw-for-tests-only"))
    html = client.get(f"/articles/{copy.pk}/").content.decode()
    assert 'id="duplicate-of"' in html and f'href="/articles/{first.pk}/"' in html and "not been processed" not in html


def test_two_near_copies_processed_at_the_same_moment_one_is_the_duplicate(demo, fast_env, monkeypatch):
    """The second copy's lookup waits for the first's transaction (band-key locks on PostgreSQL, the write lock on
    SQLite), so it finds the first's bands: one original, one duplicate, never two originals. The first is held
    inside its transaction, after storing its bands, while the second is processed."""
    import threading
    import time

    from django.db import connection

    site = register(demo, "healthwatch")
    first, *_ = crawl(site)
    page = first.get_raw_html().decode("utf-8")
    byline = re.search(r'<div class="byline">(.*?)</div>', page).group(1)
    copies = []
    for n, line in enumerate(("By Jo Syndicate | 2 January 2027", "By Al Wire | 3 January 2027")):
        # a site each, with its filter profile made before: nothing else makes one copy wait for the other
        mirror = Site.objects.create(
            name=f"Mirror {n}", home_url=f"http://mirror{n}.test/", allow_private_addresses=True
        )

        copy = Article(site=mirror, url=f"http://mirror{n}.test/copy", state="fetched", headers=first.headers)
        # another byline, and a sentence more in the text: nearly the same core text, not the same
        text = page.replace(byline, line).replace("</p>", f" Reported by agency {n}.</p>", 1)
        copy.set_raw_html(text.encode("utf-8"))
        copy.save()
        copies.append(copy)
    # the original leaves the picture: the two copies are each other's only near-duplicate
    Article.objects.filter(site=site).update(duplicate_of=None)
    FingerprintBand.objects.filter(article__site=site).delete()

    held, second_started = threading.Event(), threading.Event()
    store_bands = processing.store_bands

    def store_and_hold(article, **kwargs):
        store_bands(article, **kwargs)
        if article.pk == copies[0].pk:
            held.set()
            second_started.wait(10)
            time.sleep(1.0)  # the second copy reaches its lookup meanwhile (or waits for this transaction)

    monkeypatch.setattr(processing, "store_bands", store_and_hold)
    results = {}

    def process(copy):
        try:
            results[copy.pk] = processing.process_article(copy.pk).result
        finally:
            connection.close()

    first_thread = threading.Thread(target=process, args=(copies[0],))
    first_thread.start()
    assert held.wait(30), "the first copy never reached its bands"
    second_thread = threading.Thread(target=process, args=(copies[1],))
    second_thread.start()
    second_started.set()
    first_thread.join(60)
    second_thread.join(60)
    assert results == {copies[0].pk: "processed", copies[1].pk: "duplicate"}
    copies[1].refresh_from_db()
    assert copies[1].duplicate_of_id == copies[0].pk
