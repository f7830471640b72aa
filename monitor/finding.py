"""A site's sources, found for its administrator and read by its polls, over monitor/sources.py's pure core.

No database here: the caller (monitor/services.py) hands in ``get``, its polite fetch (robots.txt, the per-host
delay, the site's address rule, the fetch log), and stores what comes back.

- :func:`find`: read the home page and robots.txt and propose the site's feeds (announced in the page),
  sitemaps (named in robots.txt, else at the usual addresses; Google News, regular, indexes) and most prominent
  section pages, each with the reason it was proposed and, for the preview, the links it yields today and which
  of them WIMS takes for article candidates, with the reason for each.
- :func:`read_sitemap`: a poll's reading of one sitemap source: the index tree walked under
  :data:`POLL_LIMITS`, each urlset asked for with conditional GET, the recent entries taken
  (:func:`recent_entries`).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from django.utils.translation import ngettext

from filters.kind import forum_front

from .discovery import LinkRules, Section, links_from_feed, links_from_html
from .links import Position
from .net import AddressRefused, FetchError, Response
from .sources import (
    Sitemap,
    SitemapEntry,
    SitemapLimits,
    SitemapWalk,
    SourceError,
    announced_feeds,
    prominent_sections,
    sitemap_candidates,
    walk,
)

__all__ = [
    "Get",
    "LinkVerdict",
    "Found",
    "Proposal",
    "find",
    "SitemapRead",
    "read_sitemap",
    "read_feed",
    "recent_entries",
    "POLL_LIMITS",
]

MiB = 1024 * 1024

#: get(url, request headers, max bytes, kind of source for the fetch log) -> the response (a 304 has an empty
#: body); raises net.FetchError, and net.Deferred when a poll should come back later
Get = Callable[[str, dict[str, str], int, str], Response]
#: refuses(url) -> True when the site's robots.txt disallows the link (a poll leaves it out: polite.robots_refuses)
Refuses = Callable[[str], bool]
#: the verdict on a link robots.txt disallows, whatever its address says: a poll never takes it
DISALLOWED = "disallowed by robots.txt"

#: a poll's bounds on one sitemap source: an index and its children, 10 files, 10 MiB each, 30 MiB in all
POLL_LIMITS = SitemapLimits(
    max_bytes=10 * MiB, max_depth=2, max_sitemaps=10, max_total_bytes=30 * MiB, max_total_entries=100_000
)
#: finding's bounds on each sitemap proposed (the preview reads a little of each)
FIND_LIMITS = SitemapLimits(
    max_bytes=10 * MiB, max_depth=1, max_sitemaps=4, max_total_bytes=20 * MiB, max_total_entries=50_000
)
#: at most this many feeds and section pages proposed (each is read for the preview)
MAX_FEEDS = 4
MAX_SECTIONS = 6
#: links listed per source in the preview (the counts cover them all)
PREVIEW_LINKS = 60


@dataclass(frozen=True)
class LinkVerdict:
    """A link a source yields, whether WIMS takes it for an article candidate, and why."""

    url: str
    taken: bool
    reason: str


@dataclass
class Found:
    """A source proposed, and what it yields today (read for the preview)."""

    url: str
    kind: str  # monitor.models.Source.Kind: "feed", "sitemap" or "section"
    reason: str
    #: ticked in the preview, kept as active when nobody chose (a site registered through the API)
    keep: bool = True
    summary: str = ""
    #: why it could not be read (it is then not ticked)
    error: str = ""
    links: list[LinkVerdict] = field(default_factory=list)
    total: int = 0
    taken: int = 0


@dataclass
class Proposal:
    """What :func:`find` proposes for a site."""

    home_url: str
    sources: list[Found] = field(default_factory=list)
    #: the home page's links and the verdict on each (a poll reads the home page when no section page is typed in)
    home: Found | None = None
    #: the home page could not be read, a sitemap address answered nothing, …
    notes: list[str] = field(default_factory=list)
    #: the home page resolves to a private address that the site may not use: nothing can be found or polled until
    #: a superuser allows it (the preview says so)
    private_refused: bool = False


class _Counted:
    """``get`` counting its requests, for the preview's cap on the pages it reads of a site."""

    def __init__(self, get: Get, max_pages: int | None) -> None:
        self.get, self.max_pages, self.made = get, max_pages, 0

    def __call__(self, url: str, headers: dict[str, str], max_bytes: int, kind: str) -> Response:
        self.made += 1
        return self.get(url, headers, max_bytes, kind)

    @property
    def left(self) -> int | None:
        return None if self.max_pages is None else max(0, self.max_pages - self.made)

    def spent(self) -> str:
        """Why no more is read, or "" while requests are left."""
        return f"the preview read its {self.max_pages} pages of the site" if self.left == 0 else ""


def find(
    home_url: str,
    get: Get,
    rules: LinkRules,
    *,
    robots_txt: str | None,
    now: datetime,
    max_age: timedelta,
    max_links: int,
    budget: float = 20.0,
    read: bool = True,
    max_pages: int | None = None,
    refuses: Refuses | None = None,
) -> Proposal:
    """Propose the sources of the site at ``home_url``: feeds, sitemaps, section pages (see the module docstring).

    ``robots_txt``: the site's robots.txt (None: none, or unreadable). ``read``: read each feed and section
    page for the preview (sitemaps are always read: one at a usual address may not exist). ``budget``: seconds
    after which no more source is read (each read waits for the host's politeness delay); ``max_pages``: requests
    made at most (the home page's included): the sources left are proposed with a note instead of their links.
    ``max_age``, ``max_links``: the poll's bounds on sitemaps. ``refuses``: the poll's robots.txt decision on a
    link (one it refuses is listed, not taken, as :data:`DISALLOWED`); None: none refused.
    """
    deadline = time.monotonic() + budget
    proposal = Proposal(home_url)
    counted = _Counted(get, max_pages)
    judge = _Judge(rules, refuses, Section.of(home_url))
    try:
        home = counted(home_url, {}, 0, "section")
    except FetchError as exc:
        proposal.notes.append(f"the home page could not be read: {exc}")
        proposal.private_refused = isinstance(exc, AddressRefused) and exc.private
        return proposal
    feeds = announced_feeds(home.body, home.url)[:MAX_FEEDS]
    for feed in feeds:
        proposal.sources.append(Found(feed.url, "feed", feed.reason))
    sitemaps = _find_sitemaps(robots_txt, home.url, counted, judge, now, max_age, max_links, deadline, proposal)
    _propose_sections(home.body, home.url, judge, proposal, ticked=not feeds and not any(s.keep for s in sitemaps))
    known = {found.url: f"a {found.kind} proposed here" for found in proposal.sources}
    known.update((feed.url, f"a feed's address: {feed.reason}") for feed in feeds)
    if read:  # the home page, already fetched, is shown as a poll reads it (no request more)
        proposal.home = Found(home.url, "section", "the home page")
        try:
            positions: dict[str, Position] = {}
            links = links_from_html(home.body, home.url, positions)
            _judge_links(proposal.home, links, judge, known, positions)
        except ValueError as exc:
            proposal.home.error = str(exc)
    for found in proposal.sources:
        # a section's site reads its feeds even unasked: whether one is ticked depends on what it lists
        if found.kind == "sitemap" or not (read or (found.kind == "feed" and judge.section is not None)):
            continue
        spent = counted.spent() or (f"its {budget:g} s were spent" if time.monotonic() > deadline else "")
        if spent:
            found.summary = f"not read for the preview: {spent}"
            continue
        _preview(found, counted, judge, known)
    proposal.sources.sort(key=lambda f: ("feed", "sitemap", "section").index(f.kind))
    return proposal


def _propose_sections(page: bytes, url: str, judge: _Judge, proposal: Proposal, *, ticked: bool) -> None:
    """The home page's most prominent section pages. The home page and feeds already list what sections list: a
    section is ticked only when nothing else is (``ticked``), and not when its address may be an article's (the
    link rules would fetch it as one), nor, for a site registered at a section, when it is another part of the
    host (the parent site's). One typed in on the site is left out: the preview lists it as polled in any case."""
    rules = judge.rules
    # a section page typed in on the site is polled already: proposed again, unticked, it read as not watched
    found = prominent_sections(page, url, limit=MAX_SECTIONS + len(rules.watched))
    for section in [section for section in found if not rules.watches(section.url)][:MAX_SECTIONS]:
        reason, keep = f"linked from the home page: {section.reason}", ticked
        if rules.accepts(section.url):
            keep, reason = False, reason + "; its address may be an article's"
        elif judge.section is not None and not judge.section.holds(section.url):
            keep, reason = False, f"{reason}; another part of the site than {judge.section.label}"
        proposal.sources.append(Found(section.url, "section", reason, keep))


def _find_sitemaps(
    robots_txt: str | None,
    home_url: str,
    get: _Counted,
    judge: _Judge,
    now: datetime,
    max_age: timedelta,
    max_links: int,
    deadline: float,
    proposal: Proposal,
) -> list[Found]:
    """The sitemaps robots.txt names (else those at the usual addresses that answer), each walked a little."""
    found: list[Found] = []
    candidates = sitemap_candidates(robots_txt, home_url)
    named = bool(robots_txt) and candidates[0].reason == "named in robots.txt" if candidates else False
    for candidate in candidates:
        spent = get.spent() or ("the time budget was spent" if time.monotonic() > deadline else "")
        if spent:
            proposal.notes.append(f"{candidate.url}: not looked at ({spent})")
            continue
        left = get.left
        limits = FIND_LIMITS if left is None else replace(FIND_LIMITS, max_sitemaps=min(FIND_LIMITS.max_sitemaps, left))
        result = walk(candidate, _plain(get), limits, now=now, skip_child=_stale(now - max_age))
        if not result.sitemaps:
            error = "; ".join(message for _, message in result.errors) or "nothing read"
            if named:  # named in robots.txt, so worth showing; a usual address that is not there is not news
                found.append(Found(candidate.url, "sitemap", candidate.reason, keep=False, error=error))
            else:
                proposal.notes.append(f"no sitemap at {candidate.url} ({error})")
            continue
        first = result.sitemaps[0]
        item = Found(candidate.url, "sitemap", candidate.reason, summary=_walk_summary(result))
        _judge_entries(item, result.entries(), judge, now, max_age, max_links)
        item.keep = first.kind == "index" or bool(item.total)
        judge.confine(item, [entry.url for entry in result.entries()])
        found.append(item)
    proposal.sources += found
    return found


def _walk_summary(result: SitemapWalk) -> str:
    parts = [result.sitemaps[0].summary]
    if len(result.sitemaps) > 1:
        listed = len(result.sitemaps) - 1
        parts.append(f"{listed} listed {ngettext('sitemap', 'sitemaps', listed)} read for this preview")
    if result.skipped:
        parts.append(f"{len(result.skipped)} not read: " + "; ".join(f"{u}: {why}" for u, why in result.skipped[:3]))
    if result.errors:
        parts.append("unreadable: " + "; ".join(f"{url}: {message}" for url, message in result.errors[:3]))
    return "; ".join(parts)


def _plain(get: Get) -> Callable[[str, int], bytes]:
    """walk's fetch over ``get``: the body, a failed fetch as a SourceError (the walk records it and goes on)."""

    def fetch(url: str, cap: int) -> bytes:
        try:
            return get(url, {}, cap, "sitemap").body
        except FetchError as exc:
            raise SourceError(str(exc)) from None

    return fetch


class _Judge:
    """The verdict on a link as a poll decides it: robots.txt (a poll leaves a disallowed link out), then the link
    rules. robots.txt speaks first: no include pattern can make a poll fetch what it disallows."""

    def __init__(self, rules: LinkRules, refuses: Refuses | None, section: Section | None = None) -> None:
        self.rules, self.refuses, self.section = rules, refuses, section

    def confine(self, item: Found, links: list[str]) -> None:
        """For a site registered at a section: a feed or sitemap is ticked only when most of the links it yields
        (all of them, not only those listed) lie under the section; the others list the whole site, whose articles
        are the parent site's."""
        if self.section is None or item.kind == "section" or not item.keep:
            return
        under = sum(self.section.holds(url) for url in links)
        if under * 2 <= len(links):
            item.keep = False
            where = self.section.label
            item.reason += (
                f"; lists the whole site: {len(links)} links, {under} under {where}"
                if links
                else (f"; not ticked: nothing it lists was read to show that it lies under {where}")
            )

    def __call__(self, url: str, position: Position | None = None) -> tuple[bool, str]:
        if self.refuses is not None and self.refuses(url):
            return False, DISALLOWED
        return self.rules.judge(url, position)

    def page(self, links: list[str], positions: dict[str, Position]) -> dict[str, tuple[bool, str]]:
        """The verdicts on a page's links as a poll gives them (LinkRules.judge_all: what the page says as a whole
        counts too), robots.txt first."""
        verdicts = self.rules.judge_all(links, positions)
        if self.refuses is not None:
            verdicts.update((url, (False, DISALLOWED)) for url in verdicts if self.refuses(url))
        return verdicts


def _judge_entries(
    item: Found, entries: list[SitemapEntry], judge: _Judge, now: datetime, max_age: timedelta, max_links: int
) -> None:
    """The verdicts on a sitemap's entries: robots.txt and the link rules first, then the poll's recency bound."""
    verdicts = [(entry, *judge(entry.url)) for entry in entries]
    accepted = [entry for entry, taken, _ in verdicts if taken]
    taken, left = recent_entries(accepted, now=now, max_age=max_age, max_links=max_links)
    chosen = {entry.url for entry in taken}
    item.total, item.taken = len(entries), len(chosen)
    ranked = sorted(verdicts, key=lambda v: (v[0].url not in chosen, -(v[0].when or now).timestamp()))
    for entry, ok, reason in ranked[:PREVIEW_LINKS]:
        if ok and entry.url not in chosen:
            ok, reason = False, left.get(entry.url, "left by the poll's bounds")
        item.links.append(LinkVerdict(entry.url, ok, reason))


def _preview(item: Found, get: Get, judge: _Judge, known: dict[str, str]) -> None:
    """Read a feed or section page and judge its links; an unreadable one is not ticked, with the reason."""
    positions: dict[str, Position] = {}  # where each link of a page sits, which a poll weighs too
    try:
        resp = get(item.url, {}, 0, item.kind)
        if item.kind == "feed":
            links = read_feed(resp.body, resp.url)
        else:
            links = links_from_html(resp.body, resp.url, positions)
    except (FetchError, ValueError) as exc:
        item.error, item.keep = str(exc), False
        return
    _judge_links(item, links, judge, known, positions)
    judge.confine(item, links)
    forum = forum_front(item.url, links) if item.kind == "section" else None
    if forum is not None:  # its address read as a section front's: the page it lists says otherwise
        item.keep, item.reason = False, f"{item.reason}; a forum, not a news section: {forum.reason}"


def _judge_links(
    item: Found, links: list[str], judge: _Judge, known: dict[str, str], positions: dict[str, Position] | None = None
) -> None:
    """The verdict on each link of a page or feed, those taken first, as a poll gives it: with where the link sits on
    the page (``positions``; a feed's links have none). A link to a source proposed (``known``: its reason) is no
    article, and the verdict says what it is."""
    judged = judge.page([url for url in links if url not in known], positions or {})
    verdicts = [LinkVerdict(url, *((False, known[url]) if url in known else judged[url])) for url in links]
    item.total, item.taken = len(verdicts), sum(v.taken for v in verdicts)
    item.links = sorted(verdicts, key=lambda v: not v.taken)[:PREVIEW_LINKS]


# ----------------------------------------------------------------------------------------------------- polling


def recent_entries(
    entries: Sequence[SitemapEntry], *, now: datetime, max_age: timedelta, max_links: int
) -> tuple[list[SitemapEntry], dict[str, str]]:
    """The entries of a sitemap that a poll takes for article candidates, newest first, and why each other is left.

    A sitemap may list every page a site ever had (50,000 per file): a poll takes the entries dated (Google
    News publication date, else lastmod) within ``max_age`` of ``now``, the ``max_links`` newest of them.
    Undated entries are taken only from a small sitemap (``max_links`` entries at most in all): in a large one
    their age is unknown, and taking them all would queue the site's whole archive.
    """
    oldest = now - max_age
    left: dict[str, str] = {}
    recent: list[SitemapEntry] = []
    undated: list[SitemapEntry] = []
    for entry in entries:
        when = entry.when
        if when is None:
            undated.append(entry)
        elif when < oldest:
            left[entry.url] = f"dated {when.date().isoformat()}: older than {_age(max_age)}"
        else:
            recent.append(entry)
    recent.sort(key=lambda e: e.when or now, reverse=True)
    if len(entries) <= max_links:
        recent += undated
    else:
        for entry in undated:
            left[entry.url] = f"no date, in a sitemap of more than {max_links:,} entries"
    for entry in recent[max_links:]:
        left[entry.url] = f"beyond the {max_links:,} newest entries"
    return recent[:max_links], left


def _age(age: timedelta) -> str:
    days = age.total_seconds() / 86400
    return f"{days:g} day{'' if days == 1 else 's'}" if days >= 1 else f"{age.total_seconds() / 3600:g} hours"


@dataclass
class SitemapRead:
    """What a poll read of one sitemap source."""

    links: list[str] = field(default_factory=list)
    dates: dict[str, datetime] = field(default_factory=dict)
    #: conditional GET validators of the urlsets read (an index is always read again: its children may change
    #: while it does not)
    validators: dict[str, dict[str, str]] = field(default_factory=dict)
    #: urlsets that answered 304
    not_modified: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


class _NotModified(SourceError):
    pass


def read_sitemap(
    url: str,
    validators: dict[str, dict[str, str]],
    get: Get,
    rules: LinkRules,
    *,
    now: datetime,
    max_age: timedelta,
    max_links: int,
    limits: SitemapLimits = POLL_LIMITS,
) -> SitemapRead:
    """Read one sitemap source for a poll: walk its index tree (child sitemaps whose lastmod is older than
    ``max_age`` are not read), each file asked for with its stored ``validators`` (conditional GET), and take the
    recent entries :class:`LinkRules` accepts (:func:`recent_entries`), with their dates.
    Unreadable files are listed in ``errors``; net.Deferred from ``get`` goes through to the caller."""
    read = SitemapRead()
    fresh: dict[str, dict[str, str]] = {}
    oldest = now - max_age

    def fetch(target: str, cap: int) -> bytes:
        try:
            resp = get(target, conditional_headers(validators.get(target)), cap, "sitemap")
        except FetchError as exc:
            raise SourceError(str(exc)) from None
        if resp.status == 304:
            read.not_modified.append(target)
            raise _NotModified("not modified")
        fresh[target] = response_validators(resp)
        return resp.body

    result = walk(url, fetch, limits, now=now, skip_child=_stale(oldest))
    errors = [(where, message) for where, message in result.errors if where not in read.not_modified]
    # a file cut at a bound before its first entry (a gzip or whitespace bomb): nothing of it can be read
    errors += [
        (s.url, f"nothing read: {'; '.join(s.truncated)}")
        for s in result.sitemaps
        if s.truncated and not s.entries and not s.children
    ]
    read.errors = [message if where == url else f"{where}: {message}" for where, message in errors]
    read.validators = {s.url: fresh[s.url] for s in result.sitemaps if s.kind == "urlset" and fresh.get(s.url)}
    accepted = [entry for entry in result.entries() if rules.accepts(entry.url)]
    taken, _ = recent_entries(accepted, now=now, max_age=max_age, max_links=max_links)
    read.links = [entry.url for entry in taken]
    read.dates = {entry.url: entry.when for entry in taken if entry.when is not None}
    return read


def _empty_and_cut(sitemap: Sitemap) -> bool:
    return bool(sitemap.truncated) and not sitemap.entries and not sitemap.children


def _stale(oldest: datetime) -> Callable[[SitemapEntry], str | None]:
    """Why an index's child sitemap is not read: its lastmod is older than what a poll takes (None: read it)."""

    def stale(child: SitemapEntry) -> str | None:
        if child.lastmod is not None and child.lastmod < oldest:
            return f"not changed since {child.lastmod.date().isoformat()} (lastmod)"
        return None

    return stale


#: an internal DTD subset declaring entities: no feed needs one, and a parser that expands them is a bomb's fuse
_ENTITY_DECLARATION = re.compile(rb"<!ENTITY", re.IGNORECASE)


def read_feed(body: bytes, url: str, dates: dict[str, datetime] | None = None) -> list[str]:
    """A feed's article links (monitor.discovery.links_from_feed), but a feed declaring XML entities is refused
    (ValueError): feedparser's lenient parser would read its unexpanded references as links."""
    if _ENTITY_DECLARATION.search(body, 0, 64 * 1024):
        raise ValueError("refused: the feed declares XML entities (<!ENTITY>), which no feed needs")
    return links_from_feed(body, url, dates)


def conditional_headers(saved: dict[str, str] | None) -> dict[str, str]:
    """If-None-Match / If-Modified-Since from a source's stored validators."""
    headers = {}
    if saved and saved.get("etag"):
        headers["If-None-Match"] = saved["etag"]
    if saved and saved.get("last_modified"):
        headers["If-Modified-Since"] = saved["last_modified"]
    return headers


def response_validators(resp: Response) -> dict[str, str]:
    """The validators to store from a response (ETag, Last-Modified), for the next conditional GET."""
    pairs = (("etag", resp.headers.get("etag")), ("last_modified", resp.headers.get("last-modified")))
    return {name: value for name, value in pairs if value}
