"""Thin Celery tasks for ingestion: ids in, one service call, safe to run twice.

The chunk table, not the broker, is the record of pending work: a lost task only delays
chunks until the beat sweep (`chunks_sweep_task`) enqueues them again.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings

from cms.models import ContentType
from ingestion import (
    selectors,
    services,
    worker_start,  # noqa: F401 - connects the worker-start model load
)
from ingestion.embeddings import EmbeddingProviderError
from ingestion.models import ChunkStatus

logger = logging.getLogger(__name__)

# Chunks one task run embeds before handing over to a fresh task, so one run cannot hold a
# worker for hours and the queue stays fair between workspaces.
TASK_MAX_CHUNKS = 5000
# Retries of a task whose provider failed transiently; the chunks themselves wait out their own
# backoff (`retry_at`), and the sweep picks up whatever is still pending afterwards.
TASK_MAX_RETRIES = 5
RETRY_BACKOFF_MAX_SECONDS = 600


def _retry_countdown(retries: int) -> int:
    return min(RETRY_BACKOFF_MAX_SECONDS, 5 * 2**retries)


def _embed(task, *, workspace_id: int | None, backfill: bool) -> dict:
    try:
        report = services.chunks_embed_pending(workspace=workspace_id, limit=TASK_MAX_CHUNKS,
                                               include_backfill=backfill)
    except EmbeddingProviderError as exc:
        if exc.transient:
            raise task.retry(exc=exc, countdown=_retry_countdown(task.request.retries)) from exc
        logger.error("Embedding failed permanently (workspace %s): %s", workspace_id, exc)
        return {"error": str(exc)}
    if report.claimed >= TASK_MAX_CHUNKS:
        chunks_embed_enqueue(workspace_id=workspace_id, backfill=backfill)
    return {"claimed": report.claimed, "embedded": report.embedded, "not_configured": report.not_configured}


# Queues: ingestion/queues.py routes each task by its name.
@shared_task(name="ingestion.chunks_embed_pending", bind=True, max_retries=TASK_MAX_RETRIES, ignore_result=True)
def chunks_embed_pending_task(self, workspace_id: int | None = None) -> dict:
    """New and edited content (the content queue): embed pending chunks (of one workspace, or
    all) until none are left or TASK_MAX_CHUNKS. A switch's backfill chunks are left to the
    backfill queue, so a backfill never holds up a save."""
    return _embed(self, workspace_id=workspace_id, backfill=False)


@shared_task(name="ingestion.chunks_embed_backfill", bind=True, max_retries=TASK_MAX_RETRIES, ignore_result=True)
def chunks_embed_backfill_task(self, workspace_id: int | None = None) -> dict:
    """A model switch's backfill (the backfill queue): pending chunks first when there are any,
    then backfill ones, until none are left or TASK_MAX_CHUNKS."""
    return _embed(self, workspace_id=workspace_id, backfill=True)


@shared_task(name="ingestion.chunks_sweep", ignore_result=True)
def chunks_sweep_task(older_than_seconds: float | None = None) -> dict:
    """Periodic (beat): re-enqueue embedding for pending chunks whose task was lost, and fold
    any keyword statistics deltas left over.

    A pending chunk with no live lease that has waited longer than `older_than_seconds`
    (default INGESTION_SWEEP_SECONDS) had its task lost (broker down at save time) or its
    worker killed (lease expired). One task per such workspace is enqueued.
    """
    if older_than_seconds is None:
        older_than_seconds = settings.INGESTION_SWEEP_SECONDS
    # Keyword statistics deltas left over when a save's on-commit compaction lost a race or failed.
    services.keyword_stats_compact_all()
    released = services.chunks_reclaim_expired_leases()
    workspace_ids = selectors.chunk_stalled_workspace_ids(older_than_seconds=older_than_seconds,
                                                          status=ChunkStatus.PENDING)
    for workspace_id in workspace_ids:
        chunks_embed_enqueue(workspace_id=workspace_id)
    backfill_ids = selectors.chunk_stalled_workspace_ids(older_than_seconds=older_than_seconds,
                                                         status=ChunkStatus.BACKFILL)
    for workspace_id in backfill_ids:
        chunks_embed_enqueue(workspace_id=workspace_id, backfill=True)
    workspace_ids = sorted({*workspace_ids, *backfill_ids})
    if workspace_ids or released:
        logger.info("Sweep: %d expired leases released; embedding enqueued for workspaces %s", released, workspace_ids)
    return {"released": released, "workspaces": workspace_ids}


@shared_task(name="ingestion.chunks_sync_content_type", ignore_result=True)
def chunks_sync_content_type_task(content_type_id: int) -> dict:
    """Re-sync a content type's chunks (all its entries, or none if opted out), then embed."""
    content_type = ContentType.objects.filter(pk=content_type_id).first()
    if content_type is None:
        return {"missing": True}
    result = services.chunks_sync_for_content_type(content_type=content_type)
    if result.needs_embedding:
        chunks_embed_enqueue(workspace_id=content_type.workspace_id)
    return {"created": result.created, "changed": result.changed, "deleted": result.deleted}


def chunks_embed_enqueue(*, workspace_id: int | None, backfill: bool = False) -> bool:
    """Enqueue an embedding task (on the content queue, or with `backfill` on the backfill
    queue); never raise. A broker that is down must not fail a save: the chunks are pending
    in the database and the sweep enqueues them later."""
    try:
        (chunks_embed_backfill_task if backfill else chunks_embed_pending_task).delay(workspace_id=workspace_id)
    except Exception:  # noqa: BLE001 - any broker failure; logged, recovered by the sweep
        logger.warning("Could not enqueue embedding for workspace %s; the sweep will retry.", workspace_id,
                       exc_info=True)
        return False
    return True


def chunks_embed_enqueue_on_commit(*, workspace_id: int | None, backfill: bool = False) -> None:
    """Enqueue embedding once the current transaction commits (at once outside one)."""
    from django.db import transaction

    transaction.on_commit(lambda: chunks_embed_enqueue(workspace_id=workspace_id, backfill=backfill))


def chunks_sync_content_type_enqueue_on_commit(*, content_type_id: int) -> None:
    """Enqueue a re-sync of the content type once the transaction commits; never raise (the
    caller is told it was queued; a broker that is down is logged)."""
    from django.db import transaction

    def enqueue() -> None:
        try:
            chunks_sync_content_type_task.delay(content_type_id=content_type_id)
        except Exception:  # noqa: BLE001 - any broker failure; logged, the operator reindexes again
            logger.warning("Could not enqueue the re-sync of content type %s.", content_type_id, exc_info=True)

    transaction.on_commit(enqueue)
