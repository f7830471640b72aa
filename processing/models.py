"""What processing owns in the database: the record of each site's automatic learning runs.

Fetching and processing count their deliveries on the article row (``Article.fetch_attempts`` and
``process_attempts``, claimed with a lease); site learning has no row of its own to claim, so this one keeps
the count. It is kept in the database, not in the broker's message: a message that kills its worker is
delivered again as a new message (``task_reject_on_worker_lost``), and each processed article of an unlearned
site asks for learning again.
"""

from django.db import models


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
