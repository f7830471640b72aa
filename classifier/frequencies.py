"""The keywords' document frequency: how many stored cases hold each word (classifier.models.KeywordFrequency).

Triggers on the keyword index keep the counts (migration 0014 says how); this module reads them, one row a word,
and checks them against a recount of the index, repairing the words that drifted (``manage.py
keyword_frequencies``). A drift would take a write that bypassed the triggers: a restored dump without them, a
table copied by hand, triggers disabled for a bulk load.
"""

# ruff: noqa: S608 - the statements are built from the models' table names; words are bound parameters
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db import connection, transaction

from classifier.models import CaseKeyword, KeywordFrequency

#: words a query: well below SQLite's 32,766 bound parameters and PostgreSQL's 65,535
CHUNK = 5000


def case_frequencies(words: Iterable[str]) -> dict[str, int]:
    """word -> how many stored cases hold it; a word that no case holds is left out. One row read a word."""
    words = sorted(set(words))
    result: dict[str, int] = {}
    for start in range(0, len(words), CHUNK):
        rows = KeywordFrequency.objects.filter(keyword__in=words[start : start + CHUNK], cases__gt=0)
        result.update(rows.values_list("keyword", "cases"))
    return result


@dataclass(frozen=True)
class Drift:
    """A word whose stored count differs from the number of cases the index gives it."""

    keyword: str
    counted: int
    stored: int


def _tables() -> tuple[str, str]:
    quote = connection.ops.quote_name
    return quote(CaseKeyword._meta.db_table), quote(KeywordFrequency._meta.db_table)


def drift(limit: int | None = None) -> list[Drift]:
    """The words whose stored count is not their number of cases in the index (a full recount of the index:
    seconds for millions of rows), in keyword order; a stored 0 for a word no case holds is no drift."""
    index, counts = _tables()
    sql = (
        "SELECT keyword, sum(counted), sum(stored) FROM ("
        f"SELECT keyword, count(*) AS counted, 0 AS stored FROM {index} GROUP BY keyword "
        f"UNION ALL SELECT keyword, 0, cases FROM {counts}"
        ") x GROUP BY keyword HAVING sum(counted) <> sum(stored) ORDER BY keyword"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql + (" LIMIT %s" if limit is not None else ""), [limit] if limit is not None else [])
        return [Drift(keyword, int(counted), int(stored)) for keyword, counted, stored in cursor.fetchall()]


@transaction.atomic
def repair() -> list[Drift]:
    """Set every drifted word's count to its recount and drop the rows of words no case holds any more; returns
    the words repaired. On PostgreSQL the index is locked against writes meanwhile (reads go on), so that no
    ingestion changes a count between the recount and the repair."""
    index, counts = _tables()
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(f"LOCK TABLE {index} IN SHARE MODE")
        found = drift()
        cursor.executemany(
            f"INSERT INTO {counts} (keyword, cases) VALUES (%s, %s) ON CONFLICT (keyword) DO UPDATE SET cases = %s",
            [(d.keyword, d.counted, d.counted) for d in found],
        )
        cursor.execute(f"DELETE FROM {counts} WHERE cases = 0")
    return found
