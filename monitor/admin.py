"""Site registration and health in the Django admin, for the "site administrators" group (foundation/roles.py).

The processing app extends the site page with what it owns (the filter profile and its re-learning):
see processing/admin.py.

Site administrators need ``is_staff`` to enter the admin; the group's model permissions decide what they
may change. Articles, the fetch log and the per-host state are read-only here: WebMon writes them.
"""

from __future__ import annotations

from datetime import timedelta

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.html import format_html

from foundation.admin import ReadOnlyAdmin
from foundation.work import QUARANTINED, enqueue

from . import services
from .canonical import canonicalise
from .models import Article, FetchAttempt, Host, RobotsFile, Site, check_site_change
from .tasks import poll_site


class SiteForm(forms.ModelForm):
    """The site form, held to what only a superuser may change (monitor.models.check_site_change)."""

    editor = None  # the signed-in user: SiteAdmin.get_form makes a subclass per request with it

    def clean(self):
        data = super().clean()
        try:
            # self.instance still holds the stored values here: the form's values reach it after clean()
            check_site_change(self.instance if self.instance.pk else None, data, self.editor)
        except ValidationError as exc:
            for name, errors in exc.error_dict.items():
                self.add_error(name if name in self.fields else None, errors)
        return data


@admin.register(Site)
class SiteAdmin(admin.ModelAdmin):
    class Media:
        # the health colours: a stylesheet, since the app's Content-Security-Policy refuses inline styles
        css = {"all": ("css/admin.css",)}

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
    actions = ["poll_now"]
    readonly_fields = Site.HEALTH_FIELDS
    form = SiteForm

    def get_form(self, request, obj=None, change=False, **kwargs):
        kwargs["form"] = type("SiteForm", (self.form,), {"editor": request.user})
        return super().get_form(request, obj, change, **kwargs)

    def get_readonly_fields(self, request, obj=None):
        # Letting a site reach the local network is a superuser's decision (it opens the intranet to anyone who
        # can edit the site's URLs); site administrators see it but cannot change it.
        fields = tuple(super().get_readonly_fields(request, obj))
        return fields if request.user.is_superuser else (*fields, "allow_private_addresses")

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
                    "articles_only",
                    "sibling_hosts",
                    "allow_private_addresses",
                )
            },
        ),
        ("Health", {"fields": Site.HEALTH_FIELDS}),
    )

    def get_changeform_initial_data(self, request):
        # a site registered by its home page yields links to everything: only its articles go on to the experts
        return {"articles_only": True, **super().get_changeform_initial_data(request)}

    def get_queryset(self, request):
        day_ago = timezone.now() - timedelta(days=1)
        failed = (
            FetchAttempt.objects.filter(
                site=OuterRef("pk"), outcome=FetchAttempt.Outcome.FAILED, started_at__gte=day_ago
            )
            .order_by()
            .values("site")
            .annotate(n=Count("id"))
            .values("n")
        )
        quarantined = (
            Article.objects.filter(site=OuterRef("pk"), state=Article.State.FAILED, last_error__startswith=QUARANTINED)
            .order_by()
            .values("site")
            .annotate(n=Count("id"))
            .values("n")
        )
        return (
            super()
            .get_queryset(request)
            .annotate(
                _articles=Count("articles"),
                _failed_day=Coalesce(Subquery(failed), 0),
                _quarantined=Coalesce(Subquery(quarantined), 0),
            )
        )

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
            return format_html('<span class="health failing">failing ×{}: {}</span>', site.consecutive_failures, first)
        quarantined = getattr(site, "_quarantined", 0)
        if quarantined:  # pages that killed or timed out their worker: a site administrator's "Fetch again"
            return format_html(
                '<span class="health degraded">degraded: {} article(s) quarantined (they stopped their worker)</span>',
                quarantined,
            )
        failed = getattr(site, "_failed_day", 0)
        if failed:  # polls work, but articles fail: not "ok"
            return format_html(
                '<span class="health degraded">degraded: {} failed fetch(es) in the last day</span>', failed
            )
        return format_html('<span class="health ok">{}</span>', "ok")

    @admin.display(description="next poll", ordering="next_poll_at")
    def next_poll(self, site):
        if not site.active:
            return "—"
        if site.next_poll_at is None or site.next_poll_at <= timezone.now():
            return "due now"
        return site.next_poll_at

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
        ids = list(queryset.filter(active=True).values_list("pk", flat=True))
        for pk in ids:
            poll_site.delay(pk)
        self.message_user(request, f"{len(ids)} poll(s) queued.", messages.SUCCESS)


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
    exclude = ("raw_html",)
    raw_id_fields = ("duplicate_of",)
    actions = ["fetch_again"]

    def has_refetch_permission(self, request):
        return request.user.has_perm("monitor.change_site")  # the site administrators

    @admin.action(description="Fetch again (failed articles only)", permissions=["refetch"])
    def fetch_again(self, request, queryset):
        outcome = services.fetch_again(list(queryset.values_list("pk", flat=True)))
        enqueue(outcome)
        self.message_user(request, f"{len(outcome.enqueue)} failed article(s) queued to be fetched again.")

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
