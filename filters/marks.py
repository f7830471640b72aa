"""What a block's ``class``/``id``/``role`` words, or its tag, say it is: the reason a region of the page is not
the article (a comment section, related stories, sharing, advertising, navigation...), for main-content detection
(:mod:`filters.content`), which weighs a named region against the main content and removes its phrases.
"""

from __future__ import annotations

import re
from itertools import compress, repeat

__all__ = ["BUTTON_NOTE", "SOFT_TAGS", "marks_reason", "noise_reasons"]

#: class/id/role words that name a region of the page that is not the article, with the reason shown
_NOISE_MARKS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (reason, re.compile(pattern, re.MULTILINE))
    for reason, pattern in (
        ("comment section", r"^(comments?|commentlist|comment-list|disqus(_thread)?|replies|respond|discussion)$"),
        (
            "related-stories list",
            r"^(related|more-stories|morestories|recommended|recommendations|also-like|read-more|readmore|trending"
            r"|popular|most-read|mostread|outbrain|taboola|promo|teaser|more-from|related-posts|related-articles)$",
        ),
        ("share buttons", r"^(share|sharing|social|sharebar|share-buttons|social-share|follow-us|print|email-this)$"),
        (
            "author's bio",
            r"^(author|authors|author-bio|about-author|author-box|authorbox|author-info|author-profile|bio|author-details?|author-block|authorsblock|author-card|author-about)$",
        ),
        ("references", r"^(references|citations|sources|bibliography)$"),
        ("disclaimer", r"^(disclaimer|disclaimers)$"),
        ("dialog", r"^(modal|dialog|popup|republish|republication)$"),
        # a word ending in "caption" ("cnnStoryCaption", CNN 2005; "photocaption") names a caption too
        ("caption", r"^([a-z]*caption|wp-caption|credit|credits|image-credit|photo-credit)$"),
        # a contact, tip or newsletter form and its thank-you text (Contact Form 7, Gravity Forms, Mailchimp...)
        (
            "form",
            r"^(form|contact-form|contactform|wpcf7|gform|mc4wp|tipform|mktoform|hs-form|webform)$",
        ),
        ("advertising", r"^(ad|ads|advert|advertisement|advertising|sponsor|sponsored|banner-ad|dfp|google_ad)$"),
        (
            "page chrome",
            r"^(sidebar|side-bar|widget-area|footer|masthead|menu|nav|navbar|navigation|breadcrumb|breadcrumbs"
            r"|toolbar|subscribe|newsletter|signup|sign-up|login|cookie|cookies|skip-link|wm-ipp|tags|tag-list"
            r"|rail|complementary|contentinfo|banner|site-header|site-footer|copyright)$",
        ),
    )
)
#: class/id/role tokens that name a region only as a whole token, with the reason: "cap" alone is a caption (BBC
#: News 2005's <div class="cap">), as a part of a token a drop cap ("has-drop-cap", the first paragraph)
_TOKEN_MARKS: tuple[tuple[str, frozenset[str]], ...] = (("caption", frozenset({"cap"})),)
#: tags that hold chrome in HTML5 pages; judged by size, since an unclosed one can hold the article
_CHROME_TAGS = {
    "nav": "navigation",
    "aside": "aside",
    "footer": "page footer",
    "form": "form",
    "select": "form",
    "figcaption": "caption",
    "button": "button",
}
#: the reason a button's text is removed as chrome (an FAQ's question is put back: filters.faq)
BUTTON_NOTE = _CHROME_TAGS["button"]
#: the chrome tags that the HTML5 walk (filters.html5) leaves to main-content detection instead of the tag filter
SOFT_TAGS = frozenset(_CHROME_TAGS)
#: their class names describe the page ("single-post elementor_header_footer"), not a region
_NEVER_NOISE = frozenset(("html", "body", "main", "article"))

#: class tokens that hide an element on large screens ("elementor-hidden-desktop", "md:hidden"): a copy of
#: the page's text for small screens (a plain "hidden" is often an accordion's closed panel: not this)
_HIDDEN_ON_DESKTOP = re.compile(
    r"(?:^|\s)(?:\S*hidden-(?:desktop|lg|xl)|hide-(?:on-)?desktop|(?:md|lg|xl):hidden)(?=\s|$)", re.ASCII
)


_MARK_SPLIT = re.compile(r"[\s_-]+")
#: a class/id token of six words or more joined by single hyphens is a slug of a heading ("menu-innovation-
#: strategies-building-memorable-dining-experiences", an anchor for the table of contents), not the name of a
#: region (which is shorter, or a BEM name: "modern-footnotes-list--hide-for-print", "menu-item-type-post_type")
_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+){5,}$")


def _mark_parts(marks: str) -> str:
    """The first and last part of each class/id/role token, one per line: what a region's name says.

    "comments-area", "sidebar", "jeg_related_posts" name a region; "elementor-widget-container" or
    "has-sidebar" in the middle or as a modifier do not (page builders put "widget" on everything).
    """
    parts = []
    for token in marks.split():
        pieces = [p for p in _MARK_SPLIT.split(token) if p]
        if pieces and not (len(pieces) > 5 and _SLUG.match(token)):
            parts.append(pieces[0])
            if len(pieces) > 1:
                parts.append(pieces[-1])
            if len(pieces) > 2:  # "related-posts-list": the first two words name it
                parts.append(pieces[0] + "-" + pieces[1])
    return "\n".join(parts)


#: reason named by each class/id/role string seen (pages of a site repeat theirs); bounded
_REASON_CACHE: dict[str, str | None] = {"": None}  # no marks, most blocks: no reason (noise_reasons skips them)
_REASON_CACHE_MAX = 50_000


def marks_reason(marks: str) -> str | None:
    """The reason a class/id/role string names its element noise ("comment section", ...), or None."""
    reason = _REASON_CACHE.get(marks, "")
    if reason != "":
        return reason
    parts = _mark_parts(marks)
    reason = next((name for name, pattern in _NOISE_MARKS if pattern.search(parts)), None)
    if reason is None:  # a substring first: most marks hold none of the words, and split() costs more
        reason = next(
            (n for n, words in _TOKEN_MARKS if any(w in marks for w in words) and not words.isdisjoint(marks.split())),
            None,
        )
    if reason is None and _HIDDEN_ON_DESKTOP.search(marks):
        reason = "hidden on large screens"
    if len(_REASON_CACHE) >= _REASON_CACHE_MAX:
        _REASON_CACHE.clear()
        _REASON_CACHE[""] = None
    _REASON_CACHE[marks] = reason
    return reason


def noise_reasons(tags: list[str], marks: list[str]) -> list[str | None]:
    """For each block element (its tag, its class/id/role marks), the reason they name it noise, or None."""
    own = list(map(_CHROME_TAGS.get, tags))
    # marks_reason's cache read for every block in C (True: not cached): only the blocks whose marks name a reason
    # or are not cached yet are looked at (a call per block was most of the cost; most marks, "" most, name none)
    cached = map(_REASON_CACHE.get, marks, repeat(True))
    for i in compress(range(len(tags)), cached):
        if own[i] is None and tags[i] not in _NEVER_NOISE:
            reason = _REASON_CACHE.get(marks[i], "")  # as the map read it: a reason, or not cached ("")
            own[i] = marks_reason(marks[i]) if reason == "" else reason
    return own
