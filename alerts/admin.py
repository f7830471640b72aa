"""Alerts in the admin: a superuser allows a subscription's notification URL to reach private addresses
(the one change made here; subscribers manage the rest on their subscriptions page), and reads deliveries."""

from django.contrib import admin

from alerts.models import Delivery, Subscription
from foundation.admin import ReadOnlyAdmin


@admin.register(Subscription)
class SubscriptionAdmin(admin.ModelAdmin):
    list_display = ["user", "target_name", "frequency", "channel", "notify_url", "allow_private_addresses"]
    list_filter = ["frequency", "channel", "allow_private_addresses"]
    search_fields = ["user__username", "folder__path", "saved_search__name", "notify_url"]
    fields = ["user", "folder", "saved_search", "frequency", "channel", "notify_url", "allow_private_addresses"]
    readonly_fields = ["user", "folder", "saved_search", "frequency", "channel", "notify_url"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return request.user.is_superuser  # reaching private addresses is a superuser's decision


@admin.register(Delivery)
class DeliveryAdmin(ReadOnlyAdmin):
    list_display = ["subscription", "article", "article_title", "state", "attempts", "due_at", "sent_at", "error"]
    list_filter = ["state"]
    raw_id_fields = ["article"]
