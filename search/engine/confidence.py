"""How sure a chunk search is that a result answers the query: a calibrated confidence, and the floor under which the answer is "no good match".

`hit_confidence(hit)` is a probability (0..1) that the row is relevant, read from the scores the
row already carries: the vector leg's cosine similarity and the keyword leg's BM25 score
(`hit.legs`, or `hit.score` for semantic search), and its query's background: the query's
cosines to a fixed set of unrelated sentences, summed up as the model's calibration reads them
(search/engine/confidence_background.py, `hit.background`, set by the search that embedded the
query), and the row's own background where the model's calibration reads it: its vector's mean
cosine to the same sentences (`hit.passage_background`, computed by the vector leg's SQL beside
the row's distance), so a passage near everything needs a higher cosine. It is a logistic model
per embedding model and per set of legs that scored the row, fitted by bench/confidence_fit.py
on the fit splits of ../shared/eval/ only (model chosen by leave-one-set-out; figures in
docs/design/confidence.md), each table's bias set so that one floor (DEFAULT_MIN_CONFIDENCE)
serves every model and kind: it is where the share of any set's answerable queries refused is at
most 5% with 95% confidence, read on its fit queries. It depends on nothing but the row and its
query, so it means the same for any workspace, fusion or rerank, and for whatever row is
presented (a chunk, or an entry's best chunk).

`answer_floor_apply` runs last in every chunk search, on hits already scoped to what the
caller may see (a published-only caller's `best_confidence` never comes from a draft). The
verdict reads the chunks a page's ranking holds (`chunks_judged`, the first 40 for 10 entries), shown
in a row or not: the floor was fitted on those. Under
the floor (`min_confidence`, search/contract/options.py) the answer says `meta.answerable: false`, and
its hits are dropped unless the caller asked for the candidates (`include_candidates`). A hit
an editor pinned to the query (search/engine/promotions.py) is an answer whatever its scores, and
so is one whose entry holds every word of a query that reads as keywords (`holds_words`,
search/engine/words_held.py: a rule no fit can undo). Over the floor, the answer ends where
relevance ends: after the first row, rows that are not answers in their own right
(`rows_answering`: over the floor, or near the first row's confidence, LIST_END) are
candidates, returned only with `include_candidates`. Rows
ranked with an embedding model that has no calibration, or by keywords alone, get no
confidence, and the floor does not apply to them (`meta.confidence_calibrated: false`).

Full-text search has no confidence: it is a literal substring match, so every entry it
returns contains the query; there is no score to calibrate and nothing "near" to refuse.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ingestion.embeddings import get_embedding_backend_for_model
from search.contract.meta import AnswerMeta
from search.contract.options import DEFAULT_MIN_CONFIDENCE
from search.contract.results import ChunkHit, SearchResult
from search.engine.confidence_background import BACKGROUND, background_statistic, text_script

# The embedding model -> which legs scored a row -> (bias, weight of the cosine similarity,
# weight of log(1 + BM25), weight of the query's background, weight of the row's own background).
# Cosine similarities differ in scale from model to model, so each model has its own fit. A row
# scored by the keyword leg alone (the vector leg down) has no confidence: raw BM25 depends on
# the corpus and did not survive leave-one-set-out. Fitted by bench/confidence_fit.py on 300 fit
# queries of each of the six sets, chosen by leave-one-set-out; figures in docs/design/confidence.md.
CALIBRATION: dict[str, dict[str, tuple[float, float, float, float, float]]] = {
    "use-multilingual-v3": {
        "semantic": (-5.8118, 11.1757, 0.0, -3.7825, 0.0),
        "hybrid": (-5.5744, 10.1297, 0.0, -4.9894, 0.0),
    },
    "multilingual-e5-small": {
        "semantic": (-11.3898, 26.2558, 0.0, -4.3492, -14.2193),
        "hybrid": (-11.7969, 26.3702, 0.0, -4.7967, -13.3673),
    },
}
# How each model's calibration sums up its query's cosines to the background sentences into the
# one number it weighs (search/engine/confidence_background.py BACKGROUND_STATISTICS), chosen with
# the weights, by the same leave-one-set-out (bench/confidence_fit.py).
BACKGROUND_STATISTIC: dict[str, str] = {
    "use-multilingual-v3": "script",
    "multilingual-e5-small": "mean",
}
# The default floor (DEFAULT_MIN_CONFIDENCE) is declared with the option, in search/contract/options.py.
# After an answered page's first row, a row is a result when its confidence reaches the list's line:
# the floor, or a share of the first row's confidence ("first") or of the floor ("floor"), whichever
# is lower (rows_answering). Per model, as the calibration is: E5's confidence separates rows well
# enough to end a list near its first row; USE's puts judged answers far under the floor. Chosen by
# bench/list_end_fit.py on the fit halves, leave-one-set-out; figures in docs/design/short-queries.md.
LIST_END: dict[str, tuple[str, float]] = {
    "multilingual-e5-small": ("first", 0.4),
    "use-multilingual-v3": ("floor", 0.1),
}


def hit_features(hit: ChunkHit) -> tuple[float | None, float | None, float | None, float | None]:
    """(cosine similarity, BM25 score, the query's background, the row's own background) of a row,
    None for what did not score it."""
    if hit.legs is None:  # semantic search: the score is the cosine similarity
        return hit.score, None, hit.background, hit.passage_background
    semantic = (hit.legs.get("semantic") or {}).get("score")
    keyword = (hit.legs.get("keyword") or {}).get("score")
    return semantic, keyword, hit.background, hit.passage_background


@functools.lru_cache(maxsize=8)
def _background_vectors(model: str) -> np.ndarray:
    """BACKGROUND embedded as documents by `model` (once per process), L2-normalised, as rows."""
    vectors = np.asarray(get_embedding_backend_for_model(model).embed_documents(BACKGROUND), dtype=np.float64)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def reads_background(model: str | None) -> bool:
    """Whether `model`'s calibration weighs the query's background."""
    return model in BACKGROUND_STATISTIC and any(table[3] for table in CALIBRATION[model].values())


def reads_passage_background(model: str | None) -> bool:
    """Whether `model`'s calibration weighs each row's own background."""
    return model in CALIBRATION and any(table[4] for table in CALIBRATION[model].values())


def background_preload(model: str) -> bool:
    """Embed `model`'s background now (once per process) when its calibration reads it; whether it did."""
    if not (reads_background(model) or reads_passage_background(model)):
        return False
    _background_vectors(model)
    return True


@functools.lru_cache(maxsize=8)
def _centroid(model: str) -> tuple[float, ...]:
    return tuple(float(x) for x in _background_vectors(model).mean(axis=0))


def passage_centroid(model: str | None) -> tuple[float, ...] | None:
    """The mean of `model`'s background vectors, for the vector leg to give each row its own
    background (its mean cosine to them: search.engine.legs.vector_leg.centroid_column), when the
    model's calibration reads it; None otherwise.

    A passage near everything (a short field, a list of generic words) is near every query too,
    so its cosine alone overstates how well it answers; its own background says how near
    everything it is (score normalisation on both sides, as speaker verification's symmetric
    normalisation does; the "hubs" of high-dimensional nearest-neighbour search)."""
    if not reads_passage_background(model):
        return None
    return _centroid(model)


def passage_background(model: str, vector: Sequence[float]) -> float:
    """A vector's mean cosine to `model`'s background sentences: what the vector leg's
    `passage_background` column computes in SQL, here in Python (bench/confidence_fit.py, tests)."""
    return float(np.mean(background_cosines(model, vector)))


def background_cosines(model: str, query_vector: Sequence[float]) -> np.ndarray:
    """The query's cosine similarity to each BACKGROUND sentence under `model` (bench/confidence_fit.py
    records them, to fit each way of summing them up)."""
    vector = np.asarray(query_vector, dtype=np.float64)
    return (_background_vectors(model) @ vector) / (np.linalg.norm(vector) or 1.0)


def query_background(model: str | None, query_vector: Sequence[float] | None, query: str) -> float | None:
    """The query's background under `model`: its cosines to BACKGROUND summed up as the model's
    calibration reads them (BACKGROUND_STATISTIC); None for a model whose calibration reads no
    background (none has been fitted) or no vector."""
    if query_vector is None or not reads_background(model):
        return None
    return background_statistic(BACKGROUND_STATISTIC[model], background_cosines(model, query_vector),
                                text_script(query))


def hits_with_background(hits: Sequence[ChunkHit], background: float | None) -> list[ChunkHit]:
    """`hits`, each carrying its query's background (unchanged for None)."""
    return list(hits) if background is None else [replace(hit, background=background) for hit in hits]


def confidence_calibrated(model: str | None) -> bool:
    """Whether rows ranked with this embedding model get a confidence (None: keywords alone, no)."""
    return model in CALIBRATION


def confidence_from(similarity: float | None, keyword: float | None, background: float | None = None,
                    passage: float | None = None, *, model: str | None) -> float | None:
    """The calibrated confidence of a row with these leg scores, its query's background and its
    own (`passage`); None when no leg scored it or the model has no calibration."""
    if similarity is None or model not in CALIBRATION:
        return None
    bias, w_similarity, w_keyword, w_background, w_passage = CALIBRATION[model][
        "semantic" if keyword is None else "hybrid"]
    if (w_background and background is None) or (w_passage and passage is None):
        return None  # a row whose backgrounds were not computed cannot be read on this scale
    z = (bias + w_similarity * (similarity or 0.0) + w_keyword * math.log1p(max(keyword or 0.0, 0.0))
         + w_background * (background or 0.0) + w_passage * (passage or 0.0))
    return 1.0 / (1.0 + math.exp(-max(min(z, 50.0), -50.0)))


def hit_confidence(hit: ChunkHit, *, model: str | None) -> float | None:
    """The calibrated confidence (0..1) that this row answers its query (`model`: the one that ranked it)."""
    return confidence_from(*hit_features(hit), model=model)


@dataclass(frozen=True)
class Verdict:
    """Whether an answer's rows are answers: the best confidence against the floor."""

    answerable: bool
    best_confidence: float | None
    min_confidence: float
    calibrated: bool = True

    def as_meta(self) -> AnswerMeta:
        best = None if self.best_confidence is None else round(self.best_confidence, 4)
        return AnswerMeta(answerable=self.answerable, best_confidence=best, min_confidence=self.min_confidence,
                          calibrated=self.calibrated)


def answer_verdict(hits: list[ChunkHit], *, min_confidence: float, calibrated: bool = True,
                   others: Iterable[float | None] = ()) -> Verdict:
    """Answerable when a hit reaches the floor, an editor pinned one to the query, or one's entry
    holds every word of a keyword query (search/engine/words_held.py); `others`: the confidences
    of chunks the search ranked and judges but does not show. With a model that has no
    calibration nothing can be judged, and the floor does not apply."""
    scores = [c for c in (*(hit.confidence for hit in hits), *others) if c is not None]
    best = max(scores, default=None)
    answerable = (not calibrated and bool(hits)) or any(hit.promoted or hit.holds_words for hit in hits) or (
        best is not None and best >= min_confidence)
    return Verdict(answerable=answerable, best_confidence=best, min_confidence=min_confidence, calibrated=calibrated)


def hit_is_answer(hit: ChunkHit, line: float) -> bool:
    """Whether a row is an answer in its own right: pinned, holding every word of a keyword
    query, or not under `line` (a row with no confidence is not under it)."""
    return hit.promoted or hit.holds_words or hit.confidence is None or hit.confidence >= line


def list_line(first_confidence: float | None, min_confidence: float, model: str) -> float:
    """The confidence a row after an answered page's first must reach to be a result (LIST_END)."""
    form, share = LIST_END.get(model, ("floor", 1.0))
    base = first_confidence if form == "first" else min_confidence
    return min_confidence if base is None else min(min_confidence, share * base)


def rows_answering(hits: Sequence[ChunkHit], min_confidence: float, model: str) -> list[bool]:
    """Which rows of an answered page are results: the first, then each row that is an answer
    in its own right (hit_is_answer) against the list's line (list_line). A row whose confidence
    is near the first's is about as likely an answer as the first, even under the floor (the
    floor judges whether the best row answers at all); one far under both is not."""
    line = list_line(hits[0].confidence if hits else None, min_confidence, model)
    return [rank == 0 or hit_is_answer(hit, line) for rank, hit in enumerate(hits)]


def answer_floor_apply(result: SearchResult, *, request: Mapping[str, Any],
                       judged: Sequence[ChunkHit] = ()) -> SearchResult:
    """The answer with each hit's confidence and `meta.answerable` / `best_confidence`; under the
    floor its hits are dropped unless `request` (validated options) asks for the candidates.
    An answerable list ends where relevance ends: after the first, a row that is not an answer
    (rows_answering) is a candidate, not a result, returned only with `include_candidates`.

    `judged`: the chunks the verdict reads beside the hits (search/engine/entry_results.py
    chunks_judged: the chunks a page's ranking holds, as bench/confidence_fit.py fitted the floor
    on them), whether or not a row shows them."""
    hits = [replace(hit, confidence=hit_confidence(hit, model=result.model)) for hit in result.hits]
    shown = {hit.id for hit in hits}
    verdict = answer_verdict(hits, min_confidence=request["min_confidence"],
                             calibrated=confidence_calibrated(result.model),
                             others=(hit_confidence(hit, model=result.model) for hit in judged if hit.id not in shown))
    if not request["include_candidates"]:
        hits = [hit for hit, answer in zip(hits, rows_answering(hits, verdict.min_confidence, result.model)) if answer
                ] if verdict.answerable and verdict.calibrated else ([] if not verdict.answerable else hits)
    return replace(result, hits=hits, meta=replace(result.meta, answer=verdict.as_meta()))
