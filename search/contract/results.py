"""What every chunk search answers (semantic, hybrid, agentic): ranked chunks and facts about the index."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from cms.models import Workspace
from search.contract.meta import ChunkSearchMeta


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
    # Ranked by the exact fallback rather than the HNSW walk (see vector_fallback_sql).
    exact: bool = False
    # Ranked exactly because few rows matched (search.engine.legs.vector_leg.EXACT_MAX_ROWS), no HNSW walk.
    exact_plan: bool = False
    # Hybrid search: each leg's score and rank for this chunk (search.engine.hybrid); None elsewhere.
    legs: dict[str, dict[str, Any]] | None = None
    # Pinned to the query by an editor (search/engine/promotions.py): first, whatever its score.
    promoted: bool = False
    # One row per entry (search/engine/entry_results.py): the entry's other ranked chunks, best first;
    # None when results are raw chunks.
    passages: tuple[ChunkHit, ...] | None = None
    # The calibrated confidence that it answers the query (search/engine/confidence.py); None until computed.
    confidence: float | None = None
    # The query's cosines to a fixed background of unrelated sentences, summed up per model
    # (search/engine/confidence.py query_background), which the confidence reads beside the
    # row's own cosine; None when the row was not ranked by a model with a calibration.
    background: float | None = None
    # The row's own vector's mean cosine to the same background sentences (its "hubness": text
    # near everything; search/engine/confidence.py passage_centroid), which the confidence reads
    # beside the query's; None when the row's model's calibration does not read it.
    passage_background: float | None = None
    # Its entry (or asset) holds every word of a query that reads as keywords (search/engine/words_held.py):
    # an answer whatever its confidence.
    holds_words: bool = False

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
        if self.confidence is not None:
            source["confidence"] = round(self.confidence, 4)
        if self.promoted:
            source["promoted"] = True
        if self.holds_words:
            source["holds_words"] = True
        if self.passages is not None:
            source["passages"] = [{"id": p.id, "score": round(p.score, 6), "document": p.text, "field": p.field,
                                   "ordinal": p.ordinal} for p in self.passages]
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
    # The kind's own facts (search/contract/meta.py), after the index facts in `meta`.
    meta: ChunkSearchMeta = field(default_factory=ChunkSearchMeta)
    # What the request asked to see (its include_sources / include_vectors options).
    include_sources: bool = True
    include_vectors: bool = False
    # The search log's id for this search (search/insights/search_log.py), for click reports; None when not logged.
    search_id: str | None = None
    # The candidate pool's chunk ids above min_score (what facets count), and the counts
    # (search/engine/facets.py) when the request asked for them.
    pool: tuple[int, ...] = ()
    facets: dict[str, dict[str, int]] | None = None

    @property
    def answers(self) -> int:
        """The results it presented as answers: none under the relevance floor
        (search/engine/confidence.py), even when the caller asked for the candidates."""
        return 0 if self.meta.answer is not None and not self.meta.answer.answerable else len(self.hits)

    @property
    def extra_meta(self) -> dict[str, Any]:
        """The kind's facts as the answer's `meta` says them (a copy: change `meta`, not this)."""
        return self.meta.as_dict()

    @property
    def relevant_context(self) -> str:
        """The hits' text, best first, each under its title: ready to paste into an LLM prompt."""
        blocks = []
        for rank, hit in enumerate(self.hits, start=1):
            heading = f"[{rank}] {hit.title}".rstrip() if hit.title else f"[{rank}]"
            blocks.append(f"{heading}\n{hit.text}")
        return "\n\n".join(blocks)

    def as_dict(self) -> dict[str, Any]:
        """The answer's JSON, the same in every interface."""
        body: dict[str, Any] = {"relevant_context": self.relevant_context}
        if self.include_sources:
            body["sources"] = [
                hit.as_source(workspace_slug=self.workspace.slug, include_vector=self.include_vectors) for hit in self.hits
            ]
        body["meta"] = {
            "model": self.model,
            "dimensions": self.dimensions,
            "top_k": self.top_k,
            "ef_search": self.ef_search,
            "returned": len(self.hits),
            "pending": self.pending,
            "exact_fallback": any(hit.exact for hit in self.hits),
            **self.meta.as_dict(),
            "search_id": self.search_id,
        }
        if self.facets is not None:
            body["facets"] = self.facets
        return body


def json_object(value: Any) -> dict:
    """A JSONB value as psycopg hands it over (a dict, or text from a raw cursor), as a dict."""
    if isinstance(value, dict):
        return value
    if isinstance(value, str):
        return json.loads(value)
    return {}


class SearchHit(Protocol):
    """A hit as the search log reads it: its entry's id (a chunk hit's `id` too, for the kinds
    that rank chunks: ChunkHit)."""

    entry_id: int | None


class SearchOutcome(Protocol):
    """What every search kind's `run` returns (SearchResult, full-text's EntrySearchResult,
    suggest's SuggestResult): its hits, how many results it answered with, the search log's id
    once recorded (a dataclass field, set with dataclasses.replace), and the JSON every interface
    answers with."""

    hits: Sequence[SearchHit]
    search_id: str | None

    @property
    def answers(self) -> int: ...

    def as_dict(self) -> dict[str, Any]: ...
