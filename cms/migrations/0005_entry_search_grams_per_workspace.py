"""Entry grams keyed by workspace, so that a full-text search reads nothing of other tenants.

Before: `search_grams` held bare grams ('ab') plus a 'ws:<id>' lexeme, and a trigram GIN
on `search_text` spanned every workspace. A GIN posting list then held the rows of every
workspace with that gram; intersecting with 'ws:<id>' inside the scan still read all of it
(a workspace's rows are spread over the whole table, so no page of the list is skipped),
and a term common in other workspaces cost in proportion to their data
(bench/tenancy_cost.py: +75-85% pages each time the other tenants' data doubled).

After: every lexeme is '<workspace id>:<gram>', so a posting list holds one workspace's rows
and a search reads only its own workspace's lists and rows. Other tenants' data only adds
keys to the GIN entry tree, one level per ~hundredfold growth. The trigram index is dropped:
the gram index now serves every query the recent scan does not settle, within one workspace,
and the two global indexes took about as much space as this one (bench: 251 MB against
271 MB at 200k entries).

The column is dropped and added again (a table rewrite) so that every row is recomputed
with the new function. Pending-list inserts (GIN `fastupdate`) are off on the new index:
every search would read the whole pending list, which holds other workspaces' new rows.
"""

from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVectorField
from django.db import migrations, models

from cms.search_functions_sql import (
    CREATE,
    CREATE_OR_REPLACE,
    SEARCH_GRAMS_QUERY_UNKEYED_SQL,
    SEARCH_WORKSPACE_QUERY_SQL,
    entry_search_grams_unkeyed_sql,
    search_grams_query_sql,
)

FUNCTIONS_SQL = (
    """
DROP FUNCTION IF EXISTS cms_search_grams_query(text);
DROP FUNCTION IF EXISTS cms_search_workspace_query(bigint);

-- Every character and overlapping character pair of each value, as '<workspace id>:<gram>'.
CREATE OR REPLACE FUNCTION cms_entry_search_grams(workspace_id bigint, data jsonb) RETURNS tsvector
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN array_to_tsvector(ARRAY(
        SELECT workspace_id || ':' || gram
        FROM unnest(cms_entry_search_values(data)) AS v(value),
        LATERAL unnest(cms_search_grams(v.value, true)) AS g(gram)
    ));

-- The tsquery a query of any length must satisfy in one workspace: its one character, or
-- all its pairs, each as '<workspace id>:<gram>'.
"""
    + search_grams_query_sql(CREATE, "lower")
)

REVERSE_FUNCTIONS_SQL = (
    """
DROP FUNCTION IF EXISTS cms_search_grams_query(bigint, text);

"""
    + entry_search_grams_unkeyed_sql(CREATE_OR_REPLACE)
    + "\n"
    + SEARCH_WORKSPACE_QUERY_SQL
    + "\n"
    + SEARCH_GRAMS_QUERY_UNKEYED_SQL
)


def _search_grams_field() -> models.GeneratedField:
    return models.GeneratedField(
        db_persist=True,
        expression=models.Func(models.F("workspace"), models.F("data"), function="cms_entry_search_grams",
                               output_field=SearchVectorField()),
        output_field=SearchVectorField(),
    )


class Migration(migrations.Migration):
    dependencies = [("cms", "0004_api_key")]

    operations = [
        migrations.RemoveIndex(model_name="entry", name="entry_search_text_trgm"),
        migrations.RemoveIndex(model_name="entry", name="entry_search_grams"),
        migrations.RemoveField(model_name="entry", name="search_grams"),
        migrations.RunSQL(FUNCTIONS_SQL, REVERSE_FUNCTIONS_SQL),
        migrations.AddField(model_name="entry", name="search_grams", field=_search_grams_field()),
        # As in 0003: the grams are read only through their index, so they go out of line.
        migrations.RunSQL(
            "ALTER TABLE cms_entry ALTER COLUMN search_grams SET STORAGE EXTERNAL",
            "ALTER TABLE cms_entry ALTER COLUMN search_grams SET STORAGE EXTENDED",
        ),
        migrations.AddIndex(
            model_name="entry",
            index=GinIndex(fields=["search_grams"], name="entry_search_grams", fastupdate=False),
        ),
    ]
