"""The two full-text backends behind search.services: PostgreSQL full-text search and SQLite FTS5.

Both take a :class:`search.query.ParsedQuery` (one syntax) and answer the same four questions: which
articles match (a filter on an Article queryset, so that every other filter composes with it), their
rank, a snippet per article with the matches between sentinel characters, and how to (re)index articles.

PostgreSQL: ``search_searchdocument.vector`` = title (A) || DocView keywords (B) || core text (C), english
configuration, GIN index; ``websearch_to_tsquery``; ``ts_rank``; ``ts_headline``.
SQLite: the FTS5 table ``search_fts`` (porter over unicode61, so that stemming roughly matches PostgreSQL's
english configuration) with the document table as its external content, kept in step by triggers;
``bm25`` with the same column weights; ``snippet``.

Indexing is one SQL statement per batch on either database: the text is read from the article's columns
where it lies, never sent back and forth.
"""

# ruff: noqa: S608, S611 - every statement here is built from our table names and constants; user input
# (the query, ids) is always a bound parameter
from __future__ import annotations

from dataclasses import dataclass

from django.contrib.postgres.search import SearchHeadline, SearchQuery
from django.db import connection
from django.db.models import Func, QuerySet, Value
from django.db.models.expressions import RawSQL
from django.db.models.functions import Left

from classifier.filtering import in_folders
from monitor.models import Article
from search.models import SearchDocument
from search.query import ParsedQuery, to_fts5, to_websearch

#: Characters that mark the start and end of a match in a snippet. They are removed from the text that is
#: indexed or highlighted, so they cannot come from an article (search/services.py escapes, then marks).
MARK_START, MARK_END = "\ue000", "\ue001"
_LT, _GT = "\ue002", "\ue003"  # "<" and ">" while ts_headline reads the text
CONFIG = "english"
#: Title, keywords and core text: how much a match in each counts (bm25's column weights on SQLite; on
#: PostgreSQL the A, B, C labels, with ts_rank's default weights 1.0, 0.4, 0.2).
SQLITE_WEIGHTS = (10.0, 4.0, 1.0)
#: Characters of the core text ts_headline reads (it parses the whole text it is given).
HEADLINE_CHARS = 50_000
#: Characters of the core text in a PostgreSQL vector: a tsvector holds 1 MB at most (to_tsvector fails
#: beyond, which would fail the article's processing), and positions stop counting at 16,383 anyway.
VECTOR_CHARS = 200_000
SNIPPET_WORDS = 32

DOCS = SearchDocument._meta.db_table
ARTICLES = Article._meta.db_table
#: processing's output (processing.models.ArticleContent), named through the article's relation: processing
#: indexes articles, so search never imports it
CONTENTS: str = Article._meta.get_field("content").related_model._meta.db_table  # type: ignore[attr-defined]
FTS = "search_fts"

# an article the index holds: processed, not a re-publication of another
_ELIGIBLE = "a.state = 'processed' AND a.duplicate_of_id IS NULL"


def vendor() -> str:
    return "postgresql" if connection.vendor == "postgresql" else "sqlite"


# --------------------------------------------------------------------------- schema (migrations)
SQLITE_SCHEMA = [
    f"""CREATE VIRTUAL TABLE {FTS} USING fts5(
        title, keywords, body, content='{DOCS}', content_rowid='article_id',
        tokenize='porter unicode61 remove_diacritics 2')""",
    f"""CREATE TRIGGER {FTS}_insert AFTER INSERT ON {DOCS} BEGIN
        INSERT INTO {FTS}(rowid, title, keywords, body) VALUES (new.article_id, new.title, new.keywords, new.body);
    END""",
    f"""CREATE TRIGGER {FTS}_delete AFTER DELETE ON {DOCS} BEGIN
        INSERT INTO {FTS}({FTS}, rowid, title, keywords, body)
        VALUES ('delete', old.article_id, old.title, old.keywords, old.body);
    END""",
    f"""CREATE TRIGGER {FTS}_update AFTER UPDATE ON {DOCS} BEGIN
        INSERT INTO {FTS}({FTS}, rowid, title, keywords, body)
        VALUES ('delete', old.article_id, old.title, old.keywords, old.body);
        INSERT INTO {FTS}(rowid, title, keywords, body) VALUES (new.article_id, new.title, new.keywords, new.body);
    END""",
]
SQLITE_DROP = [f"DROP TRIGGER IF EXISTS {FTS}_{t}" for t in ("insert", "delete", "update")] + [
    f"DROP TABLE IF EXISTS {FTS}"
]
POSTGRES_SCHEMA = [f"CREATE INDEX search_document_vector_gin ON {DOCS} USING gin (vector)"]
POSTGRES_DROP = ["DROP INDEX IF EXISTS search_document_vector_gin"]
# Vectors kept in the table's own pages rather than TOASTed: PostgreSQL costs a sequential scan by the pages
# of the table, so with the vectors out of line (a few kB each) it took the scan for cheap and never used the
# GIN index (75 ms instead of 2 ms for a word in 5% of 20,000 articles).
POSTGRES_INLINE_VECTORS = [
    f"ALTER TABLE {DOCS} SET (toast_tuple_target = 8160)",
    f"ALTER TABLE {DOCS} ALTER COLUMN vector SET STORAGE MAIN",
]
POSTGRES_TOASTED_VECTORS = [
    f"ALTER TABLE {DOCS} RESET (toast_tuple_target)",
    f"ALTER TABLE {DOCS} ALTER COLUMN vector SET STORAGE EXTENDED",
]


# The filters a search is narrowed by most, kept where the ranking query reads them without a join through the
# articles and classifications (that join cost 150-250 ms for a common word and a folder at 100,000 articles,
# docs/benchmarks/distribution.md): the article's site in its document (it never changes; indexed with the id:
# a site's documents newest first), and the folders it is accepted or suggested in (not rejected: what a folder
# filter means, classifier.filtering.in_folder) in a narrow table of their own, FOLDERS, with a GIN index.
# Not in the document: each classification change would rewrite the document's row (its vector inline) and,
# with the folders indexed there, re-insert every word of it into the vector's GIN index: a commit suggesting
# a folder for 19,000 cases took 2.1 s more (0.3 s alone); in the narrow table, 0.2 s more.
# The folder ids are the classifications' own folders: a filter asks for a folder's subtree ids, so moving a
# folder changes no row. Triggers on the classifications keep them in step, whichever code writes the rows
# (inference, experts, merges, deletions, bulk actions), in the same transaction; indexing an article
# refreshes its row too (so no row left by a table emptied without triggers can outlive its article).
CLASSIFICATIONS = "classifier_classification"
CASES = "classifier_case"
FOLDERS = "search_documentfolders"


def _folders_of(article: str) -> str:
    """SQL: the sorted ids of the folders the article is accepted or suggested in (an empty array for none)."""
    return (
        f"coalesce((SELECT array_agg(DISTINCT fc.folder_id ORDER BY fc.folder_id) FROM {CASES} fk "
        f"JOIN {CLASSIFICATIONS} fc ON fc.case_id = fk.id AND fc.state <> 'rejected' WHERE fk.article_id = {article}), "
        "ARRAY[]::bigint[])"
    )


def _refresh_folders(articles: str) -> str:
    """SQL: (re)write the FOLDERS rows of the articles that ``articles`` (a FROM clause giving ``article_id``)
    lists; rows that would not change are not written."""
    return (
        f"INSERT INTO {FOLDERS} (article_id, folder_ids) SELECT x.article_id, {_folders_of('x.article_id')} "
        f"FROM {articles} ON CONFLICT (article_id) DO UPDATE SET folder_ids = EXCLUDED.folder_ids "
        f"WHERE {FOLDERS}.folder_ids IS DISTINCT FROM EXCLUDED.folder_ids"
    )


# Rows inserted (a commit's new suggestions, ingestion's, an expert's decision on a folder without a row): their
# folders join the article's, a union with the stored ids, not a recompute from all the article's rows (that read
# each article's case and rows again: half of the trigger's time in a commit suggesting a folder for 3,700 cases).
# Exact because an article has one case and a case one row a folder, and every row is written with these triggers
# on (an article whose rows exist has its row here, filled by this migration's first statements). Articles in
# id order, so that two statements lock the rows they share in the same order.
_ADD_FOLDERS = (
    f"INSERT INTO {FOLDERS} AS f (article_id, folder_ids) "
    f"SELECT c.article_id, array_agg(DISTINCT n.folder_id ORDER BY n.folder_id) FROM classification_new n "
    f"JOIN {CASES} c ON c.id = n.case_id WHERE n.state <> 'rejected' AND c.article_id IS NOT NULL "
    "GROUP BY c.article_id ORDER BY c.article_id "
    "ON CONFLICT (article_id) DO UPDATE SET folder_ids = "
    "ARRAY(SELECT DISTINCT x FROM unnest(f.folder_ids || EXCLUDED.folder_ids) x ORDER BY x) "
    "WHERE NOT f.folder_ids @> EXCLUDED.folder_ids"
)
POSTGRES_FOLDERS_FUNCTION = f"""CREATE OR REPLACE FUNCTION search_document_folders_refresh() RETURNS trigger
    LANGUAGE plpgsql AS $$
    DECLARE
        cases bigint[];
    BEGIN
        IF TG_OP = 'INSERT' THEN
            {_ADD_FOLDERS};
            RETURN NULL;
        ELSIF TG_OP = 'DELETE' THEN
            SELECT array_agg(DISTINCT case_id) INTO cases FROM classification_old;
        ELSE  -- only rows whose case, folder or state changed (a decision's date or rule alone changes nothing)
            SELECT array_agg(DISTINCT x.case_id) INTO cases FROM (
                SELECT n.case_id, o.case_id AS old_case
                FROM classification_new n JOIN classification_old o ON o.id = n.id
                WHERE (n.case_id, n.folder_id, n.state) IS DISTINCT FROM (o.case_id, o.folder_id, o.state)
            ) changed, LATERAL (VALUES (changed.case_id), (changed.old_case)) x(case_id);
        END IF;
        IF cases IS NULL THEN
            RETURN NULL;
        END IF;
        {_refresh_folders(f"{CASES} x WHERE x.id = ANY(cases) AND x.article_id IS NOT NULL")};
        RETURN NULL;
    END $$"""


POSTGRES_FILTER_COLUMNS = [
    f"ALTER TABLE {DOCS} ADD COLUMN site_id bigint",
    f"UPDATE {DOCS} d SET site_id = a.site_id FROM {ARTICLES} a WHERE a.id = d.article_id",
    f"CREATE INDEX search_document_site ON {DOCS} (site_id, article_id)",
    f"CREATE TABLE {FOLDERS} (article_id bigint PRIMARY KEY, folder_ids bigint[] NOT NULL)",
    _refresh_folders(f"{CASES} x WHERE x.article_id IS NOT NULL"),
    f"CREATE INDEX search_documentfolders_gin ON {FOLDERS} USING gin (folder_ids)",
    POSTGRES_FOLDERS_FUNCTION,
    f"""CREATE TRIGGER search_document_folders_insert AFTER INSERT ON {CLASSIFICATIONS}
        REFERENCING NEW TABLE AS classification_new
        FOR EACH STATEMENT EXECUTE FUNCTION search_document_folders_refresh()""",
    f"""CREATE TRIGGER search_document_folders_update AFTER UPDATE ON {CLASSIFICATIONS}
        REFERENCING OLD TABLE AS classification_old NEW TABLE AS classification_new
        FOR EACH STATEMENT EXECUTE FUNCTION search_document_folders_refresh()""",
    f"""CREATE TRIGGER search_document_folders_delete AFTER DELETE ON {CLASSIFICATIONS}
        REFERENCING OLD TABLE AS classification_old
        FOR EACH STATEMENT EXECUTE FUNCTION search_document_folders_refresh()""",
]
_TRIGGERS = ("insert", "update", "delete")
POSTGRES_DROP_FILTER_COLUMNS = [
    *(f"DROP TRIGGER IF EXISTS search_document_folders_{t} ON {CLASSIFICATIONS}" for t in _TRIGGERS),
    "DROP FUNCTION IF EXISTS search_document_folders_refresh()",
    f"DROP TABLE IF EXISTS {FOLDERS}",
    f"ALTER TABLE {DOCS} DROP COLUMN IF EXISTS site_id",
]


def _execute(schema_editor, postgres: list[str], sqlite: list[str]) -> None:
    """Run a migration's statements for the database at hand."""
    for statement in postgres if schema_editor.connection.vendor == "postgresql" else sqlite:
        schema_editor.execute(statement)


def create_schema(schema_editor) -> None:
    """The GIN index (PostgreSQL) or the FTS5 table and its triggers (SQLite)."""
    _execute(schema_editor, POSTGRES_SCHEMA, SQLITE_SCHEMA)


def drop_schema(schema_editor) -> None:
    _execute(schema_editor, POSTGRES_DROP, SQLITE_DROP)


# --------------------------------------------------------------------------- indexing
_INDEXED = f"(SELECT a.id AS article_id FROM {ARTICLES} a WHERE {_ELIGIBLE} AND {{where}}) x"
_PG_UPSERT = f"""
    WITH folders AS ({_refresh_folders(_INDEXED)})
    INSERT INTO {DOCS} (article_id, title, keywords, body, indexed_at, site_id, vector)
    SELECT a.id, '', '', '', now(), a.site_id,
           setweight(to_tsvector('{CONFIG}', coalesce(a.title, '')), 'A')
        || setweight(to_tsvector('{CONFIG}', coalesce(
               (SELECT string_agg(k->>0, ' ') FROM jsonb_array_elements(
                   CASE WHEN jsonb_typeof(c.keywords) = 'array' THEN c.keywords ELSE '[]'::jsonb END) k), '')), 'B')
        || setweight(to_tsvector('{CONFIG}', left(coalesce(c.core_text, ''), {VECTOR_CHARS})), 'C')
    FROM {ARTICLES} a LEFT JOIN {CONTENTS} c ON c.article_id = a.id WHERE {_ELIGIBLE} AND {{where}}
    ON CONFLICT (article_id) DO UPDATE SET vector = EXCLUDED.vector, indexed_at = EXCLUDED.indexed_at,
        site_id = EXCLUDED.site_id
"""
_SQLITE_UPSERT = f"""
    INSERT INTO {DOCS} (article_id, title, keywords, body, indexed_at, vector)
    SELECT a.id,
           replace(replace(coalesce(a.title, ''), '{MARK_START}', ''), '{MARK_END}', ''),
           coalesce((SELECT group_concat(json_extract(k.value, '$[0]'), ' ')
                     FROM json_each(CASE WHEN json_valid(c.keywords) THEN c.keywords ELSE '[]' END) k), ''),
           replace(replace(coalesce(c.core_text, ''), '{MARK_START}', ''), '{MARK_END}', ''),
           %s, NULL
    FROM {ARTICLES} a LEFT JOIN {CONTENTS} c ON c.article_id = a.id WHERE {_ELIGIBLE} AND {{where}}
    ON CONFLICT (article_id) DO UPDATE SET
        title = excluded.title, keywords = excluded.keywords, body = excluded.body, indexed_at = excluded.indexed_at
"""
_DELETE_STALE = f"""
    DELETE FROM {DOCS} WHERE {{where}}
    AND NOT EXISTS (SELECT 1 FROM {ARTICLES} a WHERE a.id = {DOCS}.article_id AND {_ELIGIBLE})
"""


# The index follows processing's output: triggers on the content table (processing.models.ArticleContent) run
# the indexing statements above for the rows a statement wrote, whichever code writes them (processing, site
# learning's re-filtering, a data migration). Processing saves the article's final row (its state, title) before
# its content row, in one transaction, so the document is written, or dropped, with the content: no statement
# of its own per article (tests/processing/test_query_count.py). index_article stays for rows written otherwise.
_WRITTEN = "(SELECT article_id FROM content_written)"
POSTGRES_CONTENT_TRIGGERS = [
    f"""CREATE FUNCTION search_document_content_refresh() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        {_PG_UPSERT.format(where=f"a.id IN {_WRITTEN}")};
        {_DELETE_STALE.format(where=f"article_id IN {_WRITTEN}")};
        RETURN NULL;
    END $$""",
    *(
        f"""CREATE TRIGGER search_document_content_{op.lower()} AFTER {op} ON {CONTENTS}
        REFERENCING NEW TABLE AS content_written
        FOR EACH STATEMENT EXECUTE FUNCTION search_document_content_refresh()"""
        for op in ("INSERT", "UPDATE")
    ),
]
POSTGRES_DROP_CONTENT_TRIGGERS = [
    *(f"DROP TRIGGER IF EXISTS search_document_content_{op} ON {CONTENTS}" for op in ("insert", "update")),
    "DROP FUNCTION IF EXISTS search_document_content_refresh()",
]
# SQLite: row triggers; the document's indexing time is the database's clock (UTC, as Django stores it)
SQLITE_CONTENT_TRIGGERS = [
    f"""CREATE TRIGGER search_document_content_{op.lower()} AFTER {op} ON {CONTENTS} BEGIN
        {_SQLITE_UPSERT.replace("%s", "datetime('now')").format(where="a.id = new.article_id")};
        {_DELETE_STALE.format(where="article_id = new.article_id")};
    END"""
    for op in ("INSERT", "UPDATE")
]
SQLITE_DROP_CONTENT_TRIGGERS = [f"DROP TRIGGER IF EXISTS search_document_content_{op}" for op in ("insert", "update")]


def create_content_triggers(schema_editor) -> None:
    _execute(schema_editor, POSTGRES_CONTENT_TRIGGERS, SQLITE_CONTENT_TRIGGERS)


def drop_content_triggers(schema_editor) -> None:
    _execute(schema_editor, POSTGRES_DROP_CONTENT_TRIGGERS, SQLITE_DROP_CONTENT_TRIGGERS)


def index_range(first_id: int, last_id: int) -> None:
    """Index the eligible articles with ids first_id..last_id and drop the others' documents."""
    from django.utils import timezone

    where = "a.id BETWEEN %s AND %s"
    with connection.cursor() as cursor:
        if vendor() == "postgresql":
            # the article's folders row refreshed in the same statement (a data-modifying WITH)
            cursor.execute(_PG_UPSERT.format(where=where), [first_id, last_id, first_id, last_id])
        else:
            now = connection.ops.adapt_datetimefield_value(timezone.now())
            cursor.execute(_SQLITE_UPSERT.format(where=where), [now, first_id, last_id])
        if cursor.rowcount == last_id - first_id + 1:
            return  # every id was an eligible article, indexed: nothing to drop (one statement per article)
        cursor.execute(_DELETE_STALE.format(where="article_id BETWEEN %s AND %s"), [first_id, last_id])


# --------------------------------------------------------------------------- querying
def _pg_query(parsed: ParsedQuery) -> SearchQuery:
    return SearchQuery(to_websearch(parsed), search_type="websearch", config=CONFIG)


def _fts_match(parsed: ParsedQuery) -> RawSQL:
    return RawSQL(f"SELECT rowid FROM {FTS} WHERE {FTS} MATCH %s", (to_fts5(parsed),))


#: The ranking reads at most this many matches, the newest: a word in half of 100,000 articles would otherwise
#: be ranked in all 50,000 documents (160-500 ms) for the first page. The count shown stops at COUNT_CAP
#: (1,000, below this) anyway. docs/benchmarks/distribution.md
RANK_WINDOW = 2_000
#: The ranking looks among the newest this many articles (by id) first, and stays there when it finds at least
#: RECENT_ENOUGH matches (four pages): a folder's articles and a word's documents are two index lookups that
#: meet only in the documents' rows, so over the whole index a common word and a folder read every document
#: holding the word (20,000 rows, up to 700 ms when they are not in PostgreSQL's buffers). A news desk wants
#: the recent matches first; a date filter ("collected to") reaches older ones, and the page says when older
#: articles were left out.
RECENT_ARTICLES = 20_000
RECENT_ENOUGH = 200


@dataclass(frozen=True)
class Ranking:
    """(article id, score) best first; how many match (PostgreSQL: up to RANK_WINDOW; None: not counted);
    and whether only the newest RECENT_ARTICLES articles were searched."""

    scored: list[tuple[int, float]]
    total: int | None
    recent_only: bool = False


@dataclass(frozen=True)
class DocumentFilter:
    """The filters the PostgreSQL documents hold: a site, and folder ids (a folder's subtree) of which the
    article must be accepted or suggested in one."""

    site_id: int | None = None
    folder_ids: tuple[int, ...] | None = None

    def sql(self, alias: str, after_id: int | None = None) -> tuple[str, list]:
        """(" AND ..." conditions on the documents' alias, their parameters); ``after_id``: only articles with a
        greater id (the newest ones), said inside the folder subquery too so that it hashes only those."""
        conditions = ""
        params: list[object] = []
        if after_id is not None:
            conditions += f" AND {alias}.article_id > %s"
            params.append(after_id)
        if self.site_id:
            conditions += f" AND {alias}.site_id = %s"
            params.append(self.site_id)
        if self.folder_ids is not None:
            # OFFSET 0 keeps the subquery a semi-join on its ids: flattened, the planner knows the ids unique and
            # may hash the documents' side instead, vectors and all (8 MB for a word in 6,000 articles, spilled to
            # disk): twice as slow.
            newest = "" if after_id is None else " AND article_id > %s"
            conditions += (
                f" AND {alias}.article_id IN "
                f"(SELECT article_id FROM {FOLDERS} WHERE folder_ids && %s::bigint[]{newest} OFFSET 0)"
            )
            params += [list(self.folder_ids)] + ([] if after_id is None else [after_id])
        return conditions, params

    def narrow(self, qs: QuerySet[Article]) -> QuerySet[Article]:
        """SQLite (and any list without a search query): the same filters on the articles."""
        if self.site_id:
            qs = qs.filter(site_id=self.site_id)
        if self.folder_ids is not None:
            qs = qs.filter(in_folders(self.folder_ids))
        return qs


def filter_matching(
    qs: QuerySet[Article], parsed: ParsedQuery, documents: DocumentFilter = DocumentFilter()
) -> QuerySet[Article]:
    """The articles of ``qs`` that the query and the document filters match (unranked)."""
    if vendor() == "postgresql":
        conditions, params = documents.sql("d")
        return qs.filter(
            pk__in=RawSQL(
                f"SELECT d.article_id FROM {DOCS} d WHERE d.vector @@ websearch_to_tsquery('{CONFIG}', %s){conditions}",
                (to_websearch(parsed), *params),
            )
        )
    return documents.narrow(qs.filter(pk__in=_fts_match(parsed)))


def ranked(
    filtered: QuerySet[Article], parsed: ParsedQuery, documents: DocumentFilter, offset: int, limit: int
) -> Ranking:
    """The best matches among ``filtered`` (the other filters, without the query and the document filters),
    best first (a higher score is a better match), then newest, ``limit`` from ``offset``; with how many match
    where the ranking query counted them as it went (PostgreSQL, a page with rows)."""
    postgres = vendor() == "postgresql"
    if not postgres:
        filtered = documents.narrow(filtered)
    params: list = []
    among = ""  # the filtered articles' ids, a subquery
    if filtered.query.where:
        sub_sql, sub_params = filtered.values("id").query.sql_with_params()
        among = f"AND {'d.article_id' if postgres else 'a.id'} IN ({sub_sql})"
        params += list(sub_params)
    if postgres:
        # The newest RANK_WINDOW matching documents first (a materialised CTE: the planner walks the documents
        # newest first for a common word and takes the GIN bitmaps for a rare one; the tsquery is written out,
        # not a CTE of its own, so that it can tell the two apart), ranked, then the page in rank order.
        # ts_rank, normalised by the length (1 + its log) like bm25: ts_rank_cd was four times as slow.
        tsquery = f"websearch_to_tsquery('{CONFIG}', %s)"
        query = to_websearch(parsed)

        def rank(after_id: int | None, page_limit: int, page_offset: int) -> list:
            conditions, doc_params = documents.sql("d", after_id)
            cursor.execute(
                f"WITH m AS MATERIALIZED (SELECT d.article_id, ts_rank(d.vector, {tsquery}, 1) AS score "
                f"FROM {DOCS} d WHERE d.vector @@ {tsquery}{conditions} {among} "
                f"ORDER BY d.article_id DESC LIMIT {RANK_WINDOW}) "
                # newest first among equals: by id, the order of collection (no join to the articles for dates)
                "SELECT m.article_id, m.score, count(*) OVER () FROM m ORDER BY m.score DESC, m.article_id DESC "
                "LIMIT %s OFFSET %s",
                [query, query, *doc_params, *params, page_limit, page_offset],
            )
            return cursor.fetchall()

        with connection.cursor() as cursor:
            # First among the newest RECENT_ARTICLES articles (see there); the whole index when they hold
            # fewer than RECENT_ENOUGH matches. A full window found there is also the whole index's window.
            cursor.execute("SELECT max(id) FROM " + ARTICLES)
            floor = (cursor.fetchone()[0] or 0) - RECENT_ARTICLES
            if floor > 0:
                rows = rank(floor, limit, offset)
                found = rows[0][2] if rows else 0
                if not rows and offset:  # a page past the recent matches: were they enough to stay there?
                    first = rank(floor, 1, 0)
                    found = first[0][2] if first else 0
                if found >= RECENT_ENOUGH:
                    return Ranking(*_scored(rows), recent_only=found < RANK_WINDOW)
            return Ranking(*_scored(rank(None, limit, offset)))
    # One full-text query that ranks as it goes: bm25 per match, the filters as a subquery of article ids.
    # CROSS JOIN keeps the full-text table the outer loop: SQLite would otherwise walk the filtered articles
    # and run the full-text query once per article (quadratic; so was a correlated bm25 per article: 13 s
    # for a word in every one of 20,000 articles).
    weights = ", ".join(str(w) for w in SQLITE_WEIGHTS)
    sql = (
        f"SELECT {FTS}.rowid, -bm25({FTS}, {weights}) AS score FROM {FTS} "
        f"CROSS JOIN {ARTICLES} a ON a.id = {FTS}.rowid "
        f"WHERE {FTS} MATCH %s {among} "
        f"ORDER BY score DESC, a.collected_at DESC, a.id DESC LIMIT %s OFFSET %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [to_fts5(parsed), *params, limit, offset])
        # No count here: bm25 is refused beside a window function, and ranking in a CTE of its own to count
        # the rows cost more than counting them apart (up to the cap) does.
        return Ranking([(pk, float(score)) for pk, score in cursor.fetchall()], None)


def _scored(rows) -> tuple[list[tuple[int, float]], int | None]:
    return [(pk, float(score)) for pk, score, _ in rows], (rows[0][2] if rows else None)


def snippets(article_ids: list[int], parsed: ParsedQuery) -> dict[int, str]:
    """article id -> a passage of its core text, the matches between MARK_START and MARK_END (not escaped)."""
    if not article_ids:
        return {}
    if vendor() == "postgresql":
        # The sentinels are removed from the text first, so every one in the result is ts_headline's; and
        # "<" and ">" stand in disguise, or its parser would take "<script>" for a tag and drop it (the
        # snippet must show the article's text as it is, escaped later).
        text = Func(
            Left("content__core_text", HEADLINE_CHARS),
            Value("<>" + MARK_START + MARK_END + _LT + _GT),
            Value(_LT + _GT),
            function="translate",
        )
        rows = Article.objects.filter(pk__in=article_ids).annotate(
            snippet=SearchHeadline(
                text,
                _pg_query(parsed),
                config=CONFIG,
                start_sel=MARK_START,
                stop_sel=MARK_END,
                max_words=SNIPPET_WORDS,
                min_words=SNIPPET_WORDS // 2,
                max_fragments=2,
                fragment_delimiter=" … ",
            )
        )
        return {pk: (text or "").replace(_LT, "<").replace(_GT, ">") for pk, text in rows.values_list("pk", "snippet")}
    marks = ", ".join(["%s"] * len(article_ids))
    sql = (
        f"SELECT rowid, snippet({FTS}, 2, %s, %s, '…', {SNIPPET_WORDS}) FROM {FTS} "
        f"WHERE {FTS} MATCH %s AND rowid IN ({marks})"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [MARK_START, MARK_END, to_fts5(parsed), *article_ids])
        return {pk: text or "" for pk, text in cursor.fetchall()}
