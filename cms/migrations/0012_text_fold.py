"""Script-variant folding in the database: `search_text` and the entry grams fold 退貨 to 退货,
りんご to リンゴ, ＡＢＣ to abc (cms/folding.py, the rule the queries are folded with).

`cms_text_fold(text)` is lower() then a lookup of each character in cms.folding's table (a
jsonb constant: translate() with a 5,000-character table cost 36 ms per 400-character row,
this 0.7 ms; ASCII text is only lowercased), one character to one character, so offsets into
`search_text` are still offsets into the values as written.
The functions behind the two generated columns are replaced in place (no table rewrite, no
long lock); the stored values of existing rows are then recomputed batch by batch
(`entries_refold`: `UPDATE ... SET data = data` on 500 rows at a time, each batch its own
transaction), which `manage.py refold` also runs. While it runs, every row is either
still lowercased only (found by a Latin query as before, and by a CJK query written in its
own script) or already folded: nothing is lost and searches keep answering.

The table is frozen here as the migration runs (cms.folding reads cms/fold_t2s.txt); a new
table is a new migration of the same shape.
"""

from django.db import migrations

from cms.folding import fold_sql_map
from cms.refold import entries_refold
from cms.search_functions_sql import CREATE_OR_REPLACE, entry_search_text_sql, search_grams_query_sql, search_grams_sql


def _sql_literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _functions_sql() -> str:
    return (
        rf"""
CREATE OR REPLACE FUNCTION cms_text_fold(value text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN CASE WHEN octet_length(value) = char_length(value) THEN lower(value) ELSE coalesce((
        SELECT string_agg(coalesce(m.fold ->> s.c, s.c), '' ORDER BY s.i)
        FROM (SELECT {_sql_literal(fold_sql_map())}::jsonb AS fold) AS m,
        unnest(string_to_array(lower(value), NULL)) WITH ORDINALITY AS s(c, i)
    ), '') END;
"""
        + "\n"
        + entry_search_text_sql(CREATE_OR_REPLACE, "cms_text_fold")
        + "\n"
        + search_grams_sql(CREATE_OR_REPLACE, "cms_text_fold")
        + "\n"
        + search_grams_query_sql(CREATE_OR_REPLACE, "cms_text_fold")
    )


REVERSE_SQL = (
    "\n"
    + entry_search_text_sql(CREATE_OR_REPLACE, "lower")
    + "\n"
    + search_grams_sql(CREATE_OR_REPLACE, "lower")
    + "\n"
    + search_grams_query_sql(CREATE_OR_REPLACE, "lower")
    + """
DROP FUNCTION IF EXISTS cms_text_fold(text);
"""
)


def _refold(apps, schema_editor):
    # Promotions are keyed by 0014 (phrase_key, which today's promotions_refold writes): that
    # column does not exist yet here.
    entries_refold(using=schema_editor.connection.alias, promotions=False)


class Migration(migrations.Migration):
    # Each batch of the refold commits on its own: no transaction holds the whole table.
    atomic = False

    dependencies = [("cms", "0011_promotion_entry_key")]

    operations = [
        migrations.RunSQL(_functions_sql(), REVERSE_SQL),
        migrations.RunPython(_refold, _refold),
    ]
