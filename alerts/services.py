"""Alerts and digests, one function per use case: save a subscription, scan for new matches, send what is due,
retry failures, unsubscribe.

How an article is never sent twice for one subscription, even when the scan runs twice, a send task is
delivered twice, retried, or its worker is killed mid-send:

* the scan records matches as Delivery rows, unique per (subscription, article) (inserts that conflict are
  ignored), and re-reads a window of OVERLAP before its cursor so that a decision committed late is not missed;
* a send claims the due rows with one conditional UPDATE (pending -> sending, under a random token), so two
  runs never hold the same row, and marks them sent or failed by that token afterwards;
* a row left "sending" after its lease (the worker died between claiming and recording the outcome: the message
  may or may not have gone out) is marked failed with that explanation, never sent again by itself: at most
  once, and shown to the subscriber, who can send it again from the subscriptions page.

A send that fails with a transient error (connection refused, a 5xx from the notification service) returns its
rows to pending with a backoff; after WIMS_ALERT_MAX_ATTEMPTS tries, or on a permanent error, they fail.
"""

from __future__ import annotations

import logging
import uuid
from datetime import datetime, timedelta

from django.conf import settings
from django.core import signing
from django.db import transaction
from django.db.models import F, OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils import timezone

from alerts import channels, compose, schedule
from alerts.models import Delivery, Subscription
from classifier.models import Classification, Folder
from foundation import metrics
from foundation.roles import EXPERTS
from monitor.models import Article
from search.models import SavedSearch
from search.services import QuerySyntaxError, saved_search_articles

log = logging.getLogger(__name__)

#: how far before its cursor each scan looks again (a transaction that commits late keeps its decided_at)
OVERLAP = timedelta(minutes=10)
#: a claim older than this is a dead worker's (the send task's hard time limit is shorter)
LEASE = timedelta(minutes=10)
UNSUBSCRIBE_SALT = "alerts.unsubscribe"
#: articles in one message at most; the rest go in the next one (a new subscription to a busy search)
MAX_PER_MESSAGE = 100
ARTICLE_DELETED = "the article was deleted (with its site) before it was sent"
INTERRUPTED = (
    "The worker stopped while sending this (it may or may not have arrived); it is not sent again by itself "
    "so that nobody gets it twice. Use “Send failed again” to retry."
)
NOT_ENTITLED = (
    "Not sent: the account is no longer an active expert's, or the saved search is no longer yours or public."
)


def next_digest_at(subscription: Subscription, after: datetime) -> datetime | None:
    return schedule.next_send_at(
        after, subscription.frequency, subscription.send_time, subscription.weekday, subscription.time_zone
    )


# --------------------------------------------------------------------------- subscriptions
@transaction.atomic
def save_subscription(subscription: Subscription) -> Subscription:
    """Create or change a subscription: schedules its next digest and re-times what waits for it.

    A new subscription, or one moved to another target, alerts only on what happens after now."""
    now = timezone.now()
    before = Subscription.objects.filter(pk=subscription.pk).values("folder_id", "saved_search_id").first()
    if before != {"folder_id": subscription.folder_id, "saved_search_id": subscription.saved_search_id}:
        # new, or following something else now: from now on (nothing of the new target's past)
        subscription.created_at = subscription.cursor = now
    subscription.next_digest_at = next_digest_at(subscription, now)
    subscription.full_clean()
    subscription.save()
    # waiting rows follow the new schedule; rows backing off after a failure keep their time
    subscription.deliveries.filter(state=Delivery.State.PENDING, attempts=0).update(
        due_at=subscription.next_digest_at or now
    )
    return subscription


def unsubscribe_token(subscription: Subscription) -> str:
    """Signed (salted, the SECRET_KEY), without a date: every message of a subscription carries the same link,
    and an old message's link keeps working."""
    return signing.Signer(salt=UNSUBSCRIBE_SALT).sign_object([subscription.pk, subscription.user_id])


def unsubscribe_url(subscription: Subscription) -> str:
    return compose.absolute(reverse("alerts:unsubscribe", args=[unsubscribe_token(subscription)]))


def subscription_for_token(token: str) -> Subscription | None:
    """The subscription a signed unsubscribe token names (None: already gone); BadSignature if forged."""
    pk, user_id = signing.Signer(salt=UNSUBSCRIBE_SALT).unsign_object(token)
    return Subscription.objects.select_related("folder", "saved_search").filter(pk=pk, user_id=user_id).first()


def unsubscribe(subscription: Subscription) -> None:
    subscription.delete()


def retry_failed(subscription: Subscription) -> int:
    """Send the subscription's failed deliveries again, at the next scan."""
    # one whose article was deleted since (with its site) stays failed: there is nothing to send
    return subscription.deliveries.filter(state=Delivery.State.FAILED, article__isnull=False).update(
        state=Delivery.State.PENDING, due_at=timezone.now(), attempts=0, error=""
    )


# --------------------------------------------------------------------------- scan
def entitled() -> QuerySet[Subscription]:
    """Subscriptions whose user may still receive them: an active expert (or superuser), and a saved search
    of their own or a public one. The others are skipped, and a send for them fails with the reason."""
    role = Q(user__is_superuser=True) | Q(user__groups__name=EXPERTS)
    search = Q(saved_search__isnull=True) | Q(saved_search__owner=F("user")) | Q(saved_search__public=True)
    return Subscription.objects.filter(
        pk__in=Subscription.objects.filter(role, search, user__is_active=True).values("pk")
    )


def _folder_matches(folder: Folder, since: datetime) -> list[tuple[int, datetime]]:
    """(article, decided_at) of the articles an expert accepted into the folder or below it since ``since``."""
    rows = Classification.objects.filter(
        folder.subtree_q("folder__"),
        state=Classification.State.ACCEPTED,
        updated_at__gte=since,  # implied by decided_at (updated with it): lets the feed index narrow the scan
        decided_at__gte=since,
        case__article__isnull=False,
    )
    return [(pk, at) for pk, at in rows.values_list("case__article_id", "decided_at") if at is not None]


def _saved_search_matches(saved: SavedSearch, since: datetime) -> list[tuple[int, datetime]]:
    """(article, processed_at) of the articles processed since ``since`` that match the saved search."""
    rows = saved_search_articles(saved).filter(state=Article.State.PROCESSED, processed_at__gte=since)
    return [(pk, at) for pk, at in rows.values_list("pk", "processed_at") if at is not None]


def _matches(
    sub: Subscription, since: datetime, cache: dict[tuple, list[tuple[int, datetime]]]
) -> list[tuple[int, datetime]]:
    # subscriptions to one target scanned up to one cursor (the usual case: every cursor moves to the same scan
    # time) share one query
    key = ("folder", sub.folder_id, since) if sub.folder_id else ("search", sub.saved_search_id, since)
    if key not in cache:
        if sub.folder is not None:
            cache[key] = _folder_matches(sub.folder, since)
        else:
            assert sub.saved_search is not None  # noqa: S101 - one target or the other (a check constraint)
            cache[key] = _saved_search_matches(sub.saved_search, since)
    return cache[key]


def _due(sub: Subscription, matched_at: datetime, digest_came: datetime | None, now: datetime) -> datetime:
    """When a new match goes out: now (immediate); in the digest whose time just came if it matched before it,
    even when the scan runs a few seconds after that time; else in the next digest."""
    if sub.next_digest_at is None:
        return now
    if digest_came is not None and matched_at < digest_came:
        return digest_came
    return sub.next_digest_at


def scan(now: datetime | None = None) -> list[int]:
    """Record new matches as deliveries, fail dead workers' claims, move digests on; the subscriptions that
    have deliveries due now (for the caller to send)."""
    now = now or timezone.now()
    # 1. a worker died while sending: at most once, so fail the rows and say why (a claim was one message; only
    # the scan whose update takes it counts it)
    dead = Delivery.objects.filter(state=Delivery.State.SENDING, lease_until__lt=now)
    for claim, frequency in set(dead.values_list("claim", "subscription__frequency")):
        if dead.filter(claim=claim).update(state=Delivery.State.FAILED, error=INTERRUPTED, claim="", lease_until=None):
            metrics.ALERT_MESSAGES.labels(kind=_kind(frequency), outcome="failed").inc()
    # 2. digests whose time came: what waits for them is due; the next one is scheduled (one conditional update
    # per schedule, so that two scans at once move each digest once)
    came = dict(Subscription.objects.filter(next_digest_at__lte=now).values_list("pk", "next_digest_at"))
    schedules = (
        Subscription.objects.filter(next_digest_at__lte=now)
        .order_by()  # the model's ordering would make DISTINCT per user
        .values("frequency", "send_time", "weekday", "time_zone", "next_digest_at")
        .distinct()
    )
    for plan in schedules:
        following = next_digest_at(Subscription(**plan), now)
        Subscription.objects.filter(**plan).update(next_digest_at=following)
    # 3. new matches since each cursor
    unsearchable: list[int] = []
    rows: list[Delivery] = []
    cache: dict[tuple, list[tuple[int, datetime]]] = {}
    for sub in entitled().select_related("folder", "saved_search"):
        since = max(sub.created_at, sub.cursor - OVERLAP)
        try:
            found = _matches(sub, sub.cursor - OVERLAP, cache)
        except QuerySyntaxError as exc:
            # a saved search that cannot be searched any more: the others go on; its cursor stays, so what it
            # matches meanwhile is found once it is fixed
            log.warning("subscription %s: saved search %s: %s", sub.pk, sub.saved_search_id, exc)
            unsearchable.append(sub.pk)
            continue
        first: dict[int, datetime] = {}  # an article accepted into two folders of the subtree: the first time
        for pk, at in found:
            if at >= since and (pk not in first or at < first[pk]):
                first[pk] = at
        rows += [
            Delivery(subscription=sub, article_id=pk, due_at=_due(sub, at, came.get(sub.pk), now), created_at=now)
            for pk, at in first.items()
        ]
    Delivery.objects.bulk_create(rows, ignore_conflicts=True, batch_size=1000)
    # every cursor moves on, the unentitled ones' too: a subscriber who regains the role gets no backlog
    Subscription.objects.filter(cursor__lt=now).exclude(pk__in=unsearchable).update(cursor=now)
    # 4. what is due
    due_subscriptions = Delivery.objects.filter(state=Delivery.State.PENDING, due_at__lte=now)
    return sorted(due_subscriptions.order_by().values_list("subscription_id", flat=True).distinct())


def _kind(frequency: str) -> str:
    """What a subscription's messages are, for the metrics: an alert (immediately) or a digest."""
    return "alert" if frequency == Subscription.Frequency.IMMEDIATE else "digest"


# --------------------------------------------------------------------------- send
def _backoff(attempts: int) -> timedelta:
    return timedelta(seconds=min(3600, 60 * 2 ** max(0, attempts - 1)))


def send(subscription_id: int, now: datetime | None = None) -> str:
    """Send the subscription's due deliveries as one message (an alert, or the digest); record the outcome."""
    now = now or timezone.now()
    token = uuid.uuid4().hex
    due = Delivery.objects.filter(subscription_id=subscription_id, state=Delivery.State.PENDING, due_at__lte=now)
    batch = list(due.order_by("due_at", "id").values_list("pk", flat=True)[:MAX_PER_MESSAGE])
    # the conditional UPDATE is the claim: a row another run took meanwhile is no longer pending. It records the
    # article's title and address as sent, which the delivery keeps if the article is deleted (models.keep_sent).
    article = Article.objects.filter(pk=OuterRef("article_id"))
    claimed = due.filter(pk__in=batch).update(
        state=Delivery.State.SENDING,
        claim=token,
        lease_until=now + LEASE,
        attempts=F("attempts") + 1,
        article_title=Coalesce(Subquery(article.values("title")[:1]), Value("")),
        article_url=Coalesce(Subquery(article.values("url")[:1]), Value("")),
    )
    if not claimed:
        return "nothing due"
    mine = Delivery.objects.filter(claim=token, state=Delivery.State.SENDING)
    rows: list[Delivery] = []
    kind = "unknown"  # until the subscription is read
    try:
        sub = Subscription.objects.select_related("user", "folder", "saved_search").get(pk=subscription_id)
        kind = _kind(sub.frequency)
        rows = list(
            mine.select_related("article__site", "article__content").order_by(
                "created_at", "article__collected_at", "id"
            )
        )
        if not entitled().filter(pk=sub.pk).exists():
            raise channels.DeliveryError(NOT_ENTITLED, transient=False)
        # an article deleted since the claim (with its site) is not sent; its delivery is recorded with the others
        articles = [row.article for row in rows if row.article is not None]
        if not articles:
            raise channels.DeliveryError(ARTICLE_DELETED, transient=False)
        message = compose.message(sub, articles, unsubscribe_url(sub))
        if sub.channel == Subscription.Channel.EMAIL:
            channels.send_email(sub.user.email, message)
        else:
            channels.send_notification(sub.notify_url, message, sub.allow_private_addresses)
    except Subscription.DoesNotExist:
        return "unsubscribed meanwhile"  # its deliveries went with it
    except channels.DeliveryError as exc:
        return _failed(mine, rows, kind, str(exc), exc.transient, now)
    except Exception as exc:
        # a bug or an unexpected library error: recorded for the subscriber, logged for the administrator
        log.exception("subscription %s: sending failed", subscription_id)
        return _failed(mine, rows, kind, f"unexpected error: {type(exc).__name__}: {exc}", False, now)
    mine.update(state=Delivery.State.SENT, sent_at=timezone.now(), error="", claim="", lease_until=None)
    metrics.ALERT_MESSAGES.labels(kind=kind, outcome="sent").inc()
    return f"sent {len(rows)} by {sub.channel}"


def _failed(mine, rows: list[Delivery], kind: str, error: str, transient: bool, now: datetime) -> str:
    attempts = max((row.attempts for row in rows), default=1)
    if transient and attempts < settings.WIMS_ALERT_MAX_ATTEMPTS:
        due = now + _backoff(attempts)
        mine.update(state=Delivery.State.PENDING, due_at=due, error=error, claim="", lease_until=None)
        metrics.ALERT_MESSAGES.labels(kind=kind, outcome="retry").inc()
        return f"will retry ({attempts} attempts): {error}"
    mine.update(state=Delivery.State.FAILED, error=error, claim="", lease_until=None)
    metrics.ALERT_MESSAGES.labels(kind=kind, outcome="failed").inc()
    return f"failed after {attempts} attempts: {error}"
