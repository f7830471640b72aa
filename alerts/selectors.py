"""Read-side queries of the subscriptions page."""

from __future__ import annotations

from django.db.models import Count, Q, QuerySet

from alerts.models import Delivery, Subscription

RECENT_FAILURES = 5


def subscriptions_with_counts(user) -> QuerySet[Subscription]:
    """The user's subscriptions, each with how many of its deliveries wait, were sent and failed (the page's
    rows and the API's)."""
    State = Delivery.State
    return Subscription.objects.filter(user=user).annotate(
        waiting=Count("deliveries", filter=Q(deliveries__state__in=[State.PENDING, State.SENDING])),
        sent=Count("deliveries", filter=Q(deliveries__state=State.SENT)),
        failed=Count("deliveries", filter=Q(deliveries__state=State.FAILED)),
    )


def subscriptions_page(user) -> list[dict]:
    """Each of the user's subscriptions with its delivery counts and its latest failures (errors shown)."""
    State = Delivery.State
    subs = subscriptions_with_counts(user).select_related("folder", "saved_search").order_by("id")
    rows = []
    for sub in subs:
        retrying = list(
            sub.deliveries.filter(state=State.PENDING).exclude(error="").select_related("article")[:RECENT_FAILURES]
        )
        failures = list(sub.deliveries.filter(state=State.FAILED).select_related("article")[:RECENT_FAILURES])
        rows.append({"sub": sub, "failures": failures, "retrying": retrying})
    return rows
