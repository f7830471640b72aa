"""The demo sites' faults: the responses they give on purpose (slow, 5xx, 429, resets, redirect loops, a 50 MB
page, a lying charset, binary bodies), and the :class:`Response` every demo request maps to."""

from __future__ import annotations

import gzip
import struct
import time
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from email.utils import formatdate

FAULT_MODES = (
    "slow",
    "500",
    "503",
    "429",
    "reset",
    "redirect-loop",
    "huge",
    "wrong-charset",
    "binary",
    "404",
    "410",
)
HUGE_BYTES = 50 * 1024 * 1024
MAX_SLOW_SECONDS = 600

HTML = "text/html; charset=utf-8"
JSON = "application/json"


@dataclass
class Response:
    status: int = 200
    body: bytes = b""
    content_type: str = HTML
    headers: list[tuple[str, str]] = field(default_factory=list)
    stream: Iterable[bytes] | None = None  # body produced lazily (the 50 MB fault)
    length: int | None = None  # Content-Length of a streamed body
    delay: float = 0.0  # seconds to wait before answering (slow fault)
    reset: bool = False  # abort the connection with a TCP RST instead of answering
    fault: str | None = None  # fault mode that produced this response, for the request log


@dataclass
class FaultSwitch:
    """Makes the next ``remaining`` requests of a site under ``path_prefix`` fail with ``mode``.

    ``remaining`` is ``None`` for "until cleared". ``params`` carries ``seconds``, ``retry_after`` etc.
    """

    mode: str
    remaining: int | None
    path_prefix: str
    params: dict[str, str]

    def as_dict(self) -> dict:
        return {"mode": self.mode, "remaining": self.remaining, "path_prefix": self.path_prefix, "params": self.params}


def _png_bytes(width: int = 64, height: int = 64) -> bytes:
    """A small valid PNG (a grey gradient), built by hand so no imaging library is needed."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = b"".join(b"\x00" + bytes((x * 4 + y) % 256 for x in range(width)) for y in range(height))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    signature = b"\x89PNG\r\n\x1a\n"
    return signature + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


PNG_BYTES = _png_bytes()
GZIP_BYTES = gzip.compress(
    b"<html><body><p>This page was gzip-compressed but sent without Content-Encoding.</p></body></html>" * 20, mtime=0
)

#: Text of the wrong-charset page; its non-ASCII characters differ between UTF-8 and windows-1252.
WRONG_CHARSET_TEXT = (
    "Caf\u00e9 culture and na\u00efve \u201chealth\u201d claims: the \u00a35 supplement "
    "that promises a 37\u00b0C cure \u2013 experts are unconvinced."
)


def _wrong_charset_page(declared: str) -> tuple[bytes, str]:
    """Bytes whose real encoding differs from the declared one (header and <meta> agree on the lie)."""
    single_byte = declared.lower() in ("windows-1252", "cp1252", "iso-8859-1", "latin-1")
    actual = "utf-8" if single_byte else "windows-1252"
    page = (
        f'<!DOCTYPE html><html><head><meta charset="{declared}"><title>Wrong charset</title></head>'
        f"<body><h1>Charset test</h1><p>{WRONG_CHARSET_TEXT}</p></body></html>"
    )
    return page.encode(actual), f"text/html; charset={declared}"


def _huge_stream(total: int) -> Iterator[bytes]:
    head = b"<!DOCTYPE html><html><head><title>Huge page</title></head><body>\n"
    tail = b"</body></html>\n"
    filler = (b"<p>This page is far too large for any news article and must be cut off by the size cap.</p>\n" * 700)[
        :65536
    ]
    yield head
    left = total - len(head) - len(tail)
    while left > 0:
        piece = filler[: min(left, len(filler))]
        left -= len(piece)
        yield piece
    yield tail


def small_page(title: str, text: str) -> bytes:
    return (
        f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>{title}</title></head>'
        f"<body><h1>{title}</h1><p>{text}</p></body></html>"
    ).encode()


def _retry_after(params: dict[str, str], default: int) -> str:
    seconds = int(params.get("retry_after", default))
    if params.get("retry_after_as") == "date":
        return formatdate(time.time() + seconds, usegmt=True)
    return str(seconds)


def fault_response(mode: str, params: dict[str, str]) -> Response:
    """The response of a fault (``slow`` returns a normal small page after the delay)."""
    if mode == "slow":
        seconds = min(float(params.get("seconds", 5)), MAX_SLOW_SECONDS)
        page = small_page("Slow page", f"This answer was delayed by {seconds:g} s.")
        return Response(200, page, delay=seconds)
    if mode in ("500", "503", "429", "404", "410"):
        status = int(mode)
        titles = {
            500: "Internal Server Error",
            503: "Service Unavailable",
            429: "Too Many Requests",
            404: "Not Found",
            410: "Gone",
        }
        resp = Response(status, small_page(titles[status], f"Demo fault {status}."))
        if status in (429, 503):
            resp.headers.append(("Retry-After", _retry_after(params, 2 if status == 429 else 3)))
        return resp
    if mode == "reset":
        return Response(reset=True)
    if mode == "redirect-loop":
        return Response(302, b"", headers=[("Location", "/fault/redirect-loop/b")])
    if mode == "huge":
        total = int(params.get("bytes", HUGE_BYTES))
        return Response(200, stream=_huge_stream(total), length=total)
    if mode == "wrong-charset":
        body, ctype = _wrong_charset_page(params.get("declared", "windows-1252"))
        return Response(200, body, content_type=ctype)
    if mode == "binary":
        body = GZIP_BYTES if params.get("kind") == "gzip" else PNG_BYTES
        return Response(200, body, content_type=HTML)
    raise ValueError(f"unknown fault mode {mode!r}; known: {', '.join(FAULT_MODES)}")
