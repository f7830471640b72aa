"""Deleting a site keeps the alerts already sent about its articles: a delivery claimed, sent or failed outlives its
article (alerts.models.keep_sent), with the title and address it was sent with, and the subscriptions page still
counts it. A delivery still waiting goes with its article: nothing was sent, and nothing will be."""

import re

import pytest
from django.core import mail
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse

from alerts import services
from alerts.models import Delivery, Subscription
from classifier import services as kb_services
from monitor import services as monitor_services
from monitor.models import Site

pytestmark = pytest.mark.django_db


def counts(page: str) -> dict[str, str]:
    return dict(re.findall(r'<td data-label="(Waiting|Sent|Failed)">(?:<strong class="error">)?(\d+)', page))


def test_a_deleted_sites_sent_and_failed_alerts_stay_counted_and_named(
    client, reader, editor, tree, news, make_article, suggest
):
    """Deleting a site took its deliveries with it (CASCADE from the article): /alerts/ said SENT 0 for mail that
    was sent, and the failures listed went too."""
    sub = services.save_subscription(Subscription(user=reader, folder=tree["health"]))
    sent, failed = make_article(title="Measles in Leeds"), make_article(title="Measles in York")
    for article in (sent, failed):
        kb_services.accept(suggest(article, tree["health"]), editor)
    assert [services.send(pk) for pk in services.scan()] == ["sent 2 by email"] and len(mail.outbox) == 1
    Delivery.objects.filter(article=failed).update(state=Delivery.State.FAILED, error="mailbox full")
    kb_services.accept(suggest(make_article(title="Measles in Hull"), tree["health"]), editor)
    services.scan()
    assert Delivery.objects.filter(subscription=sub, state=Delivery.State.PENDING).count() == 1
    client.force_login(reader)
    assert counts(client.get(reverse("alerts:list")).content.decode()) == {"Waiting": "1", "Sent": "1", "Failed": "1"}

    monitor_services.delete_sites(Site.objects.filter(pk=news.pk))

    rows = {row.state: row for row in Delivery.objects.filter(subscription=sub)}
    assert set(rows) == {Delivery.State.SENT, Delivery.State.FAILED}, "the one waiting went with its article"
    assert rows[Delivery.State.SENT].article_id is None and rows[Delivery.State.SENT].sent_at is not None
    assert (rows[Delivery.State.SENT].article_title, rows[Delivery.State.SENT].article_url) == (sent.title, sent.url)
    page = client.get(reverse("alerts:list")).content.decode()
    assert counts(page) == {"Waiting": "0", "Sent": "1", "Failed": "1"}
    assert 'Measles in York <span class="muted">(deleted since, with its site)</span>' in page
    assert services.retry_failed(sub) == 0, "nothing to send again: the article is gone"
    assert services.send(sub.pk) == "nothing due" and len(mail.outbox) == 1


def test_an_article_deleted_while_its_delivery_is_claimed_is_recorded_not_sent(
    reader, editor, tree, news, make_article, suggest
):
    sub = services.save_subscription(Subscription(user=reader, folder=tree["health"]))
    article = make_article(title="Measles in Bath")
    kb_services.accept(suggest(article, tree["health"]), editor)
    services.scan()
    Delivery.objects.filter(subscription=sub).update(state=Delivery.State.SENDING, article_title=article.title)
    article.delete()
    row = Delivery.objects.get(subscription=sub)
    assert row.article_id is None and row.article_title == "Measles in Bath", "claimed: it may have been sent"
    Delivery.objects.filter(pk=row.pk).update(state=Delivery.State.PENDING)  # as a dead worker's lease expiring
    assert services.send(sub.pk) == f"failed after 1 attempts: {services.ARTICLE_DELETED}" and not mail.outbox


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_the_title_and_address_of_what_was_sent():
    """Deliveries sent before the migration get their article's title and address from it."""
    executor = MigrationExecutor(connection)
    executor.migrate([("alerts", "0002_scan_schedule")])
    try:
        executor.loader.build_graph()
        old = executor.loader.project_state(list(executor.loader.applied_migrations)).apps
        user = old.get_model("auth", "User").objects.create(username="old-reader", password="!")
        folder = old.get_model("classifier", "Folder").objects.create(name="Old", path="Old")
        site = old.get_model("monitor", "Site").objects.create(name="Old Daily", home_url="https://old.example/")
        Article = old.get_model("monitor", "Article")
        sent = Article.objects.create(site=site, url="https://old.example/sent", title="Sent before")
        waiting = Article.objects.create(site=site, url="https://old.example/waiting", title="Waiting")
        sub = old.get_model("alerts", "Subscription").objects.create(user=user, folder=folder)
        OldDelivery = old.get_model("alerts", "Delivery")
        OldDelivery.objects.create(subscription=sub, article=sent, state="sent")
        OldDelivery.objects.create(subscription=sub, article=waiting, state="pending")
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
    titles = dict(Delivery.objects.values_list("article__url", "article_title"))
    assert titles == {"https://old.example/sent": "Sent before", "https://old.example/waiting": ""}
    assert Delivery.objects.get(article_title="Sent before").article_url == "https://old.example/sent"
