"""The subscription form: what to follow, how often, where to."""

from __future__ import annotations

from zoneinfo import available_timezones

from django import forms
from django.db.models import Q

from alerts import channels
from alerts.models import Subscription
from classifier.models import Folder
from search.models import SavedSearch


def subscribable_saved_searches(user):
    """The saved searches ``user`` may subscribe to: their own and the public ones."""
    return SavedSearch.objects.filter(Q(owner=user) | Q(public=True))


class SubscriptionForm(forms.ModelForm):
    time_zone = forms.ChoiceField(choices=[], help_text="Digests go out at the time of day in this zone.")

    class Meta:
        model = Subscription
        fields = [
            "folder",
            "saved_search",
            "frequency",
            "send_time",
            "weekday",
            "time_zone",
            "channel",
            "notify_url",
            "allow_private_addresses",
        ]
        widgets = {"send_time": forms.TimeInput(attrs={"type": "time"}, format="%H:%M")}
        labels = {"notify_url": "Notification URL", "send_time": "Time of day"}

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        self.fields["time_zone"].choices = [(name, name) for name in sorted(available_timezones())]
        self.fields["folder"].queryset = Folder.objects.order_by("path")
        self.fields["folder"].help_text = "Articles an expert accepts into this folder or a folder below it."
        self.fields["saved_search"].queryset = subscribable_saved_searches(user).order_by("name")
        self.fields["saved_search"].help_text = "Or: newly processed articles matching a saved search."
        if not user.is_superuser:
            # reaching private addresses is a superuser's decision (as for WebMon's sites)
            del self.fields["allow_private_addresses"]

    def clean(self):
        data = super().clean()
        folder, saved = data.get("folder"), data.get("saved_search")
        if bool(folder) == bool(saved):
            raise forms.ValidationError("Choose a folder or a saved search (one of them).")
        url = (data.get("notify_url") or "").strip()
        if data.get("channel") == Subscription.Channel.APPRISE:
            if not url:
                self.add_error("notify_url", "Give the notification URL to send to.")
                return data
            if "notify_url" in self.changed_data and not self.user.is_superuser:
                self.instance.allow_private_addresses = False  # a new target needs a superuser's allowance again
            allow = data.get("allow_private_addresses", self.instance.allow_private_addresses)
            # a refused private address ends with what the form's user can do: a superuser is pointed to the box
            # under the URL, anyone else told that only a superuser may allow it
            box = "allow_private_addresses" in self.fields
            remedy = channels.PRIVATE_TICK_BOX if box else channels.PRIVATE_REFUSED
            try:
                channels.check_notify_url(url, allow, remedy=remedy)
            except channels.DeliveryError as exc:
                self.add_error("notify_url", str(exc))
            data["notify_url"] = url
        else:
            data["notify_url"] = ""
            if not self.user.email:
                self.add_error(
                    "channel",
                    "Your account has no e-mail address: set it on the subscriptions page, "
                    "or choose a notification URL.",
                )
        return data


class AddressForm(forms.Form):
    email = forms.EmailField(label="E-mails go to", max_length=254)
