"""The keyword leg's BM25 index: each chunk's terms as one text, and a pg_textsearch index on it.

- `ingestion_keywordtext` (ingestion.models.KeywordText), filled here from the postings (a
  chunk's terms, each repeated tf times, guarded as ingestion.keywords.bm25_index_term guards
  them: one INSERT ... SELECT grouped by chunk, so no text is tokenized again), then written beside the postings by ingestion.services.keyword. Its rows
  go with their chunk (ON DELETE CASCADE, as the postings').
- The `bm25` index on it, built with CREATE INDEX CONCURRENTLY (the migration is not atomic):
  searches and ingestion go on while it builds. Only where the server has pg_textsearch and
  preloads it; elsewhere the migration says so and the keyword leg stays on the postings
  (SEARCH_KEYWORD_INDEX, docs/operators.md "The keyword index"). `manage.py keyword_bm25_index`
  builds it later, once the server has it.
"""

import sys

import django.db.models.deletion
from django.db import migrations, models

BACKFILL_SQL = """
INSERT INTO ingestion_keywordtext (chunk_id, workspace_id, terms)
SELECT chunk_id, workspace_id,
       string_agg(repeat(CASE WHEN term ~ '^[a-z0-9]+$' AND term !~ '^[0-9]+e[0-9]' THEN term
                              ELSE ingestion_bm25_index_term(term) END || ' ', tf), '' ORDER BY term)
FROM ingestion_keywordposting WHERE term <> ''
GROUP BY chunk_id, workspace_id
ON CONFLICT DO NOTHING
"""
# ingestion.keywords.bm25_index_term in SQL, for the backfill only (dropped after it);
# tests/ingestion/test_keyword_text.py checks that the two agree.
INDEX_TERM_FUNCTION = """
CREATE OR REPLACE FUNCTION ingestion_bm25_index_term(term text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN guarded ~ '^[0-9]+e[0-9]' THEN 'º' || guarded ELSE guarded END FROM (
        SELECT coalesce(string_agg(CASE WHEN strpos('abcdefghijklmnopqrstuvwxyz0123456789', c) > 0 THEN c
                                        ELSE 'ª' || lpad(to_hex(ascii(c)), 6, '0') END, '' ORDER BY i), '') AS guarded
        FROM unnest(string_to_array(term, NULL)) WITH ORDINALITY AS t(c, i)) g
$$
"""


def build_index(apps, schema_editor) -> None:
    from ingestion.services.keyword_bm25 import keyword_bm25_index_build

    outcome = keyword_bm25_index_build(connection=schema_editor.connection)
    sys.stdout.write(f"\n  {outcome}")


def drop_index(apps, schema_editor) -> None:
    schema_editor.execute("DROP INDEX CONCURRENTLY IF EXISTS ingestion_keywordtext_bm25")


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ("cms", "0015_entry_ws_sample"),
        ("ingestion", "0016_worker_heartbeat"),
    ]

    operations = [
        migrations.CreateModel(
            name="KeywordText",
            fields=[
                ("pk", models.CompositePrimaryKey("chunk_id", "workspace_id", blank=True, editable=False,
                                                  primary_key=True, serialize=False)),
                ("terms", models.TextField()),
                ("chunk", models.ForeignKey(db_constraint=False, db_index=False,
                                            on_delete=django.db.models.deletion.DO_NOTHING, related_name="+",
                                            to="ingestion.chunk")),
                ("workspace", models.ForeignKey(db_constraint=False, db_index=False,
                                                on_delete=django.db.models.deletion.DO_NOTHING, related_name="+",
                                                to="cms.workspace")),
            ],
            options={"indexes": [models.Index(fields=["workspace"], name="keyword_text_workspace")]},
        ),
        migrations.RunSQL(
            "ALTER TABLE ingestion_keywordtext ADD CONSTRAINT keyword_text_chunk_fk FOREIGN KEY (chunk_id, workspace_id)"
            " REFERENCES ingestion_chunk (id, workspace_id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED",
            "ALTER TABLE ingestion_keywordtext DROP CONSTRAINT IF EXISTS keyword_text_chunk_fk",
        ),
        migrations.RunSQL(INDEX_TERM_FUNCTION, migrations.RunSQL.noop),
        migrations.RunSQL(BACKFILL_SQL, migrations.RunSQL.noop),
        migrations.RunSQL("DROP FUNCTION ingestion_bm25_index_term(text)", migrations.RunSQL.noop),
        migrations.RunPython(build_index, drop_index),
    ]
