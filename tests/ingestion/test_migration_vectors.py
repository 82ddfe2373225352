"""Migration 0006 moves every stored vector between the chunk row and ChunkVector, both ways, without loss."""

from __future__ import annotations

import pytest
from django.db import connection

from ingestion import services
from ingestion.models import ChunkVector
from tests.factories import ContentTypeFactory, entry_make
from tests.migration_steps import migrate, migrate_to_latest

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("ingestion", "0005_chunk_metadata_statistics")]


def test_vectors_move_back_to_chunk_rows_and_forward_again_unchanged(workspace, fake_backend):
    doc = ContentTypeFactory(workspace=workspace, api_id="doc", semantic_search_enabled=True)
    for i in range(5):
        entry_make(doc, title=f"Doc {i}", body=f"<p>Text number {i}.</p>")
    services.chunks_embed_pending()
    original = {(v.chunk_id, v.model, v.dimensions, v.content_hash): [round(x, 6) for x in v.embedding]
                for v in ChunkVector.objects.all()}
    assert len(original) >= 5
    try:
        migrate(BEFORE)
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM ingestion_chunk WHERE embedding IS NOT NULL"
                           " AND embedding_model = 'fake-hash-16' AND embedding_dimensions = 16")
            assert cursor.fetchone()[0] == len(original)
            cursor.execute("SELECT to_regclass('chunk_hnsw_use_multilingual_v3') IS NOT NULL")
            assert cursor.fetchone()[0]
    finally:
        migrate_to_latest()
    moved = {(v.chunk_id, v.model, v.dimensions, v.content_hash): [round(x, 6) for x in v.embedding]
             for v in ChunkVector.objects.all()}
    assert moved == original
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_indexes WHERE indexname LIKE 'chunk_vector_hnsw_%%'")
        assert cursor.fetchone()[0] == 5  # migration 0006's four, and multilingual-e5-small's (0011)
