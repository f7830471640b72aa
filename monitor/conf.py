"""WebMon's tunables: what each one means, and the code's way to read it.

Their values are Django settings, declared in wims/settings.py with the others (read from the environment
there, at start-up, with their defaults, minimums and checks). These accessors read ``django.conf.settings``
each time they are called: a test changes a value for its own process with pytest-django's ``settings``
fixture, and for the worker processes it starts through their environment (tests/monitor/conftest.py).
"""

from django.conf import settings


def politeness_delay() -> float:
    """Minimum seconds between two requests to the same host, shared by all workers."""
    return settings.WIMS_POLITENESS_DELAY


def politeness_max_wait() -> float:
    """A task sleeps at most this long in its thread for its host's turn; beyond that it is re-queued with a
    countdown to when the turn comes, holding that slot (a poll keeps the sources already read too),
    leaving its thread free."""
    return settings.WIMS_POLITENESS_MAX_WAIT


def connect_timeout() -> float:
    return settings.WIMS_CONNECT_TIMEOUT


def read_timeout() -> float:
    return settings.WIMS_READ_TIMEOUT


def max_bytes() -> int:
    """Size cap of one response body; larger bodies are abandoned and recorded as errors."""
    return settings.WIMS_MAX_BYTES


def max_redirects() -> int:
    return settings.WIMS_MAX_REDIRECTS


def retry_base() -> float:
    """First retry delay in seconds; attempt n waits about base * 2**(n-1), with jitter."""
    return settings.WIMS_RETRY_BASE


def retry_max_delay() -> float:
    return settings.WIMS_RETRY_MAX_DELAY


def max_fetch_attempts() -> int:
    return settings.WIMS_MAX_FETCH_ATTEMPTS


def missing_page_attempts() -> int:
    """Fetch attempts for a page that answers 404 or 410 although a section page or feed listed it within a
    day: sites often list a link a little before the page is there, or move it back for a while."""
    return settings.WIMS_MISSING_PAGE_ATTEMPTS


def missing_page_delay() -> float:
    """First wait before asking again for such a page; it doubles (15 min, 30, 60, 120: about 4 h in all)."""
    return settings.WIMS_MISSING_PAGE_DELAY


def max_process_attempts() -> int:
    return settings.WIMS_MAX_PROCESS_ATTEMPTS


def lease_seconds() -> float:
    """How long a claimed row stays claimed; must exceed its task's hard time limit (wims/settings.py checks)."""
    return settings.WIMS_LEASE_SECONDS


def sweep_grace() -> float:
    """A row due this many seconds ago and still untouched is enqueued again by the dispatcher."""
    return settings.WIMS_SWEEP_GRACE


def robots_ttl() -> float:
    return settings.WIMS_ROBOTS_TTL


def robots_error_ttl() -> float:
    """How long an unreachable robots.txt (5xx, timeout) blocks the host before it is asked again."""
    return settings.WIMS_ROBOTS_ERROR_TTL


def max_failure_backoff() -> float:
    """Upper bound of the extra wait before polling a site that keeps failing."""
    return settings.WIMS_MAX_FAILURE_BACKOFF


def auto_learn_pages() -> int:
    """Fetched pages a site needs before its filter profile is learned automatically (0: never).

    Learning needs two readable pages at least; a few more let the template clustering tell the site's
    template text from one story's text. Only sites without a learned profile are learned automatically.
    """
    return settings.WIMS_AUTO_LEARN_PAGES


def keep_raw_pages_days() -> int:
    """Days a processed article's raw page is kept after its fetch (0: forever); monitor/retention.py."""
    return settings.WIMS_KEEP_RAW_PAGES_DAYS


def keep_fetch_log_days() -> int:
    """Days a fetch log row is kept (0: forever)."""
    return settings.WIMS_KEEP_FETCH_LOG_DAYS


def sitemap_max_age_days() -> float:
    """A poll takes a sitemap's entries dated (news:publication_date, else lastmod) within this many days, and
    skips the child sitemaps of an index not changed since (lastmod): a site's sitemaps list its whole archive."""
    return settings.WIMS_SITEMAP_MAX_AGE_DAYS


def sitemap_max_links() -> int:
    """The newest entries a poll takes from one sitemap source (an index and its children): the first poll of a
    large site queues at most this many fetches from it; undated entries only from a sitemap this small."""
    return settings.WIMS_SITEMAP_MAX_LINKS


def sources_find_seconds() -> float:
    """The time finding a site's sources may take (each request waits for the host's politeness delay): the
    sources left are proposed without their preview."""
    return settings.WIMS_SOURCES_FIND_SECONDS


def sources_preview_delay() -> float:
    """Seconds between two requests of the administrator's sources preview to the site (at most the politeness
    delay): the preview is one burst of a few small pages while someone waits, as a browser loads a page's parts."""
    return min(settings.WIMS_SOURCES_PREVIEW_DELAY, settings.WIMS_POLITENESS_DELAY)


def sources_preview_pages() -> int:
    """Pages the sources preview reads of a site at most (its home page included, robots.txt aside): the sources
    beyond are proposed without their preview, saying so."""
    return settings.WIMS_SOURCES_PREVIEW_PAGES
