"""Rerank for hybrid search: the relevance of each candidate to the query, through ingestion's rerank service.

The provider layer (`ingestion.embeddings.get_rerank_backend()`, Voyage rerank-2.5 packed to
its limits with retries) and the usage it records belong to ingestion
(`ingestion.services.documents_rerank`); this module only asks it and turns its failures
into search errors with codes.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext_noop

from ingestion import services
from ingestion.embeddings import EmbeddingProviderError, RerankNotConfigured
from search.contract.errors import SearchError, provider_error_code
from search.engine.query_work import query_work_memo


class RerankUnavailable(SearchError):
    """No reranker answer: `code` not_configured, provider_unavailable or provider_error (HTTP 503)."""

    status = 503


def rerank_relevance(*, workspace_id: int, query: str, documents: Sequence[str]) -> tuple[list[float], str]:
    """Each document's relevance to `query` (in the documents' order) and the reranker's model name.
    Within one search call (search.engine.query_work), a document reranked already is not sent again."""
    memo = query_work_memo()
    if memo is None or not documents:
        return _relevance(workspace_id=workspace_id, query=query, documents=documents)
    keys = [("rerank", workspace_id, query, document) for document in documents]
    missing = list(dict.fromkeys(d for d, key in zip(documents, keys) if key not in memo))
    if missing:
        relevance, model = _relevance(workspace_id=workspace_id, query=query, documents=missing)
        for document, score in zip(missing, relevance):
            memo[("rerank", workspace_id, query, document)] = (score, model)
    scored = [memo[key] for key in keys]
    return [score for score, _ in scored], scored[0][1] if scored else ""


def _relevance(*, workspace_id: int, query: str, documents: Sequence[str]) -> tuple[list[float], str]:
    try:
        outcome = services.documents_rerank(workspace_id=workspace_id, query=query, documents=list(documents))
    except RerankNotConfigured as exc:
        raise RerankUnavailable("not_configured", gettext_noop("rerank is not available: %(reason)s"), reason=str(exc)) from exc
    except EmbeddingProviderError as exc:
        raise RerankUnavailable(provider_error_code(transient=exc.transient), gettext_noop(
            "The rerank provider failed: %(reason)s"), reason=str(exc)) from exc
    relevance = [0.0] * len(documents)
    for result in outcome.results:
        relevance[result.index] = float(result.relevance_score)
    return relevance, outcome.model
