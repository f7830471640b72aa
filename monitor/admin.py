"""Site registration and health in the Django admin, for the "site administrators" group (foundation/roles.py).

The processing app extends the site page with what it owns (the filter profile and its re-learning):
see processing/admin.py.

Site administrators need ``is_staff`` to enter the admin; the group's model permissions decide what they
may change. Articles, the fetch log and the per-host state are read-only here: WebMon writes them.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core import signing
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import router, transaction
from django.db.models import Count, Exists, Model, OuterRef, Subquery
from django.db.models.deletion import Collector, ProtectedError, RestrictedError
from django.db.models.functions import Coalesce
from django.http import HttpRequest
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.text import Truncator, capfirst
from django.utils.timesince import timesince
from django.utils.translation import ngettext

from foundation.admin import ReadOnlyAdmin
from foundation.work import QUARANTINED, enqueue

from . import previews, services, site_settings
from .canonical import canonicalise
from .finding import Found, Proposal
from .models import Article, FetchAttempt, Host, RobotsFile, Site, Source, check_site_change
from .tasks import poll_site

#: the sources proposed travel signed in the preview's form: what is saved is what WIMS found (or a stale preview)
_PROPOSAL_SALT = "monitor.site.sources"
#: the characters of a failing site's last error shown in the site list (the whole first line is its tooltip)
_ERROR_SHOWN = 60


def _poll_now(site: Site, *, early: bool = False) -> bool:
    """Claim the site's poll and enqueue it when the transaction commits; False: a poll holds it already.
    ``early``: before its time too (services.claim_poll)."""
    if not services.claim_poll(site, early=early):
        return False
    transaction.on_commit(lambda: poll_site.delay(site.pk))
    return True


def _warn_shared_host(request: HttpRequest, site: Site) -> None:
    """Say which other sites watch the host of ``site``'s home page, and what happens to the articles they share."""
    others = services.sites_on_host(site)
    if not others:
        return
    named = ", ".join(f"“{other.name}” ({other.home_url})" for other in others)
    messages.warning(
        request,
        f"{site} is on the same host as {named}. An article both sites list is credited to whichever fetched it "
        "first: the other site shows it as a re-publication (duplicate) of that one. If this is the same site "
        "under another address, delete this one.",
    )


def _short(moment) -> str:
    """A date in the site list: day, month and time in the server's zone (the list must fit 1280 px)."""
    return date_format(timezone.localtime(moment), "j M H:i")


class SiteForm(forms.ModelForm):
    """The site form, held to what only a superuser may change (monitor.models.check_site_change)."""

    editor = None  # the signed-in user: SiteAdmin.get_form makes a subclass per request with it

    # Canonical spellings, so that discovery compares like with like, and before the form checks that no other
    # site has the address ("http://host" is "http://host/": saved as typed, it passed that check and the database
    # refused it with a 500)
    def clean_home_url(self):
        return canonicalise(self.cleaned_data["home_url"]) or self.cleaned_data["home_url"]

    def clean_feed_url(self):
        url = self.cleaned_data.get("feed_url")
        return (canonicalise(url) or url) if url else url

    def clean(self):
        data = super().clean()
        try:
            # self.instance still holds the stored values here: the form's values reach it after clean()
            check_site_change(self.instance if self.instance.pk else None, data, self.editor)
        except ValidationError as exc:
            for name, errors in exc.error_dict.items():
                self.add_error(name if name in self.fields else None, errors)
        return data


class SourceInline(admin.TabularInline):
    """The sources WIMS found for the site (or an administrator added): untick *active* to stop polling one."""

    model = Source
    extra = 0
    fields = ("url", "kind", "active", "found", "created_at")
    readonly_fields = ("found", "created_at")
    verbose_name_plural = "Sources (found by WIMS with “Find sources”, or added by hand)"


@admin.register(Site)
class SiteAdmin(admin.ModelAdmin):
    class Media:
        # the health colours: a stylesheet, since the app's Content-Security-Policy refuses inline styles
        css = {"all": ("css/admin.css",)}

    # Fits a 1280 px window beside the admin's two sidebars: the failures and the last error are in the health
    # column (the whole error in its tooltip and on the site's page), dates are short.
    list_display = ("name", "active", "health", "last_success", "found_last_poll", "next_poll", "article_count")
    list_filter = ("active", "allow_private_addresses")
    search_fields = ("name", "home_url")
    actions = ["poll_now", "find_sources", "stop_watching"]
    # the next poll as the site list says it ("under way" while a poll's lease stands in next_poll_at)
    readonly_fields = tuple("next_poll" if name == "next_poll_at" else name for name in Site.HEALTH_FIELDS)
    form = SiteForm
    inlines = [SourceInline]
    change_form_template = "admin/monitor/site/change_form.html"
    # both say, beside what goes or why nothing may, how to stop watching a site instead (stop_watching)
    delete_confirmation_template = "admin/monitor/site/delete_confirmation.html"
    delete_selected_confirmation_template = "admin/monitor/site/delete_selected_confirmation.html"

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
        ("Health", {"fields": readonly_fields}),
    )

    def get_inlines(self, request, obj):
        # a site being registered has no sources yet: they are proposed once it is saved (sources_view)
        return super().get_inlines(request, obj) if obj is not None else []

    def get_changeform_initial_data(self, request):
        # a site registered by its home page yields links to everything: only its articles go on to the experts
        return {"articles_only": True, **super().get_changeform_initial_data(request)}

    def get_queryset(self, request):
        day_ago = timezone.now() - timedelta(days=1)
        # a failure its address's later fetch made good is past: a live trial saw a site "degraded" for a day
        # after a refused preview, every poll since a success
        made_good = FetchAttempt.objects.filter(
            site=OuterRef("site"),
            url=OuterRef("url"),
            started_at__gt=OuterRef("started_at"),
            outcome__in=[FetchAttempt.Outcome.OK, FetchAttempt.Outcome.NOT_MODIFIED],
        )
        failed = (
            FetchAttempt.objects.filter(
                site=OuterRef("pk"), outcome=FetchAttempt.Outcome.FAILED, started_at__gte=day_ago
            )
            .exclude(Exists(made_good))
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
            first = (site.last_error or "").splitlines()[0] if site.last_error else ""
            return format_html(
                '<span class="health failing" title="{}">failing ×{}: {}</span>',
                first[:500],
                site.consecutive_failures,
                Truncator(first).chars(_ERROR_SHOWN),
            )
        quarantined = getattr(site, "_quarantined", 0)
        if quarantined:  # pages that killed or timed out their worker: a site administrator's "Fetch again"
            return format_html(
                '<span class="health degraded" title="pages that stopped their worker: Fetch again retries them">'
                "degraded: {} {} quarantined</span>",
                quarantined,
                ngettext("article", "articles", quarantined),
            )
        failed = getattr(site, "_failed_day", 0)
        if failed:  # polls work, but articles fail: not "ok"
            return format_html(
                '<span class="health degraded">degraded: {} failed {} in the last day</span>',
                failed,
                ngettext("fetch", "fetches", failed),
            )
        return format_html('<span class="health ok">{}</span>', "ok")

    @admin.display(description="last success", ordering="last_success_at")
    def last_success(self, site):
        return _short(site.last_success_at) if site.last_success_at else "—"

    @admin.display(description="found last poll", ordering="articles_found_last_poll")
    def found_last_poll(self, site):
        return site.articles_found_last_poll

    @admin.display(description="next poll", ordering="next_poll_at")
    def next_poll(self, site):
        if not site.active:
            return "—"
        now = timezone.now()
        if site.next_poll_at is None or site.next_poll_at <= now:
            return "due now"
        if site.poll_queued_at is not None:  # next_poll_at is the poll's lease (services._claim), not a poll time
            return f"under way (queued {_short(site.poll_queued_at)})"
        return _short(site.next_poll_at)

    def save_model(self, request, obj, form, change):
        # only what the administrator changed (a poll ending meanwhile wrote newer health); an edited site that is
        # due (its watched addresses changed, or it waits for its first poll) is polled at once, unless a poll under
        # way holds it: it reads the change. The addresses are canonical (SiteForm); a new site is polled once its
        # sources are chosen (response_add: the preview).
        site_settings.save_settings(obj, form.changed_data)
        if "home_url" in form.changed_data:
            _warn_shared_host(request, obj)
        if change:
            _poll_now(obj)

    def response_add(self, request, obj, post_url_continue=None):
        if "_continue" in request.POST or "_addanother" in request.POST or "_popup" in request.POST:
            return super().response_add(request, obj, post_url_continue)
        self.message_user(request, f"{obj} registered. WIMS proposes its sources below: tick those to keep.")
        return redirect("admin:monitor_site_sources", obj.pk)

    def get_urls(self):
        view = self.admin_site.admin_view(self.sources_view)
        return [path("<int:site_id>/sources/", view, name="monitor_site_sources"), *super().get_urls()]

    @admin.action(description="Find sources (with a preview)")
    def find_sources(self, request, queryset):
        if queryset.count() != 1:
            self.message_user(request, "Choose exactly one site to find its sources.", messages.ERROR)
            return None
        return redirect("admin:monitor_site_sources", queryset.get().pk)

    def sources_view(self, request, site_id: int):
        """Show the site's sources, found recently (monitor/previews.py: *Find again* finds them anew), and what each
        would yield before anything is saved; keep those ticked."""
        site = get_object_or_404(Site, pk=site_id)
        if not self.has_change_permission(request, site):
            raise PermissionDenied
        if request.method == "POST" and "find_again" in request.POST:  # the stored preview replaced (previews.py)
            previews.preview(site, again=True)
            return redirect("admin:monitor_site_sources", site.pk)
        if request.method == "POST":
            try:
                proposal = signing.loads(request.POST.get("proposal", ""), salt=_PROPOSAL_SALT, max_age=3600)
            except signing.BadSignature:
                self.message_user(
                    request, "The preview was too old or altered: find the sources again.", messages.ERROR
                )
                return redirect("admin:monitor_site_sources", site.pk)
            chosen = Proposal(site.home_url, [Found(url, kind, reason) for url, kind, reason in proposal])
            kept = services.keep_found(site, chosen, set(request.POST.getlist("keep")))
            active = sum(source.active for source in kept)
            first = "a poll with them" if site.last_poll_at else "its first poll"  # a trial's polled site: "first"
            when = f"{first} starts now" if _poll_now(site) else "read by the poll under way or the next"
            self.message_user(
                request, f"{site}: {active} {ngettext('source', 'sources', active)} kept, {when}.", messages.SUCCESS
            )
            return redirect("admin:monitor_site_change", site.pk)
        proposal, found_at = previews.preview(site)  # the one found recently, else found now
        stored = dict(site.sources.values_list("url", "active"))
        for item in proposal.sources:
            if item.url in stored:  # found before: the administrator's choice stands
                item.keep = stored[item.url]
        signed = signing.dumps([(f.url, f.kind, f.reason) for f in proposal.sources], salt=_PROPOSAL_SALT)
        context = {
            **self.admin_site.each_context(request),
            "title": f"Sources of {site}",
            "site_obj": site,
            "proposal": proposal,
            "found_at": found_at,
            # timesince says "0 minutes" for a preview found a moment ago
            "found_ago": timesince(found_at) if timezone.now() - found_at >= timedelta(minutes=1) else "moments",
            "signed": signed,
            "polled": site.polled_sources(),
            "home_polled": site.home_url in site.watched_urls,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/monitor/site/sources.html", context)

    def get_deleted_objects(
        self, objs: Any, request: HttpRequest
    ) -> tuple[list[Any], dict[Any, int], set[Any], list[Any]]:
        """What deleting sites takes with them, for the confirmation page and the delete action: a count per kind of
        row and the sites by name. Django's own lists every row (each case's keyword rows: millions for a real
        site, a page that never comes back); this collects as the deletion itself does, counting the rows the
        database deletes in bulk. A superuser may delete sites with their cases and classifications: the knowledge
        base's read-only admins (foundation.admin.ReadOnlyAdmin) refuse to delete those on their own, which is
        what a site administrator who is no superuser is still told. A rule's cornerstone case stays, without its
        article (classifier.models.keep_cornerstones): each site's entry says how many (kept_with)."""
        sites = list(objs)
        collector = Collector(using=router.db_for_write(Site))
        protected: list[str] = []
        try:
            collector.collect(sites)
        except ProtectedError as exc:
            protected = [f"{capfirst(o._meta.verbose_name)}: {o}" for o in exc.protected_objects]
        except RestrictedError as exc:
            protected = [f"{capfirst(o._meta.verbose_name)}: {o}" for o in exc.restricted_objects]
        counts: dict[type[Model], int] = {}
        for model, instances in collector.data.items():
            counts[model] = counts.get(model, 0) + len(instances)
        for rows in collector.fast_deletes:
            counts[rows.model] = counts.get(rows.model, 0) + rows.count()
        counts = {model: n for model, n in counts.items() if n}  # a kind of row with none to delete needs no right
        perms_needed = set()
        if not request.user.is_superuser:
            for model in counts:
                model_admin = self.admin_site._registry.get(model)
                if model_admin is not None and not model_admin.has_delete_permission(request):
                    perms_needed.add(model._meta.verbose_name)
        summary = {model._meta.verbose_name_plural: n for model, n in counts.items()}
        kept = self.kept_with(sites)
        named: list[Any] = []
        for site in sites:
            named.append(format_html("{}: {}", capfirst(Site._meta.verbose_name), site))
            if kept.get(site.pk):
                named.append(kept[site.pk])  # a nested list: under the site's name
        return named, summary, perms_needed, protected

    def kept_with(self, sites: list[Site]) -> dict[int, list[str]]:
        """What deleting each site leaves in place, by site id, said on the confirmation page under its name.
        WebMon keeps nothing of a site; the apps that keep rows of theirs say so (processing/admin.py)."""
        return {}

    def render_delete_form(self, request, context):
        context["site_list"] = [context["object"]]  # the page's offer to stop watching it instead
        return super().render_delete_form(request, context)

    def delete_model(self, request, obj):
        self.delete_queryset(request, Site.objects.filter(pk=obj.pk))

    def delete_queryset(self, request, queryset):
        """Through services.delete_sites: other sites' re-publications of the articles deleted are read again."""
        outcome = services.delete_sites(queryset)
        transaction.on_commit(lambda: enqueue(outcome))

    @admin.action(description="Stop watching (inactive: not polled, everything kept)", permissions=["change"])
    def stop_watching(self, request, queryset):
        """What the delete pages offer instead of deleting: the site stays, with its articles, and is not polled."""
        n = queryset.filter(active=True).update(active=False)
        self.message_user(
            request,
            f"{n} {ngettext('site', 'sites', n)} no longer watched: not polled, articles and cases kept. "
            "Tick “Active” on a site's page to watch it again.",
            messages.SUCCESS,
        )

    @admin.action(description="Poll now")
    def poll_now(self, request, queryset):
        """Queue a poll of each active site chosen, but not a second one beside a poll queued or under way (it
        was deferred behind the first, time after time, for the host's turn)."""
        sites = list(queryset.filter(active=True))
        queued = sum(_poll_now(site, early=True) for site in sites)
        message = f"{queued} {ngettext('poll', 'polls', queued)} queued."
        if len(sites) > queued:
            message += f" {len(sites) - queued} already under way."
        self.message_user(request, message, messages.SUCCESS)


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
        self.message_user(
            request,
            f"{len(outcome.enqueue)} failed {ngettext('article', 'articles', len(outcome.enqueue))} "
            "queued to be fetched again.",
        )

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
    list_display = ("name", "next_request")
    fields = ("name", "next_request")
    readonly_fields = ("next_request",)
    search_fields = ("name",)

    @admin.display(description="next request at", ordering="next_request_at")
    def next_request(self, host):
        """The politeness slot is a Unix time (monitor/politeness.py reserves it with one portable UPDATE): shown
        as a time in the server's zone, to the second (a live trial's list read "1795941382.774142")."""
        if host.next_request_at <= 0:
            return "—"  # never reserved
        moment = datetime.fromtimestamp(host.next_request_at, tz=UTC)
        return date_format(timezone.localtime(moment), "j M H:i:s")


@admin.register(RobotsFile)
class RobotsFileAdmin(ReadOnlyAdmin):
    list_display = ("origin", "status", "fetched_at", "expires_at")
    search_fields = ("origin",)
