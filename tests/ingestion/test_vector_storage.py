"""Chunk vectors are stored in the table row, not in TOAST (migration ingestion 0010).

A 512-dimension vector is 2,052 bytes, just past the 2,032 at which PostgreSQL moves a large
value out of line; pgvector's type allows that (EXTERNAL storage), so every distance the
executor computed from a row fetched the vector from the TOAST table first.
"""

from __future__ import annotations

import numpy as np
import pytest
from django.db import connection

from ingestion import services
from ingestion.models import Chunk, ChunkVector
from tests.factories import ContentTypeFactory, entry_make

pytestmark = pytest.mark.django_db


def _toast_rows_of_vectors() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT reltoastrelid::regclass::text FROM pg_class WHERE relname = 'ingestion_chunkvector'")
        toast = cursor.fetchone()[0]
        cursor.execute(f"SELECT count(*) FROM {toast}")  # the name comes from the catalog
        return cursor.fetchone()[0]


@pytest.mark.parametrize("dimensions", [512, 1024])
def test_a_large_vector_stays_in_its_row(workspace, fake_backend, dimensions):
    doc = ContentTypeFactory(workspace=workspace, api_id="doc", semantic_search_enabled=True)
    entry_make(doc, title="Doc", body="<p>Some text.</p>")
    services.chunks_embed_pending()
    chunk = Chunk.objects.filter(workspace=workspace).first()
    before = _toast_rows_of_vectors()
    vector = np.random.default_rng(dimensions).normal(size=dimensions)
    ChunkVector.objects.create(chunk=chunk, workspace=workspace, model=f"bench-{dimensions}",
                               dimensions=dimensions, embedding=(vector / np.linalg.norm(vector)).tolist(),
                               content_hash=chunk.content_hash)
    assert _toast_rows_of_vectors() == before
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_column_size(embedding) FROM ingestion_chunkvector WHERE model = %s",
                       [f"bench-{dimensions}"])
        assert cursor.fetchone()[0] == 8 + 4 * dimensions  # inline and uncompressed, as pgvector writes it
