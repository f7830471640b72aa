"""The site page of the admin, extended with what processing owns: the site's filter profile and re-learning.

WebMon's SiteAdmin (monitor/admin.py) knows sites, polling and health only; this subclass replaces its
registration (this app comes after monitor in INSTALLED_APPS) and adds the "Noise filters" section and the
action "Re-learn filter profile", which previews what a newly learned profile would remove before saving it.
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.template.response import TemplateResponse
from django.urls import NoReverseMatch, reverse
from django.utils.html import format_html
from django.utils.translation import ngettext

from classifier.models import Case, cornerstone_q
from foundation.admin import ReadOnlyAdmin
from foundation.work import enqueue
from monitor.admin import SiteAdmin
from monitor.models import Site

from . import learning
from .models import NotArticle
from .services import confirm_articles

#: the cornerstone cases a site's delete page names (the rest are counted)
NAMED_CORNERSTONES = 5


class SiteWithProfileAdmin(SiteAdmin):
    actions = [*SiteAdmin.actions, "relearn_filter_profile", "retry_filter_learning"]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("learning")

    @admin.display(description="health")
    def health(self, site):
        """WebMon's health, and whether the site's automatic learning is quarantined (processing owns it)."""
        if learning.quarantined(site):
            return format_html(
                "filter learning quarantined: {} · {}",
                site.learning.last_error[:160],
                super().health(site),
            )
        return super().health(site)

    @admin.action(description="Retry filter learning (after a quarantine)")
    def retry_filter_learning(self, request, queryset):
        sites = [site for site in queryset.select_related("learning") if learning.quarantined(site)]
        for site in sites:
            enqueue(learning.retry_learning(site))
        self.message_user(
            request,
            f"Filter learning asked again for {len(sites)} quarantined {ngettext('site', 'sites', len(sites))}.",
            messages.SUCCESS,
        )

    def kept_with(self, sites: list[Site]) -> dict[int, list[str]]:
        """A site's rules' cornerstone cases stay when it is deleted, without their articles (keep_cornerstones):
        the rules were validated against their keywords. Counted, with the first few addresses named."""
        kept = super().kept_with(sites)
        stones = Case.objects.filter(cornerstone_q(), article__site__in=sites).distinct().order_by("pk")
        urls: dict[int, list[str]] = {}
        for site_id, url in stones.values_list("article__site_id", "article__url"):
            urls.setdefault(site_id, []).append(url)
        for site_id, found in urls.items():
            shown = ", ".join(found[:NAMED_CORNERSTONES]) + (" …" if len(found) > NAMED_CORNERSTONES else "")
            kept.setdefault(site_id, []).append(
                format_html(
                    "Kept in the knowledge base: {} {}, without {} (the keywords and address stay: the rules were "
                    "validated against them): {}",
                    len(found),
                    ngettext("cornerstone case", "cornerstone cases", len(found)),
                    ngettext("its article", "their articles", len(found)),
                    shown,
                )
            )
        return kept

    def get_readonly_fields(self, request, obj=None):
        return ("filter_profile_link", *super().get_readonly_fields(request, obj))

    def get_fieldsets(self, request, obj=None):
        fieldsets = list(super().get_fieldsets(request, obj))
        fieldsets.insert(2, ("Noise filters", {"fields": ("filter_profile_link",)}))  # after "What to watch"
        return fieldsets

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

    @admin.action(description="Re-learn filter profile (with a preview)")
    def relearn_filter_profile(self, request, queryset):
        if queryset.count() != 1:
            self.message_user(request, "Choose exactly one site to re-learn its filter profile.", messages.ERROR)
            return None
        site = queryset.get()
        chosen = request.POST.get("page_urls", "")
        pages, missing = learning.learning_pages(site, chosen)
        if len(pages) < 2:
            self.message_user(
                request,
                f"{site}: at least 2 fetched pages are needed to learn a profile (found {len(pages)}).",
                messages.ERROR,
            )
            return None
        try:
            if request.POST.get("confirm") == "yes":
                enqueue(learning.relearn_site(site, pages))
                self.message_user(
                    request,
                    f"{site}: filter profile learned from {len(pages)} pages; its articles are being filtered again.",
                    messages.SUCCESS,
                )
                return None
            preview = learning.relearn_preview(site, pages)
        except ValueError as exc:  # fewer than two readable pages among them
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
        return TemplateResponse(request, "admin/processing/relearn_preview.html", context)


admin.site.unregister(Site)
admin.site.register(Site, SiteWithProfileAdmin)


@admin.register(NotArticle)
class NotArticleAdmin(ReadOnlyAdmin):
    """The pages kept out of the inbox as not articles, with WIMS's reason; "This is an article" sends one on to
    the experts (processed again, never judged again)."""

    list_display = ("page", "site", "kind", "reason", "collected_at")
    list_filter = ("site",)
    search_fields = ("url", "title")
    list_select_related = ("site", "content")
    actions = ["this_is_an_article"]

    def get_queryset(self, request):
        return super().get_queryset(request).filter(state=NotArticle.State.NOT_ARTICLE)

    @admin.display(description="page")
    def page(self, article):
        return format_html('<a href="{}" rel="noopener noreferrer">{}</a>', article.url, article.title or article.url)

    @admin.display(description="kind")
    def kind(self, article):
        return article.extracted.kind

    @admin.display(description="why not an article")
    def reason(self, article):
        return article.extracted.kind_reason

    def has_confirm_permission(self, request):  # the action's, not the form's: the rows stay read-only
        return request.user.has_perm("processing.change_notarticle")

    @admin.action(description="This is an article: process it as one", permissions=["confirm"])
    def this_is_an_article(self, request, queryset):
        outcome = confirm_articles(queryset.values_list("pk", flat=True), request.user)
        enqueue(outcome)
        self.message_user(
            request,
            f"{len(outcome.enqueue)} {ngettext('page', 'pages', len(outcome.enqueue))} "
            "sent on to processing as articles.",
            messages.SUCCESS,
        )
