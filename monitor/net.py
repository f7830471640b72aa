"""The one place where WebMon talks HTTP to the outside world.

Every request gets: an honest User-Agent naming WIMS and its public URL; connect and read timeouts plus a
total deadline; a size cap on the (decompressed) body; redirects followed by hand, so that each hop is
checked again; and refusal of any address that is loopback, private, link-local, multicast, reserved or
unspecified unless the site is explicitly allowed such addresses. The address rule is checked twice: on
every address the host name resolves to (a clear error before connecting) and on the peer address of the
socket actually connected (so DNS rebinding between the check and the connection does not get through).

Robots.txt and the per-host delay need the database; callers pass them in as ``before_request``, which
runs before every hop (monitor/services.py) and is told whether the hop is a redirect of a fetch already
under way (which must wait its turn rather than defer: deferring would request the first hops again).
Errors are :class:`FetchError` with ``transient`` telling the
caller whether to retry, and ``retry_after`` carrying a server's Retry-After.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from importlib import metadata
from typing import cast
from urllib.parse import urlparse

import requests
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import ConnectTimeoutError, NameResolutionError, NewConnectionError
from urllib3.util import connection as urllib3_connection
from urllib3.util import parse_url

from . import conf
from .canonical import canonicalise

__all__ = ["fetch", "Response", "FetchError", "AddressRefused", "user_agent", "check_host", "address_allowed"]

HTML_TYPES = ("text/html", "application/xhtml+xml")


class FetchError(Exception):
    """A request that did not give a usable page. ``transient``: worth retrying later."""

    def __init__(
        self,
        message: str,
        *,
        transient: bool,
        status: int | None = None,
        retry_after: float | None = None,
        url: str = "",
        nbytes: int = 0,
    ):
        super().__init__(message)
        self.transient = transient
        self.status = status
        self.retry_after = retry_after
        self.url = url
        self.nbytes = nbytes


class AddressRefused(FetchError):
    """The URL resolves to an address WIMS must not connect to (permanent). ``private``: a private or loopback
    address, which a superuser may allow the site to reach (Site.allow_private_addresses)."""

    def __init__(self, message: str, url: str = "", *, private: bool = False):
        super().__init__(message, transient=False, url=url)
        self.private = private


class Deferred(Exception):  # noqa: N818 - not an error: the caller should come back later
    """Raised by a ``before_request`` hook: the host is busy, try again in ``delay`` seconds.

    ``held_slot``: the host's request slot (Unix time) reserved for the caller to come back for, if any.
    """

    def __init__(self, delay: float, held_slot: float | None = None):
        super().__init__(f"the host is busy: again in {delay:.1f}s")
        self.delay = delay
        self.held_slot = held_slot


@dataclass
class Response:
    url: str  # final URL, after redirects
    status: int
    headers: dict[str, str]
    body: bytes = b""
    elapsed: float = 0.0
    hops: list[str] = field(default_factory=list)

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "").split(";", 1)[0].strip().lower()


def user_agent() -> str:
    from django.conf import settings

    try:
        version = metadata.version("wims")
    except metadata.PackageNotFoundError:
        version = "0"
    return f"WIMS/{version} (+{settings.WIMS_PUBLIC_URL})"


# --------------------------------------------------------------------------- address rule


def address_allowed(address: str, allow_private: bool = False) -> bool:
    """True for a public unicast address; loopback, private and shared ones only with ``allow_private`` (a
    superuser's decision per site). Link-local and cloud metadata addresses stay refused even then, unless a
    network in settings.WIMS_ALLOWED_PRIVATE_NETWORKS holds them."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped:
        ip = ip.ipv4_mapped
    if any(ip in network for network in _allowed_networks()):
        return True
    if ip.is_link_local or ip.is_multicast or ip.is_unspecified or ip in _METADATA:
        return False
    if ip.is_reserved and not ip.is_loopback:  # ::1 sits in reserved ::/8
        return False
    if ip.is_private or ip.is_loopback or (isinstance(ip, ipaddress.IPv4Address) and ip in _SHARED):
        return allow_private
    return True


_SHARED = ipaddress.ip_network("100.64.0.0/10")  # carrier-grade NAT, not covered by is_private everywhere
#: metadata services outside link-local space (AWS's IPv6 one); 169.254.169.254 is link-local
_METADATA = {ipaddress.ip_address("fd00:ec2::254")}


def _allowed_networks() -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    from django.conf import settings

    return [ipaddress.ip_network(n, strict=False) for n in getattr(settings, "WIMS_ALLOWED_PRIVATE_NETWORKS", ())]


def check_host(host: str, port: int, url: str = "", allow_private: bool = False) -> None:
    """Resolve ``host`` and refuse it when any of its addresses is not allowed (see address_allowed)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise FetchError(f"cannot resolve {host}: {exc}", transient=True, url=url) from exc
    for info in infos:
        address = cast(str, info[4][0])  # the host of an AF_INET / AF_INET6 socket address
        if not address_allowed(address, allow_private):
            private = not allow_private and address_allowed(address, True)
            kind = "a private address that this site may not use" if private else "a refused address"
            raise AddressRefused(f"refused: {host} resolves to {kind}: {address}", url=url, private=private)


class _Watchdog:
    """Shuts the socket of a request down when the request's absolute deadline passes.

    Read timeouts apply to each ``recv``, so a site sending a byte every few seconds never trips them; the
    one deadline of a request (connect, headers and body together) is enforced on the socket itself: the
    blocked read returns at once, in the headers as in the body. One per request hop, armed by fetch().
    """

    def __init__(self, seconds: float):
        self.expired = False
        self._sock: socket.socket | None = None
        self._lock = threading.Lock()
        self._timer = threading.Timer(max(0.0, seconds), self._expire)
        self._timer.daemon = True
        self._timer.start()

    def watch(self, sock: socket.socket | None) -> None:
        with self._lock:
            self._sock = sock
            if self.expired:
                self._shut()

    def _expire(self) -> None:
        with self._lock:
            self.expired = True
            self._shut()

    def _shut(self) -> None:
        if self._sock is not None:
            with contextlib.suppress(OSError):
                self._sock.shutdown(socket.SHUT_RDWR)

    def cancel(self) -> None:
        self._timer.cancel()


def _watch(sock) -> None:
    watchdog = getattr(_local, "watchdog", None)
    if watchdog is not None:
        watchdog.watch(sock)


class _WatchedMixin:
    """Hands the socket of each request to this thread's :class:`_Watchdog`."""

    def connect(self):
        super().connect()
        _watch(getattr(self, "sock", None))

    def request(self, *args, **kwargs):
        if getattr(self, "sock", None) is not None:  # a kept-alive connection: connect() is not called again
            _watch(self.sock)
        return super().request(*args, **kwargs)


class _GuardedMixin:
    """Connects only to an address it resolved and vetted itself, and checks the peer again once connected.

    The pre-connect check in fetch() names a refused host early, but the name is resolved again here: a DNS
    answer that changed in between (rebinding: public first, private second) must not reach a TCP connect.
    Connecting to the vetted address keeps the Host header and TLS SNI on the URL's host name.
    """

    allow_private = False

    def _new_conn(self):
        host = self._dns_host  # urllib3: the name to resolve (the URL's host)
        try:
            infos = socket.getaddrinfo(host, self.port, type=socket.SOCK_STREAM)
        except socket.gaierror as exc:
            raise NameResolutionError(self.host, self, exc) from exc
        addresses = [cast(str, info[4][0]) for info in infos]
        for address in addresses:
            if not address_allowed(address, self.allow_private):
                raise AddressRefused(f"refused: {host} resolves to a refused address: {address}")
        error: Exception | None = None
        for address in dict.fromkeys(addresses):  # each vetted address once, in the resolver's order
            try:
                return urllib3_connection.create_connection(
                    (address, self.port),
                    self.timeout,
                    source_address=self.source_address,
                    socket_options=self.socket_options,
                )
            except TimeoutError as exc:
                error = ConnectTimeoutError(self, f"Connection to {host} timed out")
                error.__cause__ = exc
            except OSError as exc:
                error = NewConnectionError(self, f"Failed to establish a new connection: {exc}")
                error.__cause__ = exc
        raise error or NewConnectionError(self, f"no address for {host}")

    def connect(self):
        super().connect()
        sock = getattr(self, "sock", None)
        peer = sock.getpeername()[0] if sock is not None else None
        if peer is not None and not address_allowed(peer, self.allow_private):
            self.close()
            raise AddressRefused(f"refused: connected to a refused address {peer}")


class _WatchedHTTPConnection(_WatchedMixin, HTTPConnection):
    pass


class _WatchedHTTPSConnection(_WatchedMixin, HTTPSConnection):
    pass


class _GuardedHTTPConnection(_GuardedMixin, _WatchedHTTPConnection):
    pass


class _GuardedHTTPSConnection(_GuardedMixin, _WatchedHTTPSConnection):
    pass


class _PrivateHTTPConnection(_GuardedHTTPConnection):
    allow_private = True


class _PrivateHTTPSConnection(_GuardedHTTPSConnection):
    allow_private = True


def _pool(base, connection):
    return type(f"{connection.__name__}Pool", (base,), {"ConnectionCls": connection})


#: by allow_private: every connection is watched (the deadline) and guarded (its peer address)
_POOLS = {
    False: {
        "http": _pool(HTTPConnectionPool, _GuardedHTTPConnection),
        "https": _pool(HTTPSConnectionPool, _GuardedHTTPSConnection),
    },
    True: {
        "http": _pool(HTTPConnectionPool, _PrivateHTTPConnection),
        "https": _pool(HTTPSConnectionPool, _PrivateHTTPSConnection),
    },
}


class _Adapter(HTTPAdapter):
    """Connections that the deadline watchdog sees and that refuse peers the address rule refuses."""

    def __init__(self, allow_private: bool, **kwargs):
        self.allow_private = allow_private
        super().__init__(**kwargs)

    def init_poolmanager(self, *args, **kwargs):
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = dict(_POOLS[self.allow_private])


_local = threading.local()


def _session(allow_private: bool) -> requests.Session:
    """One session per thread and per address rule (sessions are not shared between threads)."""
    name = "open" if allow_private else "guarded"
    session = getattr(_local, name, None)
    if session is None:
        session = requests.Session()
        session.trust_env = False  # no proxies or netrc from the environment: the address rule must hold
        adapter = _Adapter(allow_private, pool_maxsize=4)
        session.mount("http://", adapter)
        session.mount("https://", adapter)
        setattr(_local, name, session)
    return session


# --------------------------------------------------------------------------- fetching


#: a server's Retry-After is believed up to a day: a date in the year 9999 must not silence a host for ever
MAX_RETRY_AFTER = 24 * 3600.0


def _ascii_digits(value: str) -> bool:
    """Only 0-9: str.isdigit() is also true for "²" and other digits that int() and float() refuse."""
    return value.isascii() and value.isdigit()


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a Retry-After header (delta-seconds or HTTP date), at most a day; None when absent
    or unreadable."""
    if not value:
        return None
    value = value.strip()
    if _ascii_digits(value):
        return min(float(value), MAX_RETRY_AFTER)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, OverflowError):
        return None
    if when is None:
        return None
    try:
        seconds = when.timestamp() - (now if now is not None else time.time())
    except (OverflowError, ValueError, OSError):
        return None
    return min(max(0.0, seconds), MAX_RETRY_AFTER)


def _read_body(resp: requests.Response, url: str, cap: int, truncate: bool = False) -> bytes:
    length = resp.headers.get("content-length")
    if not truncate and length and _ascii_digits(length) and int(length) > cap:
        raise FetchError(
            f"body of {int(length)} bytes exceeds the {cap}-byte cap", transient=False, status=resp.status_code, url=url
        )
    chunks, size = [], 0
    for chunk in resp.iter_content(64 * 1024):
        size += len(chunk)
        if size > cap and truncate:
            chunks.append(chunk[: len(chunk) - (size - cap)])
            break
        if size > cap:
            raise FetchError(
                f"body exceeds the {cap}-byte cap", transient=False, status=resp.status_code, url=url, nbytes=size
            )
        chunks.append(chunk)
    return b"".join(chunks)


def _refuse_ambiguous(url: str, hostname: str) -> None:
    """Refuse URLs that parsers read differently: ``http://127.0.0.52:8112\\@8.8.8.8/`` is 8.8.8.8 to urllib.parse
    and 127.0.0.52 to urllib3, which connects. Backslashes, user info and control characters have no use in
    a page's URL; and the host checked must be the host urllib3 connects to."""
    if "\\" in url or any(ord(c) < 33 or ord(c) == 127 for c in url):
        raise AddressRefused(f"refused: a backslash, space or control character in the URL {url[:200]!r}", url=url)
    parsed = parse_url(url)
    if parsed.auth is not None or "@" in (urlparse(url).netloc or ""):
        raise AddressRefused(f"refused: user info in the URL {url[:200]!r}", url=url)
    if (parsed.host or "").strip("[]").lower() != hostname.lower():
        raise AddressRefused(f"refused: the URL's host is ambiguous ({parsed.host!r} or {hostname!r})", url=url)


@dataclass(frozen=True)
class _Plan:
    """What every hop of one fetch shares."""

    allow_private: bool
    headers: dict[str, str]
    cap: int  # bytes of body
    truncate: bool  # a body over ``cap`` is cut there instead of refused
    timeout: tuple[float, float]  # connect, read (each recv)
    deadline: float  # seconds per hop: connect, headers and body together
    started: float  # time.monotonic() when the fetch began


def fetch(
    url: str,
    *,
    allow_private: bool = False,
    before_request: Callable[[str, bool], object] | None = None,
    headers: dict[str, str] | None = None,
    max_bytes: int | None = None,
    truncate: bool = False,
) -> Response:
    """GET ``url`` under the rules in the module docstring and return the final response.

    2xx and 304 are returned; everything else raises :class:`FetchError` (or :class:`Deferred` from
    ``before_request``). ``headers`` are extra request headers (If-None-Match, If-Modified-Since).
    ``truncate``: a body over ``max_bytes`` is cut there instead of refused (robots.txt).
    """
    cap = max_bytes or conf.max_bytes()
    timeout = (conf.connect_timeout(), conf.read_timeout())
    deadline_total = conf.connect_timeout() + 2 * conf.read_timeout()
    started = time.monotonic()
    hops: list[str] = []
    current = canonicalise(url) and url
    if not current:
        raise FetchError(f"not an http(s) URL: {url!r}", transient=False, url=url)
    plan = _Plan(allow_private, _request_headers(headers), cap, truncate, timeout, deadline_total, started)
    while True:
        hops.append(current)
        _check_hop(current, allow_private)
        if before_request is not None:
            before_request(current, len(hops) > 1)  # True for a redirect hop
        outcome = _hop(current, hops, plan)
        if isinstance(outcome, Response):
            return outcome
        current = outcome


def _request_headers(extra: dict[str, str] | None) -> dict[str, str]:
    """The headers of every request: WIMS's User-Agent, the encodings and types it reads, then ``extra``."""
    request_headers = {
        "User-Agent": user_agent(),
        "Accept-Encoding": "gzip, deflate",
        "Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    }
    request_headers.update(extra or {})
    return request_headers


def _check_hop(current: str, allow_private: bool) -> None:
    """Refuse a hop's URL before any request: not http(s), no host, a bad port, ambiguous, or a host that
    resolves to an address the rule refuses (:func:`check_host`)."""
    parts = urlparse(current)
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)  # ValueError: port out of range
    except ValueError as exc:
        raise FetchError(f"invalid URL {current!r}: {exc}", transient=False, url=current) from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise FetchError(f"not an http(s) URL: {current!r}", transient=False, url=current)
    _refuse_ambiguous(current, parts.hostname)
    check_host(parts.hostname, port, current, allow_private)


def _hop(current: str, hops: list[str], plan: _Plan) -> Response | str:
    """One request, under one absolute deadline enforced on the socket whatever a trickling server does:
    the final response, or the URL a redirect points to. An error once the deadline has passed says so."""
    watchdog = _local.watchdog = _Watchdog(plan.deadline)
    try:
        resp = _get(current, plan)
        try:
            return _answer(resp, current, hops, plan, watchdog)
        finally:
            resp.close()
    except FetchError as exc:
        if watchdog.expired:
            raise FetchError(
                f"not received within the total time limit of {plan.deadline:g} s",
                transient=True,
                status=exc.status,
                url=current,
                nbytes=exc.nbytes,
            ) from exc
        raise
    finally:
        watchdog.cancel()
        _local.watchdog = None


def _get(current: str, plan: _Plan) -> requests.Response:
    """Send the request (no redirect followed, the body not read yet); its errors as :class:`FetchError`."""
    try:
        return _session(plan.allow_private).get(
            current, headers=plan.headers, timeout=plan.timeout, allow_redirects=False, stream=True
        )
    except AddressRefused as exc:
        exc.url = current
        raise
    except requests.Timeout as exc:
        raise FetchError(f"timeout: {exc.__class__.__name__}", transient=True, url=current) from exc
    except requests.ConnectionError as exc:
        raise FetchError(f"connection error: {_short(exc)}", transient=True, url=current) from exc
    except requests.RequestException as exc:
        raise FetchError(f"request failed: {_short(exc)}", transient=False, url=current) from exc


def _answer(resp: requests.Response, current: str, hops: list[str], plan: _Plan, watchdog: _Watchdog) -> Response | str:
    """What the response says (:func:`_read_answer`), errors while reading it as :class:`FetchError`."""
    try:
        return _read_answer(resp, current, hops, plan, watchdog)
    except (requests.ConnectionError, requests.exceptions.ChunkedEncodingError) as exc:
        raise FetchError(f"connection broken while reading: {_short(exc)}", transient=True, url=current) from exc
    except requests.Timeout as exc:
        raise FetchError("timeout while reading the body", transient=True, url=current) from exc
    except requests.exceptions.ContentDecodingError as exc:
        raise FetchError(f"cannot decode body: {_short(exc)}", transient=False, url=current) from exc


def _read_answer(
    resp: requests.Response, current: str, hops: list[str], plan: _Plan, watchdog: _Watchdog
) -> Response | str:
    """A redirect's target; an error status refused (:func:`_refuse_status`); else the response, its body read
    (none for a 304)."""
    status = resp.status_code
    if 300 <= status < 400 and status != 304:
        return _redirect_target(resp, current, hops)
    _refuse_status(resp, current)
    body = b"" if status == 304 else _read_body(resp, current, plan.cap, plan.truncate)
    if watchdog.expired:  # the shut socket can end headers or body early without an error
        raise FetchError("cut at the total time limit", transient=True, status=status, url=current)
    return Response(
        url=current,
        status=status,
        headers={k.lower(): v for k, v in resp.headers.items()},
        body=body,
        elapsed=time.monotonic() - plan.started,
        hops=hops,
    )


def _redirect_target(resp: requests.Response, current: str, hops: list[str]) -> str:
    """The absolute URL a 3xx response points to; refused without a Location or past the redirect limit."""
    status = resp.status_code
    location = resp.headers.get("location")
    if not location:
        raise FetchError(f"HTTP {status} without Location", transient=False, status=status, url=current)
    target = requests.compat.urljoin(current, location)
    if len(hops) > conf.max_redirects():
        loop = " (redirect loop)" if target in hops else ""
        raise FetchError(
            f"more than {conf.max_redirects()} redirects{loop}",
            transient=False,
            status=status,
            url=current,
        )
    return target


def _refuse_status(resp: requests.Response, current: str) -> None:
    """Raise for an error status: 429 and 503 transient with their Retry-After, other 5xx and 408 transient,
    other 4xx permanent."""
    status = resp.status_code
    if status in (429, 503):
        retry_after = parse_retry_after(resp.headers.get("retry-after"))
        raise FetchError(f"HTTP {status}", transient=True, status=status, retry_after=retry_after, url=current)
    if status >= 500 or status == 408:
        raise FetchError(f"HTTP {status}", transient=True, status=status, url=current)
    if status >= 400:
        raise FetchError(f"HTTP {status}", transient=False, status=status, url=current)


def _short(exc: Exception) -> str:
    text = str(exc)
    for marker in (
        "Connection reset",
        "Connection refused",
        "Connection aborted",
        "Read timed out",
        "RemoteDisconnected",
        "IncompleteRead",
    ):
        if marker in text:
            return marker
    return text[:300]
