"""Hybrid search: the keyword (BM25) leg and the semantic (vector) leg fused per chunk, optionally
reranked. The default search for natural-language questions, behind the API, CLI and MCP.

How a query runs:

1. Validation and the chunk filter: the declared options (`search.contract.options.HybridSearchOptions`)
   and the same compiled filter as semantic search (`search.engine.filters.chunks`), one filter
   applied identically to both legs.
2. The keyword leg (`search.engine.legs.keyword`): the best CANDIDATE_DEPTH chunks by BM25, query words
   missing from the workspace corrected within its typo budget (`search.engine.forgiving.typos`). It needs no
   embedding provider.
3. The semantic leg: the query embedded by the configured model, the best CANDIDATE_DEPTH
   chunks by cosine through the HNSW index (`search.engine.legs.vector_leg`, semantic search's statement). Skipped, and
   reported in `meta.legs_used` / `meta.degraded`, when no provider is configured, the
   provider fails, or none of the workspace's chunks has a vector of this model yet.
4. Both legs' scores for every candidate: a chunk only one leg found is scored by the other
   too (BM25 by posting lookups, cosine from its stored vector), so fusion compares like
   with like. Then `search.engine.legs.fusion.fuse`: adaptive fusion by default (z-scored legs weighted by
   the query's own features, fitted leave-one-set-out; docs/design/fusion.md), or the
   workspace's pinned setting, or the request's (`fusion`, `keyword_weight`, `semantic_weight`).
5. Rerank (`rerank: true`): the fused candidates are reranked by the rerank backend and
   combined like Mastra's reranker (see search.engine.legs.fusion).

The steps are functions of their own (`hybrid_request` validates, `hybrid_rank` runs steps
2-4 for one query, `candidates_rerank`, `hybrid_hits`, `hybrid_meta`), so agentic search
(search/engine/agentic.py) runs the same pipeline once per part of a compound question.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_noop

from cms.citus_mode import same_workspace
from cms.access import WorkspaceAccess
from search.engine.filters.chunks import chunk_filter_for
from search.contract.meta import HybridMeta
from search.contract.results import ChunkHit, SearchResult
from search.contract.errors import SearchError
from search.engine.facets import chunk_search_facets
from search.engine.promotions import promotions_apply_chunks
from search.engine.filters.compile import CompiledFilter
from search.engine.entry_results import chunks_judged, entries_grouped, entries_ranked, entries_shown
from search.engine.confidence import answer_floor_apply, passage_centroid, query_background
from search.engine.legs.fusion import (
    DEFAULT_RERANK_WEIGHTS,
    FUSION_ADAPTIVE,
    Candidate,
    FusionSetting,
    QueryFeatures,
    adaptive_model,
    adaptive_weights,
    fuse,
    query_features,
    rerank_combine,
)
from search.engine.legs.keyword import KeywordQuery, bm25_idf, keyword_candidates, keyword_query_prepare, keyword_scores
from search.engine.query_work import query_work_reused
from search.engine.words_held import (WordClauses, entries_holding, entry_key, query_reads_as_question,
                                      query_word_count, ranked_by_words, tiered_max_words, word_clauses)
from search.engine.legs.query_embedding import QueryEmbedding, query_embeddings_start
from search.engine.legs.rerank import RerankUnavailable, rerank_relevance
from search.contract.options import HybridSearchOptions
from search.engine.db.statements import search_cursor
from search.engine.forgiving.synonyms import Expansion, SynonymRule, expanded_meta, synonym_rules
from search.engine.forgiving.typos import Correction, TypoBudget, corrected_query, corrections_meta, typo_budget_for
from search.engine.filters.visibility import caller_visibility
from search.engine.legs.vector_leg import (DEFAULT_EF_SEARCH, centroid_column, centroid_params, chunks_pending_count,
                                          vector_candidates, vector_literal)

# Chunks each leg contributes to the fusion (more than top_k, so a chunk ranked low by one
# leg and high by the other can still win). bench/fusion_fit.py measured 50 against 20/100.
CANDIDATE_DEPTH = 50
# The most candidates sent to the reranker.
MAX_RERANK_CANDIDATES = 100

LEG_KEYWORD = "keyword"
LEG_SEMANTIC = "semantic"


class HybridSearchError(SearchError):
    """A hybrid search that cannot run as asked: bad input (400) or no usable leg/reranker (503)."""


@dataclass(frozen=True)
class HybridOptions:
    """The fusion and rerank settings of one request, validated."""

    setting: FusionSetting
    rerank: bool
    rerank_weights: dict[str, float]

    @property
    def fusion(self) -> str:
        return self.setting.method

    @property
    def keyword_leg(self) -> bool:
        """Whether the keyword leg runs (a fixed weight of 0 turns it off)."""
        return not self.setting.fixed or self.setting.weights()[0] > 0

    @property
    def semantic_leg(self) -> bool:
        return not self.setting.fixed or self.setting.weights()[1] > 0


@dataclass(frozen=True)
class ChunkFilter:
    """The filter both legs apply: the compiled SQL, or None when the caller sees everything unfiltered."""

    compiled: CompiledFilter
    trivial: bool
    # What the caller may see, None when it sees every chunk: the scope of the keyword
    # dictionary it is told about (corrections, completions, the plan; search.engine.dictionary).
    visible: CompiledFilter | None = None

    @property
    def keyword_where(self) -> CompiledFilter | None:
        return None if self.trivial else self.compiled


def chunk_filter(*, access: WorkspaceAccess, content_type: str | None, spec: Any) -> ChunkFilter:
    """The one filter of both legs: content type, metadata filter and what the caller may see.

    Built by every chunk search's compiler (`search.engine.filters.chunks`), so the legs, and the
    searches, can never disagree about what a filter means.
    """
    compiled = chunk_filter_for(access=access, spec=spec, content_type=content_type)
    return ChunkFilter(compiled=compiled, trivial=compiled.sql == "TRUE",
                       visible=caller_visibility(access))


# --- options -------------------------------------------------------------------------------

def hybrid_options(*, fusion: str | None, keyword_weight: float | None, semantic_weight: float | None,
                   rerank: bool, rerank_weights: dict[str, float] | None,
                   pinned: Mapping[str, Any] | None = None) -> HybridOptions:
    """The fusion and rerank settings of a validated request. Which fusion applies, first found:
    the request's (a method or weights), the workspace's pin (`search_fusion pin`, stored on
    Workspace.search_fusion), the default (adaptive fusion, fitted by bench/fusion_fit.py)."""
    return HybridOptions(setting=fusion_setting(fusion=fusion, keyword_weight=keyword_weight,
                                                semantic_weight=semantic_weight, pinned=pinned),
                         rerank=rerank, rerank_weights=rerank_weights or dict(DEFAULT_RERANK_WEIGHTS))


def fusion_setting(*, fusion: str | None, keyword_weight: float | None, semantic_weight: float | None,
                   pinned: Mapping[str, Any] | None = None) -> FusionSetting:
    """The FusionSetting of a request: request > workspace pin > default (see hybrid_options)."""
    if fusion is not None or keyword_weight is not None or semantic_weight is not None:
        return FusionSetting(method=fusion or (FUSION_ADAPTIVE if keyword_weight is None and semantic_weight is None
                                               else "weighted"),
                             keyword_weight=keyword_weight, semantic_weight=semantic_weight, source="request")
    if pinned:
        return FusionSetting(method=pinned.get("fusion") or FUSION_ADAPTIVE,
                             keyword_weight=pinned.get("keyword_weight"),
                             semantic_weight=pinned.get("semantic_weight"), source="workspace")
    return FusionSetting(source="default")


# --- the search -------------------------------------------------------------------------------

@dataclass(frozen=True)
class HybridRequest:
    """One hybrid request, validated: what every query of it (agentic search runs several) shares."""

    query: str
    top_k: int
    ef_search: int
    threshold: float | None
    options: HybridOptions
    where: ChunkFilter
    depth: int
    include_vectors: bool
    include_sources: bool = True
    # The workspace's typo budget, or None with `typo_tolerance: false` (search.engine.forgiving.typos).
    typos: TypoBudget | None = None
    # The workspace's synonym rules (search.engine.forgiving.synonyms), applied to the keyword leg.
    synonyms: list[SynonymRule] = field(default_factory=list)
    # The last word of the query as a prefix too (search as you type).
    prefix: bool = False


def hybrid_request(*, access: WorkspaceAccess, options: Mapping[str, Any]) -> HybridRequest:
    """Validate a hybrid request's options (HybridSearchOptions: 400s with codes) and compile its filter."""
    request = HybridSearchOptions.validated(options)
    return hybrid_request_from(access=access, request=request)


def hybrid_request_from(*, access: WorkspaceAccess, request: dict[str, Any]) -> HybridRequest:
    """The HybridRequest of options already validated by HybridSearchOptions (or a subclass)."""
    query, top_k = request["query"], request["top_k"]
    options = hybrid_options(fusion=request["fusion"], keyword_weight=request["keyword_weight"],
                             semantic_weight=request["semantic_weight"], rerank=request["rerank"],
                             rerank_weights=request["rerank_weights"],
                             pinned=access.workspace.search_fusion)
    where = chunk_filter(access=access, content_type=request["content_type"], spec=request["filter"])
    return HybridRequest(query=query, top_k=top_k, ef_search=request["ef_search"] or max(DEFAULT_EF_SEARCH, CANDIDATE_DEPTH),
                         threshold=request["min_score"], options=options, where=where,
                         depth=max(CANDIDATE_DEPTH, top_k), include_vectors=request["include_vectors"],
                         include_sources=request["include_sources"],
                         typos=typo_budget_for(access.workspace) if request["typo_tolerance"] else None,
                         synonyms=synonym_rules(workspace_id=access.workspace.pk,
                                                version=access.workspace.synonyms_version),
                         prefix=request["prefix"])


def hybrid_search(*, access: WorkspaceAccess, **options: Any) -> SearchResult:
    """hybrid_run with the options as keywords (for Python callers)."""
    return hybrid_run(access, options)


def hybrid_run(access: WorkspaceAccess, options: Mapping[str, Any]) -> SearchResult:
    """hybrid_ranked, one row per entry unless `raw_chunks` (entries_grouped), its query's work
    done once however often it reruns (query_work_reused)."""
    with query_work_reused():
        return entries_grouped(hybrid_ranked, access, HybridSearchOptions.validated(options))


def hybrid_ranked(access: WorkspaceAccess, options: Mapping[str, Any], *, fetch_k: int | None = None,
                  entries_k: int | None = None) -> SearchResult:
    """The `top_k` chunks that best answer `query`, by keywords and meaning together, best first.

    `options` are HybridSearchOptions' (search/contract/options.py), checked there. Only chunks the
    caller may see (`access`) are ranked, by both legs alike. A leg whose weight is 0 does
    not run. When the semantic leg cannot run (no provider, provider down, no vectors yet)
    the answer comes from the keyword leg and `meta.degraded` says why; when neither can
    answer, the semantic leg's error is raised. `rerank: true` with no reranker configured is
    a `not_configured` error (503), never a silent no-op. `min_score` applies to the final
    score (fused, 0..1 with weighted fusion; or reranked).
    """
    validated = HybridSearchOptions.validated(options)

    def answered(limit: int) -> SearchResult:
        validated["top_k"] = limit  # search/engine/entry_results.py ranks more chunks than entries
        return hybrid_answer(access=access, request=hybrid_request_from(access=access, request=validated))

    result = entries_ranked(answered, lambda ranked: ranked.hits, fetch=fetch_k or validated["top_k"],
                            entries=entries_k)
    facets = chunk_search_facets(access=access, request=validated, pool=result.pool,
                                 rerun=lambda widened: hybrid_answer(
                                     access=access, request=hybrid_request_from(access=access, request=widened)).pool)
    result = result if facets is None else replace(result, facets=facets)
    promoted = promotions_apply_chunks(result, access=access, request=validated)
    return answer_floor_apply(entries_shown(promoted, entries_k), request=validated,
                              judged=chunks_judged(promoted.hits, entries_k))


def hybrid_answer(*, access: WorkspaceAccess, request: HybridRequest, rerank: bool | None = None) -> SearchResult:
    """Run a validated request: both legs, fusion, and the rerank unless `rerank` is False."""
    workspace, options = access.workspace, request.options
    collected, ranked = hybrid_rank(workspace_id=workspace.pk, query=request.query, request=request, options=options)
    final_scores = [c.fused for c in ranked]
    rerank_meta: dict[str, Any] | None = None
    if (options.rerank if rerank is None else rerank) and ranked:
        ranked, final_scores, rerank_meta = candidates_rerank(workspace.pk, request.query, ranked, collected.hits,
                                                              options)
        if collected.holding:  # the reranker orders within the word rule's tiers, not across them
            order = sorted(range(len(ranked)), key=lambda i: not collected.holds_words(collected.hits[ranked[i].chunk_id]))
            ranked, final_scores = [ranked[i] for i in order], [final_scores[i] for i in order]
    results = hybrid_hits(ranked, final_scores, collected, threshold=request.threshold, top_k=request.top_k)
    pool = tuple(c.chunk_id for c, score in zip(ranked, final_scores)
                 if request.threshold is None or score >= request.threshold)
    meta = hybrid_meta(options, collected, rerank=rerank_meta)
    return SearchResult(workspace=workspace, hits=results, model=collected.model, dimensions=collected.dimensions,
                        top_k=request.top_k, ef_search=request.ef_search,
                        pending=chunks_pending_count(workspace_id=workspace.pk, visible=caller_visibility(access)),
                        meta=meta,
                        include_sources=request.include_sources, include_vectors=request.include_vectors, pool=pool)


def hybrid_rank(*, workspace_id: int, query: str, request: HybridRequest, options: HybridOptions,
                embedding: QueryEmbedding | None = None) -> tuple[Collected, list[Candidate]]:
    """One query's candidates from both legs, fused, best first (`embedding`: one already started)."""
    collected = hybrid_collect(workspace_id=workspace_id, query=query, where=request.where, depth=request.depth,
                               keyword_leg=options.keyword_leg, semantic_leg=options.semantic_leg,
                               ef_search=request.ef_search, include_vectors=request.include_vectors,
                               embedding=embedding, typos=request.typos, synonyms=request.synonyms,
                               prefix=request.prefix)
    ranked = fuse(list(collected.candidates.values()), setting=options.setting, features=collected.features,
                  embedding_model=collected.model)
    collected.weights = effective_weights(options.setting, collected)
    return collected, words_first(collected, ranked, where=request.where)


def words_first(collected: Collected, ranked: list[Candidate], *, where: ChunkFilter) -> list[Candidate]:
    """`ranked` with the entries holding every word of a keyword query first (search/engine/words_held.py),
    and which entries hold them noted in `collected` (each returned hit says so)."""
    if (LEG_KEYWORD not in collected.legs_used or not ranked or collected.clauses is None
            or query_reads_as_question(collected.query)):
        return ranked
    hits = collected.hits

    def key_of(candidate: Candidate) -> tuple[str, int]:
        hit = hits[candidate.chunk_id]
        return entry_key(hit.entry_id, hit.asset_id, hit.id)

    # Only entries the keyword leg found a word of (a candidate chunk with a BM25 score): an entry
    # whose candidate chunks hold none of the words is left to the fusion, so the check reads the
    # chunks of a few entries, not of every candidate (bench/hybrid.py --versus words).
    held = entries_holding(workspace_id=collected.workspace_id, clauses=collected.clauses,
                           keys=[key_of(c) for c in ranked if c.keyword_score], visible=where.visible)
    every = len(collected.clauses.clauses)
    collected.holding = {key for key, count in held.items() if count >= every}
    return ranked_by_words(ranked, held, collected.clauses, key_of, keyword_rank_of=lambda c: c.keyword_rank,
                           words=query_word_count(collected.query, cjk_chars_per_word=None),
                           max_words=tiered_max_words(collected.model))


def effective_weights(setting: FusionSetting, collected: Collected) -> tuple[float, float]:
    """The (keyword, semantic) weights this query was fused with (0 for a leg that did not run):
    the fixed ones, or adaptive fusion's own for this query's features."""
    if setting.method == FUSION_ADAPTIVE and not setting.fixed:
        keyword, semantic = adaptive_weights(collected.features, keyword_ran=LEG_KEYWORD in collected.legs_used,
                                             semantic_ran=LEG_SEMANTIC in collected.legs_used,
                                             model=adaptive_model(collected.model))
    else:
        keyword, semantic = setting.weights()
    return (keyword if LEG_KEYWORD in collected.legs_used else 0.0,
            semantic if LEG_SEMANTIC in collected.legs_used else 0.0)


def hybrid_hits(ranked: list[Candidate], scores: list[float], collected: Collected, *, threshold: float | None,
                top_k: int) -> list[ChunkHit]:
    """The first `top_k` candidates scoring at least `threshold`, as hits with their per-leg scores."""
    results = []
    for candidate, score in zip(ranked, scores):
        if threshold is not None and score < threshold:
            continue
        hit = collected.hits[candidate.chunk_id]
        results.append(replace(hit, score=score, background=collected.background,
                               passage_background=candidate.passage_background,
                               legs=candidate_legs(candidate, collected.legs_used),
                               holds_words=collected.holds_words(hit)))
        if len(results) == top_k:
            break
    return results


def candidate_legs(candidate: Candidate, legs_used: list[str]) -> dict[str, dict[str, Any]]:
    """A source's `legs`: its score and rank in each leg that ran, and its fused score."""
    legs = {}
    if LEG_KEYWORD in legs_used:
        legs[LEG_KEYWORD] = {"score": _round(candidate.keyword_score), "rank": candidate.keyword_rank}
    if LEG_SEMANTIC in legs_used:
        legs[LEG_SEMANTIC] = {"score": _round(candidate.semantic_score), "rank": candidate.semantic_rank}
    legs["fused"] = {"score": candidate.fused}  # unrounded: the hit's score when nothing reranked it
    return legs


def hybrid_meta(options: HybridOptions, collected: Collected, *, rerank: dict[str, Any] | None = None) -> HybridMeta:
    """meta of a hybrid answer: the legs that ran, the fusion, its weights (and which setting
    applied: request, workspace or default), the candidates, and the rerank when one ran."""
    keyword, semantic = collected.weights
    return HybridMeta(
        legs_used=collected.legs_used, fusion=options.fusion,
        weights={"keyword": round(keyword, 6), "semantic": round(semantic, 6), "source": options.setting.source},
        candidates=len(collected.candidates), legs=collected.leg_meta, degraded=collected.degraded or None,
        corrections=corrections_meta(collected.corrections), expanded=expanded_meta(collected.expansions),
        corrected_query=corrected_query(collected.query, collected.corrections) if collected.corrections else None,
        rerank=rerank)


@dataclass
class Collected:
    """Both legs' candidates for one query, each scored by every leg that ran."""

    candidates: dict[int, Candidate]
    hits: dict[int, ChunkHit]
    legs_used: list[str]
    degraded: dict[str, dict[str, str]] = field(default_factory=dict)
    leg_meta: dict[str, Any] = field(default_factory=dict)
    model: str | None = None
    dimensions: int | None = None
    features: QueryFeatures = field(default_factory=QueryFeatures)
    weights: tuple[float, float] = (0.0, 0.0)
    query: str = ""
    corrections: list[Correction] = field(default_factory=list)
    expansions: list[Expansion] = field(default_factory=list)
    # The query's background under `model` (search/engine/confidence.py), which each returned hit carries
    # (set in the one copy a hit gets as it is returned: hybrid_hits, agentic's merge).
    background: float | None = None
    workspace_id: int = 0
    # What "every word" means for this query, and the entries (keys: words_held.entry_key) among
    # the candidates that hold every word, when the query reads as keywords (words_first).
    clauses: WordClauses | None = None
    holding: set[tuple[str, int]] = field(default_factory=set)

    def holds_words(self, hit: ChunkHit) -> bool:
        return entry_key(hit.entry_id, hit.asset_id, hit.id) in self.holding


def hybrid_collect(*, workspace_id: int, query: str, where: ChunkFilter, depth: int, keyword_leg: bool,
                   semantic_leg: bool, ef_search: int, include_vectors: bool = False,
                   embedding: QueryEmbedding | None = None, typos: TypoBudget | None = None,
                   synonyms: list[SynonymRule] | None = None, prefix: bool = False) -> Collected:
    """Run the legs asked for (`depth` chunks each), score every candidate on every leg that
    ran, and compute the query's features (search.engine.legs.fusion.QueryFeatures). Raises
    when no leg can answer (_no_leg_answered). `embedding` is the query's vector already on its
    way (query_embeddings_start); otherwise it is started here."""
    collected = Collected(candidates={}, hits={}, legs_used=[], query=query, workspace_id=workspace_id)
    # The query's embedding (a model call, or a provider's round trip) runs in a thread while
    # the keyword leg's SQL runs here.
    if not semantic_leg:
        embedding = None
    elif embedding is None:
        embedding = query_embeddings_start(workspace_id=workspace_id, queries=[query])[0]
    prepared: KeywordQuery | None = None
    as_typed: QueryEmbedding | None = None
    if keyword_leg:
        prepared = keyword_query_prepare(workspace_id=workspace_id, query=query, typos=typos, synonyms=synonyms,
                                         prefix=prefix, visible=where.visible)
        collected.corrections, collected.expansions = prepared.corrections, prepared.expansions
        collected.clauses = word_clauses(query, corrections=prepared.corrections, expansions=prepared.expansions)
        if embedding is not None and prepared.corrections:
            # Both legs search the query as corrected ("refnud" -> "refund"): a misspelt word no
            # content has would put the vector leg, and the confidence read from its cosine, on
            # the wrong words, and the right answer under the floor. One more embedding, only
            # for a query the keyword leg corrected, started before the BM25 statement so that
            # it runs beside it; `meta.corrected_query` says what was searched. (Waiting for the
            # corrections before the first embedding would save that call on the rare corrected
            # query and delay every other query's vector by the dictionary lookups.)
            as_typed, embedding = embedding, query_embeddings_start(
                workspace_id=workspace_id, queries=[corrected_query(query, prepared.corrections)])[0]
        _keyword_leg_collect(collected, prepared=prepared, where=where, depth=depth)

    query_vector = embedding.vector() if embedding is not None else None
    if as_typed is not None:
        as_typed.vector()  # the call made for the query as typed is counted in the usage too
    if embedding is not None:
        if embedding.error is not None:
            if not collected.legs_used:
                raise _no_leg_answered(keyword_ran=prepared is not None, semantic_error=embedding.error)
            collected.degraded[LEG_SEMANTIC] = {"code": embedding.error.code, "message": embedding.error.message}
        else:
            _semantic_leg_collect(collected, embedding=embedding, query_vector=query_vector,
                                  workspace_id=workspace_id, where=where, depth=depth, ef_search=ef_search,
                                  include_vectors=include_vectors, prepared=prepared)
    if not collected.legs_used:
        raise _no_leg_answered(keyword_ran=prepared is not None, semantic_error=None)

    _candidates_score_on_every_leg(collected, prepared=prepared, query_vector=query_vector)
    if LEG_SEMANTIC in collected.legs_used:
        collected.background = query_background(collected.model, query_vector, query)
    collected.features = query_features(
        query=query, query_terms=prepared.query_terms if prepared is not None else 0,
        known_idfs=[bm25_idf(chunks=prepared.chunks, df=t.df) for t in prepared.typed_terms] if prepared is not None
        else [],
        chunks=prepared.chunks if prepared is not None else 0,
        keyword_scores=[c.keyword_score for c in collected.candidates.values()]
        if LEG_KEYWORD in collected.legs_used else [],
        semantic_scores=[c.semantic_score for c in collected.candidates.values()]
        if LEG_SEMANTIC in collected.legs_used else [])
    return collected


def _no_leg_answered(*, keyword_ran: bool, semantic_error: SearchError | None) -> SearchError:
    """The error policy when no leg can answer, in one place. The semantic leg off: the query
    has no searchable words. The keyword leg ran and found no word to search for: rewording fixes
    that, whatever keeps the vector leg from answering (say, vectors still pending), so the same
    code, with the semantic leg's reason. The keyword leg off: the semantic leg's own error."""
    if semantic_error is None:
        return HybridSearchError("no_searchable_terms", gettext_noop(
            "The query has no searchable words (only stopwords or punctuation), and the semantic leg is off."))
    if keyword_ran:
        return HybridSearchError("no_searchable_terms", gettext_noop(
            "The query has no searchable words (only stopwords or punctuation), and the semantic leg cannot answer "
            "instead (%(leg_code)s: %(leg_message)s)"), leg_code=semantic_error.code, leg_message=semantic_error.message)
    return semantic_error


def _keyword_leg_collect(collected: Collected, *, prepared: KeywordQuery, where: ChunkFilter, depth: int) -> None:
    """The keyword leg's candidates (BM25, `depth` of them) for the prepared query into `collected`."""
    keyword_hits, plan = keyword_candidates(prepared, limit=depth, where=where.keyword_where)
    collected.leg_meta[LEG_KEYWORD] = {**plan.as_meta(), "returned": len(keyword_hits)}
    if plan.notes:
        collected.leg_meta[LEG_KEYWORD]["note"] = " ".join(plan.notes)
    if prepared.query_terms:  # it searched (even if no chunk has the words: a real "nothing")
        collected.legs_used.append(LEG_KEYWORD)
    for rank, hit in enumerate(keyword_hits, start=1):
        collected.hits[hit.id] = hit
        collected.candidates[hit.id] = Candidate(chunk_id=hit.id, keyword_score=hit.score, keyword_rank=rank,
                                                 entry_id=hit.entry_id)


def _semantic_leg_collect(collected: Collected, *, embedding: QueryEmbedding, query_vector: list[float] | None,
                          workspace_id: int, where: ChunkFilter, depth: int, ef_search: int, include_vectors: bool,
                          prepared: KeywordQuery | None) -> None:
    """The vector leg's candidates (`depth` of them) into `collected`, merged with the keyword leg's."""
    hits, candidates = collected.hits, collected.candidates
    collected.model, collected.dimensions = embedding.model, embedding.dimensions
    semantic_hits = vector_candidates(
        workspace_id=workspace_id, model_name=embedding.model, dimensions=embedding.dimensions,
        query_vector=query_vector, limit=depth, where=where.compiled, ef_search=ef_search,
        include_vectors=include_vectors, centroid=passage_centroid(embedding.model),
        # The keyword leg read the workspace's chunk count with its terms' statistics.
        workspace_chunks=prepared.chunks if prepared is not None and prepared.query_terms else None)
    collected.legs_used.append(LEG_SEMANTIC)
    collected.leg_meta[LEG_SEMANTIC] = {"model": collected.model, "returned": len(semantic_hits),
                                        "plan": getattr(semantic_hits, "plan", None)}
    for rank, hit in enumerate(semantic_hits, start=1):
        if hit.id not in hits or (include_vectors and hit.vector is not None):
            hits[hit.id] = hit
        candidate = candidates.setdefault(hit.id, Candidate(chunk_id=hit.id, entry_id=hit.entry_id))
        candidate.semantic_score, candidate.semantic_rank = hit.score, rank
        candidate.passage_background = hit.passage_background


def _candidates_score_on_every_leg(collected: Collected, *, prepared: KeywordQuery | None,
                                   query_vector: list[float] | None) -> None:
    """Score every candidate on both legs where it can be scored (one leg found it, the other scores it)."""
    candidates = collected.candidates
    if LEG_KEYWORD in collected.legs_used and prepared is not None:
        missing = [cid for cid, c in candidates.items() if c.keyword_score is None]
        found = keyword_scores(prepared, missing)
        for cid in missing:  # no query word in the chunk: its BM25 score is 0
            candidates[cid].keyword_score = found.get(cid, 0.0)
    if LEG_SEMANTIC in collected.legs_used and query_vector is not None:
        missing = [cid for cid, c in candidates.items() if c.semantic_score is None]
        scores = _cosine_scores(missing, model=collected.model, dimensions=collected.dimensions, vector=query_vector)
        for cid, (score, passage) in scores.items():
            candidates[cid].semantic_score, candidates[cid].passage_background = score, passage


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 6)


def _cosine_scores(chunk_ids: list[int], *, model: str | None, dimensions: int | None, vector: list[float]
                   ) -> dict[int, tuple[float, float | None]]:
    """Cosine similarity of the query to each of these chunks that has a vector of `model`, and
    the chunk's own background where the model's calibration reads it (else None)."""
    if not chunk_ids or model is None or dimensions is None:
        return {}
    dims = int(dimensions)
    centroid = centroid_params(passage_centroid(model))
    with search_cursor() as cursor:
        cursor.execute(
            f"SELECT c.id, 1 - ((v.embedding::vector({dims})) <=> %s::vector({dims}))"
            + (centroid_column(dims) if centroid else ", NULL")
            + f" FROM ingestion_chunkvector v JOIN ingestion_chunk c ON c.id = v.chunk_id{same_workspace('c', 'v')}"
            " WHERE v.chunk_id = ANY(%s) AND v.model = %s",
            [vector_literal(vector), *(centroid or ()), chunk_ids, model],
        )
        return {int(cid): (float(score), None if passage is None else float(passage))
                for cid, score, passage in cursor.fetchall()}


def candidates_rerank(workspace_id: int, query: str, ranked: list[Candidate], hits: dict[int, ChunkHit],
            options: HybridOptions) -> tuple[list[Candidate], list[float], dict[str, Any]]:
    """Rerank the best MAX_RERANK_CANDIDATES candidates of `ranked` (top_k is at most that many)
    against `query`, each combined with its `fused` score and its position: (order, scores, meta)."""
    head = ranked[:MAX_RERANK_CANDIDATES]
    try:
        relevance, model_name = rerank_relevance(workspace_id=workspace_id, query=query,
                                                 documents=[hits[c.chunk_id].text for c in head])
    except RerankUnavailable as exc:
        raise HybridSearchError(exc.code, exc.message, status=exc.status) from exc
    scores = rerank_combine([c.fused for c in head], relevance, options.rerank_weights)
    order = sorted(range(len(head)), key=lambda i: (-scores[i], head[i].chunk_id))
    reranked = [head[i] for i in order]
    final = [scores[i] for i in order]
    meta = {"model": model_name, "weights": options.rerank_weights, "candidates": len(head)}
    return reranked, final, meta
