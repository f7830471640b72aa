"""RSS 2.0 and Atom feeds of the articles experts accepted into folders (Django's syndication framework).

An item is an *accepted* classification of an article; suggested and rejected rows are never published,
so a rejected (or undone) classification drops out of the feed at the next request.

The request path is built so that the expensive part runs only when something changed:

1. ``FeedScope.state()`` reads just the ids of the newest accepted rows (the ``classification_feed_idx``
   index (folder, state, -updated_at) gives them in order, N entries per folder in scope) and the folder
   paths those articles are accepted in; on PostgreSQL that is one statement together with the folder row
   (``pg_snapshot``). The hash of that, the *feed version*, is the ETag; the newest timestamp is
   Last-Modified. Any change to what the feed shows (a new accept, a reject, an undo that deletes a row,
   a renamed folder) changes the version; nothing is rendered to find out. Not covered: an article's
   title or text edited in place after acceptance keeps the version (readers keep their copy) until the
   feed changes otherwise or the cache entry expires (WIMS_FEED_CACHE_SECONDS).
2. A matching ``If-None-Match`` (or an ``If-Modified-Since`` equal to Last-Modified) gets 304.
3. Otherwise the rendered feed is looked up in the cache under (feed version, URL): a changed folder
   has a new version, hence a new key, so a stale feed can never be served (old keys just expire).
4. On a miss the ≤ WIMS_FEED_ITEMS articles are loaded by id and the feed is rendered once.

Private folders: their feeds (and their subfolders' items and category names) are visible only with an
active FeedToken for the folder or an ancestor; anything else is a 404 indistinguishable from a missing
folder. Feeds never run inference; they only read classifications.
"""

from __future__ import annotations

import functools
import hashlib
import html
import re
from dataclasses import dataclass, field
from datetime import datetime
from urllib.parse import urlencode, urlsplit

from django.conf import settings
from django.contrib.syndication.views import Feed
from django.core.cache import cache
from django.db import connection
from django.db.models import Exists, F, OuterRef, Q, QuerySet
from django.http import Http404, HttpResponse, HttpResponseNotModified, HttpResponsePermanentRedirect
from django.urls import reverse
from django.utils import feedgenerator
from django.utils.cache import patch_cache_control
from django.utils.http import http_date, parse_http_date_safe, quote_etag
from django.utils.text import slugify
from django.views.decorators.http import require_safe

from classifier.models import Classification, Folder
from feeds.models import FeedToken
from monitor.models import Article

FORMATS = ("rss", "atom")
ACCEPTED = Classification.State.ACCEPTED
# Bump when the rendered output changes shape, so that cached feeds and ETags of the old shape die.
RENDER_VERSION = "2"  # 2: the summary is the article's DocView abstract where it has one

# XML 1.0 forbids C0 controls except tab/LF/CR, lone surrogates and U+FFFE/U+FFFF; C1 controls and
# U+FDD0..U+FDEF are allowed but discouraged and are invisible junk in article text anyway.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff]")


# --------------------------------------------------------------------------- settings and text helpers
def feed_items() -> int:
    """WIMS_FEED_ITEMS: how many items a feed carries (default 50)."""
    value = settings.WIMS_FEED_ITEMS
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 1000:
        raise ValueError(f"WIMS_FEED_ITEMS must be an integer from 1 to 1000, not {value!r}")
    return value


def cache_seconds() -> int:
    return settings.WIMS_FEED_CACHE_SECONDS


def xml_text(value: str | None) -> str:
    """Text safe to put in XML 1.0: characters XML cannot carry removed, whitespace runs collapsed."""
    return " ".join(_NOT_XML.sub("", value or "").split())


def summary_text(core_text: str | None, limit: int | None = None) -> str:
    """The item summary: the article's core text as plain text, cut at a word boundary.

    The result is HTML-escaped because RSS descriptions and Django's Atom summaries are read as HTML:
    markup in the (untrusted) article text must show as text, never be interpreted.
    """
    limit = limit or settings.WIMS_FEED_SUMMARY_CHARS
    raw = core_text or ""
    # Clean only a prefix (cleaning is the costliest part of rendering long articles); take a longer
    # one when removed characters or collapsed whitespace left less than the limit.
    size = 2 * limit + 64
    while True:
        text = xml_text(raw[:size])
        if len(text) > limit or size >= len(raw):
            break
        size *= 4
    if len(text) > limit:
        cut = text[:limit]
        space = cut.rfind(" ")
        text = (cut[:space] if space > limit // 2 else cut).rstrip() + "…"
    return html.escape(text, quote=False)


#: letters that Unicode does not decompose into a base letter, which slugify would drop ("Cœur" -> "cur")
_LIGATURES = str.maketrans(
    {
        "œ": "oe",
        "Œ": "OE",
        "æ": "ae",
        "Æ": "AE",
        "ß": "ss",
        "ø": "o",
        "Ø": "O",
        "ł": "l",
        "Ł": "L",
        "đ": "d",
        "Đ": "D",
        "þ": "th",
        "Þ": "TH",
    }
)


def folder_slug(folder: Folder) -> str:
    """The readable part of a folder's feed URL; the id is what identifies the folder."""
    return slugify(folder.path.replace(Folder.SEPARATOR, " ").translate(_LIGATURES)) or "folder"


def tag_authority() -> str:
    """The tagging authority of item GUIDs: the instance's public host, fixed per installation."""
    host = urlsplit(settings.WIMS_PUBLIC_URL).hostname or "wims.invalid"
    return settings.WIMS_FEED_TAG_AUTHORITY or f"{host},2025"


def article_guid(article_id: int) -> str:
    """A stable GUID per article (RFC 4151 tag URI): the same in every folder's feed, across renames."""
    return f"tag:{tag_authority()}:wims:article:{article_id}"


def folder_feed_url(folder: Folder, fmt: str = "rss", subfolders: bool = False, token: str | None = None) -> str:
    url = reverse("feeds:folder", kwargs={"folder_id": folder.pk, "slug": folder_slug(folder), "fmt": fmt})
    query = {}
    if subfolders:
        query["subfolders"] = "1"
    if token:
        query["token"] = token
    return f"{url}?{urlencode(query)}" if query else url


def all_feed_url(fmt: str = "rss") -> str:
    return reverse("feeds:all", kwargs={"fmt": fmt})


# --------------------------------------------------------------------------- access
def visible_q(grant: Folder | None, prefix: str = "") -> Q:
    """Folders a requester may see: public ones, plus the subtree of the folder its token opens."""
    q = Q(**{f"{prefix}public": True})
    return q | grant.subtree_q(prefix) if grant is not None else q


def publicly_accepted(articles: QuerySet[Article]) -> QuerySet[Article]:
    """The ``articles`` accepted in at least one public folder: all that a feed without a token may publish.
    A folder's privacy covers its articles, not only its name: an article accepted only in private folders is
    published by those folders' tokens alone, whatever a saved search on a public parent or no folder matches.
    (A folder under a private one is private, so its own flag is enough.)"""
    accepted_in_public = Classification.objects.filter(
        case__article=OuterRef("pk"), state=ACCEPTED, folder__public=True
    )
    return articles.filter(Exists(accepted_in_public))


# --------------------------------------------------------------------------- what a feed shows
@dataclass
class FeedState:
    """The cheap description of a feed's content: item rows, their categories, version and date."""

    rows: list[tuple[int, int, datetime]]  # (classification id, case id, updated_at), newest first
    categories: dict[int, list[str]]  # case id -> visible folder paths its article is accepted in
    etag: str
    last_modified: datetime | None


_PG_FOLDER_SCOPE = """
    target AS (
        SELECT id, name, parent_id, path, public, created_at FROM {folders} WHERE id = %(folder)s
    ),
    scope AS (
        SELECT id FROM target
        UNION
        SELECT d.id FROM {folders} d JOIN target t ON left(d.path, length(t.path) + 1) = t.path || '/'
        WHERE %(subfolders)s AND (
            d.public OR (%(grant)s::text IS NOT NULL
                         AND (t.path = %(grant)s OR left(t.path, length(%(grant)s) + 1) = %(grant)s || '/'))
        )
    ),"""
_PG_ALL_SCOPE = """
    scope AS (SELECT id FROM {folders} WHERE public),"""
_PG_SNAPSHOT = """
    WITH {scope}
    top AS (
        SELECT c.id, c.case_id, c.updated_at
        FROM scope f
        CROSS JOIN LATERAL (
            SELECT id, case_id, updated_at FROM {table}
            WHERE folder_id = f.id AND state = %(state)s ORDER BY updated_at DESC LIMIT %(limit)s
        ) c
    )
    {target_row}
    SELECT 0, id, case_id, updated_at, NULL, NULL, NULL FROM top
    UNION ALL
    SELECT 1, NULL, o.case_id, o.updated_at, g.path, g.public, NULL
    FROM {table} o JOIN {folders} g ON g.id = o.folder_id
    WHERE o.state = %(state)s AND o.case_id IN (SELECT case_id FROM top)
"""
_PG_TARGET_ROW = """
    SELECT 2, id, parent_id, created_at, path, public, name FROM target
    UNION ALL"""


def pg_snapshot(folder_id: int | None, subfolders: bool, grant_path: str | None, limit: int):
    """PostgreSQL, one round trip: (the folder or None, candidate rows, category rows).

    The folders in scope are the folder (plus, with ``subfolders``, its descendants that are public or,
    when the token's folder ``grant_path`` covers the folder, all of them), or every public folder when
    ``folder_id`` is None. For each, a LATERAL subquery walks classification_feed_idx
    (folder, state, -updated_at) and stops after ``limit`` entries; the same statement returns the
    accepted folders (path, public) of those cases and the folder row itself.

    The plain ORM form (WHERE folder_id = %s ORDER BY updated_at DESC LIMIT n) is not used here: the
    planner prefers the single-column updated_at index and filters its way through every newer row of
    other folders and states (20,000 rows and ~15 ms in the benchmark). One statement instead of three
    also matters: on a busy machine every round trip to PostgreSQL costs a wake-up of its process.
    """
    names = {
        "table": connection.ops.quote_name(Classification._meta.db_table),
        "folders": connection.ops.quote_name(Folder._meta.db_table),
    }
    scope = (_PG_ALL_SCOPE if folder_id is None else _PG_FOLDER_SCOPE).format(**names)
    target_row = "" if folder_id is None else _PG_TARGET_ROW
    sql = _PG_SNAPSHOT.format(scope=scope, target_row=target_row, **names)
    params = {
        "folder": folder_id,
        "subfolders": bool(subfolders),
        "grant": grant_path,
        "state": ACCEPTED,
        "limit": limit,
    }
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        result = cursor.fetchall()
    folder, rows, cats = None, [], []
    for kind, a, b, when, path, public, name in result:
        if kind == 0:
            rows.append((a, b, when))
        elif kind == 1:
            cats.append((b, path, public, when))
        else:
            folder = Folder(id=a, parent_id=b, created_at=when, path=path, public=public, name=name)
            folder._state.adding, folder._state.db = False, connection.alias
    return folder, rows, cats


@dataclass
class FeedScope:
    """Which accepted classifications a feed shows: one folder (optionally its subtree) or all."""

    fmt: str
    folder: Folder | None = None  # None: everything classified (public folders)
    subfolders: bool = False
    grant: Folder | None = None  # the folder whose token was presented (and covers ``folder``)
    token: str | None = None
    # (limit, candidate rows, category rows) already read with the folder (PostgreSQL)
    prefetched: tuple | None = field(default=None, repr=False)

    def __post_init__(self):
        if self.fmt not in FORMATS:
            raise Http404("unknown feed format")

    # ..................................................................... rows
    def _visible(self, path: str, public: bool) -> bool:
        """May this feed name the folder ``path`` in its categories (public, or in the token's subtree)?"""
        if public:
            return True
        top = self.grant
        return top is not None and top.holds(path)

    def _folder_ids(self) -> list[int]:
        if self.folder is None:  # everything: merged like a subtree, over all public folders
            return list(Folder.objects.filter(public=True).values_list("id", flat=True))
        ids = [self.folder.pk]
        if self.subfolders:
            below = Folder.objects.filter(self.folder.subtree_q(itself=False))
            ids += list(below.filter(visible_q(self.grant)).values_list("id", flat=True))
        return ids

    def _fetch(self, limit: int) -> tuple[list, list | None]:
        """Candidate rows (the ``limit`` newest accepted of each folder in scope) and maybe their categories.

        PostgreSQL: pg_snapshot (one statement, categories included). Other databases: one ORM query per
        folder (SQLite's planner takes classification_feed_idx for it); categories come afterwards.
        """
        if self.prefetched is not None and self.prefetched[0] == limit:
            return self.prefetched[1], self.prefetched[2]
        if connection.vendor == "postgresql":
            grant_path = self.grant.path if self.grant else None
            folder_id = self.folder.pk if self.folder is not None else None
            _, rows, cats = pg_snapshot(folder_id, self.subfolders, grant_path, limit)
            return rows, cats
        rows = []
        for folder_id in self._folder_ids():
            query = Classification.objects.filter(folder_id=folder_id, state=ACCEPTED).order_by("-updated_at")
            rows += query.values_list("id", "case_id", "updated_at")[:limit]
        return rows, None

    def newest_rows(self, limit: int, candidates: list) -> list[tuple[int, int, datetime]]:
        """The newest ``limit`` candidate rows, one per case (= article; an article in two subfolders once).

        A case is its article's one case (OneToOne), so distinct cases are distinct articles; cases
        without an article (imported from another knowledge base) are dropped when items are loaded.
        Exact: an article's newest row is always within its own folder's top ``limit`` candidates.
        """
        candidates = sorted(candidates, key=lambda r: (r[2], r[0]), reverse=True)
        seen, result = set(), []
        for row in candidates:
            if row[1] not in seen:
                seen.add(row[1])
                result.append(row)
                if len(result) == limit:
                    break
        return result

    def state(self, limit: int | None = None) -> FeedState:
        """The feed version: what the feed would show, from ids and timestamps only (nothing rendered)."""
        limit = limit or feed_items()
        candidates, cats = self._fetch(limit)
        rows = self.newest_rows(limit, candidates)
        case_ids = [r[1] for r in rows]
        categories: dict[int, list[str]] = {c: [] for c in case_ids}
        newest = rows[0][2] if rows else None
        if cats is None and case_ids:
            cats = list(
                Classification.objects.filter(state=ACCEPTED, case_id__in=case_ids).values_list(
                    "case_id", "folder__path", "folder__public", "updated_at"
                )
            )
        for case_id, path, public, updated in cats or ():
            if case_id in categories and self._visible(path, public):
                categories[case_id].append(path)
                newest = max(newest, updated)
        for paths in categories.values():
            paths.sort()
        signature = repr(
            (
                RENDER_VERSION,
                self.fmt,
                self.folder and (self.folder.pk, self.folder.path, self.folder.public),
                self.subfolders,
                self.grant and self.grant.pk,
                limit,
                [(r[0], r[1], r[2].isoformat()) for r in rows],
                sorted(categories.items()),
            )
        )
        etag = hashlib.blake2b(signature.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()
        return FeedState(rows=rows, categories=categories, etag=etag, last_modified=newest)

    # ..................................................................... presentation
    def title(self) -> str:
        if self.folder is None:
            return "WIMS: everything classified"
        suffix = " (with subfolders)" if self.subfolders else ""
        return f"WIMS: {xml_text(self.folder.path)}{suffix}"

    def description(self) -> str:
        if self.folder is None:
            return "Articles the experts accepted into any public folder."
        where = "or its subfolders" if self.subfolders else ""
        return f"Articles the experts accepted into the folder {xml_text(self.folder.path)} {where}".strip() + "."

    def url(self) -> str:
        if self.folder is None:
            return all_feed_url(self.fmt)
        return folder_feed_url(self.folder, self.fmt, self.subfolders, self.token)


@dataclass
class FeedItem:
    article: Article
    categories: list[str]
    accepted_at: datetime


@dataclass
class FeedData:
    """Everything a Feed class renders, loaded up front (the Feed methods run no queries)."""

    scope: FeedScope
    items: list[FeedItem]


def load_items(state: FeedState) -> list[FeedItem]:
    """The articles of the state's rows (one query by primary key), in feed order."""
    case_ids = [r[1] for r in state.rows]
    articles = {
        a.case_pk: a
        for a in Article.objects.filter(case__id__in=case_ids)
        .annotate(case_pk=F("case__id"))
        .select_related("content")
        .only("id", "url", "title", "content__abstract", "content__core_text", "published_at", "collected_at")
    }
    return [
        FeedItem(articles[case_id], state.categories.get(case_id, []), updated)
        for _, case_id, updated in state.rows
        if case_id in articles
    ]


# --------------------------------------------------------------------------- Django syndication feeds
class FolderRssFeed(Feed):
    """RSS 2.0 of a FeedData (a folder, a folder with subfolders, or everything)."""

    feed_type = feedgenerator.Rss201rev2Feed
    author_name = "WIMS"
    language = "en"

    # RSS 2.0 does not say whether a title is text or HTML, and many readers render it as HTML: a title is
    # HTML-escaped before the XML escaping, so "<script>" in an article's title shows as text there too.
    # (Atom says: type="text" by default; FolderAtomFeed escapes once.)
    title_escape = staticmethod(functools.partial(html.escape, quote=False))

    def title(self, obj: FeedData) -> str:
        return self.title_escape(obj.scope.title())

    def description(self, obj: FeedData) -> str:
        return obj.scope.description()

    def link(self, obj: FeedData) -> str:
        return reverse("feeds:list")

    def feed_url(self, obj: FeedData) -> str:
        return obj.scope.url()

    def feed_guid(self, obj: FeedData) -> str:
        if obj.scope.folder is None:
            return f"tag:{tag_authority()}:wims:feed:all"
        return f"tag:{tag_authority()}:wims:folder:{obj.scope.folder.pk}:{int(obj.scope.subfolders)}"

    def items(self, obj: FeedData) -> list[FeedItem]:
        return obj.items

    def item_title(self, item: FeedItem) -> str:
        return self.title_escape(xml_text(item.article.title) or xml_text(item.article.url))

    def item_description(self, item: FeedItem) -> str:
        # the DocView abstract (its most central sentences); the start of the core text for articles
        # processed before abstracts existed, or without sentences
        return summary_text(item.article.summary)

    def item_link(self, item: FeedItem) -> str:
        return xml_text(item.article.url)

    def item_guid(self, item: FeedItem) -> str:
        return article_guid(item.article.pk)

    item_guid_is_permalink = False

    def item_pubdate(self, item: FeedItem) -> datetime:
        return item.article.published_at or item.article.collected_at

    def item_updateddate(self, item: FeedItem) -> datetime:
        return item.accepted_at

    def item_categories(self, item: FeedItem) -> list[str]:
        return [xml_text(path) for path in item.categories]


class FolderAtomFeed(FolderRssFeed):
    """Atom 1.0 of the same items; the summary is the escaped plain text (type="html")."""

    feed_type = feedgenerator.Atom1Feed  # type: ignore[assignment]  # django-stubs pins the RSS class
    subtitle = FolderRssFeed.description
    title_escape = staticmethod(str)  # Atom titles are type="text": the XML escaping is the only one


FEED_CLASSES = {"rss": FolderRssFeed(), "atom": FolderAtomFeed()}


def render_feed(scope: FeedScope, state: FeedState, request) -> tuple[bytes, str]:
    """Render the feed (no caching, no conditional logic): body and content type."""
    feed = FEED_CLASSES[scope.fmt]
    generator = feed.get_feed(FeedData(scope, load_items(state)), request)
    content_type: str = generator.content_type  # type: ignore[attr-defined]  # set by every generator class
    return generator.writeString("utf-8").encode("utf-8"), content_type


# --------------------------------------------------------------------------- HTTP
def _not_modified(request, etag: str, last_modified: datetime | None) -> bool:
    """If-None-Match decides when present (RFC 9110); else If-Modified-Since must equal Last-Modified.

    Exact equality rather than "not newer": a rejected item can make the newest timestamp go *back*,
    and a client holding the later date must then get the new feed, not a 304.
    """
    if_none_match = request.headers.get("If-None-Match")
    if if_none_match is not None:
        tags = {t.strip().removeprefix("W/") for t in if_none_match.split(",")}
        return quote_etag(etag) in tags or "*" in tags
    since = parse_http_date_safe(request.headers.get("If-Modified-Since") or "")
    return since is not None and last_modified is not None and since == int(last_modified.timestamp())


def serve(request, scope, render=render_feed) -> HttpResponse:
    """Answer a feed request: 304 from the feed version, else the cached or freshly rendered feed.

    ``scope``: a FeedScope, or any object with its ``state()``, ``url()`` and ``grant`` (a saved search's:
    feeds/saved_searches.py, which passes its own ``render``)."""
    state = scope.state()
    headers = {"ETag": quote_etag(state.etag)}
    if state.last_modified is not None:
        headers["Last-Modified"] = http_date(state.last_modified.timestamp())
    private = scope.grant is not None
    response: HttpResponse
    if _not_modified(request, state.etag, state.last_modified):
        response = HttpResponseNotModified()
    else:
        where = f"{request.scheme}://{request.get_host()}{scope.url()}"
        key = "wims:feed:" + hashlib.blake2b(f"{state.etag}|{where}".encode(), digest_size=16).hexdigest()
        cached = cache.get(key)
        if cached is None:
            cached = render(scope, state, request)
            cache.set(key, cached, cache_seconds())
        body, content_type = cached
        response = HttpResponse(body, content_type=content_type)
    for name, value in headers.items():
        response.headers[name] = value
    # Readers revalidate every time (cheap 304s); a token feed must not be kept by shared caches.
    patch_cache_control(response, no_cache=True, **({"private": True} if private else {"public": True}))
    if private:
        response.headers["Referrer-Policy"] = "no-referrer"  # the token is in the URL
    return response


@require_safe
def folder_feed(request, folder_id: int, slug: str, fmt: str):
    """A folder's feed: /feeds/<id>-<slug>/<rss|atom>/[?subfolders=1][&token=...].

    A private folder without a token that opens it is a 404 (as for a folder that does not exist), and
    that check comes before the slug redirect so that the redirect does not reveal the folder either.
    """
    token = request.GET.get("token") or None
    token_row = FeedToken.lookup(token) if token else None
    token_folder = token_row.folder if token_row else None
    subfolders = request.GET.get("subfolders", "").lower() in {"1", "true", "yes", "on"}
    prefetched = None
    if connection.vendor == "postgresql":  # folder and feed version in one round trip
        limit = feed_items()
        folder, rows, cats = pg_snapshot(folder_id, subfolders, token_folder and token_folder.path, limit)
        prefetched = (limit, rows, cats)
    else:
        folder = Folder.objects.filter(pk=folder_id).order_by().first()
    if folder is None:
        raise Http404("no such feed")
    grant = token_folder if token_folder is not None and token_folder.holds(folder.path) else None
    if not folder.public and grant is None:
        raise Http404("no such feed")
    if slug != folder_slug(folder):
        query = request.GET.urlencode()
        target = reverse("feeds:folder", kwargs={"folder_id": folder.pk, "slug": folder_slug(folder), "fmt": fmt})
        return HttpResponsePermanentRedirect(f"{target}?{query}" if query else target)
    scope = FeedScope(fmt, folder, subfolders, grant, token if grant else None, prefetched=prefetched)
    return serve(request, scope)


@require_safe
def folder_feed_by_id(request, folder_id: int, fmt: str):
    """/feeds/<id>/<fmt>/ (no slug): same checks, then the canonical URL."""
    return folder_feed(request, folder_id, "", fmt)


@require_safe
def all_feed(request, fmt: str):
    """Everything classified into public folders."""
    return serve(request, FeedScope(fmt))
