"""WebMon's tunables, read from the environment each time they are used.

Read at call time (not import time) so that tests can give worker processes small delays and backoffs
through environment variables without touching wims/settings.py. Defaults are production values; the
reader is foundation/env.py's, like the settings'. wims/settings.py lists these variables with the others.
"""

from django.core.exceptions import ImproperlyConfigured

from foundation.env import env_number


def politeness_delay() -> float:
    """Minimum seconds between two requests to the same host, shared by all workers."""
    return env_number("WIMS_POLITENESS_DELAY", 2.0)


def politeness_max_wait() -> float:
    """A task sleeps at most this long in its thread for its host's turn; beyond that it is re-queued with a
    countdown to when the turn comes (a poll keeps the sources already read, an article fetch holds its slot),
    leaving its thread free."""
    return env_number("WIMS_POLITENESS_MAX_WAIT", 0.25)


def connect_timeout() -> float:
    return env_number("WIMS_CONNECT_TIMEOUT", 5.0, 0.1)


def read_timeout() -> float:
    return env_number("WIMS_READ_TIMEOUT", 20.0, 0.1)


def max_bytes() -> int:
    """Size cap of one response body; larger bodies are abandoned and recorded as errors."""
    return int(env_number("WIMS_MAX_BYTES", 5 * 1024 * 1024, 1024))


def max_redirects() -> int:
    return int(env_number("WIMS_MAX_REDIRECTS", 5))


def retry_base() -> float:
    """First retry delay in seconds; attempt n waits about base * 2**(n-1), with jitter."""
    return env_number("WIMS_RETRY_BASE", 30.0)


def retry_max_delay() -> float:
    return env_number("WIMS_RETRY_MAX_DELAY", 6 * 3600.0)


def max_fetch_attempts() -> int:
    return int(env_number("WIMS_MAX_FETCH_ATTEMPTS", 6, 1))


def missing_page_attempts() -> int:
    """Fetch attempts for a page that answers 404 or 410 although a section page or feed listed it within a
    day: sites often list a link a little before the page is there, or move it back for a while."""
    return int(env_number("WIMS_MISSING_PAGE_ATTEMPTS", 5, 1))


def missing_page_delay() -> float:
    """First wait before asking again for such a page; it doubles (15 min, 30, 60, 120: about 4 h in all)."""
    return env_number("WIMS_MISSING_PAGE_DELAY", 15 * 60.0)


def max_process_attempts() -> int:
    return int(env_number("WIMS_MAX_PROCESS_ATTEMPTS", 3, 1))


def lease_seconds() -> float:
    """How long a claimed row stays claimed; must exceed the task's hard time limit."""
    return env_number("WIMS_LEASE_SECONDS", 180.0, 1.0)


def sweep_grace() -> float:
    """A row due this many seconds ago and still untouched is enqueued again by the dispatcher."""
    return env_number("WIMS_SWEEP_GRACE", 60.0)


def robots_ttl() -> float:
    return env_number("WIMS_ROBOTS_TTL", 24 * 3600.0)


def robots_error_ttl() -> float:
    """How long an unreachable robots.txt (5xx, timeout) blocks the host before it is asked again."""
    return env_number("WIMS_ROBOTS_ERROR_TTL", 600.0)


def max_failure_backoff() -> float:
    """Upper bound of the extra wait before polling a site that keeps failing."""
    return env_number("WIMS_MAX_FAILURE_BACKOFF", 6 * 3600.0)


def auto_learn_pages() -> int:
    """Fetched pages a site needs before its filter profile is learned automatically (0: never).

    Learning needs two readable pages at least; a few more let the template clustering tell the site's
    template text from one story's text. Only sites without a learned profile are learned automatically.
    """
    value = int(env_number("WIMS_AUTO_LEARN_PAGES", 6))
    if value == 1:
        raise ImproperlyConfigured("WIMS_AUTO_LEARN_PAGES=1: site learning needs 2 pages at least (0 turns it off)")
    return value
