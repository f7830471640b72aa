"""Per-site filter settings: the learned profile of each monitored site.

The pure pipeline (filters.pipeline) never touches the database; this model
only stores a :class:`filters.profiles.Profile` as plain columns / JSON and
rebuilds it with :meth:`SiteProfile.to_profile`.
"""

from django.db import models

from .profiles import BUILTIN_PROFILES, THESIS_NEGATIVE, THESIS_POSITIVE, Profile, get_profile

#: learned Profile fields that ``to_dict`` leaves out when empty: kept in ``settings`` only when learned
_OMITTED_WHEN_EMPTY = ("style_tree", "main_region")

BASE_CHOICES = [(name, name) for name in BUILTIN_PROFILES]


def _thesis_negative():
    return list(THESIS_NEGATIVE)


def _thesis_positive():
    return list(THESIS_POSITIVE)


class SiteProfile(models.Model):
    """The noise-filter settings of one site, learned from sample pages of that site."""

    site = models.OneToOneField("monitor.Site", on_delete=models.CASCADE, related_name="filter_profile")
    base_profile = models.CharField(
        max_length=40,
        choices=BASE_CHOICES,
        default="default",
        help_text="Built-in profile the settings start from (thesis = the faithful method).",
    )
    threshold = models.PositiveIntegerField(default=20, help_text="Phrase-length filter: minimum characters.")
    threshold_learned = models.BooleanField(default=False, help_text="Threshold learned from the sample pages.")
    negative_tags = models.JSONField(default=_thesis_negative, blank=True)
    positive_tags = models.JSONField(default=_thesis_positive, blank=True)
    filtering_phrases = models.JSONField(default=list, blank=True, help_text="Redundant phrases of the site.")
    filtering_words = models.JSONField(default=dict, blank=True, help_text="Redundant words: word -> count.")
    settings = models.JSONField(
        default=dict,
        blank=True,
        help_text="Other Profile fields (block phrases, link density, ...) as stored by learning.",
    )
    learned_at = models.DateTimeField(null=True, blank=True)
    learned_from = models.JSONField(default=list, blank=True, help_text="URLs of the sample pages.")
    sample_size = models.PositiveIntegerField(default=0)
    pages_seen = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "site filter profile"

    def __str__(self) -> str:
        return f"filter profile of {self.site}"

    def to_profile(self) -> Profile:
        """The pure profile object for filters.extract(..., profile=...)."""
        data = get_profile(self.base_profile).to_dict()
        data.update({k: v for k, v in (self.settings or {}).items() if k in data or k in _OMITTED_WHEN_EMPTY})
        data.update(
            name=f"site:{self.site_id}",
            min_length=self.threshold,
            negative_tags=list(self.negative_tags),
            positive_tags=list(self.positive_tags),
            filtering_phrases=list(self.filtering_phrases),
            filtering_words=dict(self.filtering_words),
            provenance={
                "base": self.base_profile,
                "learned_at": self.learned_at.isoformat() if self.learned_at else None,
                "learned_from": list(self.learned_from),
                "sample_size": self.sample_size,
            },
        )
        return Profile.from_dict(data)

    def set_profile(self, profile: Profile) -> None:
        """Copy a (learned) profile's settings into the columns; does not save."""
        prov = profile.provenance or {}
        base = prov.get("base") or profile.name
        self.base_profile = base if base in BUILTIN_PROFILES else "default"
        self.threshold = profile.min_length
        self.threshold_learned = bool((prov.get("threshold") or {}).get("learned"))
        self.negative_tags = list(profile.negative_tags)
        self.positive_tags = list(profile.positive_tags)
        self.filtering_phrases = list(profile.filtering_phrases)
        self.filtering_words = dict(profile.filtering_words)
        self.settings = {
            "rescue_from": list(profile.rescue_from),
            "block_phrases": profile.block_phrases,
            "max_link_density": profile.max_link_density,
            "head_phrases": profile.head_phrases,
            "stop_words": profile.stop_words,
            "title_prefix": profile.title_prefix,
            "title_suffix": profile.title_suffix,
            "method": profile.method,
            "wpnc": dict(profile.wpnc),
            "learning": dict(profile.learning),
        }
        if profile.style_tree:  # the site style tree (filters.sst); to_profile reads it back from here
            self.settings["style_tree"] = profile.style_tree
        if profile.main_region:  # the site's usual main content (filters.content)
            self.settings["main_region"] = profile.main_region
        self.learned_from = list(prov.get("learned_from") or [])
        self.sample_size = int(prov.get("sample_size") or 0)
        self.pages_seen = int(prov.get("pages_seen") or 0)
