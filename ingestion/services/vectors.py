"""The vector store: writing vectors per (chunk, model), finding reusable ones, settling chunks.

A batch of vectors is stored with one upsert into ChunkVector that joins the chunk on the
hash the vector was made from (`c.content_hash = <embedded hash>`): a vector for text that
was edited meanwhile is discarded, and a vector of a model the workspace no longer wants
(the switch was aborted meanwhile) is too. Then each chunk of the batch that now holds a
current vector of every model its workspace wants leaves `pending` (`chunks_settle`).

Both run under a KEY SHARE lock on the workspace row, which the switch commands
(services/switch.py) take FOR UPDATE: a store never interleaves with a start, promote,
rollback or abort, so no chunk is settled against a set of models that just changed.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence

from django.db import connection, transaction

from cms.citus_mode import citus_active, same_workspace
from ingestion.embeddings import BaseEmbeddingBackend
from ingestion.models import Chunk, ChunkVector, WorkspaceEmbedding


@functools.lru_cache(maxsize=8)
def _vector_format(dimensions: int) -> str:
    # 9 significant digits round-trip a float32, which is what pgvector stores.
    return "[" + ",".join(["%.9g"] * dimensions) + "]"


def vector_literal(vector: Sequence[float]) -> str:
    """pgvector's text form. printf over a tuple is ~2.5x faster than joining reprs."""
    values = tuple(vector.tolist() if hasattr(vector, "tolist") else vector)
    return _vector_format(len(values)) % values


def workspaces_lock_shared(cursor, workspace_ids: Iterable[int]) -> None:
    """KEY SHARE on the workspace rows: waits while a switch command changes their models."""
    cursor.execute("SELECT id FROM cms_workspace WHERE id = ANY(%s) ORDER BY id FOR KEY SHARE",
                   [sorted(set(workspace_ids))])


def vectors_store(*, backend: BaseEmbeddingBackend, rows: list[tuple[int, str, str]],
                  default_model: str | None = None) -> int:
    """Store (chunk id, embedded hash, vector literal) rows of `backend`'s model where the hash
    still matches and the workspace still wants the model; settle the chunks. Returns how
    many vectors were stored (a chunk that already holds this vector counts as stored).

    `default_model`: the active model of workspaces that never switched (the configured one).
    """
    if not rows:
        return 0
    ids, hashes, vectors = zip(*rows, strict=True)
    chunks, vector_table, state = Chunk._meta.db_table, ChunkVector._meta.db_table, WorkspaceEmbedding._meta.db_table
    model = backend.model_name
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"SELECT DISTINCT workspace_id FROM {chunks} WHERE id = ANY(%s)", [list(ids)])
        workspace_ids = [row[0] for row in cursor.fetchall()]
        workspaces_lock_shared(cursor, workspace_ids)
        if citus_active():
            stored = _vectors_store_per_workspace(cursor, workspace_ids=workspace_ids, rows=rows, model=model,
                                                  default_model=default_model, dimensions=backend.dimensions)
            chunks_settle(cursor, chunk_ids=list(ids), default_model=default_model or model)
            return stored
        cursor.execute(
            f"""
            WITH v AS (SELECT * FROM unnest(%s::bigint[], %s::text[], %s::text[]) AS v(id, content_hash, embedding)),
            fresh AS (
                SELECT c.id, c.workspace_id, v.content_hash, v.embedding
                FROM v JOIN {chunks} c ON c.id = v.id AND c.content_hash = v.content_hash
                LEFT JOIN {state} s ON s.workspace_id = c.workspace_id
                WHERE CASE WHEN s.workspace_id IS NULL THEN %s = coalesce(%s, %s)
                           ELSE %s IN (s.active_model, s.target_model) END
                FOR SHARE OF c
            ),
            written AS (
                INSERT INTO {vector_table} AS cv (chunk_id, workspace_id, model, dimensions, embedding, content_hash,
                                                  created_at)
                SELECT id, workspace_id, %s, %s, embedding::vector, content_hash, now() FROM fresh
                ON CONFLICT (chunk_id, model, workspace_id) DO UPDATE
                SET embedding = EXCLUDED.embedding, content_hash = EXCLUDED.content_hash,
                    dimensions = EXCLUDED.dimensions, created_at = EXCLUDED.created_at
                WHERE cv.content_hash <> EXCLUDED.content_hash
            )
            SELECT count(*) FROM fresh
            """,
            [list(ids), list(hashes), list(vectors), model, default_model, model, model, model,
             backend.dimensions],
        )
        stored = int(cursor.fetchone()[0])
        chunks_settle(cursor, chunk_ids=list(ids), default_model=default_model or model)
    return stored


def chunks_settle(cursor, *, chunk_ids: Sequence[int] | None = None, workspace_id: int | None = None,
                  default_model: str | None) -> tuple[int, int]:
    """Make `status` say which current vectors each chunk holds: every wanted model's ->
    embedded (lease, retry and error cleared); the active model's but not the target's ->
    backfill; not the active model's -> pending. Scope: these chunks, or one workspace's.
    Returns (settled, reopened): how many became embedded, and how many changed otherwise.
    Failed chunks are left alone (requeue them to retry).
    """
    chunks, vector_table, state = Chunk._meta.db_table, ChunkVector._meta.db_table, WorkspaceEmbedding._meta.db_table
    scope, params = ("c.id = ANY(%s)", [list(chunk_ids)]) if chunk_ids is not None else (
        "c.workspace_id = %s", [workspace_id])

    def lacking(models_sql: str) -> str:
        # True when some model of `models_sql` holds no vector of the chunk's current text.
        return f"""EXISTS (
            SELECT 1 FROM unnest({models_sql}) AS m(model)
            WHERE coalesce(m.model, '') <> '' AND NOT EXISTS (
                SELECT 1 FROM {vector_table} v
                WHERE v.chunk_id = c.id{same_workspace('v', 'c')} AND v.model = m.model AND v.content_hash = c.content_hash))"""

    wanted = lacking(f"""coalesce((SELECT ARRAY[s.active_model, s.target_model] FROM {state} s
                                  WHERE s.workspace_id = c.workspace_id), ARRAY[%s]::text[])""")
    active = lacking(f"""ARRAY[coalesce((SELECT s.active_model FROM {state} s
                                         WHERE s.workspace_id = c.workspace_id), %s)]""")
    cursor.execute(
        f"""UPDATE {chunks} c SET status = 'embedded', leased_until = NULL, retry_at = NULL, last_error = '',
                updated_at = now()
            WHERE {scope} AND c.status IN ('pending', 'backfill') AND NOT {wanted}""",
        [*params, default_model],
    )
    settled = cursor.rowcount
    cursor.execute(
        f"""UPDATE {chunks} c SET status = CASE WHEN {active} THEN 'pending' ELSE 'backfill' END,
                attempts = CASE WHEN c.status = 'embedded' THEN 0 ELSE c.attempts END, updated_at = now()
            WHERE {scope} AND c.status IN ('pending', 'backfill', 'embedded') AND {wanted}
              AND c.status <> CASE WHEN {active} THEN 'pending' ELSE 'backfill' END""",
        [default_model, *params, default_model, default_model],
    )
    return settled, cursor.rowcount


def vectors_current(*, chunk_ids: Sequence[int], models: Iterable[str]) -> set[tuple[int, str]]:
    """(chunk id, model) pairs among these chunks and models that hold a current vector."""
    if not chunk_ids:
        return set()
    with connection.cursor() as cursor:
        cursor.execute(
            f"""SELECT v.chunk_id, v.model FROM {ChunkVector._meta.db_table} v
                JOIN {Chunk._meta.db_table} c ON c.id = v.chunk_id AND c.content_hash = v.content_hash{same_workspace('c', 'v')}
                WHERE v.chunk_id = ANY(%s) AND v.model = ANY(%s)""",
            [list(chunk_ids), sorted(set(models))],
        )
        return {(cid, model) for cid, model in cursor.fetchall()}


def vectors_reusable(*, model_name: str, keys: Iterable[tuple[int, str]]) -> dict[tuple[int, str], str]:
    """Vectors (as literals) already stored by `model_name` for these (workspace id, content hash)
    keys: identical text in the same workspace is never embedded twice by one model."""
    keys = list(keys)
    if not keys:
        return {}
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            SELECT DISTINCT ON (workspace_id, content_hash) workspace_id, content_hash, embedding::text
            FROM {ChunkVector._meta.db_table}
            WHERE model = %s AND workspace_id = ANY(%s) AND content_hash = ANY(%s)
            """,
            [model_name, sorted({ws for ws, _ in keys}), sorted({h for _, h in keys})],
        )
        return {(ws, h): vec for ws, h, vec in cursor.fetchall()}


def chunks_settle_ids(*, chunk_ids: Sequence[int], default_model: str | None) -> int:
    """Settle these chunks (see chunks_settle) under the workspace lock; returns how many left pending."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"SELECT DISTINCT workspace_id FROM {Chunk._meta.db_table} WHERE id = ANY(%s)",
                       [list(chunk_ids)])
        workspaces_lock_shared(cursor, [row[0] for row in cursor.fetchall()])
        return chunks_settle(cursor, chunk_ids=chunk_ids, default_model=default_model)[0]


def _vectors_store_per_workspace(cursor, *, workspace_ids: Sequence[int], rows: list[tuple[int, str, str]],
                                 model: str, default_model: str | None, dimensions: int) -> int:
    """vectors_store's statement on Citus: Citus locks rows (FOR SHARE) only in a statement that
    stays on one shard, and does not run a data-modifying CTE beside a locking one. Per
    workspace: the fresh chunks are read and locked in one statement, then their vectors written."""
    chunks, vector_table, state = Chunk._meta.db_table, ChunkVector._meta.db_table, WorkspaceEmbedding._meta.db_table
    ids, hashes, vectors = (list(column) for column in zip(*rows, strict=True))
    stored = 0
    for workspace_id in workspace_ids:
        cursor.execute(
            f"""
            SELECT c.id, v.content_hash, v.embedding
            FROM unnest(%s::bigint[], %s::text[], %s::text[]) AS v(id, content_hash, embedding)
            JOIN {chunks} c ON c.id = v.id AND c.content_hash = v.content_hash
            LEFT JOIN {state} s ON s.workspace_id = c.workspace_id AND s.workspace_id = %s
            WHERE c.workspace_id = %s AND CASE WHEN s.workspace_id IS NULL THEN %s = coalesce(%s, %s)
                                               ELSE %s IN (s.active_model, s.target_model) END
            FOR SHARE OF c
            """,
            [ids, hashes, vectors, workspace_id, workspace_id, model, default_model, model, model],
        )
        fresh = cursor.fetchall()
        if not fresh:
            continue
        cursor.execute(
            f"""
            INSERT INTO {vector_table} AS cv (chunk_id, workspace_id, model, dimensions, embedding, content_hash,
                                              created_at)
            SELECT f.id, %s, %s, %s, f.embedding::vector, f.content_hash, now()
            FROM unnest(%s::bigint[], %s::text[], %s::text[]) AS f(id, content_hash, embedding)
            ON CONFLICT (chunk_id, model, workspace_id) DO UPDATE
            SET embedding = EXCLUDED.embedding, content_hash = EXCLUDED.content_hash,
                dimensions = EXCLUDED.dimensions, created_at = EXCLUDED.created_at
            WHERE cv.content_hash <> EXCLUDED.content_hash
            """,
            [workspace_id, model, dimensions, *(list(column) for column in zip(*fresh, strict=True))],
        )
        stored += len(fresh)
    return stored
