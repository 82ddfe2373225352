"""Rerank documents for a search and record what the provider call cost, per workspace."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ingestion.embeddings import RerankResult, get_rerank_backend
from ingestion.services.usage import usage_record


@dataclass(frozen=True)
class RerankOutcome:
    """The reranker's scores, best first, and the model that made them."""

    results: list[RerankResult]
    model: str


def documents_rerank(
    *,
    workspace_id: int,
    query: str,
    documents: Sequence[str],
    top_k: int | None = None,
    alias: str = "default",
) -> RerankOutcome:
    """Score `documents` against `query` with the configured reranker, best first (at most top_k).

    Usage (requests, documents as texts, tokens, cost) is counted for the workspace's
    EmbeddingUsage row for the rerank model (written at the process's next usage flush), also when a later request of a split call
    fails: tokens of requests that returned are spent. Raises RerankNotConfigured when no
    reranker is configured and EmbeddingProviderError (with `transient`) when the provider
    fails; the caller turns them into its error codes.
    """
    backend = get_rerank_backend(alias)
    try:
        results = backend.rerank(query, documents, top_k=top_k)
    finally:
        stats = backend.last_call_stats
        if stats["requests"]:
            usage_record(workspace_id=workspace_id, model=backend.model_name, requests=stats["requests"],
                         texts=stats["texts"], tokens=stats["tokens"], cost=backend.cost_usd(stats["tokens"]),
                         deferred=True)
    return RerankOutcome(results=results, model=backend.model_name)
