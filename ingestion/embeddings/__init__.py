"""Embedding and rerank providers behind one interface each, chosen by alias in settings.

Only this package imports a provider SDK. `get_embedding_backend()` (SEARCH_EMBEDDING_BACKENDS)
and `get_rerank_backend()` (SEARCH_RERANK_BACKENDS) are to providers what `caches["default"]`
is to caching.
"""

from __future__ import annotations

import contextlib
from typing import cast

from django.conf import settings

from ingestion.embeddings.base import BaseEmbeddingBackend, EmbeddingNotConfigured, EmbeddingProviderError
from ingestion.embeddings.loader import backend_from_config, backends_reset
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
    "get_embedding_backend_for_model",
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
    return _embedding_backend(config)


def get_embedding_backend_for_model(name: str) -> BaseEmbeddingBackend:
    """The backend that makes `name`'s vectors: `name` is a model name (`all-minilm-l6-v2`) or
    an alias of SEARCH_EMBEDDING_MODELS (`minilm`; `voyage:<model>` for another Voyage model).

    The configured backend answers for its own model first, so a test or deployment that
    configures a backend by dotted path needs no alias. Raises EmbeddingNotConfigured with
    the names that are known when `name` is none of them, or when its backend lacks a key.
    """
    name = (name or "").strip()
    with contextlib.suppress(EmbeddingNotConfigured):
        default = get_embedding_backend()
        if name == default.model_name:
            return default
    models = getattr(settings, "SEARCH_EMBEDDING_MODELS", {}) or {}
    alias, _, voyage_model = name.partition(":")
    if voyage_model and alias in models:
        return _embedding_backend(models[alias], model=voyage_model)
    if name in models:  # an alias: build only that backend
        return _embedding_backend(models[name])
    for key, config in models.items():
        try:
            backend = _embedding_backend(config)
        except EmbeddingNotConfigured:
            if key == name:
                raise
            continue
        if name in (key, backend.model_name):
            return backend
    known = sorted({*models, *embedding_model_names()})
    raise EmbeddingNotConfigured(f"Unknown embedding model {name!r}. Known: {', '.join(known)}.")


def embedding_model_names() -> list[str]:
    """The model names of every backend in SEARCH_EMBEDDING_MODELS that can be built here."""
    names = []
    for config in (getattr(settings, "SEARCH_EMBEDDING_MODELS", {}) or {}).values():
        with contextlib.suppress(EmbeddingNotConfigured):
            names.append(_embedding_backend(config).model_name)
    return names


def _embedding_backend(config: dict, **options) -> BaseEmbeddingBackend:
    return cast(BaseEmbeddingBackend, backend_from_config(config, **options))


def reset_embedding_backends() -> None:
    """Forget built backends (tests change settings); rerank backends too: one loader builds both."""
    backends_reset()
