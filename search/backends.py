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

from django.contrib.postgres.search import SearchHeadline, SearchQuery
from django.db import connection
from django.db.models import Func, QuerySet, Value
from django.db.models.expressions import RawSQL
from django.db.models.functions import Left

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


def create_schema(schema_editor) -> None:
    """The GIN index (PostgreSQL) or the FTS5 table and its triggers (SQLite)."""
    postgres = schema_editor.connection.vendor == "postgresql"
    for statement in POSTGRES_SCHEMA if postgres else SQLITE_SCHEMA:
        schema_editor.execute(statement)


def drop_schema(schema_editor) -> None:
    postgres = schema_editor.connection.vendor == "postgresql"
    for statement in POSTGRES_DROP if postgres else SQLITE_DROP:
        schema_editor.execute(statement)


# --------------------------------------------------------------------------- indexing
_PG_UPSERT = f"""
    INSERT INTO {DOCS} (article_id, title, keywords, body, indexed_at, vector)
    SELECT a.id, '', '', '', now(),
           setweight(to_tsvector('{CONFIG}', coalesce(a.title, '')), 'A')
        || setweight(to_tsvector('{CONFIG}', coalesce(
               (SELECT string_agg(k->>0, ' ') FROM jsonb_array_elements(
                   CASE WHEN jsonb_typeof(a.keywords) = 'array' THEN a.keywords ELSE '[]'::jsonb END) k), '')), 'B')
        || setweight(to_tsvector('{CONFIG}', left(coalesce(a.core_text, ''), {VECTOR_CHARS})), 'C')
    FROM {ARTICLES} a WHERE {_ELIGIBLE} AND {{where}}
    ON CONFLICT (article_id) DO UPDATE SET vector = EXCLUDED.vector, indexed_at = EXCLUDED.indexed_at
"""
_SQLITE_UPSERT = f"""
    INSERT INTO {DOCS} (article_id, title, keywords, body, indexed_at, vector)
    SELECT a.id,
           replace(replace(coalesce(a.title, ''), '{MARK_START}', ''), '{MARK_END}', ''),
           coalesce((SELECT group_concat(json_extract(k.value, '$[0]'), ' ')
                     FROM json_each(CASE WHEN json_valid(a.keywords) THEN a.keywords ELSE '[]' END) k), ''),
           replace(replace(coalesce(a.core_text, ''), '{MARK_START}', ''), '{MARK_END}', ''),
           %s, NULL
    FROM {ARTICLES} a WHERE {_ELIGIBLE} AND {{where}}
    ON CONFLICT (article_id) DO UPDATE SET
        title = excluded.title, keywords = excluded.keywords, body = excluded.body, indexed_at = excluded.indexed_at
"""
_DELETE_STALE = f"""
    DELETE FROM {DOCS} WHERE {{where}}
    AND NOT EXISTS (SELECT 1 FROM {ARTICLES} a WHERE a.id = {DOCS}.article_id AND {_ELIGIBLE})
"""


def index_range(first_id: int, last_id: int) -> None:
    """Index the eligible articles with ids first_id..last_id and drop the others' documents."""
    from django.utils import timezone

    where = "a.id BETWEEN %s AND %s"
    with connection.cursor() as cursor:
        if vendor() == "postgresql":
            cursor.execute(_PG_UPSERT.format(where=where), [first_id, last_id])
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


def filter_matching(qs: QuerySet[Article], parsed: ParsedQuery) -> QuerySet[Article]:
    """The articles of ``qs`` that the query matches (unranked)."""
    if vendor() == "postgresql":
        return qs.filter(search_document__vector=_pg_query(parsed))
    return qs.filter(pk__in=_fts_match(parsed))


def ranked(
    filtered: QuerySet[Article], parsed: ParsedQuery, offset: int, limit: int
) -> tuple[list[tuple[int, float]], int | None]:
    """(article id, score) of the best matches among ``filtered`` (the other filters, without the query),
    best first (a higher score is a better match), then newest, ``limit`` from ``offset``; and how many
    match in all where the ranking query counted them as it went (PostgreSQL, a page with rows), else None."""
    params: list = []
    among = ""  # the filtered articles' ids, a subquery
    if filtered.query.where:
        sub_sql, sub_params = filtered.values("id").query.sql_with_params()
        among = f"IN ({sub_sql})"
        params += list(sub_params)
    if vendor() == "postgresql":
        # The filtered matches' ids and ranks first (a materialised CTE), then the join for the order: ranked
        # in one query with the articles, the plan carried every vector through its sorts and spilled to disk
        # (166 ms for the 5,000 of 100,000 articles holding a word; 45 ms like this). ts_rank, normalised by
        # the length (1 + its log) like bm25: ts_rank_cd was four times as slow.
        sql = (
            f"WITH q AS (SELECT websearch_to_tsquery('{CONFIG}', %s) AS q), "
            f"m AS MATERIALIZED (SELECT d.article_id, ts_rank(d.vector, q.q, 1) AS score "
            f"FROM {DOCS} d, q WHERE d.vector @@ q.q {'AND d.article_id ' + among if among else ''}) "
            f"SELECT m.article_id, m.score, count(*) OVER () FROM m JOIN {ARTICLES} a ON a.id = m.article_id "
            f"ORDER BY m.score DESC, a.collected_at DESC, a.id DESC LIMIT %s OFFSET %s"
        )
        with connection.cursor() as cursor:
            cursor.execute(sql, [to_websearch(parsed), *params, limit, offset])
            return _scored(cursor.fetchall())
    # One full-text query that ranks as it goes: bm25 per match, the filters as a subquery of article ids.
    # CROSS JOIN keeps the full-text table the outer loop: SQLite would otherwise walk the filtered articles
    # and run the full-text query once per article (quadratic; so was a correlated bm25 per article: 13 s
    # for a word in every one of 20,000 articles).
    weights = ", ".join(str(w) for w in SQLITE_WEIGHTS)
    sql = (
        f"SELECT {FTS}.rowid, -bm25({FTS}, {weights}) AS score FROM {FTS} "
        f"CROSS JOIN {ARTICLES} a ON a.id = {FTS}.rowid "
        f"WHERE {FTS} MATCH %s {'AND a.id ' + among if among else ''} "
        f"ORDER BY score DESC, a.collected_at DESC, a.id DESC LIMIT %s OFFSET %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [to_fts5(parsed), *params, limit, offset])
        # No count here: bm25 is refused beside a window function, and ranking in a CTE of its own to count
        # the rows cost more than counting them apart (up to the cap) does.
        return [(pk, float(score)) for pk, score in cursor.fetchall()], None


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
            Left("core_text", HEADLINE_CHARS),
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
