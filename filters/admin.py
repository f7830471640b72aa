from django.contrib import admin

from .models import SiteProfile


@admin.register(SiteProfile)
class SiteProfileAdmin(admin.ModelAdmin):
    list_display = (
        "site",
        "base_profile",
        "threshold",
        "threshold_learned",
        "phrase_count",
        "word_count",
        "sample_size",
        "learned_at",
    )
    list_filter = ("base_profile", "threshold_learned")
    search_fields = ("site__name", "site__home_url")
    readonly_fields = ("learned_at", "learned_from", "sample_size", "pages_seen", "updated_at")
    raw_id_fields = ("site",)

    @admin.display(description="filtering phrases")
    def phrase_count(self, obj):
        return len(obj.filtering_phrases or [])

    @admin.display(description="filtering words")
    def word_count(self, obj):
        return len(obj.filtering_words or {})
