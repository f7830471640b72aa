"""The MCRDR knowledge base as stored: folders, cases, rules, cornerstone cases, classifications, audit log.

The inference and acquisition logic lives in the pure engine (classifier/engine.py, acquisition.py);
these models only persist what it needs. Knowledge-base changes go through classifier/services.py.
"""

import uuid

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.functions import Concat
from django.utils import timezone

from classifier.kinds import RuleKind


def validate_folder_name(value: str) -> None:
    """A folder name is one path segment: not blank, no separator, no surrounding spaces."""
    if not value or value != value.strip():
        raise ValidationError("A folder name must not be blank or start/end with spaces.")
    if Folder.SEPARATOR in value:
        raise ValidationError(f"A folder name must not contain {Folder.SEPARATOR!r}.")
    if len(value) > Folder.NAME_MAX_LENGTH:
        raise ValidationError(
            f"A folder name must be {Folder.NAME_MAX_LENGTH} characters at most ({value[:20]}… has {len(value)})."
        )


class Folder(models.Model):
    """A folder of the experts' folder tree; the conclusion of MCRDR rules and the unit of a feed."""

    NAME_MAX_LENGTH = 100
    name = models.CharField(max_length=NAME_MAX_LENGTH, validators=[validate_folder_name])
    parent = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="children")
    path = models.CharField(max_length=1000, unique=True, editable=False, help_text="Full path, e.g. Health/Diabetes")
    public = models.BooleanField(default=True, help_text="Public folders have open feeds; private ones need a token.")
    # default (not auto_now_add) so that an imported knowledge base keeps its timestamps
    created_at = models.DateTimeField(default=timezone.now)

    SEPARATOR = "/"

    class Meta:
        ordering = ["path"]
        constraints = [
            models.UniqueConstraint(fields=["parent", "name"], name="unique_folder_name_per_parent"),
            # NULL parents are distinct in SQL, so top-level names need their own constraint
            models.UniqueConstraint(
                fields=["name"], condition=models.Q(parent__isnull=True), name="unique_top_level_folder_name"
            ),
        ]

    def __str__(self) -> str:
        return self.path

    def compute_path(self) -> str:
        # parent_id set: parent is a Folder (mypy does not narrow through the _id field)
        return f"{self.parent.path}{self.SEPARATOR}{self.name}" if self.parent_id else self.name  # type: ignore[union-attr]

    # The subtree, by stored path: the one place that knows how "at or below a folder" is spelled.
    @property
    def descendant_prefix(self) -> str:
        """What every descendant's path starts with ("Health/" for Health)."""
        return self.path + self.SEPARATOR

    def holds(self, path: str) -> bool:
        """Is ``path`` this folder's own path or the path of a folder below it?"""
        return path == self.path or path.startswith(self.descendant_prefix)

    def subtree_q(self, prefix: str = "", *, itself: bool = True) -> models.Q:
        """Folders below this one (and itself unless ``itself=False``), through a relation ``prefix``
        ("folder__") when filtering other models."""
        return self.subtree_of(self.path, prefix, itself=itself)

    @classmethod
    def subtree_of(cls, path: str | models.Expression | models.F, prefix: str = "", *, itself: bool = True) -> models.Q:
        """subtree_q of a path, or of an expression of one: ``OuterRef("path")`` spells each outer folder's subtree
        in a subquery (Django escapes LIKE's wildcards in an expression's value as in a string's)."""
        if isinstance(path, str):
            start: str | models.Expression = path + cls.SEPARATOR
        else:
            start = Concat(path, models.Value(cls.SEPARATOR), output_field=models.CharField())
        below = models.Q(**{f"{prefix}path__startswith": start})
        return models.Q(**{f"{prefix}path": path}) | below if itself else below

    def ancestor_paths(self) -> list[str]:
        """The paths of the folders above this one, root first."""
        parts = self.path.split(self.SEPARATOR)[:-1]
        return [self.SEPARATOR.join(parts[: i + 1]) for i in range(len(parts))]


def cornerstone_q(prefix: str = "") -> models.Q:
    """The cases that are a rule's cornerstone case (``prefix``: the relation to them from another model)."""
    return models.Q(**{f"{prefix}cornerstone_links__isnull": False}) | models.Q(
        **{f"{prefix}cornerstone_of__isnull": False}
    )


def keep_cornerstones(collector, field, sub_objs, using) -> None:
    """Case.article's on_delete: an article deleted (alone, or with its site) takes its case with it (CASCADE),
    unless the case is a rule's cornerstone case. That one stays, without its article (article set to NULL), as
    an imported knowledge base's cases are: the rules were validated against its keywords, and validation needs
    them as long as the rules exist. Its URL stays in ``source``. Refusing the deletion instead (PROTECT) left a
    site with one cornerstone case impossible to delete."""
    stones = sub_objs.filter(cornerstone_q()).values("pk")
    models.CASCADE(collector, field, sub_objs.exclude(pk__in=stones), using)
    collector.add_field_update(field, None, sub_objs.filter(pk__in=stones))


keep_cornerstones.lazy_sub_objs = True  # type: ignore[attr-defined]  # as SET_NULL's: the querysets stay lazy


class Case(models.Model):
    """An article's feature set for the classifier: its tokens after the noise filters.

    A case that is the cornerstone of a rule is part of the knowledge base: its keywords are frozen
    (services.ingest_case does not change them), it cannot be deleted while a rule has it (PROTECT), and it
    outlives its article (keep_cornerstones): deleting the article, or its site, leaves it without one.
    """

    article = models.OneToOneField(
        "monitor.Article", null=True, blank=True, on_delete=keep_cornerstones, related_name="case"
    )
    keywords = models.JSONField(default=list, help_text="Sorted distinct keywords (filtered tokens).")
    source = models.CharField(
        max_length=2000,
        blank=True,
        help_text="Where the case came from (the article URL); kept by export/import where articles are not.",
    )
    created_at = models.DateTimeField(default=timezone.now)
    text_changed_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="A cornerstone case only: when its article's text (filtered again, e.g. with a re-learned site "
        "profile) first gave other keywords than those its rules were validated on, which it keeps. "
        "Empty while they agree.",
    )

    # An expert's decision that the article belongs in no folder (services.bulk_mark_no_folder): the review state
    # counts it as classified while nothing is suggested. Who accepted or rejected a folder is on its
    # Classification row; who the article is assigned to is on the article (monitor.Article.assignee).
    no_folder_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The expert who reviewed the article and decided it belongs in no folder.",
    )
    no_folder_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"case {self.pk}"

    @property
    def keyword_set(self) -> frozenset[str]:
        return frozenset(self.keywords)


class CaseKeyword(models.Model):
    """Inverted index keyword -> cases, so that re-inference touches only the cases a rule can affect.

    The primary key (keyword, case) is the lookup index: all cases holding a keyword. No surrogate id: about
    190 rows an article, whose id column and its index were a quarter of the table's bytes (issue 31).
    """

    MAX_LENGTH = 100

    pk = models.CompositePrimaryKey("keyword", "case")
    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="index_entries")
    keyword = models.CharField(max_length=MAX_LENGTH)

    def __str__(self) -> str:
        return f"{self.keyword} -> case {self.case_id}"


class KeywordFrequency(models.Model):
    """Document frequency: how many stored cases hold a keyword, i.e. its CaseKeyword rows, counted once.

    The words' rarity (validation's difference list, DocView's keyword weights) reads one row a word here
    instead of counting the index's rows (1.5 million for a wide draft among 100,000 cases). Database triggers
    on CaseKeyword (migration 0014) keep it in the transaction that writes the index, whichever code does
    (ingestion, re-filtering, deletion by cascade, an import, raw SQL). A word whose cases are all gone keeps
    a row with 0; ``manage.py keyword_frequencies`` checks the counts against a recount and repairs them.
    """

    keyword = models.CharField(max_length=CaseKeyword.MAX_LENGTH, primary_key=True)
    # not a PositiveIntegerField: a count that drifted below 0 must not fail the ingestion that decrements it
    cases = models.IntegerField(default=0)

    class Meta:
        verbose_name_plural = "keyword frequencies"

    def __str__(self) -> str:
        return f"{self.keyword}: {self.cases} cases"


class Rule(models.Model):
    """An MCRDR rule: all `conditions` present and no `absent` keyword present concludes `folder`.

    Under the root (parent is null) it is a ground-breaking rule; under another rule a refining rule;
    with no folder a stopping rule.
    """

    parent = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="children")
    folder = models.ForeignKey(Folder, null=True, blank=True, on_delete=models.PROTECT, related_name="rules")
    conditions = models.JSONField(default=list)
    absent = models.JSONField(default=list, blank=True)
    cornerstone = models.ForeignKey(
        Case,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="cornerstone_of",
        help_text="The case the rule was made for.",
    )
    # every cornerstone case of the rule: the case it was made for and each cornerstone case whose change an
    # expert accepted when committing it (RuleCornerstone says which)
    cornerstones: "models.ManyToManyField[Case, RuleCornerstone]" = models.ManyToManyField(
        Case, through="RuleCornerstone", related_name="cornerstone_rules", blank=True
    )
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        target = self.folder.path if self.folder_id else "STOP"  # type: ignore[union-attr]  # folder_id set: a Folder
        return f"rule {self.pk}: {' & '.join(self.conditions)} -> {target}"

    @property
    def kind(self) -> RuleKind:
        return RuleKind.of(self.parent_id, self.folder_id)


class RuleCornerstone(models.Model):
    """A cornerstone case of a rule, with the expert's decision that made it one.

    ``made``: the case the rule was made for (also ``Rule.cornerstone``); ``accepted``: a cornerstone case
    of an earlier rule that the new rule changes, whose change the committing expert accepted (its stored
    classifications were changed in the same commit). A rule has one ``made`` row and any number of
    ``accepted`` rows; its cornerstone cases' keywords are frozen, and they outlive their articles
    (keep_cornerstones).
    """

    class Decision(models.TextChoices):
        MADE = "made", "Made for this case"
        ACCEPTED = "accepted", "Change accepted"

    rule = models.ForeignKey(Rule, on_delete=models.CASCADE, related_name="cornerstone_links")
    case = models.ForeignKey(Case, on_delete=models.PROTECT, related_name="cornerstone_links")
    decision = models.CharField(max_length=10, choices=Decision.choices)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    decided_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["rule", "case"], name="unique_rule_cornerstone")]

    def __str__(self) -> str:
        return f"case {self.case_id} is a cornerstone of rule {self.rule_id} ({self.decision})"


class ReviewState(models.TextChoices):
    """An article's review state in the experts' inbox, from its classification rows and pending corrections.
    The four are disjoint and cover every article; stored on the article (monitor.Article.review_state) by
    classifier.services.refresh_review_states."""

    UNREVIEWED = "unreviewed", "Unreviewed"  # no folder: not processed yet, or no rule fires and nobody decided
    # at least one suggested folder nobody decided on yet (stored as "pending" before issue 30)
    SUGGESTED = "suggested", "Suggested"
    # no suggestion pending, and a rejected folder still waits for the rule that corrects it (Correction)
    CORRECTION = "correction", "Rejected, rule pending"
    # nothing pending, and an expert accepted or rejected a folder or marked the article reviewed with no folder
    # (stored as "classified" before issue 30: filters still accept that value, see classifier.filtering)
    REVIEWED = "reviewed", "Reviewed"


class Classification(models.Model):
    """A case's membership of a folder: suggested by inference, then accepted or rejected by an expert."""

    class State(models.TextChoices):
        SUGGESTED = "suggested", "Suggested"
        ACCEPTED = "accepted", "Accepted"
        REJECTED = "rejected", "Rejected"

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="classifications")
    folder = models.ForeignKey(Folder, on_delete=models.CASCADE, related_name="classifications")
    rule = models.ForeignKey(
        Rule,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="classifications",
        help_text="The rule whose conclusion gave this folder (null when set by hand).",
    )
    state = models.CharField(max_length=10, choices=State.choices, default=State.SUGGESTED, db_index=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    decided_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True, db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["case", "folder"], name="unique_classification")]
        indexes = [models.Index(fields=["folder", "state", "-updated_at"], name="classification_feed_idx")]

    def __str__(self) -> str:
        return f"case {self.case_id} in folder {self.folder_id}: {self.state}"


class Correction(models.Model):
    """An expert's rejection of a folder the knowledge base gave a case, kept until a rule corrects it.

    Rejecting records the decision at once (the classification row becomes ``rejected``) and opens a pending
    correction: the knowledge base still gives the folder, so the same wrong suggestion would come on other
    articles until an expert makes the stopping or refining rule. The first commit after which the case no
    longer gets the folder from the knowledge base resolves it and records that rule (undoing the rule makes
    it pending again); the expert may also withdraw the rejection while it is pending.
    """

    class State(models.TextChoices):
        PENDING = "pending", "Rejected, rule pending"
        RESOLVED = "resolved", "Corrected by a rule"
        WITHDRAWN = "withdrawn", "Rejection withdrawn"

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="corrections")
    folder = models.ForeignKey(Folder, on_delete=models.CASCADE, related_name="corrections")
    #: the rule the expert asked for when rejecting (stop or refine): where the pending list's link starts
    kind = models.CharField(
        max_length=10, choices=[(k.value, k.label) for k in (RuleKind.STOP, RuleKind.REFINE)], default=RuleKind.STOP
    )
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING, db_index=True)
    rejected_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    rejected_at = models.DateTimeField(default=timezone.now)
    #: the classification row as it was before the rejection (state, rule, decider), restored by a withdrawal
    row_before = models.JSONField(default=dict, blank=True)
    rule = models.ForeignKey(
        Rule,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="corrections",
        help_text="The rule whose commit took the folder away from the case (resolved corrections).",
    )
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["rejected_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["case", "folder"], condition=models.Q(state="pending"), name="unique_pending_correction"
            )
        ]

    def __str__(self) -> str:
        return f"case {self.case_id} not in folder {self.folder_id}: {self.state}"


class ArticleRead(models.Model):
    """An expert opened the article (its page marks it read for that expert; "mark unread" deletes the row).

    Personal reading state, not a knowledge-base decision: it is not audited. The unique (user, article)
    constraint is the index the inbox's "unread" filter probes for each row in inbox order.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="articles_read")
    article = models.ForeignKey("monitor.Article", on_delete=models.CASCADE, related_name="reads")
    read_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "article"], name="unique_article_read")]

    def __str__(self) -> str:
        return f"article {self.article_id} read by {self.user_id}"


class AuditEntry(models.Model):
    """One knowledge-base change: who did what, with the data needed to understand or undo it."""

    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    action = models.CharField(max_length=50)
    details = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return f"{self.action} by {self.actor_id or 'system'} at {self.created_at:%Y-%m-%d %H:%M}"


class KnowledgeBase(models.Model):
    """The single row that versions the rule tree (pk 1).

    Every knowledge-base change locks this row (SELECT ... FOR UPDATE), so two experts' commits are
    serialised, and then bumps `version` and `stamp`. Each process caches its RuleTree under the
    stamp it was loaded for (classifier/kb.py); a different stamp in the database means reload.
    The stamp is random rather than the counter alone so that a rolled-back change (or a test
    database reset) can never make a stale cache look current.
    """

    SINGLETON_ID = 1

    version = models.BigIntegerField(default=0)
    stamp = models.CharField(max_length=32, default="initial")
    updated_at = models.DateTimeField(default=timezone.now)
    #: how cases are built: classifier.features.FeatureSettings.to_dict() (stemming, phrases, scopes); empty
    #: means the defaults. Changed only through services.set_feature_settings (it rebuilds the cases).
    features = models.JSONField(default=dict, blank=True)

    class Meta:
        verbose_name = "knowledge base"

    def __str__(self) -> str:
        return f"knowledge base v{self.version}"

    @staticmethod
    def new_stamp() -> str:
        return uuid.uuid4().hex


from classifier.models_labels import PhraseLabel  # noqa: E402,F401  (workspace: phrase labels)
