"""The search page, the header's search box and the saved searches' pages."""

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import URLPattern, get_resolver, reverse
from django.utils import timezone

from classifier.forms import InboxFilterForm
from foundation.roles import SITE_ADMINISTRATORS, ensure_groups
from monitor.models import Article
from search.forms import SearchForm
from search.models import SavedSearch

pytestmark = pytest.mark.django_db

RESULTS = reverse("search:results")


def _search_urls():
    for pattern in get_resolver().url_patterns:
        if getattr(pattern, "namespace", None) == "search":
            for p in pattern.url_patterns:
                assert isinstance(p, URLPattern)
                yield p.name, reverse(f"search:{p.name}", args=[1] * len(p.pattern.converters)), p


def test_every_search_view_requires_the_expert_role():
    names = {name for name, _, p in _search_urls() if getattr(p.callback, "required_role", None) == "experts"}
    assert names == {name for name, _, _ in _search_urls()}
    assert {"results", "save", "saved", "saved-open", "saved-edit", "saved-delete"} <= names


def test_anonymous_visitors_are_sent_to_login(client):
    for name, url, _ in _search_urls():
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith(reverse("login")), name


def test_signed_in_non_experts_get_403(client, django_user_model):
    admin = django_user_model.objects.create_user("site-admin", password="pw")  # noqa: S106
    admin.groups.add(ensure_groups()[SITE_ADMINISTRATORS])
    client.force_login(admin)
    for name, url, _ in _search_urls():
        response = client.post(url) if name in {"save", "saved-edit", "saved-delete"} else client.get(url)
        assert response.status_code == 403, name
    assert 'role="search"' not in client.get(reverse("feeds:list")).content.decode(), "no search box"


def test_the_header_has_the_search_box_for_experts(ec):
    page = ec.get(reverse("classifier:inbox")).content.decode()
    assert f'action="{RESULTS}"' in page and 'name="q"' in page


def test_empty_query_explains_the_syntax(ec):
    for params in ({}, {"q": "   "}):
        response = ec.get(RESULTS, params)
        assert response.status_code == 200
        assert response.context["page"] is None
        assert "Type a word or a phrase" in response.content.decode()


def test_invalid_query_is_a_400_with_the_reason(ec):
    response = ec.get(RESULTS, {"q": "-measles"})
    assert response.status_code == 400
    assert "This search cannot be run" in response.content.decode()
    assert "at least one word" in response.content.decode()


def test_bad_filters_are_a_400_not_ignored(ec):
    response = ec.get(RESULTS, {"q": "flu", "date_from": "2026-05-02", "date_to": "2026-05-01"})
    assert response.status_code == 400
    assert "Nothing was searched" in response.content.decode()


def test_no_results(ec, make_article):
    make_article("Flu", "flu")
    response = ec.get(RESULTS, {"q": "ebola"})
    assert response.status_code == 200
    assert "No article matches this search" in response.content.decode()
    assert "0 articles found" in response.content.decode()


def test_results_show_title_site_folders_escaped_snippet_and_link(ec, make_article, classify):
    a = make_article(
        "<b>Measles</b> alert", "Officials said <script>alert('x')</script> measles cases doubled this week."
    )
    classify(a, "Health/Measles")
    response = ec.get(RESULTS, {"q": "measles"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "<script>alert" not in page and "&lt;script&gt;alert" in page
    assert "<b>Measles</b>" not in page and "&lt;b&gt;Measles&lt;/b&gt; alert" in page
    assert "<mark>measles</mark>" in page
    assert reverse("classifier:article", args=[a.pk]) in page
    assert "Daily" in page and "Health/Measles" in page
    assert "1 article found" in page


def test_filters_reach_the_search(ec, make_article, other_site):
    make_article("Flu", "flu")
    there = make_article("Flu", "flu", site=other_site)
    response = ec.get(RESULTS, {"q": "flu", "site": other_site.pk})
    assert [r.article.pk for r in response.context["page"].results] == [there.pk]


def test_paging_keeps_the_filters(ec, make_article, site):
    for i in range(52):
        make_article(f"Flu {i}", "flu")
    first = ec.get(RESULTS, {"q": "flu", "site": site.pk})
    assert len(first.context["page"].results) == 50 and first.context["page"].has_next
    link = re.search(r'href="\?([^"]+)">More results', first.content.decode()).group(1).replace("&amp;", "&")
    assert "page=2" in link and f"site={site.pk}" in link
    second = ec.get(f"{RESULTS}?{link}")
    assert len(second.context["page"].results) == 2
    assert "results 51–52" in second.content.decode()
    beyond = ec.get(RESULTS, {"q": "flu", "page": 3}).content.decode()
    assert "No more results" in beyond and "No article matches" not in beyond


def test_a_page_of_results_asks_a_fixed_number_of_queries_and_the_roles_once(ec, make_article, classify):
    """50 results with folder chips cost what 1 result costs; the view, the header's search box, its
    corrections count and the shortcuts all ask for the expert's role, which is read from the database once."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    first = make_article("Flu 0", "flu")
    classify(first, "Health/Flu")

    def queries():
        with CaptureQueriesContext(connection) as captured:
            assert ec.get(RESULTS, {"q": "flu"}).status_code == 200
        return [q["sql"] for q in captured.captured_queries]

    queries()  # the first request counts the pending corrections for the header; later ones read the cache
    one = queries()
    assert sum("auth_user_groups" in sql for sql in one) == 1
    for i in range(1, 50):
        classify(make_article(f"Flu {i}", "flu"), "Health/Flu", state="suggested")
    assert len(queries()) == len(one)


def test_a_result_opens_its_article_with_its_search_and_rank_and_open_steps_by_rank(ec, make_article, site):
    """Results carry their search (filters and page) and rank to the article page, whose list and neighbours
    are the search's (search:open finds the article of a rank, on any page; past the last, the results)."""
    from urllib.parse import parse_qs, urlsplit

    for i in range(52):
        make_article(f"Flu {i}", "flu", days_ago=i)  # newest first among equal scores: Flu 0 ranks first
    second = ec.get(RESULTS, {"q": "flu", "site": site.pk, "page": 2}).context["page"]
    link = urlsplit(second.results[1].href)
    params = {k: v[0] for k, v in parse_qs(link.query).items()}
    assert params["rank"] == "52" and parse_qs(params["search"]) == {
        "q": ["flu"],
        "site": [str(site.pk)],
        "page": ["2"],
    }
    article = ec.get(second.results[1].href).content.decode()
    assert f'href="{RESULTS}?q=flu&amp;site={site.pk}&amp;page=2"' in article  # back to that page of results
    assert "result 52 of this search" in article
    opened = ec.get(reverse("search:open"), {"q": "flu", "site": site.pk, "rank": 51})
    assert opened["Location"] == second.results[0].href  # rank 51 is page 2's first
    past = ec.get(reverse("search:open"), {"q": "flu", "site": site.pk, "rank": 53})
    assert past["Location"] == f"{RESULTS}?q=flu&site={site.pk}&page=2"
    far = ec.get(reverse("search:open"), {"q": "flu", "site": site.pk, "rank": 10_001})  # page 201: empty
    assert far["Location"] == f"{RESULTS}?q=flu&site={site.pk}&page=2"
    assert ec.get(reverse("search:open"), {"q": "", "rank": 2})["Location"] == RESULTS


# --------------------------------------------------------------------------- saved searches
def test_save_a_search_with_its_filters(ec, expert_user, make_article, site, classify):
    folder = classify(make_article("Flu", "flu"), "Health").folder
    response = ec.post(
        reverse("search:save"),
        {"q": '"bird flu" -test', "site": site.pk, "folder": folder.pk, "state": "pending", "name": "Bird flu"},
    )
    assert response.status_code == 302 and response["Location"] == reverse("search:saved")
    saved = SavedSearch.objects.get(owner=expert_user)
    assert (saved.name, saved.query, saved.site, saved.folder, saved.state, saved.public) == (
        "Bird flu",
        '"bird flu" -test',
        site,
        folder,
        "suggested",  # posted as "pending", its name before issue 30
        False,
    )


def test_save_refuses_a_bad_query_or_a_taken_name(ec, expert_user):
    ec.post(reverse("search:save"), {"q": "flu", "name": "Flu"})
    response = ec.post(reverse("search:save"), {"q": "flu", "name": "Flu"}, follow=True)
    assert "already have a saved search" in response.content.decode()
    response = ec.post(reverse("search:save"), {"q": "-flu", "name": "Other"}, follow=True)
    assert "Not saved" in response.content.decode()
    assert list(SavedSearch.objects.values_list("name", flat=True)) == ["Flu"]


def test_save_needs_csrf(expert_user):
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(expert_user)
    assert strict.post(reverse("search:save"), {"q": "flu", "name": "Flu"}).status_code == 403
    page = strict.get(RESULTS, {"q": "flu"}).content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    response = strict.post(reverse("search:save"), {"q": "flu", "name": "Flu", "csrfmiddlewaretoken": token})
    assert response.status_code == 302 and SavedSearch.objects.filter(name="Flu").exists()


def test_new_matches_count_since_last_opened(ec, expert_user, make_article):
    seen = timezone.now() - timedelta(days=1)
    saved = SavedSearch.objects.create(owner=expert_user, name="Flu", query="flu", last_seen_at=seen)
    make_article("Flu", "flu", processed_at=seen - timedelta(hours=1))  # before the owner looked
    make_article("Flu", "flu", processed_at=seen + timedelta(hours=1))
    make_article("Cholera", "cholera", processed_at=seen + timedelta(hours=1))
    rows = ec.get(reverse("search:saved")).context["rows"]
    assert [(r.saved.name, r.new) for r in rows] == [("Flu", 1)]
    assert "1 new" in ec.get(reverse("search:saved")).content.decode()

    response = ec.get(reverse("search:saved-open", args=[saved.pk]))
    assert response.status_code == 302 and response["Location"].startswith(RESULTS + "?q=flu")
    saved.refresh_from_db()
    assert saved.last_seen_at > seen
    assert ec.get(reverse("search:saved")).context["rows"][0].new == 0
    make_article("Flu", "flu", processed_at=timezone.now() + timedelta(seconds=1))
    assert ec.get(reverse("search:saved")).context["rows"][0].new == 1


def test_opening_a_saved_search_shows_its_filters(ec, expert_user, make_article, other_site):
    make_article("Flu", "flu")
    there = make_article("Flu", "flu", site=other_site)
    saved = SavedSearch.objects.create(owner=expert_user, name="Flu there", query="flu", site=other_site)
    results = ec.get(reverse("search:saved-open", args=[saved.pk]), follow=True)
    assert [r.article.pk for r in results.context["page"].results] == [there.pk]


def test_rename_public_flag_and_delete(ec, expert_user):
    saved = SavedSearch.objects.create(owner=expert_user, name="Flu", query="flu")
    SavedSearch.objects.create(owner=expert_user, name="Taken", query="x")
    ec.post(reverse("search:saved-edit", args=[saved.pk]), {"name": "Influenza", "public": "on"})
    saved.refresh_from_db()
    assert (saved.name, saved.public) == ("Influenza", True)
    response = ec.post(reverse("search:saved-edit", args=[saved.pk]), {"name": "Taken"}, follow=True)
    assert "already have a saved search" in response.content.decode()
    saved.refresh_from_db()
    assert saved.name == "Influenza"
    ec.post(reverse("search:saved-delete", args=[saved.pk]))
    assert not SavedSearch.objects.filter(pk=saved.pk).exists()


def test_another_experts_saved_search_is_a_404(ec, django_user_model):
    other = django_user_model.objects.create_user("grace")
    theirs = SavedSearch.objects.create(owner=other, name="Theirs", query="flu")
    assert ec.get(reverse("search:saved-open", args=[theirs.pk])).status_code == 404
    assert ec.post(reverse("search:saved-edit", args=[theirs.pk]), {"name": "Mine"}).status_code == 404
    assert ec.post(reverse("search:saved-delete", args=[theirs.pk])).status_code == 404
    assert SavedSearch.objects.filter(pk=theirs.pk, name="Theirs").exists()
    assert ec.get(reverse("search:saved")).context["rows"] == []


def test_saved_list_links_feeds_of_open_searches_only(ec, expert_user):
    public = SavedSearch.objects.create(owner=expert_user, name="Open", query="flu", public=True)
    private = SavedSearch.objects.create(owner=expert_user, name="Closed", query="flu")
    page = ec.get(reverse("search:saved")).content.decode()
    assert reverse("feeds:saved-search", kwargs={"saved_id": public.pk, "fmt": "rss"}) in page
    assert reverse("feeds:saved-search", kwargs={"saved_id": private.pk, "fmt": "rss"}) not in page
    assert reverse("feeds:tokens") in page


def test_failed_state_filter(ec, make_article):
    # the index never holds failed articles: the state filter answers an empty page, not an error
    make_article("Flu", "flu", state=Article.State.FAILED)
    response = ec.get(RESULTS, {"q": "flu", "state": "failed"})
    assert response.status_code == 200 and response.context["page"].total == 0


# --------------------------------------------------------------------------- the state filter, as the inbox's
def test_search_offers_the_inbox_state_choices_and_looks_everywhere_by_default(ec, make_article):
    assert SearchForm().fields["state"].choices == InboxFilterForm().fields["state"].choices
    assert ("waiting", "Waiting for review") in SearchForm().fields["state"].choices
    waiting = make_article("Flu", "flu")
    reviewed = make_article("Flu", "flu", review_state="reviewed")
    everywhere = sorted([waiting.pk, reviewed.pk])
    for params in ({"q": "flu"}, {"q": "flu", "state": ""}, {"q": "flu", "state": "any"}):
        response = ec.get(RESULTS, params)
        assert sorted(r.article.pk for r in response.context["page"].results) == everywhere, params
        assert re.search(r'<option value="any" selected>Any state</option>', response.content.decode()), params
    response = ec.get(RESULTS, {"q": "flu", "state": "waiting"})
    assert response.status_code == 200
    assert [r.article.pk for r in response.context["page"].results] == [waiting.pk]
    assert '<option value="waiting" selected>Waiting for review</option>' in response.content.decode()


def test_saved_searches_keep_any_state_as_empty_and_store_waiting(ec, expert_user, make_article):
    waiting = make_article("Flu", "flu")
    reviewed = make_article("Flu", "flu", review_state="reviewed")
    for state, name in (("any", "Any"), ("", "Blank"), ("waiting", "Waiting")):
        ec.post(reverse("search:save"), {"q": "flu", "state": state, "name": name})
    stored = dict(SavedSearch.objects.values_list("name", "state"))
    assert stored == {"Any": "", "Blank": "", "Waiting": "waiting"}  # "" is any state, as before "waiting" came
    SavedSearch.objects.create(owner=expert_user, name="Old", query="flu", state="")  # stored before "waiting"
    found = {}
    for saved in SavedSearch.objects.filter(owner=expert_user):
        results = ec.get(reverse("search:saved-open", args=[saved.pk]), follow=True).context["page"].results
        found[saved.name] = sorted(r.article.pk for r in results)
    everywhere = sorted([waiting.pk, reviewed.pk])
    assert found == {"Any": everywhere, "Blank": everywhere, "Old": everywhere, "Waiting": [waiting.pk]}
    page = ec.get(reverse("search:saved")).content.decode()
    assert "Waiting for review" in page


def test_the_search_filter_selects_read_by_plain_queries_and_render_as_django_s(monkeypatch):
    """The site and folder selects read their options by one plain query each: Django's ModelChoiceField iterates
    its queryset with iterator(), a server-side cursor on PostgreSQL (declare, fetch, close: three statements a
    select), which the chunked cursor stands for on every database. Written in Python (QuickSelect): the same
    HTML as Django's Select, the chosen option selected, the names escaped."""
    from django import forms
    from django.db import connection
    from django.test.html import parse_html

    from classifier.models import Folder
    from monitor.models import Site

    sites = [Site.objects.create(name=n, home_url=f"https://{i}.example/") for i, n in enumerate(["B & <b>", "A"])]
    folder = Folder.objects.create(name='<i>"Diet"</i>', path='Health/<i>"Diet"</i>')
    chunked = []
    real = connection.chunked_cursor
    monkeypatch.setattr(connection, "chunked_cursor", lambda: chunked.append(1) or real())
    for data in (None, {"q": "x", "site": str(sites[0].pk), "folder": str(folder.pk)}):
        form = SearchForm(data)
        for name in ("site", "folder"):
            bound = form[name]
            attrs = bound.build_widget_attrs({"id": bound.auto_id})
            django_html = forms.Select(choices=list(bound.field.choices)).render(bound.html_name, bound.value(), attrs)
            assert parse_html(str(bound)) == parse_html(django_html), (name, data)
    assert chunked == []
    html = str(SearchForm({"site": str(sites[0].pk)})["site"])
    assert "selected>B &amp; &lt;b&gt;</option>" in html
