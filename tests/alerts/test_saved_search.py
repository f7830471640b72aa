"""Subscriptions to saved searches: newly processed articles that match (search.services.saved_search_articles)."""

import datetime

import pytest
from django.core import mail
from django.utils import timezone

from alerts import services
from alerts.models import Delivery, Subscription
from monitor.models import Article
from search import services as search_services
from search.models import SavedSearch

pytestmark = pytest.mark.django_db


@pytest.fixture
def indexed(make_article):
    def make(title, text, **fields):
        article = make_article(title=title, abstract=text, core_text=text, **fields)
        search_services.index_article(article)
        return article

    return make


def test_a_newly_processed_matching_article_is_sent_once(reader, indexed):
    old = indexed("Old measles story", "measles in the past", processed_at=timezone.now() - datetime.timedelta(days=1))
    saved = SavedSearch.objects.create(owner=reader, name="Measles not football", query="measles -football")
    sub = services.save_subscription(Subscription(user=reader, saved_search=saved))
    hit = indexed("Measles outbreak", "measles cases in the north")
    indexed("Football and measles", "football measles match")
    indexed("Flu", "influenza season")
    indexed("Measles pending", "measles again", state=Article.State.FETCHED)
    assert services.scan() == [sub.pk]
    assert list(Delivery.objects.values_list("article_id", flat=True)) == [hit.pk]
    assert services.send(sub.pk) == "sent 1 by email"
    (message,) = mail.outbox
    assert "Measles outbreak" in message.subject and "Measles not football" in message.subject
    assert old.url not in message.body
    assert services.scan() == [] and len(mail.outbox) == 1


def test_a_saved_search_that_cannot_be_searched_does_not_stop_the_others(reader, indexed, tree, editor, suggest):
    from classifier import services as kb_services

    broken = SavedSearch.objects.create(owner=reader, name="broken", query="-only -negations")
    services.save_subscription(Subscription(user=reader, saved_search=broken))
    folder_sub = services.save_subscription(Subscription(user=reader, folder=tree["health"]))
    kb_services.accept(suggest(indexed("Measles", "measles"), tree["health"]), editor)
    assert services.scan() == [folder_sub.pk]
