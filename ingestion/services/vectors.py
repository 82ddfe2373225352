"""The vector store: writing embedded vectors onto chunk rows, and finding reusable ones.

A vector is stored with one conditional UPDATE per batch (`WHERE content_hash = <embedded
hash> AND status = 'pending'`): a vector for text that was edited meanwhile is discarded.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence

from django.db import connection, transaction

from ingestion.embeddings import BaseEmbeddingBackend
from ingestion.models import Chunk


@functools.lru_cache(maxsize=8)
def _vector_format(dimensions: int) -> str:
    # 9 significant digits round-trip a float32, which is what pgvector stores.
    return "[" + ",".join(["%.9g"] * dimensions) + "]"


def vector_literal(vector: Sequence[float]) -> str:
    """pgvector's text form. printf over a tuple is ~2.5x faster than joining reprs."""
    values = tuple(vector.tolist() if hasattr(vector, "tolist") else vector)
    return _vector_format(len(values)) % values


def vectors_store(*, backend: BaseEmbeddingBackend, rows: list[tuple[int, str, str]]) -> int:
    """Store (chunk id, embedded hash, vector literal) rows where the hash still matches.

    One statement for the batch; the predicate is the whole race defence: a chunk whose
    text changed (new hash), or that someone else already embedded or deleted, is skipped.
    """
    if not rows:
        return 0
    ids, hashes, vectors = zip(*rows, strict=True)
    table = Chunk._meta.db_table
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            f"""
            UPDATE {table} AS c
            SET embedding = v.embedding::vector, status = 'embedded', embedding_model = %s,
                embedding_dimensions = %s, embedded_at = now(), updated_at = now(),
                leased_until = NULL, retry_at = NULL, last_error = ''
            FROM unnest(%s::bigint[], %s::text[], %s::text[]) AS v(id, content_hash, embedding)
            WHERE c.id = v.id AND c.content_hash = v.content_hash AND c.status = 'pending'
            """,
            [backend.model_name, backend.dimensions, list(ids), list(hashes), list(vectors)],
        )
        return cursor.rowcount


def vectors_reusable(*, model_name: str, keys: Iterable[tuple[int, str]]) -> dict[tuple[int, str], str]:
    """Vectors (as literals) already stored by `model_name` for these (workspace id, content hash)
    keys: identical text in the same workspace is never embedded twice."""
    keys = list(keys)
    if not keys:
        return {}
    table = Chunk._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            SELECT DISTINCT ON (workspace_id, content_hash) workspace_id, content_hash, embedding::text
            FROM {table}
            WHERE status = 'embedded' AND embedding_model = %s
              AND workspace_id = ANY(%s) AND content_hash = ANY(%s)
            """,
            [model_name, sorted({ws for ws, _ in keys}), sorted({h for _, h in keys})],
        )
        return {(ws, h): vec for ws, h, vec in cursor.fetchall()}
