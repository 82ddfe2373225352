"""The keyword postings' statement triggers (migration 0004) also run on Citus's shards.

On Citus a trigger fires on a shard of ingestion_keywordposting (a table named
`ingestion_keywordposting_<shard id>` on a worker), and its INSERT into the distributed
ingestion_keywordstatdelta is planned by Citus, which cannot read the trigger's transition
table ("could not find named tuplestore"). There the trigger first reads its transition table
into arrays, with a statement Citus leaves alone, then inserts the arrays: the rows go to the
workspace's delta shard, colocated on the same node. On the table itself (one PostgreSQL) it
does what it did.
"""

from django.db import migrations

FUNCTION = """
CREATE OR REPLACE FUNCTION ingestion_keyword_postings_{name}() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    workspaces bigint[]; terms text[]; dfs bigint[]; tfs bigint[];
BEGIN
    IF TG_TABLE_NAME = 'ingestion_keywordposting' THEN
        INSERT INTO ingestion_keywordstatdelta (workspace_id, term, df, tf)
        SELECT workspace_id, term, {sign}count(*), {sign}sum(tf) FROM {table} GROUP BY workspace_id, term;
        RETURN NULL;
    END IF;
    SELECT array_agg(workspace_id), array_agg(term), array_agg(df), array_agg(tf)
      INTO workspaces, terms, dfs, tfs
      FROM (SELECT workspace_id, term, {sign}count(*) AS df, {sign}sum(tf) AS tf
              FROM {table} GROUP BY workspace_id, term) AS changed;
    IF workspaces IS NOT NULL THEN
        INSERT INTO ingestion_keywordstatdelta (workspace_id, term, df, tf)
        SELECT * FROM unnest(workspaces, terms, dfs, tfs);
    END IF;
    RETURN NULL;
END $$;
"""

PREVIOUS = """
CREATE OR REPLACE FUNCTION ingestion_keyword_postings_{name}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO ingestion_keywordstatdelta (workspace_id, term, df, tf)
    SELECT workspace_id, term, {sign}count(*), {sign}sum(tf) FROM {table} GROUP BY workspace_id, term;
    RETURN NULL;
END $$;
"""

CHANGES = [{"name": "added", "sign": "", "table": "added"}, {"name": "removed", "sign": "-", "table": "removed"}]


class Migration(migrations.Migration):

    dependencies = [
        ("ingestion", "0011_keys_with_workspace"),
    ]

    operations = [
        migrations.RunSQL("".join(FUNCTION.format(**c) for c in CHANGES),
                          "".join(PREVIOUS.format(**c) for c in CHANGES)),
    ]
