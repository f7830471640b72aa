"""Site learning: filtering phrases, filtering words and the length threshold of a site.

The thesis's method, on a sample of pages of one site:

* **redundant phrases** - start from the sample page with the fewest phrases
  and keep each of its phrases that occurs in the other sample pages;
* **redundant words** - start from the page with the fewest words and keep each
  word with its minimum count over the sample (a multiset intersection).

The thesis chose the sample by hand and fixed the length threshold at 20; it
named choosing the sample automatically and learning the threshold per site as
future work.  Both are here (``auto_sample`` / ``learn_threshold`` in the
profile's ``learning`` settings); the ``thesis`` profile keeps them off, so
learning from it uses the pages in the order given and the fixed threshold.

Automatic sample choice: portals use several page templates, and a phrase is
only redundant *within* a template.  Pages are clustered by template
(similarity = mean of the Jaccard similarity of their tag-path sets and of
their phrase sets, average linkage); the redundant phrases and words of each
cluster are learned from its most central pages and united.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeAlias, TypeVar

from . import sst
from .pipeline import ExtractionError, Phrase, decide, read_page, segment_page, tokenize
from .profiles import Profile, get_profile
from .site_region import SlotPaths, relative_key
from .stopwords import get_stop_words
from .titles import SECTION, TITLE_SEP, normal_affix

__all__ = [
    "PageSample",
    "analyse_page",
    "learn_profile",
    "redundant_phrases",
    "redundant_words",
    "cluster_pages",
    "learn_threshold",
    "main_region",
    "refilter",
    "title_affixes",
]

#: learning settings used when a profile's ``learning`` dict leaves one out
LEARNING_DEFAULTS: dict[str, Any] = {
    "auto_sample": True,
    "sample_size": 8,
    "min_share": 1.0,
    "learn_threshold": True,
    "cluster_cut": 0.35,
    "threshold_range": [8, 60],
    "max_pages": 200,
    "title_affixes": True,
    "title_affix_share": 0.6,
    # HTML5 profiles: learn the site style tree (filters.sst) instead of the redundant words
    "style_tree": True,
    # its noise threshold (None: filters.sst.THRESHOLD)
    "style_threshold": None,
    # with the style tree, the redundant phrases too: the style tree finds template blocks by their place, the
    # redundant phrases find a line the site repeats wherever its place shifts (labels, notes in the story)
    "style_tree_phrases": True,
    # main-content profiles: learn the site's usual main content (the block main-content detection chose on
    # at least this share of the sample pages; filters.content), None: not learned
    "main_region_share": 0.6,
}


@dataclass
class PageSample:
    """One page cut into phrases with a base profile, ready for learning."""

    url: str | None
    phrases: list[Phrase]
    title: str = ""
    texts: frozenset[str] = field(default_factory=frozenset)
    paths: frozenset[str] = field(default_factory=frozenset)
    #: the page's block tree (HTML5 profiles; see filters.html5), None for libxml2 profiles
    blocks: Any = None

    def __post_init__(self) -> None:
        if not self.texts:
            self.texts = frozenset(p.text for p in self.phrases)
        if not self.paths:
            self.paths = frozenset(p.path for p in self.phrases)


#: what learn_profile takes as a page: HTML text or bytes, a ``(url, html)`` pair or a PageSample
PageInput: TypeAlias = PageSample | tuple[str | None, str | bytes] | str | bytes

#: a phrase as redundant_phrases compares it: its text, or (text, tag path)
_Item = TypeVar("_Item", bound=Hashable)


def analyse_page(html: str | bytes, *, url: str | None = None, profile: Profile | str | None = "default") -> PageSample:
    """Parse a page into phrases with the base profile's length and tag filters (no redundancy)."""
    prof = get_profile(profile)
    phrases, title, blocks = segment_page(read_page(html), prof)
    return PageSample(url, phrases, title, blocks=blocks)


# --------------------------------------------------------------------------- the thesis's two sets


def _needed(share: float, others: int) -> int:
    """How many of the other sample pages must contain an item (share 1.0 = all of them)."""
    return max(1, math.ceil(share * others - 1e-9)) if others else 0


def redundant_phrases(pages: Sequence[Iterable[_Item]], min_share: float = 1.0) -> list[_Item]:
    """Phrases of the page with the fewest phrases that occur in the other pages.

    ``pages``: the phrase texts of each sample page.  With ``min_share`` < 1 a
    phrase needs to occur in only that share of the other pages.
    """
    sets = [set(p) for p in pages]
    if len(sets) < 2:
        return []
    seed_i = min(range(len(sets)), key=lambda i: len(sets[i]))
    others = [s for i, s in enumerate(sets) if i != seed_i]
    need = _needed(min_share, len(others))
    seen = set()
    out = []
    for text in pages[seed_i]:  # keep the seed page's order (document order)
        if text in seen:
            continue
        seen.add(text)
        if sum(1 for s in others if text in s) >= need:
            out.append(text)
    return out


def redundant_words(pages: Sequence[Iterable[str]], min_share: float = 1.0) -> dict[str, int]:
    """Multiset intersection of the pages' words, starting from the page with the fewest words.

    ``[[a,a,b,b,c,f,f], [a,b,c,e,f,f], [a,c,g,f,f]]`` gives ``{a: 1, c: 1, f: 2}``.
    With ``min_share`` < 1 a word's count is the largest count reached by at
    least that share of the other pages.
    """
    counters = [Counter(p) for p in pages]
    if len(counters) < 2:
        return {}
    seed_i = min(range(len(counters)), key=lambda i: sum(counters[i].values()))
    others = [c for i, c in enumerate(counters) if i != seed_i]
    need = _needed(min_share, len(others))
    out = {}
    for word, seed_count in counters[seed_i].items():
        counts = sorted((c[word] for c in others), reverse=True)
        count = min(seed_count, counts[need - 1])
        if count > 0:
            out[word] = count
    return out


# --------------------------------------------------------------------------- sample choice


def _jaccard(x: frozenset[str], y: frozenset[str]) -> float:
    if not x and not y:
        return 1.0
    inter = len(x & y)
    return inter / (len(x) + len(y) - inter)


def _similarity(p: PageSample, q: PageSample) -> float:
    return 0.5 * _jaccard(p.paths, q.paths) + 0.5 * _jaccard(p.texts, q.texts)


def cluster_pages(samples: Sequence[PageSample], cut: float = 0.35) -> list[list[int]]:
    """Group pages that share a template; clusters of indexes, largest first, most central page first.

    Average-linkage agglomerative clustering stopped when the best pair of
    clusters is less similar than ``cut``.  O(n^3) in the worst case: callers
    bound n (``max_pages``).
    """
    n = len(samples)
    sim = [[0.0] * n for _ in range(n)]
    for i in range(n):
        sim[i][i] = 1.0
        for j in range(i + 1, n):
            sim[i][j] = sim[j][i] = _similarity(samples[i], samples[j])
    clusters = [[i] for i in range(n)]
    pair: tuple[int, int] | None
    while len(clusters) > 1:
        best, pair = -1.0, None
        for x in range(len(clusters)):
            cx = clusters[x]
            for y in range(x + 1, len(clusters)):
                cy = clusters[y]
                s = sum(sim[i][j] for i in cx for j in cy) / (len(cx) * len(cy))
                if s > best:
                    best, pair = s, (x, y)
        if best < cut:
            break
        # with two clusters or more some pair was compared, and any similarity (>= 0) beats -1.0
        assert pair is not None
        x, y = pair
        clusters[x] = clusters[x] + clusters[y]
        del clusters[y]

    def centrality(i: int, members: list[int]) -> float:
        return sum(sim[i][j] for j in members) / len(members)

    ordered = [sorted(c, key=lambda i: (-centrality(i, c), i)) for c in clusters]
    ordered.sort(key=lambda c: (-len(c), c[0]))
    return ordered


# --------------------------------------------------------------------------- threshold


def learn_threshold(noise_lengths: Sequence[int], other_lengths: Sequence[int], lo: int, hi: int) -> int | None:
    """Length threshold separating a site's redundant phrases from its other phrases.

    Redundant phrases (found on every page of a template) are known noise;
    the threshold is the t in [lo, hi] that maximises Youden's J = (share of
    noise phrases shorter than t) - (share of other phrases shorter than t).
    None when there is too little evidence (fewer than 5 phrases on a side).
    """
    if len(noise_lengths) < 5 or len(other_lengths) < 5:
        return None
    noise = sorted(noise_lengths)
    other = sorted(other_lengths)
    best_t, best_j = None, -2.0
    i = k = 0
    for t in range(lo, hi + 1):
        while i < len(noise) and noise[i] < t:
            i += 1
        while k < len(other) and other[k] < t:
            k += 1
        j = i / len(noise) - k / len(other)
        if j > best_j:
            best_t, best_j = t, j
    return best_t


# --------------------------------------------------------------------------- title prefix / suffix

#: the longest section name a title affix may hold ("Technology", "Health & fitness")
_SECTION_CHARS = 30


def title_affixes(titles: Sequence[str], min_share: float = 0.6) -> tuple[str, str]:
    """The site's title prefix and suffix: ``("The Clinic Courier :: ", " | Health Watch Daily")``.

    A candidate affix is the text before (prefix) or after (suffix) a separator of a title, separator
    included, compared once its separators and case are made alike (" - BBC News" and " | BBC NEWS" are one
    affix); the longest candidate found on at least ``min_share`` of the titles (and on two at least) wins.
    A short segment between two separators next to the affix that varies from title to title is the site's
    section ("BBC NEWS | Technology | …", "BBC NEWS | Health | …"): the affix then holds it as ``SECTION``.
    An affix never covers a whole title, so a page titled only with the site's name is left alone.
    """
    titles = [t for t in titles if t]
    need = max(2, math.ceil(min_share * len(titles) - 1e-9))
    if len(titles) < need:
        return "", ""
    prefixes: dict[str, _Seen] = {}
    suffixes: dict[str, _Seen] = {}
    for t in titles:
        cuts = [m for m in TITLE_SEP.finditer(t) if m.start() > 0 and m.end() < len(t)]
        for i, m in enumerate(cuts):
            _seen(prefixes, t[: m.end()], t)
            _seen(suffixes, t[m.start() :], t)
            if i + 1 < len(cuts) and len(t[m.end() : cuts[i + 1].start()]) <= _SECTION_CHARS:
                section = t[m.end() : cuts[i + 1].start()]
                _seen(prefixes, t[: m.end()] + SECTION + cuts[i + 1].group(), t, section)
            if i > 0 and len(t[cuts[i - 1].end() : m.start()]) <= _SECTION_CHARS:
                section = t[cuts[i - 1].end() : m.start()]
                _seen(suffixes, cuts[i - 1].group() + SECTION + t[m.start() :], t, section)

    def best(seen: dict[str, _Seen]) -> str:
        found = [a for a in seen.values() if len(a.titles) >= need and (SECTION not in a.raw or len(a.sections) > 1)]
        return max(found, key=lambda a: (len(a.raw), a.raw)).raw if found else ""

    return best(prefixes), best(suffixes)


@dataclass
class _Seen:
    raw: str  # the first form seen (stripping compares normal forms, so any form serves)
    titles: set[str] = field(default_factory=set)
    sections: set[str] = field(default_factory=set)


def _seen(seen: dict[str, _Seen], affix: str, title: str, section: str | None = None) -> None:
    entry = seen.setdefault(normal_affix(affix), _Seen(affix))
    entry.titles.add(title)
    if section is not None:
        entry.sections.add(normal_affix(section))


# --------------------------------------------------------------------------- learning


def _as_sample(page: PageInput, base: Profile) -> PageSample:
    if isinstance(page, PageSample):
        return page
    if isinstance(page, tuple) and len(page) == 2:
        url, html = page
        return analyse_page(html, url=url, profile=base)
    return analyse_page(page, profile=base)


def _core_tokens(
    sample: PageSample, profile: Profile, redundant: frozenset[str], stop_words: frozenset[str]
) -> list[str]:
    phrases = [p.fresh() for p in sample.phrases]
    decide(phrases, profile, sample.blocks, sample.title, redundant)
    return tokenize("\n".join(p.text for p in phrases if p.removed_by is None), stop_words)


def learn_profile(
    pages: Iterable[PageInput],
    *,
    base: Profile | str | None = "default",
    name: str | None = None,
    **settings: Any,
) -> Profile:
    """Learn a site profile from pages of one site.

    ``pages``: HTML strings/bytes, ``(url, html)`` pairs or :class:`PageSample`
    objects.  ``base``: the profile whose filters and learning settings are
    used (``"thesis"`` for the faithful method).  Keyword ``settings`` override
    the base's ``learning`` dict: ``auto_sample``, ``sample_size``,
    ``min_share``, ``learn_threshold``, ``cluster_cut``, ``threshold_range``,
    ``style_tree``, ``style_threshold``, ``style_tree_phrases`` (see
    :data:`LEARNING_DEFAULTS`).  Pages that are not HTML are skipped (listed in ``provenance["skipped"]``).
    """
    base_prof = get_profile(base)
    unknown = set(settings) - set(LEARNING_DEFAULTS)
    if unknown:
        raise ValueError(f"unknown learning setting(s): {', '.join(sorted(unknown))}")
    cfg = {**LEARNING_DEFAULTS, **base_prof.learning, **settings}
    # learning starts from the base filters without any earlier site knowledge
    plain = base_prof.copy(filtering_phrases=[], filtering_words={})
    samples, skipped = _read_samples(pages, plain, cfg["max_pages"])
    clusters, groups = _sample_groups(samples, cfg)

    # Only phrases that would otherwise stay core are worth storing.
    filters_only = plain.copy()
    for s in samples:
        decide(s.phrases, filters_only, s.blocks, s.title, frozenset())

    region, region_info = main_region(samples, cfg["main_region_share"]) if plain.main_content else ({}, {})
    phrases = _group_phrases(groups, cfg["min_share"])
    redundant = frozenset(phrases)
    threshold, threshold_info = _threshold(groups, redundant, plain, cfg)
    learned_prof = plain.copy(min_length=threshold)
    stop_words = get_stop_words(plain.stop_words)
    style_tree = _style_tree(samples, plain, cfg, stop_words)
    if style_tree and not cfg["style_tree_phrases"]:
        phrases = []
    # the site style tree replaces the redundant words
    words = {} if style_tree else _group_words(groups, learned_prof, redundant, stop_words, cfg["min_share"])

    prefix, suffix = ("", "")
    if cfg["title_affixes"]:
        prefix, suffix = title_affixes([s.title for s in samples], cfg["title_affix_share"])

    used = [s.url for s in samples] if style_tree else [s.url for g in groups for s in g]
    return plain.copy(
        name=name or f"{base_prof.name}+learned",
        min_length=threshold,
        title_prefix=prefix,
        title_suffix=suffix,
        filtering_phrases=phrases,
        filtering_words=dict(sorted(words.items())),
        style_tree=style_tree,
        main_region=region,
        provenance={
            "base": base_prof.name,
            "learned_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "learned_from": used,
            "sample_size": len(used),
            "pages_seen": len(samples),
            "clusters": [len(c) for c in clusters],
            "threshold": threshold_info,
            "main_region": region_info,
            "settings": cfg,
            "skipped": skipped,
        },
    )


def _read_samples(
    pages: Iterable[PageInput], plain: Profile, max_pages: int
) -> tuple[list[PageSample], list[dict[str, Any]]]:
    """The sample pages with phrases (up to ``max_pages``), and the pages skipped as not HTML (their URL and
    why); fewer than two readable pages is an error."""
    samples: list[PageSample] = []
    skipped = []
    for page in pages:
        try:
            s = _as_sample(page, plain)
        except ExtractionError as exc:
            skipped.append({"url": page[0] if isinstance(page, tuple) else None, "error": str(exc)})
            continue
        if s.phrases:
            samples.append(s)
        if len(samples) >= max_pages:
            break
    if len(samples) < 2:
        raise ValueError(f"site learning needs at least 2 readable pages, got {len(samples)}")
    return samples, skipped


def _sample_groups(samples: list[PageSample], cfg: dict[str, Any]) -> tuple[list[list[int]], list[list[PageSample]]]:
    """The clusters of the sample pages (by template, with ``auto_sample``; else one) and the pages each learns
    from (its first ``sample_size``)."""
    size = max(2, int(cfg["sample_size"]))
    if cfg["auto_sample"]:
        clusters = cluster_pages(samples, cfg["cluster_cut"])
        groups = [[samples[i] for i in c[:size]] for c in clusters if len(c) >= 2]
        if not groups:  # every page its own template: fall back to the most similar ones
            groups = [samples[:size]]
    else:
        clusters = [list(range(len(samples)))]
        groups = [samples[:size]]
    return clusters, groups


def _group_phrases(groups: list[list[PageSample]], min_share: float) -> list[str]:
    """The redundant phrases of each group of sample pages, united in order."""
    phrases: list[str] = []
    seen = set()
    for group in groups:
        # A phrase is template text where it sits at the same place (tag path) of the other pages: a
        # story's headline (<h1>) is not redundant because other stories list it among their links.
        candidates = [[(p.text, p.path) for p in s.phrases if p.removed_by is None] for s in group]
        # the other pages are searched in *all* their phrases: a phrase cut by
        # the length filter on one page still shows it is template text
        texts = [[(p.text, p.path) for p in s.phrases] for s in group]
        seed_i = min(range(len(group)), key=lambda i: len(group[i].texts))
        texts[seed_i] = candidates[seed_i]
        for t, _path in redundant_phrases(texts, min_share):
            if t not in seen:
                seen.add(t)
                phrases.append(t)
    return phrases


def _threshold(
    groups: list[list[PageSample]], redundant: frozenset[str], plain: Profile, cfg: dict[str, Any]
) -> tuple[int, dict[str, Any]]:
    """The phrase-length threshold (learned from the lengths of the redundant phrases and of the others, with
    ``learn_threshold``; else the base profile's) and what was seen."""
    threshold = plain.min_length
    threshold_info: dict[str, Any] = {"fixed": plain.min_length, "learned": None}
    if cfg["learn_threshold"]:
        noise: list[int] = []
        other: list[int] = []
        max_ld = plain.max_link_density or 0.999
        for group in groups:
            for s in group:
                for p in s.phrases:
                    if p.neg or (p.link_density is not None and p.link_density > max_ld):
                        continue
                    (noise if p.text in redundant else other).append(len(p.text))
        lo, hi = cfg["threshold_range"]
        learned = learn_threshold(noise, other, int(lo), int(hi))
        threshold_info["learned"] = learned
        if learned is not None:
            threshold = learned
    return threshold, threshold_info


def _style_tree(
    samples: list[PageSample], plain: Profile, cfg: dict[str, Any], stop_words: frozenset[str]
) -> dict[str, Any]:
    """The site style tree of the sample pages (HTML5 profiles of the thesis's filters, with ``style_tree``; not
    wpnc: its own method), or ``{}``.  It finds the template's blocks by where they stand and how they are
    presented, and its content-redundant phrases per block."""
    if not (cfg["style_tree"] and plain.parser == "html5" and plain.method == "filters"):
        return {}
    t = cfg["style_threshold"]
    return sst.build(
        ((s.blocks, s.phrases) for s in samples if s.blocks is not None),
        lambda text: tokenize(text, stop_words),
        threshold=sst.THRESHOLD if t is None else float(t),
    )


def _group_words(
    groups: list[list[PageSample]],
    learned_prof: Profile,
    redundant: frozenset[str],
    stop_words: frozenset[str],
    min_share: float,
) -> dict[str, int]:
    """The redundant words of each group's core text (filtered with the learned phrases and threshold): per word,
    the most occurrences any group removes."""
    words: dict[str, int] = {}
    for group in groups:
        token_lists = [_core_tokens(s, learned_prof, redundant, stop_words) for s in group]
        for w, c in redundant_words(token_lists, min_share).items():
            if c > words.get(w, 0):
                words[w] = c
    return words


def main_region(samples: Sequence[PageSample], min_share: float | None = 0.6) -> tuple[dict[str, Any], dict[str, Any]]:
    """The site's usual main content (``Profile.main_region``) and what was seen.

    ``"path"``: the slot path (:class:`filters.site_region.SlotPaths`) of the block that main-content detection
    chose on at least ``min_share`` of the sample pages (``blocks.main`` and each phrase's ``removed_by``, set by
    ``decide`` with the base profile); ``"noise"``: the blocks inside it (slot paths relative to it) whose
    text main-content detection removed on at least ``min_share`` of the pages where it chose that block.
    ``({}, info)`` when no path is that common. Linear in the blocks of the pages, whatever their depth.
    """
    table = SlotPaths()
    chosen = [(s, table.of_blocks(s.blocks)) for s in samples if s.blocks is not None]
    counts = Counter(paths[s.blocks.main] if s.blocks.main >= 0 else -1 for s, paths in chosen)
    pages = sum(counts.values())
    counts.pop(-1, None)  # pages without a main content count against every path
    if min_share is None or not counts or pages < 2:
        return {}, {}
    path, count = counts.most_common(1)[0]
    info = {"share": round(count / pages, 3), "paths": len(counts)}
    if count < 2 or count < min_share * pages - 1e-9:
        return {}, info
    relative = SlotPaths()  # the paths below the main content, sibling numbers left out (relative_key)
    removed: Counter[int] = Counter()
    for s, paths in chosen:
        if s.blocks.main >= 0 and paths[s.blocks.main] == path:
            removed.update(_removed_below(s, paths, table, relative))
    need = max(2, min_share * count - 1e-9)
    noisy = sorted(relative.path(p) for p, c in removed.items() if c >= need)
    found = set(noisy)
    # only the outermost: a block below a noisy one goes with it
    noise = [list(p) for p in noisy if not any(p[:k] in found for k in range(1, len(p)))]
    return {"path": list(table.path(path)), "noise": noise, "share": info["share"]}, info


def _removed_below(s: PageSample, paths: list[int], table: SlotPaths, relative: SlotPaths) -> set[int]:
    """The relative paths below the page's main content most of whose text (by characters, over all the blocks
    on that path) the main-content detection removed.  Over all of them: a relative path leaves sibling numbers
    out, so one pager's ``<p>`` removed among the article's twenty does not make ``p`` the site's noise (it did on
    New York Magazine 2000, whose every paragraph then went)."""
    main, parents = s.blocks.main, s.blocks.parents
    end = s.blocks.ends[main]  # the main content's blocks: main + 1 .. end - 1
    total = [0] * (end - main)
    gone = [0] * (end - main)
    for ph in s.phrases:
        if ph.neg is None and main < ph.node < end:
            total[ph.node - main] += len(ph.text)
            if ph.removed_by == "content":
                gone[ph.node - main] += len(ph.text)
    for i in range(end - 1, main, -1):  # children come after their parents: sum each subtree bottom-up
        p = parents[i]
        if p > main:
            total[p - main] += total[i - main]
            gone[p - main] += gone[i - main]
    rel = [-1] * (end - main)
    on_path: dict[int, list[int]] = {}  # relative path -> [its blocks mostly removed, the others]
    for i in range(main + 1, end):
        p = parents[i]
        key = relative_key((table.slot[paths[i]],))[0]
        rel[i - main] = r = relative.intern(rel[p - main] if p > main else -1, key)
        if total[i - main]:
            blocks = on_path.setdefault(r, [0, 0])
            blocks[0 if gone[i - main] * 2 > total[i - main] else 1] += 1
    return {r for r, (removed, kept) in on_path.items() if removed and removed >= kept}


def refilter(sample: PageSample, profile: Profile) -> list[Phrase]:
    """Fresh copies of a sample's phrases with ``profile``'s filters applied (benchmarks, CLI)."""
    phrases = [p.fresh() for p in sample.phrases]
    decide(phrases, profile, sample.blocks, sample.title)
    return phrases
