"""Embedding and rerank providers behind one interface each, chosen by alias in settings.

Only this package imports a provider SDK. `get_embedding_backend()` (SEARCH_EMBEDDING_BACKENDS)
and `get_rerank_backend()` (SEARCH_RERANK_BACKENDS) are to providers what `caches["default"]`
is to caching.
"""

from __future__ import annotations

from functools import lru_cache

from django.conf import settings
from django.utils.module_loading import import_string

from ingestion.embeddings.base import BaseEmbeddingBackend, EmbeddingNotConfigured, EmbeddingProviderError
from ingestion.embeddings.rerank import (
    BaseRerankBackend,
    RerankNotConfigured,
    RerankResult,
    get_rerank_backend,
    reset_rerank_backends,
)

__all__ = [
    "BaseEmbeddingBackend",
    "BaseRerankBackend",
    "EmbeddingNotConfigured",
    "EmbeddingProviderError",
    "RerankNotConfigured",
    "RerankResult",
    "get_embedding_backend",
    "get_rerank_backend",
    "reset_embedding_backends",
    "reset_rerank_backends",
]

NOT_CONFIGURED_HELP = (
    "Semantic search has no embedding provider. Set EMBEDDING_PROVIDER=local for the offline "
    "multilingual model, or VOYAGE_API_KEY (and EMBEDDING_PROVIDER=voyage) for Voyage."
)


def get_embedding_backend(alias: str = "default") -> BaseEmbeddingBackend:
    """The configured backend for `alias`; raises EmbeddingNotConfigured if there is none."""
    config = settings.SEARCH_EMBEDDING_BACKENDS.get(alias)
    if not config:
        raise EmbeddingNotConfigured(NOT_CONFIGURED_HELP)
    return _build_backend(config["BACKEND"], tuple(sorted(config.get("OPTIONS", {}).items())),
                          float(config.get("PRICE_PER_MILLION_TOKENS", 0.0)))


@lru_cache(maxsize=8)
def _build_backend(path: str, options: tuple, price: float) -> BaseEmbeddingBackend:
    # Cached: the local model loads its weights once per process.
    backend_class = import_string(path)
    return backend_class(price_per_million_tokens=price, **dict(options))


def reset_embedding_backends() -> None:
    """Forget built backends (tests change settings)."""
    _build_backend.cache_clear()
