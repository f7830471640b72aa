"""Bulk actions and per-user state: accept many, reviewed with no folder, assign; read and unread; the queues
("assigned to me", "unassigned", "unread") the inbox and the API filter by.

Each bulk action is one transaction with one audit entry per article, and is refused as a whole, nothing
changed, when one selected article cannot take it (tests/classifier/test_concurrency.py style: run on
PostgreSQL in CI with DATABASE_URL, on SQLite by default).
"""

import pytest
from django.core.exceptions import ValidationError

from classifier import selectors, services
from classifier.filtering import UNASSIGNED
from classifier.models import ArticleRead, AuditEntry, Case, Classification
from monitor.models import Article
from tests.classifier.conftest import review_states_from_rows

pytestmark = pytest.mark.django_db


@pytest.fixture
def desk(folders, make_case, make_expert):
    """A football rule; two articles it suggests Sport/Football for, one no rule fires on, one unprocessed."""
    ada, bob = make_expert("ada"), make_expert("bob")
    stone = make_case("goal match striker")
    services.commit_rule(stone, "new", ada, folder=folders["football"], conditions=["goal"])
    first, second = make_case("goal late winner"), make_case("goal keeper injured")
    quiet = make_case("parliament budget vote")
    raw = Article.objects.create(site=first.article.site, url="https://daily.example/raw", title="not processed")
    AuditEntry.objects.all().delete()  # each test counts its own entries
    return {"ada": ada, "bob": bob, "stone": stone, "first": first, "second": second, "quiet": quiet, "raw": raw}


def state(case: Case) -> str:
    return Article.objects.get(pk=case.article_id).review_state


def states(case: Case) -> set[tuple[str, str]]:
    return set(Classification.objects.filter(case=case).values_list("folder__path", "state"))


def ids(*cases) -> list[int]:
    return [c.article_id for c in cases]


# --------------------------------------------------------------------------- accept
def test_bulk_accept_accepts_each_article_s_suggestions_with_one_audit_entry_each(desk):
    items = services.bulk_accept(ids(desk["first"], desk["second"]), desk["ada"])
    assert [(i.article_id, i.ok, i.note) for i in items] == [
        (desk["first"].article_id, True, "accepted Sport/Football"),
        (desk["second"].article_id, True, "accepted Sport/Football"),
    ]
    assert states(desk["first"]) == states(desk["second"]) == {("Sport/Football", "accepted")}
    assert state(desk["first"]) == state(desk["second"]) == "reviewed"
    entries = list(AuditEntry.objects.order_by("id").values_list("action", "actor__username", "details__case"))
    assert entries == [
        ("classification.accept", "ada", desk["first"].pk),
        ("classification.accept", "ada", desk["second"].pk),
    ]
    row = Classification.objects.get(case=desk["first"])
    assert row.decided_by == desk["ada"] and row.decided_at is not None


@pytest.mark.parametrize(
    "spoiler, reason",
    [("quiet", "no suggestions to accept"), ("raw", "not processed yet: it has no case to review")],
)
def test_one_article_that_cannot_be_accepted_refuses_the_whole_action(desk, spoiler, reason):
    spoil = desk[spoiler]
    chosen = [desk["first"].article_id, spoil.pk if isinstance(spoil, Article) else spoil.article_id]
    with pytest.raises(services.BulkRefused) as refused:
        services.bulk_accept(chosen, desk["ada"])
    assert "refused for 1 of 2" in str(refused.value) and "nothing was changed" in str(refused.value)
    assert [(i.article_id, i.ok, i.note) for i in refused.value.items] == [
        (chosen[0], True, ""),
        (chosen[1], False, reason),
    ]
    assert states(desk["first"]) == {("Sport/Football", "suggested")}  # the good one was not accepted either
    assert state(desk["first"]) == "suggested"
    assert not AuditEntry.objects.exists()


def test_an_article_accepted_already_has_no_suggestions_left(desk):
    services.accept(desk["first"], desk["bob"])
    with pytest.raises(services.BulkRefused) as refused:
        services.bulk_accept(ids(desk["second"], desk["first"]), desk["ada"])
    assert [i.ok for i in refused.value.items] == [True, False]
    assert states(desk["second"]) == {("Sport/Football", "suggested")}
    assert Classification.objects.get(case=desk["first"]).decided_by == desk["bob"]  # bob's decision stands


def test_a_selection_must_name_articles_that_exist_and_not_too_many(desk):
    with pytest.raises(ValidationError, match="Select the articles first"):
        services.bulk_accept([], desk["ada"])
    with pytest.raises(ValidationError, match="There is no article 999999"):
        services.bulk_accept([desk["first"].article_id, 999999], desk["ada"])
    with pytest.raises(ValidationError, match="takes 500 at most"):
        services.bulk_accept(range(1, 502), desk["ada"])
    assert states(desk["first"]) == {("Sport/Football", "suggested")}


# --------------------------------------------------------------------------- reviewed, no folder
def test_reviewed_with_no_folder_makes_the_article_classified_and_says_who(desk, make_case, folders):
    quiet = desk["quiet"]
    assert state(quiet) == "unreviewed"
    items = services.bulk_mark_no_folder([quiet.article_id], desk["bob"])
    assert [(i.ok, i.note) for i in items] == [(True, "it belongs in no folder")]
    quiet.refresh_from_db()
    assert quiet.no_folder_by == desk["bob"] and quiet.no_folder_at is not None
    assert state(quiet) == "reviewed"
    assert dict(Article.objects.values_list("pk", "review_state")) == review_states_from_rows()
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.actor, entry.details) == (
        "case.no_folder",
        desk["bob"],
        {"case": quiet.pk, "article": quiet.article_id},
    )
    # the review record on the article page says it
    record = selectors.review_record(quiet.article, quiet)
    assert [(r["what"], r["by"]) for r in record] == [("Reviewed, no folder", "bob")]
    # a later rule that suggests a folder for it makes it pending again: that suggestion needs a decision
    budget = make_case("budget debate")
    services.commit_rule(budget, "new", desk["ada"], folder=folders["economy"], conditions=["budget"])
    assert state(quiet) == "suggested"
    assert dict(Article.objects.values_list("pk", "review_state")) == review_states_from_rows()


@pytest.mark.parametrize(
    "spoiler, reason",
    [
        ("first", "suggestions pending (Sport/Football): accept or reject them"),
        ("stone", "already accepted in Sport/Football"),
        ("raw", "not processed yet: it has no case to review"),
    ],
)
def test_reviewed_with_no_folder_is_refused_as_a_whole_with_the_reason(desk, spoiler, reason):
    spoil = desk[spoiler]
    chosen = [desk["quiet"].article_id, spoil.pk if isinstance(spoil, Article) else spoil.article_id]
    with pytest.raises(services.BulkRefused) as refused:
        services.bulk_mark_no_folder(chosen, desk["ada"])
    assert [(i.ok, i.note) for i in refused.value.items] == [(True, "it belongs in no folder"), (False, reason)]
    desk["quiet"].refresh_from_db()
    assert desk["quiet"].no_folder_at is None and state(desk["quiet"]) == "unreviewed"
    assert not AuditEntry.objects.exists()


# --------------------------------------------------------------------------- assign
def test_assign_to_an_expert_then_to_another_then_to_nobody(desk):
    chosen = ids(desk["first"], desk["quiet"])
    items = services.bulk_assign(chosen, desk["bob"], desk["ada"])
    assert [i.note for i in items] == ["assigned to bob", "assigned to bob"]
    first = Article.objects.get(pk=desk["first"].article_id)
    assert (first.assignee, first.assigned_by) == (desk["bob"], desk["ada"]) and first.assigned_at is not None
    assert [(r["what"], r["by"]) for r in selectors.review_record(first, None)] == [("Assigned to bob", "ada")]
    items = services.bulk_assign(chosen[:1], desk["ada"], desk["bob"])
    assert [i.note for i in items] == ["assigned to ada (was bob)"]
    items = services.bulk_assign(chosen, None, desk["ada"])
    assert [i.note for i in items] == ["unassigned (was ada)", "unassigned (was bob)"]
    assert not Article.objects.filter(assignee__isnull=False).exists()
    entries = list(AuditEntry.objects.order_by("id").values_list("action", "details"))
    assert [d["assignee"] for _, d in entries] == ["bob", "bob", "ada", None, None]
    assert [d["previous"] for _, d in entries] == [None, None, "bob", "ada", "bob"]
    assert {a for a, _ in entries} == {"article.assign"}
    assert [d["case"] for _, d in entries][:2] == [desk["first"].pk, desk["quiet"].pk]
    assert [(r["what"], r["by"]) for r in selectors.review_record(first, None)] == [("Unassigned", "ada")]


def test_assigning_to_a_user_who_is_not_an_expert_is_refused(desk, django_user_model):
    reader = django_user_model.objects.create_user("reader")
    with pytest.raises(ValidationError, match="reader is not an expert"):
        services.bulk_assign(ids(desk["first"]), reader, desk["ada"])
    desk["bob"].is_active = False
    desk["bob"].save()
    with pytest.raises(ValidationError, match="bob is not an expert"):
        services.bulk_assign(ids(desk["first"]), desk["bob"], desk["ada"])
    with pytest.raises(services.BulkRefused) as refused:
        services.bulk_assign([desk["first"].article_id, desk["raw"].pk], desk["ada"], desk["ada"])
    assert refused.value.items[1].note == "not processed yet: it has no case to review"
    assert not Article.objects.filter(assignee__isnull=False).exists() and not AuditEntry.objects.exists()


# --------------------------------------------------------------------------- queues
def inbox(**filters) -> list[int]:
    return list(selectors.inbox_queryset(**filters).order_by("-collected_at", "-id").values_list("id", flat=True))


def test_the_queues_assigned_to_someone_unassigned_unread_and_read(desk):
    ada, bob = desk["ada"], desk["bob"]
    everything = inbox()
    services.bulk_assign(ids(desk["first"], desk["quiet"]), ada, bob)
    services.bulk_assign(ids(desk["second"]), bob, bob)
    assert inbox(assignee=ada.pk) == ids(desk["quiet"], desk["first"])
    assert inbox(assignee=bob.pk) == ids(desk["second"])
    assert inbox(assignee=UNASSIGNED) == [desk["raw"].pk, desk["stone"].article_id]  # unprocessed ones too
    assert inbox(assignee=ada.pk, state="pending") == ids(desk["first"])
    # reading is per user
    assert inbox(unread_by=ada.pk) == everything
    services.mark_read(ids(desk["first"], desk["second"]) + [999999], ada)  # an id of no article is left out
    services.mark_read(ids(desk["first"]), ada)  # twice is once
    assert ArticleRead.objects.filter(user=ada).count() == 2
    assert inbox(read_by=ada.pk) == ids(desk["second"], desk["first"])
    assert inbox(unread_by=ada.pk) == [a for a in everything if a not in ids(desk["first"], desk["second"])]
    assert inbox(unread_by=bob.pk) == everything
    assert inbox(unread_by=ada.pk, assignee=ada.pk) == ids(desk["quiet"])
    assert services.mark_unread(ids(desk["second"], desk["quiet"]), ada) == 1
    assert inbox(read_by=ada.pk) == ids(desk["first"])
    # the inbox page marks unread rows for its reader, and names each row's assignee
    page = selectors.inbox_page(selectors.inbox_queryset(), reader=ada)
    marks = {row.article.pk: (row.unread, row.assignee) for row in page.rows}
    assert marks[desk["first"].article_id] == (False, "ada")
    assert marks[desk["second"].article_id] == (True, "bob")
    assert marks[desk["raw"].pk] == (True, "")


def test_opening_an_article_marks_it_read_in_one_statement(desk, django_assert_num_queries):
    """The article page marks the article it shows read: one INSERT whose conflict keeps the first reading (it
    asked whether the article exists first, for an article it had just loaded)."""
    ada, article = desk["ada"], Article.objects.get(pk=desk["first"].article_id)
    with django_assert_num_queries(1):
        services.mark_opened(article, ada)
    first = ArticleRead.objects.get(user=ada, article=article).read_at
    with django_assert_num_queries(1):
        services.mark_opened(article, ada)  # again: still read since the first time
    assert list(ArticleRead.objects.filter(user=ada).values_list("article_id", "read_at")) == [(article.pk, first)]
