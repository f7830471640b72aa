"""An article's place in an inbox view (selectors.view_position): its neighbours and the capped counts, as the
view's rows in inbox order give them, for every article of a view, ties of collected_at included."""

from datetime import UTC, datetime, timedelta

import pytest

from classifier import selectors
from monitor.models import Article, Site


@pytest.mark.django_db
@pytest.mark.parametrize("cap", [3, 1000])
def test_the_position_is_the_view_s_order_counted_up_to_the_cap(monkeypatch, cap):
    """Newer and older neighbours, the count before the article and the view's total (both capped at cap + 1,
    "more than cap"), and whether the article is in the view: for articles in the view and out of it. The
    total reuses the capped count of the newer rows (the rest counted only up to the cap)."""
    monkeypatch.setattr(selectors, "COUNT_CAP", cap)
    daily, other = (Site.objects.create(name=n, home_url=f"https://{n}.example/") for n in ("daily", "other"))
    start = datetime(2026, 3, 1, tzinfo=UTC)
    articles = []
    for i in range(9):
        site = other if i in (2, 6) else daily
        article = Article.objects.create(site=site, url=f"https://x.example/{i}", title=f"t{i}")
        # pairs collected in the same second: the id breaks the tie, as in the inbox's order
        Article.objects.filter(pk=article.pk).update(collected_at=start + timedelta(seconds=i // 2))
        articles.append(Article.objects.get(pk=article.pk))
    view = selectors.inbox_queryset(site_id=daily.pk)
    rows = sorted((a for a in articles if a.site_id == daily.pk), key=lambda a: (a.collected_at, a.pk), reverse=True)
    for article in articles:
        key = (article.collected_at, article.pk)
        newer = [a for a in rows if (a.collected_at, a.pk) > key]
        older = [a for a in rows if (a.collected_at, a.pk) < key]
        position = selectors.view_position(view, article)
        assert position.newer_count == min(len(newer), cap + 1), article.pk
        assert position.total == min(len(rows), cap + 1), article.pk
        assert position.in_view == (article.site_id == daily.pk)
        assert (position.newer.pk if position.newer else None) == (newer[-1].pk if newer else None)
        assert (position.older.pk if position.older else None) == (older[0].pk if older else None)
    last = selectors.view_position(view, rows[-1])
    assert last.text == ("more than 3 of more than 3 in this view" if cap == 3 else "7 of 7 in this view")


@pytest.mark.django_db
@pytest.mark.parametrize("cap", [2, 1000])
def test_the_position_in_every_kind_of_view_is_the_orm_s_order(monkeypatch, django_user_model, cap):
    """The position's SQL selects from the view's own compiled SQL: views whose SQL holds parameters of every
    kind (dates, states, an EXISTS with the reader's id, an assignee), ties and microseconds in collected_at (on
    SQLite compared as text), an empty view. Each article's neighbours and counts are those of the view's rows
    as the ORM orders them."""
    from datetime import date

    from classifier.models import ArticleRead

    monkeypatch.setattr(selectors, "COUNT_CAP", cap)
    reader = django_user_model.objects.create_user("reader")
    sites = [Site.objects.create(name=n, home_url=f"https://{n}.example/") for n in ("daily", "other")]
    start = datetime(2026, 3, 1, 23, 59, 59, tzinfo=UTC)
    states = ["unreviewed", "suggested", "reviewed", "correction"]
    articles = []
    for i in range(14):
        article = Article.objects.create(site=sites[i % 2], url=f"https://x.example/{i}", title=f"t{i}")
        # ties (two a second), a microsecond apart, across a day's end
        when = start + timedelta(seconds=i // 3, microseconds=(i % 3 == 1) * 1)
        Article.objects.filter(pk=article.pk).update(
            collected_at=when,
            state=Article.State.PROCESSED if i != 5 else Article.State.FAILED,
            review_state=states[i % 4],
            assignee=reader if i % 3 == 0 else None,
        )
        if i % 2:
            ArticleRead.objects.create(user=reader, article=article)
        articles.append(Article.objects.get(pk=article.pk))
    views = [
        selectors.inbox_queryset(state="waiting"),  # the inbox's default: an EXISTS on cases
        selectors.inbox_queryset(state="any"),
        selectors.inbox_queryset(state="suggested", site_id=sites[1].pk),
        selectors.inbox_queryset(state="any", unread_by=reader.pk),
        selectors.inbox_queryset(state="any", read_by=reader.pk, assignee=reader.pk),
        selectors.inbox_queryset(state="any", assignee="none", date_from=date(2026, 3, 2)),
        selectors.inbox_queryset(state="any", date_to=date(2026, 3, 1)),
        selectors.inbox_queryset(site_id=sites[1].pk + 100),  # empty
    ]
    for n, view in enumerate(views):
        rows = list(view.order_by("-collected_at", "-id").values_list("collected_at", "id"))
        for article in articles:
            key = (article.collected_at, article.pk)
            newer = [r for r in rows if r > key]
            older = [r for r in rows if r < key]
            position = selectors.view_position(view, article)
            assert position.newer_count == min(len(newer), cap + 1), (n, article.pk)
            assert position.total == min(len(rows), cap + 1), (n, article.pk)
            assert position.in_view == (key in rows), (n, article.pk)
            assert (position.newer.pk if position.newer else None) == (newer[-1][1] if newer else None), (n, article.pk)
            assert (position.older.pk if position.older else None) == (older[0][1] if older else None), (n, article.pk)
    assert selectors.view_position(views[-1], articles[0]).text == "no longer in this view (0 articles in it)"
