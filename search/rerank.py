"""Rerank for hybrid search: the relevance of each candidate to the query, from ingestion's rerank backend.

The provider layer (`ingestion.embeddings.get_rerank_backend()`, e.g. Voyage rerank-2.5,
packed to its limits with retries) belongs to ingestion; this module only asks it and turns
its failures into search errors with codes. A backend answers
`rerank(query, documents, top_k=None) -> [RerankResult(index, relevance_score)]`, best first.
"""

from __future__ import annotations

from collections.abc import Sequence

from ingestion import embeddings
from ingestion.embeddings import EmbeddingProviderError

# The backend lookup lands with the rerank provider (branch `filters`); until then no
# reranker is configured anywhere and `rerank: true` answers not_configured.
get_rerank_backend = getattr(embeddings, "get_rerank_backend", None)
RerankNotConfigured: type[Exception] = getattr(embeddings, "RerankNotConfigured", LookupError)


class RerankUnavailable(Exception):
    """No reranker answer: `code` not_configured, provider_unavailable or provider_error (HTTP 503)."""

    def __init__(self, code: str, message: str, status: int = 503):
        super().__init__(message)
        self.code, self.message, self.status = code, message, status


def rerank_relevance(query: str, documents: Sequence[str]) -> tuple[list[float], str]:
    """Each document's relevance to `query` (in the documents' order) and the reranker's model name."""
    if get_rerank_backend is None:
        raise RerankUnavailable("not_configured", "rerank is not available: no rerank provider is configured.")
    try:
        backend = get_rerank_backend()
    except RerankNotConfigured as exc:
        raise RerankUnavailable("not_configured", f"rerank is not available: {exc}") from exc
    try:
        results = backend.rerank(query, list(documents))
    except EmbeddingProviderError as exc:
        code = "provider_unavailable" if exc.transient else "provider_error"
        raise RerankUnavailable(code, f"The rerank provider failed: {exc}") from exc
    relevance = [0.0] * len(documents)
    for result in results:
        relevance[result.index] = float(result.relevance_score)
    return relevance, backend.model_name
