"""The vector search over chunks: one function, `semantic_search`, behind the API, the CLI and agents.

How a query runs (the SQL is built in search/engine/legs/vector_leg.py):

    SELECT set_config('hnsw.ef_search', ..., true), set_config('hnsw.iterative_scan', 'relaxed_order', true), ...;
    SELECT (SELECT count(*) FROM (SELECT 1 FROM <the matching rows> LIMIT 2001) capped)
    -- at most EXACT_MAX_ROWS (2,000) matching rows: rank them all exactly, no index:
    SELECT ..., distance FROM <the matching rows> ORDER BY distance + 0, id LIMIT top_k
    -- more: walk the HNSW index
    SELECT * FROM (
        SELECT c.id, ..., (v.embedding::vector(N)) <=> %s::vector(N) AS distance
        FROM ingestion_chunkvector v JOIN ingestion_chunk c ON c.id = v.chunk_id
        WHERE v.workspace_id = %s AND v.model = <the workspace's active model>
          AND <content type> AND (<compiled metadata filter>)
        ORDER BY (v.embedding::vector(N)) <=> %s::vector(N)
        LIMIT top_k) walk
    ORDER BY distance, id
    -- only if the walk came back short: the same rows ranked without the index
    SELECT ... ORDER BY distance + 0, id LIMIT top_k

- The inner ORDER BY is exactly the expression of the per-model partial HNSW index
  (ingestion/migrations/0006) and the model predicate matches the index's WHERE, so the
  planner can walk the index. One search reads one model's vectors: the workspace's active
  model, read once per search (ingestion.selectors.embedding_models), which also embeds the
  query; a model switch flips it in one transaction, so no search mixes two models. A
  vector made from an older text of its chunk (the hash differs) is never served. Ordering by `1 - distance` (a score) would force a full sort.
- With a filter (the workspace is always one), plain HNSW returns at most `ef_search`
  candidates *before* filtering, so a selective filter used to come back short. pgvector
  0.8's `hnsw.iterative_scan = relaxed_order`, set per transaction (SET LOCAL, on Citus on the workers too),
  keeps scanning until LIMIT rows pass the filter (bounded by `hnsw.max_scan_tuples`).
  relaxed_order may return rows slightly out of order; the outer ORDER BY over the few
  materialised rows restores the exact order.
- If the index walk comes back with fewer than top_k rows while more are known to match (the
  workspace's chunk count, or the exact plan's capped list), a second statement ranks the
  matching rows exactly instead (`vector_fallback_sql`), so a graph that lost paths to live
  rows never shortens an answer; `meta.vector_plan` says which plan answered.
- A small matching set (a selective filter, a small workspace) is ranked exactly, every
  distance computed: the walk would visit ~1/selectivity times the nodes to find top_k
  passing rows, while 2,000 distances cost a few ms (docs/design/vectors.md).
- `min_score` is applied to the walk's top_k rows, so it can only drop rows and never
  changes the inner ORDER BY the index serves.

Hybrid search (search/engine/hybrid.py) runs the same vector candidates beside the keyword leg
(search/engine/legs/keyword.py) and fuses the two rankings into the same `SearchResult`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from cms.access import WorkspaceAccess
from search.engine.filters.chunks import chunk_filter_for
from search.contract.meta import SemanticMeta
from search.contract.results import ChunkHit, SearchResult
from search.contract.errors import SearchError
from search.engine.facets import chunk_search_facets
from search.engine.promotions import promotions_apply_chunks
from search.engine.legs.query_embedding import query_embeddings_start
from search.engine.query_work import query_work_reused
from search.engine.words_held import hits_holding_marked, words_meta
from search.contract.options import DEFAULT_TOP_K, MAX_TOP_K, SemanticSearchOptions
from search.engine.filters.visibility import caller_visibility
from search.engine.legs.vector_leg import DEFAULT_EF_SEARCH, VectorHits, chunks_pending_count, vector_candidates
from search.engine.entry_results import chunks_judged, entries_grouped, entries_ranked, entries_shown
from search.engine.confidence import answer_floor_apply, passage_centroid, query_background

__all__ = ["DEFAULT_TOP_K", "MAX_TOP_K", "ChunkHit", "SearchResult", "SemanticSearchError", "semantic_run",
           "semantic_search"]

# The query rules semantic search does not apply, said in meta.rules_skipped: it matches by
# meaning (a synonym or a typo is near its word already); the keyword leg of hybrid applies them.
SEMANTIC_RULES_SKIPPED = ("synonyms", "typo_tolerance")


class SemanticSearchError(SearchError):
    """A semantic search that cannot run: no usable embedding provider (503)."""


def semantic_search(*, access: WorkspaceAccess, **options: Any) -> SearchResult:
    """semantic_run with the options as keywords (for Python callers)."""
    return semantic_run(access, options)


def semantic_run(access: WorkspaceAccess, options: Mapping[str, Any], *, model: str | None = None,
                 facet_pool: bool = False) -> SearchResult:
    """semantic_ranked, one row per entry unless `raw_chunks` (entries_grouped), its query's work
    done once however often it reruns (query_work_reused)."""
    with query_work_reused():
        return entries_grouped(semantic_ranked, access, SemanticSearchOptions.validated(options), model=model,
                               facet_pool=facet_pool)


def semantic_ranked(access: WorkspaceAccess, options: Mapping[str, Any], *, model: str | None = None,
                    facet_pool: bool = False, fetch_k: int | None = None, entries_k: int | None = None) -> SearchResult:
    """The `top_k` chunks of the workspace nearest in meaning to `query`, best first.

    Only chunks the caller may see (`access`, cms/access.py) are ranked.
    Only chunks holding a current vector of the workspace's active model are searched (or of
    `model`: trusted code only, `embedding_switch compare` runs a query on the target). `options`
    are SemanticSearchOptions' (search/contract/options.py), checked there. The
    query is embedded by that same model (input_type=query). Raises SemanticSearchError with
    a code for bad input (400) and `not_configured`/`provider_unavailable`/`provider_error`
    (503) when no embedding can be made; never answers an empty result to hide a failure.
    """
    workspace = access.workspace
    request = SemanticSearchOptions.validated(options)
    query, top_k, min_score = request["query"], fetch_k or request["top_k"], request["min_score"]
    # The walk's candidate list is sized for the rows shown (request["top_k"]), not for the
    # chunks the entry grouping ranks: the iterative scan returns as many more as LIMIT asks.
    ef_search = request["ef_search"] or max(DEFAULT_EF_SEARCH, request["top_k"])
    max_distance = None if min_score is None else 1.0 - min_score
    compiled = chunk_filter_for(access=access, spec=request["filter"], content_type=request["content_type"])

    embedding = query_embeddings_start(workspace_id=workspace.pk, queries=[query], model=model,
                                       vectors_required=False)[0]
    query_vector = embedding.vector()
    if query_vector is None:
        raise SemanticSearchError(embedding.error.code, embedding.error.message, status=embedding.error.status)

    # With facets the whole HNSW candidate list (ef_search chunks, which the walk visits
    # anyway) is the pool they count; the first top_k are the hits.
    whole_list = bool(request["facets"] or facet_pool)
    background = query_background(embedding.model, query_vector, query)

    def ranked(limit: int) -> tuple[int, VectorHits]:
        """(how many chunks the answer shows, the ranked chunks: more with facets)."""
        return limit, vector_candidates(
            workspace_id=workspace.pk,
            model_name=embedding.model,
            dimensions=embedding.dimensions,
            query_vector=query_vector,
            limit=max(limit, ef_search) if whole_list else limit,
            where=compiled,
            ef_search=ef_search,
            max_distance=max_distance,
            include_vectors=request["include_vectors"],
            centroid=passage_centroid(embedding.model),
            background=background,
        )

    top_k, hits = entries_ranked(ranked, lambda shown_hits: shown_hits[1][:shown_hits[0]], fetch=top_k,
                                 entries=entries_k)
    pool = tuple(hit.id for hit in hits)
    facets = chunk_search_facets(access=access, request=request, pool=pool,
                                 rerun=lambda widened: semantic_run(access, widened, model=model, facet_pool=True).pool)
    result = SearchResult(workspace=workspace, hits=hits[:top_k], model=embedding.model,
                          dimensions=embedding.dimensions, top_k=top_k, ef_search=ef_search,
                          pending=chunks_pending_count(workspace_id=workspace.pk, visible=caller_visibility(access)),
                          include_sources=request["include_sources"], include_vectors=request["include_vectors"],
                          pool=pool, facets=facets, meta=SemanticMeta(rules_skipped=tuple(SEMANTIC_RULES_SKIPPED),
                                                                      vector_plan=hits.plan))
    if facet_pool:
        return result
    visible = caller_visibility(access)
    promoted = promotions_apply_chunks(result, access=access, request=request)
    shown = entries_shown(promoted, entries_k)
    marked, clauses = hits_holding_marked(shown.hits, workspace_id=workspace.pk, query=query, visible=visible)
    answered = answer_floor_apply(replace(shown, hits=marked), request=request,
                                  judged=chunks_judged(promoted.hits, entries_k))
    if answered.meta.answer is None or answered.meta.answer.answerable:
        return answered
    # Nothing near in meaning: say so, and how many entries hold the words (never "no good match" alone).
    words = words_meta(workspace_id=workspace.pk, query=query, clauses=clauses, visible=compiled)
    return answered if words is None else replace(answered, meta=replace(answered.meta, words=words))
