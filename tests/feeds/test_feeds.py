"""RSS/Atom feeds per folder: content, validity, conditional GET, caching, private tokens, renames.

Feeds are parsed the way readers do (feedparser, which sets ``bozo`` on any XML or feed error) and, where
validity is the point, with lxml's strict XML parser. Classifications are made through the knowledge-base
services (accept, reject, commit_rule, undo_last_rule, rename_folder) as the workspace makes them.
"""

import itertools
from datetime import timedelta

import feedparser
import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection
from django.template import Context, Template
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from lxml import etree

from classifier import services
from classifier.kinds import RuleKind
from classifier.models import Case, Classification, Folder
from feeds.models import FeedToken
from feeds.syndication import article_guid, folder_feed_url, summary_text, xml_text
from monitor.models import Site
from tests.articles import create_article

_n = itertools.count(1)


# --------------------------------------------------------------------------- fixtures and helpers
@pytest.fixture(autouse=True)
def _empty_cache(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast logins
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def editor(make_expert):
    """An expert (member of the experts group)."""
    return make_expert("feed-editor")


@pytest.fixture
def news(db):
    return Site.objects.create(name="Feed Daily", home_url="https://feeds.example/")


@pytest.fixture
def tree(editor):
    """Sport (public), Sport/Football (public), Sport/Secret (private), Intel (private), Intel/Ops."""
    return {
        "sport": services.create_folder("Sport", editor),
        "football": services.create_folder("Sport/Football", editor),
        "secret": services.create_folder("Sport/Secret", editor, public=False),
        "intel": services.create_folder("Intel", editor, public=False),
        "ops": services.create_folder("Intel/Ops", editor, public=False),
    }


def article(site, title=None, text="Some core text.", published=None):
    n = next(_n)
    return create_article(
        site=site,
        url=f"https://feeds.example/story/{n}",
        title=title if title is not None else f"Story {n}",
        core_text=text,
        published_at=published or timezone.now() - timedelta(hours=n),
    )


def classify(art, user, *folders, state="accepted"):
    """Give the article's case suggestions in ``folders``, then accept (or leave/reject) them."""
    case, _ = Case.objects.get_or_create(article=art, defaults={"keywords": ["x"], "source": art.url})
    for folder in folders:
        Classification.objects.get_or_create(case=case, folder=folder)
    if state == "accepted":
        services.accept(case, user, folders=folders)
    elif state == "rejected":
        for folder in folders:
            services.reject(case, folder, user)
    return case


def fetch(client, url, **headers):
    response = client.get(url, headers=headers)
    return response


def parse(response):
    assert response.status_code == 200, response.status_code
    parsed = feedparser.parse(response.content)
    assert not parsed.bozo, parsed.get("bozo_exception")
    etree.fromstring(response.content)  # strict XML 1.0 parse: raises on any invalid character
    return parsed


def titles(parsed):
    return [e.title for e in parsed.entries]


# --------------------------------------------------------------------------- content
@pytest.mark.parametrize("fmt", ["rss", "atom"])
def test_folder_feed_has_accepted_articles_newest_first_with_categories(client, editor, news, tree, fmt):
    a1, a2, a3 = article(news, "First"), article(news, "Second"), article(news, "Third")
    classify(a1, editor, tree["sport"])
    classify(a2, editor, tree["sport"], tree["football"])
    classify(a3, editor, tree["sport"], state="suggested")
    classify(article(news, "Rejected one"), editor, tree["sport"], state="rejected")
    classify(article(news, "Only football"), editor, tree["football"])

    response = fetch(client, folder_feed_url(tree["sport"], fmt))
    parsed = parse(response)
    assert response["Content-Type"].startswith("application/rss+xml" if fmt == "rss" else "application/atom+xml")
    assert parsed.version == ("rss20" if fmt == "rss" else "atom10")
    assert titles(parsed) == ["Second", "First"]  # accepted only, most recently accepted first
    second, first = parsed.entries
    assert second.link == a2.url
    assert second.id == article_guid(a2.pk)
    assert sorted(t.term for t in second.tags) == ["Sport", "Sport/Football"]
    assert [t.term for t in first.tags] == ["Sport"]
    assert first.summary == "Some core text."
    assert parsed.feed.title == "WIMS: Sport"


@pytest.mark.parametrize("fmt", ["rss", "atom"])
def test_subfolders_feed_includes_descendants_once_and_never_private_ones(client, editor, news, tree, fmt):
    both = article(news, "In both")
    classify(both, editor, tree["sport"], tree["football"])
    classify(article(news, "Football only"), editor, tree["football"])
    classify(article(news, "Secret only"), editor, tree["secret"])
    mixed = article(news, "Sport and secret")
    classify(mixed, editor, tree["sport"], tree["secret"])

    parsed = parse(fetch(client, folder_feed_url(tree["sport"], fmt, subfolders=True)))
    assert sorted(titles(parsed)) == ["Football only", "In both", "Sport and secret"]
    assert titles(parsed).count("In both") == 1
    for entry in parsed.entries:  # a private folder's name is not published in a public feed
        assert all("Secret" not in t.term for t in entry.get("tags", []))
    plain = parse(fetch(client, folder_feed_url(tree["sport"], fmt)))
    assert sorted(titles(plain)) == ["In both", "Sport and secret"]


def test_everything_feed_has_public_folders_only(client, editor, news, tree):
    classify(article(news, "Public"), editor, tree["football"])
    classify(article(news, "Private"), editor, tree["intel"])
    for fmt in ("rss", "atom"):
        parsed = parse(fetch(client, f"/feeds/all/{fmt}/"))
        assert titles(parsed) == ["Public"]
        assert [t.term for t in parsed.entries[0].tags] == ["Sport/Football"]


def test_items_are_bounded_by_setting(client, editor, news, tree, settings):
    settings.WIMS_FEED_ITEMS = 3
    arts = [article(news, f"N{i}") for i in range(5)]
    for art in arts:  # accepted in this order: N4 is the newest
        classify(art, editor, tree["sport"])
    parsed = parse(fetch(client, folder_feed_url(tree["sport"], "rss")))
    assert titles(parsed) == ["N4", "N3", "N2"]
    assert titles(parse(fetch(client, "/feeds/all/atom/"))) == ["N4", "N3", "N2"]


def test_everything_feed_counts_distinct_articles(client, editor, news, tree, settings):
    """An article accepted in several folders takes one of the WIMS_FEED_ITEMS places, not several."""
    settings.WIMS_FEED_ITEMS = 3
    for i in range(4):
        classify(article(news, f"M{i}"), editor, tree["sport"], tree["football"])
    assert titles(parse(fetch(client, "/feeds/all/rss/"))) == ["M3", "M2", "M1"]


# --------------------------------------------------------------------------- decisions reach the feed
def test_rejected_and_undone_classifications_disappear(client, editor, news, tree):
    kept, dropped = article(news, "Kept"), article(news, "Dropped")
    classify(kept, editor, tree["sport"])
    case = classify(dropped, editor, tree["sport"])
    url = folder_feed_url(tree["sport"], "atom")
    assert titles(parse(fetch(client, url))) == ["Dropped", "Kept"]

    services.reject(case, tree["sport"], editor)
    assert titles(parse(fetch(client, url))) == ["Kept"]

    # a rule committed for a case accepts it into the folder; undoing the rule takes it out again
    ruled = article(news, "By rule")
    rule_case = services.ingest_case(ruled, ["striker", "goal"])
    services.commit_rule(rule_case, RuleKind.NEW, editor, folder=tree["football"], conditions=["striker"])
    football = folder_feed_url(tree["football"], "rss")
    assert titles(parse(fetch(client, football))) == ["By rule"]
    services.undo_last_rule(editor)
    assert titles(parse(fetch(client, football))) == []


def test_a_polling_reader_sees_each_accepted_article_once(client, editor, news, tree, settings):
    """A reader polling with its ETag gets every accepted article exactly once across polls."""
    settings.WIMS_FEED_ITEMS = 5
    url = folder_feed_url(tree["football"], "rss")
    seen: list[str] = []
    etag = None
    accepted = []
    for round_ in range(6):
        for _ in range(round_ % 3):  # 0, 1 or 2 new accepts between polls
            art = article(news)
            classify(art, editor, tree["football"])
            accepted.append(article_guid(art.pk))
        response = fetch(client, url, **({"If-None-Match": etag} if etag else {}))
        if response.status_code == 304:
            continue
        etag = response["ETag"]
        for entry in parse(response).entries:
            if entry.id not in seen:
                seen.append(entry.id)
    assert sorted(seen) == sorted(accepted)


# --------------------------------------------------------------------------- conditional GET and cache
def test_conditional_get_answers_304_until_the_folder_changes(client, editor, news, tree):
    classify(article(news, "One"), editor, tree["sport"])
    url = folder_feed_url(tree["sport"], "rss")
    first = fetch(client, url)
    etag, modified = first["ETag"], first["Last-Modified"]
    assert etag and modified

    again = fetch(client, url, **{"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == etag
    assert fetch(client, url, **{"If-Modified-Since": modified}).status_code == 304
    assert fetch(client, url, **{"If-None-Match": '"something-else"'}).status_code == 200

    classify(article(news, "Two"), editor, tree["sport"])
    changed = fetch(client, url, **{"If-None-Match": etag})
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert titles(parse(changed)) == ["Two", "One"]


def test_304_is_answered_without_loading_articles(client, editor, news, tree):
    classify(article(news, "One", text="x" * 5000), editor, tree["sport"])
    url = folder_feed_url(tree["sport"], "rss")
    etag = fetch(client, url)["ETag"]
    with CaptureQueriesContext(connection) as queries:
        assert fetch(client, url, **{"If-None-Match": etag}).status_code == 304
    sql = " ".join(q["sql"] for q in queries.captured_queries)
    assert "core_text" not in sql
    assert len(queries.captured_queries) <= 4


def test_rejection_changes_the_etag_even_when_the_newest_item_stays(client, editor, news, tree):
    """Removing an older item must not leave a stale 304 (the ETag covers the whole item set)."""
    older = classify(article(news, "Older"), editor, tree["sport"])
    classify(article(news, "Newer"), editor, tree["sport"])
    url = folder_feed_url(tree["sport"], "rss")
    first = fetch(client, url)
    services.reject(older, tree["sport"], editor)
    response = fetch(client, url, **{"If-None-Match": first["ETag"]})
    assert response.status_code == 200
    assert titles(parse(response)) == ["Newer"]


def test_rendered_feed_is_cached_per_version(client, editor, news, tree):
    classify(article(news, "Cached"), editor, tree["sport"])
    url = folder_feed_url(tree["sport"], "atom")
    body = fetch(client, url).content
    with CaptureQueriesContext(connection) as queries:
        again = fetch(client, url)
    assert again.content == body
    assert not any("monitor_article" in q["sql"] and "core_text" in q["sql"] for q in queries.captured_queries)
    classify(article(news, "Fresh"), editor, tree["sport"])  # new version: the cached body is not reused
    assert titles(parse(fetch(client, url))) == ["Fresh", "Cached"]


def test_head_and_unknown_method(client, editor, news, tree):
    url = folder_feed_url(tree["sport"], "rss")
    assert client.head(url).status_code == 200
    assert client.post(url).status_code == 405


# --------------------------------------------------------------------------- private folders and tokens
def test_private_feed_needs_a_valid_active_token(client, editor, news, tree):
    classify(article(news, "Classified intel"), editor, tree["ops"])
    intel, ops = tree["intel"], tree["ops"]
    for url in (folder_feed_url(ops, "rss"), folder_feed_url(ops, "atom", subfolders=True)):
        response = fetch(client, url)
        assert response.status_code == 404
        assert b"intel" not in response.content.lower()
    assert fetch(client, folder_feed_url(ops, "rss", token="not-a-token")).status_code == 404
    # wrong slug without a token: 404, not a redirect that would confirm the folder exists
    assert fetch(client, f"/feeds/{ops.pk}-wrong/rss/").status_code == 404
    assert fetch(client, f"/feeds/{ops.pk}/rss/").status_code == 404

    row, token = FeedToken.issue(intel, "Alice", editor)
    other_row, other = FeedToken.issue(tree["secret"], "Bob", editor)
    assert fetch(client, folder_feed_url(ops, "rss", token=other)).status_code == 404  # other folder's token
    # a token for Intel opens Intel and its subfolders, with their (private) category names
    parsed = parse(fetch(client, folder_feed_url(ops, "rss", token=token)))
    assert titles(parsed) == ["Classified intel"]
    assert [t.term for t in parsed.entries[0].tags] == ["Intel/Ops"]
    parsed = parse(fetch(client, folder_feed_url(intel, "atom", subfolders=True, token=token)))
    assert titles(parsed) == ["Classified intel"]
    response = fetch(client, folder_feed_url(intel, "rss", token=token))
    assert "private" in response["Cache-Control"]

    row.revoke(editor)
    assert fetch(client, folder_feed_url(ops, "rss", token=token)).status_code == 404
    assert fetch(client, folder_feed_url(intel, "rss", token=token)).status_code == 404
    assert "intel" not in fetch(client, "/feeds/all/rss/").content.decode().lower()


def test_token_of_a_public_folder_shows_its_private_subfolders(client, editor, news, tree):
    classify(article(news, "Hidden match"), editor, tree["secret"])
    url_public = folder_feed_url(tree["sport"], "rss", subfolders=True)
    assert titles(parse(fetch(client, url_public))) == []
    _, token = FeedToken.issue(tree["sport"], "Carol", editor)
    assert titles(parse(fetch(client, folder_feed_url(tree["sport"], "rss", True, token)))) == ["Hidden match"]


def test_token_is_stored_as_a_digest_only(editor, tree):
    row, token = FeedToken.issue(tree["intel"], "Dave", editor)
    row.refresh_from_db()
    assert token not in (row.digest, row.prefix) and row.prefix == token[:8]
    assert FeedToken.lookup(token) == row
    assert FeedToken.lookup(token + "x") is None and FeedToken.lookup("") is None
    with pytest.raises(ValueError):
        FeedToken.issue(tree["intel"], "  ", editor)


def test_token_pages_are_for_experts(client, django_user_model, editor, news, tree):
    assert client.get("/feeds/tokens/").status_code == 302  # to the login page
    django_user_model.objects.create_user("reader", password="pw")  # noqa: S106
    client.force_login(get_user_model().objects.get(username="reader"))
    assert client.get("/feeds/tokens/").status_code == 403
    assert client.post("/feeds/tokens/", {"folder": tree["intel"].pk, "subscriber": "x"}).status_code == 403
    client.logout()

    client.force_login(get_user_model().objects.get(username="feed-editor"))
    assert client.get("/feeds/tokens/").status_code == 200
    assert client.post("/feeds/tokens/", {"folder": "", "subscriber": "Erin"}).status_code == 400
    # a digit that int() refuses (superscript two) is a malformed id, not a server error
    assert client.post("/feeds/tokens/", {"folder": "²", "subscriber": "Erin"}).status_code == 400
    response = client.post("/feeds/tokens/", {"folder": tree["intel"].pk, "subscriber": "Erin"})
    assert response.status_code == 201
    row = FeedToken.objects.get(subscriber="Erin")
    page = response.content.decode()
    start = page.index("http://testserver/feeds/")
    feed_url = page[start : page.index("<", start)].replace("&amp;", "&")
    client.logout()
    classify(article(news, "For Erin"), editor, tree["intel"])
    assert titles(parse(client.get(feed_url))) == ["For Erin"]

    client.force_login(get_user_model().objects.get(username="feed-editor"))
    assert client.post(f"/feeds/tokens/{row.pk}/revoke/").status_code == 302
    client.logout()
    assert client.get(feed_url).status_code == 404


# --------------------------------------------------------------------------- rename
def test_rename_keeps_feed_url_working_and_guids_stable(client, editor, news, tree):
    art = article(news, "Before rename")
    classify(art, editor, tree["football"])
    old_url = folder_feed_url(tree["football"], "atom", subfolders=True)
    before = parse(fetch(client, old_url))

    services.rename_folder(tree["sport"], "Sports", editor)  # the parent: Football's path changes too
    football = Folder.objects.get(pk=tree["football"].pk)
    assert football.path == "Sports/Football"
    response = fetch(client, old_url)
    assert response.status_code == 301
    assert response["Location"] == folder_feed_url(football, "atom", subfolders=True)
    after = parse(client.get(old_url, follow=True))
    assert [e.id for e in after.entries] == [e.id for e in before.entries] == [article_guid(art.pk)]
    assert after.feed.id == before.feed.id  # the Atom feed id does not depend on the name either
    assert [t.term for t in after.entries[0].tags] == ["Sports/Football"]
    bare = fetch(client, f"/feeds/{football.pk}/atom/")  # the id alone also finds the feed
    assert bare.status_code == 301 and bare["Location"] == folder_feed_url(football, "atom")


def test_private_token_survives_rename(client, editor, news, tree):
    classify(article(news, "Ops report"), editor, tree["ops"])
    _, token = FeedToken.issue(tree["intel"], "Frank", editor)
    old_url = folder_feed_url(tree["ops"], "rss", token=token)
    services.rename_folder(tree["ops"], "Operations", editor)
    response = fetch(client, old_url)
    assert response.status_code == 301 and f"token={token}" in response["Location"]
    assert titles(parse(client.get(old_url, follow=True))) == ["Ops report"]


# --------------------------------------------------------------------------- hostile article text
@pytest.mark.parametrize("fmt", ["rss", "atom"])
def test_markup_and_control_characters_still_give_valid_xml(client, editor, news, tree, fmt):
    nasty = "<script>alert('x')</script> <b>bold</b> & \x01\x02\x08\x0b\x0c\x1b\x7f\x85 ]]> end"
    art = article(news, title="Title <i>with</i> \x07 bell & amp", text=nasty)
    classify(art, editor, tree["sport"])
    response = fetch(client, folder_feed_url(tree["sport"], fmt))
    parsed = parse(response)  # feedparser without bozo, and lxml's strict parser
    entry = parsed.entries[0]
    if fmt == "atom":  # type="text": escaped once, a reader shows the text as it is
        assert entry.title == "Title <i>with</i> bell & amp"
    else:  # RSS readers (feedparser among them) take the title as HTML: escaped for that, so it stays text
        assert entry.title == "Title &lt;i&gt;with&lt;/i&gt; bell &amp; amp"
        item = etree.fromstring(response.content).find("channel/item/title")
        assert item.text == "Title &lt;i&gt;with&lt;/i&gt; bell &amp; amp"
    assert "<script" not in entry.summary and "<b>" not in entry.summary
    assert "&lt;b&gt;bold&lt;/b&gt;" in entry.summary  # shown as text, not interpreted
    assert "\x01" not in response.content.decode()


@pytest.mark.parametrize("fmt", ["rss", "atom"])
def test_summary_is_the_docview_abstract_where_there_is_one(client, editor, news, tree, fmt):
    """The abstract (escaped) where processing stored one; the core text's start for older articles."""
    old = article(news, "Before DocView", text="The core text of an older article.")
    new = article(news, "With DocView", text="Byline line.\nThe core text of a newer article.")
    new.content.abstract = "The <b>central</b> sentence & its neighbour."
    new.content.save(update_fields=["abstract"])
    classify(old, editor, tree["sport"])
    classify(new, editor, tree["sport"])
    parsed = parse(fetch(client, folder_feed_url(tree["sport"], fmt)))
    summaries = {e.title: e.summary for e in parsed.entries}
    assert summaries["With DocView"] == "The &lt;b&gt;central&lt;/b&gt; sentence &amp; its neighbour."
    assert summaries["Before DocView"] == "The core text of an older article."


def test_summary_and_text_helpers():
    assert xml_text("a\x00b\x1f c\ud800\ufffe  \n d") == "ab c d"
    assert summary_text("<p>x</p>") == "&lt;p&gt;x&lt;/p&gt;"
    long = " ".join(["word"] * 500)
    cut = summary_text(long, limit=100)
    assert cut.endswith("…") and len(cut) <= 101 and not cut[:-1].endswith(" ")
    assert summary_text(None) == ""
    # a prefix full of whitespace and control characters does not shorten the summary
    padded = " \x01" * 5000 + "alpha beta " * 100
    assert summary_text(padded, limit=100).startswith("alpha beta") and len(summary_text(padded, limit=100)) > 90
    assert summary_text("short  text", limit=100) == "short text"


# --------------------------------------------------------------------------- list page, OPML, discovery
def test_feed_list_page_shows_public_feeds_and_hides_private_ones(client, editor, tree):
    page = client.get("/feeds/").content.decode()
    assert folder_feed_url(tree["football"], "rss") in page
    assert "/feeds/all/atom/" in page
    assert "Intel" not in page and "Secret" not in page
    client.force_login(get_user_model().objects.get(username="feed-editor"))
    page = client.get("/feeds/").content.decode()
    assert "Intel" in page and "token needed" in page
    assert folder_feed_url(tree["intel"], "rss") not in page


def test_opml_lists_every_public_folder_feed(client, tree):
    response = client.get("/feeds/opml/")
    assert response.status_code == 200 and "opml" in response["Content-Type"]
    root = etree.fromstring(response.content)
    urls = [o.get("xmlUrl") for o in root.iter("outline")]
    assert "http://testserver/feeds/all/rss/" in urls
    assert "http://testserver" + folder_feed_url(tree["football"], "rss") in urls
    assert not any(f"/{tree['intel'].pk}-" in u or f"/{tree['secret'].pk}-" in u for u in urls)
    atom = etree.fromstring(client.get("/feeds/opml/?format=atom").content)
    assert all(o.get("type") == "atom" and "/atom/" in o.get("xmlUrl") for o in atom.iter("outline"))
    assert client.get("/feeds/opml/?format=json").status_code == 404


def test_discovery_links_include(tree):
    template = Template('{% include "feeds/_feed_links.html" with folder=folder %}')
    html = template.render(Context({"folder": tree["football"]}))
    assert 'type="application/rss+xml"' in html and 'type="application/atom+xml"' in html
    assert folder_feed_url(tree["football"], "atom") in html
    assert template.render(Context({"folder": tree["intel"]})).strip() == ""


def test_token_of_a_subfolder_does_not_open_it_through_a_parent_feed(client, editor, news, tree):
    """A token for Sport/Secret does not add Secret's items to the (public) Sport subfolders feed."""
    classify(article(news, "Secret item"), editor, tree["secret"])
    classify(article(news, "Sport item"), editor, tree["sport"])
    _, token = FeedToken.issue(tree["secret"], "Gina", editor)
    url = folder_feed_url(tree["sport"], "rss", subfolders=True, token=token)
    parsed = parse(fetch(client, url))
    assert titles(parsed) == ["Sport item"]
    assert "public" in fetch(client, url)["Cache-Control"]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="compares the PostgreSQL statement with the ORM path")
def test_postgresql_statement_gives_the_same_feed_version_as_the_orm_path(editor, news, tree, monkeypatch):
    from feeds.syndication import FeedScope

    classify(article(news), editor, tree["sport"], tree["football"])
    classify(article(news), editor, tree["football"], tree["secret"])
    classify(article(news), editor, tree["secret"])
    classify(article(news), editor, tree["intel"], tree["ops"])
    classify(article(news), editor, tree["ops"], tree["sport"])
    classify(article(news), editor, tree["sport"], state="rejected")
    scopes = [
        FeedScope("rss", tree["sport"]),
        FeedScope("rss", tree["sport"], subfolders=True),
        FeedScope("rss", tree["sport"], subfolders=True, grant=tree["sport"]),
        FeedScope("atom", tree["intel"], subfolders=True, grant=tree["intel"]),
        FeedScope("atom", tree["ops"], grant=tree["intel"]),
        FeedScope("rss"),
    ]
    on_postgres = [(s.state(3).rows, s.state(3).categories, s.state(3).etag) for s in scopes]
    monkeypatch.setattr(connection, "vendor", "sqlite")  # take the ORM path on the same data
    with_orm = [(s.state(3).rows, s.state(3).categories, s.state(3).etag) for s in scopes]
    assert on_postgres == with_orm
    assert any(rows for rows, _, _ in on_postgres)


@pytest.mark.django_db
def test_a_folder_slug_keeps_its_ligatures_as_letters():
    """A live trial: the slug of "Santé/Cœur" was "sante-cur"."""
    from classifier.models import Folder
    from feeds.syndication import folder_slug

    assert folder_slug(Folder(name="Cœur", path="Santé/Cœur")) == "sante-coeur"
    assert folder_slug(Folder(name="Straße", path="Æsop/Straße")) == "aesop-strasse"
