"""One loader builds the embedding and rerank backends from their settings entries, each once."""

from __future__ import annotations

import pytest

from ingestion.embeddings import (
    get_embedding_backend,
    get_embedding_backend_for_model,
    get_rerank_backend,
    reset_embedding_backends,
    reset_rerank_backends,
)
from ingestion.embeddings.fake import FakeEmbeddingBackend, FakeRerankBackend
from ingestion.embeddings.loader import backend_from_config

FAKE_EMBEDDING = {"BACKEND": "ingestion.embeddings.fake.FakeEmbeddingBackend", "PRICE_PER_MILLION_TOKENS": 0.02}
FAKE_RERANK = {"BACKEND": "ingestion.embeddings.fake.FakeRerankBackend", "PRICE_PER_MILLION_TOKENS": 0.05}


@pytest.fixture
def fake_backends(settings):
    settings.SEARCH_EMBEDDING_BACKENDS = {"default": FAKE_EMBEDDING}
    settings.SEARCH_RERANK_BACKENDS = {"default": FAKE_RERANK}
    reset_embedding_backends()
    yield
    reset_embedding_backends()


def test_the_embedding_and_the_rerank_backend_come_from_the_one_loader(fake_backends):
    embedding, rerank = get_embedding_backend(), get_rerank_backend()

    assert isinstance(embedding, FakeEmbeddingBackend) and isinstance(rerank, FakeRerankBackend)
    assert backend_from_config(FAKE_EMBEDDING) is embedding
    assert backend_from_config(FAKE_RERANK) is rerank
    assert (embedding.price_per_million_tokens, rerank.price_per_million_tokens) == (0.02, 0.05)


def test_the_same_entry_is_built_once(fake_backends):
    assert get_embedding_backend() is get_embedding_backend() is get_embedding_backend_for_model("fake-hash-16")
    assert get_rerank_backend() is get_rerank_backend()


@pytest.mark.parametrize("reset", [reset_embedding_backends, reset_rerank_backends])
def test_either_reset_forgets_every_built_backend(fake_backends, reset):
    embedding, rerank = get_embedding_backend(), get_rerank_backend()

    reset()

    assert get_embedding_backend() is not embedding
    assert get_rerank_backend() is not rerank

