"""Forms of the experts' workspace: they only parse and check input; views call the services."""

from datetime import date
from typing import cast

from django import forms
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.forms.models import ModelChoiceIterator
from django.forms.utils import flatatt
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from classifier import selectors
from classifier.acquisition import rule_kind
from classifier.engine import keyword_set
from classifier.filtering import ANY, MINE, STATE_GROUPS, STATES, UNASSIGNED, WAITING, assignee_for, current_state
from classifier.kinds import RuleKind
from classifier.models import Folder
from classifier.vocabulary import NO_FOLDER
from foundation.roles import experts
from monitor.models import Site

KIND_LABELS = {
    RuleKind.NEW: "New rule: add a folder",
    RuleKind.REFINE: "Refining rule: give another folder instead",
    RuleKind.STOP: "Stopping rule: withhold the wrong folder",
}


#: dates an inbox filter accepts: days at either end of the calendar overflow once made time-zone aware
FIRST_DAY, LAST_DAY = date(1900, 1, 1), date(2999, 12, 31)


def date_field(label: str) -> forms.DateField:
    """A day as the article lists' filters take it (the inbox, search): bounded so it can be made aware."""
    return forms.DateField(
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        label=label,
        validators=[MinValueValidator(FIRST_DAY), MaxValueValidator(LAST_DAY)],
    )


class QuickSelect(forms.Select):
    """A select rendered in Python, as Django's templates render it. Django renders every option through a
    template include of its own: the article page's move form (every folder, twice) took longer to render than
    the rest of the page's template with a few dozen folders; the inbox's filter selects were a tenth of its time."""

    def render(self, name, value, attrs=None, renderer=None):
        choices = list(self.choices)
        if any(isinstance(label, list | tuple) for _, label in choices):  # option groups: Django's own templates
            return super().render(name, value, attrs, renderer)
        # as Select.optgroups: the first option of the value is selected (each of them, for a multiple select)
        chosen, found, options = set(self.format_value(value)), False, []
        for option, label in choices:
            option = "" if option is None else str(option)
            selected = (not found or self.allow_multiple_selected) and option in chosen
            found |= selected
            options.append((option, mark_safe(" selected") if selected else "", label))  # noqa: S308 - a constant
        select_attrs = self.build_attrs(self.attrs, attrs)
        if self.allow_multiple_selected:
            select_attrs["multiple"] = True
        return format_html(
            '<select name="{}"{}>{}\n</select>',
            name,
            flatatt(select_attrs),
            format_html_join("", '\n  <option value="{}"{}>{}</option>', options),
        )


class ListedChoices(ModelChoiceIterator):
    """A model select's options read by one plain query: Django's iterator() is a server-side cursor on
    PostgreSQL (declare, fetch, close: the inbox's slowest query for ten sites)."""

    def __iter__(self):
        if self.field.empty_label is not None:
            yield ("", self.field.empty_label)
        for obj in self.queryset:
            yield self.choice(obj)

    def __len__(self):  # the rows read once (Django's counts them in a query of their own)
        return len(self.queryset) + (self.field.empty_label is not None)


class ListedModelChoiceField(forms.ModelChoiceField):
    iterator = ListedChoices


READING = {"unread": "Unread by me", "read": "Read by me"}


def expert_choices() -> list[tuple[str, str]]:
    return [(str(pk), name) for pk, name in experts().values_list("pk", "username")]


#: the review state filters' choices, the inbox's and search's alike (saved searches store their values): a
#: group of states (classifier.filtering.STATE_GROUPS), then each state
STATE_CHOICES = [(WAITING, STATE_GROUPS[WAITING]), (ANY, STATE_GROUPS[ANY]), *STATES.items()]


class StateField(forms.ChoiceField):
    """A review state filter (:data:`STATE_CHOICES`): a group of states, one state, or a deprecated name of one
    (read as today's name, so an old bookmark or link still filters: classifier.filtering.DEPRECATED_STATES).

    No value reads as ``default``, which the select shows: the inbox lists what waits for review
    (classifier.filtering.WAITING), a search looks at every state (ANY).
    """

    def __init__(self, *, default: str, **kwargs):
        super().__init__(choices=STATE_CHOICES, required=False, initial=default, **kwargs)
        self.default = default

    def to_python(self, value):
        return current_state(super().to_python(value)) or self.default

    def bound_data(self, data, initial):
        # the select shows the state it filters on
        return current_state(super().bound_data(data, initial)) or self.default


class InboxFilterForm(forms.Form):
    site = ListedModelChoiceField(
        queryset=Site.objects.order_by("name").only("id", "name"),
        required=False,
        empty_label="All sites",
        widget=QuickSelect,
    )
    # an expert's inbox lists what waits for them: re-publications and reviewed articles are each one choice away
    state = StateField(default=WAITING, widget=QuickSelect)
    assigned = forms.ChoiceField(required=False, label="Assigned", widget=QuickSelect)
    reading = forms.ChoiceField(
        choices=[("", "Read or not"), *READING.items()], required=False, label="Read", widget=QuickSelect
    )
    date_from = date_field("From")
    date_to = date_field("To")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.experts = expert_choices()  # also the bulk form's picker: one query for both
        cast(forms.ChoiceField, self.fields["assigned"]).choices = [
            ("", "Anyone or nobody"),
            (MINE, "To me"),
            (UNASSIGNED, "Unassigned"),
            *self.experts,
        ]

    def clean(self):
        data = super().clean()
        if data.get("date_from") and data.get("date_to") and data["date_from"] > data["date_to"]:
            raise ValidationError("The 'from' date is after the 'to' date.")
        return data

    def narrowing(self, user) -> dict:
        """The cleaned filters as selectors.inbox_queryset takes them, "me" and "unread" read for ``user``."""
        data = self.cleaned_data if self.is_bound and self.is_valid() else {}
        reading = data.get("reading")
        return {
            "site_id": data["site"].pk if data.get("site") else None,
            "date_from": data.get("date_from"),
            "date_to": data.get("date_to"),
            "state": data.get("state") or WAITING,  # unfiltered, unread or unreadable: the inbox's default
            "assignee": assignee_for(data.get("assigned"), user),
            "unread_by": user.pk if reading == "unread" else None,
            "read_by": user.pk if reading == "read" else None,
        }


class ArticleIdsField(forms.Field):
    """Repeated article ids (the inbox's ticked rows): a list of distinct ints, in the order given."""

    widget = forms.MultipleHiddenInput

    def to_python(self, value):
        values = value if isinstance(value, list | tuple) else [value] if value else []
        if not all(isinstance(v, int) or (isinstance(v, str) and v.isascii() and v.isdigit()) for v in values):
            raise ValidationError("An article must be given by its id.")
        return list(dict.fromkeys(int(v) for v in values))


class BulkActionForm(forms.Form):
    """A bulk action on the ticked articles: accept their suggestions, reviewed with no folder, assign (or
    unassign: ``assignee=none``), mark read or unread."""

    ACTIONS = {
        "accept": "Accept suggestions",
        "no_folder": NO_FOLDER.word.capitalize(),
        "assign": "Assign",
        "read": "Mark read",
        "unread": "Mark unread",
    }
    article = ArticleIdsField(required=False)
    action = forms.ChoiceField(choices=list(ACTIONS.items()))
    assignee = forms.CharField(required=False, max_length=20)

    def clean_article(self):
        ids = self.cleaned_data["article"]
        if not ids:
            raise ValidationError("Select the articles first (tick their boxes, or x on the chosen row).")
        return ids

    def clean(self):
        data = super().clean()
        if data.get("action") != "assign":
            return data
        raw = data.get("assignee") or ""
        if raw == UNASSIGNED:
            data["assignee"] = None
        elif raw.isascii() and raw.isdigit():
            user = get_user_model().objects.filter(pk=int(raw)).first()
            if user is None:
                raise ValidationError(f"There is no user {raw}.")
            data["assignee"] = user  # whether they are an expert is the service's check, said in its words
        else:
            raise ValidationError("Choose the expert to assign the articles to.")
        return data


def _folder_id_or_none(value) -> int | None:
    if value in (None, ""):
        return None
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise ValidationError(f"{value!r} is not a folder id") from None
    if not Folder.objects.filter(pk=number).exists():
        raise ValidationError(f"there is no folder {number}")
    return number


class RuleDraft:
    """The rule an expert is drafting, parsed from a query string or form (GET and POST look alike).

    Fields: ``kind`` (new/refine/stop), ``folder`` (target), ``wrong`` (the folder being corrected),
    ``c`` (condition keywords, repeated), ``x`` (keywords that must be absent), ``sel`` (ids of the
    cornerstone cases selected as "must not change", the older difference list), ``ok`` (ids of the cornerstone
    cases whose change the expert accepts; every other one shown must be left unchanged by a condition;
    ``ok_shown``: the ids of the changes the page showed, comma-separated: accept them all),
    ``keep`` (ids of stored cases the expert excluded from the "would reclassify" list: they must not change),
    ``use`` (the suggested rule's words, joined by ``|``: added to ``c``),
    ``q`` (the words to search in the difference lists), ``version`` (the knowledge-base version the draft was
    checked on; sent with a commit).
    """

    SEARCH_MAX = 100
    USE_SEPARATOR = "|"

    def __init__(self, data):
        self.errors: list[str] = []
        try:
            self.kind = rule_kind(data.get("kind") or RuleKind.NEW)
        except ValueError as exc:
            self.errors.append(str(exc))
            self.kind = RuleKind.NEW
        self.folder = self._folder(data.get("folder"), "folder")
        self.wrong = self._folder(data.get("wrong"), "wrong folder")
        # "use": the one-click rule the page suggests, its words joined by | (never in a keyword), added to the draft
        self.conditions = self._words(data.getlist("c") + (data.get("use") or "").split(self.USE_SEPARATOR))
        self.absent = self._words(data.getlist("x"))
        self.selected = self._case_ids(data.getlist("sel"))
        self.accepted = self._case_ids(data.getlist("ok"))
        self.kept = self._case_ids(data.getlist("keep"))
        #: "accept every change shown": the cornerstone cases the page showed (the button names them), not
        #: excluded, join ``accepted``; not those a draft changed since (no script refreshed the page) would show
        self.accept_shown = self._case_ids([v for v in (data.get("ok_shown") or "").split(",") if v])
        self.search = (data.get("q") or "").strip()[: self.SEARCH_MAX]
        raw_version = data.get("version") or ""
        self.version: int | None = int(raw_version) if raw_version.isascii() and raw_version.isdigit() else None
        if raw_version and self.version is None:
            self.errors.append(f"{raw_version[:20]!r} is not a knowledge-base version")
        if self.kind == RuleKind.STOP:
            self.folder = None  # a stopping rule has no conclusion

    @property
    def then_folder(self) -> int | None:
        """The folder the rule's THEN names: the one it gives, or for a stopping rule the one it withholds."""
        return self.wrong if self.kind == RuleKind.STOP else self.folder

    def _folder(self, value, what):
        try:
            return _folder_id_or_none(value)
        except ValidationError as exc:
            self.errors.append(f"{what}: {exc.messages[0]}")
            return None

    def _case_ids(self, values) -> list[int]:
        ids = []
        for value in values:
            if value.isascii() and value.isdigit():
                ids.append(int(value))
            else:
                self.errors.append(f"{value[:20]!r} is not a case id")
        return sorted(set(ids))

    @staticmethod
    def _words(values) -> list[str]:
        """The ticked keywords (blank boxes ignored), normalised like every keyword, sorted."""
        return sorted(keyword_set(v for v in values if v.strip()))

    @property
    def needs_folder(self) -> bool:
        return self.kind != RuleKind.STOP and self.folder is None

    @property
    def needs_wrong(self) -> bool:
        return self.kind != RuleKind.NEW and self.wrong is None

    def service_kwargs(self) -> dict:
        return {
            "kind": self.kind,
            "folder": self.folder,
            "wrong_folder": self.wrong if self.kind != RuleKind.NEW else None,
            "conditions": self.conditions,
            "absent": self.absent,
        }

    def query(self) -> list[tuple[str, object]]:
        """The draft as (name, value) pairs for a URL."""
        pairs: list[tuple[str, object]] = [("kind", self.kind)]
        if self.folder:
            pairs.append(("folder", self.folder))
        if self.wrong and self.kind != RuleKind.NEW:
            pairs.append(("wrong", self.wrong))
        pairs += [("c", w) for w in self.conditions] + [("x", w) for w in self.absent]
        pairs += [("sel", i) for i in self.selected] + [("ok", i) for i in self.accepted]
        pairs += [("keep", i) for i in self.kept]
        return pairs


class FolderCreateForm(forms.Form):
    path = forms.CharField(
        max_length=1000,
        label="New folder",
        help_text="Full path, parents are created too: Health/Diabetes",
        widget=forms.TextInput(attrs={"placeholder": "Health/Diabetes"}),
    )
    public = forms.BooleanField(required=False, initial=True, label="Public feed")


class MoveForm(forms.Form):
    from_folder = forms.TypedChoiceField(coerce=int, required=False, empty_value=None, label="From", widget=QuickSelect)
    to_folder = forms.TypedChoiceField(coerce=int, label="To", widget=QuickSelect)
    copy = forms.BooleanField(required=False, label="Copy (keep it in the old folder too)")

    def __init__(self, *args, current_folders=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["from_folder"].choices = [("", "(no folder)")] + [(f.pk, f.path) for f in current_folders]
        self.fields["to_folder"].choices = selectors.folder_choices()


# --------------------------------------------------------------------------- folder management
class FolderRenameForm(forms.Form):
    name = forms.CharField(max_length=Folder.NAME_MAX_LENGTH, label="New name")


def _outside(folder: Folder) -> list[tuple[int, str]]:
    """Folder choices without ``folder`` and the folders below it (neither a move nor a merge may go there)."""
    return [(pk, path) for pk, path in selectors.folder_choices() if not folder.holds(path)]


class FolderMoveForm(forms.Form):
    parent = forms.TypedChoiceField(coerce=int, required=False, empty_value=None, label="Move under")

    def __init__(self, *args, folder: Folder, **kwargs):
        super().__init__(*args, **kwargs)
        cast(forms.TypedChoiceField, self.fields["parent"]).choices = [("", "(top level)"), *_outside(folder)]


class FolderMergeForm(forms.Form):
    target = forms.TypedChoiceField(coerce=int, label="Merge into")
    confirm = forms.BooleanField(label="I understand this folder is then deleted")

    def __init__(self, *args, folder: Folder, **kwargs):
        super().__init__(*args, **kwargs)
        cast(forms.TypedChoiceField, self.fields["target"]).choices = [("", "(choose a folder)"), *_outside(folder)]
