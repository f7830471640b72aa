"""Site registration and health in the Django admin, for the "site administrators" group (wims/roles.py).

Site administrators need ``is_staff`` to enter the admin; the group's model permissions decide what they
may change. Articles, the fetch log and the per-host state are read-only here: WebMon writes them.
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import Count
from django.template.response import TemplateResponse
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.html import format_html

from .canonical import canonicalise
from .models import Article, FetchAttempt, Host, RobotsFile, Site

RELEARN_AUTO_PAGES = 20


@admin.register(Site)
class SiteAdmin(admin.ModelAdmin):
    list_display = (
        "name",
        "active",
        "health",
        "last_success_at",
        "last_error_at",
        "consecutive_failures",
        "articles_found_last_poll",
        "next_poll",
        "article_count",
    )
    list_filter = ("active", "allow_private_addresses")
    search_fields = ("name", "home_url")
    actions = ["poll_now", "relearn_filter_profile"]
    readonly_fields = (
        "filter_profile_link",
        "last_poll_at",
        "last_success_at",
        "last_error_at",
        "last_error",
        "consecutive_failures",
        "articles_found_last_poll",
        "next_poll_at",
        "created_at",
    )
    fieldsets = (
        (None, {"fields": ("name", "home_url", "active")}),
        (
            "What to watch",
            {
                "fields": (
                    "section_urls",
                    "feed_url",
                    "include_patterns",
                    "exclude_patterns",
                    "poll_interval",
                    "allow_private_addresses",
                )
            },
        ),
        ("Noise filters", {"fields": ("filter_profile_link",)}),
        (
            "Health",
            {
                "fields": (
                    "last_poll_at",
                    "last_success_at",
                    "last_error_at",
                    "last_error",
                    "consecutive_failures",
                    "articles_found_last_poll",
                    "next_poll_at",
                    "created_at",
                )
            },
        ),
    )

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(_articles=Count("articles"))

    @admin.display(description="articles", ordering="_articles")
    def article_count(self, site):
        return site._articles

    @admin.display(description="health")
    def health(self, site):
        if not site.active:
            return "inactive"
        if site.last_poll_at is None:
            return "not polled yet"
        if site.consecutive_failures:
            first = (site.last_error or "").splitlines()[0][:120] if site.last_error else ""
            return format_html('<span style="color:#b00">failing ×{}: {}</span>', site.consecutive_failures, first)
        return format_html('<span style="color:#070">{}</span>', "ok")

    @admin.display(description="next poll", ordering="next_poll_at")
    def next_poll(self, site):
        if not site.active:
            return "—"
        if site.next_poll_at is None or site.next_poll_at <= timezone.now():
            return "due now"
        return site.next_poll_at

    @admin.display(description="filter profile")
    def filter_profile_link(self, site):
        profile = getattr(site, "filter_profile", None) if site.pk else None
        if profile is None:
            return "built-in default profile (use the action “Re-learn filter profile” to learn one)"
        try:
            url = reverse(f"admin:{profile._meta.app_label}_{profile._meta.model_name}_change", args=[profile.pk])
        except NoReverseMatch:
            return str(profile)
        return format_html('<a href="{}">{}</a>', url, profile)

    def save_model(self, request, obj, form, change):
        # Canonical spellings, so that discovery compares like with like; an edited site is polled soon.
        obj.home_url = canonicalise(obj.home_url) or obj.home_url
        if obj.feed_url:
            obj.feed_url = canonicalise(obj.feed_url) or obj.feed_url
        if not change or {"section_urls", "feed_url", "include_patterns", "exclude_patterns"} & set(form.changed_data):
            obj.next_poll_at = None
        super().save_model(request, obj, form, change)

    @admin.action(description="Poll now")
    def poll_now(self, request, queryset):
        from .tasks import poll_site

        ids = list(queryset.filter(active=True).values_list("pk", flat=True))
        for pk in ids:
            poll_site.delay(pk)
        self.message_user(request, f"{len(ids)} poll(s) queued.", messages.SUCCESS)

    @admin.action(description="Re-learn filter profile (with a preview)")
    def relearn_filter_profile(self, request, queryset):
        if queryset.count() != 1:
            self.message_user(request, "Choose exactly one site to re-learn its filter profile.", messages.ERROR)
            return None
        site = queryset.get()
        chosen = request.POST.get("page_urls", "")
        pages, missing = relearn_pages(site, chosen)
        if len(pages) < 2:
            self.message_user(
                request,
                f"{site}: at least 2 fetched pages are needed to learn a profile (found {len(pages)}).",
                messages.ERROR,
            )
            return None
        if request.POST.get("confirm") == "yes":
            try:
                from filters.services import learn_site_profile
            except ImportError:
                self.message_user(request, "The filters app cannot store site profiles yet.", messages.ERROR)
                return None
            learn_site_profile(site, pages)
            self.message_user(request, f"{site}: filter profile learned from {len(pages)} pages.", messages.SUCCESS)
            return None
        try:
            preview = relearn_preview(site, pages)
        except ValueError as exc:
            self.message_user(request, f"{site}: {exc}", messages.ERROR)
            return None
        context = {
            **self.admin_site.each_context(request),
            "title": f"Re-learn the filter profile of {site}",
            "site_obj": site,
            "preview": preview,
            "page_urls": chosen,
            "missing": missing,
            "pages": [url for url, _ in pages],
            "opts": self.model._meta,
            "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/monitor/relearn_preview.html", context)


def relearn_pages(site: Site, chosen: str) -> tuple[list[tuple[str, bytes]], list[str]]:
    """(url, html) pages to learn from: the chosen article URLs, else the site's latest fetched articles."""
    urls = [canonicalise(u) or u for u in chosen.split() if u.strip()]
    stored = Article.objects.filter(site=site, raw_html__isnull=False).exclude(raw_size=0)
    if urls:
        found = {a.url: a for a in stored.filter(url__in=urls)}
        return [(u, found[u].get_raw_html()) for u in urls if u in found], [u for u in urls if u not in found]
    latest = stored.order_by("-fetched_at")[:RELEARN_AUTO_PAGES]
    return [(a.url, a.get_raw_html()) for a in latest], []


def relearn_preview(site: Site, pages: list[tuple[str, bytes]], show_pages: int = 3) -> dict:
    """What a newly learned profile would remove, compared with the current one, on a few of the pages."""
    import filters

    current = site.filter_profile_data() or filters.get_profile("default")
    learned = filters.learn_profile(pages, base="default")
    examples = []
    for url, body in pages[:show_pages]:
        before = filters.extract(body, url=url, profile=current)
        after = filters.extract(body, url=url, profile=learned)
        kept_before = {p.text for p in before.core_phrases}
        newly_removed = [(p.text, p.removed_by) for p in after.phrases if p.removed_by and p.text in kept_before]
        examples.append(
            {
                "url": url,
                "removed": newly_removed,
                "core_before": len(before.core_phrases),
                "core_after": len(after.core_phrases),
            }
        )
    return {
        "profile": learned,
        "filtering_phrases": learned.filtering_phrases[:200],
        "filtering_words": sorted(learned.filtering_words.items())[:200],
        "min_length": learned.min_length,
        "current_min_length": current.min_length,
        "examples": examples,
    }


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Article)
class ArticleAdmin(ReadOnlyAdmin):
    list_display = (
        "title_or_url",
        "site",
        "state",
        "fetch_attempts",
        "http_status",
        "published_at",
        "collected_at",
        "processed_at",
        "duplicate_of",
    )
    list_filter = ("state", "site")
    search_fields = ("url", "title")
    list_select_related = ("site", "duplicate_of")
    exclude = ("raw_html", "extraction", "tokens")
    raw_id_fields = ("duplicate_of",)

    @admin.display(description="article")
    def title_or_url(self, article):
        return article.title or article.url


@admin.register(FetchAttempt)
class FetchAttemptAdmin(ReadOnlyAdmin):
    list_display = (
        "started_at",
        "site",
        "kind",
        "url",
        "attempt",
        "status",
        "outcome",
        "duration_ms",
        "bytes",
        "error",
    )
    list_filter = ("outcome", "kind", "site")
    search_fields = ("url", "error")
    list_select_related = ("site",)
    raw_id_fields = ("article",)


@admin.register(Host)
class HostAdmin(ReadOnlyAdmin):
    list_display = ("name", "next_request_at")
    search_fields = ("name",)


@admin.register(RobotsFile)
class RobotsFileAdmin(ReadOnlyAdmin):
    list_display = ("origin", "status", "fetched_at", "expires_at")
    search_fields = ("origin",)
