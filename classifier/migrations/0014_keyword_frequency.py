"""The keywords' document frequency (classifier.models.KeywordFrequency), kept by triggers on the keyword index.

Triggers rather than the services: the index is written by ingestion, re-filtering, feature-settings rebuilds,
imports and a deleted article's cascade (Django's collector deletes the rows with its own statement), and by raw
SQL (benchmarks, data migrations); a trigger counts every one of them in the same transaction.

PostgreSQL: one statement-level trigger per operation, with the statement's rows as a transition table, adds
the counts of all its words with one INSERT ... ON CONFLICT DO UPDATE SET cases = cases + n (and subtracts
removed ones with one UPDATE a word): the row lock serializes two transactions changing the same word, so no
count is lost, and the rows are locked in keyword order, so that two single-statement ingestions lock the words
they share in the same order (no deadlock).
SQLite: row triggers (SQLite has no transition tables); its writers are serialized by the database lock.

Explicit statements, kept here as they were when this migration was written (not imported from the app).
"""

from django.db import migrations, models

INDEX = "classifier_casekeyword"
COUNTS = "classifier_keywordfrequency"
NAME = "classifier_keyword_frequency"


# Added words: one upsert, in keyword order. Removed words: one update a word by its primary key, in keyword order
# (a join of the statement's rows with the counts may be planned as a scan of the whole table); a word without a
# row is left alone (its rows were counted nowhere, e.g. a test's flush deleting the counts first).
PG_ADD = (
    f"INSERT INTO {COUNTS} AS f (keyword, cases) SELECT keyword, count(*) FROM keyword_new GROUP BY keyword "
    "ORDER BY keyword ON CONFLICT (keyword) DO UPDATE SET cases = f.cases + EXCLUDED.cases"
)
PG_REMOVE = f"""FOR word, n IN SELECT keyword, count(*) FROM keyword_old GROUP BY keyword ORDER BY keyword LOOP
                UPDATE {COUNTS} SET cases = cases - n WHERE keyword = word;
            END LOOP"""
POSTGRES = [
    f"""CREATE FUNCTION {NAME}_count() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
        word text;
        n bigint;
    BEGIN
        IF TG_OP = 'TRUNCATE' THEN  -- a test's flush, a benchmark's reload: no case holds any word
            DELETE FROM {COUNTS};
            RETURN NULL;
        END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
            {PG_ADD};
        END IF;
        IF TG_OP IN ('DELETE', 'UPDATE') THEN
            {PG_REMOVE};
        END IF;
        RETURN NULL;
    END $$""",
    f"""CREATE TRIGGER {NAME}_insert AFTER INSERT ON {INDEX} REFERENCING NEW TABLE AS keyword_new
        FOR EACH STATEMENT EXECUTE FUNCTION {NAME}_count()""",
    f"""CREATE TRIGGER {NAME}_delete AFTER DELETE ON {INDEX} REFERENCING OLD TABLE AS keyword_old
        FOR EACH STATEMENT EXECUTE FUNCTION {NAME}_count()""",
    f"""CREATE TRIGGER {NAME}_update AFTER UPDATE ON {INDEX}
        REFERENCING OLD TABLE AS keyword_old NEW TABLE AS keyword_new
        FOR EACH STATEMENT EXECUTE FUNCTION {NAME}_count()""",
    f"CREATE TRIGGER {NAME}_truncate AFTER TRUNCATE ON {INDEX} FOR EACH STATEMENT EXECUTE FUNCTION {NAME}_count()",
]
POSTGRES_DROP = [
    *(f"DROP TRIGGER IF EXISTS {NAME}_{op} ON {INDEX}" for op in ("insert", "delete", "update", "truncate")),
    f"DROP FUNCTION IF EXISTS {NAME}_count()",
]


SQLITE_ADD = (
    f"INSERT INTO {COUNTS} (keyword, cases) VALUES (new.keyword, 1) "
    "ON CONFLICT (keyword) DO UPDATE SET cases = cases + 1;"
)
SQLITE_REMOVE = f"UPDATE {COUNTS} SET cases = cases - 1 WHERE keyword = old.keyword;"
SQLITE = [
    f"CREATE TRIGGER {NAME}_insert AFTER INSERT ON {INDEX} BEGIN {SQLITE_ADD} END",
    f"CREATE TRIGGER {NAME}_delete AFTER DELETE ON {INDEX} BEGIN {SQLITE_REMOVE} END",
    f"""CREATE TRIGGER {NAME}_update AFTER UPDATE OF keyword ON {INDEX} WHEN old.keyword <> new.keyword BEGIN
        {SQLITE_REMOVE} {SQLITE_ADD} END""",
]
SQLITE_DROP = [f"DROP TRIGGER IF EXISTS {NAME}_{op}" for op in ("insert", "delete", "update")]

# The counts of the rows already there. On PostgreSQL the triggers were created first, in this transaction:
# CREATE TRIGGER locks the index against writes until the migration commits, so no row is missed or counted twice.
FILL = f"INSERT INTO {COUNTS} (keyword, cases) SELECT keyword, count(*) FROM {INDEX} GROUP BY keyword"


def _tune_postgres(schema_editor):
    """Room on every page for a row's next versions, so that a count's update stays a heap-only update (no new
    index entry: the common words' rows change with nearly every case); and no second index on the keyword
    (Django's varchar_pattern_ops index of a CharField primary key, for LIKE, which nothing asks here)."""
    schema_editor.execute(f"ALTER TABLE {COUNTS} SET (fillfactor = 50)")
    # CreateModel left that index's statement to the end of the migration (the schema editor's deferred SQL)
    schema_editor.deferred_sql = [
        sql for sql in schema_editor.deferred_sql if not (COUNTS in str(sql) and "varchar_pattern_ops" in str(sql))
    ]


def forward(apps, schema_editor):
    postgres = schema_editor.connection.vendor == "postgresql"
    if postgres:
        _tune_postgres(schema_editor)
    for sql in POSTGRES if postgres else SQLITE:
        schema_editor.execute(sql)
    schema_editor.execute(FILL)


def backward(apps, schema_editor):
    for sql in POSTGRES_DROP if schema_editor.connection.vendor == "postgresql" else SQLITE_DROP:
        schema_editor.execute(sql)


class Migration(migrations.Migration):
    dependencies = [
        ("classifier", "0013_case_keyword_primary_key"),
    ]

    operations = [
        migrations.CreateModel(
            name="KeywordFrequency",
            fields=[
                ("keyword", models.CharField(max_length=100, primary_key=True, serialize=False)),
                ("cases", models.IntegerField(default=0)),
            ],
            options={
                "verbose_name_plural": "keyword frequencies",
            },
        ),
        migrations.RunPython(forward, backward),
    ]
