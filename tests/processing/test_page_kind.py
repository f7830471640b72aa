"""Pages that are not articles are kept out of the experts' inbox (issue 33, item 3): processing judges each page's
kind (filters.kind) from the tree it reads once, keeps a listing, a home page or a service page out with its
reason (no case, no search document), and a site administrator can send one on as an article."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils.html import escape

from classifier.models import Case
from classifier.selectors import inbox_queryset
from demo.articles import articles_for_site
from demo.furniture import report_of, report_stories
from demo.sites import (
    INFO_PAGES,
    article_url,
    fixed_context,
    get_site,
    render_article_page,
    render_home_page,
    render_section_page,
    template_for,
)
from foundation.roles import SITE_ADMINISTRATORS, ensure_groups
from monitor.models import Article, Site
from processing.extraction import CONFIRMED_ARTICLE
from processing.services import process_article
from search.models import SearchDocument
from tests.monitor.conftest import seed_rule

pytestmark = pytest.mark.django_db

BASE = "http://127.0.0.1:9"


@pytest.fixture
def site():
    return Site.objects.create(
        name="Wellbeing Times", home_url=f"{BASE}/", allow_private_addresses=True, articles_only=True
    )


def stored(site: Site, url: str, html: str) -> Article:
    """A page as WebMon leaves it after the fetch: stored, waiting to be processed."""
    article = Article(site=site, url=url, state=Article.State.FETCHED)
    article.set_raw_html(html.encode())
    article.headers = {"content-type": "text/html; charset=utf-8"}
    article.save()
    return article


def pages(site: Site) -> dict[str, Article]:
    """What a home page's links lead to on a real site: the home page, a section front, and a story."""
    spec = get_site("wellbeing")
    story = articles_for_site("wellbeing")[0]
    section = spec.sections[0]
    return {
        "home": stored(site, f"{BASE}/", render_home_page("wellbeing", base_url=BASE)),
        "section": stored(site, f"{BASE}/{section}/", render_section_page("wellbeing", section, base_url=BASE)),
        "story": stored(site, article_url(spec, story, BASE), render_article_page("wellbeing", story.slug, BASE)),
    }


def test_listing_and_home_pages_are_kept_out_with_their_reason(site, ec):
    seed_rule("sleep", "Health/Sleep")
    found = pages(site)
    outcomes = {name: process_article(article.pk) for name, article in found.items()}
    assert outcomes["story"].result == "processed"
    for name in ("home", "section"):
        assert outcomes[name].result == "not_article", (name, outcomes[name])
        article = Article.objects.select_related("content").get(pk=found[name].pk)
        assert article.state == Article.State.NOT_ARTICLE
        assert article.content.kind != "article" and article.content.kind_reason
        assert article.content.core_text is not None  # its extraction is kept for the administrator
        assert not Case.objects.filter(article=article).exists()
        assert not SearchDocument.objects.filter(article=article).exists()
    story = Article.objects.select_related("content").get(pk=found["story"].pk)
    assert story.content.kind == "article" and Case.objects.filter(article=story).exists()
    assert set(inbox_queryset().values_list("pk", flat=True)) & {a.pk for a in found.values()} == {story.pk}
    # the article page (reached by its address) says why it is not in the inbox; the API gives its kind
    html = ec.get(reverse("classifier:article", args=[found["section"].pk])).content.decode()
    assert 'id="not-an-article"' in html
    detail = ec.get(f"/api/articles/{found['section'].pk}/").json()
    assert detail["kind"] != "article" and detail["kind_reason"]
    assert ec.get(f"/api/articles/{story.pk}/").json()["kind"] == "article"
    # an article's page says its kind and why as well (issue 33: the kind is on every article page)
    html = ec.get(reverse("classifier:article", args=[story.pk])).content.decode()
    assert f'<span id="page-kind">article <span class="muted">({escape(story.content.kind_reason)})' in html


def test_a_site_administrator_sends_a_kept_out_page_on_as_an_article(site, client):
    found = pages(site)
    for article in found.values():
        process_article(article.pk)
    admin = get_user_model().objects.create_user("siteadmin", password="pw-for-tests-only", is_staff=True)
    admin.groups.add(ensure_groups()[SITE_ADMINISTRATORS])
    client.force_login(admin)
    listing = client.get(reverse("admin:processing_notarticle_changelist")).content.decode()
    assert found["section"].url in listing and found["story"].url not in listing
    response = client.post(
        reverse("admin:processing_notarticle_changelist"),
        {"action": "this_is_an_article", "_selected_action": [found["section"].pk]},
    )
    assert response.status_code == 302
    assert "1 page sent on to processing as articles." in client.get(response.url).content.decode()
    section = Article.objects.get(pk=found["section"].pk)
    assert section.state == Article.State.FETCHED  # waiting for processing again (the action also enqueued it)
    assert process_article(section.pk).result == "processed"
    section = Article.objects.select_related("content").get(pk=section.pk)
    assert section.content.kind == "article" and section.content.kind_reason == CONFIRMED_ARTICLE
    assert section.content.kind_confirmed_by == admin
    assert Case.objects.filter(article=section).exists() and inbox_queryset().filter(pk=section.pk).exists()


def test_an_expert_may_not_send_a_page_on(site, ec):
    found = pages(site)
    process_article(found["section"].pk)
    response = ec.post(
        reverse("admin:processing_notarticle_changelist"),
        {"action": "this_is_an_article", "_selected_action": [found["section"].pk]},
    )
    assert response.status_code in (302, 403)
    assert Article.objects.get(pk=found["section"].pk).state == Article.State.NOT_ARTICLE


def test_a_site_that_sends_every_page_on_still_shows_each_page_s_kind(site):
    Site.objects.filter(pk=site.pk).update(articles_only=False)
    found = pages(Site.objects.get(pk=site.pk))
    assert process_article(found["section"].pk).result == "processed"
    section = Article.objects.select_related("content").get(pk=found["section"].pk)
    assert section.content.kind == "listing" and section.content.kind_reason
    assert Case.objects.filter(article=section).exists() and inbox_queryset().filter(pk=section.pk).exists()


def test_new_sites_keep_pages_that_are_not_articles_out(admin_client):
    """The admin's form for a new site starts with it on (a site registered by its home page links to
    everything); sites stored before keep their behaviour (the column's default)."""
    form = admin_client.get(reverse("admin:monitor_site_add")).content.decode()
    [checkbox] = re.findall(r"<input[^>]*name=\"articles_only\"[^>]*>", form)
    assert " checked" in checkbox
    assert not Site._meta.get_field("articles_only").default


def test_a_site_page_naming_the_home_page_as_canonical_is_kept_out_not_a_duplicate(site):
    """The demo's about page names "/" as its canonical: judged first, it is kept out (before, on a site
    registered by another address of its home page with a broad include pattern, it became a duplicate of the
    home page, and duplicates are listed in the inbox: found in a live trial)."""
    Site.objects.filter(pk=site.pk).update(home_url=f"{BASE}/?edition=intl", include_patterns=f"^{BASE}/")
    site = Site.objects.get(pk=site.pk)
    title, text = INFO_PAGES["about"]
    html = template_for(get_site("wellbeing")).info_page(fixed_context("wellbeing", BASE), title, text)
    assert f'<link rel="canonical" href="{BASE}/"' in html
    about = stored(site, f"{BASE}/about/", html)
    assert process_article(about.pk).result == "not_article"
    about.refresh_from_db()
    assert about.state == Article.State.NOT_ARTICLE and about.duplicate_of_id is None
    assert not Article.objects.filter(url=f"{BASE}/").exists(), "its canonical is not followed"


def test_a_special_report_at_a_story_s_address_is_listed_in_pages_kept_out(client):
    """The demo's special report (issue 33): a page at a story's address that collects stories is kept out, and
    the site administrator finds it in *Pages kept out* with its kind and WIMS's reason."""
    spec = get_site("healthwatch")
    site = Site.objects.create(name=spec.name, home_url=f"{BASE}/", allow_private_addresses=True, articles_only=True)
    ctx, tpl = fixed_context(spec, BASE), template_for(spec)
    report = report_of(spec)
    page = stored(site, BASE + tpl.report_path(report), tpl.report(ctx, report, report_stories(report, ctx.published)))
    assert process_article(page.pk).result == "not_article"
    page = Article.objects.select_related("content").get(pk=page.pk)
    assert page.state == Article.State.NOT_ARTICLE and page.content.kind == "listing"
    assert re.fullmatch(r"\d+ dated headline links and little prose", page.content.kind_reason)
    admin = get_user_model().objects.create_user("siteadmin", password="pw-for-tests-only", is_staff=True)
    admin.groups.add(ensure_groups()[SITE_ADMINISTRATORS])
    client.force_login(admin)
    listing = client.get(reverse("admin:processing_notarticle_changelist")).content.decode()
    assert escape(f"{report.label}: {report.title}") in listing and page.url in listing
    assert ">listing<" in listing and escape(page.content.kind_reason) in listing
