"""Forms of the search pages: they parse and check input; views call search/services.py."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError

from classifier.filtering import ANY
from classifier.forms import ListedModelChoiceField, QuickSelect, StateField, date_field
from classifier.models import Folder
from monitor.models import Site
from search.models import SavedSearch
from search.query import MAX_QUERY_CHARS


class FolderChoiceField(ListedModelChoiceField):
    def label_from_instance(self, obj) -> str:
        return obj.path


class SearchForm(forms.Form):
    """The query and the filters of /search/ (GET), also what a saved search stores."""

    q = forms.CharField(required=False, max_length=MAX_QUERY_CHARS, label="Search")
    # read by one plain query each (ListedModelChoiceField): Django's own is a server-side cursor on PostgreSQL
    # (declare, fetch, close), as the inbox's sites were; written in Python (QuickSelect), as the inbox's selects
    site = ListedModelChoiceField(
        queryset=Site.objects.order_by("name").only("id", "name"),
        required=False,
        empty_label="All sites",
        widget=QuickSelect,
    )
    folder = FolderChoiceField(
        queryset=Folder.objects.order_by("path").only("id", "path"),
        required=False,
        empty_label="Any folder",
        widget=QuickSelect,
    )
    state = StateField(default=ANY)  # a search looks everywhere, past the inbox's default
    date_from = date_field("From")
    date_to = date_field("To")

    FILTERS = ("site", "folder", "state", "date_from", "date_to")

    def clean(self):
        data = super().clean()
        if data.get("date_from") and data.get("date_to") and data["date_from"] > data["date_to"]:
            raise ValidationError("The 'from' date is after the 'to' date.")
        return data

    def filters(self) -> dict:
        """The cleaned filters as search.services takes them (only after is_valid())."""
        data = self.cleaned_data
        return {
            "site": data.get("site"),
            "folder": data.get("folder"),
            # any state stays "" (SavedSearch.state's "any", as stored before the inbox's default came)
            "state": "" if data.get("state") in (None, ANY) else data["state"],
            "date_from": data.get("date_from"),
            "date_to": data.get("date_to"),
        }


class SavedSearchForm(forms.ModelForm):
    """Name and public flag of a saved search (saving the current search, or renaming one)."""

    class Meta:
        model = SavedSearch
        fields = ["name", "public"]

    def __init__(self, *args, owner, **kwargs):
        super().__init__(*args, **kwargs)
        self.owner = owner

    def clean_name(self) -> str:
        name = (self.cleaned_data.get("name") or "").strip()
        if not name:
            raise ValidationError("Name the search.")
        taken = SavedSearch.objects.filter(owner=self.owner, name=name).exclude(pk=self.instance.pk)
        if taken.exists():
            raise ValidationError(f"You already have a saved search named {name!r}.")
        return name
