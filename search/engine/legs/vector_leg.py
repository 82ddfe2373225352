"""The vector leg of every chunk search: the SQL that ranks one workspace's chunks by their vectors.

See search/engine/semantic.py's docstring for how a query runs; hybrid search (search/engine/hybrid.py)
runs the same candidates beside the keyword leg.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

from django.db import connection

from cms.citus_mode import same_workspace, workspace_named, workspace_param
from ingestion.models import ChunkStatus
from ingestion.selectors import workspace_length_sql
from search.contract.results import ChunkHit, json_object
from search.engine.filters.compile import CompiledFilter
from search.engine.db.statements import SearchCursor, search_cursor
from search.engine.legs.exact import EXACT_MAX_ROWS

# The HNSW candidate list size when the caller gives none: the cheapest whose recall@10 is
# above 0.95 (docs/design/vectors.md, "The walk's settings").
DEFAULT_EF_SEARCH = 100
# How many index tuples an iterative scan may visit before it gives up, and how many times
# work_mem its candidate lists may use: above pgvector's defaults, so that selective filters do
# not end the walk early (docs/design/vectors.md, "The walk's settings").
MAX_SCAN_TUPLES = 50_000
SCAN_MEM_MULTIPLIER = 4
# EXACT_MAX_ROWS (search/engine/legs/exact.py): at most that many matching rows are ranked exactly,
# every distance computed, instead of walked; why, and what it costs: docs/design/vectors.md, "Selective filters".


# Which plan ranked a vector leg's rows (VectorHits.plan; meta.vector_plan, hybrid's meta.legs.semantic.plan):
# the exact plan of a small matching set, the HNSW walk, or the walk and then every matching row
# ranked because the walk came back short (vector_fallback_sql).
PLAN_EXACT = "exact"
PLAN_WALK = "walk"
PLAN_WALK_SHORT = "walk_short_exact"


class VectorHits(list):
    """vector_candidates' hits, best first, and `plan`: which plan ranked them (PLAN_*)."""

    plan: str = PLAN_WALK


def vector_literal(vector: list[float]) -> str:
    return "[" + ",".join(repr(float(x)) for x in vector) + "]"


def vector_candidates_sql(*, dimensions: int, where_sql: str, include_vectors: bool, bounded: bool,
                          centroid: bool = False) -> str:
    """The SQL of the HNSW walk (see the module docstring); `dimensions` is trusted config.

    The inner ORDER BY is the index expression, so the planner walks the index; relaxed_order
    may return rows slightly out of order, and the outer ORDER BY over the LIMIT rows restores
    it. The walk alone: when it comes back short, vector_candidates ranks the matching rows
    exactly in a second statement (vector_fallback_sql). That fallback had been a gated CTE of
    this statement, planned (and its vector parsed twice more) on every search.
    """
    return _ranked_sql(dimensions=dimensions, where_sql=where_sql, include_vectors=include_vectors, bounded=bounded,
                       centroid=centroid, exact=False)


def vector_fallback_sql(*, dimensions: int, where_sql: str, include_vectors: bool, bounded: bool,
                        centroid: bool = False) -> str:
    """Every matching row's distance, top-N sorted, no index (`+ 0` keeps it out): what answers
    when the walk came back short. An HNSW graph can miss live rows (iterative scans stop at
    hnsw.max_scan_tuples; deleted and vacuumed elements can cut paths between live ones), and the
    promise is top_k rows whenever that many match. Same parameters as vector_candidates_sql."""
    return _ranked_sql(dimensions=dimensions, where_sql=where_sql, include_vectors=include_vectors, bounded=bounded,
                       centroid=centroid, exact=True)


def _ranked_sql(*, dimensions: int, where_sql: str, include_vectors: bool, bounded: bool, centroid: bool,
                exact: bool) -> str:
    """The matching rows nearest first, LIMIT %s: by the HNSW walk, or (`exact`) every distance
    computed, `+ 0` keeping the index out and the id breaking ties."""
    dims = int(dimensions)
    distance = f"(v.embedding::vector({dims})) <=> %s::vector({dims})"
    columns = _columns(distance, include_vectors, centroid_column(dims) if centroid else "")
    order = f"({distance}) + 0, c.id" if exact else distance
    return (
        f"SELECT * FROM (SELECT {columns}, {'true' if exact else 'false'} AS exact{matching_sql(where_sql=where_sql)}"
        f" ORDER BY {order} LIMIT %s) AS {'ranked' if exact else 'walk'}"
        + (" WHERE distance <= %s" if bounded else "")
        + " ORDER BY distance, id"
    )


def matching_sql(*, where_sql: str) -> str:
    """The rows a vector search ranks: the workspace's chunks with a vector of the model that
    pass `where_sql` (placeholders: workspace id, model, the filter's parameters)."""
    # Joined on the id alone: a second join column (the hash) makes the planner estimate one
    # matching row, and it then ranks every row instead of walking the index (1.3 s at 100k
    # chunks). No vector of an older text exists to join: sync deletes a chunk's vectors with
    # its edit, and a store that races the edit skips it (services/vectors.py).
    return (
        f" FROM ingestion_chunkvector v JOIN ingestion_chunk c ON c.id = v.chunk_id{same_workspace('c', 'v')}"
        " WHERE v.workspace_id = %s AND v.model = %s"
        f" AND {where_sql}"
    )


def vector_exact_sql(*, dimensions: int, where_sql: str, include_vectors: bool, bounded: bool,
                     centroid: bool = False) -> str:
    """The plan for a small matching set (EXACT_MAX_ROWS), in one scan: the ids of the chunks
    passing the filter, listed up to EXACT_MAX_ROWS + 1; if no more than EXACT_MAX_ROWS, their
    vectors' distances, every one computed once, top-N sorted, no index (the distances are a
    subquery's column, kept from being flattened, so the HNSW index cannot serve the ORDER
    BY); only the top N then read their chunk rows. The first column, `matching`, is how
    many were listed; above the bound no row is ranked (one row with `matching` and NULLs),
    and the caller walks the index instead.

    Each distance is computed once, and no chunk row is read before the sort: written as one
    join sorted by `distance + 0`, a 1%-of-100k filter (994 rows) computed every distance
    twice (select list and sort key) and read 994 chunk rows, 17 ms instead of ~7."""
    dims = int(dimensions)
    distance = f"(v.embedding::vector({dims})) <=> %s::vector({dims})"
    return (
        "WITH f AS MATERIALIZED (SELECT c.id FROM ingestion_chunk c WHERE c.workspace_id = %s"
        f" AND {where_sql} LIMIT %s),"
        f" d AS (SELECT * FROM (SELECT v.chunk_id, {distance} AS distance"
        + (", v.embedding" if include_vectors else "") + (centroid_column(dims) if centroid else "")
        + " FROM f JOIN ingestion_chunkvector v ON v.chunk_id = f.id AND v.model = %s AND v.workspace_id = %s"
        " WHERE (SELECT count(*) FROM f) <= %s OFFSET 0) AS s"
        + (" WHERE s.distance <= %s" if bounded else "")
        + " ORDER BY s.distance, s.chunk_id LIMIT %s),"
        " r AS (SELECT c.id, c.text, c.title, c.field, c.ordinal, c.source_kind, c.entry_id, c.asset_id, c.metadata,"
        " d.distance" + (", d.embedding::real[] AS vector" if include_vectors else "")
        + (", d.passage_background" if centroid else "")
        + ", false AS exact, true AS exact_plan FROM d JOIN ingestion_chunk c ON c.id = d.chunk_id"
        + workspace_named("c") + ")"
        " SELECT (SELECT count(*) FROM f) AS matching, r.* FROM (SELECT 1) one LEFT JOIN r ON true"
        " ORDER BY r.distance, r.id"
    )


def vector_exact_params(*, vector_text: str, workspace_id: int, model_name: str, where: CompiledFilter,
                        limit: int, max_distance: float | None,
                        centroid: tuple[Any, ...] | None = None) -> list[Any]:
    params: list[Any] = [workspace_id, *where.params, EXACT_MAX_ROWS + 1,
                         vector_text, *(centroid or ()), model_name, workspace_id, EXACT_MAX_ROWS]
    if max_distance is not None:
        params.append(max_distance)
    return params + [limit, *workspace_param(workspace_id)]


def _columns(distance: str, include_vectors: bool, extra: str = "") -> str:
    return (
        "c.id, c.text, c.title, c.field, c.ordinal, c.source_kind, c.entry_id, c.asset_id, c.metadata,"
        f" {distance} AS distance" + (", v.embedding::real[] AS vector" if include_vectors else "") + extra
    )


def centroid_column(dimensions: int) -> str:
    """The select-list column `passage_background` of a row of `v` (ingestion_chunkvector): its
    vector's mean cosine similarity to a set of unit vectors, as the cosine to their mean times
    that mean's length (the mean of dot products with unit vectors is the dot product with their
    mean). Placeholders: the mean (a vector literal), its length (centroid_params)."""
    dims = int(dimensions)
    return f", (1 - ((v.embedding::vector({dims})) <=> %s::vector({dims}))) * %s AS passage_background"


@functools.lru_cache(maxsize=8)
def centroid_params(centroid: tuple[float, ...] | None) -> tuple[Any, ...] | None:
    """centroid_column's parameters for `centroid` (the mean of the unit vectors; None: no column),
    once per centroid."""
    if centroid is None:
        return None
    return vector_literal(list(centroid)), math.sqrt(sum(float(x) * float(x) for x in centroid))


def vector_candidates_params(*, vector_text: str, workspace_id: int, model_name: str, where: CompiledFilter,
                             limit: int, max_distance: float | None,
                             centroid: tuple[Any, ...] | None = None) -> list[Any]:
    """Parameters for vector_candidates_sql (and vector_fallback_sql), in placeholder order."""
    params: list[Any] = [vector_text, *(centroid or ()), workspace_id, model_name, *where.params, vector_text, limit]
    if max_distance is not None:
        params.append(max_distance)
    return params


def search_settings(ef_search: int) -> dict[str, str]:
    """The HNSW walk's settings, for the search's transaction (SearchCursor.settings_set: SET LOCAL,
    on Citus on the workers too)."""
    return {
        "hnsw.ef_search": str(int(ef_search)),
        "hnsw.iterative_scan": "relaxed_order",
        "hnsw.max_scan_tuples": str(MAX_SCAN_TUPLES),
        "hnsw.scan_mem_multiplier": str(SCAN_MEM_MULTIPLIER),
        # A ranking of every matching row (the exact plan, the walk's fallback) would otherwise be
        # planned as a parallel Gather, whose workers cost ~10 ms to launch.
        "max_parallel_workers_per_gather": "0",
    }


def vector_candidates(
    *,
    workspace_id: int,
    model_name: str,
    dimensions: int,
    query_vector: list[float],
    limit: int,
    where: CompiledFilter,
    ef_search: int,
    max_distance: float | None = None,
    include_vectors: bool = False,
    workspace_chunks: int | None = None,
    centroid: tuple[float, ...] | None = None,
    background: float | None = None,
) -> VectorHits:
    """The nearest chunks of one workspace by their current vectors of one model, ranked by cosine distance.

    At most EXACT_MAX_ROWS matching rows are ranked exactly (every distance computed);
    more are ranked by the HNSW walk (and exactly when it comes back short, vector_fallback_sql).
    `workspace_chunks`: the workspace's chunk count, when the caller has read it already (the
    keyword leg of hybrid search has), so an unfiltered search does not read it again.
    `centroid`: the mean of a set of unit vectors; each hit then carries its vector's mean cosine
    to them (`passage_background`, centroid_column), which the confidence reads. `background`:
    the query's background (search/engine/confidence.py), set on each hit as it is made rather
    than in a copy of each.
    """
    vector_text = vector_literal(query_vector)
    centroid_values = centroid_params(centroid)
    bounded = max_distance is not None

    def ranked(cursor: SearchCursor, plan_sql: Callable[..., str], plan_params: Callable[..., list[Any]],
               bound: float | None = max_distance) -> list[dict]:
        """The rows of one plan (exact, walk, fallback): all take the same arguments."""
        cursor.execute(plan_sql(dimensions=dimensions, where_sql=where.sql, include_vectors=include_vectors,
                                bounded=bound is not None, centroid=centroid is not None),
                       plan_params(vector_text=vector_text, workspace_id=workspace_id, model_name=model_name,
                                   where=where, limit=limit, max_distance=bound, centroid=centroid_values))
        return cursor.fetchall_dicts()

    every_chunk_passes = where.sql == "TRUE"
    # How many rows match at least, where a count is at hand: the workspace's chunks when every
    # chunk passes; over EXACT_MAX_ROWS when the exact plan's list ran past its bound.
    matching_least: int | None = None
    with search_cursor(atomic=True) as cursor:  # the HNSW settings hold for the whole transaction
        if every_chunk_passes and workspace_chunks is not None:
            cursor.settings_set(search_settings(ef_search))
            matching_least = workspace_chunks
        elif every_chunk_passes:
            length_sql, length_params = workspace_length_sql(workspace_id=workspace_id)
            cursor.execute(f"SELECT (SELECT coalesce(w.chunks, 0) FROM ({length_sql}) AS w(chunks, total))",
                           length_params, transaction_settings=search_settings(ef_search))
            matching_least = int(cursor.fetchone()[-1])
        else:
            cursor.settings_set(search_settings(ef_search))
        too_many = matching_least is not None and matching_least > EXACT_MAX_ROWS
        rows: list[dict] = []
        exact_done = False
        if EXACT_MAX_ROWS > 0 and not too_many:
            rows = ranked(cursor, vector_exact_sql, vector_exact_params)
            exact_done = bool(rows) and rows[0]["matching"] <= EXACT_MAX_ROWS
            if not exact_done and rows:
                matching_least = int(rows[0]["matching"])
            rows = [row for row in rows if row["id"] is not None]
        walk_short = False
        if not exact_done:
            # min_score is applied here, not in the walk's SQL: how many rows the walk gave says
            # whether it came back short, which is so only when fewer than `limit` came back and
            # fewer than are known to match (a walk that returned every matching row is not).
            rows = ranked(cursor, vector_candidates_sql, vector_candidates_params, bound=None)
            needed = limit if matching_least is None else max(1, min(limit, matching_least))
            walk_short = len(rows) < needed
            if walk_short:
                rows = ranked(cursor, vector_fallback_sql, vector_candidates_params)
            elif bounded:
                rows = [row for row in rows if row["distance"] <= max_distance]
    hits = VectorHits(
        ChunkHit(
            id=row["id"],
            score=1.0 - float(row["distance"]),
            text=row["text"],
            title=row["title"],
            field=row["field"],
            ordinal=row["ordinal"],
            source_kind=row["source_kind"],
            entry_id=row["entry_id"],
            asset_id=row["asset_id"],
            metadata=json_object(row["metadata"]),
            vector=[float(x) for x in row["vector"]] if include_vectors and row.get("vector") is not None else None,
            exact=bool(row["exact"]),
            exact_plan=bool(row.get("exact_plan")),
            passage_background=float(row["passage_background"]) if centroid is not None else None,
            background=background,
        )
        for row in rows
    )
    hits.plan = PLAN_EXACT if exact_done else PLAN_WALK_SHORT if walk_short else PLAN_WALK
    return hits


def chunks_pending_count(*, workspace_id: int, visible: CompiledFilter | None = None) -> int:
    """Chunks of the workspace still waiting for a vector of some model it wants (served by
    chunk_ws_status); while a model switch runs, that includes the target's backlog. Only
    those passing `visible` (alias `c`; search.engine.filters.visibility.caller_visibility): a published-only
    caller is not told that drafts are being written."""
    scope = CompiledFilter("TRUE", []) if visible is None else visible
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT count(*) FROM ingestion_chunk c WHERE c.workspace_id = %s AND c.status = %s AND {scope.sql}",
            [workspace_id, ChunkStatus.PENDING, *scope.params],
        )
        return int(cursor.fetchone()[0])
