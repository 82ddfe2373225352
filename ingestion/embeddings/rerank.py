"""The one interface every rerank provider implements, chosen by alias in settings.SEARCH_RERANK_BACKENDS.

A reranker scores (query, document) pairs with a cross-encoder; search uses it to reorder
the candidates its legs found. Provider failures raise `EmbeddingProviderError`, the error
every provider call of this layer raises (`transient` says whether a retry may help).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from django.conf import settings

from ingestion.embeddings.base import BaseProviderBackend, EmbeddingProviderError, greedy_batches
from ingestion.embeddings.loader import backend_from_config, backends_reset

NOT_CONFIGURED_HELP = (
    "No reranker is configured. Set VOYAGE_API_KEY (RERANK_PROVIDER defaults to voyage with a "
    "key), or RERANK_PROVIDER=voyage with a key, to rerank with Voyage rerank-2.5."
)


class RerankNotConfigured(Exception):
    """No rerank provider is configured (or it lacks its key). Reranking is never skipped silently."""


@dataclass(frozen=True)
class RerankResult:
    """One document's relevance to the query; `index` is its position in the documents given."""

    index: int
    relevance_score: float


class BaseRerankBackend(BaseProviderBackend):
    """Scores documents against a query, made by `model_name`.

    Subclasses implement `_rerank(query, documents, top_k)`, returning a RerankResult for
    (at least) the `top_k` best documents, in any order; they pack requests to the
    provider's limits below and may split further. `rerank` sorts, cuts and records usage
    in `last_call_stats` (see BaseProviderBackend; "texts" counts documents).
    """

    # The provider's limits per request (the defaults are Voyage rerank-2.5's).
    max_documents_per_request: int = 1000
    max_query_tokens: int = 8_000
    # query tokens × documents + the documents' tokens
    max_request_tokens: int = 600_000

    # --- the hook ------------------------------------------------------------------------
    def _rerank(self, query: str, documents: list[str], top_k: int | None) -> list[RerankResult]:
        raise NotImplementedError

    # --- the contract --------------------------------------------------------------------
    def rerank(self, query: str, documents: Sequence[str], *, top_k: int | None = None) -> list[RerankResult]:
        """The documents' relevance to `query`, best first (ties by index), at most `top_k`.

        Scores are absolute, so scores from separate requests compare. No documents make no
        request. A query over `max_query_tokens` raises a permanent EmbeddingProviderError.
        """
        self._begin_call()
        documents = list(documents)
        if top_k is not None and (isinstance(top_k, bool) or not isinstance(top_k, int) or top_k < 1):
            raise ValueError(f"top_k must be a positive whole number or None, not {top_k!r}.")
        if not documents:
            return []
        query_tokens = self.estimate_tokens(query)
        if query_tokens > self.max_query_tokens:
            raise EmbeddingProviderError(
                f"The rerank query is about {query_tokens} tokens; {self.model_name} takes at most "
                f"{self.max_query_tokens}.",
                transient=False,
            )
        results = self._rerank(query, documents, top_k)
        if not self._thread_state.recorded:
            self._record_request(texts=len(documents), tokens=self.request_tokens(query_tokens, documents))
        ranked = sorted(results, key=lambda result: (-result.relevance_score, result.index))
        return ranked[:top_k] if top_k is not None else ranked

    def request_tokens(self, query_tokens: int, documents: Sequence[str]) -> int:
        """The estimated tokens of one request, counted as the provider counts them."""
        return query_tokens * len(documents) + sum(self.estimate_tokens(d) for d in documents)

    def request_batches(self, query: str, documents: Sequence[str]) -> list[list[int]]:
        """Split `documents` into lists of indices, each one request within the limits (greedy
        packing in order); a document over the token limit on its own gets a request alone."""
        query_tokens = self.estimate_tokens(query)
        return greedy_batches([query_tokens + self.estimate_tokens(d) for d in documents],
                              max_items=self.max_documents_per_request, max_tokens=self.max_request_tokens)


def get_rerank_backend(alias: str = "default") -> BaseRerankBackend:
    """The configured rerank backend for `alias`; raises RerankNotConfigured if there is none."""
    config = settings.SEARCH_RERANK_BACKENDS.get(alias)
    if not config:
        raise RerankNotConfigured(NOT_CONFIGURED_HELP)
    return cast(BaseRerankBackend, backend_from_config(config))


def reset_rerank_backends() -> None:
    """Forget built backends (tests change settings); embedding backends too: one loader builds both."""
    backends_reset()
