"""PostgreSQL: rows inserted into the classifications add their folders to the article's search_documentfolders
row (a union with the stored ids) instead of recomputing the row from all the article's classifications
(search/backends.py says why it is exact). Deletions and updates still recompute. Nothing on SQLite.

Explicit statements, as they were when this migration was written (not imported from the app)."""

from django.db import migrations

REFRESH = (
    "INSERT INTO search_documentfolders (article_id, folder_ids) SELECT x.article_id, coalesce((SELECT "
    "array_agg(DISTINCT fc.folder_id ORDER BY fc.folder_id) FROM classifier_case fk JOIN classifier_classification "
    "fc ON fc.case_id = fk.id AND fc.state <> 'rejected' WHERE fk.article_id = x.article_id), ARRAY[]::bigint[]) "
    "FROM classifier_case x WHERE x.id = ANY(cases) AND x.article_id IS NOT NULL ON CONFLICT (article_id) DO UPDATE "
    "SET folder_ids = EXCLUDED.folder_ids WHERE search_documentfolders.folder_ids IS DISTINCT FROM EXCLUDED.folder_ids"
)
ADD = (
    "INSERT INTO search_documentfolders AS f (article_id, folder_ids) SELECT c.article_id, "
    "array_agg(DISTINCT n.folder_id ORDER BY n.folder_id) FROM classification_new n JOIN classifier_case c "
    "ON c.id = n.case_id WHERE n.state <> 'rejected' AND c.article_id IS NOT NULL GROUP BY c.article_id "
    "ORDER BY c.article_id ON CONFLICT (article_id) DO UPDATE SET folder_ids = "
    "ARRAY(SELECT DISTINCT x FROM unnest(f.folder_ids || EXCLUDED.folder_ids) x ORDER BY x) "
    "WHERE NOT f.folder_ids @> EXCLUDED.folder_ids"
)
FUNCTION = """CREATE OR REPLACE FUNCTION search_document_folders_refresh() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
        cases bigint[];
    BEGIN
        IF TG_OP = 'INSERT' THEN
            {insert};
        ELSIF TG_OP = 'DELETE' THEN
            SELECT array_agg(DISTINCT case_id) INTO cases FROM classification_old;
        ELSE
            SELECT array_agg(DISTINCT x.case_id) INTO cases FROM (
                SELECT n.case_id, o.case_id AS old_case
                FROM classification_new n JOIN classification_old o ON o.id = n.id
                WHERE (n.case_id, n.folder_id, n.state) IS DISTINCT FROM (o.case_id, o.folder_id, o.state)
            ) changed, LATERAL (VALUES (changed.case_id), (changed.old_case)) x(case_id);
        END IF;
        IF cases IS NULL THEN
            RETURN NULL;
        END IF;
        {refresh};
        RETURN NULL;
    END $$"""
UNION = FUNCTION.format(insert=ADD + ";\n            RETURN NULL", refresh=REFRESH)
RECOMPUTE = FUNCTION.format(
    insert="SELECT array_agg(DISTINCT case_id) INTO cases FROM classification_new", refresh=REFRESH
)


def _run(statement):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(statement)

    return run


class Migration(migrations.Migration):
    dependencies = [("search", "0007_saved_search_state_words")]

    operations = [migrations.RunPython(_run(UNION), _run(RECOMPUTE))]
