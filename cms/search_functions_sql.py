"""The SQL text of the functions behind Entry.search_text and Entry.search_grams, for the migrations.

cms migrations 0003, 0005 and 0012 create, replace and put back the same functions, differing
only in how they lowercase (`lower` before folding, `cms_text_fold` since 0012) and in whether
they create or replace. Each function's text is written once here; every migration builds its
SQL from it, byte for byte the SQL it ran when it was written (an applied migration's SQL must
not change: tests/cms/test_search_functions_sql.py pins each by its SHA-256).
Nothing else should import this: the functions in the database are what searches use.
"""

from __future__ import annotations

CREATE = "CREATE FUNCTION"
CREATE_OR_REPLACE = "CREATE OR REPLACE FUNCTION"


def entry_search_text_sql(create: str, lowercase: str) -> str:
    """cms_entry_search_text(data): the string and number values, lowercased by `lowercase`, joined by U+001F."""
    return rf"""{create} cms_entry_search_text(data jsonb) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN {lowercase}(array_to_string(cms_entry_search_values(data), E'\x1F'));
"""


def search_grams_sql(create: str, lowercase: str) -> str:
    """cms_search_grams(value, with_singles): the overlapping character pairs of the lowercased value."""
    return rf"""{create} cms_search_grams(value text, with_singles boolean) RETURNS text[]
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN ARRAY(
        SELECT gram
        FROM (SELECT string_to_array({lowercase}(value), NULL) AS c) AS s,
        LATERAL unnest(s.c, s.c[2:]) AS pairs(ch, next_ch),
        LATERAL (VALUES (CASE WHEN with_singles THEN ch END), (ch || next_ch)) AS grams(gram)
        WHERE gram IS NOT NULL
    );
"""


def search_grams_query_sql(create: str, lowercase: str) -> str:
    """cms_search_grams_query(workspace_id, query) (since 0005): its one character, or all its
    pairs, each as '<workspace id>:<gram>'."""
    return rf"""{create} cms_search_grams_query(workspace_id bigint, query text) RETURNS tsquery
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN (
        SELECT string_agg(
            DISTINCT '''' || replace(replace(workspace_id || ':' || gram, '\', '\\'), '''', '''''') || '''', ' & '
        )
        FROM unnest(
            CASE WHEN char_length(query) = 1 THEN ARRAY[{lowercase}(query)] ELSE cms_search_grams(query, false) END
        ) AS g(gram)
    )::tsquery;
"""


# The functions of 0003, before the grams were keyed by workspace (0005 puts them back on reverse).
def entry_search_grams_unkeyed_sql(create: str) -> str:
    """cms_entry_search_grams(workspace_id, data) of 0003: bare grams and a 'ws:<id>' lexeme."""
    return rf"""{create} cms_entry_search_grams(workspace_id bigint, data jsonb) RETURNS tsvector
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN array_to_tsvector(ARRAY(
        SELECT gram
        FROM unnest(cms_entry_search_values(data)) AS v(value),
        LATERAL unnest(cms_search_grams(v.value, true)) AS g(gram)
    ) || ('ws:' || workspace_id));
"""


SEARCH_WORKSPACE_QUERY_SQL = r"""CREATE FUNCTION cms_search_workspace_query(workspace_id bigint) RETURNS tsquery
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN ('''ws:' || workspace_id || '''')::tsquery;
"""

SEARCH_GRAMS_QUERY_UNKEYED_SQL = r"""CREATE FUNCTION cms_search_grams_query(query text) RETURNS tsquery
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN (
        SELECT string_agg(DISTINCT '''' || replace(replace(gram, '\', '\\'), '''', '''''') || '''', ' & ')
        FROM unnest(
            CASE WHEN char_length(query) = 1 THEN ARRAY[lower(query)] ELSE cms_search_grams(query, false) END
        ) AS g(gram)
    )::tsquery;
"""
