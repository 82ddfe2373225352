"""Full-text facet counts at scale: exact up to a threshold of matches, past it counted on a
deterministic sample of the workspace's entries and scaled, and said so (as Typesense's
`facet_sample_threshold` and Algolia's `exhaustiveFacetsCount` do).

Counting every match of a common word costs as much as finding every match (bench/facets.py:
+21 ms p95 at 100k chunks, and no exact count can do better). The sample is the workspace's
entries in the lowest sample buckets (cms.models.ENTRY_SAMPLE_BUCKET, a hash of the id, so
data written in a pattern, every tenth entry a draft, is not sampled in step): the buckets up
to the one holding its FACET_SAMPLE_ROWS-th entry, whole. Both reads are ranges of one index
(entry_ws_sample: workspace, bucket), so the sample's cost follows its size, never the
workspace's or other workspaces' rows. The same query over the same content gets the same
counts. Each sampled count is scaled by the buckets' share of the hash space
(`meta.facets_sample_rate`). Used only where full-text counts facets in a statement of their
own (the recent scan found the page: a common word); the index plan counts every match in the
statement that finds the page, at no extra search.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cms.models import ENTRY_SAMPLE_BUCKETS
from search.engine.facets import EntryFacetSource, facet_counts_shape, facet_counts_sql
from search.engine.db.statements import search_cursor

# Matches counted exactly: past this many (estimated from the sample), the sample answers, so
# the exact count stays within a few ms (docs/design/facets.md, "Sampled counts past a threshold").
FACET_SAMPLE_THRESHOLD = 500
# Entries of the workspace a sample reads (at least: the cut bucket is read whole).
FACET_SAMPLE_ROWS = 1_000
# The bucket expression of the index entry_ws_sample (cms/models.py), as SQL over `alias`.
_BUCKET_SQL = "(hashint8({alias}.id) & %d)" % (ENTRY_SAMPLE_BUCKETS - 1)


@dataclass(frozen=True)
class SampledFacets:
    counts: dict[str, dict[str, int]]
    rate: float  # the share of the hash space (so, about, of the workspace's entries) the sample read
    estimated_matches: int


def entry_facet_counts_sampled(*, source: EntryFacetSource, workspace_id: int, patterns: Sequence[str]
                               ) -> SampledFacets | None:
    """Counts over the sample of the entries whose search_text matches any LIKE pattern of
    `patterns` (lowercased by PostgreSQL, as full-text's own test), scaled; None when the
    workspace has fewer than FACET_SAMPLE_ROWS entries (the sample would be all of it), or when
    the matches it estimates are within FACET_SAMPLE_THRESHOLD (the caller counts exactly)."""
    # One statement: the cut (the bucket of the workspace's FACET_SAMPLE_ROWS-th entry in bucket
    # order; none in a smaller workspace), the sampled rows that match, their number (-1) and
    # the cut (-2), then the counts.
    rows_sql = (
        "SELECT e.content_type_id AS content_type, e.status AS status, e.data AS fields,"
        f" {source.flags_sql} FROM cms_entry e WHERE e.workspace_id = %s"
        f" AND {_BUCKET_SQL.format(alias='e')} <= (SELECT bucket FROM cut)"
        f" AND {source.visible_sql}"
        " AND e.search_text LIKE ANY (ARRAY(SELECT lower(p) FROM unnest(%s::text[]) AS p))"
    )
    counts_sql, counts_params = facet_counts_sql(source.facets, source_sql="SELECT * FROM matched",
                                                 source_params=[], content_type_ids=True)
    bucket = _BUCKET_SQL.format(alias="w")
    sql = (f"WITH cut AS MATERIALIZED (SELECT {bucket} AS bucket FROM cms_entry w WHERE w.workspace_id = %s"
           f" ORDER BY {bucket} OFFSET %s LIMIT 1),"
           f" matched AS MATERIALIZED ({rows_sql})"
           " SELECT -2, NULL::text, (SELECT bucket FROM cut)::bigint"
           " UNION ALL SELECT -1, NULL::text, count(*) FROM matched"
           f" UNION ALL SELECT c.* FROM ({counts_sql}) AS c")
    params = [workspace_id, FACET_SAMPLE_ROWS - 1, *source.flags_params, workspace_id, *source.visible_params,
              list(patterns), *counts_params]
    with search_cursor() as cursor:
        cursor.execute(sql, params)
        result = cursor.fetchall()
    cut = next(row[2] for row in result if row[0] == -2)
    if cut is None:
        return None
    scale = ENTRY_SAMPLE_BUCKETS / (cut + 1)
    estimated = round(next(row[2] for row in result if row[0] == -1) * scale)
    if estimated <= FACET_SAMPLE_THRESHOLD:
        return None
    scaled = [(index, value, round(count * scale)) for index, value, count in result if index >= 0]
    return SampledFacets(counts=facet_counts_shape(source.facets, scaled), rate=1 / scale,
                         estimated_matches=estimated)


def facets_meta(*, exhaustive: bool, rate: float | None) -> dict[str, Any]:
    """meta.facets_exhaustive, and meta.facets_sample_rate when the counts are a sample's."""
    return {"facets_exhaustive": exhaustive, **({} if exhaustive else {"facets_sample_rate": round(rate or 0, 6)})}
