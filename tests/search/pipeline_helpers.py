"""Search tests through the real pipeline: entries saved by cms.services, chunks written by
ingestion's sync, embedded by the fake provider, searched by search.engine.semantic.semantic_search.

Nothing is written into chunk metadata by hand, so a filter sees exactly what ingestion stores.
"""

from __future__ import annotations

from typing import Any

import pytest

from cms.models import ContentType, Workspace
from ingestion.embeddings import reset_embedding_backends
from ingestion.services import chunks_embed_pending
from search.engine.semantic import semantic_search
from tests.factories import ContentTypeFactory, full_access

FAKE_BACKEND = {
    "BACKEND": "ingestion.embeddings.fake.FakeEmbeddingBackend",
    "OPTIONS": {},
    "PRICE_PER_MILLION_TOKENS": 0.0,
}
TITLE_AND_BODY = [
    {"id": "title", "label": "Title", "type": "text", "required": True},
    {"id": "body", "label": "Body", "type": "richtext"},
]


@pytest.fixture
def fake_embeddings(settings, db):
    """Chunks and queries are embedded by the deterministic fake provider (no model, no network)."""
    settings.SEARCH_EMBEDDING_BACKENDS = {"default": FAKE_BACKEND}
    reset_embedding_backends()
    yield
    reset_embedding_backends()


def semantic_type(workspace: Workspace, api_id: str, fields: list[dict]) -> ContentType:
    """An opted-in content type: a title, a rich text body, then `fields`."""
    return ContentTypeFactory(workspace=workspace, api_id=api_id, semantic_search_enabled=True,
                              fields=[*TITLE_AND_BODY, *fields])


def field(field_id: str, field_type: str) -> dict:
    return {"id": field_id, "label": field_id.replace("_", " ").title(), "type": field_type}


def embed_all() -> None:
    """Embed every pending chunk, as the worker would."""
    chunks_embed_pending()


def titles_found(workspace: Workspace, spec: Any, **kwargs: Any) -> set[str]:
    """The titles of the entries whose chunks a semantic search with filter `spec` returns."""
    result = semantic_search(access=full_access(workspace), query="notes", top_k=100, filter=spec, **kwargs)
    return {hit.title for hit in result.hits}
