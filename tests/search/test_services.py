"""The search API on the database the tests run on (SQLite FTS5 by default, PostgreSQL with DATABASE_URL)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from classifier.models import Classification, ReviewState
from monitor.models import Article
from processing.models import ArticleContent
from search import services
from search.models import SavedSearch, SearchDocument
from search.services import QuerySyntaxError, matching_articles, saved_search_articles, search

from .conftest import ids

pytestmark = pytest.mark.django_db


def test_words_must_all_occur(make_article):
    both = make_article("Outbreak report", "Measles cases rise in the north; vaccination teams sent.")
    make_article("Other", "Measles only.")
    assert ids(matching_articles("measles vaccination")) == [both.pk]


def test_stemming_vaccines_finds_vaccine(make_article):
    a = make_article("Clinic news", "The vaccine arrived on Monday.")
    assert ids(matching_articles("vaccines")) == [a.pk]
    assert ids(matching_articles('"vaccines arrived"')) == [a.pk], "stemmed inside a phrase too"


def test_phrase_or_and_negation(make_article):
    phrase = make_article("A", "Public health officials met.")
    apart = make_article("B", "Health is public knowledge.")
    flu = make_article("C", "Bird flu spreads among farms.")
    cholera = make_article("D", "Cholera in the port city.")
    assert ids(matching_articles('"public health"')) == [phrase.pk]
    assert ids(matching_articles("public health")) == sorted([phrase.pk, apart.pk])
    assert ids(matching_articles("flu or cholera")) == sorted([flu.pk, cholera.pk])
    assert ids(matching_articles("health -knowledge")) == [phrase.pk]
    assert ids(matching_articles('health -"public health"')) == [apart.pk]


def test_title_and_keywords_are_searched(make_article):
    titled = make_article("Dengue warning", "Nothing else here.")
    keyworded = make_article("Report", "Some text.", keywords=["malaria"])
    assert ids(matching_articles("dengue")) == [titled.pk]
    assert ids(matching_articles("malaria")) == [keyworded.pk]


def test_title_match_ranks_first(make_article):
    body = make_article("Weather today", "Rain. The word cholera appears once in a long text about other things.")
    title = make_article("Cholera outbreak", "Officials confirmed new cases.")
    page = search("cholera")
    assert [r.article.pk for r in page.results] == [title.pk, body.pk]
    assert page.results[0].score > page.results[1].score
    assert page.total == 2 and not page.total_capped and not page.has_next


@pytest.mark.parametrize(
    "query",
    ['"', 'measles"', "*", "measles*", "title:measles", "(measles", "measles)", "NEAR(measles x)", "a AND", "^x", "-"],
)
def test_stray_syntax_never_raises_a_database_error(make_article, query):
    make_article("Measles", "measles and x")
    try:
        list(matching_articles(query))
        search(query)
    except QuerySyntaxError as error:
        assert str(error)


def test_near_and_operators_are_plain_words(make_article):
    a = make_article("Near the border", "Cases near the border and in the city or the port.")
    assert ids(matching_articles("NEAR border")) == [a.pk]
    assert ids(matching_articles("city OR port AND")) == [a.pk]


def test_empty_and_negative_only_queries_are_refused(make_article):
    for query in ("", "  ", "-measles"):
        with pytest.raises(QuerySyntaxError):
            matching_articles(query)


def test_site_filter(make_article, other_site):
    here = make_article("Flu", "flu")
    make_article("Flu", "flu", site=other_site)
    assert ids(matching_articles("flu", site=here.site)) == [here.pk]
    assert ids(matching_articles("flu", site=here.site_id)) == [here.pk]


def test_date_filters_are_inclusive_days_of_collection(make_article):
    old = make_article("Flu", "flu", days_ago=10)
    recent = make_article("Flu", "flu", days_ago=1)
    today = timezone.localdate()
    assert ids(matching_articles("flu", date_from=today - timedelta(days=2))) == [recent.pk]
    assert ids(matching_articles("flu", date_to=today - timedelta(days=10))) == [old.pk]
    assert ids(matching_articles("flu", date_from=today - timedelta(days=10), date_to=today)) == sorted(
        [old.pk, recent.pk]
    )


def test_folder_filter_takes_the_subtree_accepted_or_suggested_not_rejected(make_article, classify):
    accepted = make_article("Flu", "flu")
    suggested_below = make_article("Flu", "flu")
    rejected = make_article("Flu", "flu")
    elsewhere = make_article("Flu", "flu")
    classify(accepted, "Health")
    classify(suggested_below, "Health/Influenza", Classification.State.SUGGESTED)
    row = classify(rejected, "Health")
    row.state = Classification.State.REJECTED
    row.save()
    classify(elsewhere, "Healthcare")  # a path that starts like Health's but is not below it
    health = row.folder
    assert ids(matching_articles("flu", folder=health)) == sorted([accepted.pk, suggested_below.pk])
    assert ids(matching_articles("flu", folder=health.pk)) == sorted([accepted.pk, suggested_below.pk])


def test_state_filter_uses_the_inbox_states(make_article):
    pending = make_article("Flu", "flu", review_state=ReviewState.SUGGESTED)
    unreviewed = make_article("Flu", "flu")
    assert ids(matching_articles("flu", state="pending")) == [pending.pk]
    assert ids(matching_articles("flu", state="unreviewed")) == [unreviewed.pk]
    with pytest.raises(QuerySyntaxError, match="Unknown state"):
        matching_articles("flu", state="bogus")


def test_state_filter_takes_the_inbox_groups_and_empty_is_any(make_article):
    suggested = make_article("Flu", "flu", review_state=ReviewState.SUGGESTED)
    unreviewed = make_article("Flu", "flu")
    reviewed = make_article("Flu", "flu", review_state=ReviewState.REVIEWED)
    assert ids(matching_articles("flu", state="waiting")) == sorted([suggested.pk, unreviewed.pk])
    every = sorted([suggested.pk, unreviewed.pk, reviewed.pk])
    assert ids(matching_articles("flu", state="any")) == ids(matching_articles("flu", state="")) == every


def test_duplicates_and_failed_articles_are_not_indexed(make_article):
    original = make_article("Flu", "flu season")
    duplicate = make_article("Flu", "flu season", state=Article.State.DUPLICATE, duplicate_of=original)
    failed = make_article("Flu", "flu season", state=Article.State.FAILED)
    assert ids(matching_articles("flu")) == [original.pk]
    assert not SearchDocument.objects.filter(pk__in=[duplicate.pk, failed.pk]).exists()
    # an indexed article that becomes a duplicate leaves the index when it is indexed again
    Article.objects.filter(pk=original.pk).update(state=Article.State.DUPLICATE)
    services.index_article(original.pk)
    assert ids(matching_articles("flu")) == []


def test_the_index_follows_the_content_row_whoever_writes_it(make_article):
    a = make_article("Report", "cholera")
    ArticleContent.objects.filter(pk=a.pk).update(core_text="typhoid")  # a bulk update: no save, no index call
    assert ids(matching_articles("cholera")) == []
    assert ids(matching_articles("typhoid")) == [a.pk]
    services.index_article(a)  # indexing again by hand changes nothing
    assert ids(matching_articles("typhoid")) == [a.pk]
    # processing saves the article's final row, then its content: a re-publication leaves the index
    Article.objects.filter(pk=a.pk).update(state=Article.State.DUPLICATE)
    ArticleContent.objects.filter(pk=a.pk).update(keywords=[])
    assert ids(matching_articles("typhoid")) == []
    assert not SearchDocument.objects.filter(pk=a.pk).exists()


def test_reindex_fills_the_index_for_articles_stored_before(site):
    a = Article.objects.create(site=site, url="https://daily.example/x", title="Anthrax", state="processed")
    assert ids(matching_articles("anthrax")) == []
    services.reindex(batch=1)
    assert ids(matching_articles("anthrax")) == [a.pk]


def test_snippets_are_escaped_and_marked(make_article):
    make_article("Title", "Before <script>alert(1)</script> the measles outbreak & more \ue000odd\ue001 text.")
    (result,) = search("measles").results
    snippet = str(result.snippet)
    assert "<script>" not in snippet and "&lt;script&gt;" in snippet
    assert "<mark>measles</mark>" in snippet
    assert "&amp;" in snippet
    assert snippet.count("<mark>") == 1  # the article's own sentinel characters are not markers


def test_results_carry_folders_and_state(make_article, classify):
    a = make_article("Flu", "flu", review_state=ReviewState.SUGGESTED)
    classify(a, "Health/Influenza", Classification.State.SUGGESTED)
    (result,) = search("flu").results
    assert result.state == "suggested"
    assert [(c.path, c.state) for c in result.folders] == [("Health/Influenza", "suggested")]


def test_paging(make_article):
    made = [make_article(f"Flu {i}", "flu") for i in range(7)]
    first = search("flu", size=3)
    second = search("flu", page=2, size=3)
    third = search("flu", page=3, size=3)
    seen = [r.article.pk for p in (first, second, third) for r in p.results]
    assert sorted(seen) == sorted(a.pk for a in made)
    assert first.has_next and second.has_next and not third.has_next
    assert not first.has_previous and third.has_previous
    assert first.total == 7


def test_saved_search_articles_apply_every_filter(make_article, other_site, expert_user):
    here = make_article("Flu", "flu", days_ago=3)
    make_article("Flu", "flu", site=other_site)
    saved = SavedSearch.objects.create(
        owner=expert_user, name="flu here", query="flu", site=here.site, date_from=timezone.localdate() - timedelta(5)
    )
    assert ids(saved_search_articles(saved)) == [here.pk]


def test_search_reindex_command(site):
    from django.core.management import call_command

    a = Article.objects.create(site=site, url="https://daily.example/y", title="Leprosy", state="processed")
    call_command("search_reindex", "--batch", "1")
    assert ids(matching_articles("leprosy")) == [a.pk]


def test_a_selective_query_uses_the_full_text_index(site):
    """PostgreSQL: the GIN index, not a scan of every vector (the vectors stay in the table's pages so that
    the planner sees what a scan costs); SQLite: the FTS5 table's own index."""
    from django.db import connection

    from search import backends
    from search.query import parse

    filler = " ".join(f"word{i}" for i in range(400))
    bulk = Article.objects.bulk_create(
        Article(site=site, url=f"https://daily.example/bulk/{i}", title=f"Report {i}", state="processed")
        for i in range(3000)
    )
    ArticleContent.objects.bulk_create(ArticleContent(article=a, core_text=filler) for a in bulk)
    rare = Article.objects.create(site=site, url="https://daily.example/rare", title="Rabies", state="processed")
    services.reindex()
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE") if connection.vendor == "postgresql" else None
    qs = backends.filter_matching(Article.objects.all(), parse("rabies"))
    assert ids(qs) == [rare.pk]
    plan = qs.explain()
    if connection.vendor == "postgresql":
        assert "search_document_vector_gin" in plan, plan
    else:
        assert "VIRTUAL TABLE INDEX" in plan, plan


def test_ranked_pages_apply_every_filter(make_article, classify, other_site):
    inside = make_article("Flu in the folder", "flu", review_state=ReviewState.SUGGESTED, days_ago=2)
    classify(inside, "Health/Influenza", Classification.State.SUGGESTED)
    make_article("Flu elsewhere", "flu", review_state=ReviewState.SUGGESTED, days_ago=2)
    other = make_article("Flu other site", "flu", site=other_site, review_state=ReviewState.SUGGESTED, days_ago=2)
    classify(other, "Health")
    health = other.case.classifications.get().folder
    today = timezone.localdate()
    page = search(
        "flu",
        site=inside.site,
        folder=health,
        state="pending",
        date_from=today - timedelta(days=3),
        date_to=today - timedelta(days=1),
    )
    assert [r.article.pk for r in page.results] == [inside.pk] and page.total == 1
    assert search("flu", folder=health, date_from=today).results == []


def test_a_huge_core_text_is_indexed_not_refused(make_article):
    # 120,000 distinct words: a PostgreSQL tsvector of all of them would pass its 1 MB limit
    text = "smallpox " + " ".join(f"w{i}x" for i in range(120_000))
    a = make_article("Long", text)
    assert ids(matching_articles("smallpox")) == [a.pk]
    assert "<mark>smallpox</mark>" in search("smallpox").results[0].snippet


def test_the_folder_filter_follows_every_change_of_the_classifications(make_article, classify, django_user_model):
    """PostgreSQL keeps the folders in the documents (triggers on the classifications); SQLite joins them.
    Either way a change made by any writer shows in the next search: a rejection, a deletion, a merge, a
    move, a classification bulk-created or bulk-updated."""
    from classifier import services as classifier_services
    from classifier.models import Folder

    expert = django_user_model.objects.create_user("merger", is_staff=True)
    a, b, c = (make_article("Flu", "flu") for _ in range(3))
    row_a = classify(a, "Health")
    classify(b, "Travel")
    health, travel = Folder.objects.get(path="Health"), Folder.objects.get(path="Travel")
    assert ids(matching_articles("flu", folder=health)) == [a.pk]

    Classification.objects.bulk_create([Classification(case=classify(c, "Travel").case, folder=health)])
    assert ids(matching_articles("flu", folder=health)) == sorted([a.pk, c.pk]), "bulk insert"
    Classification.objects.filter(case__article=c, folder=health).update(state=Classification.State.REJECTED)
    assert ids(matching_articles("flu", folder=health)) == [a.pk], "bulk update to rejected"
    row_a.delete()
    assert ids(matching_articles("flu", folder=health)) == [], "deleted"

    classifier_services.merge_folder(travel, health, expert)
    assert ids(matching_articles("flu", folder=health)) == sorted([b.pk, c.pk]), "merged into Health"
    top = Folder.objects.create(name="Topics", path="Topics")
    classifier_services.move_folder(health, top, expert)
    assert ids(matching_articles("flu", folder=top)) == sorted([b.pk, c.pk]), "moved under Topics"
    assert ids(matching_articles("flu", folder=health.pk)) == sorted([b.pk, c.pk])


@pytest.mark.parametrize("recent", [1, 3, 10_000], ids=["recent-window-short", "recent-window-full", "no-floor"])
def test_a_word_in_very_many_articles_ranks_the_newest_matches(make_article, monkeypatch, recent):
    """PostgreSQL ranks at most RANK_WINDOW matches, the newest (docs/benchmarks/distribution.md says why): a
    far better match among older ones is not on the pages; the count says how many were ranked. Whether the
    first look among the newest RECENT_ARTICLES finds a full window or not, the answer is the same."""
    from search import backends

    if backends.vendor() != "postgresql":
        pytest.skip("SQLite ranks every match (FTS5's bm25 as it goes)")
    monkeypatch.setattr(backends, "RANK_WINDOW", 3)
    monkeypatch.setattr(backends, "RECENT_ARTICLES", recent)
    make_article("Unrelated", "nothing to see")
    best_but_old = make_article("Measles measles", "measles measles measles", days_ago=9)
    newer = [make_article(f"Report {i}", "measles once among other words here") for i in range(4)]
    page = search("measles")
    assert [r.article.pk for r in page.results] == [n.pk for n in reversed(newer[1:])]
    assert best_but_old.pk not in {r.article.pk for r in page.results} and page.total == 3


def test_enough_matches_among_the_newest_articles_are_ranked_alone_and_the_page_says_so(
    make_article, monkeypatch, client, expert_user
):
    """PostgreSQL: when the newest RECENT_ARTICLES articles hold RECENT_ENOUGH matches, older articles are not
    searched (their filters are read row by row, docs/benchmarks/distribution.md), and the page says so; a
    'collected to' date reaches them."""
    from search import backends

    if backends.vendor() != "postgresql":
        pytest.skip("SQLite ranks every match (FTS5's bm25 as it goes)")
    monkeypatch.setattr(backends, "RECENT_ARTICLES", 3)
    monkeypatch.setattr(backends, "RECENT_ENOUGH", 2)
    old = make_article("Measles measles", "measles measles measles", days_ago=9)
    newest = [make_article(f"Report {i}", "measles once among other words") for i in range(2)]
    make_article("Unrelated", "nothing to see")
    page = search("measles")
    assert page.recent_only and page.total == 2
    assert [r.article.pk for r in page.results] == [n.pk for n in reversed(newest)]
    client.force_login(expert_user)
    html = client.get("/search/", {"q": "measles"}).content.decode()
    assert "among the newest 3 articles" in html and "Older articles were not searched" in html

    older = search("measles", date_to=timezone.localdate() - timedelta(days=5))
    assert [r.article.pk for r in older.results] == [old.pk] and not older.recent_only
    monkeypatch.setattr(backends, "RECENT_ENOUGH", 3)
    everything = search("measles")
    assert not everything.recent_only and everything.results[0].article.pk == old.pk, "best match first"


def test_the_newest_articles_first_look_keeps_the_site_and_folder_filters(
    make_article, classify, other_site, monkeypatch
):
    """PostgreSQL: the first look among the newest articles says its bound in the folder subquery too; the
    site and folder filters still hold there, and a look that finds too few falls back to every article."""
    from search import backends

    if backends.vendor() != "postgresql":
        pytest.skip("SQLite ranks every match (FTS5's bm25 as it goes)")
    monkeypatch.setattr(backends, "RECENT_ARTICLES", 4)
    monkeypatch.setattr(backends, "RECENT_ENOUGH", 2)
    old = make_article("Flu flu", "flu flu flu", days_ago=9)
    classify(old, "Health/Flu")
    elsewhere = make_article("Flu", "flu once", site=other_site)
    classify(elsewhere, "Health/Flu")
    newest = [make_article(f"Flu {i}", "flu once among other words") for i in range(2)]
    for article in newest:
        classify(article, "Health/Flu", state=Classification.State.SUGGESTED)
    make_article("Flu elsewhere", "flu once, in no folder")
    health = Classification.objects.get(case__article=old).folder.parent

    page = search("flu", folder=health, site=newest[0].site)
    assert page.recent_only and [r.article.pk for r in page.results] == [n.pk for n in reversed(newest)]
    monkeypatch.setattr(backends, "RECENT_ENOUGH", 3)
    page = search("flu", folder=health, site=newest[0].site)
    assert not page.recent_only and page.results[0].article.pk == old.pk
    assert elsewhere.pk not in {r.article.pk for r in page.results}


def test_inserted_classifications_add_their_folders_to_the_stored_ones(make_article, classify):
    """PostgreSQL: an insert adds its rows' folders to each article's stored ids (a union, not a recompute from
    the article's rows: search/backends.py); the stored ids stay those a recompute gives, sorted, whatever the
    mix of articles, folders and states one statement inserts."""
    from django.db import connection

    from classifier.models import Folder
    from search import backends

    if backends.vendor() != "postgresql":
        pytest.skip("SQLite joins the classifications; there is no folders table to keep")
    a, b, c = (make_article("Flu", "flu") for _ in range(3))
    classify(a, "Travel")
    classify(a, "Health", state=Classification.State.SUGGESTED)
    classify(b, "Economy", state=Classification.State.REJECTED)
    classify(c, "Sport")
    health, travel, economy, sport = (Folder.objects.get(path=p) for p in ("Health", "Travel", "Economy", "Sport"))
    Classification.objects.bulk_create(
        [
            Classification(case=a.case, folder=sport),  # a third folder for a
            Classification(case=a.case, folder=economy, state=Classification.State.REJECTED),  # not a folder of a
            Classification(case=b.case, folder=travel),
            Classification(case=b.case, folder=health),
            Classification(case=c.case, folder=economy, state=Classification.State.REJECTED),  # c unchanged
        ]
    )
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT article_id, folder_ids FROM {backends.FOLDERS} ORDER BY article_id")
        stored = dict(cursor.fetchall())
    recomputed = {
        article.pk: sorted(
            Classification.objects.filter(case__article=article)
            .exclude(state=Classification.State.REJECTED)
            .values_list("folder_id", flat=True)
        )
        for article in (a, b, c)
    }
    assert stored == recomputed
    assert recomputed == {
        a.pk: sorted([travel.pk, health.pk, sport.pk]),
        b.pk: sorted([travel.pk, health.pk]),
        c.pk: [sport.pk],
    }
    assert ids(matching_articles("flu", folder=sport)) == sorted([a.pk, c.pk])
    assert ids(matching_articles("flu", folder=economy)) == []
