"""Subscriptions through the REST API, at /api/subscriptions/ (wims/urls.py mounts them; nothing imports this app).

The same rules as the subscriptions pages: a serializer's input is checked by the pages' own form
(alerts.forms.SubscriptionForm: one target, an e-mail address or a notification URL that may be reached, a
saved search of one's own or a public one) and saved by alerts.services.save_subscription, which schedules the
next digest. Experts only, their own subscriptions only: another's answers 404.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from alerts import selectors, services
from alerts.forms import SubscriptionForm, subscribable_saved_searches
from alerts.models import Subscription
from foundation.api_permissions import IsExpert


class SubscriptionSerializer(serializers.ModelSerializer):
    waiting = serializers.IntegerField(read_only=True, help_text="Deliveries waiting to be sent.")
    sent = serializers.IntegerField(read_only=True, help_text="Deliveries sent.")
    failed = serializers.IntegerField(read_only=True, help_text="Deliveries that failed (POST …/retry/ resends).")

    class Meta:
        model = Subscription
        # the page's choices, then what the API adds
        fields = ["id", *SubscriptionForm.Meta.fields, "created_at", "next_digest_at", "waiting", "sent", "failed"]
        read_only_fields = ["created_at", "next_digest_at"]

    def get_fields(self):
        fields = super().get_fields()
        request = self.context.get("request")
        if request is not None and request.user.is_authenticated:  # (not the open schema's)
            # another's private saved search does not exist for you (as at /api/saved-searches/): its id answers
            # as a free one does, not as one the form refuses
            fields["saved_search"].queryset = subscribable_saved_searches(request.user)
        return fields

    def validate(self, attrs: dict) -> dict:
        user = self.context["request"].user
        current = self.instance.allow_private_addresses if self.instance is not None else False
        # a change is refused, not the value: a representation sent back unchanged keeps a superuser's allowance
        if attrs.get("allow_private_addresses", current) != current and not user.is_superuser:
            raise serializers.ValidationError(
                {"allow_private_addresses": ["Reaching private addresses is a superuser's decision."]}
            )
        subscription = self.instance or Subscription(user=user)
        data = {name: getattr(subscription, name) for name in SubscriptionForm.Meta.fields}
        data.update(attrs)
        for name in ("folder", "saved_search"):  # the form reads ids, as a page posts them
            data[name] = data[name].pk if data[name] is not None else None
        form = SubscriptionForm(data, user=user, instance=subscription)
        if not form.is_valid():
            errors = form.errors.items()
            raise serializers.ValidationError(
                {
                    ("non_field_errors" if name == "__all__" else name): [str(m) for m in messages]
                    for name, messages in errors
                }
            )
        self._checked = form.instance
        return attrs

    def create(self, validated_data: dict) -> Subscription:
        return services.save_subscription(self._checked)

    def update(self, instance: Subscription, validated_data: dict) -> Subscription:
        return services.save_subscription(self._checked)


@extend_schema_view(
    list=extend_schema(summary="Your subscriptions, newest first, with their delivery counts"),
    create=extend_schema(summary="Subscribe to a folder or a saved search"),
    retrieve=extend_schema(summary="One of your subscriptions"),
    update=extend_schema(summary="Change a subscription"),
    partial_update=extend_schema(summary="Change part of a subscription"),
    destroy=extend_schema(summary="Unsubscribe"),
)
class SubscriptionViewSet(viewsets.ModelViewSet):
    """An expert's own subscriptions (alerts and digests); another's answer 404."""

    permission_classes = [IsExpert]
    serializer_class = SubscriptionSerializer
    queryset = Subscription.objects.none()

    def get_queryset(self):
        return selectors.subscriptions_with_counts(self.request.user)

    def perform_create(self, serializer) -> None:
        serializer.instance = self.get_queryset().get(pk=serializer.save().pk)  # with its counts

    def perform_update(self, serializer) -> None:
        serializer.instance = self.get_queryset().get(pk=serializer.save().pk)

    def perform_destroy(self, instance: Subscription) -> None:
        services.unsubscribe(instance)

    @extend_schema(summary="Send the failed deliveries again", request=None, responses=SubscriptionSerializer)
    @action(detail=True, methods=["post"])
    def retry(self, request: Request, pk=None) -> Response:
        services.retry_failed(self.get_object())
        return Response(self.get_serializer(self.get_queryset().get(pk=pk)).data)
