"""Full-text facet counts at scale: exact up to a threshold of matches, past it counted on a
deterministic sample of the workspace's entries and scaled, and said so (as Typesense's
`facet_sample_threshold` and Algolia's `exhaustiveFacetsCount` do).

Counting every match of a common word costs as much as finding every match (bench/facets.py:
+21 ms p95 at 100k chunks, and no exact count can do better). The sample is every entry of the
workspace whose id hashes to a multiple of `modulus` (about FACET_SAMPLE_ROWS of them; a hash,
not the id itself, so data written in a period, every tenth entry a draft, is not sampled in step): read from the
workspace's B-tree alone (an index-only scan, the id is in entry_ws_newest), then those rows by
primary key, so its cost follows the sample's size, never other workspaces' rows. The same
query over the same content gets the same counts. Each sampled count is multiplied by the
modulus; `meta.facets_sample_rate` is 1/modulus. Used only where full-text counts facets in a
statement of their own (the recent scan found the page: a common word); the index plan counts
every match in the statement that finds the page, at no extra search.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from search.engine.facets import EntryFacetSource, facet_counts_shape, facet_counts_sql
from search.engine.db.statements import search_cursor

# Matches counted exactly: past this many (estimated from the sample), the sample answers.
FACET_SAMPLE_THRESHOLD = 2_000
# Entries of the workspace a sample reads (about): the modulus is rows / FACET_SAMPLE_ROWS.
FACET_SAMPLE_ROWS = 1_000


@dataclass(frozen=True)
class SampledFacets:
    counts: dict[str, dict[str, int]]
    rate: float  # the share of the workspace's entries the sample read (1/modulus)
    estimated_matches: int


def entry_facet_counts_sampled(*, source: EntryFacetSource, workspace_id: int, patterns: Sequence[str]
                               ) -> SampledFacets | None:
    """Counts over the sample of the entries whose search_text matches any LIKE pattern of
    `patterns` (lowercased by PostgreSQL, as full-text's own test), scaled; None when the
    workspace is small enough for the sample to be all of it, or when the matches it
    estimates are within FACET_SAMPLE_THRESHOLD (the caller counts exactly)."""
    # One statement: the modulus from the workspace's row count (its btree, index-only), the
    # sampled rows that match, their number (-1) and the modulus (-2), then the counts.
    rows_sql = (
        "SELECT e.content_type_id AS content_type, e.status AS status, e.data AS fields,"
        f" {source.flags_sql} FROM (SELECT w.id FROM cms_entry w, n WHERE w.workspace_id = %s"
        " AND (hashint8(w.id) & 2147483647) %% n.modulus = 0 OFFSET 0) AS sampled"
        " JOIN cms_entry e ON e.id = sampled.id AND e.workspace_id = %s"
        f" WHERE {source.visible_sql}"
        " AND e.search_text LIKE ANY (ARRAY(SELECT lower(p) FROM unnest(%s::text[]) AS p))"
    )
    counts_sql, counts_params = facet_counts_sql(source.facets, source_sql="SELECT * FROM matched",
                                                 source_params=[], content_type_ids=True)
    sql = ("WITH n AS MATERIALIZED (SELECT greatest(1, ceil(count(*) / %s::float8))::int AS modulus"
           " FROM cms_entry w WHERE w.workspace_id = %s),"
           f" matched AS MATERIALIZED ({rows_sql})"
           " SELECT -2, NULL::text, (SELECT modulus FROM n)::bigint"
           " UNION ALL SELECT -1, NULL::text, count(*) FROM matched"
           f" UNION ALL SELECT c.* FROM ({counts_sql}) AS c")
    params = [FACET_SAMPLE_ROWS, workspace_id, *source.flags_params, workspace_id, workspace_id,
              *source.visible_params, list(patterns), *counts_params]
    with search_cursor() as cursor:
        cursor.execute(sql, params)
        result = cursor.fetchall()
    modulus = next(row[2] for row in result if row[0] == -2)
    sampled_matches = next(row[2] for row in result if row[0] == -1)
    estimated = sampled_matches * modulus
    if estimated <= FACET_SAMPLE_THRESHOLD:
        return None
    scaled = [(index, value, count * modulus) for index, value, count in result if index >= 0]
    return SampledFacets(counts=facet_counts_shape(source.facets, scaled), rate=1 / modulus,
                         estimated_matches=estimated)


def facets_meta(*, exhaustive: bool, rate: float | None) -> dict[str, Any]:
    """meta.facets_exhaustive, and meta.facets_sample_rate when the counts are a sample's."""
    return {"facets_exhaustive": exhaustive, **({} if exhaustive else {"facets_sample_rate": round(rate or 0, 6)})}
