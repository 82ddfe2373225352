"""The one loader of provider backends: a settings entry to a built backend, kept for reuse.

An entry of SEARCH_EMBEDDING_BACKENDS, SEARCH_EMBEDDING_MODELS or SEARCH_RERANK_BACKENDS reads
`{"BACKEND": dotted path, "OPTIONS": {...}, "PRICE_PER_MILLION_TOKENS": n}`, as Django's
CACHES do. Embedding and rerank backends are built here alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from django.utils.module_loading import import_string

from ingestion.embeddings.base import BaseProviderBackend


def backend_from_config(config: Mapping[str, Any], **options: Any) -> BaseProviderBackend:
    """The backend `config` names, built with its OPTIONS (`options` over them) and its price;
    the same entry answers the same instance."""
    merged = {**config.get("OPTIONS", {}), **options}
    return _backend_build(config["BACKEND"], tuple(sorted(merged.items())),
                          float(config.get("PRICE_PER_MILLION_TOKENS", 0.0)))


@lru_cache(maxsize=24)
def _backend_build(path: str, options: tuple, price: float) -> BaseProviderBackend:
    # Cached: the local models load their weights once per process.
    backend_class = import_string(path)
    return backend_class(price_per_million_tokens=price, **dict(options))


def backends_reset() -> None:
    """Forget every built backend, embedding and rerank alike (tests change settings)."""
    _backend_build.cache_clear()
