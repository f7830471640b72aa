"""WebMon's data: registered sites, the articles collected from them, the fetch log and per-host state.

The database, not the broker, is the source of truth for work still to do: an article row is created the
moment its URL is discovered (state ``pending``) and moves through ``fetching`` -> ``fetched`` ->
``processing`` -> ``processed`` (or ``failed`` / ``duplicate``). Workers claim a row with a conditional
UPDATE and a lease, so a message delivered twice does nothing and a worker killed mid-task only leaves a
lease that expires; the periodic dispatcher then enqueues the row again (see monitor/services.py).
"""

import re
import zlib
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone

from .canonical import canonicalise, same_site


def _lines(text: str) -> list[str]:
    return [line.strip() for line in (text or "").splitlines() if line.strip() and not line.strip().startswith("#")]


def validate_patterns(text: str) -> None:
    """Each non-empty line must be a valid regular expression (lines starting with # are comments)."""
    for line in _lines(text):
        try:
            re.compile(line)
        except re.error as exc:
            raise ValidationError(f"{line!r} is not a valid regular expression: {exc}") from exc


def validate_url_lines(text: str) -> None:
    for line in _lines(text):
        if not line.startswith(("http://", "https://")):
            raise ValidationError(f"{line!r} is not an http(s) URL")


class Site(models.Model):
    """A news site that WebMon polls for new articles."""

    #: written by WebMon, read-only for site administrators (the admin's "Health" section, the API)
    HEALTH_FIELDS = (
        "last_poll_at",
        "last_success_at",
        "last_error_at",
        "last_error",
        "consecutive_failures",
        "articles_found_last_poll",
        "next_poll_at",
        "created_at",
    )

    name = models.CharField(max_length=200, unique=True)
    home_url = models.URLField(max_length=500, unique=True)
    active = models.BooleanField(default=True, help_text="Inactive sites are not polled.")
    created_at = models.DateTimeField(auto_now_add=True)

    # What to watch.
    section_urls = models.TextField(
        blank=True,
        validators=[validate_url_lines],
        help_text="Section pages that list articles, one URL per line, typed in by hand. Empty: the home page. "
        "The sources WIMS found (feeds, sitemaps, section pages) are listed under “Sources”.",
    )
    feed_url = models.URLField(max_length=500, blank=True, help_text="Optional RSS or Atom feed, typed in by hand.")
    find_sources = models.BooleanField(
        default=False,
        editable=False,
        help_text="WIMS looks for the site's feeds, sitemaps and section pages at its next poll and keeps those it "
        "proposes (set when a site is registered; cleared once looked for, or once an administrator chose).",
    )
    include_patterns = models.TextField(
        blank=True,
        validators=[validate_patterns],
        help_text="Regular expressions, one per line: an article URL must match one (empty: any same-site URL).",
    )
    exclude_patterns = models.TextField(
        blank=True,
        validators=[validate_patterns],
        help_text="Regular expressions, one per line: URLs matching any are never fetched.",
    )
    poll_interval = models.PositiveIntegerField(
        default=600, validators=[MinValueValidator(30)], help_text="Seconds between two polls."
    )
    articles_only = models.BooleanField(
        default=False,
        help_text="Keep the pages that are not articles (home, section and service pages, listings, products) out "
        "of the experts' inbox, with the reason, in the admin's list of pages kept out. New sites have it on.",
    )
    sibling_hosts = models.BooleanField(
        default=False,
        help_text="Take articles from every host of the site's registered domain too (for a site at uk.yahoo.com: "
        "uk.news.yahoo.com, uk.celebrity.yahoo.com), by the public suffix list. robots.txt and the delay between "
        "requests stay per host.",
    )
    allow_private_addresses = models.BooleanField(
        default=False,
        help_text="Allow URLs that resolve to loopback, private or link-local addresses "
        "(only for sites on your own network, such as the demo sites).",
    )

    # Health, written by the poller.
    next_poll_at = models.DateTimeField(null=True, blank=True, db_index=True, help_text="Empty: due now.")
    #: set by the claim that queues a poll (the dispatcher, *Poll now*, the sources chosen), cleared when the poll
    #: ends: while it is set, next_poll_at is the poll's lease, not a time anybody should be shown
    poll_queued_at = models.DateTimeField(
        null=True, blank=True, editable=False, help_text="When the poll under way was queued (empty: none is)."
    )
    last_poll_at = models.DateTimeField(null=True, blank=True)
    last_success_at = models.DateTimeField(null=True, blank=True)
    last_error_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    consecutive_failures = models.PositiveIntegerField(default=0)
    articles_found_last_poll = models.PositiveIntegerField(default=0)
    #: conditional GET validators per watched URL: {url: {"etag": ..., "last_modified": ...}}
    validators = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def watched_urls(self) -> list[str]:
        return _lines(self.section_urls) or [self.home_url]

    def polled_sources(self) -> list[tuple[str, str]]:
        """(url, kind) of every source a poll reads, without repeats: the section pages (else the home page) and
        feed typed in by hand, then the active sources found (Source); kind is a FetchAttempt.Kind value."""
        sources: dict[str, str] = {url: "section" for url in self.watched_urls}
        if self.feed_url:
            sources.setdefault(self.feed_url, "feed")
        if self.pk is not None:
            for url, kind in self.sources.filter(active=True).values_list("url", "kind"):
                sources.setdefault(url, kind)
        return list(sources.items())

    @property
    def include_list(self) -> list[str]:
        return _lines(self.include_patterns)

    @property
    def exclude_list(self) -> list[str]:
        return _lines(self.exclude_patterns)


class SourcesPreview(models.Model):
    """The sources last found for a site with their preview (monitor/previews.py): loading the administrator's
    preview again reads nothing of the site until *Find again*, or until the site's settings or the day change.
    A row, not the cache: it outlives a restart and every web process sees it (the default cache is per process)."""

    site = models.OneToOneField(Site, on_delete=models.CASCADE, primary_key=True, related_name="sources_preview")
    found_at = models.DateTimeField()
    #: the site's settings the proposal was found with (previews.settings_key): others make it stale
    settings_key = models.CharField(max_length=64)
    #: monitor.finding.Proposal as JSON, bounded (previews.MAX_BYTES)
    proposal = models.JSONField(default=dict)

    def __str__(self) -> str:
        return f"sources preview of {self.site_id}"


#: the URLs a superuser's allowance of private addresses was given for (WebMon fetches them and their articles)
PRIVATE_ACCESS_URL_FIELDS = ("home_url", "section_urls", "feed_url")


def _comparable(name: str, value: Any) -> Any:
    """A URL field's value as WebMon uses it: the canonical spelling saving stores, the section pages' lines."""
    if name == "section_urls":
        return _lines(value)
    return (canonicalise(value) or value) if value else ""


def check_site_change(site: Site | None, values: Mapping[str, Any], user) -> None:
    """Refuse what only a superuser may change about ``site`` (None: a site being registered), a ValidationError
    by field: whether it reaches private addresses, and, while it may, its URLs. The allowance was given for the
    hosts those URLs name; another URL would open whatever it names on the local network. The admin's form and
    the API's serializer both call this, with the values they are about to save."""
    if user.is_superuser:
        return
    allowed = site.allow_private_addresses if site is not None else False
    errors: dict[str, str] = {}
    # a change is refused, not the value: a form or representation sent back unchanged keeps the allowance
    if values.get("allow_private_addresses", allowed) != allowed:
        errors["allow_private_addresses"] = "Only a superuser may change whether a site reaches private addresses."
    if site is not None and allowed:
        for name in PRIVATE_ACCESS_URL_FIELDS:
            if name in values and _comparable(name, values[name]) != _comparable(name, getattr(site, name)):
                errors[name] = (
                    "A superuser allowed this site to reach private addresses for its current URLs: only a "
                    "superuser may change its home page, section pages or feed. Ask one to make this change."
                )
    if errors:
        raise ValidationError(errors)


class Source(models.Model):
    """A page WebMon reads for article links besides the ones typed in on the site: a feed, a sitemap (Google
    News, regular, or an index of sitemaps) or a section page, found by WIMS (monitor/finding.py) with the reason
    it was proposed, or added by hand. Only active sources are polled."""

    class Kind(models.TextChoices):
        FEED = "feed", "feed (RSS, Atom, JSON Feed)"
        SITEMAP = "sitemap", "sitemap"
        SECTION = "section", "section page"

    site = models.ForeignKey(Site, on_delete=models.CASCADE, related_name="sources")
    url = models.URLField(max_length=2000)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    found = models.TextField(blank=True, help_text="Why WIMS proposed it (empty: added by hand).")
    active = models.BooleanField(default=True, help_text="Polled. Untick to keep it listed but not read.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["site", "kind", "url"]
        constraints = [models.UniqueConstraint(fields=["site", "url"], name="unique_source_url_per_site")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.url}"

    def clean(self) -> None:
        self.url = canonicalise(self.url) or self.url
        if not self.url.startswith(("http://", "https://")):
            raise ValidationError({"url": f"{self.url!r} is not an http(s) URL"})
        site = getattr(self, "site", None)
        # the allowance of private addresses was given for the site's own host: a source elsewhere would open
        # whatever it names on the local network to whoever may edit the site's sources
        if site is not None and site.allow_private_addresses and not same_site(self.url, site.home_url):
            raise ValidationError(
                {"url": "This site may reach private addresses: its sources must be on its own host."}
            )


class Article(models.Model):
    """One article page collected from a site, identified by its canonical URL."""

    class State(models.TextChoices):
        PENDING = "pending", "waiting to be fetched"
        FETCHING = "fetching", "being fetched"
        FETCHED = "fetched", "fetched, waiting to be processed"
        PROCESSING = "processing", "being processed"
        PROCESSED = "processed", "processed"
        FAILED = "failed", "failed"
        DUPLICATE = "duplicate", "duplicate of another article"
        NOT_ARTICLE = "not_article", "not an article (kept out of the inbox)"

    #: states whose stored page processing read through the filters' door (filters.limits): the only pages that
    #: later stages (site learning, re-filtering, the filter view) read again; a refused page is refused everywhere
    READ_STATES = (State.PROCESSED, State.DUPLICATE, State.NOT_ARTICLE)

    # No index of its own (issue 31, bytes per article): the (site, url) constraint's index leads with it.
    site = models.ForeignKey(Site, on_delete=models.CASCADE, related_name="articles", db_index=False)
    url = models.URLField(max_length=2000, help_text="Canonical URL.")
    title = models.CharField(max_length=500, blank=True)
    published_at = models.DateTimeField(null=True, blank=True)
    # whether the source (feed, sitemap or page) gave the publication's time of day, or only its date (stored as
    # midnight UTC: shown as the day alone); null: no date, or stored before this was kept (shown as a day)
    published_time_given = models.BooleanField(null=True, blank=True, editable=False)
    collected_at = models.DateTimeField(auto_now_add=True, db_index=True)
    # The experts' review state, written only by the classifier (classifier.services.refresh_review_states,
    # in the same transaction as every change of the article's classifications), so that the inbox
    # filtered by state is one range scan of an index in inbox order (classifier/selectors.py).
    review_state = models.CharField(
        max_length=10,
        default="unreviewed",
        editable=False,
        help_text="unreviewed (no folder), suggested (a suggestion nobody decided on), correction (a rejected "
        "folder waits for its rule) or reviewed.",
    )
    # The expert the article is assigned to, written only by the classifier (classifier.services.bulk_assign,
    # audited there) and kept here, like review_state, so that an expert's queue is one range scan of an index
    # in inbox order (a join through the case scanned the articles in order, probing each one's case).
    # (no index of its own: article_assignee_idx leads with it)
    assignee = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        editable=False,
        on_delete=models.SET_NULL,
        related_name="assigned_articles",
        db_index=False,
    )
    assigned_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, editable=False, on_delete=models.SET_NULL, related_name="+"
    )
    assigned_at = models.DateTimeField(null=True, blank=True, editable=False)

    # Work state (see the module docstring).
    state = models.CharField(max_length=12, choices=State.choices, default=State.PENDING)
    due_at = models.DateTimeField(default=timezone.now, help_text="When the next fetch attempt may start.")
    lease_until = models.DateTimeField(null=True, blank=True, help_text="A worker holds the row until then.")
    held_slot = models.FloatField(
        null=True, blank=True, editable=False, help_text="Unix time of the host's request slot a deferred fetch holds."
    )
    fetch_attempts = models.PositiveIntegerField(default=0)
    process_attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True)
    fetched_at = models.DateTimeField(null=True, blank=True)
    processed_at = models.DateTimeField(null=True, blank=True)

    # The fetched page.
    final_url = models.URLField(max_length=2000, blank=True, help_text="URL after redirects.")
    canonical_url = models.URLField(max_length=2000, blank=True, help_text='The page\'s rel="canonical".')
    http_status = models.PositiveSmallIntegerField(null=True, blank=True)
    headers = models.JSONField(default=dict, blank=True)
    charset = models.CharField(max_length=40, blank=True, help_text="Charset the page was decoded with.")
    raw_html = models.BinaryField(null=True, blank=True, editable=False, help_text="zlib-compressed body.")
    raw_size = models.PositiveIntegerField(default=0, help_text="Uncompressed body size in bytes.")

    # The duplicate check (processing's output is processing.models.ArticleContent, ``article.content``).
    # Looked up among originals only, through unique_original_content's partial index: an index of every row
    # (and PostgreSQL's second one for LIKE) cost 160 bytes an article for nothing (issue 31).
    content_hash = models.CharField(max_length=64, blank=True, help_text="SHA-256 of the normalised core text.")
    duplicate_of = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="duplicates",
        help_text="The original article this one re-publishes (same or nearly the same core text, or rel=canonical).",
    )

    class Meta:
        ordering = ["-collected_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["site", "url"], name="unique_article_url_per_site"),
            # One original per core text: a second article with the same text becomes its duplicate.
            models.UniqueConstraint(
                fields=["content_hash"],
                condition=Q(duplicate_of__isnull=True) & ~Q(content_hash=""),
                name="unique_original_content",
            ),
        ]
        indexes = [
            models.Index(fields=["state", "due_at"], name="article_work_idx"),
            # the inbox's state filter, alone and with a site, in inbox order (newest first)
            models.Index(fields=["review_state", "-collected_at", "-id"], name="article_review_idx"),
            models.Index(fields=["site", "review_state", "-collected_at", "-id"], name="article_site_review_idx"),
            # the inbox's assignee filter ("assigned to me", to an expert), in inbox order
            models.Index(fields=["assignee", "-collected_at", "-id"], name="article_assignee_idx"),
        ]

    def __str__(self) -> str:
        return self.title or self.url

    @property
    def extracted(self):
        """Processing's output for this article (processing.models.ArticleContent, ``self.content``; read it with
        ``select_related("content")`` to save a query), or, for an article processing never wrote, a new empty
        one attached to it (unsaved: readers see empty text and lists, processing fills it and saves it)."""
        try:
            return self.content
        except ObjectDoesNotExist:
            self.content = self._meta.get_field("content").related_model(article=self)
            return self.content

    @property
    def summary(self) -> str:
        """Its DocView abstract, else its core text ('' before processing wrote them)."""
        return self.extracted.abstract or self.extracted.core_text

    def set_raw_html(self, body: bytes) -> None:
        self.raw_html = zlib.compress(body, 6)
        self.raw_size = len(body)

    @property
    def raw_page_dropped(self) -> bool:
        """Whether the retention policy dropped the page processing read (monitor/retention.py)."""
        return self.raw_html is None and self.raw_size > 0 and self.state in self.READ_STATES

    def get_raw_html(self) -> bytes:
        return zlib.decompress(bytes(self.raw_html)) if self.raw_html else b""


class FetchAttempt(models.Model):
    """One HTTP request WebMon made (or refused to make), for the health view and for debugging."""

    class Kind(models.TextChoices):
        ROBOTS = "robots", "robots.txt"
        SECTION = "section", "section page"
        FEED = "feed", "feed"
        SITEMAP = "sitemap", "sitemap"
        ARTICLE = "article", "article"

    class Outcome(models.TextChoices):
        OK = "ok", "ok"
        NOT_MODIFIED = "not_modified", "not modified"
        RETRY = "retry", "transient error, will retry"
        FAILED = "failed", "permanent error"
        DEFERRED = "deferred", "deferred (politeness)"

    site = models.ForeignKey(Site, on_delete=models.CASCADE, related_name="fetch_attempts")
    article = models.ForeignKey(Article, null=True, blank=True, on_delete=models.CASCADE, related_name="attempts")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    url = models.URLField(max_length=2000)
    attempt = models.PositiveIntegerField(default=1)
    started_at = models.DateTimeField(default=timezone.now, db_index=True)
    duration_ms = models.PositiveIntegerField(default=0)
    status = models.PositiveSmallIntegerField(null=True, blank=True)
    bytes = models.PositiveIntegerField(default=0)
    outcome = models.CharField(max_length=14, choices=Outcome.choices)
    error = models.TextField(blank=True)

    class Meta:
        ordering = ["-started_at", "-id"]

    def __str__(self) -> str:
        return f"{self.kind} {self.url} {self.status or self.outcome}"


class Host(models.Model):
    """Politeness state of one host, shared by all workers: when the next request may start.

    ``next_request_at`` is a Unix time (float) so that one portable conditional UPDATE can reserve a slot
    on SQLite and PostgreSQL alike (monitor/politeness.py).
    """

    name = models.CharField(max_length=255, primary_key=True)
    next_request_at = models.FloatField(default=0.0)

    def __str__(self) -> str:
        return self.name


class RobotsFile(models.Model):
    """Cached robots.txt of one origin (scheme://host:port)."""

    origin = models.CharField(max_length=300, primary_key=True)
    status = models.PositiveSmallIntegerField(null=True, blank=True)
    body = models.TextField(blank=True)
    fetched_at = models.DateTimeField()
    expires_at = models.DateTimeField()

    def __str__(self) -> str:
        return self.origin


class Heartbeat(models.Model):
    """When a periodic job last ran, written by the job itself: ``dispatch`` by the dispatcher (every 30 s).

    /healthz reads it to tell whether the whole chain (beat, broker, the dispatcher's worker) works.
    """

    name = models.CharField(max_length=40, primary_key=True)
    at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.name} at {self.at}"

    @classmethod
    def beat(cls, name: str) -> None:
        cls.objects.update_or_create(name=name, defaults={"at": timezone.now()})
