"""WebMon's use cases: dispatch due polls, poll a site, fetch an article, sweep.

Processing a fetched article (filters, case, inference) is the processing app's (processing/services.py);
WebMon only enqueues it, by the work name ``process``.

Tasks (monitor/tasks.py) are thin shells around these functions: they pass ids in, and enqueue whatever
the returned ``Outcome`` asks for (foundation/work.py, the work queue). Every function here is idempotent and
safe to run twice at once:

* an article is *claimed* for its fetch with the work queue's conditional UPDATE under a lease
  (``work.claim("fetch", …)``; the rows' columns are :data:`FETCH_ROWS`, registered in monitor/apps.py), so a
  redelivered or duplicated message does nothing;
* new article URLs are inserted under the unique (site, url) constraint: only the inserting poll enqueues;
* the sweep (``work.sweep``, every registered stage's rows) re-enqueues rows whose message was lost
  (embedded broker) or whose worker died (SIGKILL): expired leases go back to the previous state, with the
  attempt counted.
"""

from __future__ import annotations

import logging
import random
import time
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from protego import Protego

from foundation import metrics, work
from foundation.work import Outcome, Rows, unexpected_error

from . import conf, politeness
from .canonical import host_of, origin_of
from .discovery import LinkRules, links_from_feed, links_from_html, select_candidates
from .links import Position, UrlTemplates
from .models import Article, FetchAttempt, Heartbeat, Host, RobotsFile, Site
from .net import HTML_TYPES, Deferred, FetchError, Response, fetch

log = logging.getLogger(__name__)

ROBOTS_AGENT = "WIMS"
S = Article.State


def backoff(attempt: int, retry_after: float | None = None) -> float:
    """Delay before attempt ``attempt + 1``: exponential with jitter; a server's Retry-After wins."""
    if retry_after is not None:
        return retry_after + random.uniform(0, max(0.5, 0.1 * retry_after))
    base = conf.retry_base() * 2 ** max(0, attempt - 1)
    return min(conf.retry_max_delay(), base * random.uniform(0.5, 1.5))


def _record(
    site: Site,
    kind: str,
    url: str,
    outcome: str,
    *,
    article: Article | None = None,
    attempt: int = 1,
    started: float,
    status: int | None = None,
    nbytes: int = 0,
    error: str = "",
) -> None:
    duration = time.monotonic() - started
    metrics.FETCHES.labels(kind=kind, outcome=outcome).inc()
    metrics.FETCH_SECONDS.labels(kind=kind).observe(duration)
    FetchAttempt.objects.create(
        site=site,
        article=article,
        kind=kind,
        url=url[:2000],
        attempt=attempt,
        started_at=timezone.now() - timedelta(seconds=duration),
        duration_ms=int(duration * 1000),
        status=status,
        bytes=nbytes,
        outcome=outcome,
        error=error[:2000],
    )


# --------------------------------------------------------------------------- robots.txt

#: parsed robots.txt by (origin, fetched_at): RFC 9309 rules (wildcards, ``$``, longest match), as Scrapy reads them
_parsed_robots: dict[tuple[str, float], Protego] = {}
#: RFC 9309: crawlers must parse at least the first 500 KiB of a robots.txt; a longer one is cut (not refused)
ROBOTS_MAX_BYTES = 512 * 1024
#: robots.txt rows this process has read, by origin, used until they expire (saves a query per request)
_robots_rows: dict[str, RobotsFile] = {}


def _robots(site: Site, origin: str) -> RobotsFile:
    now = timezone.now()
    cached = _robots_rows.get(origin)
    if cached is not None and cached.expires_at > now:
        return cached
    cached = RobotsFile.objects.filter(origin=origin, expires_at__gt=now).first()
    if cached is not None:
        return _remember_robots(cached)
    url = origin + "/robots.txt"
    started = time.monotonic()
    status, body, ttl = None, "", conf.robots_ttl()
    try:
        resp = fetch(
            url,
            allow_private=site.allow_private_addresses,
            max_bytes=ROBOTS_MAX_BYTES,
            truncate=True,
            before_request=lambda u, redirected: politeness.wait_turn(host_of(u), may_defer=not redirected),
        )
        status, body = resp.status, resp.body.decode("utf-8", "replace")
        if len(resp.body) >= ROBOTS_MAX_BYTES:  # cut at the cap: drop the line the cut went through
            body = body[: body.rfind("\n") + 1]
        _record(site, FetchAttempt.Kind.ROBOTS, url, "ok", started=started, status=status, nbytes=len(resp.body))
    except FetchError as exc:
        status = exc.status or 0
        if exc.transient or (exc.status or 0) >= 500 or exc.status is None:
            ttl = conf.robots_error_ttl()  # unreachable: treat as "disallow all" for a while, then ask again
        if exc.status is not None and 400 <= exc.status < 500:
            # RFC 9309 2.3.1.3: "unavailable", everything allowed: the site is fine, so not a failed fetch (a
            # 404 made every site without a robots.txt "degraded"); a 429 or 408 is asked again sooner
            outcome, error = ("retry", str(exc)) if exc.transient else ("ok", "")
        else:
            outcome, error = "failed", str(exc)
        _record(
            site,
            FetchAttempt.Kind.ROBOTS,
            url,
            outcome,
            started=started,
            status=exc.status,
            error=error,
            nbytes=exc.nbytes,
        )
    robots, _ = RobotsFile.objects.update_or_create(
        origin=origin,
        defaults={"status": status, "body": body, "fetched_at": now, "expires_at": now + timedelta(seconds=ttl)},
    )
    return _remember_robots(robots)


def _remember_robots(robots: RobotsFile) -> RobotsFile:
    if len(_robots_rows) > 5000:
        _robots_rows.clear()
    _robots_rows[robots.origin] = robots
    return robots


def robots_allows(site: Site, url: str) -> bool:
    """robots.txt decision for WIMS's user-agent token; raises a transient FetchError when unreachable."""
    robots = _robots(site, origin_of(url))
    if robots.status is None or robots.status == 0 or robots.status >= 500:
        raise FetchError(
            f"robots.txt of {origin_of(url)} unreachable (status {robots.status})", transient=True, url=url
        )
    if robots.status >= 400:  # no robots.txt (RFC 9309 "unavailable"): everything allowed
        return True
    key = (robots.origin, robots.fetched_at.timestamp())
    parser = _parsed_robots.get(key)
    if parser is None:
        parser = Protego.parse(robots.body)
        if len(_parsed_robots) > 2000:
            _parsed_robots.clear()
        _parsed_robots[key] = parser
    return parser.can_fetch(url, ROBOTS_AGENT)


def _hook(site: Site, article: Article | None = None):
    """before_request for net.fetch: robots.txt, then the shared per-host delay.

    Only the first hop of a fetch may be deferred when the host is busy: a redirect hop waits for its slot
    (at most the politeness delay per hop, a few hops), because a deferred fetch starts again from its first
    URL; with a delay longer than WIMS_POLITENESS_MAX_WAIT, as in production, a redirect to the same host
    would otherwise be deferred on every attempt, for ever. An article fetch deferred holds its slot
    (``Article.held_slot``, politeness.take_turn); a poll keeps the sources it has read instead.
    """

    def before(url: str, redirected: bool = False) -> None:
        if not robots_allows(site, url):
            raise FetchError("disallowed by robots.txt", transient=False, url=url)
        if article is None or redirected:
            politeness.wait_turn(host_of(url), may_defer=not redirected)
            return
        slot = politeness.take_turn(host_of(url), article.held_slot)
        if slot is not None:  # stored with the deferral (_fetch): back a little before it, in take_turn's wait
            raise Deferred(max(0.1, slot - time.time() - conf.politeness_max_wait() / 2), held_slot=slot)
        if article.held_slot is not None:
            Article.objects.filter(pk=article.pk).update(held_slot=None)
            article.held_slot = None

    return before


def _push_back_host(url: str, seconds: float) -> None:
    """A 429/503 with Retry-After slows down every worker's requests to that host, not only this task's."""
    until = time.time() + seconds
    Host.objects.filter(name=host_of(url), next_request_at__lt=until).update(next_request_at=until)


# --------------------------------------------------------------------------- dispatch and sweep


#: longer than poll_site's hard time limit (monitor/tasks.py): a poll still running after it has been killed
POLL_LEASE = timedelta(seconds=300)
#: a running poll's lease, from its start: longer than poll_site's hard time limit (240 s)
POLL_RUN_LEASE = timedelta(seconds=270)
DISPATCH_TOLERANCE = timedelta(seconds=10)


def dispatch_due_polls(limit: int = 5000) -> Outcome:
    """Claim every active site whose poll is due (next poll moved on by its interval) and sweep."""
    now = timezone.now()
    # Due within DISPATCH_TOLERANCE counts as due: the beat runs every 30 s and its latency varies, so a poll
    # due a second after this tick would otherwise wait a whole beat (60 s polls came every 90 s in the soak).
    soon = now + DISPATCH_TOLERANCE
    due = Q(active=True) & (Q(next_poll_at__isnull=True) | Q(next_poll_at__lte=soon))
    out = Outcome("dispatched")
    for site_id, interval in Site.objects.filter(due).values_list("id", "poll_interval")[:limit]:
        # A lease until the poll ends (it sets the regular time then): one poll per site at a time, however
        # slow the site, so a hostile site holds one network thread and never a pile of overlapping polls.
        lease = now + timedelta(seconds=interval) + POLL_LEASE
        claimed = Site.objects.filter(due, pk=site_id).update(next_poll_at=lease)
        if claimed:
            out.enqueue.append(("poll", site_id, 0))
    out.enqueue += sweep(now).enqueue
    out.detail = f"{sum(1 for t in out.enqueue if t[0] == 'poll')} polls"
    Heartbeat.beat("dispatch")  # for /healthz: the beat, the broker and this worker all work
    return out


def sweep(now=None, limit: int = 2000) -> Outcome:
    """Enqueue again the rows whose message was lost or whose worker died (see the module docstring): the
    work queue's sweep over every registered stage's rows (articles to fetch, to process), due again after
    WIMS_SWEEP_GRACE, at most ``limit`` per stage and sweep. A page that kills its worker is quarantined, never
    delivered again until a site administrator asks (admin action "Fetch again")."""
    now = now or timezone.now()
    return work.sweep(now, now - timedelta(seconds=conf.sweep_grace()), limit)


# --------------------------------------------------------------------------- polling


#: the site's latest pages that processing read, whose outcome (an article or not) teaches its URL templates
TEMPLATE_PAGES = 2000


def _rules(site: Site, learned: bool = True) -> LinkRules:
    """The site's link rules; ``learned``: with its URL templates (one query), on a site of articles only
    without include patterns (where they are evidence)."""
    watched = list(site.watched_urls) + ([site.feed_url] if site.feed_url else [])
    templates = UrlTemplates()
    if learned and site.articles_only and not site.include_list:
        read = (S.PROCESSED, S.DUPLICATE, S.NOT_ARTICLE)  # duplicates: pages processing judged articles
        rows = Article.objects.filter(site=site, state__in=read).order_by("-id").values_list("url", "state")
        templates = UrlTemplates.learn((url, state != S.NOT_ARTICLE) for url, state in rows[:TEMPLATE_PAGES])
    return LinkRules(
        site.home_url,
        site.include_list,
        site.exclude_list,
        watched,
        articles_only=site.articles_only,
        sibling_hosts=site.sibling_hosts,
        templates=templates,
    )


#: key of an unfinished poll's progress in Site.validators (never a URL, so it cannot clash with one)
PROGRESS_KEY = "#poll"


def poll_site(site_id: int) -> Outcome:
    """Read the site's section pages and feed, store each never-seen article URL, enqueue its fetch.

    An unexpected error (a bug, or input nobody foresaw) ends the poll as a failure in the site's health,
    with its message, instead of leaving the health empty.

    A poll never sleeps for a busy host: when a source's politeness slot is further away than
    WIMS_POLITENESS_MAX_WAIT, it stores what the sources read so far gave (pending articles, their fetches
    enqueued right away, the sources' validators) with its progress in ``Site.validators[PROGRESS_KEY]``,
    and asks to run again when the slot frees up; the next run resumes with the remaining sources. Until
    it finishes, the site's ``next_poll_at`` is a lease (POLL_RUN_LEASE while a run goes on): were the
    continuation lost or the run killed, the dispatcher polls the site again after the lease, which resumes
    from the stored progress too.
    """
    site = Site.objects.filter(pk=site_id).first()
    if site is None or not site.active:
        return Outcome("skipped", "site inactive or deleted")
    try:
        return _poll(site)
    except Exception as exc:  # recorded in the site's health, never lost in a log only
        log.exception("site %s: poll failed", site_id)
        error = unexpected_error(exc)
        _finish_poll(site, [error], 0, {k: v for k, v in (site.validators or {}).items() if k != PROGRESS_KEY}, 1)
        return Outcome("failed", error)


def _poll(site: Site) -> Outcome:
    now = timezone.now()
    rules = _rules(site)
    sources = [(u, FetchAttempt.Kind.SECTION) for u in site.watched_urls]
    if site.feed_url:
        sources.append((site.feed_url, FetchAttempt.Kind.FEED))
    validators = dict(site.validators or {})
    progress = _progress(validators.pop(PROGRESS_KEY, None), site, now)
    # A lease of this run only (the regular time is in the progress): a poll killed mid-flight is dispatched
    # again POLL_RUN_LEASE after it started, not an interval plus POLL_LEASE after it was claimed (6 minutes
    # for a 60 s site, 20 for a 15-minute one).
    Site.objects.filter(pk=site.pk).update(next_poll_at=now + POLL_RUN_LEASE)
    links: list[str] = []
    dates: dict[str, datetime] = {}  # publication dates of the feed's items, by link
    positions: dict[str, Position] = {}  # where each link of a section page sits (monitor.links)
    errors: list[str] = progress["errors"]
    hook = _hook(site)
    for url, kind in sources:
        if url in progress["done"]:
            continue
        saved = validators.get(url, {})
        headers = {}
        if saved.get("etag"):
            headers["If-None-Match"] = saved["etag"]
        if saved.get("last_modified"):
            headers["If-Modified-Since"] = saved["last_modified"]
        started = time.monotonic()
        try:
            resp = fetch(url, allow_private=site.allow_private_addresses, before_request=hook, headers=headers)
        except Deferred as exc:  # the host is busy: keep what is done, come back for the rest
            candidates = select_candidates(links, rules, positions)
            return _defer_poll(site, progress, validators, candidates, dates, exc.delay, now)
        except FetchError as exc:
            errors.append(f"{url}: {exc}")
            _record(
                site,
                kind,
                url,
                "retry" if exc.transient else "failed",
                started=started,
                status=exc.status,
                nbytes=exc.nbytes,
                error=str(exc),
            )
            if exc.retry_after:
                _push_back_host(url, exc.retry_after)
            progress["done"].append(url)
            continue
        progress["done"].append(url)
        if resp.status == 304:
            _record(site, kind, url, "not_modified", started=started, status=304)
            continue
        _record(site, kind, url, "ok", started=started, status=resp.status, nbytes=len(resp.body))
        try:
            found = (
                links_from_feed(resp.body, resp.url, dates)
                if kind == FetchAttempt.Kind.FEED
                else links_from_html(resp.body, resp.url, positions)
            )
        except ValueError as exc:
            errors.append(f"{url}: {exc}")
            continue
        links += found
        validators[url] = {
            k: v
            for k, v in (("etag", resp.headers.get("etag")), ("last_modified", resp.headers.get("last-modified")))
            if v
        }
    new_ids = create_pending(site, select_candidates(links, rules, positions), dates)
    _finish_poll(site, errors, progress["found"] + len(new_ids), validators, len(sources), progress)
    return Outcome("polled", f"{len(new_ids)} new", [("fetch", pk, 0) for pk in new_ids])


def _progress(saved: dict | None, site: Site, now) -> dict:
    """The stored progress of the site's unfinished poll, or a fresh one (also for a stale one)."""
    if saved:
        started = parse_datetime(saved.get("started") or "")
        if started is not None and started > now - timedelta(seconds=max(site.poll_interval, conf.lease_seconds())):
            return saved
    regular = _regular_poll_time(site, now).isoformat()
    return {"started": now.isoformat(), "done": [], "found": 0, "errors": [], "next_poll_at": regular, "deferrals": 0}


def _regular_poll_time(site: Site, now) -> datetime:
    """An interval after the dispatcher claimed the poll (its lease less POLL_LEASE), so that polls keep the
    beat's rhythm: an interval after the poll's own start would fall just after a beat and wait for the next
    (60 s polls every 90 s with a 30 s beat). An interval from now for a poll the dispatcher did not claim."""
    if site.next_poll_at is not None and site.next_poll_at - POLL_LEASE > now:
        return site.next_poll_at - POLL_LEASE
    return now + timedelta(seconds=site.poll_interval)


def _defer_poll(
    site: Site, progress: dict, validators: dict, candidates: list[str], dates: dict, delay: float, now
) -> Outcome:
    """Store the links and validators of the sources read so far and the progress; re-queue the poll."""
    new_ids = create_pending(site, candidates, dates)
    progress["found"] += len(new_ids)
    progress["deferrals"] += 1
    Site.objects.filter(pk=site.pk).update(
        validators={**validators, PROGRESS_KEY: progress},
        next_poll_at=now + timedelta(seconds=delay + conf.lease_seconds()),
    )  # the lease (see poll_site)
    return Outcome(
        "deferred",
        f"{len(new_ids)} new, rest in {delay:.1f}s",
        [("fetch", pk, 0) for pk in new_ids] + [("poll", site.pk, delay)],
    )


def create_pending(site: Site, urls: list[str], dates: dict[str, datetime] | None = None) -> list[int]:
    """Insert the URLs not yet known for the site; return the ids this call created (and must enqueue).

    ``dates``: publication dates known from the feed, by URL (the page's own date is read when processed).
    A known article without a date gets the feed's: a poll that reads the section pages before the feed
    (or a continuation that reads the feed later) has stored the link already.
    """
    known: dict[str, datetime | None] = {}
    for i in range(0, len(urls), 500):
        known.update(Article.objects.filter(site=site, url__in=urls[i : i + 500]).values_list("url", "published_at"))
    created = []
    dates = dates or {}
    for url, published in known.items():
        if published is None and dates.get(url) is not None:
            Article.objects.filter(site=site, url=url, published_at__isnull=True).update(published_at=dates[url])
    for url in urls:
        if url in known:
            continue
        try:
            with transaction.atomic():
                created.append(Article.objects.create(site=site, url=url, published_at=dates.get(url)).pk)
        except IntegrityError:  # another poll of the same site inserted it first; it enqueues the fetch
            pass
    return created


def _finish_poll(
    site: Site, errors: list[str], found: int, validators: dict, sources: int, progress: dict | None = None
) -> None:
    now = timezone.now()
    fields = {"last_poll_at": now, "articles_found_last_poll": found, "validators": validators}
    if progress and progress["next_poll_at"]:  # end the lease (dispatch's, a deferral's): the regular schedule
        fields["next_poll_at"] = parse_datetime(progress["next_poll_at"])
    if errors:
        failures = site.consecutive_failures + 1
        # A failing site is polled less often (doubling, bounded), so a dead site costs little.
        extra = min(conf.max_failure_backoff(), site.poll_interval * (2 ** min(failures - 1, 10) - 1))
        fields.update(
            last_error_at=now,
            last_error="\n".join(errors)[:5000],
            consecutive_failures=failures,
            next_poll_at=now + timedelta(seconds=site.poll_interval + extra),
        )
        if len(errors) < sources:  # some sources worked: the site is reachable
            fields["last_success_at"] = now
    else:
        fields.update(last_success_at=now, consecutive_failures=0)
    Site.objects.filter(pk=site.pk).update(**fields)


# --------------------------------------------------------------------------- fetching

#: the articles' columns for their two stages: fetching (monitor, registered in monitor/apps.py) and
#: processing (the processing app's, registered in processing/apps.py); a delivery that killed its worker
#: counts, and the sweep quarantines the row after WIMS_MAX_FETCH_ATTEMPTS / WIMS_MAX_PROCESS_ATTEMPTS
FETCH_AGAIN = "a site administrator uses “Fetch again”"
FETCH_ROWS = Rows(
    Article,
    waiting=S.PENDING,
    working=S.FETCHING,
    failed=S.FAILED,
    attempts="fetch_attempts",
    max_attempts=conf.max_fetch_attempts,
    lease_seconds=conf.lease_seconds,
    when_due=True,  # a pending row is claimed only once due (work.CLAIM_TOLERANCE)
    again=FETCH_AGAIN,
)
PROCESS_ROWS = Rows(
    Article,
    waiting=S.FETCHED,
    working=S.PROCESSING,
    failed=S.FAILED,
    attempts="process_attempts",
    max_attempts=conf.max_process_attempts,
    lease_seconds=conf.lease_seconds,
    again=FETCH_AGAIN,
)


def fetch_article(article_id: int) -> Outcome:
    """Fetch one pending article politely; on success store the raw page and enqueue its processing."""
    return work.run_claimed("fetch", article_id, _fetch)


def _fetch(article_id: int) -> Outcome:
    article = Article.objects.select_related("site").get(pk=article_id)
    site = article.site
    started = time.monotonic()
    attempt = article.fetch_attempts
    try:
        resp = fetch(article.url, allow_private=site.allow_private_addresses, before_request=_hook(site, article))
        _check_page(resp)
    except Deferred as exc:
        Article.objects.filter(pk=article_id, state=S.FETCHING).update(
            state=S.PENDING,
            lease_until=None,
            due_at=timezone.now() + timedelta(seconds=exc.delay),
            held_slot=exc.held_slot,
            fetch_attempts=F("fetch_attempts") - 1,
        )
        return Outcome("deferred", str(exc), [("fetch", article_id, exc.delay)])
    except FetchError as exc:
        missing_delay = _missing_but_listed(exc, article, attempt)
        retry = missing_delay is not None or (exc.transient and attempt < conf.max_fetch_attempts())
        _record(
            site,
            FetchAttempt.Kind.ARTICLE,
            exc.url or article.url,
            "retry" if retry else "failed",
            article=article,
            attempt=attempt,
            started=started,
            status=exc.status,
            nbytes=exc.nbytes,
            error=str(exc),
        )
        if exc.retry_after:
            _push_back_host(exc.url or article.url, exc.retry_after)
        if retry:
            delay = missing_delay if missing_delay is not None else backoff(attempt, exc.retry_after)
            Article.objects.filter(pk=article_id, state=S.FETCHING).update(
                state=S.PENDING,
                lease_until=None,
                due_at=timezone.now() + timedelta(seconds=delay),
                last_error=str(exc)[:2000],
                http_status=exc.status,
            )
            return Outcome("retry", str(exc), [("fetch", article_id, delay)])
        reason = str(exc) if not exc.transient and attempt == 1 else f"gave up after {attempt} attempts: {exc}"
        Article.objects.filter(pk=article_id, state=S.FETCHING).update(
            state=S.FAILED, lease_until=None, last_error=reason[:2000], http_status=exc.status
        )
        return Outcome("failed", reason)
    with transaction.atomic():  # the fetch log and the stored page: one commit
        _record(
            site,
            FetchAttempt.Kind.ARTICLE,
            resp.url,
            "ok",
            article=article,
            attempt=attempt,
            started=started,
            status=resp.status,
            nbytes=len(resp.body),
        )
        return _store_page(article, resp)


def fetch_again(article_ids: list[int]) -> Outcome:
    """Put failed articles back to be fetched, attempts counted afresh (the site administrators' action)."""
    failed = list(Article.objects.filter(pk__in=article_ids, state=S.FAILED).values_list("pk", flat=True))
    Article.objects.filter(pk__in=failed, state=S.FAILED).update(
        state=S.PENDING, fetch_attempts=0, process_attempts=0, due_at=timezone.now(), lease_until=None, last_error=""
    )
    return Outcome("queued", f"{len(failed)} to fetch again", [("fetch", pk, 0) for pk in failed])


#: a link listed this recently that answers 404 or 410 is asked for again (monitor/conf.py)
RECENT_LINK = timedelta(days=1)


def _missing_but_listed(exc: FetchError, article: Article, attempt: int) -> float | None:
    """The wait before asking again for a page that answered 404 or 410 although its link was found within a
    day (None: not such a case, or its attempts are used up; the 404 is then final)."""
    if exc.status not in (404, 410) or attempt >= conf.missing_page_attempts():
        return None
    if timezone.now() - article.collected_at > RECENT_LINK:
        return None
    return conf.missing_page_delay() * 2 ** (attempt - 1) * random.uniform(0.9, 1.1)


def _check_page(resp: Response) -> None:
    """Permanent errors for responses that are not HTML pages (binary served as text/html included)."""
    from filters.charset import charset_from_content_type, looks_binary

    if resp.content_type and resp.content_type not in HTML_TYPES:
        raise FetchError(
            f"not an HTML page: {resp.content_type}",
            transient=False,
            status=resp.status,
            url=resp.url,
            nbytes=len(resp.body),
        )
    what = looks_binary(resp.body, charset_from_content_type(resp.headers.get("content-type")))
    if what:
        raise FetchError(
            f"not an HTML page: {what}", transient=False, status=resp.status, url=resp.url, nbytes=len(resp.body)
        )


def _store_page(article: Article, resp: Response) -> Outcome:
    """Store the fetched page as it came (no decoding, no parsing: processing reads it once, later)."""
    now = timezone.now()
    article.final_url = resp.url[:2000]
    article.http_status = resp.status
    article.headers = {k: v for k, v in resp.headers.items() if k not in ("set-cookie",)}
    article.set_raw_html(resp.body)
    article.fetched_at = now
    article.last_error = ""
    article.lease_until = None
    article.due_at = now
    article.state = S.FETCHED
    article.save(update_fields=FETCHED_FIELDS)
    return Outcome("fetched", "", [("process", article.pk, 0)])


#: the columns a fetch writes (not the site, URL, attempts or the experts' review state)
FETCHED_FIELDS = [
    "final_url",
    "http_status",
    "headers",
    "raw_html",
    "raw_size",
    "fetched_at",
    "last_error",
    "lease_until",
    "due_at",
    "state",
]


def alias_to_canonical(article: Article, canonical: str | None) -> Article | None:
    """When the page names another of the site's article URLs as its canonical one (rel=canonical), that
    URL's row owns the content from now on: it is created with this page when new, and this article
    becomes its duplicate without a page of its own. Returns that row (to process), or None.

    Called by processing, which reads the page's metadata when it parses the page.
    """
    site = article.site
    if not canonical or canonical == article.url:
        return None
    # the site's rules: its hosts (sibling hosts too, when it spans them), patterns and the address's shape
    if not _rules(site, learned=False).accepts(canonical):
        return None
    target = _canonical_article(article, canonical)
    Article.objects.filter(pk=article.pk).update(
        state=S.DUPLICATE,
        duplicate_of=target,
        canonical_url=canonical[:2000],
        raw_html=None,
        raw_size=0,
        lease_until=None,
        last_error="",
    )
    return target


def _canonical_article(article: Article, canonical: str) -> Article:
    """The row for the page's rel=canonical URL, created with this fetch's content when new."""
    existing = Article.objects.filter(site=article.site, url=canonical).first()
    if existing is not None:
        return existing
    copy = Article(
        site=article.site,
        url=canonical,
        state=S.FETCHED,
        final_url=article.final_url,
        canonical_url=canonical,
        http_status=article.http_status,
        headers=article.headers,
        charset=article.charset,
        raw_html=article.raw_html,
        raw_size=article.raw_size,
        fetched_at=article.fetched_at,
        fetch_attempts=article.fetch_attempts,
        due_at=article.due_at,
        published_at=article.published_at,
    )
    try:
        with transaction.atomic():
            copy.save()
        return copy
    except IntegrityError:  # a concurrent fetch created it
        return Article.objects.get(site=article.site, url=canonical)


__all__ = [
    "dispatch_due_polls",
    "sweep",
    "poll_site",
    "create_pending",
    "fetch_article",
    "robots_allows",
    "backoff",
    "alias_to_canonical",
    "FETCH_ROWS",
    "PROCESS_ROWS",
    "fetch_again",
]
