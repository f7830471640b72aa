"""Experts' core / non-core labels on an article's phrases (the thesis's Experiment 1, in the browser).

Each label also records what the filters decided for that phrase when it was labelled, so that
recall, precision, fallout, accuracy and error per site are one aggregate query (no re-extraction
of every labelled page) and stay comparable after a site's filter profile changes.
"""

from django.conf import settings
from django.db import models, transaction
from django.utils import timezone


class PhraseLabel(models.Model):
    """One phrase of one article, marked core (or not) by an expert, beside the filters' decision."""

    article = models.ForeignKey("monitor.Article", on_delete=models.CASCADE, related_name="phrase_labels")
    position = models.PositiveIntegerField(help_text="Index of the phrase in the extraction (0-based).")
    text = models.TextField(help_text="The phrase as labelled; a label whose text no longer matches is stale.")
    is_core = models.BooleanField(help_text="The expert's label.")
    kept = models.BooleanField(help_text="Whether the filters kept the phrase when it was labelled.")
    removed_by = models.CharField(max_length=20, blank=True, help_text="The filter that removed it, if any.")
    labelled_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL)
    labelled_at = models.DateTimeField(default=timezone.now)

    class Meta:
        app_label = "classifier"
        ordering = ["article_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["article", "position"], name="unique_phrase_label_position"),
        ]

    def __str__(self) -> str:
        return f"article {self.article_id} phrase {self.position}: {'core' if self.is_core else 'noise'}"

    @classmethod
    @transaction.atomic
    def store_marks(cls, article, phrases, marks: dict[int, bool], user, every: bool = False) -> int:
        """Store the phrases the expert changed in marking mode; returns how many labels the article has.

        The form sends every phrase's mark, each starting at its saved label or else at the filters'
        decision: a mark equal to the filters' decision on an unlabelled phrase is one the expert left alone,
        and storing it would count the filters agreeing with themselves in the quality table. ``every``
        (the expert checked each phrase) stores them all. Labels saved before stay unless marked again.
        """
        if every:
            return cls.store(article, phrases, marks, user)
        saved = {
            label.position: label.is_core
            for label in cls.objects.filter(article=article)
            if label.position < len(phrases) and phrases[label.position].text == label.text
        }
        changed = {
            pos: is_core
            for pos, is_core in marks.items()
            if pos in saved or not 0 <= pos < len(phrases) or is_core != (phrases[pos].removed_by is None)
        }
        return cls.store(article, phrases, {**saved, **changed}, user)

    @classmethod
    @transaction.atomic
    def store(cls, article, phrases, labels: dict[int, bool], user) -> int:
        """Replace the article's labels by ``labels`` (phrase position -> is core); returns how many.

        ``phrases`` is the extraction the expert saw (filters.Phrase objects, in order); positions
        outside it are an error, so a label can never point at a phrase the expert did not see.
        """
        bad = [pos for pos in labels if not 0 <= pos < len(phrases)]
        if bad:
            raise ValueError(f"no phrase at positions {sorted(bad)} (the page has {len(phrases)} phrases)")
        cls.objects.filter(article=article).delete()
        now = timezone.now()
        rows = [
            cls(
                article=article,
                position=pos,
                text=phrases[pos].text,
                is_core=is_core,
                kept=phrases[pos].removed_by is None,
                removed_by=phrases[pos].removed_by or "",
                labelled_by=user if getattr(user, "is_authenticated", False) else None,
                labelled_at=now,
            )
            for pos, is_core in sorted(labels.items())
        ]
        cls.objects.bulk_create(rows)  # type: ignore[arg-type]  # rows are cls(...) (Self lost under @atomic)
        return len(rows)


def contingency_cells() -> dict[str, models.Count]:
    """The a/b/c/d cells of filters.metrics.Contingency as aggregates over labels (for aggregate or annotate)."""
    return {
        "a": models.Count("id", filter=models.Q(is_core=True, kept=True)),
        "b": models.Count("id", filter=models.Q(is_core=False, kept=True)),
        "c": models.Count("id", filter=models.Q(is_core=True, kept=False)),
        "d": models.Count("id", filter=models.Q(is_core=False, kept=False)),
    }


def contingency_counts(queryset) -> dict[str, int]:
    """The a/b/c/d cells of filters.metrics.Contingency from labels, in one aggregate query."""
    return queryset.aggregate(**contingency_cells())
