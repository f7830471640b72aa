"""Deleting a site in the Django admin: a superuser may, with Django's confirmation page listing what goes with it
(articles, cases, classifications...); the knowledge base's read-only admins still refuse to delete a case, a rule
or a classification on its own, and a site administrator who is no superuser may not delete a site with cases.
The cascade is the database's real one (PostgreSQL in the CI): the keyword counts its triggers keep stay right.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from classifier import frequencies, kb, services
from classifier.models import Case, CaseKeyword, Classification
from foundation import roles
from monitor.models import Article, Site

pytestmark = pytest.mark.django_db

PASSWORD = "pw-Long-enough-1"  # noqa: S105


@pytest.fixture(autouse=True)
def _fresh_kb_cache():
    kb.clear_cache()
    yield
    kb.clear_cache()


@pytest.fixture
def superuser(client):
    user = get_user_model().objects.create_superuser("root", password=PASSWORD)
    client.force_login(user)
    return user


def article_with_case(site: Site, n: int, words: str) -> Case:
    article = Article.objects.create(site=site, url=f"{site.home_url}2026/11/story-{n}.html", title=f"Story {n}")
    return services.ingest_case(article, words.split())


@pytest.fixture
def two_sites(superuser):
    """ "Gone" with three classified articles (one accepted), "Kept" with the rule's cornerstone case and an
    article that re-publishes one of Gone's."""
    gone = Site.objects.create(name="Gone", home_url="https://gone.example/")
    kept = Site.objects.create(name="Kept", home_url="https://kept.example/")
    folder = services.create_folder("Health/Diabetes", superuser)
    cornerstone = article_with_case(kept, 1, "insulin glucose diet")
    services.commit_rule(cornerstone, "new", superuser, folder=folder, conditions=["insulin"])
    cases = [article_with_case(gone, n, f"insulin trial {word}") for n, word in enumerate(["pump", "dose", "price"])]
    services.accept(cases[0], superuser)
    copy = Article.objects.create(
        site=kept, url="https://kept.example/copy.html", state=Article.State.DUPLICATE, duplicate_of=cases[0].article
    )
    assert Classification.objects.filter(case__article__site=gone).count() == 3
    return gone, kept, cornerstone, copy


def test_a_superuser_deletes_a_site_with_its_articles_cases_and_classifications(client, two_sites):
    """The answer was "your account doesn't have permission to delete … case": the read-only case admin blocked
    the cascade, even for a superuser."""
    gone, kept, cornerstone, copy = two_sites
    page = client.get(f"/admin/monitor/site/{gone.pk}/delete/").content.decode()
    assert "permission to delete" not in page, page
    assert "Are you sure you want to delete the site" in page
    for counted in ("Articles: 3", "Cases: 3", "Classifications: 3"):
        assert counted in page, f"the confirmation page lists {counted}"
    assert "insulin" in {row.keyword for row in CaseKeyword.objects.filter(case__article__site=gone)}

    response = client.post(f"/admin/monitor/site/{gone.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not Site.objects.filter(pk=gone.pk).exists()
    assert not Article.objects.filter(site_id=gone.pk).exists()
    assert Case.objects.count() == 1 and Classification.objects.filter(case=cornerstone).exists()
    assert frequencies.drift() == [], "the keyword counts the triggers keep follow the cascade"
    assert frequencies.case_frequencies(["insulin", "trial", "glucose"]) == {"insulin": 1, "glucose": 1}
    copy.refresh_from_db()
    assert copy.duplicate_of is None and Site.objects.filter(pk=kept.pk).exists()


def test_the_delete_action_of_the_site_list_works_for_a_superuser(client, two_sites):
    gone, *_ = two_sites
    form = {"action": "delete_selected", "_selected_action": [gone.pk]}
    page = client.post("/admin/monitor/site/", form).content.decode()
    assert "permission to delete" not in page and "Cases: 3" in page
    response = client.post("/admin/monitor/site/", {**form, "post": "yes"})
    assert response.status_code == 302 and not Site.objects.filter(pk=gone.pk).exists()
    assert frequencies.drift() == []


def test_a_site_with_a_cornerstone_case_is_deleted_and_the_case_stays_without_its_article(client, two_sites):
    """A rule's cornerstone case kept its whole site from being deleted (PROTECT on the case, CASCADE from the
    article): the page named the case, offered nothing else, and the site could never go. The case stays now,
    without its article, as an imported knowledge base's cases are: keywords, address, rules, classifications."""
    _, kept, cornerstone, _ = two_sites
    rule = cornerstone.cornerstone_of.get()
    page = client.get(f"/admin/monitor/site/{kept.pk}/delete/").content.decode()
    assert "protected related objects" not in page and "Are you sure you want to delete the site" in page
    assert "Kept in the knowledge base: 1 cornerstone case, without its article" in page, page
    assert "https://kept.example/2026/11/story-1.html" in page
    assert 'id="stop-watching"' in page and 'value="stop_watching"' in page, "it offers to stop watching instead"

    response = client.post(f"/admin/monitor/site/{kept.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302 and not Site.objects.filter(pk=kept.pk).exists()
    assert not Article.objects.filter(site_id=kept.pk).exists()
    case = Case.objects.get(pk=cornerstone.pk)
    assert case.article_id is None and case.keywords == cornerstone.keywords
    assert case.source == "https://kept.example/2026/11/story-1.html"
    assert set(case.cornerstone_links.values_list("rule_id", flat=True)) == {rule.pk}
    assert Classification.objects.filter(case=case, folder=rule.folder).exists()
    assert frequencies.drift() == [], "the kept case's keywords are still counted"
    # the knowledge base still validates against it: a stop rule that would take its folder lists it
    other = Site.objects.create(name="Other", home_url="https://other.example/")
    new = article_with_case(other, 9, "insulin glucose trial")
    kb.clear_cache()
    check = services.validate_rule(new, "stop", wrong_folder=rule.folder, conditions=["glucose"])
    assert [change.case.pk for change in check.changed_cornerstones] == [case.pk]
    rule_page = client.get(reverse("classifier:rule_detail", args=[rule.pk]))
    assert rule_page.status_code == 200 and "kept.example/2026/11/story-1.html" in rule_page.content.decode()


def test_the_delete_pages_offer_to_stop_watching_the_site_instead(client, two_sites):
    """Deleting was all the admin offered; a site that may not (or should not) go can stop being polled, with
    everything it brought kept. The offer is a button on both delete pages (the site's and the list action's)."""
    gone, kept, *_ = two_sites
    page = client.get(f"/admin/monitor/site/{gone.pk}/delete/").content.decode()
    assert "Stop watching instead" in page and f'href="/admin/monitor/site/{gone.pk}/change/"' in page
    form = {"action": "delete_selected", "_selected_action": [gone.pk, kept.pk]}
    listed = client.post("/admin/monitor/site/", form).content.decode()
    assert "Stop watching these 2 sites" in listed
    response = client.post("/admin/monitor/site/", {"action": "stop_watching", "_selected_action": [gone.pk]})
    assert response.status_code == 302
    gone.refresh_from_db()
    kept.refresh_from_db()
    assert not gone.active and kept.active and Case.objects.filter(article__site=gone).count() == 3
    again = client.get(f"/admin/monitor/site/{gone.pk}/delete/").content.decode()
    assert "“Gone” is not watched already (inactive)." in again


def test_a_case_alone_is_still_not_deleted_in_the_admin_even_by_a_superuser(client, two_sites):
    gone, *_ = two_sites
    case = Case.objects.filter(article__site=gone).first()
    assert client.get(f"/admin/classifier/case/{case.pk}/delete/").status_code == 403
    classification = Classification.objects.filter(case=case).first()
    assert client.get(f"/admin/classifier/classification/{classification.pk}/delete/").status_code == 403


def test_a_site_administrator_who_is_no_superuser_may_not_delete_cases_with_a_site(client, two_sites):
    gone, *_ = two_sites
    user = get_user_model().objects.create_user("siteadmin", password=PASSWORD, is_staff=True)
    groups = roles.ensure_groups()
    user.groups.add(groups[roles.SITE_ADMINISTRATORS], groups[roles.EXPERTS])
    client.force_login(user)
    page = client.get(f"/admin/monitor/site/{gone.pk}/delete/").content.decode()
    assert "your account doesn't have permission to delete the following types of objects" in page
    assert 'id="why-not"' in page and "only a superuser may delete them with their site" in page
    assert 'value="stop_watching"' in page, "what a site administrator may do instead"
    client.post("/admin/monitor/site/", {"action": "stop_watching", "_selected_action": [gone.pk]})
    gone.refresh_from_db()
    assert not gone.active, "and may do"
    client.post(f"/admin/monitor/site/{gone.pk}/delete/", {"post": "yes"})
    assert Site.objects.filter(pk=gone.pk).exists() and Case.objects.filter(article__site=gone).count() == 3
    empty = Site.objects.create(name="Empty", home_url="https://empty.example/")
    Article.objects.create(site=empty, url="https://empty.example/a.html")
    response = client.post(f"/admin/monitor/site/{empty.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302 and not Site.objects.filter(pk=empty.pk).exists(), "no case: it may"


def test_a_re_publication_of_a_deleted_sites_article_is_processed_again_as_an_original(client, two_sites):
    """Kept's copy of one of Gone's articles had no case of its own: the original was the one classified. With the
    original deleted (duplicate_of SET_NULL), the copy named no original and had no case: nobody could classify it,
    and its page failed (the link to its original had no id). It goes back to processing, to become an original."""
    gone, _, _, copy = two_sites
    copy.set_raw_html(b"<html><body><p>A story.</p></body></html>")
    copy.save()
    client.post(f"/admin/monitor/site/{gone.pk}/delete/", {"post": "yes"})
    copy.refresh_from_db()
    assert client.get(f"/articles/{copy.pk}/").status_code == 200
    assert copy.duplicate_of is None and copy.state == Article.State.FETCHED


def test_delete_sites_says_what_to_read_again_and_an_orphan_page_still_shows(client, two_sites):
    from monitor import services as monitor_services

    gone, kept, _, copy = two_sites
    outcome = monitor_services.delete_sites(Site.objects.filter(pk=gone.pk))
    assert outcome.enqueue == [("fetch", copy.pk, 0)], "its page was dropped: fetched again"
    copy.refresh_from_db()
    assert copy.state == Article.State.PENDING and copy.duplicate_of is None
    # a re-publication left without its original before this (deleted another way): its page says so
    orphan = Article.objects.create(site=kept, url="https://kept.example/orphan.html", state=Article.State.DUPLICATE)
    page = client.get(f"/articles/{orphan.pk}/")
    assert page.status_code == 200 and "an article since deleted" in page.content.decode()


def test_the_confirmation_page_counts_what_goes_and_lists_only_the_sites(client, two_sites):
    """It listed every row that goes, each of a case's ~150 keyword rows included (1,184 lines for a demo site of
    six articles in `make run`; millions for a real site: the page never came back). Counts stay; the list names
    the sites, and the page's size does not grow with the keywords."""
    gone, _kept, _cornerstone, _copy = two_sites
    page = client.get(f"/admin/monitor/site/{gone.pk}/delete/").content.decode()
    keywords = CaseKeyword.objects.filter(case__article__site=gone).count()
    assert keywords > 6 and f"Case keywords: {keywords}" in page, page
    assert "Case keyword:" not in page and "Article: Story" not in page, "no row listed one by one"
    assert "Site: Gone" in page or "Gone" in page
    for n in range(3, 43):
        article_with_case(gone, n, " ".join(f"word{n}x{i}" for i in range(40)))
    longer = client.get(f"/admin/monitor/site/{gone.pk}/delete/").content.decode()
    assert len(longer) - len(page) < 200, "the page does not grow with the site's articles and keywords"
