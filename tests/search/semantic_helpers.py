"""Test helpers for semantic search: embedded chunks made with the real local model.

Until the ingestion pipeline fills chunks, tests insert them directly, the way the pipeline
stores them: status embedded, a vector from the local model, and the filterable metadata.
The chunks hang off entries of a content type with semantic search *off*, so no ingestion
listener adds chunks of its own beside them.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from cms.models import ContentType, Entry, Workspace
from ingestion.models import Chunk, ChunkStatus, ChunkVector, SourceKind
from ingestion.embeddings import get_embedding_backend, reset_embedding_backends
from tests.factories import ContentTypeFactory, entry_make

LOCAL_BACKEND = {
    "BACKEND": "ingestion.embeddings.local.LocalEmbeddingBackend",
    "OPTIONS": {"threads": 1},
    "PRICE_PER_MILLION_TOKENS": 0.0,
}
LOCAL_MODEL = "use-multilingual-v3"
# An English refund text that Japanese queries (返品) must find.
REFUND_EN = "Refund policy: you may return any item within 30 days of delivery for a full refund."
LOCAL_DIMENSIONS = 512

_vectors: dict[str, list[float]] = {}
_ordinals = itertools.count()


@pytest.fixture(scope="session")
def local_model():
    """The local model, loaded once per test session (get_embedding_backend caches it)."""
    from django.conf import settings

    previous = settings.SEARCH_EMBEDDING_BACKENDS
    settings.SEARCH_EMBEDDING_BACKENDS = {"default": LOCAL_BACKEND}
    try:
        backend = get_embedding_backend()
        backend.embed_query("warm up")
    finally:
        settings.SEARCH_EMBEDDING_BACKENDS = previous
    return backend


def hnsw_index_rebuild() -> None:
    """Rebuild the chunk HNSW index from the rows alive now.

    An index is not rolled back: every earlier test's chunks stay in the graph as dead
    elements until VACUUM. Thousands of them (with the many identical test vectors) make
    the walk's answers depend on which tests ran before; each test starts from a clean graph.
    """
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("REINDEX INDEX chunk_vector_hnsw_use_multilingual_v3")


@pytest.fixture
def local_embeddings(settings, local_model, db):
    """Semantic search in this test embeds with the local model (same instance every test)."""
    settings.SEARCH_EMBEDDING_BACKENDS = {"default": LOCAL_BACKEND}
    hnsw_index_rebuild()
    yield local_model


@pytest.fixture
def no_embeddings(settings):
    """EMBEDDING_PROVIDER=none: no backend at all."""
    settings.SEARCH_EMBEDDING_BACKENDS = {"default": None}
    reset_embedding_backends()
    yield
    reset_embedding_backends()


def embed(texts: list[str]) -> list[list[float]]:
    missing = [t for t in dict.fromkeys(texts) if t not in _vectors]
    if missing:
        for text, vector in zip(missing, get_embedding_backend().embed_documents(missing)):
            _vectors[text] = vector
    return [_vectors[t] for t in texts]


def plain_type(workspace: Workspace) -> ContentType:
    return ContentTypeFactory(workspace=workspace, api_id="article", semantic_search_enabled=False)


def chunk_make(
    entry: Entry,
    text: str,
    *,
    status: str = ChunkStatus.EMBEDDED,
    fields: dict[str, Any] | None = None,
    entry_status: str | None = None,
    model: str = LOCAL_MODEL,
    field: str = "body",
) -> Chunk:
    """One chunk of `entry` with `text`, embedded by the local model unless status says otherwise."""
    import hashlib

    embedded = status == ChunkStatus.EMBEDDED
    chunk = Chunk.objects.create(
        workspace_id=entry.workspace_id,
        source_kind=SourceKind.ENTRY,
        entry=entry,
        field=field,
        ordinal=next(_ordinals),
        text=text,
        content_hash=hashlib.sha256(text.encode()).hexdigest(),
        title=entry.title,
        metadata={
            "content_type": entry.content_type.api_id,
            "status": entry_status or entry.status,
            "source_kind": SourceKind.ENTRY,
            "fields": dict(fields if fields is not None else {}),
        },
        status=status,
    )
    if embedded:
        ChunkVector.objects.create(chunk=chunk, workspace_id=chunk.workspace_id, model=model,
                                   dimensions=LOCAL_DIMENSIONS, embedding=embed([text])[0],
                                   content_hash=chunk.content_hash)
    return chunk


def chunks_make(entry: Entry, texts: list[str], **kwargs) -> list[Chunk]:
    embed(texts)
    return [chunk_make(entry, text, **kwargs) for text in texts]


def entry_for(content_type: ContentType, title: str = "Doc", **data) -> Entry:
    return entry_make(content_type, title=title, **data)
