"""RSS/Atom per saved search: content, public and private (tokens, revoked), conditional GET, the token page."""

import re
from datetime import timedelta

import feedparser
import pytest
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from lxml import etree

from classifier.models import Case, Classification, Folder
from feeds.models import FeedToken
from feeds.saved_searches import saved_search_feed_url
from feeds.syndication import article_guid
from monitor.models import Article, Site
from search.models import SavedSearch
from search.services import index_article
from tests.articles import create_article

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def owner(make_expert):
    return make_expert("searcher")


@pytest.fixture
def site(db):
    return Site.objects.create(name="Feed Daily", home_url="https://feeds.example/")


def article(site, title, text, days_ago=0):
    url = f"https://feeds.example/{len(title)}/{title[:10]}"
    a = create_article(site=site, url=url, title=title, core_text=text, state="processed")
    if days_ago:
        Article.objects.filter(pk=a.pk).update(collected_at=timezone.now() - timedelta(days=days_ago))
    index_article(a)
    return a


def accepted(a, path="Health"):
    """Accept the article in a public folder: what an open feed may publish."""
    folder, _ = Folder.objects.get_or_create(path=path, defaults={"name": path})
    case, _ = Case.objects.get_or_create(article=a)
    Classification.objects.create(case=case, folder=folder, state="accepted")
    return a


def entries(response):
    assert response.status_code == 200, response.status_code
    etree.fromstring(response.content)  # well-formed XML
    parsed = feedparser.parse(response.content)
    assert not parsed.bozo, parsed.bozo_exception
    return parsed


def test_public_saved_search_feed_lists_matches_newest_first(client, owner, site):
    older = accepted(article(site, "Measles in the north", "measles cases", days_ago=2))
    newer = accepted(article(site, "<script>Measles</script> update", "more measles & <b>more</b>"))
    accepted(article(site, "Cholera", "cholera only"))
    saved = SavedSearch.objects.create(owner=owner, name="Measles watch", query="measles", public=True)
    for fmt in ("rss", "atom"):
        parsed = entries(client.get(saved_search_feed_url(saved, fmt)))
        assert [e.id for e in parsed.entries] == [article_guid(newer.pk), article_guid(older.pk)]
        assert parsed.feed.title == "WIMS search: Measles watch"
    raw = client.get(saved_search_feed_url(saved, "rss")).content.decode()
    assert "<script>" not in raw


def test_filters_apply_and_categories_name_public_folders_only(client, owner, site):
    other = Site.objects.create(name="Other", home_url="https://other.example/")
    here = article(site, "Flu here", "flu")
    article(other, "Flu there", "flu")
    case = Case.objects.create(article=here)
    public = Folder.objects.create(name="Health", path="Health")
    private = Folder.objects.create(name="Intel", path="Intel", public=False)
    Classification.objects.create(case=case, folder=public, state="accepted")
    Classification.objects.create(case=case, folder=private, state="accepted")
    saved = SavedSearch.objects.create(owner=owner, name="Flu", query="flu", site=site, public=True)
    parsed = entries(client.get(saved_search_feed_url(saved, "rss")))
    assert [e.title for e in parsed.entries] == ["Flu here"]
    assert [t.term for t in parsed.entries[0].tags] == ["Health"]


def test_private_saved_search_needs_its_own_active_token(client, owner, site):
    article(site, "Secret flu", "flu")
    saved = SavedSearch.objects.create(owner=owner, name="Flu", query="flu")
    other = SavedSearch.objects.create(owner=owner, name="Other", query="flu")
    folder = Folder.objects.create(name="Intel", path="Intel", public=False)
    assert client.get(saved_search_feed_url(saved, "rss")).status_code == 404
    assert client.get(saved_search_feed_url(saved, "rss", token="nonsense")).status_code == 404
    _, other_token = FeedToken.issue(None, "Bob", owner, saved_search=other)
    _, folder_token = FeedToken.issue(folder, "Carol", owner)
    assert client.get(saved_search_feed_url(saved, "rss", token=other_token)).status_code == 404
    assert client.get(saved_search_feed_url(saved, "rss", token=folder_token)).status_code == 404
    row, token = FeedToken.issue(None, "Alice", owner, saved_search=saved)
    response = client.get(saved_search_feed_url(saved, "atom", token=token))
    assert [e.title for e in entries(response).entries] == ["Secret flu"]
    assert "private" in response["Cache-Control"] and response["Referrer-Policy"] == "no-referrer"
    row.revoke(owner)
    assert client.get(saved_search_feed_url(saved, "atom", token=token)).status_code == 404
    assert client.get("/feeds/saved/999999/rss/").status_code == 404


def test_a_public_search_narrowed_to_a_private_folder_is_not_open(client, owner, site):
    private = Folder.objects.create(name="Intel", path="Intel", public=False)
    saved = SavedSearch.objects.create(owner=owner, name="Flu", query="flu", folder=private, public=True)
    assert client.get(saved_search_feed_url(saved, "rss")).status_code == 404
    _, token = FeedToken.issue(None, "Alice", owner, saved_search=saved)
    assert client.get(saved_search_feed_url(saved, "rss", token=token)).status_code == 200


@pytest.mark.parametrize("narrowed_to_the_parent", [True, False], ids=["public parent", "no folder"])
def test_an_open_feed_publishes_no_article_accepted_only_in_a_private_folder(
    client, owner, site, narrowed_to_the_parent
):
    """Folder privacy holds for every article of an open feed, whatever the saved search's folder: an article is
    published anonymously only when it is accepted in a public folder (the private subfolder's articles matched
    a search on its public parent, and a search on no folder matched everything)."""
    parent = Folder.objects.create(name="Health", path="Health")
    secret = Folder.objects.create(name="Intel", path="Health/Intel", parent=parent, public=False)
    hidden = article(site, "Flu in the ministry", "flu confidential")
    shown = article(site, "Flu season", "flu public")
    suggested = article(site, "Flu maybe", "flu suggested")
    Classification.objects.create(case=Case.objects.create(article=hidden), folder=secret, state="accepted")
    Classification.objects.create(case=Case.objects.create(article=shown), folder=parent, state="accepted")
    Classification.objects.create(case=Case.objects.create(article=suggested), folder=parent, state="suggested")
    article(site, "Flu unread", "flu unclassified")  # no folder at all: nobody published it
    saved = SavedSearch.objects.create(
        owner=owner, name="Flu", query="flu", folder=parent if narrowed_to_the_parent else None, public=True
    )
    for fmt in ("rss", "atom"):
        response = client.get(saved_search_feed_url(saved, fmt))
        assert [e.title for e in entries(response).entries] == ["Flu season"]
        raw = response.content.decode()
        assert hidden.url not in raw and "confidential" not in raw and "ministry" not in raw
    # a token opens the saved search itself, as it did: every match
    _, token = FeedToken.issue(None, "Alice", owner, saved_search=saved)
    titles = {e.title for e in entries(client.get(saved_search_feed_url(saved, "rss", token=token))).entries}
    assert {"Flu in the ministry", "Flu season", "Flu maybe"} <= titles


def test_conditional_get_and_a_new_match_changes_the_version(client, owner, site):
    accepted(article(site, "Flu", "flu"))
    saved = SavedSearch.objects.create(owner=owner, name="Flu", query="flu", public=True)
    url = saved_search_feed_url(saved, "rss")
    first = client.get(url)
    etag = first["ETag"]
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304
    accepted(article(site, "More flu", "flu again"))
    second = client.get(url, headers={"If-None-Match": etag})
    assert second.status_code == 200 and second["ETag"] != etag
    assert len(entries(second).entries) == 2
    saved.name = "Influenza"
    saved.save()
    assert client.get(url, headers={"If-None-Match": second["ETag"]}).status_code == 200, "renamed: new title"


def test_token_rows_name_exactly_one_target(owner):
    saved = SavedSearch.objects.create(owner=owner, name="Flu", query="flu")
    folder = Folder.objects.create(name="Intel", path="Intel", public=False)
    with pytest.raises(ValueError):
        FeedToken.issue(folder, "x", owner, saved_search=saved)
    with pytest.raises(ValueError):
        FeedToken.issue(None, "x", owner)
    with pytest.raises(IntegrityError), transaction.atomic():
        FeedToken.objects.create(folder=folder, saved_search=saved, subscriber="x", digest="d" * 64, prefix="d")


def test_token_page_issues_tokens_for_ones_own_saved_searches(client, owner, django_user_model, site):
    article(site, "Flu", "flu")
    mine = SavedSearch.objects.create(owner=owner, name="Mine", query="flu")
    someone = django_user_model.objects.create_user("someone")
    theirs = SavedSearch.objects.create(owner=someone, name="Theirs", query="flu")
    client.force_login(owner)
    page = client.get(reverse("feeds:tokens")).content.decode()
    assert f'<option value="{mine.pk}">Mine</option>' in page and "Theirs" not in page
    refused = client.post(reverse("feeds:tokens"), {"saved_search": theirs.pk, "subscriber": "Eve"})
    assert refused.status_code == 400 and not FeedToken.objects.exists()
    response = client.post(reverse("feeds:tokens"), {"saved_search": mine.pk, "subscriber": "Alice"})
    assert response.status_code == 201
    url = re.search(r"<code>(http[^<]+/feeds/saved/[^<]+)</code>", response.content.decode()).group(1)
    client.logout()
    assert [e.title for e in entries(client.get(url.replace("&amp;", "&"))).entries] == ["Flu"]
    row = FeedToken.objects.get()
    assert row.saved_search == mine and row.folder is None
    listed = client.get(reverse("feeds:tokens"))
    assert listed.status_code == 302  # the token page is for experts
    client.force_login(owner)
    assert "saved search “Mine”" in client.get(reverse("feeds:tokens")).content.decode()


def test_the_feed_list_and_opml_carry_open_saved_searches_only(client, owner, site):
    private_folder = Folder.objects.create(name="Secret", path="Secret", public=False)
    shown = SavedSearch.objects.create(owner=owner, name="Measles <watch>", query="measles", public=True)
    SavedSearch.objects.create(owner=owner, name="Mine only", query="flu")
    SavedSearch.objects.create(owner=owner, name="Narrowed", query="flu", public=True, folder=private_folder)
    page = client.get(reverse("feeds:list")).content.decode()
    assert "Measles &lt;watch&gt;" in page and saved_search_feed_url(shown, "atom") in page
    assert "Mine only" not in page and "Narrowed" not in page
    opml = etree.fromstring(client.get(reverse("feeds:opml")).content)
    titles = [o.get("title") for o in opml.iter("outline")]
    assert "WIMS search: Measles <watch>" in titles and not any("Mine only" in t or "Narrowed" in t for t in titles)
    [url] = [o.get("xmlUrl") for o in opml.iter("outline") if o.get("title") == "WIMS search: Measles <watch>"]
    assert url.endswith(saved_search_feed_url(shown, "rss"))
