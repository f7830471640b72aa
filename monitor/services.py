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

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import ngettext

from foundation import work
from foundation.bounds import limit_exceeded
from foundation.work import Outcome, Rows, unexpected_error

from . import conf, site_settings
from .canonical import origin_of, same_site
from .discovery import LinkRules, gives_time, links_from_html, select_candidates
from .finding import Proposal, conditional_headers, find, read_feed, read_sitemap, response_validators
from .links import Position, UrlTemplates
from .models import Article, FetchAttempt, Heartbeat, Site, Source
from .net import HTML_TYPES, Deferred, FetchError, Response, fetch

# the polite requests (robots.txt, the host's turn, the fetch log): monitor/polite.py; robots_allows and the
# cache of robots.txt rows are named here too, where callers and tests have always found them
from .polite import (  # noqa: F401
    HeldTurn,
    _getter,
    _hook,
    _push_back_host,
    _record,
    _robots,
    _robots_rows,
    robots_allows,
    robots_refuses,
)

log = logging.getLogger(__name__)

S = Article.State


def backoff(attempt: int, retry_after: float | None = None) -> float:
    """Delay before attempt ``attempt + 1``: exponential with jitter; a server's Retry-After wins."""
    if retry_after is not None:
        return retry_after + random.uniform(0, max(0.5, 0.1 * retry_after))
    base = conf.retry_base() * 2 ** max(0, attempt - 1)
    return min(conf.retry_max_delay(), base * random.uniform(0.5, 1.5))


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
    due = _due(now)
    out = Outcome("dispatched")
    for site_id, interval in Site.objects.filter(due).values_list("id", "poll_interval")[:limit]:
        if _claim(site_id, interval, now, due):
            out.enqueue.append(("poll", site_id, 0))
    out.enqueue += sweep(now).enqueue
    out.detail = f"{sum(1 for t in out.enqueue if t[0] == 'poll')} polls"
    Heartbeat.beat("dispatch")  # for /healthz: the beat, the broker and this worker all work
    return out


def _due(now) -> Q:
    return Q(active=True) & (Q(next_poll_at__isnull=True) | Q(next_poll_at__lte=now + DISPATCH_TOLERANCE))


def _claim(site_id: int, interval: int, now, due: Q) -> bool:
    # A lease until the poll ends (it sets the regular time then): one poll per site at a time, however
    # slow the site, so a hostile site holds one network thread and never a pile of overlapping polls.
    lease = now + timedelta(seconds=interval) + POLL_LEASE
    return bool(Site.objects.filter(due, pk=site_id).update(next_poll_at=lease, poll_queued_at=now))


def claim_poll(site: Site, *, early: bool = False) -> bool:
    """Claim the site's poll now, as the dispatcher claims a due one, for the caller to enqueue it: a site whose
    sources an administrator just chose is polled at once, not at the next dispatch. False: not due (a poll
    holds its lease, or the site is inactive). ``early`` (*Poll now*): before its time too, unless a poll is
    queued or under way (Site.poll_queued_at, its lease not run out): a second would only be deferred behind it."""
    now = timezone.now()
    claimable = Q(active=True) & (Q(poll_queued_at__isnull=True) | _due(now)) if early else _due(now)
    return _claim(site.pk, site.poll_interval, now, claimable)


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


def _rules(site: Site, sources: list[tuple[str, str]] | None = None, learned: bool = True) -> LinkRules:
    """The site's link rules. ``sources``: the polled sources (Site.polled_sources), never candidates themselves
    (without them: the section pages and feed typed in on the site). ``learned``: with its URL templates (one
    query), on a site of articles only without include patterns (where they are evidence)."""
    if sources is None:
        watched = list(site.watched_urls) + ([site.feed_url] if site.feed_url else [])
    else:
        watched = [url for url, _ in sources]
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
    """Read the site's sources (Site.polled_sources: section pages, feeds, sitemaps), store each never-seen article
    URL, enqueue its fetch. A site just registered (Site.find_sources) gets its sources found first.

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
        Site.objects.filter(pk=site_id).update(poll_queued_at=None)
        return Outcome("skipped", "site inactive or deleted")
    try:
        return _poll(site)
    except Exception as exc:  # recorded in the site's health, never lost in a log only
        if _deleted(site_id):  # by an administrator while it ran: its records name a site no longer there
            return Outcome("skipped", "site deleted during the poll")
        log.exception("site %s: poll failed", site_id)
        error = unexpected_error(exc)
        _finish_poll(site, [error], 0, {k: v for k, v in (site.validators or {}).items() if k != PROGRESS_KEY}, 1)
        return Outcome("failed", error)


def _deleted(site_id: int) -> bool:
    return not Site.objects.filter(pk=site_id).exists()


def _poll(site: Site) -> Outcome:
    now = timezone.now()
    if site.find_sources:  # a site just registered: its feeds, sitemaps and sections first (monitor/finding.py)
        _find_at_first_poll(site)
    sources = site.polled_sources()
    rules = _rules(site, sources)
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
    turn = HeldTurn(progress.get("held"))  # the slot a deferral reserved for this continuation
    hook = _hook(site, turn=turn)
    for url, kind in sources:
        if url in progress["done"]:
            continue
        headers = conditional_headers(validators.get(url))
        started, waited = time.monotonic(), hook.waited
        try:
            if kind == FetchAttempt.Kind.SITEMAP:
                errors += _poll_sitemap(site, url, validators, rules, links, dates, turn)
                progress["done"].append(url)
                continue
            resp = fetch(url, allow_private=site.allow_private_addresses, before_request=hook, headers=headers)
        except Deferred as exc:  # the host is busy: keep what is done, come back for the rest (at the slot held)
            progress["held"] = turn.saved()
            candidates = select_candidates(links, rules, positions)
            return _defer_poll(site, progress, validators, candidates, dates, exc.delay, now)
        except FetchError as exc:
            errors.append(f"{url}: {exc}")
            outcome, answered = "retry" if exc.transient else "failed", hook.answered_from(started, waited)
            _record(site, kind, url, outcome, started=answered, status=exc.status, nbytes=exc.nbytes, error=str(exc))
            if exc.retry_after:
                _push_back_host(url, exc.retry_after)
            progress["done"].append(url)
            continue
        progress["done"].append(url)
        answered = hook.answered_from(started, waited)  # the site's answer, not the wait for the host's turn
        if resp.status == 304:
            _record(site, kind, url, "not_modified", started=answered, status=304)
            continue
        _record(site, kind, url, "ok", started=answered, status=resp.status, nbytes=len(resp.body))
        try:
            found = (
                read_feed(resp.body, resp.url, dates)
                if kind == FetchAttempt.Kind.FEED
                else links_from_html(resp.body, resp.url, positions)
            )
        except ValueError as exc:
            errors.append(f"{url}: {exc}")
            continue
        except Exception as exc:  # a parser on hostile input: this source's error, the other sources still read
            if limit_exceeded(exc):  # the task's time or memory bound: the whole poll stops (poll_site)
                raise
            log.exception("site %s: reading %s failed", site.pk, url)
            errors.append(f"{url}: {unexpected_error(exc)}")
            continue
        links += found
        validators[url] = response_validators(resp)
    new_ids = create_pending(site, select_candidates(links, rules, positions), dates)
    _finish_poll(site, errors, progress["found"] + len(new_ids), validators, len(sources), progress)
    return Outcome("polled", f"{len(new_ids)} new", [("fetch", pk, 0) for pk in new_ids])


def _poll_sitemap(
    site: Site,
    url: str,
    validators: dict,
    rules: LinkRules,
    links: list[str],
    dates: dict[str, datetime],
    turn: HeldTurn | None = None,
) -> list[str]:
    """Read one sitemap source (monitor.finding.read_sitemap): its links and dates added to ``links`` and
    ``dates``, its urlsets' validators to ``validators[url]["files"]``; the errors returned, one line for the
    source. Only the first request may be deferred (net.Deferred): the next files of the walk wait their turn, as
    a deferral would start the walk again."""
    saved = (validators.get(url) or {}).get("files") or {}
    try:
        read = read_sitemap(
            url,
            saved,
            _getter(site, first_may_defer=True, turn=turn),
            rules,
            now=timezone.now(),
            max_age=timedelta(days=conf.sitemap_max_age_days()),
            max_links=conf.sitemap_max_links(),
        )
    except Deferred:
        raise
    except Exception as exc:  # not a SourceError (the walk records those): hostile input nobody foresaw
        if limit_exceeded(exc):
            raise
        log.exception("site %s: reading the sitemap %s failed", site.pk, url)
        return [f"{url}: {unexpected_error(exc)}"]
    links += read.links
    for link, when in read.dates.items():
        dates.setdefault(link, when)
    # the validators of the files read, under the source's own key: those of files no longer listed go with it
    validators[url] = {"files": {**{u: saved[u] for u in read.not_modified if u in saved}, **read.validators}}
    return [f"{url}: " + " ".join("; ".join(read.errors).split())] if read.errors else []


# --------------------------------------------------------------------------- sources found


def find_sources(site: Site, *, read: bool = True) -> Proposal:
    """Read the site's home page and robots.txt and propose its feeds, sitemaps and section pages (monitor/finding.py),
    each with the links it yields today and the verdict on each (``read``: feeds and sections read too, for the
    preview). Bounded: a few requests, each waiting for the host's politeness delay, WIMS_SOURCES_FIND_SECONDS in
    all. The preview, which someone waits for, is one short burst: robots.txt and WIMS_SOURCES_PREVIEW_PAGES pages
    at most, WIMS_SOURCES_PREVIEW_DELAY apart. Nothing is stored but the fetch log (see :func:`keep_found`)."""
    origin = origin_of(site.home_url)
    delay = conf.sources_preview_delay() if read else None
    try:
        robots = _robots(site, origin, delay=delay)
        robots_txt = robots.body if robots.status is not None and 200 <= robots.status < 300 else None
    except FetchError:
        robots_txt = None
    return find(
        site.home_url,
        _getter(site, finding=True, delay=delay),
        _rules(site),
        robots_txt=robots_txt,
        now=timezone.now(),
        max_age=timedelta(days=conf.sitemap_max_age_days()),
        max_links=conf.sitemap_max_links(),
        budget=conf.sources_find_seconds(),
        read=read,
        max_pages=conf.sources_preview_pages() if read else None,
        refuses=lambda url: robots_refuses(site, url),  # the poll's decision, on the robots.txt just read
    )


def _find_at_first_poll(site: Site) -> None:
    """Find the sources of a site just registered and keep those proposed ticked; whatever goes wrong, the site
    stops waiting for them (an administrator may use *Find sources* again) and its poll goes on."""
    try:
        keep_found(site, find_sources(site, read=False))
    except Exception as exc:
        if limit_exceeded(exc) or _deleted(site.pk):
            raise
        log.exception("site %s: finding its sources failed", site.pk)
        Site.objects.filter(pk=site.pk).update(find_sources=False)
        site.find_sources = False


def keep_found(site: Site, proposal: Proposal, chosen: set[str] | None = None) -> list[Source]:
    """Store the sources proposed for the site: those in ``chosen`` (the administrator's ticks) active, the others
    inactive, with the reason each was found. ``chosen`` None (nobody chose: a first poll, the API): a new source
    is active when proposed ticked, one already stored keeps its active flag. The site stops waiting for its
    sources (Site.find_sources) and is polled at the next dispatch."""
    kept = []
    stored = dict(site.sources.values_list("url", "active"))
    with transaction.atomic():
        for found in proposal.sources:
            active = stored.get(found.url, found.keep) if chosen is None else found.url in chosen
            source = Source(site=site, url=found.url, kind=found.kind, found=found.reason[:2000], active=active)
            try:
                source.clean()
            except ValidationError:  # another host for a site that may reach private addresses: not proposed
                continue
            row, _ = Source.objects.update_or_create(
                site=site, url=source.url, defaults={"kind": found.kind, "found": source.found, "active": active}
            )
            kept.append(row)
        Site.objects.filter(pk=site.pk).update(find_sources=False)
        site_settings.make_due(site.pk)
    site.find_sources = False
    return kept


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
    (or a continuation that reads the feed later) has stored the link already. A new URL that its origin's
    robots.txt, already read, disallows is left out (polite.robots_refuses): it would only fail at its fetch.
    """
    known: dict[str, datetime | None] = {}
    for i in range(0, len(urls), 500):
        known.update(Article.objects.filter(site=site, url__in=urls[i : i + 500]).values_list("url", "published_at"))
    created = []
    dates = dates or {}
    for url, published in known.items():
        if published is None and dates.get(url) is not None:
            Article.objects.filter(site=site, url=url, published_at__isnull=True).update(
                published_at=dates[url], published_time_given=gives_time(dates[url])
            )
    for url in urls:
        if url in known or robots_refuses(site, url):
            continue
        try:
            with transaction.atomic():
                when = dates.get(url)
                created.append(
                    Article.objects.create(
                        site=site, url=url, published_at=when, published_time_given=gives_time(when)
                    ).pk
                )
        except IntegrityError:  # another poll of the same site inserted it first; it enqueues the fetch
            pass
    return created


def _finish_poll(
    site: Site, errors: list[str], found: int, validators: dict, sources: int, progress: dict | None = None
) -> None:
    now = timezone.now()
    fields = {"last_poll_at": now, "articles_found_last_poll": found, "validators": validators, "poll_queued_at": None}
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
    hook = _hook(site, article)
    try:
        resp = fetch(article.url, allow_private=site.allow_private_addresses, before_request=hook)
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
            started=hook.answered_from(started),
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
            started=hook.answered_from(started),
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


def delete_sites(sites) -> Outcome:
    """Delete ``sites`` (a queryset) with what goes with them (Django's cascade: articles, their cases and
    classifications...), and put back to work each article of another site that re-published one of theirs: it has
    no case of its own (its original was the one classified) and would name no original (duplicate_of SET_NULL),
    so nobody could classify it. Processed again, it becomes an original, or a re-publication of one still there;
    one whose page retention dropped is fetched again. Returns what to enqueue once the deletion commits."""
    with transaction.atomic():
        copies = Article.objects.filter(duplicate_of__site__in=sites).exclude(site__in=sites)
        with_page = list(copies.filter(raw_html__isnull=False).values_list("pk", flat=True))
        without = list(copies.filter(raw_html__isnull=True).values_list("pk", flat=True))
        deleted, _ = sites.delete()
        again = {"duplicate_of": None, "lease_until": None, "last_error": "", "due_at": timezone.now()}
        Article.objects.filter(pk__in=with_page).update(state=S.FETCHED, process_attempts=0, **again)
        Article.objects.filter(pk__in=without).update(state=S.PENDING, fetch_attempts=0, process_attempts=0, **again)
    work: list[tuple[str, int, float]] = [("process", pk, 0) for pk in with_page]
    work += [("fetch", pk, 0) for pk in without]
    return Outcome(
        "deleted",
        f"{deleted} {ngettext('row', 'rows', deleted)} deleted, "
        f"{len(work)} {ngettext('re-publication', 're-publications', len(work))} elsewhere to read again",
        work,
    )


def sites_on_host(site: Site) -> list[Site]:
    """The other sites whose home page is on ``site``'s host ("www." aside): a section registered as its own site
    is legitimate, but an article both list is credited to whichever fetched it first (the other's copy is its
    re-publication), which its administrator should know when registering it."""
    others = Site.objects.exclude(pk=site.pk).only("name", "home_url").order_by("name")
    return [other for other in others if same_site(other.home_url, site.home_url)]


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
        published_time_given=article.published_time_given,
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
    "claim_poll",
    "poll_site",
    "create_pending",
    "fetch_article",
    "robots_allows",
    "backoff",
    "alias_to_canonical",
    "FETCH_ROWS",
    "PROCESS_ROWS",
    "fetch_again",
    "delete_sites",
    "find_sources",
    "keep_found",
]
