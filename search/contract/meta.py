"""What a chunk search's `meta` says beyond the index facts, typed: one dataclass per kind, filled
by the steps of the search (the ranking, the grouping by entry, the relevance floor), and turned
into JSON here only (`ChunkSearchMeta.as_dict`, which SearchResult.as_dict calls).

The keys come in the order the answers have always had: the chunks ranked (when grouped by
entry), the kind's own facts, the floor's verdict, then `words` and `results`. A field left None
is a key left out, except where the JSON says null (`best_confidence`, `fallback_reason`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, kw_only=True)
class AnswerMeta:
    """The relevance floor's verdict (search/engine/confidence.py): whether the rows are answers."""

    answerable: bool
    best_confidence: float | None  # rounded to 4 places; null when no row had a confidence
    min_confidence: float
    calibrated: bool = True  # said only when False: the model has no calibration

    def as_dict(self) -> dict[str, Any]:
        meta: dict[str, Any] = {"answerable": self.answerable, "best_confidence": self.best_confidence,
                                "min_confidence": self.min_confidence}
        if not self.calibrated:
            meta["confidence_calibrated"] = False
        return meta


@dataclass(frozen=True, kw_only=True)
class ChunkSearchMeta:
    """What every chunk search adds: the grouping's count and shape (search/engine/entry_results.py),
    the floor's verdict, and what the workspace holds of the query's words (search/engine/words_held.py)."""

    chunks_ranked: int | None = None  # chunks ranked to fill a page of entries; None for raw chunks
    answer: AnswerMeta | None = None
    words: dict[str, Any] | None = None
    results: str | None = None  # "entries" or "chunks"

    def kind_items(self) -> dict[str, Any]:
        """The kind's own keys, in their order."""
        return {}

    def as_dict(self) -> dict[str, Any]:
        meta: dict[str, Any] = {} if self.chunks_ranked is None else {"chunks_ranked": self.chunks_ranked}
        meta.update(self.kind_items())
        if self.answer is not None:
            meta.update(self.answer.as_dict())
        if self.words is not None:
            meta["words"] = self.words
        if self.results is not None:
            meta["results"] = self.results
        return meta


@dataclass(frozen=True, kw_only=True)
class SemanticMeta(ChunkSearchMeta):
    """Semantic search: the query rules it does not apply, and how the vector rows were ranked."""

    rules_skipped: tuple[str, ...] = ()
    vector_plan: str | None = None

    def kind_items(self) -> dict[str, Any]:
        return {"rules_skipped": list(self.rules_skipped), "vector_plan": self.vector_plan}


@dataclass(frozen=True, kw_only=True)
class HybridMeta(ChunkSearchMeta):
    """Hybrid search: the legs that ran, the fusion and its weights, the candidates, the typo
    corrections and synonym expansions, and the rerank when one ran."""

    legs_used: list[str] = field(default_factory=list)
    fusion: str | None = None
    weights: dict[str, Any] = field(default_factory=dict)
    candidates: int = 0
    legs: dict[str, Any] = field(default_factory=dict)
    degraded: dict[str, Any] | None = None
    corrections: list[Any] = field(default_factory=list)
    expanded: list[Any] = field(default_factory=list)
    corrected_query: str | None = None
    rerank: dict[str, Any] | None = None

    def kind_items(self) -> dict[str, Any]:
        meta: dict[str, Any] = {"search": "hybrid", "legs_used": self.legs_used, "fusion": self.fusion,
                                "weights": self.weights, "candidates": self.candidates, "legs": self.legs}
        if self.degraded:
            meta["degraded"] = self.degraded
        meta["corrections"] = self.corrections
        meta["expanded"] = self.expanded
        if self.corrected_query is not None:
            meta["corrected_query"] = self.corrected_query
        if self.rerank is not None:
            meta["rerank"] = self.rerank
        return meta


@dataclass(frozen=True, kw_only=True)
class AgenticMeta(ChunkSearchMeta):
    """Agentic search: its parts and which path answered. On the standard path (`standard`: the
    plain hybrid search of the whole question answered) the hybrid search's meta comes first,
    under `search: agentic`; on the agentic path, the parts' merged facts."""

    path: str
    parts: list[str]
    parts_source: str
    fallback_reason: dict[str, Any] | None = None
    standard: HybridMeta | None = None
    merge: str | None = None
    legs_used: list[str] = field(default_factory=list)
    fusion: str | None = None
    weights: dict[str, Any] = field(default_factory=dict)
    candidates: int = 0
    legs: dict[str, Any] = field(default_factory=dict)
    part_results: list[dict[str, Any]] = field(default_factory=list)
    corrections: list[Any] = field(default_factory=list)
    expanded: list[Any] = field(default_factory=list)
    degraded: dict[str, Any] | None = None
    rerank: dict[str, Any] | None = None

    def kind_items(self) -> dict[str, Any]:
        parts = {"path": self.path, "parts": self.parts, "parts_source": self.parts_source,
                 "fallback_reason": self.fallback_reason}
        if self.standard is not None:
            return {**self.standard.kind_items(), "search": "agentic", **parts}
        meta: dict[str, Any] = {
            "search": "agentic", **parts, "merge": self.merge, "legs_used": self.legs_used, "fusion": self.fusion,
            "weights": self.weights, "candidates": self.candidates, "legs": self.legs,
            "part_results": self.part_results, "corrections": self.corrections, "expanded": self.expanded,
        }
        if self.degraded:
            meta["degraded"] = self.degraded
        if self.rerank is not None:
            meta["rerank"] = self.rerank
        return meta
