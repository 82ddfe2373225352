"""Claims and leases: which worker embeds which pending chunk, and what happens when it fails.

A worker claims pending chunks with `FOR UPDATE SKIP LOCKED` plus a lease (`leased_until`)
committed at once, so concurrent workers never wait on or take each other's rows. A worker
killed mid-batch only delays its chunks until the lease expires; the sweep (or any later
run) claims them again.

Failed attempts are counted here. A permanent error (a rejected key, a refused input) fails
the chunk for good: retrying cannot help, and a person must act. A transient one (an
outage, a rate limit, a timeout) only delays it: `retry_at` backs off exponentially from
EMBED_RETRY_BASE_SECONDS up to EMBED_RETRY_MAX_SECONDS, so a provider that is down for a
day costs one request per chunk batch an hour, and everything is embedded once it is back.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from cms.citus_mode import citus_active
from cms.models import ContentType, Workspace
from ingestion.embeddings import EmbeddingProviderError
from ingestion.models import QUEUED_STATUSES, Chunk, ChunkStatus, ChunkVector, SourceKind


@dataclass(frozen=True)
class ClaimedChunk:
    id: int
    workspace_id: int
    text: str
    content_hash: str
    status: str = ""


def _lease_seconds_default() -> float:
    return float(getattr(settings, "INGESTION_LEASE_SECONDS", 300.0))


def _claim(*, where_sql: str, params: list[Any], limit: int | None, lease_seconds: float | None,
           statuses: Sequence[str] = QUEUED_STATUSES) -> list[ClaimedChunk]:
    """Lease the pending, unleased chunks matching `where_sql` (oldest first, at most `limit`).

    The one claim statement: the rows are locked with SKIP LOCKED and the lease is committed
    before returning. `where_sql` is trusted code; its values travel in `params`.
    """
    lease = _lease_seconds_default() if lease_seconds is None else lease_seconds
    statuses = list(statuses)
    table = Chunk._meta.db_table
    limit_sql = "LIMIT %s" if limit is not None else ""
    sql = f"""
        WITH picked AS (
            SELECT id FROM {table}
            WHERE status = ANY(%s) AND (leased_until IS NULL OR leased_until < now())
              AND (retry_at IS NULL OR retry_at <= now()) AND {where_sql}
            ORDER BY created_at, id
            {limit_sql}
            FOR UPDATE SKIP LOCKED
        )
        UPDATE {table} AS c
        SET leased_until = now() + make_interval(secs => %s)
        FROM picked WHERE c.id = picked.id
        RETURNING c.id, c.workspace_id, c.text, c.content_hash, c.status
    """
    values = [statuses, *params, *([limit] if limit is not None else []), lease]
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, values)
        rows = cursor.fetchall()
    return sorted((ClaimedChunk(*row) for row in rows), key=lambda c: c.id)


def chunks_claim_pending(
    *, limit: int, workspace: Workspace | int | None = None, lease_seconds: float | None = None,
    include_backfill: bool = True,
) -> list[ClaimedChunk]:
    """Lease up to `limit` queued chunks (of one workspace or any) to this worker: pending ones
    first, oldest first, then (unless `include_backfill` is off, as on the content queue) a
    switch's backfill, so new and edited content never waits behind a backfill."""
    if limit <= 0:
        return []
    workspace_id = workspace.pk if isinstance(workspace, Workspace) else workspace
    statuses = [[ChunkStatus.PENDING], [ChunkStatus.BACKFILL]] if include_backfill else [[ChunkStatus.PENDING]]
    claimed: list[ClaimedChunk] = []
    for status in statuses:
        if workspace_id is None and citus_active():
            # Citus locks rows (FOR UPDATE) only within one shard: claim workspace by workspace,
            # those with the oldest queued chunks first.
            for queued_workspace in _workspaces_queued(status, limit - len(claimed)):
                claimed += _claim(where_sql="workspace_id = %s", params=[queued_workspace], limit=limit - len(claimed),
                                  lease_seconds=lease_seconds, statuses=status)
                if len(claimed) >= limit:
                    break
        else:
            where, params = ("TRUE", []) if workspace_id is None else ("workspace_id = %s", [workspace_id])
            claimed += _claim(where_sql=where, params=params, limit=limit - len(claimed), lease_seconds=lease_seconds,
                              statuses=status)
        if len(claimed) >= limit:
            break
    return claimed


def _workspaces_queued(statuses: Sequence[str], limit: int) -> list[int]:
    """The workspaces with claimable chunks, the oldest chunk first (at most `limit`): on Citus
    this read reaches every shard, without locking anything."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            SELECT workspace_id FROM {Chunk._meta.db_table}
            WHERE status = ANY(%s) AND (leased_until IS NULL OR leased_until < now())
              AND (retry_at IS NULL OR retry_at <= now())
            GROUP BY workspace_id ORDER BY min(created_at), workspace_id LIMIT %s
            """,
            [list(statuses), limit],
        )
        return [row[0] for row in cursor.fetchall()]


def chunks_claim_ids(*, chunk_ids: Sequence[int], lease_seconds: float | None = None) -> list[ClaimedChunk]:
    """Lease these chunks if they are pending and no other worker holds them."""
    if not chunk_ids:
        return []
    return _claim(where_sql="id = ANY(%s)", params=[list(chunk_ids)], limit=None, lease_seconds=lease_seconds)


def leases_release(chunk_ids: Iterable[int]) -> None:
    """Give claimed chunks back at once (instead of waiting for their lease to expire)."""
    ids = list(chunk_ids)
    if ids:
        Chunk.objects.filter(id__in=ids, status__in=QUEUED_STATUSES).update(leased_until=None)


def chunks_reclaim_expired_leases() -> int:
    """Clear leases that have expired (their worker died); returns how many."""
    return Chunk.objects.queued().filter(leased_until__lt=timezone.now()).update(leased_until=None)


def chunks_mark_error(*, chunk_ids: Sequence[int], error: EmbeddingProviderError) -> int:
    """Record a failed attempt: release the lease and count it. A permanent error fails the
    chunk; a transient one sets `retry_at` (exponential backoff on the chunk's attempts).
    Returns how many failed for good."""
    if not chunk_ids:
        return 0
    table = Chunk._meta.db_table
    message = str(error)[:2000] or error.__class__.__name__
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            f"""
            UPDATE {table}
            SET attempts = attempts + 1, last_error = %s, leased_until = NULL, updated_at = now(),
                status = CASE WHEN %s THEN 'failed' ELSE status END,
                retry_at = CASE WHEN %s THEN NULL
                    ELSE now() + make_interval(secs => least(%s, %s * power(2, least(attempts, 30))))
                END
            WHERE id = ANY(%s) AND status IN ('pending', 'backfill')
            RETURNING status
            """,
            [message, not error.transient, not error.transient, float(settings.EMBED_RETRY_MAX_SECONDS),
             float(settings.EMBED_RETRY_BASE_SECONDS), list(chunk_ids)],
        )
        return sum(1 for (status,) in cursor.fetchall() if status == ChunkStatus.FAILED)


@transaction.atomic
def chunks_requeue(
    *,
    workspace: Workspace | None = None,
    content_types: Sequence[ContentType] | None = None,
    include_assets: bool = True,
    model_name: str | None = None,
) -> int:
    """Put failed chunks (and, given `model_name`, chunks with no current vector of it) back to
    pending with attempts 0, so the next embedding run retries them. Returns how many.

    `content_types=None` means every type; with a list, only those types' entries (plus
    assets if `include_assets`).
    """
    chunks = Chunk.objects.all() if workspace is None else Chunk.objects.for_workspace(workspace)
    if content_types is not None:
        scope = Q(entry__content_type__in=[ct.pk for ct in content_types])
        if include_assets:
            scope |= Q(source_kind=SourceKind.ASSET)
        chunks = chunks.filter(scope)
    elif not include_assets:
        chunks = chunks.filter(source_kind=SourceKind.ENTRY)
    stale = Q(status=ChunkStatus.FAILED)
    if model_name:
        current = ChunkVector.objects.filter(chunk=OuterRef("pk"), model=model_name,
                                             content_hash=OuterRef("content_hash"))
        stale |= Q(status=ChunkStatus.EMBEDDED) & ~Exists(current)
    return Chunk.objects.filter(id__in=chunks.filter(stale).values("id")).update(
        status=ChunkStatus.PENDING, attempts=0, last_error="", leased_until=None, retry_at=None,
        updated_at=timezone.now()
    )


