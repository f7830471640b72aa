"""What processing owns in the database: what it made of each article's page (its core content, with the
reasons of every phrase, its DocView elements and its fingerprint's band keys) and the record of each site's
automatic learning runs.

The article row (``monitor.models.Article``) keeps what WebMon fetched and the work state every stage moves
along; the duplicate check stays there too (``content_hash`` and ``duplicate_of``: its unique constraint, one
original per core text, must see the article's own columns).

Fetching and processing count their deliveries on the article row (``Article.fetch_attempts`` and
``process_attempts``, claimed with a lease); site learning has no row of its own to claim, so this one keeps
the count. It is kept in the database, not in the broker's message: a message that kills its worker is
delivered again as a new message (``task_reject_on_worker_lost``), and each processed article of an unlearned
site asks for learning again.
"""

from django.conf import settings
from django.db import models

from monitor.models import Article


class SiteLearning(models.Model):
    """The automatic filter learning of one site: runs started and not finished, and why it stopped."""

    site = models.OneToOneField("monitor.Site", on_delete=models.CASCADE, related_name="learning")
    #: runs started since the last one that ended (a run killed by its worker's memory or time bound never ends)
    unfinished = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True)
    #: set when ``unfinished`` reached the limit: never tried again automatically until an administrator retries
    quarantined_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "site learning record"

    def __str__(self) -> str:
        return f"learning of {self.site}"


class ArticleContent(models.Model):
    """The core content of one article as processing extracted it: written by processing and re-filtering only
    (processing/extraction.py); every other app reads it (``article.content``)."""

    article = models.OneToOneField(
        "monitor.Article", primary_key=True, on_delete=models.CASCADE, related_name="content"
    )
    core_text = models.TextField(blank=True, help_text="Core content after the noise filters (untrusted text).")
    tokens = models.JSONField(default=list, blank=True)
    extraction = models.JSONField(default=dict, blank=True, help_text="Filter counts and phrase decisions.")
    # DocView elements of the core content (filters/docview.py; empty for articles processed before them).
    keywords = models.JSONField(default=list, blank=True, help_text="[[term, weight], ...], highest first.")
    abstract = models.TextField(blank=True, help_text="The core text's most central sentences (untrusted text).")
    relevant_links = models.JSONField(
        default=list, blank=True, help_text="[[absolute URL, anchor text], ...]: the links inside the core content."
    )
    fingerprint = models.BinaryField(
        null=True, blank=True, editable=False, help_text="MinHash signature of the core text's word shingles."
    )
    # What kind of page it is (filters.kind): only articles go on to the experts; the others are kept out of the
    # inbox, with the reason, until a site administrator says that one is an article after all.
    kind = models.CharField(max_length=16, default="article", help_text="article, listing, forum, product, ...")
    kind_reason = models.CharField(max_length=300, blank=True)
    kind_confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The administrator who said it is an article: it is not judged again.",
    )

    class Meta:
        verbose_name = "article content"
        verbose_name_plural = "article contents"

    def __str__(self) -> str:
        return f"content of article {self.article_id}"


class FingerprintBand(models.Model):
    """One LSH band key of an original article's fingerprint (filters.docview.band_keys): articles that share
    a key are near-duplicate candidates, found by this index instead of comparing every pair."""

    article = models.ForeignKey("monitor.Article", on_delete=models.CASCADE, related_name="fingerprint_bands")
    key = models.BigIntegerField(db_index=True)

    def __str__(self) -> str:
        return f"band {self.key} of article {self.article_id}"


class NotArticle(Article):
    """The pages processing kept out of the inbox as not articles (``Article.State.NOT_ARTICLE``): the site
    administrators' list of them in the admin, where they can say that one is an article after all."""

    class Meta:
        proxy = True
        verbose_name = "page kept out (not an article)"
        verbose_name_plural = "pages kept out (not articles)"
