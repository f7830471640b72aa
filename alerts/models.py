"""Subscriptions to folders and saved searches, and the deliveries that record what was (to be) sent.

The database is the record of work: the scan (alerts.services.scan, every 30 s) writes one Delivery per
(subscription, article) it finds — unique, so an article is never queued twice for one subscription — and
the send task claims due deliveries with a conditional UPDATE before it sends, so a message delivered twice
or a task run twice sends nothing more. See docs/architecture.md, "Alerts and digests".
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone

from alerts import schedule, schemes


def validate_time_zone(value: str) -> None:
    if not schedule.is_time_zone(value):
        raise ValidationError(f"{value!r} is not a time zone name such as Europe/Berlin or America/New_York.")


class Subscription(models.Model):
    """A user's subscription to a folder (and the folders below it) or to a saved search, on one channel."""

    class Frequency(models.TextChoices):
        IMMEDIATE = schedule.IMMEDIATE, "Immediately"
        DAILY = schedule.DAILY, "Daily digest"
        WEEKLY = schedule.WEEKLY, "Weekly digest"

    class Channel(models.TextChoices):
        EMAIL = "email", "E-mail to my address"
        APPRISE = "apprise", "Notification URL (Apprise)"

    class Weekday(models.IntegerChoices):
        MONDAY = 0, "Monday"
        TUESDAY = 1, "Tuesday"
        WEDNESDAY = 2, "Wednesday"
        THURSDAY = 3, "Thursday"
        FRIDAY = 4, "Friday"
        SATURDAY = 5, "Saturday"
        SUNDAY = 6, "Sunday"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="subscriptions")
    folder = models.ForeignKey(
        "classifier.Folder", null=True, blank=True, on_delete=models.CASCADE, related_name="subscriptions"
    )
    saved_search = models.ForeignKey(
        "search.SavedSearch", null=True, blank=True, on_delete=models.CASCADE, related_name="subscriptions"
    )
    frequency = models.CharField(max_length=10, choices=Frequency.choices, default=schedule.IMMEDIATE)
    send_time = models.TimeField(default=datetime.time(8, 0), help_text="Digests: the time of day, in the time zone.")
    weekday = models.PositiveSmallIntegerField(
        choices=Weekday.choices, default=Weekday.MONDAY, help_text="Weekly digests: the day."
    )
    time_zone = models.CharField(max_length=64, default="UTC", validators=[validate_time_zone])
    channel = models.CharField(max_length=10, choices=Channel.choices, default=Channel.EMAIL)
    notify_url = models.CharField(
        max_length=2000,
        blank=True,
        help_text="One or more Apprise URLs (separated by spaces or commas) of the services WIMS sends to: "
        f"{schemes.services_text()}.",
    )
    allow_private_addresses = models.BooleanField(
        default=False,
        help_text="Let the notification URL reach loopback or private addresses (a superuser's decision).",
    )
    created_at = models.DateTimeField(default=timezone.now)
    #: matches decided (folders) or processed (saved searches) up to here have been scanned
    cursor = models.DateTimeField(default=timezone.now)
    #: digests: when the next one goes out (UTC); empty for immediate alerts
    next_digest_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["user_id", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(folder__isnull=False, saved_search__isnull=True)
                | models.Q(folder__isnull=True, saved_search__isnull=False),
                name="subscription_one_target",
            ),
            models.CheckConstraint(
                condition=~models.Q(channel="apprise", notify_url=""), name="subscription_apprise_has_url"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} → {self.target_name} ({self.get_frequency_display()})"

    @property
    def target_name(self) -> str:
        if self.folder_id:
            return self.folder.path  # type: ignore[union-attr]  # folder_id set: a Folder
        name = str(self.saved_search)
        # a name with quotes of its own is not quoted again (a live trial: "““Asthma watch” — santé”")
        return f"saved search {name}" if any(mark in name for mark in '“”"«»') else f"saved search “{name}”"


def keep_sent(collector, field, sub_objs, using) -> None:
    """Delivery.article's on_delete: a delivery still waiting goes with its article (nothing was sent), one claimed
    to be sent, sent or failed stays without it (article set to NULL), with the title and address it was sent
    with: the subscriber's count of what was sent stays true when a site administrator deletes a site."""
    waiting = Delivery.State.PENDING
    models.CASCADE(collector, field, sub_objs.filter(state=waiting), using)
    collector.add_field_update(field, None, sub_objs.exclude(state=waiting))


keep_sent.lazy_sub_objs = True  # type: ignore[attr-defined]  # as SET_NULL's: the querysets stay lazy


class Delivery(models.Model):
    """One article for one subscription: pending until due, sending while claimed, then sent or failed.

    From its claim on, it holds the article's title and address as sent: a delivery sent or failed outlives its
    article (keep_sent), and the subscriptions page still counts and names it."""

    class State(models.TextChoices):
        PENDING = "pending", "Waiting"
        SENDING = "sending", "Sending"
        SENT = "sent", "Sent"
        FAILED = "failed", "Failed"

    subscription = models.ForeignKey(Subscription, on_delete=models.CASCADE, related_name="deliveries")
    #: empty: the article was deleted (with its site) after the delivery was claimed, sent or failed
    article = models.ForeignKey("monitor.Article", null=True, blank=True, on_delete=keep_sent, related_name="+")
    #: the article's title and address when the delivery was claimed to be sent: kept when the article goes
    article_title = models.CharField(max_length=500, blank=True)
    article_url = models.URLField(max_length=2000, blank=True)
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    created_at = models.DateTimeField(default=timezone.now)
    #: when it may be sent: now for immediate alerts, the digest time for digests, later after a failure
    due_at = models.DateTimeField(default=timezone.now)
    attempts = models.PositiveIntegerField(default=0)
    #: the send run that claimed it (a random token), and until when that claim holds
    claim = models.CharField(max_length=32, blank=True)
    lease_until = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "deliveries"
        constraints = [models.UniqueConstraint(fields=["subscription", "article"], name="unique_delivery")]
        indexes = [models.Index(fields=["state", "due_at"], name="delivery_work_idx")]

    def __str__(self) -> str:
        return f"article {self.article_id} for subscription {self.subscription_id}: {self.state}"
