"""Agentic search: a compound question split into parts, each part searched by the hybrid pipeline,
the parts' rankings merged so that every part reaches the top k, reranked against the whole
question, and the plain hybrid search of the whole question whenever any of that fails.

How a request runs:

1. Validation: the declared options (`search.contract.options.AgenticSearchOptions`): hybrid search's,
   plus `queries` (the parts the caller wrote, 1 to MAX_QUERIES non-empty strings). Bad input
   is a 400, as for hybrid.
2. Parts: the caller's `queries`, or the configured decomposer's (`search.engine.decompose`). A
   question that does not split is answered by `hybrid_answer` itself: the same ranking.
3. Per part, `hybrid_rank` (both legs, fusion; adaptive fusion weighs each part by its own features), with
   all parts' query vectors made in one provider call.
4. Merge (`merge_rankings`): each part's scores are divided by that part's best, and the
   chunks ranked by that share (a chunk two parts found keeps its higher one), so every
   part's best chunk scores 1 and no part's scale can starve another's; chunks are
   de-duplicated. (Round robin, the parts taking turns, is the alternative: see DEFAULT_MERGE.)
5. Rerank (`rerank: true`): the merged candidates are reranked against the whole question
   (`search.engine.hybrid.candidates_rerank`), then merged again the same way over the reranked
   scores, so the reranker orders each part's chunks but cannot drop a part.
6. Fallback: a decomposer that fails or returns no usable part, a part whose search fails,
   or a reranker that fails: the plain hybrid search of the whole question answers (without
   the rerank when the reranker was what failed), and `meta.fallback_reason` says why.
   Validation errors, and errors the plain hybrid search gives too, reach the caller.

`meta.path` is "agentic" when the parts answered and "standard" when the whole question did.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from collections.abc import Mapping
from typing import Any

from cms.access import WorkspaceAccess
from search.engine.decompose import get_decomposer
from search.contract.errors import SearchError
from search.engine.facets import chunk_search_facets
from search.engine.legs.fusion import Candidate
from search.engine.promotions import promotions_apply_chunks
from search.engine.hybrid import (
    LEG_SEMANTIC,
    MAX_RERANK_CANDIDATES,
    Collected,
    HybridOptions,
    HybridRequest,
    HybridSearchError,
    candidate_legs,
    candidates_rerank,
    hybrid_answer,
    hybrid_meta,
    hybrid_rank,
    hybrid_request_from,
)
from search.engine.query_work import query_work_reused
from search.engine.legs.query_embedding import query_embeddings_start
from search.contract.meta import AgenticMeta
from search.contract.results import ChunkHit, SearchResult
from search.contract.options import AgenticSearchOptions
from search.contract.option_fields import CHUNK_QUERY_MAX_CHARS, MAX_QUERIES
from search.engine.filters.visibility import caller_visibility
from search.engine.legs.vector_leg import chunks_pending_count
from search.engine.entry_results import chunks_judged, entries_grouped, entries_ranked, entries_shown
from search.engine.confidence import answer_floor_apply

logger = logging.getLogger(__name__)

PATH_AGENTIC = "agentic"
PATH_STANDARD = "standard"
MERGE_ROUND_ROBIN = "round_robin"
MERGE_NORMALISED = "normalised"
MERGES = (MERGE_ROUND_ROBIN, MERGE_NORMALISED)
# Chosen on compound questions from the fit splits (bench/agentic.py --fit); the figures:
# docs/design/agentic.md, the merge step.
DEFAULT_MERGE = MERGE_NORMALISED


class _Fallback(Exception):
    """Why the parts could not answer: the stage that failed and its code."""

    def __init__(self, stage: str, code: str, message: str, *, rerank: bool | None = None):
        super().__init__(message)
        self.stage, self.code, self.message, self.rerank = stage, code, message, rerank


def agentic_search(*, access: WorkspaceAccess, **options: Any) -> SearchResult:
    """agentic_run with the options as keywords (for Python callers)."""
    return agentic_run(access, options)


def agentic_run(access: WorkspaceAccess, options: Mapping[str, Any]) -> SearchResult:
    """agentic_ranked, one row per entry unless `raw_chunks` (entries_grouped), its query's work
    done once however often it reruns (query_work_reused)."""
    with query_work_reused():
        return entries_grouped(agentic_ranked, access, AgenticSearchOptions.validated(options))


def agentic_ranked(access: WorkspaceAccess, options: Mapping[str, Any], *, fetch_k: int | None = None,
                   entries_k: int | None = None) -> SearchResult:
    """The `top_k` chunks that answer every part of `query`, in hybrid search's result shape.

    `queries` are the parts when the caller has split the question; otherwise the configured
    decomposer splits it. Every part contributes to the top k. Takes every hybrid option, with
    hybrid's validation and codes; never fails where the plain hybrid search of `query` would
    answer (see the module docstring), and `meta.path` / `meta.fallback_reason` say which
    answered and why.
    """
    validated = AgenticSearchOptions.validated(options)

    def answered(limit: int) -> SearchResult:
        validated["top_k"] = limit  # search/engine/entry_results.py ranks more chunks than entries
        return agentic_answer(access=access, request=hybrid_request_from(access=access, request=validated),
                              queries=validated["queries"])

    result = entries_ranked(answered, lambda ranked: ranked.hits, fetch=fetch_k or validated["top_k"],
                            entries=entries_k)
    facets = chunk_search_facets(access=access, request=validated, pool=result.pool,
                                 rerun=lambda widened: agentic_answer(
                                     access=access, request=hybrid_request_from(access=access, request=widened),
                                     queries=widened["queries"]).pool)
    result = result if facets is None else replace(result, facets=facets)
    promoted = promotions_apply_chunks(result, access=access, request=validated)
    return answer_floor_apply(entries_shown(promoted, entries_k), request=validated,
                              judged=chunks_judged(promoted.hits, entries_k))


def agentic_answer(*, access: WorkspaceAccess, request: HybridRequest, queries: list[str] | None,
                   merge: str = DEFAULT_MERGE) -> SearchResult:
    """Run a validated request (see agentic_search); `merge` is one of MERGES (benchmarks compare them)."""
    source = "request"
    parts = queries
    if parts is None:
        try:
            decomposer = get_decomposer()
            source = f"decomposer:{decomposer.name}"
            parts = _decomposed(decomposer.decompose(request.query))
        except Exception as exc:  # noqa: BLE001 - any decomposer (a model, later) may fail: the whole question answers
            logger.warning("agentic search: decomposition failed, searching the whole question", exc_info=True)
            return _standard(access, request, parts=[request.query], source=source,
                             reason=_reason("decompose", "decomposition_failed", exc))
    if parts == [request.query]:
        return _standard(access, request, parts=parts, source=source, reason=None)
    try:
        return _by_parts(access, request, parts=parts, source=source, merge=merge)
    except _Fallback as failed:
        logger.warning("agentic search: %s failed (%s), searching the whole question", failed.stage, failed.code)
        reason = {"stage": failed.stage, "code": failed.code, "message": failed.message, "parts": parts}
        return _standard(access, request, parts=[request.query], source=source, reason=reason, rerank=failed.rerank)


def _decomposed(parts: Any) -> list[str]:
    """A decomposer's answer, checked: a list of non-empty strings (at most MAX_QUERIES)."""
    if not isinstance(parts, list) or not parts or not all(isinstance(p, str) and p.strip() for p in parts):
        raise ValueError(f"the decomposer returned {type(parts).__name__}, not a list of non-empty strings")
    cleaned = list(dict.fromkeys(p.strip() for p in parts))
    if len(cleaned) > MAX_QUERIES or any(len(p) > CHUNK_QUERY_MAX_CHARS or "\x00" in p for p in cleaned):
        raise ValueError("the decomposer returned too many or too long parts")
    return cleaned


def _reason(stage: str, code: str, exc: BaseException) -> dict[str, Any]:
    message = exc.message if isinstance(exc, SearchError) else f"{type(exc).__name__}: {exc}"
    return {"stage": stage, "code": exc.code if isinstance(exc, SearchError) else code, "message": message}


def _standard(access: WorkspaceAccess, request: HybridRequest, *, parts: list[str], source: str,
              reason: dict[str, Any] | None, rerank: bool | None = None) -> SearchResult:
    """The plain hybrid search of the whole question, with agentic search's meta."""
    result = hybrid_answer(access=access, request=request, rerank=rerank)
    meta = AgenticMeta(path=PATH_STANDARD, parts=parts, parts_source=source, fallback_reason=reason,
                       standard=result.meta)
    return replace(result, meta=meta)


# --- the parts ---------------------------------------------------------------------------------

@dataclass
class _Part:
    query: str
    options: HybridOptions
    collected: Collected
    ranked: list[Candidate]


def part_options(options: HybridOptions, part: str) -> HybridOptions:
    """The request's options for one part. The fusion is the request's, the workspace's pin or
    the default, as for the whole question; adaptive fusion then weighs each part's legs by
    that part's own features (hybrid_rank computes them per part), so a keyword-heavy part
    and a paraphrased part of one question are each fused the way that suits them."""
    return options


def _by_parts(access: WorkspaceAccess, request: HybridRequest, *, parts: list[str], source: str,
              merge: str) -> SearchResult:
    workspace = access.workspace
    options = [part_options(request.options, part) for part in parts]
    embedded = [i for i, o in enumerate(options) if o.semantic_leg]
    embeddings: list[Any] = [None] * len(parts)
    if embedded:
        started = query_embeddings_start(workspace_id=workspace.pk, queries=[parts[i] for i in embedded])
        for i, embedding in zip(embedded, started):
            embeddings[i] = embedding
    searched: list[_Part] = []
    for index, (part, part_opts) in enumerate(zip(parts, options)):
        try:
            collected, ranked = hybrid_rank(workspace_id=workspace.pk, query=part, request=request,
                                            options=part_opts, embedding=embeddings[index])
        except Exception as exc:  # noqa: BLE001 - one part failing sends the whole question to hybrid
            reason = _reason("part", "part_failed", exc)
            raise _Fallback("part", reason["code"], f"part {index + 1} ({part!r}): {reason['message']}") from exc
        searched.append(_Part(query=part, options=part_opts, collected=collected, ranked=ranked))

    threshold = request.threshold
    owner: dict[int, int] = {}  # chunk id -> the part whose turn took it
    rankings = [[(c, c.fused) for c in part.ranked] for part in searched]
    rerank_meta = None
    if request.options.rerank:
        head = merge_rankings(rankings, limit=MAX_RERANK_CANDIDATES, method=merge)
        if head:
            rankings, rerank_meta = _rerank(workspace.pk, request, searched, head)
    if threshold is not None:
        rankings = [[(c, score) for c, score in ranking if score >= threshold] for ranking in rankings]
    merged = merge_rankings(rankings, limit=request.top_k, method=merge)
    pool = tuple(dict.fromkeys(c.chunk_id for ranking in rankings for c, _ in ranking))
    hits: list[ChunkHit] = []
    for part_index, candidate, score in merged:
        owner[candidate.chunk_id] = part_index
        collected = searched[part_index].collected
        hit = collected.hits[candidate.chunk_id]
        hits.append(replace(hit, score=score, background=collected.background,
                            passage_background=candidate.passage_background,
                            legs=candidate_legs(candidate, collected.legs_used),
                            holds_words=collected.holds_words(hit)))
    meta = _meta(request, searched, parts=parts, source=source, merge=merge, owner=owner, rerank=rerank_meta)
    with_model = next((p.collected for p in searched if p.collected.model), searched[0].collected)
    return SearchResult(workspace=workspace, hits=hits, model=with_model.model, dimensions=with_model.dimensions,
                        top_k=request.top_k, ef_search=request.ef_search,
                        pending=chunks_pending_count(workspace_id=workspace.pk, visible=caller_visibility(access)),
                        meta=meta,
                        include_sources=request.include_sources, include_vectors=request.include_vectors, pool=pool)


def _rerank(workspace_id: int, request: HybridRequest, searched: list[_Part],
            head: list[tuple[int, Candidate, float]]) -> tuple[list[list[tuple[Candidate, float]]], dict[str, Any]]:
    """Rerank the merged head against the whole question; each part's chunks in their new order."""
    hits = {c.chunk_id: searched[i].collected.hits[c.chunk_id] for i, c, _ in head}
    part_of = {c.chunk_id: (i, c) for i, c, _ in head}
    # The merged score stands in for the fused one (the "vector" term), the merged position for the position.
    stand_ins = [replace(c, fused=score) for _, c, score in head]
    try:
        order, scores, meta = candidates_rerank(workspace_id, request.query, stand_ins, hits, request.options)
    except HybridSearchError as exc:
        if exc.code == "not_configured":
            raise  # the plain hybrid search answers the same 503: nothing to fall back to
        raise _Fallback("rerank", exc.code, exc.message, rerank=False) from exc
    except Exception as exc:  # noqa: BLE001 - a reranker failing in any way: hybrid without the rerank
        raise _Fallback("rerank", "rerank_failed", f"{type(exc).__name__}: {exc}", rerank=False) from exc
    rankings: list[list[tuple[Candidate, float]]] = [[] for _ in searched]
    for stand_in, score in zip(order, scores):
        index, original = part_of[stand_in.chunk_id]
        rankings[index].append((original, score))
    return rankings, meta


def merge_rankings(rankings: list[list[tuple[Candidate, float]]], *, limit: int, method: str = DEFAULT_MERGE
                   ) -> list[tuple[int, Candidate, float]]:
    """The parts' rankings (each best first, with its scores) as one list of (part, candidate,
    score), at most `limit` long, each chunk once.

    round_robin: the parts take turns, each adding its best chunk not taken yet, so with k
    results and n parts each part places its best k / n. normalised: every score over its
    part's best, a chunk keeping its highest; each part's best is 1, so each still places one.
    A part's ranking need not be in score order (the word rule ranks the entries holding every
    word of a keyword part first, whatever their fused score: words_held.py), so a scaled score
    is capped at the one before it in its part: the part's order holds and its first stays 1.
    """
    if method == MERGE_NORMALISED:
        # chunk id -> (scaled score, rank in its part, part, candidate, score): the best kept.
        best: dict[int, tuple[float, int, int, Candidate, float]] = {}
        for index, ranking in enumerate(rankings):
            top = ranking[0][1] if ranking else 0.0
            ceiling = 1.0
            for rank, (candidate, score) in enumerate(ranking):
                ceiling = min(ceiling, score / top if top > 0 else 0.0)
                entry = (ceiling, rank, index, candidate, score)
                kept = best.get(candidate.chunk_id)
                if kept is None or (-entry[0], entry[1], entry[2]) < (-kept[0], kept[1], kept[2]):
                    best[candidate.chunk_id] = entry
        ordered = sorted(best.values(), key=lambda e: (-e[0], e[1], e[2], e[3].chunk_id))
        return [(index, candidate, score) for _, _, index, candidate, score in ordered[:limit]]
    if method != MERGE_ROUND_ROBIN:
        raise ValueError(f"unknown merge {method!r}")
    merged: list[tuple[int, Candidate, float]] = []
    taken: set[int] = set()
    cursors = [0] * len(rankings)
    while len(merged) < limit:
        added = False
        for index, ranking in enumerate(rankings):
            while cursors[index] < len(ranking) and ranking[cursors[index]][0].chunk_id in taken:
                cursors[index] += 1
            if cursors[index] == len(ranking):
                continue
            candidate, score = ranking[cursors[index]]
            cursors[index] += 1
            taken.add(candidate.chunk_id)
            merged.append((index, candidate, score))
            added = True
            if len(merged) == limit:
                break
        if not added:
            break
    return merged


def _meta(request: HybridRequest, searched: list[_Part], *, parts: list[str], source: str, merge: str,
          owner: dict[int, int], rerank: dict[str, Any] | None) -> AgenticMeta:
    per_part = [hybrid_meta(part.options, part.collected) for part in searched]
    legs_used = [leg for leg in ("keyword", LEG_SEMANTIC) if any(leg in m.legs_used for m in per_part)]
    return AgenticMeta(
        path=PATH_AGENTIC, parts=parts, parts_source=source, fallback_reason=None, merge=merge,
        legs_used=legs_used, fusion=request.options.fusion, weights=per_part[0].weights,
        candidates=len({cid for part in searched for cid in part.collected.candidates}),
        legs={leg: [m.legs.get(leg) for m in per_part] for leg in legs_used},
        part_results=[
            {"query": part.query, "legs_used": m.legs_used, "weights": m.weights, "candidates": m.candidates,
             "returned": sum(1 for index in owner.values() if index == i)}
            for i, (part, m) in enumerate(zip(searched, per_part))
        ],
        corrections=[c for m in per_part for c in m.corrections],
        expanded=[e for m in per_part for e in m.expanded],
        degraded=next((m.degraded for m in per_part if m.degraded), None),
        rerank=rerank)
