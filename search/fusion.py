"""Fusion of the keyword and semantic rankings, and the rerank combination: pure functions, no I/O.

Weighted fusion (the default): each leg's scores are divided by that leg's best score over
the candidates (the union of both legs' top lists, every candidate scored by both legs
where it can be), with 0 as the floor (BM25's own minimum; a negative cosine counts as 0),
then fused = keyword_weight x keyword_norm + semantic_weight x semantic_norm. A leg that
has no score for a candidate (a chunk still waiting for its vector) contributes 0; a chunk
without the query's words has BM25 0. (Min-max over the candidates is the alternative the
fit measured; see DEFAULT_NORMALIZATION.)

RRF (the option): fused = sum over legs of weight / (RRF_K + rank), ranks from each leg's
own list (1 = best); a chunk absent from a leg's list gets nothing from it.

Default weights depend on the query's script, and were fitted by `bench/fusion_fit.py` on
SciFact's train queries (English) and JSQuAD's `valid` queries (Japanese); no test query
was used. The figures that chose them are in docs/design/hybrid.md ("Fusion").

Rerank (the Mastra vector query tool's formula): final = rerank x relevance + vector x
(fused / best fused) + position x (1 - index / candidates), index 0 for the best fused.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

FUSION_WEIGHTED = "weighted"
FUSION_RRF = "rrf"
FUSION_METHODS = (FUSION_WEIGHTED, FUSION_RRF)
RRF_K = 60

# Fitted default weights (keyword, semantic) by the query's script; see bench/fusion_fit.py
# (nDCG@10 at the product's depth, max normalisation): SciFact train 0.690 at 0.60/0.40
# (keyword alone 0.680, semantic alone 0.481); JSQuAD valid 0.940 at 0.75/0.25 (0.937, 0.756).
DEFAULT_WEIGHTS_LATIN = (0.6, 0.4)
DEFAULT_WEIGHTS_CJK = (0.75, 0.25)
# A query is "CJK" when at least this share of its letters are CJK characters.
CJK_SHARE = 0.3

# Mastra's defaults (packages/rag/src/rerank: semantic 0.4, vector 0.4, position 0.2).
DEFAULT_RERANK_WEIGHTS = {"rerank": 0.4, "vector": 0.4, "position": 0.2}


@dataclass
class Candidate:
    """One chunk in the fusion: its raw score and rank (1-based) in each leg, where it has them."""

    chunk_id: int
    keyword_score: float | None = None
    keyword_rank: int | None = None
    semantic_score: float | None = None
    semantic_rank: int | None = None
    fused: float = 0.0


def is_cjk(ch: str) -> bool:
    name = unicodedata.name(ch, "")
    return name.startswith(("CJK", "HIRAGANA", "KATAKANA", "HANGUL"))


def query_script(query: str) -> str:
    """"cjk" if enough of the query's letters are Chinese, Japanese or Korean, else "latin"."""
    letters = [ch for ch in query if ch.isalpha()]
    if not letters:
        return "latin"
    share = sum(1 for ch in letters if is_cjk(ch)) / len(letters)
    return "cjk" if share >= CJK_SHARE else "latin"


def default_weights(query: str) -> tuple[float, float]:
    """The fitted (keyword, semantic) weights for this query's script."""
    return DEFAULT_WEIGHTS_CJK if query_script(query) == "cjk" else DEFAULT_WEIGHTS_LATIN


NORMALIZATIONS = ("minmax", "max")
# Fitted with the weights (bench/fusion_fit.py): on the two fit sets together "max" scored
# 0.690 + 0.940 at its best weights, "minmax" 0.689 + 0.940.
DEFAULT_NORMALIZATION = "max"


def _max_scaled(values: Sequence[float | None]) -> list[float]:
    """Scores over the best one, with 0 as the floor (BM25's own minimum; cosine below 0 is 0)."""
    high = max((v for v in values if v is not None), default=0.0)
    if high <= 0:
        return [0.0] * len(values)
    return [0.0 if v is None else max(0.0, v) / high for v in values]


def _minmax(values: Sequence[float | None]) -> list[float]:
    present = [v for v in values if v is not None]
    if not present:
        return [0.0] * len(values)
    low, high = min(present), max(present)
    if high - low <= 1e-12:
        return [0.0 if v is None else 1.0 for v in values]
    return [0.0 if v is None else (v - low) / (high - low) for v in values]


def fuse(candidates: list[Candidate], *, method: str, keyword_weight: float, semantic_weight: float,
         normalization: str = DEFAULT_NORMALIZATION) -> list[Candidate]:
    """Set each candidate's `fused` score and return them best first (ties: lower chunk id)."""
    if method == FUSION_RRF:
        for c in candidates:
            c.fused = (keyword_weight / (RRF_K + c.keyword_rank) if c.keyword_rank else 0.0) + (
                semantic_weight / (RRF_K + c.semantic_rank) if c.semantic_rank else 0.0)
    else:
        scale = _max_scaled if normalization == "max" else _minmax
        keyword = scale([c.keyword_score for c in candidates])
        semantic = scale([c.semantic_score for c in candidates])
        for c, k, s in zip(candidates, keyword, semantic):
            c.fused = keyword_weight * k + semantic_weight * s
    return sorted(candidates, key=lambda c: (-c.fused, c.chunk_id))


def rerank_combine(fused: Sequence[float], relevance: Sequence[float], weights: dict[str, float]) -> list[float]:
    """Final scores of candidates in fused order (best first), given the reranker's relevance of each."""
    total = len(fused)
    best = max(fused) if fused else 0.0
    return [
        weights["rerank"] * rel
        + weights["vector"] * (f / best if best > 0 else 0.0)
        + weights["position"] * (1.0 - index / total)
        for index, (f, rel) in enumerate(zip(fused, relevance))
    ]
