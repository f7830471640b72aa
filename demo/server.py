"""The demo news server: one process, one listening socket per site address, one selector thread.

Design (chosen with the WebMon scale benchmark in mind, 1,000 sites on distinct loopback addresses):

* Every distinct site address gets its own listening socket on the same port (Linux routes all of
  127.0.0.0/8 to loopback, so ``127.0.0.11:8001``, ``127.0.0.12:8001``... need no set-up). Per-host
  politeness in WebMon then applies exactly as it would to real, separate hosts.
* All listening sockets are watched by **one** ``selectors`` thread; an accepted connection is handled
  by a short-lived daemon thread (``http.server.BaseHTTPRequestHandler``, HTTP/1.1 keep-alive with an
  idle timeout). 1,000 sites therefore cost 1,000 file descriptors and one idle thread, not 1,000 threads.
* The site is selected by the ``Host`` header when it names a known site (its address or its
  ``hostname``), otherwise by the address the connection arrived on. Several sites may share an address
  and be told apart by ``Host`` alone.
* All behaviour lives in :class:`DemoApp` (plain request in, :class:`Response` out); the socket layer only
  moves bytes, sleeps for slow responses and resets connections.

Control endpoints (per site, under ``/_control/``, never faulted, never counted):
``POST publish``, ``GET articles.json``, ``POST reset``, ``POST|GET|DELETE fault``,
``GET|DELETE requests.json``, ``GET site.json``. Fixed fault URLs live under ``/fault/``.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import selectors
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import replace
from datetime import datetime
from email.utils import format_datetime, parsedate_to_datetime
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from .articles import Article
from .faults import (
    FAULT_MODES,
    HTML,
    JSON,
    MAX_SLOW_SECONDS,
    FaultSwitch,
    Response,
    fault_response,
    small_page,
)
from .listings import route as route_listing
from .sitemaps import render_robots
from .sites import (
    INFO_PAGES,
    SERVED_SITES,
    STAFF_NOTES_TEXT,
    STAFF_NOTES_TITLE,
    PageContext,
    SiteSpec,
    article_url,
    render_rss,
    template_for,
)
from .timeline import SiteState, timestamp

log = logging.getLogger(__name__)

STATIC_FILES = {
    "/static/site.js": ("application/javascript", b"/* demo site script */\nwindow.demoReady = true;\n"),
    "/static/site.css": ("text/css", b"body{font-family:sans-serif}\n"),
    "/static/courier.css": ("text/css", b"body{font-family:Georgia,serif}\n"),
    "/static/wbt.css": ("text/css", b"body{font-family:system-ui}\n"),
}


class DemoApp:
    """All demo-site behaviour, independent of sockets: ``handle()`` maps a request to a :class:`Response`."""

    def __init__(
        self,
        sites: Iterable[SiteSpec],
        port: int,
        interval: float | None = 60.0,
        start_published: int = 4,
        clock: Callable[[], float] = time.time,
        state_file: str | os.PathLike[str] | None = None,
    ):
        self.sites: dict[str, SiteSpec] = {}
        self.state_file = Path(state_file) if state_file else None
        self._save_lock = threading.Lock()
        self.states: dict[str, SiteState] = {}
        self.by_host: dict[str, str] = {}
        self.by_address: dict[str, list[str]] = {}
        self.port = port
        for spec in sites:
            if spec.key in self.sites:
                raise ValueError(f"duplicate site key {spec.key!r}")
            self.sites[spec.key] = spec
            self.states[spec.key] = SiteState(spec, interval, start_published, clock, self.save)
            self.by_address.setdefault(spec.address, []).append(spec.key)
            if spec.hostname:
                self.by_host[spec.hostname.lower()] = spec.key
        if not self.sites:
            raise ValueError("a demo server needs at least one site")
        self.clock = clock
        self.stopping = threading.Event()

    # -- persisted timelines -----------------------------------------------------------------------------
    def start_timelines(self) -> None:
        """Start every site's timeline now, or continue the one saved in ``state_file``.

        Continuing is what keeps the demo sites honest across restarts: what was published stays
        published under the same URL and date, as on a real site.
        """
        saved = self._load()
        for key, state in self.states.items():
            if key in saved:
                state.restore(saved[key])
            else:
                state.reset()
        self.save()

    def _load(self) -> dict[str, dict]:
        if self.state_file is None or not self.state_file.exists():
            return {}
        try:
            data = json.loads(self.state_file.read_text())
            return {k: v for k, v in data["sites"].items() if isinstance(v.get("times"), list)}
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            log.warning("demo sites: ignoring unreadable state file %s (%s); starting afresh", self.state_file, exc)
            return {}

    def save(self) -> None:
        """Write every site's timeline to ``state_file`` (atomically: a crash leaves the old or the new one)."""
        if self.state_file is None:
            return
        with self._save_lock:
            data = {"sites": {key: state.timeline() for key, state in self.states.items()}}
            self.state_file.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.state_file.with_name(self.state_file.name + ".tmp")
            tmp.write_text(json.dumps(data))
            os.replace(tmp, self.state_file)

    # -- site selection ---------------------------------------------------------------------------------
    def base_url(self, key: str) -> str:
        return f"http://{self.sites[key].address}:{self.port}"

    def resolve_site(self, host_header: str | None, listen_address: str) -> str | None:
        if host_header:
            host = host_header.strip().lower()
            host = host[1:].split("]")[0] if host.startswith("[") else host.rsplit(":", 1)[0]
            if host in self.by_host:
                return self.by_host[host]
            keys = self.by_address.get(host)
            if keys and len(keys) == 1:
                return keys[0]
        keys = self.by_address.get(listen_address)
        return keys[0] if keys else None

    def context(self, key: str) -> PageContext:
        return PageContext(self.sites[key], self.base_url(key), self.states[key].published())

    # -- entry point ------------------------------------------------------------------------------------
    def handle(
        self, method: str, target: str, headers: dict[str, str], listen_address: str, client: str = ""
    ) -> Response:
        arrived = self.clock()  # the request log's time: when the request came, not when its answer was ready
        key = self.resolve_site(headers.get("host"), listen_address)
        if key is None:
            return Response(421, small_page("Misdirected request", "No demo site answers for this host."))
        parts = urlsplit(target)
        path, query = parts.path or "/", parts.query
        if path.startswith("/_control/"):
            return self._control(key, method, path, query)
        state = self.states[key]
        response: Response
        switch = state.take_fault(path)
        try:
            if switch is not None and switch.mode != "slow":
                response = self._switched_fault(key, switch, method, path, query, headers)
            else:
                response = self._route(key, method, path, query, headers)
                if switch is not None:  # slow: the real page, late
                    response.delay = min(float(switch.params.get("seconds", 5)), MAX_SLOW_SECONDS)
                    response.fault = "slow"
        except Exception:  # a bug in a renderer must show up as a 500, not kill the connection silently
            log.exception("demo site %s failed on %s", key, target)
            response = Response(500, small_page("Server error", "The demo renderer failed."))
        state.record(
            {
                "time": arrived,
                "method": method,
                "path": path,
                "query": query,
                "user_agent": headers.get("user-agent", ""),
                "status": None if response.reset else response.status,
                "fault": response.fault,
                "client": client,
                "if_none_match": headers.get("if-none-match"),
                "if_modified_since": headers.get("if-modified-since"),
            }
        )
        return response

    def _switched_fault(
        self, key: str, switch: FaultSwitch, method: str, path: str, query: str, headers: dict[str, str]
    ) -> Response:
        mode = switch.mode
        if mode == "redirect-loop":
            resp = Response(302, b"", headers=[("Location", "/fault/redirect-loop")])
        elif mode == "wrong-charset":
            resp = self._route(key, method, path, query, {})
            declared = switch.params.get("declared", "utf-8")
            if resp.status == 200 and resp.content_type.startswith("text/html"):
                text = resp.body.decode("utf-8")
                if declared.lower() == "utf-8":  # bytes are really windows-1252
                    resp.body = text.encode("windows-1252", errors="replace")
                resp.content_type = f"text/html; charset={declared}"
        else:
            resp = fault_response(mode, switch.params)
        resp.fault = mode
        return resp

    # -- public pages ----------------------------------------------------------------------------------
    def _route(self, key: str, method: str, path: str, query: str, headers: dict[str, str]) -> Response:
        if method not in ("GET", "HEAD"):
            return Response(405, small_page("Method not allowed", method), headers=[("Allow", "GET, HEAD")])
        spec = self.sites[key]
        if path.startswith("/fault/"):
            return self._fixed_fault(path, query)
        if path == "/robots.txt":
            robots = render_robots(PageContext(spec, self.base_url(key), ()))
            return Response(200, robots.encode(), "text/plain; charset=utf-8")
        if path in STATIC_FILES:
            ctype, body = STATIC_FILES[path]
            return Response(200, body, ctype, headers=[("Cache-Control", "max-age=86400")])
        if path.startswith("/static/") or path == "/favicon.ico":
            return self._not_found(key)
        tpl = template_for(spec)
        ctx = self.context(key)
        newest = ctx.published[0][1] if ctx.published else None
        other = route_listing(ctx, path, query)  # the pages that are no article, sitemaps, the Atom feed
        if other is not None:
            text, content_type, modified = other
            return self._page(text, headers, modified, content_type)
        if path == "/":
            return self._page(tpl.home(ctx), headers, newest)
        if path == spec.feed_path:  # an RSS feed (the Atom feed is among the machine files above)
            return self._page(render_rss(ctx), headers, newest, "application/rss+xml; charset=utf-8")
        if path.startswith("/private/"):
            if path == "/private/staff-notes.html":
                return self._page(tpl.info_page(ctx, STAFF_NOTES_TITLE, STAFF_NOTES_TEXT), headers, None)
            return self._not_found(key)
        stem = path.strip("/").rsplit(".", 1)[0]
        if stem in INFO_PAGES and "/" not in stem:
            title, text = INFO_PAGES[stem]
            return self._page(tpl.info_page(ctx, title, text), headers, None)
        match = tpl.match(path, query)
        if match and match[0] == "section" and match[1] in spec.sections:
            try:
                html = tpl.section(ctx, match[1], int(match[2]))
            except LookupError:
                return self._not_found(key)
            listed = [d for a, d in ctx.published if a.section == match[1]]
            return self._page(html, headers, listed[0] if listed else None)
        if match and match[0] == "article":
            for article, when in ctx.published:
                if article.slug == match[1] and (not match[2] or match[2] == article.section):
                    return self._page(tpl.article(ctx, article), headers, when)
        return self._not_found(key)

    def _not_found(self, key: str) -> Response:
        spec = self.sites[key]
        ctx = PageContext(spec, self.base_url(key), ())
        page = template_for(spec).info_page(ctx, "Page not found", "Sorry, we could not find that page.")
        return Response(404, page.encode())

    def _page(
        self, text: str, req_headers: dict[str, str], modified: datetime | None, content_type: str = HTML
    ) -> Response:
        """A 200 page with ETag / Last-Modified, or 304 when the client's validators still match."""
        body = text.encode("utf-8")
        etag = '"' + hashlib.sha1(body, usedforsecurity=False).hexdigest()[:20] + '"'
        headers = [("ETag", etag), ("Cache-Control", "no-cache")]
        if modified is not None:
            headers.append(("Last-Modified", format_datetime(modified, usegmt=True)))
        inm = req_headers.get("if-none-match")
        ims = req_headers.get("if-modified-since")
        not_modified = False
        if inm is not None:
            not_modified = etag in [t.strip() for t in inm.split(",")] or inm.strip() == "*"
        elif ims and modified is not None:
            with contextlib.suppress(TypeError, ValueError):
                not_modified = parsedate_to_datetime(ims) >= modified
        if not_modified:
            return Response(304, b"", content_type, headers)
        return Response(200, body, content_type, headers)

    def _fixed_fault(self, path: str, query: str) -> Response:
        name = path[len("/fault/") :].strip("/")
        params = {k: v[-1] for k, v in parse_qs(query).items()}
        if name == "redirect-loop/b":
            return Response(302, b"", headers=[("Location", "/fault/redirect-loop")], fault="redirect-loop")
        if name not in FAULT_MODES:
            return Response(404, small_page("Unknown fault", f"Known: {', '.join(FAULT_MODES)}"))
        try:
            resp = fault_response(name, params)
        except ValueError as exc:
            return Response(400, small_page("Bad fault parameters", str(exc)))
        resp.fault = name
        return resp

    # -- control endpoints -----------------------------------------------------------------------------
    def _control(self, key: str, method: str, path: str, query: str) -> Response:
        state = self.states[key]
        params = {k: v[-1] for k, v in parse_qs(query).items()}
        name = path[len("/_control/") :]
        if name == "publish" and method == "POST":
            article = state.publish_next()
            if article is None:
                return _json({"error": "this site has no articles", "site": key}, 409)
            return _json({"site": key, "published": self._article_json(key, article), "count": len(state.times)})
        if name == "articles.json" and method == "GET":
            ctx = self.context(key)
            return _json({"site": key, "articles": [self._article_json(key, a, d) for a, d in ctx.published]})
        if name == "reset" and method == "POST":
            state.reset()
            return _json({"site": key, "reset": True, "published": len(state.times)})
        if name == "fault":
            if method == "DELETE":
                with state.lock:
                    state.faults.clear()
                return _json({"site": key, "faults": []})
            if method == "POST":
                return self._add_fault(key, params)
            if method == "GET":
                with state.lock:
                    return _json({"site": key, "faults": [f.as_dict() for f in state.faults]})
        if name == "requests.json":
            if method == "DELETE":
                with state.lock:
                    state.log.clear()
                    state.counts.clear()
                return _json({"site": key, "cleared": True})
            if method == "GET":
                prefix = params.get("path_prefix", "")
                with state.lock:
                    counts = {p: n for p, n in state.counts.items() if p.startswith(prefix)}
                    entries = [r for r in state.log if r["path"].startswith(prefix)]
                return _json({"site": key, "total": sum(counts.values()), "counts": counts, "requests": entries})
        if name == "site.json" and method == "GET":
            spec = self.sites[key]
            nxt = state.next_publication()
            return _json(
                {
                    "key": key,
                    "name": spec.name,
                    "template": spec.template,
                    "base_url": self.base_url(key),
                    "home_url": self.base_url(key) + "/",
                    "sections": [self.base_url(key) + template_for(spec).section_path(s) for s in spec.sections],
                    "feed_url": self.base_url(key) + spec.feed_path if spec.feed_path else None,
                    "sitemap_url": self.base_url(key) + template_for(spec).sitemaps["index"],
                    "interval": state.interval,
                    "pool_size": len(spec.articles),
                    "next_publication": timestamp(nxt).isoformat() if nxt else None,
                }
            )
        return _json({"error": f"no control endpoint {method} {path}"}, 404)

    def _add_fault(self, key: str, params: dict[str, str]) -> Response:
        mode = params.pop("mode", "")
        if mode not in FAULT_MODES:
            return _json({"error": f"mode must be one of {list(FAULT_MODES)}"}, 400)
        count_text = params.pop("count", "1")
        try:
            count: int | None = None if count_text in ("all", "-1", "inf") else int(count_text)
        except ValueError:
            return _json({"error": "count must be an integer or 'all'"}, 400)
        if count is not None and count < 1:
            return _json({"error": "count must be >= 1 (or 'all')"}, 400)
        prefix = params.pop("path_prefix", "/")
        if not prefix.startswith("/"):
            return _json({"error": "path_prefix must start with /"}, 400)
        for numeric in ("seconds", "retry_after"):
            if numeric in params:
                try:
                    float(params[numeric])
                except ValueError:
                    return _json({"error": f"{numeric} must be a number"}, 400)
        switch = FaultSwitch(mode, count, prefix, params)
        state = self.states[key]
        with state.lock:
            state.faults.append(switch)
        return _json({"site": key, "fault": switch.as_dict()}, 201)

    def _article_json(self, key: str, article: Article, when: datetime | None = None) -> dict:
        spec = self.sites[key]
        return {
            "slug": article.slug,
            "url": article_url(spec, article, self.base_url(key)),
            "title": article.title,
            "section": article.section,
            "topics": list(article.topics),
            "published": when.isoformat() if when else None,
            "core_text": article.core_text,
        }


def _json(data: dict, status: int = 200) -> Response:
    return Response(status, json.dumps(data, indent=1).encode(), JSON)


# ----------------------------------------------------------------------------------------------------
# Sockets
# ----------------------------------------------------------------------------------------------------


class _Listener:
    """What a handler sees as ``self.server``: the app and the address the connection arrived on."""

    def __init__(self, sock: socket.socket, address: str, app: DemoApp, quiet: bool):
        self.sock = sock
        self.address = address
        self.app = app
        self.quiet = quiet


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "DemoNews/1.0"
    timeout = 15  # idle keep-alive connections give their thread back after this
    server: _Listener  # type: ignore[assignment]

    def do_GET(self) -> None:  # noqa: N802 - http.server naming
        self._serve("GET")

    def do_HEAD(self) -> None:  # noqa: N802
        self._serve("HEAD")

    def do_POST(self) -> None:  # noqa: N802
        self._serve("POST")

    def do_DELETE(self) -> None:  # noqa: N802
        self._serve("DELETE")

    def do_PUT(self) -> None:  # noqa: N802
        self._serve("PUT")

    def _serve(self, method: str) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(min(length, 1 << 20))
        headers = {k.lower(): v for k, v in self.headers.items()}
        app = self.server.app
        resp = app.handle(method, self.path, headers, self.server.address, self.client_address[0])
        if resp.delay and app.stopping.wait(resp.delay):
            self.close_connection = True
            return
        if resp.reset:
            self._reset()
            return
        self.send_response(resp.status)
        self.send_header("Content-Type", resp.content_type)
        for name, value in resp.headers:
            self.send_header(name, value)
        length = resp.length if resp.stream is not None else len(resp.body)
        if resp.status != 304:
            self.send_header("Content-Length", str(length))
        send_body = method != "HEAD" and resp.status != 304
        try:
            if resp.stream is None:
                # Headers and body in one write: two small writes would meet the client's delayed ACK
                # (Nagle), costing ~40 ms per request on loopback.
                self._headers_buffer.append(b"\r\n")
                if send_body:
                    self._headers_buffer.append(resp.body)
                self.flush_headers()
                return
            self.end_headers()
            if send_body:
                for piece in resp.stream:
                    self.wfile.write(piece)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True  # the client gave up (e.g. a size cap on the huge page)

    def _reset(self) -> None:
        """Abort with a TCP RST: SO_LINGER(on, 0) then close every reference to the socket."""
        self.close_connection = True
        with contextlib.suppress(OSError):
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        with contextlib.suppress(OSError):
            self.rfile.close()  # makefile() holds a reference; the fd only closes when it is gone
        with contextlib.suppress(OSError):
            self.connection.close()

    def finish(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            super().finish()

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - signature of the base class
        if not self.server.quiet:
            super().log_message(format, *args)


class DemoServer:
    """Serve demo sites on their loopback addresses from one process (usable as a context manager).

    ``port=0`` picks a free port (the same port on every address). ``addresses`` overrides the addresses
    of the given sites, in order. ``interval`` is the seconds between automatic publications per site
    (``None`` or 0: only ``POST /_control/publish`` publishes). ``sites`` defaults to the four
    :data:`~demo.sites.SERVED_SITES`; pass :func:`~demo.sites.synthetic_sites` for the
    scale benchmark. ``state_file`` (a JSON path) keeps the publication timelines across restarts.
    """

    def __init__(
        self,
        port: int = 0,
        addresses: Iterable[str] | None = None,
        interval: float | None = 60.0,
        start_published: int = 4,
        sites: Iterable[SiteSpec] | None = None,
        quiet: bool = True,
        clock: Callable[[], float] = time.time,
        state_file: str | os.PathLike[str] | None = None,
    ):
        specs = list(sites if sites is not None else SERVED_SITES)
        if addresses is not None:
            addresses = list(addresses)
            if len(addresses) != len(specs):
                raise ValueError(f"{len(addresses)} addresses given for {len(specs)} sites")
            specs = [_with_address(s, a) for s, a in zip(specs, addresses, strict=True)]
        self.requested_port = port
        self.port = port
        self.quiet = quiet
        self.app = DemoApp(specs, port, interval, start_published, clock, state_file)
        self._listeners: list[_Listener] = []
        self._selector: selectors.BaseSelector | None = None
        self._thread: threading.Thread | None = None
        self._wake_r, self._wake_w = socket.socketpair()

    # -- lifecycle --------------------------------------------------------------------------------------
    def start(self) -> DemoServer:
        if self._thread is not None:
            raise RuntimeError("demo server already started")
        addresses = list(self.app.by_address)
        _raise_fd_limit(len(addresses) + 256)
        for attempt in range(20):
            try:
                self._bind_all(addresses, self.requested_port)
                break
            except OSError:
                self._close_listeners()
                if self.requested_port or attempt == 19:
                    raise
        self.app.port = self.port
        self.app.start_timelines()  # the timeline starts when the server does, or continues a saved one
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._wake_r, selectors.EVENT_READ, None)
        for listener in self._listeners:
            self._selector.register(listener.sock, selectors.EVENT_READ, listener)
        self._thread = threading.Thread(target=self._accept_loop, name="demo-news-accept", daemon=True)
        self._thread.start()
        return self

    def _bind_all(self, addresses: list[str], port: int) -> None:
        for address in addresses:
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                sock.bind((address, port))
            except OSError:
                sock.close()
                raise
            sock.listen(128)
            sock.setblocking(False)
            if port == 0:
                port = sock.getsockname()[1]
            self._listeners.append(_Listener(sock, address, self.app, self.quiet))
        self.port = port

    def _close_listeners(self) -> None:
        for listener in self._listeners:
            listener.sock.close()
        self._listeners = []

    def _accept_loop(self) -> None:
        assert self._selector is not None
        while not self.app.stopping.is_set():
            for key, _ in self._selector.select(timeout=1.0):
                listener = key.data
                if listener is None:
                    return  # woken by stop()
                try:
                    conn, addr = listener.sock.accept()
                except OSError:  # BlockingIOError (another wake-up got it) or a reset before accept
                    continue
                conn.setblocking(True)
                conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                threading.Thread(target=self._handle, args=(conn, addr, listener), daemon=True).start()

    @staticmethod
    def _handle(conn: socket.socket, addr, listener: _Listener) -> None:
        try:
            _Handler(conn, addr, listener)
        except Exception:
            log.debug("demo connection from %s failed", addr, exc_info=True)
        finally:
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_WR)
            conn.close()

    def stop(self) -> None:
        self.app.stopping.set()
        with contextlib.suppress(OSError):
            self._wake_w.send(b"x")
        if self._thread is not None:
            self._thread.join(timeout=5)
        if self._selector is not None:
            self._selector.close()
        self._close_listeners()
        self._wake_r.close()
        self._wake_w.close()

    def serve_forever(self) -> None:
        if self._thread is None:
            self.start()
        assert self._thread is not None
        while self._thread.is_alive():
            self._thread.join(timeout=1.0)

    def __enter__(self) -> DemoServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    # -- convenience for tests and the bootstrap ----------------------------------------------------------
    @property
    def sites(self) -> dict[str, SiteSpec]:
        return self.app.sites

    def base_url(self, site_key: str) -> str:
        """``http://<address>:<port>`` of a site (no trailing slash)."""
        return self.app.base_url(site_key)

    def home_url(self, site_key: str) -> str:
        return self.app.base_url(site_key) + "/"

    def url(self, site_key: str, path: str) -> str:
        return self.app.base_url(site_key) + path

    def publish(self, site_key: str) -> Article | None:
        """Publish the next article of a site now (same as ``POST /_control/publish``)."""
        return self.app.states[site_key].publish_next()

    def published(self, site_key: str) -> tuple[tuple[Article, datetime], ...]:
        return self.app.states[site_key].published()


def _with_address(spec: SiteSpec, address: str) -> SiteSpec:
    return replace(spec, address=address)


def _raise_fd_limit(needed: int) -> None:
    """Raise the soft open-files limit towards the hard one when many sites are served."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on Linux
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = needed * 2
    if soft != resource.RLIM_INFINITY and soft < want:
        target = want if hard == resource.RLIM_INFINITY else min(want, hard)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
