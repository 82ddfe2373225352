"""Bulk loading for the benches: chunk rows and their vectors (ChunkVector) by binary COPY.

The benches load 100k chunks with vectors they already hold; going through the embed loop
would take hours. Rows get explicit ids 1..N (the tables are truncated with RESTART
IDENTITY first), so each vector row can name its chunk.
"""

from __future__ import annotations

import datetime
import importlib
from collections.abc import Iterable

CHUNK_COLUMNS = ("id", "workspace_id", "source_kind", "entry_id", "field", "ordinal", "text", "content_hash",
                 "token_estimate", "title", "metadata", "status", "attempts", "last_error", "created_at", "updated_at")
CHUNK_TYPES = ["bigint", "bigint", "text", "bigint", "text", "integer", "text", "text", "integer", "text", "jsonb",
               "text", "smallint", "text", "timestamptz", "timestamptz"]


def indexes_module():
    return importlib.import_module("ingestion.migrations.0006_chunk_vectors")


def truncate_and_drop_vector_indexes(cursor) -> None:
    """Empty the chunk tables; drop the HNSW indexes (building once after the load is much faster)."""
    cursor.execute("TRUNCATE ingestion_chunk, ingestion_chunkvector, ingestion_workspaceembedding,"
                   " ingestion_keywordposting, ingestion_keywordtext, ingestion_keywordstat, ingestion_keywordstatdelta"
                   " RESTART IDENTITY")
    indexes = indexes_module()
    for model, _ in indexes.VECTOR_INDEXES:
        cursor.execute(f"DROP INDEX IF EXISTS {indexes.index_name(model)}")


def copy_chunks(raw, rows: Iterable[tuple], *, model: str, dimensions: int) -> int:
    """COPY chunks and their vectors. Each row: (workspace_id, entry_id, ordinal, text, content_hash,
    token_estimate, title, metadata (Jsonb), vector). Returns how many; sets the id sequence."""
    now = datetime.datetime.now(datetime.UTC)
    vectors: list[tuple] = []
    count = 0
    with raw.cursor() as cursor:
        with cursor.copy(f"COPY ingestion_chunk ({', '.join(CHUNK_COLUMNS)}) FROM STDIN (FORMAT BINARY)") as copy:
            copy.set_types(CHUNK_TYPES)
            for ws, entry, ordinal, text, content_hash, tokens, title, metadata, vector in rows:
                count += 1
                copy.write_row((count, ws, "entry", entry, "body", ordinal, text, content_hash, tokens, title,
                                metadata, "embedded", 1, "", now, now))
                vectors.append((count, ws, model, dimensions, vector, content_hash, now))
        with cursor.copy("COPY ingestion_chunkvector (chunk_id, workspace_id, model, dimensions, embedding,"
                         " content_hash, created_at) FROM STDIN (FORMAT BINARY)") as copy:
            copy.set_types(["bigint", "bigint", "text", "integer", "vector", "text", "timestamptz"])
            for row in vectors:
                copy.write_row(row)
        cursor.execute("SELECT setval('ingestion_chunk_id_seq', %s)", [max(count, 1)])
    raw.commit() if not raw.autocommit else None
    return count


def build_vector_indexes(cursor) -> None:
    """Every model's HNSW index, with the definition of migration 0006."""
    indexes = indexes_module()
    for model, dimensions in indexes.VECTOR_INDEXES:
        cursor.execute(indexes.vector_index_sql(model, dimensions))
    cursor.execute("ANALYZE ingestion_chunkvector")
