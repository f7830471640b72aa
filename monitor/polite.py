"""WebMon's polite requests: robots.txt, the per-host turn, the fetch log (FetchAttempt).

Every request WebMon makes to a site goes through :func:`_hook` (before each hop: robots.txt for WIMS's token,
then the host's shared politeness delay) and is logged by :func:`_record`; :func:`_getter` wraps both around
net.fetch for monitor/finding.py (finding a site's sources, reading its sitemaps). Moved out of
monitor/services.py, which uses them for polls and article fetches.
"""

from __future__ import annotations

import time
from datetime import timedelta

from django.utils import timezone
from protego import Protego

from foundation import metrics

from . import conf, politeness
from .canonical import host_of, origin_of
from .finding import Get
from .models import Article, FetchAttempt, Host, RobotsFile, Site
from .net import AddressRefused, Deferred, FetchError, Response, fetch

ROBOTS_AGENT = "WIMS"


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


def _robots(site: Site, origin: str, *, delay: float | None = None) -> RobotsFile:
    """The robots.txt of ``origin`` (cached); ``delay``: politeness.wait_turn's, for the sources preview."""
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
            before_request=lambda u, redirected: politeness.wait_turn(
                host_of(u), may_defer=not redirected and delay is None, delay=delay
            ),
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
        if isinstance(exc, AddressRefused):
            # this site's permission, not the origin's robots.txt: kept as "unreachable", it failed every request
            # for WIMS_ROBOTS_ERROR_TTL after an administrator ticked Allow private addresses (and another site
            # on the origin that may reach it): the request is refused, saying why
            raise
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


def robots_refuses(site: Site, url: str) -> bool:
    """True when the robots.txt already read for ``url``'s origin disallows it: a poll leaves such a link out
    (a home page's "Staff login" link is not an article to fail on). Neither request nor query: the poll that
    found the link read its site's robots.txt into this process's cache; an origin not there, or unreachable, is
    decided when its page is fetched."""
    known = _robots_rows.get(origin_of(url))
    if known is None or known.expires_at <= timezone.now():
        return False
    if known.status is None or known.status == 0 or known.status >= 500:
        return False
    return not robots_allows(site, url)


class HeldTurn:
    """A poll's slot at a host, reserved when the poll was deferred (politeness.take_turn, as an article fetch's)
    and taken by its continuation's first request there, so that the continuation never competes for the host's
    turn again. Without it the fetches a deferral enqueued reserved the slots ahead of the poll's continuation,
    which came back to a busy host and was deferred once more ("rest in 7.9s" after "4 new, rest in 1.7s")."""

    def __init__(self, saved: list | None = None) -> None:
        self.host: str = str(saved[0]) if saved else ""
        self.slot: float | None = float(saved[1]) if saved else None

    def take(self, host: str) -> None:
        """Sleep until the host's turn (the slot held, else the next), or raise Deferred holding a slot."""
        held = self.slot if host == self.host else None
        slot = politeness.take_turn(host, held)
        self.host, self.slot = (host, slot) if slot is not None else ("", None)
        if slot is not None:
            raise Deferred(max(0.1, slot - time.time() - conf.politeness_max_wait() / 2), held_slot=slot)

    def saved(self) -> list | None:
        """What to store with the poll's progress (JSON)."""
        return None if self.slot is None else [self.host, self.slot]


def _hook(
    site: Site,
    article: Article | None = None,
    *,
    wait: bool = False,
    delay: float | None = None,
    turn: HeldTurn | None = None,
):
    """before_request for net.fetch: robots.txt, then the shared per-host delay.

    Only the first hop of a fetch may be deferred when the host is busy: a redirect hop waits for its slot
    (at most the politeness delay per hop, a few hops), because a deferred fetch starts again from its first
    URL; with a delay longer than WIMS_POLITENESS_MAX_WAIT, as in production, a redirect to the same host
    would otherwise be deferred on every attempt, for ever. An article fetch deferred holds its slot
    (``Article.held_slot``, politeness.take_turn); a poll keeps the sources it has read instead. ``wait``: every
    hop waits for its slot (finding a site's sources, the files of a sitemap after its first). ``delay``: a shorter
    delay before the host's next request than the configured one (the sources preview, politeness.wait_turn).
    ``turn``: a poll's (HeldTurn), for the first hop of its requests that may be deferred.
    """

    def check(url: str, redirected: bool = False) -> None:
        if not robots_allows(site, url):
            raise FetchError("disallowed by robots.txt", transient=False, url=url)
        if turn is not None and not (redirected or wait):
            turn.take(host_of(url))
            return
        if article is None or redirected:
            politeness.wait_turn(host_of(url), may_defer=not (redirected or wait), delay=delay)
            return
        slot = politeness.take_turn(host_of(url), article.held_slot)
        if slot is not None:  # stored with the deferral (_fetch): back a little before it, in take_turn's wait
            raise Deferred(max(0.1, slot - time.time() - conf.politeness_max_wait() / 2), held_slot=slot)
        if article.held_slot is not None:
            Article.objects.filter(pk=article.pk).update(held_slot=None)
            article.held_slot = None

    return Hook(check)


class Hook:
    """_hook's before_request, which counts the seconds it waited (robots.txt, the host's turn): a fetch's logged
    duration is the site's answer, not its wait behind other requests to the host (a live trial: a 2.7 kB sitemap
    the demo serves in 1 ms was logged at 18 s). ``answered_from(started)``: the start to log for a fetch begun at
    ``started`` (time.monotonic()) with ``waited`` as it was then."""

    def __init__(self, check) -> None:
        self.check = check
        self.waited = 0.0

    def __call__(self, url: str, redirected: bool = False) -> None:
        began = time.monotonic()
        try:
            self.check(url, redirected)
        finally:
            self.waited += time.monotonic() - began

    def answered_from(self, started: float, waited_then: float = 0.0) -> float:
        return started + self.waited - waited_then


def _push_back_host(url: str, seconds: float) -> None:
    """A 429/503 with Retry-After slows down every worker's requests to that host, not only this task's, and the
    sources preview's too: its lane (politeness.preview_lane) would otherwise ask again 0.3 s later."""
    until = time.time() + seconds
    host = host_of(url)
    lanes = [host, politeness.preview_lane(host)]
    Host.objects.bulk_create([Host(name=name, next_request_at=0.0) for name in lanes], ignore_conflicts=True)
    Host.objects.filter(name__in=lanes, next_request_at__lt=until).update(next_request_at=until)


def _getter(
    site: Site,
    *,
    first_may_defer: bool = False,
    finding: bool = False,
    delay: float | None = None,
    turn: HeldTurn | None = None,
) -> Get:
    """monitor.finding's ``get`` for ``site``: net.fetch through robots.txt and the per-host delay, each request in
    the fetch log. A body cap given is a cut (sitemaps: what was read is parsed), else the usual cap refuses.
    ``finding``: a 4xx answer is logged as ``ok`` (looking at the usual sitemap addresses, a 404 is an answer,
    not a failure that would make the site "degraded"). ``delay``, ``turn``: _hook's (the sources preview's shorter
    delay; a poll's turn at the host, for its first request)."""
    calls = [0]

    def get(url: str, headers: dict[str, str], max_bytes: int, kind: str) -> Response:
        calls[0] += 1
        hook = _hook(site, wait=not (first_may_defer and calls[0] == 1), delay=delay, turn=turn)
        started = time.monotonic()
        try:
            resp = fetch(
                url,
                allow_private=site.allow_private_addresses,
                before_request=hook,
                headers=headers,
                max_bytes=max_bytes or None,
                truncate=bool(max_bytes),
            )
        except FetchError as exc:
            answered = finding and exc.status is not None and 400 <= exc.status < 500
            outcome = "ok" if answered else "retry" if exc.transient else "failed"
            answered = hook.answered_from(started)
            _record(site, kind, url, outcome, started=answered, status=exc.status, nbytes=exc.nbytes, error=str(exc))
            if exc.retry_after:
                _push_back_host(url, exc.retry_after)
            raise
        outcome = "not_modified" if resp.status == 304 else "ok"
        _record(
            site, kind, url, outcome, started=hook.answered_from(started), status=resp.status, nbytes=len(resp.body)
        )
        return resp

    return get
