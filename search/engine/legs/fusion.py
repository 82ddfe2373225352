"""Fusion of the keyword and semantic rankings, and the rerank combination: pure functions, no I/O.

One calculation, `fuse_arrays`, ranks the candidates of a query for the product (hybrid and
agentic search, through `fuse`) and for the benches (bench/fusion_fit.py, bench/eval.py),
so what was measured is what runs. Methods:

- adaptive (the default): each leg's scores become z-scores over the candidates (how many
  standard deviations above the candidates' mean), and
  fused = sigmoid(bias + wk(q) x keyword_z + ws(q) x semantic_z), where the leg weights
  wk(q), ws(q) are linear in a handful of facts known when the query runs
  (`QueryFeatures`: how many of its terms the keyword dictionary knows and how rare they are,
  the keyword leg's top-score gap, the vector leg's score spread, the query's length and
  script). The coefficients are fitted by bench/fusion_fit.py (leave-one-set-out on the
  fit splits; docs/design/fusion.md); nothing is set by hand per language, and the default
  fit gives length and script 0: a query is weighed by what its legs say. Fused is 0..1.
- weighted: each leg's scores over that leg's best candidate (0 as the floor), then
  keyword_weight x keyword + semantic_weight x semantic (0..1).
- rrf: sum over legs of weight / (RRF_K + rank), ranks from each leg's own list.

With `entries`, a chunk that is its entry's best candidate is fused on its entry's evidence
(each leg's best normalised score over the entry's candidate chunks), so an entry matched by
one leg in one passage and by the other in another is not split in two; its other chunks keep
their own score (ADAPTIVE_AGGREGATE says whether adaptive fusion does this; the others do not).

Rerank (the Mastra vector query tool's formula): final = rerank x relevance + vector x
(fused / best fused) + position x (1 - index / candidates), index 0 for the best fused.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from search.contract.fusion_methods import (  # noqa: F401 - the methods' names, re-exported
    DEFAULT_FUSION,
    DEFAULT_RERANK_WEIGHTS,
    FUSION_ADAPTIVE,
    FUSION_METHODS,
    FUSION_RRF,
    FUSION_WEIGHTED,
)

# --- fitted by bench/fusion_fit.py on the fit splits of every set -------------------------
# The fixed weights that `weighted` and `rrf` use when a request names the method but no weights.
DEFAULT_KEYWORD_WEIGHT = 0.5
RRF_K = 60
# adaptive: fused = sigmoid(ADAPTIVE_BIAS + (ADAPTIVE_KEYWORD . f) keyword_z + (ADAPTIVE_SEMANTIC . f) semantic_z),
# f = QueryFeatures.vector() = (1, coverage, rarity, keyword_gap, semantic_spread, length, cjk).
# Which candidate these are, how they were chosen and why the bias is 0: docs/design/fusion.md,
# "The fitted values".
ADAPTIVE_BIAS = 0.0
ADAPTIVE_KEYWORD = (0.2086, 0.8457, 1.7121, -0.4358, -1.9987, 0.0, 0.0)
ADAPTIVE_SEMANTIC = (0.7086, 0.3336, -1.1422, 0.4544, 0.6373, 0.0, 0.0)
ADAPTIVE_AGGREGATE = True  # an entry's best chunk fused on the entry's best evidence per leg
# The embedding models fitted apart, (bias, keyword coefficients, semantic coefficients) each:
# each model's cosines have their own spread, so the features that read them (semantic_spread)
# and the weight its leg earns differ. Fitted by `EVAL_EMBEDDING=<model> bench/fusion_fit.py`
# (docs/design/fusion.md, "Per embedding model"). A model not named here (a provider's, the
# local USE model) is fused with the constants above. The bias is 0 for the reason above.
ADAPTIVE_BY_MODEL: dict[str, tuple[float, tuple[float, ...], tuple[float, ...]]] = {
    # listwise+entry, refitted once the keyword leg kept the question words (Lucene's stop list,
    # ingestion/keywords.py); how it was chosen: docs/design/fusion.md, "The refit after the stop-word change".
    "multilingual-e5-small": (0.0, (0.3735, -0.6693, 0.6274, -0.4868, -2.0525, 1.2030, 0.8942),
                              (2.3611, 0.2723, -0.7833, -0.0544, -0.2586, -1.1655, 0.2735)),
}
# --- end of fitted values ---
# Each leg's weight when the fitted weights of a query are both 0 (adaptive_weights): chosen,
# not fitted; the z-scores of the legs that ran, summed.
NEUTRAL_WEIGHT = 1.0

FEATURE_NAMES = ("const", "coverage", "rarity", "keyword_gap", "semantic_spread", "length", "cjk")
# The query length feature saturates at this many distinct terms.
LENGTH_SATURATION = 32



@dataclass
class Candidate:
    """One chunk in the fusion: its raw score and rank (1-based) in each leg, where it has them."""

    chunk_id: int
    keyword_score: float | None = None
    keyword_rank: int | None = None
    semantic_score: float | None = None
    semantic_rank: int | None = None
    fused: float = 0.0
    entry_id: int | None = None
    # Its vector's mean cosine to the confidence's background (ChunkHit.passage_background), read
    # with the semantic score where the model's calibration reads it.
    passage_background: float | None = None


@dataclass(frozen=True)
class FusionSetting:
    """How one query is fused: the method and, for weighted/rrf, the legs' weights.

    `source` says which applied: "request", "workspace" (the workspace's pin) or "default".
    For adaptive, the weights are the query's own (see `adaptive_weights`) unless given.
    """

    method: str = DEFAULT_FUSION
    keyword_weight: float | None = None
    semantic_weight: float | None = None
    source: str = "default"

    def weights(self) -> tuple[float, float]:
        """(keyword, semantic) fixed weights: the given ones, else DEFAULT_KEYWORD_WEIGHT and its complement."""
        keyword = self.keyword_weight
        semantic = self.semantic_weight
        if keyword is None and semantic is None:
            return DEFAULT_KEYWORD_WEIGHT, 1.0 - DEFAULT_KEYWORD_WEIGHT
        if keyword is None:
            keyword = 1.0 - semantic  # type: ignore[operator]
        if semantic is None:
            semantic = 1.0 - keyword
        return float(keyword), float(semantic)

    @property
    def fixed(self) -> bool:
        return self.keyword_weight is not None or self.semantic_weight is not None


@dataclass(frozen=True)
class QueryFeatures:
    """What is known about a query when it runs, each about 0..1 (see the module docstring)."""

    coverage: float = 0.0  # share of the query's terms the workspace's keyword dictionary knows
    rarity: float = 0.0  # mean idf of the known terms over ln(1 + chunks): 1 = each in one chunk
    keyword_gap: float = 0.0  # (best - second best BM25) / best over the candidates
    semantic_spread: float = 0.0  # best cosine - mean cosine over the candidates
    length: float = 0.0  # ln(1 + distinct terms) / ln(1 + LENGTH_SATURATION), at most 1
    cjk: float = 0.0  # share of the query's letters that are CJK

    def vector(self) -> np.ndarray:
        return np.array([1.0, self.coverage, self.rarity, self.keyword_gap, self.semantic_spread, self.length,
                         self.cjk])


def is_cjk(ch: str) -> bool:
    name = unicodedata.name(ch, "")
    return name.startswith(("CJK", "HIRAGANA", "KATAKANA", "HANGUL"))


def cjk_share(query: str) -> float:
    """The share of the query's letters that are Chinese, Japanese or Korean (0 with no letters)."""
    letters = [ch for ch in query if ch.isalpha()]
    if not letters:
        return 0.0
    return sum(1 for ch in letters if is_cjk(ch)) / len(letters)


def query_features(*, query: str, query_terms: int, known_idfs: Sequence[float], chunks: int,
                   keyword_scores: Sequence[float], semantic_scores: Sequence[float]) -> QueryFeatures:
    """The QueryFeatures of one query from what its legs already read (no extra I/O).

    `query_terms`: its distinct keyword terms; `known_idfs`: the BM25 idf of each of them the
    workspace knows; `chunks`: the workspace's chunk count; the legs' scores of the candidates.
    """
    coverage = len(known_idfs) / query_terms if query_terms else 0.0
    rarity = (sum(known_idfs) / len(known_idfs)) / math.log(1.0 + chunks) if known_idfs and chunks > 1 else 0.0
    top = sorted((s for s in keyword_scores if s is not None), reverse=True)[:2]
    gap = (top[0] - (top[1] if len(top) > 1 else 0.0)) / top[0] if top and top[0] > 0 else 0.0
    cosines = [s for s in semantic_scores if s is not None]
    spread = max(cosines) - sum(cosines) / len(cosines) if cosines else 0.0
    length = min(1.0, math.log1p(query_terms) / math.log1p(LENGTH_SATURATION))
    return QueryFeatures(coverage=min(1.0, coverage), rarity=min(1.0, rarity), keyword_gap=gap,
                         semantic_spread=spread, length=length, cjk=cjk_share(query))


def adaptive_model(embedding_model: str | None) -> tuple[float, tuple[float, ...], tuple[float, ...]]:
    """The adaptive fusion fitted for the embedding model that ranked the semantic leg (None: the
    leg did not run): its own fit where ADAPTIVE_BY_MODEL has one, else the default fit."""
    return ADAPTIVE_BY_MODEL.get(embedding_model or "", (ADAPTIVE_BIAS, ADAPTIVE_KEYWORD, ADAPTIVE_SEMANTIC))


def adaptive_weights(features: QueryFeatures, *, keyword_ran: bool = True, semantic_ran: bool = True,
                     model: tuple | None = None) -> tuple[float, float]:
    """The (keyword, semantic) z-score weights the fitted model (or `model`) gives this query:
    each at least 0, and 0 for a leg that did not run.

    Never both 0: then every candidate would fuse to the same 0.5 and come back in chunk-id
    order, whatever the legs said. That happens outside what the model was fitted on: a
    two-character Japanese query in a six-entry workspace (one keyword match standing far
    above the rest, all CJK, one term) drove both linear weights below 0, and 返品 ranked its
    only exact match fifth though both legs ranked it first. Then the legs that ran count
    alike (NEUTRAL_WEIGHT each)."""
    _, coef_k, coef_s = model if model is not None else (ADAPTIVE_BIAS, ADAPTIVE_KEYWORD, ADAPTIVE_SEMANTIC)
    f = features.vector()
    keyword = max(0.0, float(np.dot(coef_k, f))) if keyword_ran else 0.0
    semantic = max(0.0, float(np.dot(coef_s, f))) if semantic_ran else 0.0
    if keyword == 0.0 and semantic == 0.0:
        keyword, semantic = (NEUTRAL_WEIGHT if keyword_ran else 0.0), (NEUTRAL_WEIGHT if semantic_ran else 0.0)
    return keyword, semantic


# --- the one calculation -----------------------------------------------------------------------

def _zscores(values: np.ndarray) -> np.ndarray:
    """(value - mean) / std over the present values; a missing one (nan) counts as the lowest."""
    present = ~np.isnan(values)
    out = np.zeros(len(values))
    if not present.any():
        return out
    kept = values[present]
    std = kept.std()
    if std > 1e-12:
        out[present] = (kept - kept.mean()) / std
        out[~present] = out[present].min()
    return out


def _max_scaled(values: np.ndarray) -> np.ndarray:
    """Scores over the best one, with 0 as the floor (BM25's own minimum; cosine below 0 is 0)."""
    clean = np.nan_to_num(values, nan=0.0).clip(min=0.0)
    high = clean.max() if len(clean) else 0.0
    return clean / high if high > 0 else np.zeros(len(values))


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(x, -40.0, 40.0)))


def _entry_boost(own: np.ndarray, keyword: np.ndarray, semantic: np.ndarray, entries: np.ndarray, combine
                 ) -> np.ndarray:
    """Each entry's best chunk (by its own fused score) fused on the entry's best score per leg."""
    fused = own.copy()
    order = np.lexsort((-own, entries))  # by entry, best own score first
    sorted_entries = entries[order]
    starts = np.flatnonzero(np.r_[True, sorted_entries[1:] != sorted_entries[:-1]])
    if len(starts) == len(entries):
        return fused  # one chunk per entry: nothing to aggregate
    best_k = np.maximum.reduceat(keyword[order], starts)
    best_s = np.maximum.reduceat(semantic[order], starts)
    heads = order[starts]
    fused[heads] = np.maximum(own[heads], combine(best_k, best_s, heads))
    return fused


def fuse_arrays(keyword: np.ndarray, semantic: np.ndarray, *, setting: FusionSetting,
                features: QueryFeatures | None = None, keyword_rank: np.ndarray | None = None,
                semantic_rank: np.ndarray | None = None, entries: np.ndarray | None = None,
                aggregate: bool | None = None, model: tuple | None = None) -> np.ndarray:
    """The fused score (0..1 for adaptive and weighted) of every candidate.

    `keyword`, `semantic`: each candidate's raw leg score, nan where the leg has none (a leg
    that did not run is all nan). Ranks (1-based, 0 = not in the leg's list) are for rrf.
    `entries`: each candidate's entry (for `aggregate`, default ADAPTIVE_AGGREGATE).
    `model`: (bias, keyword coefficients, semantic coefficients) instead of the fitted ones
    (bench/fusion_fit.py measures others through this same function).
    """
    count = len(keyword)
    if count == 0:
        return np.zeros(0)
    if aggregate is None:
        aggregate = ADAPTIVE_AGGREGATE and setting.method == FUSION_ADAPTIVE
    keyword_ran, semantic_ran = not np.isnan(keyword).all(), not np.isnan(semantic).all()
    if setting.method == FUSION_RRF:
        wk, ws = setting.weights()
        fused = np.zeros(count)
        for ranks, weight, ran in ((keyword_rank, wk, keyword_ran), (semantic_rank, ws, semantic_ran)):
            if ranks is not None and ran:
                fused += np.where(ranks > 0, weight / (RRF_K + np.maximum(ranks, 1)), 0.0)
        return fused
    if setting.method == FUSION_WEIGHTED:
        wk, ws = setting.weights()
        wk, ws = (wk if keyword_ran else 0.0), (ws if semantic_ran else 0.0)
        k, s = _max_scaled(keyword), _max_scaled(semantic)

        def combine(kv, sv, _index=None):
            return wk * kv + ws * sv
        bias = 0.0
    elif setting.method == FUSION_ADAPTIVE:
        k, s = _zscores(keyword), _zscores(semantic)
        if setting.fixed:
            wk, ws = setting.weights()
            bias = 0.0
        else:
            bias = model[0] if model is not None else ADAPTIVE_BIAS
            wk, ws = adaptive_weights(features or QueryFeatures(), keyword_ran=keyword_ran, semantic_ran=semantic_ran,
                                      model=model)
        wk, ws = (wk if keyword_ran else 0.0), (ws if semantic_ran else 0.0)

        def combine(kv, sv, _index=None):
            return _sigmoid(bias + wk * kv + ws * sv)
    else:
        raise ValueError(f"unknown fusion method {setting.method!r}")
    fused = combine(k, s)
    if aggregate and entries is not None:
        fused = _entry_boost(fused, k, s, entries, combine)
    return fused


def fuse(candidates: list[Candidate], *, setting: FusionSetting, features: QueryFeatures | None = None,
         aggregate: bool | None = None, embedding_model: str | None = None) -> list[Candidate]:
    """Set each candidate's `fused` score (fuse_arrays) and return them best first (ties: lower chunk id).
    `embedding_model`: the model of the semantic leg's vectors, whose fit adaptive fusion uses."""
    if not candidates:
        return []
    nan = float("nan")
    keyword = np.array([nan if c.keyword_score is None else c.keyword_score for c in candidates], dtype=float)
    semantic = np.array([nan if c.semantic_score is None else c.semantic_score for c in candidates], dtype=float)
    keyword_rank = np.array([c.keyword_rank or 0 for c in candidates])
    semantic_rank = np.array([c.semantic_rank or 0 for c in candidates])
    # A chunk of an asset has no entry: it stands alone (a negative id no entry has).
    entries = np.array([c.entry_id if c.entry_id is not None else -c.chunk_id for c in candidates])
    fused = fuse_arrays(keyword, semantic, setting=setting, features=features, keyword_rank=keyword_rank,
                        semantic_rank=semantic_rank, entries=entries, aggregate=aggregate,
                        model=adaptive_model(embedding_model))
    for c, value in zip(candidates, fused.tolist()):
        c.fused = value
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
