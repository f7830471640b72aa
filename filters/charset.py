"""Turn the bytes of a fetched page into text.

The order follows what browsers do (WHATWG "encoding sniffing"), simplified:
byte-order mark, then the charset of the HTTP ``Content-Type`` header, then a
``<meta charset>`` / ``<meta http-equiv>`` declaration near the top of the
page, then strict UTF-8, and only then statistical detection with
charset_normalizer (already installed with requests).  A declared charset that
is unknown, or a declared UTF-8 that does not decode, is ignored rather than
trusted, so a wrong header never produces an exception.
"""

from __future__ import annotations

import codecs
import re

__all__ = ["decode_html", "charset_from_content_type", "looks_binary", "wide_codec"]

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),  # before UTF-16 LE: it starts with the same two bytes
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)

_HEADER_CHARSET = re.compile(r"""charset\s*=\s*["']?\s*([\w.:-]+)""", re.I)
_META_CHARSET = re.compile(rb"""<meta[^>]{0,512}?charset\s*=\s*["']?\s*([\w.:-]+)""", re.I)
_META_SCAN_BYTES = 32 * 1024
_DETECT_BYTES = 256 * 1024

# WHATWG: these labels mean windows-1252 on the web; decoding as the stricter
# codec would turn the 0x80-0x9F punctuation into control characters.
_WEB_ALIASES = {
    "iso-8859-1": "cp1252",
    "iso8859-1": "cp1252",
    "latin1": "cp1252",
    "latin-1": "cp1252",
    "l1": "cp1252",
    "us-ascii": "cp1252",
    "ascii": "cp1252",
    "x-user-defined": "cp1252",
    "gb2312": "gb18030",
    "gbk": "gb18030",
}

# Signatures of common binary formats that are sometimes served as text/html.
_MAGIC = (
    (b"%PDF-", "a PDF document"),
    (b"\x89PNG", "a PNG image"),
    (b"GIF8", "a GIF image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"PK\x03\x04", "a ZIP archive"),
    (b"\x1f\x8b", "gzip-compressed data"),
    (b"RIFF", "a RIFF (WebP/WAV/AVI) file"),
    (b"\x7fELF", "an ELF executable"),
    (b"OggS", "an Ogg media file"),
    (b"ID3", "an MP3 file"),
    (b"\x00\x00\x01\x00", "an icon file"),
    (b"wOFF", "a web font"),
    (b"wOF2", "a web font"),
)

#: control characters that do not occur in text (tab, newlines and form feed do)
_CONTROL_BYTES = bytes(b for b in range(32) if b not in (9, 10, 12, 13))


def control_bytes(data: bytes) -> int:
    """How many control bytes ``data`` holds (bytes.translate: far faster than a regex or a loop)."""
    return len(data) - len(data.translate(None, _CONTROL_BYTES))


def charset_from_content_type(content_type: str | None) -> str | None:
    """Return the ``charset=`` parameter of an HTTP Content-Type value, if any."""
    if not content_type:
        return None
    m = _HEADER_CHARSET.search(content_type)
    return m.group(1) if m else None


def looks_binary(data: bytes, declared: str | None = None) -> str | None:
    """Say what binary format ``data`` seems to be, or None when it may be text.

    A known magic number decides at once; otherwise a page whose first 8 KiB
    are more than 10 % control bytes (NUL and friends, not tab/newline) is not
    text in any charset a web page uses. UTF-16/32 pages are full of NUL bytes:
    they carry a BOM (decoded before this check) or ``declared`` (the HTTP
    header's charset) names them, and their decoded text is counted instead.
    """
    head = data[:8192]
    for magic, what in _MAGIC:
        if head.startswith(magic):
            return what
    wide = wide_codec(declared)
    if wide:
        head = head.decode(wide, "ignore").encode("utf-8")
    if head:
        controls = control_bytes(head)
        if controls > len(head) // 10:
            return f"binary data ({100 * controls // len(head)}% control bytes)"
    return None


def wide_codec(label: str | None) -> str | None:
    """The UTF-16/32 codec a charset label names, with WHATWG's little-endian default, else None.

    Only an HTTP header (or the charset stored from one) can declare these: a ``<meta>`` that could be
    read as ASCII was not written in UTF-16 (see :func:`_codec`).
    """
    if not label:
        return None
    try:
        name = codecs.lookup(label.strip().strip("\"'")).name
    except LookupError:
        return None
    if name in ("utf-16", "utf-32"):
        return name + "-le"
    return name if name.startswith(("utf-16", "utf-32")) else None


def _codec(label: str | None) -> str | None:
    """Normalise a charset label to a Python text codec name, or None when unknown or not a text encoding."""
    if not label:
        return None
    label = label.strip().strip("\"'").lower()
    label = _WEB_ALIASES.get(label, label)
    try:
        name = codecs.lookup(label).name
        b"a".decode(name, "replace")  # LookupError for codecs that are not text encodings (base64, rot13, ...)
    except LookupError:
        return None
    # A page cannot really be UTF-16 without a BOM when the declaration itself
    # was readable as ASCII; browsers treat such a declaration as UTF-8.
    if name.startswith(("utf-16", "utf-32")):
        return "utf-8"
    return _WEB_ALIASES.get(name, name)


def _try(data: bytes, codec: str, *, strict: bool) -> str | None:
    try:
        return data.decode(codec, "strict" if strict else "replace")
    except (UnicodeDecodeError, LookupError):
        return None


def decode_html(data: bytes, *, content_type: str | None = None, charset: str | None = None) -> tuple[str, str]:
    """Decode page bytes; return ``(text, codec name used)``.

    ``charset`` is an explicit charset (e.g. stored with the article);
    ``content_type`` is the raw HTTP header value, from which the charset
    parameter is taken.  Neither is trusted blindly: UTF-8 declarations are
    checked, unknown labels are skipped.
    """
    for bom, bom_codec in _BOMS:
        if data.startswith(bom):
            return data[len(bom) :].decode(bom_codec, "replace"), bom_codec

    declared = [charset, charset_from_content_type(content_type)]
    for label in declared:
        wide = wide_codec(label)
        if wide:
            return data.decode(wide, "replace"), wide
    m = _META_CHARSET.search(data, 0, _META_SCAN_BYTES)
    if m:
        declared.append(m.group(1).decode("ascii", "replace"))
    for label in declared:
        codec = _codec(label)
        if codec is None:
            continue
        if codec == "utf-8":
            text = _try(data, "utf-8", strict=True)
            if text is not None:
                return text, codec
            continue  # declared UTF-8 but is not: fall through to detection
        return data.decode(codec, "replace"), codec

    text = _try(data, "utf-8", strict=True)
    if text is not None:
        return text, "utf-8"
    codec = _detect(data)
    return data.decode(codec, "replace"), codec


def _detect(data: bytes) -> str:
    """Guess a charset with charset_normalizer on a bounded prefix (speed)."""
    try:
        from charset_normalizer import from_bytes
    except ImportError:  # pragma: no cover - requests always brings it
        return "cp1252"
    best = from_bytes(data[:_DETECT_BYTES]).best()
    codec = _codec(best.encoding) if best is not None else None
    return codec or "cp1252"
