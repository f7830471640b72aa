"""Read-side queries for the experts' workspace: inbox pages, article states, the article, rule and folder
pages, folder tree, rule paths (the filter view's: classifier/selectors_filters.py).

Views stay thin by calling these: a page's composition (what it shows, in how many queries) lives here.
Everything here is read-only; knowledge-base changes go through classifier/services. Queries are shaped for
100,000 articles: keyset pagination on the inbox's (collected_at, id) order, a capped count, and per-page bulk
loads instead of per-row queries.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.db import connection
from django.db.models import Count, F, Func, IntegerField, OuterRef, Prefetch, Q, Subquery
from django.db.models.fields.json import KeyTextTransform
from django.http import Http404
from django.utils.dateparse import parse_datetime

from classifier import kb, services
from classifier.filtering import (  # noqa: F401 - the workspace's names for them
    COUNT_CAP,
    FAILED,
    PAGE_SIZE,
    REVIEWED,
    STATES,
    SUGGESTED,
    UNASSIGNED,
    UNREVIEWED,
    FolderChip,
    classifications_by_article,
    filter_state,
    narrow,
    shown_state,
)
from classifier.models import (
    ArticleRead,
    Case,
    Classification,
    Correction,
    Folder,
    KeywordFrequency,
    Rule,
    RuleCornerstone,
)
from classifier.vocabulary import NO_FOLDER
from monitor.models import Article

#: Columns of an article and of its content (processing.models.ArticleContent) the workspace never reads in
#: lists (the stored page and the extraction are large).
HEAVY_ARTICLE_FIELDS = ("raw_html", "headers", "content__extraction", "content__tokens", "content__fingerprint")


def light_articles():
    """Articles with their site and core content, without the columns the workspace never reads in lists."""
    return Article.objects.select_related("site", "content").defer(*HEAVY_ARTICLE_FIELDS)


def article_and_case(pk: int, *, case_required: bool = True) -> tuple[Article, Case | None]:
    """The article (light, with its site) and its case, in one query; Http404 when the article is missing,
    or its case when ``case_required``. The one way the workspace loads "an article and its case".
    ``filter_fallback``: the note of an article its site's learned profile would have emptied
    (processing.extraction.FALLBACK_NOTE), or None: read here only, not in every list of articles; ``headline``:
    the page's headline (the article page's title; None when the page has none or was processed before)."""
    article = (
        light_articles()
        .select_related("case")
        .annotate(
            filter_fallback=KeyTextTransform("fallback", "content__extraction"),
            headline=KeyTextTransform("headline", "content__extraction"),
            # the review record's assignment (review_record), in the same query
            assignee_name=F("assignee__username"),
            assigner_name=F("assigned_by__username"),
        )
        .filter(pk=pk)
        .first()
    )
    if article is None:
        raise Http404("no such article")
    try:
        case = article.case
    except Case.DoesNotExist:
        case = None
    if case is None and case_required:
        raise Http404("this article has no case yet (it is not processed)")
    return article, case


def document_frequencies(terms) -> tuple[dict[str, int], int]:
    """In how many cases each of ``terms`` occurs, and about how many cases there are, in one query.

    Read from the keywords' document frequencies (KeywordFrequency, kept with the keyword index that ingestion
    writes for every processed article): one row a term, however many cases hold it. The number of cases is the
    highest case id (deleted cases leave gaps; idf's logarithm hardly notices), read in the same statement; 0
    when no term is held by a case yet (then every term has the same idf and it does not matter).
    """
    terms = list(terms)
    if not terms:
        return {}, 0
    newest = Case.objects.order_by("-pk").values("pk")[:1]
    rows = (
        KeywordFrequency.objects.filter(keyword__in=terms, cases__gt=0)
        .annotate(newest=Subquery(newest))
        .values_list("keyword", "cases", "newest")
    )
    frequencies, cases = {}, 0
    for keyword, n, newest_id in rows:
        frequencies[keyword] = n
        cases = max(cases, newest_id or 0)
    return frequencies, cases


# --------------------------------------------------------------------------- article state
# --------------------------------------------------------------------------- inbox
@dataclass(frozen=True)
class Cursor:
    """A position in the inbox order (newest first): the (collected_at, id) of a row."""

    collected_at: datetime
    id: int

    def encode(self) -> str:
        return f"{self.collected_at.isoformat()}~{self.id}"

    @classmethod
    def decode(cls, value: str | None) -> Cursor | None:
        """The cursor in a URL, or None for a missing or malformed one (the first page is shown)."""
        if not value or "~" not in value:
            return None
        when, _, pk = value.rpartition("~")
        try:
            moment = parse_datetime(when)
            number = int(pk)
        except ValueError:
            return None
        return cls(moment, number) if moment is not None else None

    @classmethod
    def of(cls, article: Article) -> Cursor:
        return cls(article.collected_at, article.pk)


def _older(cursor: Cursor) -> Q:
    """Rows after the cursor in inbox order. The plain bound on collected_at comes first so that the
    database starts its index range scan at the cursor instead of filtering every newer row."""
    return Q(collected_at__lte=cursor.collected_at) & (Q(collected_at__lt=cursor.collected_at) | Q(id__lt=cursor.id))


def _newer(cursor: Cursor) -> Q:
    return Q(collected_at__gte=cursor.collected_at) & (Q(collected_at__gt=cursor.collected_at) | Q(id__gt=cursor.id))


@dataclass
class InboxRow:
    article: Article
    state: str
    classifications: list[FolderChip] = field(default_factory=list)
    href: str = ""  # the article page's URL (set by the view: one reverse() per page, not per row)
    unread: bool = False  # by the expert looking at the list (False when the list has no reader)
    assignee: str = ""  # the username of the expert the article is assigned to
    checked: bool = False  # its box is ticked (set by the view: "select all", or kept after a refusal)


@dataclass
class InboxPage:
    rows: list[InboxRow]
    next_cursor: Cursor | None
    prev_cursor: Cursor | None
    total: int  # matching articles, counted up to COUNT_CAP
    total_capped: bool


def inbox_queryset(
    site_id: int | None = None,
    date_from=None,
    date_to=None,
    state: str | None = None,
    *,
    assignee: int | str | None = None,
    unread_by: int | None = None,
    read_by: int | None = None,
):
    """Articles matching the inbox's site, date, state, assignee and read filters (dates: inclusive days of
    collection, in the site's time zone). Bounds on collected_at itself, so that an index in inbox order serves
    the range: (collected_at), or (review_state, collected_at, id) and (site, review_state, collected_at, id).
    Pages that are not articles (filters.kind; processing kept them out) are not in the inbox: the site
    administrators' list of them is in the admin (processing/admin.py)."""
    return narrow(
        Article.objects.exclude(state=Article.State.NOT_ARTICLE),
        site_id,
        state,
        date_from,
        date_to,
        assignee=assignee,
        unread_by=unread_by,
        read_by=read_by,
    )


def inbox_page(
    qs,
    after: Cursor | None = None,
    before: Cursor | None = None,
    size: int = PAGE_SIZE,
    *,
    count: bool = True,
    reader=None,
) -> InboxPage:
    """One page of the inbox, newest first, by keyset on (collected_at, id).

    ``qs``: the filtered articles (:func:`inbox_queryset`); ``after``: rows older than the cursor (the
    next page); ``before``: rows newer (the previous page). A page costs one indexed range scan plus
    bulk loads, however deep it is and whichever filters are set. ``count=False`` skips the capped count of
    all matching articles (the page's total is then 0): a list that shows no total need not pay for it.
    ``reader``: the user whose unread rows are marked (one more query: their read marks on the page).
    """
    # the assignee's username comes with the page's rows (a join for 51 rows, not another round trip); not the
    # reader's read marks: PostgreSQL reads all of them for an EXISTS per row (a hashed subplan, 17 ms for 33,000)
    page_qs = qs.select_related("site").annotate(assignee_name=F("assignee__username"))
    page_qs = page_qs.only(
        "id",
        "title",
        "url",
        "collected_at",
        "published_at",
        "published_time_given",
        "review_state",
        "state",
        "last_error",
        "site__id",
        "site__name",
    )
    newer_first = before is None
    cursor = after if newer_first else before
    ordered = page_qs.order_by("-collected_at", "-id") if newer_first else page_qs.order_by("collected_at", "id")
    if cursor is not None:
        ordered = ordered.filter(_older(cursor) if newer_first else _newer(cursor))
    articles = list(ordered[: size + 1])
    more = len(articles) > size
    articles = articles[:size]
    if newer_first:
        has_more_older, has_more_newer = more, after is not None
    else:
        articles.reverse()
        has_more_older, has_more_newer = True, more
    by_article = classifications_by_article([a.pk for a in articles])
    read = set()
    if reader is not None and articles:
        page_ids = [a.pk for a in articles]
        read = set(
            ArticleRead.objects.filter(user=reader, article_id__in=page_ids).values_list("article_id", flat=True)
        )
    rows = [
        InboxRow(
            a,
            shown_state(a),
            by_article.get(a.pk, []),
            unread=reader is not None and a.pk not in read,
            assignee=a.assignee_name or "",
        )
        for a in articles
    ]
    total = qs.order_by()[: COUNT_CAP + 1].count() if count else 0
    return InboxPage(
        rows=rows,
        next_cursor=Cursor.of(articles[-1]) if articles and has_more_older else None,
        prev_cursor=Cursor.of(articles[0]) if articles and has_more_newer else None,
        total=min(total, COUNT_CAP),
        total_capped=total > COUNT_CAP,
    )


def _capped(n: int) -> str:
    return f"more than {COUNT_CAP:,}" if n > COUNT_CAP else f"{n:,}"


@dataclass(frozen=True)
class ViewPosition:
    """Where an article stands in an inbox view (the inbox's filters): its neighbours and a progress count.

    The neighbours are found by keyset from the article's own (collected_at, id), never by index: an article
    the expert just accepted may have left the view (a state filter), and the next one is still the first
    row after it.
    """

    older: Article | None  # the next article of the view (j, and where accept and skip go)
    newer: Article | None  # the previous one (k)
    newer_count: int  # rows of the view before this article, counted up to COUNT_CAP + 1
    total: int  # rows of the view, counted up to COUNT_CAP + 1
    in_view: bool
    filtered: bool = True  # False: the whole inbox (no filter carried)

    @property
    def text(self) -> str:
        """The progress line: "12 of 50 in this view", capped as the inbox counts ("more than 1,000")."""
        where = "this view" if self.filtered else "the inbox"
        if not self.in_view:
            return f"no longer in {where} ({_capped(self.total)} article{'s' if self.total != 1 else ''} in it)"
        return f"{_capped(self.newer_count + 1)} of {_capped(self.total)} in {where}"


def next_in_view(view, article: Article) -> Article | None:
    """The article after ``article`` in the view's order (older), whether or not ``article`` is still in it."""
    return view.filter(_older(Cursor.of(article))).order_by("-collected_at", "-id").only("id").first()


def view_position(view, article: Article, *, filtered: bool = True) -> ViewPosition:
    """The article's place in ``view`` (a queryset of the inbox, :func:`inbox_queryset`): small indexed
    subqueries however long the view is, in one statement (one round trip). The view's SQL is compiled once and
    each part selects from it (both databases inline such a subquery and plan each part on its own); the total
    reuses the count of the newer rows, counting only the rest up to the cap (nothing when the newer rows
    reach it, as they do for most of a long view's articles). It was five querysets, each filtered and compiled
    apart, and two counts of up to 1,001 rows: the longest part of the article page's Python and queries."""
    base, base_params = view.order_by().values("id", "collected_at").query.sql_with_params()
    when = connection.ops.adapt_datetimefield_value(article.collected_at)
    rows = f"FROM ({base}) v WHERE"
    newer = "v.collected_at >= %s AND (v.collected_at > %s OR v.id > %s)"
    older = "v.collected_at <= %s AND (v.collected_at < %s OR v.id < %s)"
    rest = "v.collected_at <= %s AND (v.collected_at < %s OR v.id <= %s)"  # older, or the article itself
    here = [when, when, article.pk]
    cap = COUNT_CAP + 1
    # Django's own SQL and this function's: the values are parameters
    sql = (
        f"WITH newer AS (SELECT COUNT(*) AS n FROM (SELECT 1 {rows} {newer} LIMIT {cap}) c) SELECT "  # noqa: S608
        f"(SELECT v.id {rows} {older} ORDER BY v.collected_at DESC, v.id DESC LIMIT 1), "
        f"(SELECT v.id {rows} {newer} ORDER BY v.collected_at, v.id LIMIT 1), "
        "(SELECT n FROM newer), "
        f"(SELECT n FROM newer) + (SELECT COUNT(*) FROM (SELECT 1 {rows} {rest} "
        f"LIMIT (SELECT {cap} - n FROM newer)) capped), "
        f"EXISTS (SELECT 1 {rows} v.id = %s)"
    )
    params = [*base_params, *here, *base_params, *here, *base_params, *here, *base_params, *here, *base_params]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, article.pk])
        older_id, newer_id, newer_count, total, in_view = cursor.fetchone()
    return ViewPosition(
        older=Article(pk=older_id) if older_id is not None else None,
        newer=Article(pk=newer_id) if newer_id is not None else None,
        newer_count=newer_count,
        total=total,
        in_view=bool(in_view),
        filtered=filtered,
    )


# --------------------------------------------------------------------------- folders
@dataclass
class FolderNode:
    folder: Folder
    depth: int
    accepted: int = 0
    suggested: int = 0
    subtree: int = 0  # articles at or below the folder, each once however many of those folders hold it

    @property
    def count(self) -> int:
        return self.accepted + self.suggested


def _subtree_count() -> Subquery:
    """The outer folder's subtree count: its cases accepted or suggested at or below it, distinct (an article in
    Health and in Health/Measles is one of Health's)."""
    standing = Classification.objects.exclude(state=Classification.State.REJECTED).filter(
        Folder.subtree_of(OuterRef("path"), "folder__")
    )
    distinct = Func("case_id", function="COUNT", template="COUNT(DISTINCT %(expressions)s)")
    return Subquery(standing.order_by().values(n=distinct), output_field=IntegerField())


def folder_tree() -> list[FolderNode]:
    """Every folder in path order (a depth-first tree walk) with its article counts and its subtree's, in two
    queries."""
    counts: dict[tuple[int, str], int] = {
        (row["folder_id"], row["state"]): row["n"]
        for row in Classification.objects.exclude(state=Classification.State.REJECTED)
        .values("folder_id", "state")
        .annotate(n=Count("id"))
        .order_by()
    }
    nodes = []
    for folder in Folder.objects.annotate(subtree=_subtree_count()).order_by("path"):
        nodes.append(
            FolderNode(
                folder,
                folder.path.count(Folder.SEPARATOR),
                accepted=counts.get((folder.pk, Classification.State.ACCEPTED), 0),
                suggested=counts.get((folder.pk, Classification.State.SUGGESTED), 0),
                subtree=folder.subtree or 0,
            )
        )
    # path order puts "A/B" after "A B"; sort by the segments so children follow their parent
    nodes.sort(key=lambda n: n.folder.path.split(Folder.SEPARATOR))
    return nodes


def folder_choices() -> list[tuple[int, str]]:
    """(id, full path) of every folder, for folder pickers."""
    return sorted(Folder.objects.values_list("id", "path"), key=lambda item: item[1].split(Folder.SEPARATOR))


# --------------------------------------------------------------------------- rules
def rule_paths(rule_ids) -> dict[int, list[Rule]]:
    """rule id -> the rules from its ground-breaking rule down to it, as Rule rows (one query)."""
    tree = kb.current().tree
    paths = {rid: tree.path(rid) for rid in set(rule_ids) if rid is not None and rid in tree}
    wanted = {rid for path in paths.values() for rid in path}
    rules = Rule.objects.select_related("folder").in_bulk(wanted)
    return {rid: [rules[r] for r in path if r in rules] for rid, path in paths.items()}


def kb_version() -> int:
    """The knowledge base's version, which a rule draft carries from its check to its commit."""
    return kb.version()


def last_rule_id() -> int | None:
    return Rule.objects.order_by("-id").values_list("id", flat=True).first()


def last_rule() -> Rule | None:
    """The newest rule, with its folder and cornerstone case (what "Undo last rule" undoes)."""
    return Rule.objects.select_related("folder", "cornerstone", "created_by").order_by("-id").first()


# --------------------------------------------------------------------------- pages
def article_page(article: Article, case: Case | None, view, *, user, filtered: bool = True) -> dict:
    """The article page: every folder with the rule path that gives it (or the expert's decision), the
    paths that stopped a folder, the pending suggestions, its place in the inbox ``view``, the last rule and
    why ``user`` may not undo it. Each thing is read once: the knowledge base (its row read once, as committed
    now), the case's classifications (the folders and the review record), the last rule (shown and checked)."""
    suggestions: list[dict] = []
    stopped = []
    rows: list[Classification] = []
    last = last_rule()
    snapshot = kb.current() if case is not None or last is not None else None
    if case is not None:
        rows = list(Classification.objects.filter(case=case).select_related("folder", "decided_by"))
        explained = services.explain(case, include_stopped=True, snapshot=snapshot)
        why = {e.folder.pk: e.rules for e in explained if not e.stopped}
        withheld = {e.folder.pk: e.rules for e in explained if e.stopped and e.folder.pk not in why}
        by_folder = {row.folder_id: row for row in rows}
        suggestions = [
            {"folder": e.folder, "rules": e.rules, "row": by_folder.get(e.folder.pk), "stopped_by": []}
            for e in explained
            if not e.stopped
        ]
        # decided by hand, or no longer given by the knowledge base: a folder a stopping rule withholds says so
        # beside the expert's decision, once (not "no rule gives it" in one place and "stopped" in another)
        suggestions += [
            {"folder": row.folder, "rules": [], "row": row, "stopped_by": withheld.get(row.folder_id, [])}
            for row in rows
            if row.folder_id not in why
        ]
        stopped = [e for e in explained if e.stopped and e.folder.pk not in why and e.folder.pk not in by_folder]
        waiting = {c.folder_id: c for c in pending_corrections().filter(case=case)}
        for s in suggestions:
            s["correction"] = waiting.get(s["folder"].pk)
    return {
        "review": review_record(article, case, rows),
        "suggestions": suggestions,
        "pending": [
            s for s in suggestions if s["row"] is not None and s["row"].state == Classification.State.SUGGESTED
        ],
        "current_folders": [
            s["folder"] for s in suggestions if not (s["row"] and s["row"].state == Classification.State.REJECTED)
        ],
        "stopped": stopped,
        "position": view_position(view, article, filtered=filtered),
        "last_rule": last,
        # the last rule's undo button is live only for whom the undo serves (its author, a KB administrator)
        "undo_refused": services.undo_refusal(user, last.pk, snapshot=snapshot, last=last) if last else "",
    }


def pending_corrections(user=None):
    """The rejections still waiting for the rule that corrects them, oldest first (``user``: only theirs), with
    the case (without its keywords), folder and rejecting expert loaded."""
    qs = (
        Correction.objects.filter(state=Correction.State.PENDING)
        .select_related("case", "folder", "rejected_by")
        .defer("case__keywords")
    )
    if user is not None:
        qs = qs.filter(rejected_by=user)
    return qs.order_by("rejected_at", "id")


def pending_corrections_page(user, mine: bool, limit: int) -> dict:
    """The pending corrections list: the first ``limit`` (everyone's, or ``user``'s with ``mine``), each with
    its article, and how many there are in all and of ``user``."""
    everyone = pending_corrections()
    shown = list((pending_corrections(user) if mine else everyone)[:limit])
    articles = light_articles().in_bulk([c.case.article_id for c in shown if c.case.article_id])
    return {
        "corrections": [{"correction": c, "article": articles.get(c.case.article_id)} for c in shown],
        "total": everyone.count(),
        "mine_total": everyone.filter(rejected_by=user).count(),
    }


def _name(user) -> str:
    return user.get_username() if user is not None else ""


def review_record(article: Article, case: Case | None, rows: list[Classification] | None = None) -> list[dict]:
    """Who decided what on the article and when (usernames), oldest first: each accepted or rejected folder (its
    row), "reviewed, no folder" (the case) and the assignment (the article). ``rows``: the case's classifications
    with their folders and deciders, when the caller has read them; the case and the article as loaded are read
    as they stand (the article page's, read in the same request; article_and_case's carries the assignment's
    usernames). A query for each of the three not at hand."""
    record = []
    if case is not None:
        if rows is None:
            rows = list(Classification.objects.filter(case=case).select_related("folder", "decided_by"))
        record = [
            {"what": f"{row.get_state_display()} {row.folder.path}", "by": _name(row.decided_by), "at": row.decided_at}
            for row in rows
            if row.state != Classification.State.SUGGESTED
        ]
        if case.no_folder_at:
            record.append(
                {"what": NO_FOLDER.word.capitalize(), "by": _name(case.no_folder_by), "at": case.no_folder_at}
            )
    assigned: tuple[str | None, str | None, datetime | None] | None
    if article.assigned_at is None:
        assigned = None
    elif hasattr(article, "assigner_name"):  # read with the article (article_and_case)
        assigned = (getattr(article, "assignee_name", None), article.assigner_name, article.assigned_at)
    else:
        assigned = (
            Article.objects.filter(pk=article.pk, assigned_at__isnull=False)
            .values_list("assignee__username", "assigned_by__username", "assigned_at")
            .first()
        )
    if assigned is not None:
        to, by, at = assigned
        record.append({"what": f"Assigned to {to}" if to else "Unassigned", "by": by or "", "at": at})
    return sorted(record, key=lambda item: (item["at"] is None, item["at"]))


def current_folders(case: Case):
    """The folders the case is in or suggested for (not the rejected ones): where a move starts from."""
    return Folder.objects.filter(classifications__case=case).exclude(
        classifications__state=Classification.State.REJECTED
    )


def concluded_folders(case: Case) -> list[Folder]:
    """The folders the knowledge base gives the case now, by path."""
    return sorted(Folder.objects.filter(pk__in={c.folder for c in services.infer(case)}), key=lambda f: f.path)


def cornerstone_items(validation: services.Validation, limit: int, words: int) -> list[dict]:
    """The first ``limit`` cornerstone cases a draft rule would change, each with its article (one query) and,
    for those not accepted, its own difference lists both ways (the ``words`` best ranked of each, and how
    many more there are: the search over the whole lists finds them)."""
    shown = validation.cornerstone_cases[:limit]
    articles = light_articles().in_bulk([s.case.article_id for s in shown if s.case.article_id])
    per_case = validation.differences.per_case if validation.differences else {}
    changed_text = dict(
        Case.objects.filter(pk__in=[s.case.pk for s in shown], text_changed_at__isnull=False).values_list(
            "id", "text_changed_at"
        )
    )
    items = []
    for s in shown:
        conditions, absent = per_case.get(s.case.pk, ((), ()))
        items.append(
            {
                "change": s,
                "article": articles.get(s.case.article_id),
                "conditions": conditions[:words],
                "conditions_more": max(0, len(conditions) - words),
                "absent": absent[:words],
                "absent_more": max(0, len(absent) - words),
                "text_changed_at": changed_text.get(s.case.pk),
            }
        )
    return items


def _matching(items, search: str, first: int, at_most: int) -> dict:
    """The words of one ranked list to show: the ``first`` best, or with a search the best ``at_most`` of those
    containing it (case-insensitive), with how many are left out."""
    needle = search.casefold()
    found = [i for i in items if needle in i.word.casefold()] if needle else list(items)
    shown = found[: at_most if needle else first]
    return {"words": shown, "total": len(items), "found": len(found), "more": len(found) - len(shown)}


def difference_items(validation: services.Validation, search: str, first: int, at_most: int) -> dict:
    """Both difference lists of a draft as the rule page shows them: the ``first`` best ranked words of each,
    or the words containing ``search`` (nothing is cut alphabetically; every word can be found)."""
    ranked = validation.differences
    if ranked is None:
        return {}
    keywords = validation.case.keyword_set
    return {
        "conditions": _matching(ranked.conditions, search, first, at_most),
        # the conditions list leaves out the keywords already in the rule: its count says so beside the
        # article's own count, not as another count of the same keywords (a live trial read 203 and 205 as one)
        "keywords": len(keywords),
        "in_rule": len(keywords & validation.proposal.conditions),
        "absent": _matching(ranked.absent, search, first, at_most),
        "changing": ranked.changing,
        "search": search,
    }


def affected_items(affected: list[services.AffectedCase]) -> list[dict]:
    """Stored cases a draft rule would reclassify, each with its article and source (two queries)."""
    cases = Case.objects.filter(pk__in=[a.case_id for a in affected]).values_list("id", "article_id", "source")
    info = {pk: (article_id, source) for pk, article_id, source in cases}
    articles = light_articles().in_bulk([a for a, _ in info.values() if a])
    return [
        {
            "item": a,
            "article": articles.get(info.get(a.case_id, (None, ""))[0]),
            "source": info.get(a.case_id, (None, ""))[1],
        }
        for a in affected
    ]


def rule_page(rule: Rule, committed: dict | None, limit: int) -> dict:
    """A rule's page: the rules of its commit with their paths, its cornerstone case's article and folders,
    and the articles it reclassified (those computed at commit time, else those it concludes now)."""
    if committed:
        case_ids, rule_ids = committed["cases"], committed["rules"]
    else:
        rule_ids = [rule.pk]
        case_ids = list(Classification.objects.filter(rule=rule).values_list("case_id", flat=True)[:limit])
    rules = list(Rule.objects.filter(pk__in=rule_ids).select_related("folder"))
    paths = rule_paths([r.pk for r in rules])
    stone_article = None
    if rule.cornerstone and rule.cornerstone.article_id:
        stone_article = light_articles().filter(pk=rule.cornerstone.article_id).first()
    # the cornerstone cases whose change the committing expert accepted (RuleCornerstone "accepted")
    accepted = list(
        RuleCornerstone.objects.filter(rule=rule, decision=RuleCornerstone.Decision.ACCEPTED)
        .select_related("case", "decided_by")
        .order_by("case_id")
    )
    accepted_articles = light_articles().in_bulk([a.case.article_id for a in accepted if a.case.article_id])
    article_ids = [a for _, a in Case.objects.filter(pk__in=case_ids).values_list("id", "article_id") if a]
    affected = list(light_articles().filter(pk__in=article_ids).order_by("-collected_at", "-id"))
    chips = classifications_by_article(
        article_ids + ([stone_article.pk] if stone_article else []) + list(accepted_articles)
    )
    return {
        "rules": [{"rule": r, "path": paths.get(r.pk, [r])} for r in rules],
        "stone_article": stone_article,
        "stone_rows": chips.get(stone_article.pk, []) if stone_article else [],
        "accepted_stones": [
            {
                "link": link,
                "article": accepted_articles.get(link.case.article_id),
                "rows": chips.get(link.case.article_id, []) if link.case.article_id else [],
            }
            for link in accepted
        ],
        "affected": [{"article": a, "rows": chips.get(a.pk, [])} for a in affected],
        # what the rule does now, whenever the page is opened (the list above is the commit's, while the session
        # that committed it lasts): the articles it files, and the rules made under it since
        "concludes_now": Classification.objects.filter(rule=rule).exclude(state=Classification.State.REJECTED).count(),
        "children": list(rule.children.select_related("folder").order_by("pk")),
        "is_last": (last := last_rule_id()) in rule_ids,
        "last_rule_id": last,
    }


def folder_page(folder: Folder, before: int | None, size: int) -> dict:
    """A folder's page: its articles newest first (keyset by classification id), why each is there, its
    ancestors and children, and the rules that conclude it with their cornerstone cases and stops."""
    newest = (
        Classification.objects.filter(folder=folder)
        .exclude(state=Classification.State.REJECTED)
        .select_related("rule")
        .order_by("-id")
    )
    if before is not None:
        newest = newest.filter(id__lt=before)
    rows = list(newest[: size + 1])
    more = len(rows) > size
    rows = rows[:size]
    case_articles = dict(Case.objects.filter(pk__in=[r.case_id for r in rows]).values_list("id", "article_id"))
    by_id = light_articles().in_bulk([a for a in case_articles.values() if a])
    articles = {case: by_id.get(article) for case, article in case_articles.items() if article}
    paths = rule_paths([r.rule_id for r in rows])
    concluding = list(
        Rule.objects.filter(folder=folder)
        .select_related("cornerstone", "created_by")
        .prefetch_related(Prefetch("children", queryset=Rule.objects.filter(folder__isnull=True)))
        .order_by("id")
    )
    stone_articles = light_articles().in_bulk(
        [r.cornerstone.article_id for r in concluding if r.cornerstone and r.cornerstone.article_id]
    )
    concluding_paths = rule_paths([r.pk for r in concluding])
    prefixes = folder.ancestor_paths()
    found = {f.path: f for f in Folder.objects.filter(path__in=prefixes)}
    return {
        "ancestors": [found[p] for p in prefixes if p in found],
        "children": folder.children.order_by("name"),
        "items": [
            {"row": r, "article": articles.get(r.case_id), "path": paths.get(r.rule_id, []) if r.rule_id else []}
            for r in rows
        ],
        "more_before": rows[-1].pk if more and rows else None,
        "rule_items": [
            {
                "rule": r,
                "path": concluding_paths.get(r.pk, [r]),
                "stone": stone_articles.get(r.cornerstone.article_id) if r.cornerstone else None,
                "stops": list(r.children.all()),
            }
            for r in concluding
        ],
    }
