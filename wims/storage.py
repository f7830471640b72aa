"""How many bytes WIMS stores, by table, and per stored article: what the retention policy bounds
(docs/operations.md, Storage) and what a capacity plan starts from.

PostgreSQL: ``pg_total_relation_size`` (the table, its indexes and its TOAST). SQLite: the ``dbstat`` virtual
table (pages of each table and of its indexes; the full-text index's shadow tables counted under it).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection

from monitor.models import Article


@dataclass(frozen=True)
class TableSize:
    table: str
    rows: int
    bytes: int


@dataclass(frozen=True)
class Storage:
    articles: int
    tables: list[TableSize]

    @property
    def total(self) -> int:
        return sum(t.bytes for t in self.tables)

    def per_article(self, size: int) -> float:
        return size / self.articles if self.articles else 0.0


def _sizes() -> dict[str, int]:
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT c.relname, pg_total_relation_size(c.oid) FROM pg_class c "
                "JOIN pg_namespace n ON n.oid = c.relnamespace "
                "WHERE c.relkind = 'r' AND n.nspname = current_schema()"
            )
            return dict(cursor.fetchall())
        cursor.execute(
            "SELECT coalesce(m.tbl_name, s.name), sum(s.pgsize) FROM dbstat s "
            "LEFT JOIN sqlite_master m ON m.name = s.name GROUP BY 1"
        )
        sizes: dict[str, int] = {}
        for name, size in cursor.fetchall():
            owner = name.rsplit("_", 1)[0] if name.startswith("search_fts_") else name  # FTS5 shadow tables
            sizes[owner] = sizes.get(owner, 0) + int(size or 0)
        return sizes


def measure(smallest: int = 1) -> Storage:
    """Every table of at least ``smallest`` bytes with its row count and size, largest first."""
    quote = connection.ops.quote_name
    tables = []
    with connection.cursor() as cursor:
        for table, size in _sizes().items():
            if size < smallest or table.startswith(("sqlite_", "django_migrations")):
                continue
            cursor.execute(f"SELECT count(*) FROM {quote(table)}")  # noqa: S608 - a table name from the catalogue
            tables.append(TableSize(table, cursor.fetchone()[0], int(size)))
    tables.sort(key=lambda t: -t.bytes)
    return Storage(Article.objects.count(), tables)


def as_markdown(storage: Storage, top: int = 12) -> str:
    lines = [
        f"{storage.articles:,} articles, {storage.total / 1e6:.1f} MB in all, "
        f"{storage.per_article(storage.total) / 1024:.1f} KB per article",
        "",
        "| table | rows | MB | KB per article |",
        "|---|---:|---:|---:|",
    ]
    lines += [
        f"| {t.table} | {t.rows:,} | {t.bytes / 1e6:.2f} | {storage.per_article(t.bytes) / 1024:.2f} |"
        for t in storage.tables[:top]
    ]
    return "\n".join(lines)
