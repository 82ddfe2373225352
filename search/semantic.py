"""The vector search over chunks: one function, `semantic_search`, behind the API, the CLI and agents.

How a query runs (the SQL is built in `_vector_candidates`):

    SELECT set_config('hnsw.ef_search', ..., true), set_config('hnsw.iterative_scan', 'relaxed_order', true), ...
    WITH candidates AS MATERIALIZED (
        SELECT c.id, ..., (v.embedding::vector(N)) <=> %s::vector(N) AS distance
        FROM ingestion_chunkvector v JOIN ingestion_chunk c ON c.id = v.chunk_id
        WHERE v.workspace_id = %s AND v.model = <the workspace's active model>
          AND <content type> AND (<compiled metadata filter>)
        ORDER BY (v.embedding::vector(N)) <=> %s::vector(N)
        LIMIT top_k),
    exact AS MATERIALIZED (<the same rows, ranked without the index, only if candidates is short>)
    SELECT * FROM <candidates, or exact if candidates is short>
    WHERE distance <= <1 - min_score> ORDER BY distance, id

- The inner ORDER BY is exactly the expression of the per-model partial HNSW index
  (ingestion/migrations/0006) and the model predicate matches the index's WHERE, so the
  planner can walk the index. One search reads one model's vectors: the workspace's active
  model, read once per search (ingestion.selectors.embedding_models), which also embeds the
  query; a model switch flips it in one transaction, so no search mixes two models. A
  vector made from an older text of its chunk (the hash differs) is never served. Ordering by `1 - distance` (a score) would force a full sort.
- With a filter (the workspace is always one), plain HNSW returns at most `ef_search`
  candidates *before* filtering, so a selective filter used to come back short. pgvector
  0.8's `hnsw.iterative_scan = relaxed_order`, set per transaction with set_config(..., true),
  keeps scanning until LIMIT rows pass the filter (bounded by `hnsw.max_scan_tuples`).
  relaxed_order may return rows slightly out of order; the outer ORDER BY over the few
  materialised rows restores the exact order.
- If the index walk comes back with fewer than top_k rows, the same statement ranks the
  matching rows exactly instead (a gated second CTE; see `vector_candidates_sql`), so a
  graph that lost paths to live rows never shortens an answer.
- `min_score` is applied on the materialised top_k, so it can only drop rows and never
  changes the inner ORDER BY the index serves.

Hybrid search (search/hybrid.py) runs `_vector_candidates` beside the keyword leg
(search/keyword.py) and fuses the two rankings into the same `SearchResult`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django.db import connection

from cms.access import WorkspaceAccess
from cms.models import Workspace
from cms.selectors import content_type_schemas
from ingestion.models import ChunkStatus
from ingestion.embeddings import EmbeddingNotConfigured, EmbeddingProviderError
from ingestion.selectors import embedding_backend_active
from ingestion.services import query_embed
from search.chunk_filters import chunk_filter_compile, chunk_filter_needs_schemas
from search.errors import SearchError, SearchInputError
from search.filters import CompiledFilter
from search.statements import search_cursor

DEFAULT_TOP_K = 10
MAX_TOP_K = 100
MAX_QUERY_CHARS = 2000
MIN_EF_SEARCH = 10
MAX_EF_SEARCH = 1000
# The HNSW candidate list size when the caller gives none. bench/semantic.py at 100k chunks
# (m=16, ef_construction=64): ef 40 -> recall@10 0.92 (4.0 ms p50), 100 -> 0.98 (5.1 ms),
# 200 -> 0.99 (7.8 ms) against exact search. 100 is the cheapest value above 0.95.
DEFAULT_EF_SEARCH = 100
# How many index tuples an iterative scan may visit before it gives up (pgvector's default
# is 20,000), and how many times work_mem its candidate lists may use (default 1; 512-dim
# elements fill 4 MB after ~2,000 visits). Higher keeps selective filters from ending the
# walk early, at some latency; a walk that still ends short falls back to exact ranking.
MAX_SCAN_TUPLES = 50_000
SCAN_MEM_MULTIPLIER = 4


class SemanticSearchError(SearchError):
    """A semantic search that cannot run as asked: bad input (400) or no usable provider (503)."""


@dataclass(frozen=True)
class ChunkHit:
    """One ranked chunk. `score` is cosine similarity (1 = identical direction)."""

    id: int
    score: float
    text: str
    title: str
    field: str
    ordinal: int
    source_kind: str
    entry_id: int | None
    asset_id: int | None
    metadata: dict
    vector: list[float] | None = None
    # Ranked by the exact fallback rather than the HNSW walk (see vector_candidates_sql).
    exact: bool = False
    # Hybrid search: each leg's score and rank for this chunk (search.hybrid); None elsewhere.
    legs: dict[str, dict[str, Any]] | None = None

    def as_source(self, *, workspace_slug: str, include_vector: bool = False) -> dict[str, Any]:
        metadata: dict[str, Any] = {"workspace": workspace_slug}
        if self.entry_id is not None:
            metadata["entry_id"] = self.entry_id
        if self.asset_id is not None:
            metadata["asset_id"] = self.asset_id
        metadata.update(
            {
                "content_type": self.metadata.get("content_type"),
                "title": self.title,
                "field": self.field,
                "ordinal": self.ordinal,
                "status": self.metadata.get("status"),
                "source_kind": self.source_kind,
            }
        )
        source: dict[str, Any] = {"id": self.id, "score": round(self.score, 6), "document": self.text,
                                  "metadata": metadata}
        if self.legs is not None:
            source["legs"] = self.legs
        if include_vector:
            source["vector"] = self.vector
        return source


@dataclass(frozen=True)
class SearchResult:
    """What a search answers, whatever the interface: ranked hits and facts about the index."""

    workspace: Workspace
    hits: list[ChunkHit]
    model: str | None  # None: no vector leg ran (a hybrid search answered by keywords)
    dimensions: int | None
    top_k: int
    ef_search: int
    pending: int
    extra_meta: dict[str, Any] = field(default_factory=dict)

    @property
    def relevant_context(self) -> str:
        """The hits' text, best first, each under its title: ready to paste into an LLM prompt."""
        blocks = []
        for rank, hit in enumerate(self.hits, start=1):
            heading = f"[{rank}] {hit.title}".rstrip() if hit.title else f"[{rank}]"
            blocks.append(f"{heading}\n{hit.text}")
        return "\n\n".join(blocks)

    def as_dict(self, *, include_sources: bool = True, include_vectors: bool = False) -> dict[str, Any]:
        body: dict[str, Any] = {"relevant_context": self.relevant_context}
        if include_sources:
            body["sources"] = [
                hit.as_source(workspace_slug=self.workspace.slug, include_vector=include_vectors) for hit in self.hits
            ]
        body["meta"] = {
            "model": self.model,
            "dimensions": self.dimensions,
            "top_k": self.top_k,
            "ef_search": self.ef_search,
            "returned": len(self.hits),
            "pending": self.pending,
            "exact_fallback": any(hit.exact for hit in self.hits),
            **self.extra_meta,
        }
        return body


def semantic_search(
    *,
    access: WorkspaceAccess,
    query: Any,
    top_k: Any = DEFAULT_TOP_K,
    min_score: Any = None,
    content_type: Any = None,
    filter: Any = None,  # noqa: A002 - the request parameter's public name
    ef_search: Any = None,
    include_vectors: bool = False,
    model: str | None = None,
) -> SearchResult:
    """The `top_k` chunks of the workspace nearest in meaning to `query`, best first.

    Only chunks the caller may see (`access`, cms/access.py) are ranked.
    Only chunks holding a current vector of the workspace's active model are searched (or of
    `model`: trusted code only, `embedding_switch compare` runs a query on the target); the
    query is embedded by that same model (input_type=query). Raises SemanticSearchError with
    a code for bad input (400) and `not_configured`/`provider_unavailable`/`provider_error`
    (503) when no embedding can be made; never answers an empty result to hide a failure.
    """
    workspace = access.workspace
    query = _validate_query(query)
    top_k = _validate_int(top_k, name="top_k", low=1, high=MAX_TOP_K)
    if ef_search is None:
        ef_search = max(DEFAULT_EF_SEARCH, top_k)
    else:
        ef_search = _validate_int(ef_search, name="ef_search", low=MIN_EF_SEARCH, high=MAX_EF_SEARCH)
    max_distance = None if min_score is None else 1.0 - _validate_min_score(min_score)
    compiled = _compile_filter(filter, content_type=content_type, access=access)

    try:
        backend = embedding_backend_active(workspace=workspace, model=model)
    except EmbeddingNotConfigured as exc:
        raise SemanticSearchError("not_configured", str(exc), status=503) from exc
    try:
        query_vector = query_embed(backend=backend, workspace_id=workspace.pk, text=query)
    except EmbeddingProviderError as exc:
        code = "provider_unavailable" if exc.transient else "provider_error"
        raise SemanticSearchError(code, f"The embedding provider could not embed the query: {exc}", status=503) from exc

    hits = _vector_candidates(
        workspace_id=workspace.pk,
        model_name=backend.model_name,
        dimensions=backend.dimensions,
        query_vector=query_vector,
        limit=top_k,
        where=compiled,
        ef_search=ef_search,
        max_distance=max_distance,
        include_vectors=include_vectors,
    )
    return SearchResult(workspace=workspace, hits=hits, model=backend.model_name, dimensions=backend.dimensions,
                        top_k=top_k, ef_search=ef_search, pending=_pending_count(workspace_id=workspace.pk))


# --- validation -----------------------------------------------------------------------------

def _validate_query(query: Any) -> str:
    if not isinstance(query, str):
        raise SemanticSearchError("query_invalid", "query must be a string.")
    try:
        query.encode("utf-8")
    except UnicodeEncodeError as exc:
        # Lone surrogates: what Python makes of invalid UTF-8 in argv (a JSON body holding
        # one is refused by its parser, search.json_input). Same code as the full-text search.
        raise SemanticSearchError("query_invalid_encoding", "query is not valid UTF-8.") from exc
    if "\x00" in query:
        raise SemanticSearchError("query_invalid_character", "query contains a NUL character.")
    # The limit is on what the caller sent, as the OpenAPI document says (maxLength), not on
    # what is left once the spaces around it are stripped.
    if len(query) > MAX_QUERY_CHARS:
        raise SemanticSearchError(
            "query_too_long", f"query is {len(query)} characters; the limit is {MAX_QUERY_CHARS}."
        )
    query = query.strip()
    if not query:
        raise SemanticSearchError("query_empty", "query is empty: say what to search for.")
    return query


# Codes follow search.fulltext's: <param>_invalid for a wrong type, <param>_out_of_range.
def _validate_int(value: Any, *, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SemanticSearchError(f"{name}_invalid", f"{name} must be a whole number from {low} to {high}.")
    if not low <= value <= high:
        raise SemanticSearchError(f"{name}_out_of_range", f"{name} must be between {low} and {high}, not {value}.")
    return value


def _validate_min_score(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        raise SemanticSearchError("min_score_invalid", "min_score must be a number (cosine similarity, -1 to 1).")
    if not -1.0 <= value <= 1.0:
        raise SemanticSearchError("min_score_out_of_range", f"min_score must be between -1 and 1, not {value}.")
    return float(value)


def _compile_filter(spec: Any, *, content_type: Any, access: WorkspaceAccess) -> CompiledFilter:
    """The caller's filter, ANDed with the content type and what the caller may see
    (search.chunk_filters, shared with every chunk search); the schemas are read only
    when the filter or the content type needs them."""
    needs_schemas = chunk_filter_needs_schemas(spec, content_type)
    schemas = content_type_schemas(workspace=access.workspace) if needs_schemas else {}
    try:
        return chunk_filter_compile(spec, content_type=content_type, access=access, schemas=schemas)
    except SearchInputError as exc:
        raise SemanticSearchError(exc.code, exc.message, path=exc.path) from exc


# --- retrieval ------------------------------------------------------------------------------

def _vector_literal(vector: list[float]) -> str:
    return "[" + ",".join(repr(float(x)) for x in vector) + "]"


def vector_candidates_sql(*, dimensions: int, where_sql: str, include_vectors: bool, bounded: bool) -> str:
    """The SQL of one vector search (see the module docstring); `dimensions` is trusted config.

    Two ranked lists, of which exactly one is read:
    - `candidates`: the HNSW walk (ORDER BY the index expression), normally the answer;
    - `exact`: every matching row's distance, top-N sorted (`+ 0` keeps the index out of it).
      Its gate `(SELECT count(*) FROM candidates) < LIMIT` is a one-time filter, so it is
      never scanned unless the index came back short. An HNSW graph can miss live rows
      (iterative scans stop at hnsw.max_scan_tuples; deleted and vacuumed elements can cut
      paths between live ones), and the promise is top_k rows whenever that many match.
    """
    dims = int(dimensions)
    distance = f"(v.embedding::vector({dims})) <=> %s::vector({dims})"
    columns = (
        "c.id, c.text, c.title, c.field, c.ordinal, c.source_kind, c.entry_id, c.asset_id, c.metadata,"
        f" {distance} AS distance" + (", v.embedding::real[] AS vector" if include_vectors else "")
    )
    # Joined on the id alone: a second join column (the hash) makes the planner estimate one
    # matching row, and it then ranks every row instead of walking the index (1.3 s at 100k
    # chunks). No vector of an older text exists to join: sync deletes a chunk's vectors with
    # its edit, and a store that races the edit skips it (services/vectors.py).
    matching = (
        " FROM ingestion_chunkvector v JOIN ingestion_chunk c ON c.id = v.chunk_id"
        " WHERE v.workspace_id = %s AND v.model = %s"
        f" AND {where_sql}"
    )
    return (
        f"WITH candidates AS MATERIALIZED (SELECT {columns}{matching} ORDER BY {distance} LIMIT %s),"
        f" exact AS MATERIALIZED (SELECT {columns}{matching}"
        f" AND (SELECT count(*) FROM candidates) < %s ORDER BY ({distance}) + 0 LIMIT %s),"
        " ranked AS (SELECT *, false AS exact FROM candidates WHERE (SELECT count(*) FROM candidates) >= %s"
        " UNION ALL SELECT *, true AS exact FROM exact)"
        " SELECT * FROM ranked"
        + (" WHERE distance <= %s" if bounded else "")
        + " ORDER BY distance, id"
    )


def vector_candidates_params(*, vector_text: str, workspace_id: int, model_name: str, where: CompiledFilter,
                             limit: int, max_distance: float | None) -> list[Any]:
    """Parameters for vector_candidates_sql, in placeholder order."""
    matching = [workspace_id, model_name, *where.params]
    params: list[Any] = [
        vector_text, *matching, vector_text, limit,  # candidates
        vector_text, *matching, limit, vector_text, limit,  # exact
        limit,  # ranked
    ]
    if max_distance is not None:
        params.append(max_distance)
    return params


def search_settings_sql() -> str:
    """Per-transaction HNSW settings (set_config(..., true) is SET LOCAL that takes parameters)."""
    return (
        "SELECT set_config('hnsw.ef_search', %s, true),"
        " set_config('hnsw.iterative_scan', 'relaxed_order', true),"
        " set_config('hnsw.max_scan_tuples', %s, true),"
        " set_config('hnsw.scan_mem_multiplier', %s, true),"
        # The gated exact CTE would otherwise be planned as a parallel Gather, and the
        # workers are launched (~10 ms) even when its one-time filter is false.
        " set_config('max_parallel_workers_per_gather', '0', true)"
    )


def search_settings_params(ef_search: int) -> list[str]:
    return [str(int(ef_search)), str(MAX_SCAN_TUPLES), str(SCAN_MEM_MULTIPLIER)]


def _vector_candidates(
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
) -> list[ChunkHit]:
    """The nearest chunks of one workspace by their current vectors of one model, ranked by cosine distance."""
    vector_text = _vector_literal(query_vector)
    sql = vector_candidates_sql(dimensions=dimensions, where_sql=where.sql, include_vectors=include_vectors,
                                bounded=max_distance is not None)
    params = vector_candidates_params(vector_text=vector_text, workspace_id=workspace_id, model_name=model_name,
                                      where=where, limit=limit, max_distance=max_distance)
    with search_cursor(atomic=True) as cursor:  # the HNSW settings hold for the whole transaction
        cursor.execute(search_settings_sql(), search_settings_params(ef_search))
        cursor.execute(sql, params)
        columns = [col.name for col in cursor.description]
        rows = [dict(zip(columns, row)) for row in cursor.fetchall()]
    return [
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
            metadata=_as_dict(row["metadata"]),
            vector=[float(x) for x in row["vector"]] if include_vectors and row.get("vector") is not None else None,
            exact=bool(row["exact"]),
        )
        for row in rows
    ]


def _as_dict(value: Any) -> dict:
    if isinstance(value, dict):
        return value
    if isinstance(value, str):
        return json.loads(value)
    return {}


def _pending_count(*, workspace_id: int) -> int:
    """Chunks of the workspace still waiting for a vector of some model it wants (served by
    chunk_ws_status); while a model switch runs, that includes the target's backlog."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM ingestion_chunk WHERE workspace_id = %s AND status = %s",
            [workspace_id, ChunkStatus.PENDING],
        )
        return int(cursor.fetchone()[0])
