"""Text the page hides from its readers: a block hidden by its attributes is not the article.

The HTML5 walk (:mod:`filters.html5`) asks :func:`hidden_reason` about every block whose attributes it reads
(the marked blocks: not the table cells, not ``<html>``/``<body>``/``<main>``/``<article>``) and records the reason in
``Blocks.hidden``; main-content detection (:mod:`filters.content`) then treats the block as a named region that
is not the article: its text counts against the main content and goes with the reason, unless the block holds
much of the page's text (a page that hides its whole body until a script shows it is not hiding its article).

What hides a block:

* the ``hidden`` attribute (not ``hidden="until-found"``: a closed panel that the browser's search opens);
* ``aria-hidden="true"``: the block is taken out of what assistive technology reads (a carousel's clones, a
  decorative copy of the headline);
* an inline ``display: none`` or ``visibility: hidden``;
* the class names ``hide`` and ``hidden`` (Bootstrap 3, Foundation, Tailwind's ``hidden``), unless another class
  shows the block from some screen width on (``hidden md:block``: the desktop's copy).

None of them when the block is a panel the reader opens (named an accordion's, a tab's, a collapsed section's, a
"read more"; ``role="tabpanel"``): hidden until a click, it is the article's text, and the wcxb gold keeps it.

Not hidden: ``sr-only``, ``visually-hidden``, ``screen-reader-text`` and the like.  Their text is off screen but
read aloud by screen readers, so it is part of what the page says, to some of its readers; it is nearly always a
label ("Opens in a new window", "Share on Facebook"), which the other filters judge (short, inside a link or a
button).  Removing them as hidden was measured on the tuning split and gave no gain (docs/benchmarks/filters.md).
``<template>`` and ``<noscript>`` are negative tags of the ``default`` profile (:mod:`filters.profiles`): their
text is removed by the tag filter, with the tag as the reason; a ``<noscript>`` copy of the article is a copy.
"""

from __future__ import annotations

import re

__all__ = ["HIDDEN_ATTRIBUTE", "HIDDEN_ARIA", "HIDDEN_CLASS", "HIDDEN_STYLE", "hidden_class", "hidden_reason"]

HIDDEN_ATTRIBUTE = "hidden (hidden attribute)"
HIDDEN_ARIA = "hidden (aria-hidden)"
HIDDEN_STYLE = "hidden (display: none or visibility: hidden)"
HIDDEN_CLASS = "hidden (class name)"

_STYLE = re.compile(r"(?:^|[;\s])(?:display\s*:\s*none|visibility\s*:\s*hidden)\b", re.IGNORECASE)
#: a class that shows the block again from some screen width on ("hidden md:block", "hide show-for-large")
_SHOWN_AT = re.compile(
    r"(?:^|\s)(?:(?:sm|md|lg|xl|2xl):(?:block|flex|grid|inline|inline-block|inline-flex|table|contents)"
    r"|show-for-\S+|d-(?:sm|md|lg|xl)-(?:block|flex|inline|inline-block|grid|table))(?=\s|$)",
    re.ASCII,
)
#: a panel the reader opens (an accordion's, a tab's, a collapsed section's): hidden until a click, and the article's
_REVEALABLE = re.compile(r"accordion|collaps|tab-?pane|tabpanel|tab-content|expand|read-?more|show-?more|toggle")
_CACHE: dict[str, str | None] = {}
_CACHE_MAX = 20_000


def hidden_class(classes: str) -> str | None:
    """HIDDEN_CLASS when the lower-cased ``classes`` (a ``class`` attribute) hide the block on every screen, else
    None.  Callers test ``"hid" in classes`` first (most classes have nothing to say)."""
    reason = _CACHE.get(classes, "")
    if reason != "":
        return reason
    tokens = classes.split()
    hides = ("hidden" in tokens or "hide" in tokens) and not _SHOWN_AT.search(classes)
    reason = HIDDEN_CLASS if hides and not _REVEALABLE.search(classes) else None
    if len(_CACHE) >= _CACHE_MAX:
        _CACHE.clear()
    _CACHE[classes] = reason
    return reason


def hidden_reason(attributes: dict[str, str | None]) -> str | None:
    """Why a block with these attributes (selectolax's ``Node.attributes``) is hidden from its readers, or None."""
    classes = attributes.get("class")
    classes = classes.lower() if classes else ""
    # selectolax gives a bare attribute's value as None; `"hidden" in` tells it from a missing one
    if "hidden" in attributes and (attributes["hidden"] or "").lower() != "until-found":
        reason: str | None = HIDDEN_ATTRIBUTE
    elif (attributes.get("aria-hidden") or "").strip().lower() == "true":
        reason = HIDDEN_ARIA
    elif (style := attributes.get("style")) and _STYLE.search(style):
        reason = HIDDEN_STYLE
    else:
        return hidden_class(classes) if "hid" in classes else None
    if _REVEALABLE.search(classes) or attributes.get("role") == "tabpanel":
        return None
    return reason
