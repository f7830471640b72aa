"""How the API shows and reads WIMS's rows. Article text and titles are untrusted: JSON carries them as data,
never markup, and the API never renders them."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import extend_schema_field, extend_schema_serializer
from rest_framework import serializers

from api import selectors
from api.services import canonical_url
from classifier import selectors as workspace
from classifier.filtering import WAITING, current_state, shown_state
from classifier.models import Classification, Folder, Rule
from classifier.vocabulary import work_state
from feeds.saved_searches import saved_search_feed_url
from feeds.syndication import folder_feed_url
from monitor.models import Article, Site, Source, check_site_change
from search.models import SavedSearch
from search.query import QuerySyntaxError, parse

REVIEW_STATES = list(workspace.STATES)
#: a review state filter's values (the article list's, a saved search's): a state, or the inbox's default group
FILTER_STATES = [WAITING, *REVIEW_STATES]
#: an article's work state as answers name it (``processing_state``): classifier.vocabulary.WORK_STATES
PROCESSING_STATES = [work_state(state) for state in Article.State.values]
#: the answers' old ``state`` (the work state, stored names) and the list's old ``?state=`` (the review state):
#: one name, two meanings until issue 30's trial, so both are deprecated for ``processing_state`` and
#: ``review_state`` (docs/user-guide.md, the REST API); each still works
DEPRECATED_STATE_HELP = (
    "Deprecated: the processing state under its stored names (`pending` for `queued`); read `processing_state`. "
    "It is not the review state, which is `review_state`."
)
STATE_FILTER_HELP = (
    "Deprecated: the `review_state` filter under its old name (each result's `state` is another thing, the "
    "processing state); still read, answered with a `Deprecation` header."
)


class ReviewStateField(serializers.ChoiceField):
    """A review state; the deprecated ``classified`` is read as ``reviewed`` (docs/user-guide.md, the REST API)."""

    def __init__(self, *, blank: bool = False, waiting: bool = False, **kwargs):
        # ``waiting``: also the inbox's default, the states waiting for an expert (classifier.filtering.WAITING)
        choices = [*([""] if blank else []), *(FILTER_STATES if waiting else REVIEW_STATES)]
        super().__init__(choices=choices, allow_blank=blank, **kwargs)

    def to_internal_value(self, data):
        return super().to_internal_value(current_state(data))


# --------------------------------------------------------------------------- small pieces
class SiteRefSerializer(serializers.ModelSerializer):
    class Meta:
        model = Site
        fields = ["id", "name"]


class UserRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()


class FolderRefSerializer(serializers.ModelSerializer):
    class Meta:
        model = Folder
        fields = ["id", "path"]


class FolderChipSerializer(serializers.Serializer):
    folder_id = serializers.IntegerField()
    path = serializers.CharField()
    state = serializers.ChoiceField(choices=Classification.State.choices)


class RuleSerializer(serializers.ModelSerializer):
    folder = FolderRefSerializer(allow_null=True, help_text="The rule's conclusion; null for a stopping rule.")
    kind = serializers.SerializerMethodField()

    class Meta:
        model = Rule
        fields = ["id", "kind", "conditions", "absent", "folder", "parent", "created_at"]

    def get_kind(self, rule: Rule) -> str:
        return str(rule.kind)


class ClassificationSerializer(serializers.ModelSerializer):
    folder = FolderRefSerializer()
    decided_by: serializers.SlugRelatedField = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True
    )

    class Meta:
        model = Classification
        fields = ["folder", "state", "rule", "decided_by", "decided_at"]


class SuggestionSerializer(serializers.Serializer):
    folder = FolderRefSerializer()
    rules = RuleSerializer(many=True, help_text="The rule path that gives the folder, from the root side down.")
    state = serializers.SerializerMethodField(help_text="The stored decision: suggested, accepted or rejected.")

    @extend_schema_field(serializers.ChoiceField(choices=Classification.State.choices, allow_null=True))
    def get_state(self, suggestion: selectors.Suggestion) -> str | None:
        return suggestion.classification.state if suggestion.classification else None


class KeywordSerializer(serializers.Serializer):
    term = serializers.CharField()
    weight = serializers.FloatField()


# --------------------------------------------------------------------------- articles
@extend_schema_field(serializers.ChoiceField(choices=REVIEW_STATES))
class ArticleStateField(serializers.ReadOnlyField):
    """The article's state as the inbox, its page and the list's filter name it: failed or duplicate by its work
    state (no case, so its review state never changes), else its review state."""

    def get_attribute(self, instance: Article) -> str:
        return shown_state(instance)


@extend_schema_field(serializers.ChoiceField(choices=PROCESSING_STATES))
class ProcessingStateField(serializers.ReadOnlyField):
    """The article's work state (fetching, processing…) in the API's words: classifier.vocabulary.work_state."""

    def get_attribute(self, instance: Article) -> str:
        return work_state(instance.state)


def _processing_state() -> ProcessingStateField:
    return ProcessingStateField(
        help_text="Where WebMon's work on the article is: queued (to be fetched), fetching, "
        "fetched, processing, processed, failed, duplicate or not_article."
    )


def _deprecated_state() -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=Article.State.choices, read_only=True, help_text=DEPRECATED_STATE_HELP)


def _published_time_given() -> serializers.BooleanField:
    return serializers.BooleanField(
        read_only=True,
        allow_null=True,
        help_text="Whether the feed, sitemap or page gave the time of day of `published_at`: false when it gave the "
        "day alone (stored as midnight UTC: read it as a day, not a time); null when no date was given, or for "
        "articles stored before this was kept.",
    )


#: what the list and the detail both say of an article
ARTICLE_FIELDS = [
    "id",
    "url",
    "title",
    "site",
    "published_at",
    "published_time_given",
    "collected_at",
    "processing_state",
    "review_state",
    "state",
]


@extend_schema_serializer(deprecate_fields=["state"])
class ArticleListSerializer(serializers.ModelSerializer):
    site = SiteRefSerializer()
    published_time_given = _published_time_given()
    processing_state = _processing_state()
    state = _deprecated_state()
    review_state = ArticleStateField(help_text="As the workspace shows it: a review state, or failed or duplicate.")
    folders = serializers.SerializerMethodField(help_text="Folders holding or suggested for the article.")

    class Meta:
        model = Article
        fields = [*ARTICLE_FIELDS, "folders"]

    @extend_schema_field(FolderChipSerializer(many=True))
    def get_folders(self, article: Article) -> list[dict]:
        chips = self.context.get("folder_chips", {}).get(article.pk, [])
        return [{"folder_id": c.folder_id, "path": c.path, "state": c.state} for c in chips]


@extend_schema_serializer(deprecate_fields=["state"])
class ArticleDetailSerializer(serializers.ModelSerializer):
    site = SiteRefSerializer()
    published_time_given = _published_time_given()
    core_text = serializers.CharField(
        source="content.core_text", read_only=True, default="", help_text="Core content after the noise filters."
    )
    abstract = serializers.CharField(
        source="content.abstract", read_only=True, default="", help_text="DocView abstract: the most central sentences."
    )
    kind = serializers.CharField(
        source="content.kind", read_only=True, default="", help_text="article, or the kind of page it is instead."
    )
    kind_reason = serializers.CharField(
        source="content.kind_reason", read_only=True, default="", help_text="Why WIMS took it for that kind."
    )
    keywords = serializers.SerializerMethodField(help_text="DocView keywords, highest weight first.")
    processing_state = _processing_state()
    state = _deprecated_state()
    review_state = ArticleStateField(help_text="As the workspace shows it: a review state, or failed or duplicate.")
    suggestions = serializers.SerializerMethodField()
    classifications = serializers.SerializerMethodField()
    assignee = UserRefSerializer(allow_null=True, read_only=True, help_text="The expert it is assigned to, if any.")

    class Meta:
        model = Article
        fields = [
            *ARTICLE_FIELDS,
            "assignee",
            "duplicate_of",
            "core_text",
            "abstract",
            "kind",
            "kind_reason",
            "keywords",
            "suggestions",
            "classifications",
        ]

    @extend_schema_field(KeywordSerializer(many=True))
    def get_keywords(self, article: Article) -> list[dict]:
        return [{"term": term, "weight": weight} for term, weight in article.extracted.keywords or []]

    @extend_schema_field(SuggestionSerializer(many=True))
    def get_suggestions(self, article: Article) -> Any:
        return SuggestionSerializer(self.context["suggestions"], many=True).data

    @extend_schema_field(ClassificationSerializer(many=True))
    def get_classifications(self, article: Article) -> Any:
        return ClassificationSerializer(self.context["classifications"], many=True).data


class ArticleFilterSerializer(serializers.Serializer):
    """The list's query parameters; a value that cannot be read is a 400 that names it, never ignored."""

    site = serializers.PrimaryKeyRelatedField(queryset=Site.objects.all(), required=False, help_text="A site id.")
    folder = serializers.PrimaryKeyRelatedField(
        queryset=Folder.objects.all(),
        required=False,
        help_text="A folder id: articles accepted or suggested in it or below it.",
    )
    review_state = ReviewStateField(
        required=False,
        waiting=True,
        help_text="A review state, as each result's `review_state` names it (`pending` and `classified`, the "
        "names of `suggested` and `reviewed` until issue 30, still work), or `waiting`: what the inbox lists by "
        "default, `unreviewed`, `suggested` or `correction` (never `failed` or `duplicate`). Absent: any state.",
    )
    state = ReviewStateField(
        required=False,
        waiting=True,
        help_text=STATE_FILTER_HELP,
    )

    def validate(self, attrs):
        # one filter, two names: `review_state` is what each result calls it (a live trial's ?review_state= was
        # silently ignored); both given, they must agree
        named = attrs.pop("review_state", None)
        if named is not None:
            if attrs.get("state", named) != named:
                raise serializers.ValidationError({"review_state": "differs from state: give one of them"})
            attrs["state"] = named
        return attrs

    assigned = serializers.RegexField(
        r"^(me|none|[0-9]{1,18})$",
        required=False,
        help_text="Whose articles: `me` (assigned to you), `none` (unassigned) or a user id.",
    )
    unread = serializers.BooleanField(
        required=False,
        default=None,
        allow_null=True,
        help_text="true: only articles you have not opened; false: only those you have.",
    )


class AcceptSerializer(serializers.Serializer):
    folders = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        allow_empty=False,
        help_text="Folder ids of the suggestions to accept (a rejected one is accepted again); absent: every "
        "suggestion still `suggested`.",
    )


class RejectSerializer(serializers.Serializer):
    folder = serializers.IntegerField(help_text="The folder id of the suggestion to reject.")


# --------------------------------------------------------------------------- folders and feeds
class FolderSerializer(serializers.ModelSerializer):
    class Meta:
        model = Folder
        fields = ["id", "name", "path", "parent", "public", "created_at"]


class FolderDetailSerializer(FolderSerializer):
    ancestors = serializers.SerializerMethodField(help_text="The folders above this one, root first.")
    children = FolderRefSerializer(many=True, read_only=True)

    class Meta(FolderSerializer.Meta):
        fields = [*FolderSerializer.Meta.fields, "ancestors", "children"]

    @extend_schema_field(FolderRefSerializer(many=True))
    def get_ancestors(self, folder: Folder) -> Any:
        return FolderRefSerializer(selectors.ancestors(folder), many=True).data


class FeedSerializer(serializers.ModelSerializer):
    """A folder's feeds; a private folder's URLs answer only with a feed token (``&token=`` / ``?token=``)."""

    folder = serializers.SerializerMethodField()
    rss = serializers.SerializerMethodField()
    atom = serializers.SerializerMethodField()
    rss_subfolders = serializers.SerializerMethodField()
    atom_subfolders = serializers.SerializerMethodField()
    needs_token = serializers.SerializerMethodField()

    class Meta:
        model = Folder
        fields = ["folder", "public", "needs_token", "rss", "atom", "rss_subfolders", "atom_subfolders"]

    def _url(self, path: str) -> str:
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request is not None else path

    @extend_schema_field(FolderRefSerializer)
    def get_folder(self, folder: Folder) -> dict:
        return FolderRefSerializer(folder).data

    def get_needs_token(self, folder: Folder) -> bool:
        return not folder.public

    @extend_schema_field(serializers.URLField())
    def get_rss(self, folder: Folder) -> str:
        return self._url(folder_feed_url(folder, "rss"))

    @extend_schema_field(serializers.URLField())
    def get_atom(self, folder: Folder) -> str:
        return self._url(folder_feed_url(folder, "atom"))

    @extend_schema_field(serializers.URLField())
    def get_rss_subfolders(self, folder: Folder) -> str:
        return self._url(folder_feed_url(folder, "rss", subfolders=True))

    @extend_schema_field(serializers.URLField())
    def get_atom_subfolders(self, folder: Folder) -> str:
        return self._url(folder_feed_url(folder, "atom", subfolders=True))


# --------------------------------------------------------------------------- saved searches
@extend_schema_serializer(deprecate_fields=["state"])
class SavedSearchSerializer(serializers.ModelSerializer):
    owner = serializers.HiddenField(default=serializers.CurrentUserDefault())
    # ``waiting``: one of the search page's state choices (the inbox's default), so it can be saved there
    review_state = ReviewStateField(
        source="state",
        blank=True,
        waiting=True,
        required=False,
        help_text="The review state it finds, as an article's `review_state` names it, or `waiting` (`unreviewed`, "
        "`suggested` or `correction`, as the inbox lists by default); empty for any.",
    )
    state = ReviewStateField(
        blank=True,
        waiting=True,
        required=False,
        help_text="Deprecated: `review_state` under its old name (the same value).",
    )
    rss = serializers.SerializerMethodField(help_text="Its RSS feed (a private one answers only with a feed token).")
    atom = serializers.SerializerMethodField(help_text="Its Atom feed.")

    class Meta:
        model = SavedSearch
        fields = [
            "id",
            "owner",
            "name",
            "query",
            "site",
            "folder",
            "review_state",
            "state",
            "date_from",
            "date_to",
            "public",
            "created_at",
            "last_seen_at",
            "rss",
            "atom",
        ]
        read_only_fields = ["created_at", "last_seen_at"]

    def _url(self, path: str) -> str:
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request is not None else path

    @extend_schema_field(serializers.URLField())
    def get_rss(self, saved: SavedSearch) -> str:
        return self._url(saved_search_feed_url(saved, "rss"))

    @extend_schema_field(serializers.URLField())
    def get_atom(self, saved: SavedSearch) -> str:
        return self._url(saved_search_feed_url(saved, "atom"))

    def validate_name(self, value: str) -> str:
        value = value.strip()
        if not value:
            raise serializers.ValidationError("Name the saved search.")
        return value

    def validate_query(self, value: str) -> str:
        value = value.strip()
        try:
            parse(value)  # the search box's syntax: a query that could never be searched is refused now
        except QuerySyntaxError as exc:
            raise serializers.ValidationError(str(exc)) from exc
        return value

    def validate(self, attrs: dict) -> dict:
        given = {
            name: current_state(self.initial_data[name])
            for name in ("state", "review_state")
            if name in self.initial_data
        }
        if len(set(given.values())) > 1:  # both names given: one filter, so they must agree
            raise serializers.ValidationError({"review_state": "differs from state: give one of them"})
        start = attrs.get("date_from", getattr(self.instance, "date_from", None))
        end = attrs.get("date_to", getattr(self.instance, "date_to", None))
        if start and end and start > end:
            raise serializers.ValidationError({"date_to": "The 'to' date is before the 'from' date."})
        return attrs


# --------------------------------------------------------------------------- sites
class SourceSerializer(serializers.ModelSerializer):
    class Meta:
        model = Source
        fields = ["url", "kind", "found", "active", "created_at"]
        read_only_fields = fields


class SiteSerializer(serializers.ModelSerializer):
    """A site as the admin's form edits it: the model's validators (URLs, regular expressions, the polling
    interval's minimum, unique name and home page) plus the admin's rule (monitor.models.check_site_change) that
    only a superuser decides whether a site may reach private addresses, and changes the URLs of a site that may
    (the allowance opens the local network to whoever can edit them)."""

    class Meta:
        model = Site
        fields = [
            "id",
            "name",
            "home_url",
            "active",
            "section_urls",
            "feed_url",
            "include_patterns",
            "exclude_patterns",
            "poll_interval",
            "articles_only",
            "sibling_hosts",
            "allow_private_addresses",
            "sources",
            "find_sources",
            *Site.HEALTH_FIELDS,
        ]
        read_only_fields = (*Site.HEALTH_FIELDS, "find_sources")
        # as the admin's form: a site registered by its home page sends only its articles on to the experts
        extra_kwargs = {"articles_only": {"default": True}}

    #: found by WIMS at the site's first poll (or with POST …/find-sources/), with the reason for each
    sources = SourceSerializer(many=True, read_only=True)

    def _unique_url(self, field: str, value: str) -> str:
        value = canonical_url(value)
        others = Site.objects.filter(**{field: value})
        if self.instance is not None:
            others = others.exclude(pk=self.instance.pk)
        if value and others.exists():
            raise serializers.ValidationError(f"Another site has this URL ({value}).")
        return value

    def validate_home_url(self, value: str) -> str:
        return self._unique_url("home_url", value)

    def validate_feed_url(self, value: str) -> str:
        return canonical_url(value)

    def validate(self, attrs: dict) -> dict:
        try:
            check_site_change(self.instance, attrs, self.context["request"].user)
        except DjangoValidationError as exc:
            raise serializers.ValidationError(exc.message_dict) from exc
        return attrs
