"""Filter profiles: the per-site settings of the noise filters.

A profile is plain data (numbers, lists, dicts) so that the Django model can
store it as JSON and rebuild it with :meth:`Profile.from_dict`.

Three built-in profiles:

``thesis``
    The faithful configuration of the thesis: fixed phrase-length threshold 20,
    phrases are raw text runs between tags, negative tags ``a select option
    style script`` and comments, positive tags ``title meta p h1..h6``, and a
    positive tag keeps a phrase whatever other filter would remove it.

``default``
    The improved configuration, same four filters in the same order (Fig. 4).
    Differences, each measured in docs/benchmarks/filters.md:
    phrases are text runs inside one *block* element (inline tags such as
    ``<a>``/``<b>`` no longer cut a sentence into pieces, which is what made the
    length filter drop the pieces); a link run is removed by *link density*
    (share of characters inside ``<a>``) instead of by the mere presence of
    ``<a>``; HTML5 chrome tags (nav, footer, aside, ...) are negative;
    ``<title>``/``<meta>`` are not phrases of the text (``Extraction.title``
    keeps the title); positive tags rescue from the length filter only; site
    learning picks the sample pages by template, keeps a phrase found in 60 %
    of the other sample pages and learns the threshold.

``wpnc``
    Bhamare & Pawar's web page noise cleaning (``method="wpnc"``, filters.wpnc):
    the text density of each container tag (characters / tags holding text,
    over its subtree) against a threshold Tr; a phrase is kept when the
    container around it is above it (white list), removed otherwise (black
    list); script, style, marquee... are removed first.  No length filter, no
    positive tags.  Tr = 20, chosen on the tuning split (docs/benchmarks/wpnc.md).
"""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field, fields
from typing import Any

__all__ = ["Profile", "get_profile", "BUILTIN_PROFILES", "FILTER_ORDER", "METHODS", "WPNC_DEFAULTS"]

#: The filters in the thesis's processing order (Fig. 4); the names are what
#: ``Phrase.removed_by`` holds.
FILTER_ORDER = ("length", "tag", "redundancy")

#: the stages that can decide a page's phrases (``Profile.method``)
METHODS = ("filters", "wpnc")

#: Bhamare & Pawar's container ("main content") tags: the paper's body, div, table, tr, td, ul, form and,
#: for its "etc.", their siblings (tbody, th, ol, dl, fieldset, frameset) and HTML5's sectioning elements,
#: which modern pages use as their layout divs.  Every other tag is a designer tag (a, img, font, span, p,
#: li, h1...): it counts in the density of the container around it and is decided with it.
WPNC_CONTAINERS = [
    "body", "div", "table", "thead", "tbody", "tfoot", "tr", "td", "th", "ul", "ol", "dl", "form", "fieldset",
    "frameset", "frame", "center", "section", "article", "main", "header", "footer", "nav", "aside",
]  # fmt: skip
#: the paper's "invalid tags" (section 4.2.1: script, style, marquee, meta, anchor "etc."), removed in
#: preprocessing with their text; the "etc." read as the other tags whose text is not page text
WPNC_INVALID = [
    "script", "style", "marquee", "meta", "anchor", "noscript", "noframes", "template", "object", "embed", "iframe",
    "svg", "#comment",
]  # fmt: skip
#: settings of the wpnc method (``Profile.wpnc`` overrides them): ``threshold`` is the paper's Tr,
#: ``density`` which density it is compared with ("text": TD = characters / tags; "composite": CETD's
#: composite text density, which weighs link characters and link tags), ``container_tags`` the container tags
WPNC_DEFAULTS: dict[str, Any] = {"threshold": 20, "density": "text", "container_tags": WPNC_CONTAINERS}

THESIS_NEGATIVE = ("a", "select", "option", "style", "script", "#comment")
THESIS_POSITIVE = ("title", "meta", "p", "h1", "h2", "h3", "h4", "h5", "h6")


@dataclass
class Profile:
    """Settings of the noise filters for one site (or a built-in default)."""

    name: str = "default"
    #: phrase-length filter: phrases shorter than this many characters are removed
    min_length: int = 20
    #: tag filter: phrases inside these tags are removed ("#comment" = HTML comments)
    negative_tags: list[str] = field(default_factory=lambda: list(THESIS_NEGATIVE))
    #: tag filter: phrases inside these tags are kept (see ``rescue_from``)
    positive_tags: list[str] = field(default_factory=lambda: list(THESIS_POSITIVE))
    #: which filters a positive tag overrides
    rescue_from: list[str] = field(default_factory=lambda: list(FILTER_ORDER))
    #: False: a phrase is every text run between two tags (thesis).
    #: True: inline tags do not cut phrases; a phrase is the text of a block.
    block_phrases: bool = False
    #: with block phrases, remove a phrase whose share of characters inside
    #: ``<a>`` exceeds this (None: any text inside ``<a>`` is negative, thesis)
    max_link_density: float | None = None
    #: take <title> and <meta name=description|keywords> as phrases
    head_phrases: bool = True
    #: redundant-phrase filter: the site's filtering phrases (exact, whitespace-normalised text)
    filtering_phrases: list[str] = field(default_factory=list)
    #: redundant-word filter: word -> how many occurrences to remove
    filtering_words: dict[str, int] = field(default_factory=dict)
    #: name of the stop-word list (filters.stopwords.LISTS)
    stop_words: str = "en"
    #: the site name around every page title (" | Site", "Site :: "), learned; stripped from
    #: ``Extraction.title`` so that titles shown to experts and in feeds carry the article only
    title_prefix: str = ""
    title_suffix: str = ""
    #: "libxml2": lxml's HTML 4 parser, as the thesis's tools; "html5": read as a browser reads the page (lexbor)
    parser: str = "libxml2"
    #: find the main content and decide each phrase in its context (filters.content; html5 parser only)
    main_content: bool = False
    #: which stage decides the phrases: "filters" (the thesis's filters, in the main content's context where
    #: ``main_content`` is set) or "wpnc" (Bhamare & Pawar's text-density white/black list, filters.wpnc)
    method: str = "filters"
    #: settings of the "wpnc" method, over WPNC_DEFAULTS (threshold, density, container_tags)
    wpnc: dict[str, Any] = field(default_factory=dict)
    #: the site's style tree (filters.sst, learned): its noisy nodes, content-redundant phrases and low word
    #: weights; empty: none (left out of ``to_dict`` then, so profiles without one serialise as before)
    style_tree: dict[str, Any] = field(default_factory=dict)
    #: the site's usual main content (learned, filters.content): ``"path"``, the slot path from the top of the
    #: block tree (each block's ``filters.sst.block_key`` with ``#k`` for the k-th sibling of the same key) of
    #: the block that main-content detection chose on most of the sample pages; ``"noise"``, the slot paths,
    #: relative to it, of the blocks it removed there on most of the sample pages; ``"share"``, the share of
    #: the sample pages on which it was chosen; empty: none (left out of ``to_dict`` then)
    main_region: dict[str, Any] = field(default_factory=dict)
    #: settings of site learning (see filters.learning.learn_profile)
    learning: dict[str, Any] = field(default_factory=dict)
    #: where the profile came from: base profile name, learned threshold details, sample pages
    provenance: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-serialisable data."""
        data = asdict(self)
        if not data["style_tree"]:
            del data["style_tree"]
        if not data["main_region"]:
            del data["main_region"]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Profile:
        """Rebuild a profile; unknown keys are an error so typos do not pass silently."""
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown profile field(s): {', '.join(sorted(unknown))}")
        profile = cls(**copy.deepcopy(dict(data)))
        profile.validate()
        return profile

    def copy(self, **changes: Any) -> Profile:
        data = self.to_dict()
        data.update(changes)
        return Profile.from_dict(data)

    def wpnc_settings(self) -> dict[str, Any]:
        """The wpnc method's settings: WPNC_DEFAULTS with the profile's own over them."""
        return {**WPNC_DEFAULTS, **self.wpnc}

    def validate(self) -> None:
        if not isinstance(self.min_length, int) or self.min_length < 0:
            raise ValueError(f"min_length must be a non-negative integer, not {self.min_length!r}")
        bad = set(self.rescue_from) - set(FILTER_ORDER)
        if bad:
            raise ValueError(f"rescue_from names unknown filters: {sorted(bad)}")
        if self.max_link_density is not None and not 0 <= self.max_link_density <= 1:
            raise ValueError("max_link_density must be between 0 and 1")
        if self.parser not in ("libxml2", "html5"):
            raise ValueError(f"parser must be 'libxml2' or 'html5', not {self.parser!r}")
        if self.main_content and self.parser != "html5":
            raise ValueError("main-content detection needs the html5 parser")
        if self.method not in METHODS:
            raise ValueError(f"method must be one of {', '.join(METHODS)}, not {self.method!r}")
        if self.method == "wpnc" and (self.parser != "html5" or self.main_content):
            raise ValueError("the wpnc method needs the html5 parser and no main-content detection")
        unknown = set(self.wpnc) - set(WPNC_DEFAULTS)
        if unknown:
            raise ValueError(f"unknown wpnc setting(s): {', '.join(sorted(unknown))}")
        wpnc = self.wpnc_settings()
        tr = wpnc["threshold"]
        if isinstance(tr, bool) or not isinstance(tr, (int, float)) or tr < 0:
            raise ValueError(f"wpnc threshold must be a non-negative number, not {tr!r}")
        if wpnc["density"] not in ("text", "composite"):
            raise ValueError(f"wpnc density must be 'text' or 'composite', not {wpnc['density']!r}")
        if not isinstance(wpnc["container_tags"], list) or not all(isinstance(t, str) for t in wpnc["container_tags"]):
            raise ValueError("wpnc container_tags must be a list of tag names")
        if not isinstance(self.style_tree, dict):
            raise ValueError("style_tree must be a dict (filters.sst)")
        if self.style_tree and (self.parser != "html5" or self.method != "filters"):
            raise ValueError("a style tree needs the html5 parser and the filters method")
        _validate_main_region(self.main_region)
        if self.main_region and not self.main_content:
            raise ValueError("a site's usual main content needs main-content detection")
        if any(not isinstance(v, int) or v < 1 for v in self.filtering_words.values()):
            raise ValueError("filtering_words counts must be positive integers")


def _is_path(value: Any) -> bool:
    """A slot path (filters.site_region.SlotPaths): a non-empty list of non-empty block keys."""
    return isinstance(value, list) and bool(value) and all(isinstance(key, str) and key for key in value)


def _validate_main_region(region: Any) -> None:
    """A learned ``main_region``: {} or {"path": [keys], "noise": [[keys], ...], "share": number}."""
    if not isinstance(region, dict):
        raise ValueError("main_region must be a dict (filters.content)")
    if not region:
        return
    unknown = set(region) - {"path", "noise", "share"}
    if unknown:
        raise ValueError(f"unknown main_region key(s): {', '.join(sorted(unknown))}")
    if not _is_path(region.get("path")):
        raise ValueError("main_region path must be a non-empty list of block keys (filters.site_region.SlotPaths)")
    noise = region.get("noise", [])
    if not isinstance(noise, list) or not all(_is_path(p) for p in noise):
        raise ValueError("main_region noise must be a list of non-empty lists of block keys")
    share = region.get("share", 1.0)
    if isinstance(share, bool) or not isinstance(share, (int, float)) or not 0 <= share <= 1:
        raise ValueError(f"main_region share must be a number between 0 and 1, not {share!r}")


# Not "form": old ASP.NET pages wrap the whole page in one <form> (measured:
# recall on crawl-to-the-future fell from 0.956 to 0.918 with it).
_DEFAULT_NEGATIVE = [
    "a", "select", "option", "style", "script", "#comment",
    "noscript", "noframes", "template", "nav", "footer", "aside", "button", "iframe", "svg",
]  # fmt: skip

BUILTIN_PROFILES: dict[str, dict[str, Any]] = {
    "thesis": Profile(
        name="thesis",
        min_length=20,
        learning={"auto_sample": False, "sample_size": 5, "min_share": 1.0, "learn_threshold": False},
    ).to_dict(),
    "default": Profile(
        name="default",
        min_length=20,
        negative_tags=_DEFAULT_NEGATIVE,
        positive_tags=list(THESIS_POSITIVE),
        rescue_from=["length"],
        block_phrases=True,
        max_link_density=0.5,
        # the title and meta description are not part of the article's text;
        # Extraction.title still carries the title
        head_phrases=False,
        parser="html5",
        main_content=True,
        learning={"auto_sample": True, "sample_size": 8, "min_share": 0.6, "learn_threshold": True},
    ).to_dict(),
    "wpnc": Profile(
        name="wpnc",
        # no phrase-length filter, no positive tags: the text density of the container decides
        min_length=0,
        negative_tags=list(WPNC_INVALID),
        positive_tags=[],
        rescue_from=[],
        block_phrases=True,
        head_phrases=False,  # the paper extracts <body> only
        parser="html5",
        method="wpnc",
        wpnc={"threshold": 20, "density": "text"},
        learning={"auto_sample": True, "sample_size": 8, "min_share": 0.6, "learn_threshold": False},
    ).to_dict(),
}


_BUILTIN_CACHE: dict[str, Profile] = {}


def get_profile(profile: Profile | str | dict[str, Any] | None) -> Profile:
    """Resolve ``None`` / a built-in name / a dict / a Profile to a Profile.

    Built-in profiles are shared instances: call ``.copy()`` before changing one.
    """
    if profile is None:
        profile = "default"
    if isinstance(profile, Profile):
        return profile
    if isinstance(profile, str):
        try:
            cached = _BUILTIN_CACHE.get(profile)
            if cached is None:
                cached = _BUILTIN_CACHE[profile] = Profile.from_dict(BUILTIN_PROFILES[profile])
            return cached
        except KeyError:
            raise ValueError(f"unknown filter profile {profile!r}; built-in: {', '.join(BUILTIN_PROFILES)}") from None
    if isinstance(profile, dict):
        return Profile.from_dict(profile)
    raise TypeError(f"profile must be a Profile, a built-in name or a dict, not {type(profile).__name__}")
