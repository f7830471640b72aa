"""Hostile sites for the soak test: each misbehaves in one way that WIMS must survive and record.

One listening socket per site address (politeness is per host), one thread per connection, raw sockets so
that a response can trickle its status line and headers byte by byte. Each site's home page links two
"stories" (``/story/<case>-<n>.html``); what a story (or, for some sites, every page) does is the site's case.
"""

from __future__ import annotations

import contextlib
import gzip
import random
import socket
import threading
import time
from collections import Counter
from dataclasses import dataclass

#: the error each case must leave on its articles (``where="article"``) or in its site's health ("site")
CASES: dict[str, tuple[str, str]] = {
    "trickle-body": ("article", "total time limit"),
    "trickle-headers": ("article", "total time limit"),
    "trickle-home": ("site", "total time limit"),
    "gzip-bomb": ("article", "byte cap"),
    "attribute-bomb": ("article", "more than 2,000 attributes"),
    "bad-port": ("article", "invalid URL"),
    "bad-retry-after": ("article", "HTTP 503"),
    "storm-429": ("site", "HTTP 429"),
    "endless-redirects": ("article", "redirects"),
    "flaky-404": ("processed", ""),  # 404 twice, then the page: retried, then processed
    # odd stories nested 100,000 deep (refused at the filters' door), even ones readable: the site learns its
    # profile from the readable ones only (site learning once read the refused pages: 2.8 GB and a loop)
    "deep-nesting": ("some", "nested more than 2,048 deep"),
    # within the door's limits, past a processing child's data cap in the soak (WIMS_TASK_MEMORY_MB=384): the
    # task fails its row with "memory limit", or, should the allocation fail where Python cannot catch it and
    # the child die, the row is quarantined after its attempts; the worker and everything else go on
    "memory-bomb": ("article", "memory limit|quarantined"),
}

#: stories a case's home page links (2 unless said here)
STORIES = {"deep-nesting": 14}

TRICKLE_EVERY = 2.0  # seconds between two bytes


@dataclass
class HostileSite:
    case: str
    address: str

    def home_url(self, port: int) -> str:
        return f"http://{self.address}:{port}/"


_WORDS = [
    "clinic",
    "vaccine",
    "council",
    "river",
    "school",
    "harvest",
    "market",
    "storm",
    "library",
    "museum",
    "bridge",
    "festival",
    "hospital",
    "railway",
    "garden",
    "theatre",
    "doctor",
    "nurse",
    "winter",
    "summer",
    "budget",
    "election",
    "stadium",
    "orchestra",
    "bakery",
    "harbour",
    "village",
    "tunnel",
]


def _page(title: str, text: str, story: str) -> bytes:
    # each story its own words: two stories that differ by one word are near-duplicates (and WIMS says so)
    rng = random.Random(story)
    paragraphs = "".join(
        f"<p>{text} Paragraph {i}: {' '.join(rng.sample(_WORDS, 12))}, long enough to be read as content.</p>"
        for i in range(6)
    )
    head = f"<html><head><title>{title}</title></head>"
    return f"{head}<body><article><h1>{title}</h1>{paragraphs}</article></body></html>".encode()


class HostileServer:
    def __init__(self, first_address: str = "127.0.0.31", port: int = 0):
        base = first_address.rsplit(".", 1)
        self.sites = [HostileSite(case, f"{base[0]}.{int(base[1]) + i}") for i, case in enumerate(CASES)]
        self.by_address = {s.address: s for s in self.sites}
        self.port = port
        self.requests: Counter[str] = Counter()
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self._socks: list[socket.socket] = []
        self._bomb = gzip.compress(b"\0" * (64 * 1024 * 1024), compresslevel=9)  # 64 MiB behind ~64 KiB
        attrs = " ".join(f"a{i}=1" for i in range(200_000))
        self._attribute_bomb = f"<html><body><div {attrs}><p>text</p></div></body></html>".encode()
        self._memory_bomb = b"<html><body>" + b"<p><a href=/x>x</a> yy</p>" * 249_000 + b"</body></html>"
        self._deep_bomb = (
            b"<html><body>" + b"<div>" * 100_000 + b"<p>text</p>" + b"</div>" * 100_000 + b"</body></html>"
        )

    def start(self) -> HostileServer:
        for site in self.sites:
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((site.address, self.port))
            self.port = sock.getsockname()[1]
            sock.listen(64)
            sock.settimeout(1.0)
            self._socks.append(sock)
            threading.Thread(target=self._accept, args=(sock, site), daemon=True).start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        for sock in self._socks:
            with contextlib.suppress(OSError):
                sock.close()

    def _accept(self, sock: socket.socket, site: HostileSite) -> None:
        while not self.stopping.is_set():
            try:
                conn, _ = sock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            threading.Thread(target=self._serve, args=(conn, site), daemon=True).start()

    def _serve(self, conn: socket.socket, site: HostileSite) -> None:
        conn.settimeout(30)
        try:
            request = b""
            while b"\r\n\r\n" not in request and len(request) < 65536:
                chunk = conn.recv(4096)
                if not chunk:
                    return
                request += chunk
            path = request.split(b" ", 2)[1].decode("latin-1") if request.count(b" ") >= 2 else "/"
            with self.lock:
                self.requests[f"{site.case} {path}"] += 1
                seen = self.requests[f"{site.case} {path}"]
            self._respond(conn, site, path, seen)
        except OSError:
            pass
        finally:
            with contextlib.suppress(OSError):
                conn.close()

    def _send(self, conn, status: str, headers: list[tuple[str, str]], body: bytes = b"") -> None:
        head = f"HTTP/1.1 {status}\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers)
        if not any(k.lower() == "content-length" for k, _ in headers):
            head += f"Content-Length: {len(body)}\r\n"
        conn.sendall((head + "Connection: close\r\n\r\n").encode("utf-8") + body)

    def _trickle(self, conn, data: bytes) -> None:
        for i in range(len(data)):
            if self.stopping.is_set():
                return
            conn.sendall(data[i : i + 1])
            time.sleep(TRICKLE_EVERY)

    def _respond(self, conn, site: HostileSite, path: str, seen: int) -> None:
        case = site.case
        html = [("Content-Type", "text/html; charset=utf-8")]
        if case == "storm-429":
            return self._send(conn, "429 Too Many Requests", [("Retry-After", "2"), *html], b"slow down")
        if path == "/robots.txt":
            return self._send(conn, "404 Not Found", html, b"no robots")
        if path == "/":
            stories = range(1, STORIES.get(case, 2) + 1)
            links = "".join(f'<li><a href="/story/{case}-{n}.html">Story {n} of {case}</a></li>' for n in stories)
            home = f"<html><body><h1>Hostile site: {case}</h1><ul>{links}</ul></body></html>".encode()
            if case == "trickle-home":
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100000\r\n\r\n")
                return self._trickle(conn, home * 100)
            return self._send(conn, "200 OK", html, home)
        if not path.startswith("/story/"):
            return self._send(conn, "404 Not Found", html, b"not found")
        page = _page(f"{case} story {path}", f"The {case} site tells a story at {path}.", path)
        if case == "trickle-body":
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100000\r\n\r\n")
            return self._trickle(conn, page * 50)
        if case == "trickle-headers":
            return self._trickle(conn, b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nX-Slow: " + b"x" * 1000)
        if case == "gzip-bomb":
            return self._send(conn, "200 OK", [*html, ("Content-Encoding", "gzip")], self._bomb)
        if case == "attribute-bomb":
            return self._send(conn, "200 OK", html, self._attribute_bomb)
        if case == "memory-bomb":
            return self._send(conn, "200 OK", html, self._memory_bomb)
        if case == "deep-nesting" and path.removesuffix(".html").endswith(("1", "3", "5", "7", "9")):
            return self._send(conn, "200 OK", html, self._deep_bomb)
        if case == "bad-port":
            return self._send(conn, "302 Found", [("Location", "http://h:99999/")], b"")
        if case == "bad-retry-after":
            return self._send(conn, "503 Service Unavailable", [("Retry-After", "\u00b2"), *html], b"busy")
        if case == "endless-redirects":
            return self._send(conn, "302 Found", [("Location", f"{path.split('?')[0]}?hop={seen}-{time.time()}")])
        if case == "flaky-404" and seen <= 2:
            return self._send(conn, "404 Not Found", html, b"not yet")
        return self._send(conn, "200 OK", html, page)
