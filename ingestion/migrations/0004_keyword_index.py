"""The keyword index: postings per chunk and term, BM25 statistics per workspace and term.

Besides the tables (ingestion/models.py), the database itself keeps two promises:

- A chunk's postings go with it: `chunk_id` references ingestion_chunk ON DELETE CASCADE,
  so an entry, content type or workspace deleted by any path takes its postings along.
  The statistics tables reference cms_workspace ON DELETE CASCADE the same way.
- Statistics follow the postings: statement-level triggers (with transition tables) append
  one KeywordStatDelta row per workspace and term for every INSERT or DELETE of postings,
  whatever issued it (ingestion.services.keyword, or a cascade). Postings are never
  UPDATEd (a chunk's are replaced), so no UPDATE trigger is needed.

Existing chunks are indexed at the end (the same service sync uses).
"""

import django.db.models.deletion
from django.db import migrations, models

TRIGGER_SQL = """
ALTER TABLE ingestion_keywordposting ADD CONSTRAINT keyword_posting_chunk_fk
    FOREIGN KEY (chunk_id) REFERENCES ingestion_chunk (id) ON DELETE CASCADE;
ALTER TABLE ingestion_keywordstat ADD CONSTRAINT keyword_stat_workspace_fk
    FOREIGN KEY (workspace_id) REFERENCES cms_workspace (id) ON DELETE CASCADE;
ALTER TABLE ingestion_keywordstatdelta ADD CONSTRAINT keyword_stat_delta_workspace_fk
    FOREIGN KEY (workspace_id) REFERENCES cms_workspace (id) ON DELETE CASCADE;

CREATE FUNCTION ingestion_keyword_postings_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO ingestion_keywordstatdelta (workspace_id, term, df, tf)
    SELECT workspace_id, term, count(*), sum(tf) FROM added GROUP BY workspace_id, term;
    RETURN NULL;
END $$;

CREATE FUNCTION ingestion_keyword_postings_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO ingestion_keywordstatdelta (workspace_id, term, df, tf)
    SELECT workspace_id, term, -count(*), -sum(tf) FROM removed GROUP BY workspace_id, term;
    RETURN NULL;
END $$;

CREATE TRIGGER keyword_postings_added AFTER INSERT ON ingestion_keywordposting
    REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION ingestion_keyword_postings_added();
CREATE TRIGGER keyword_postings_removed AFTER DELETE ON ingestion_keywordposting
    REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION ingestion_keyword_postings_removed();
"""

REVERSE_TRIGGER_SQL = """
DROP TRIGGER IF EXISTS keyword_postings_added ON ingestion_keywordposting;
DROP TRIGGER IF EXISTS keyword_postings_removed ON ingestion_keywordposting;
DROP FUNCTION IF EXISTS ingestion_keyword_postings_added();
DROP FUNCTION IF EXISTS ingestion_keyword_postings_removed();
"""


def index_existing_chunks(apps, schema_editor) -> None:
    from ingestion.services.keyword import keyword_index_missing

    keyword_index_missing()


class Migration(migrations.Migration):

    dependencies = [
        ('cms', '0003_entry_search_columns'),
        ('ingestion', '0003_chunk_retry_at'),
    ]

    operations = [
        migrations.CreateModel(
            name='KeywordStat',
            fields=[
                ('pk', models.CompositePrimaryKey('workspace_id', 'term', blank=True, editable=False, primary_key=True, serialize=False)),
                ('term', models.TextField(db_collation='C')),
                ('df', models.BigIntegerField()),
                ('tf', models.BigIntegerField()),
                ('workspace', models.ForeignKey(db_constraint=False, db_index=False, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='cms.workspace')),
            ],
        ),
        migrations.CreateModel(
            name='KeywordPosting',
            fields=[
                ('pk', models.CompositePrimaryKey('chunk_id', 'term', blank=True, editable=False, primary_key=True, serialize=False)),
                ('term', models.TextField(db_collation='C')),
                ('tf', models.IntegerField()),
                ('length', models.IntegerField()),
                ('impact', models.FloatField()),
                ('chunk', models.ForeignKey(db_constraint=False, db_index=False, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='ingestion.chunk')),
                ('workspace', models.ForeignKey(db_constraint=False, db_index=False, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='cms.workspace')),
            ],
            options={
                'indexes': [models.Index(fields=['workspace', 'term', '-impact'], include=('chunk', 'tf', 'length'), name='keyword_posting_term_impact')],
            },
        ),
        migrations.CreateModel(
            name='KeywordStatDelta',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('term', models.TextField(db_collation='C')),
                ('df', models.BigIntegerField()),
                ('tf', models.BigIntegerField()),
                ('workspace', models.ForeignKey(db_constraint=False, db_index=False, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='cms.workspace')),
            ],
            options={
                'indexes': [models.Index(fields=['workspace', 'term'], name='keyword_stat_delta_term')],
            },
        ),
        migrations.RunSQL(TRIGGER_SQL, REVERSE_TRIGGER_SQL),
        migrations.RunPython(index_existing_chunks, migrations.RunPython.noop),
    ]
