"""The admin's ingestion actions: each calls the services the commands use and queues the work.

Nothing here embeds or re-chunks inside the request: the heavy work goes to Celery tasks
enqueued on commit, so a failed request queues nothing and a queued task sees the commit.
Callers check roles (cms/admin/access.py) and open the transaction.
"""

from __future__ import annotations

from collections.abc import Sequence

from cms import services as cms_services
from cms.models import ContentType, Workspace
from ingestion import selectors, services
from ingestion.tasks import chunks_embed_enqueue_on_commit, chunks_sync_content_type_enqueue_on_commit


def semantic_search_set(*, content_types: Sequence[ContentType], enabled: bool) -> int:
    """Turn semantic search on or off through content_type_update; returns how many types changed.

    The toggle's receiver writes (or deletes) the type's pending chunks with the flag and
    queues their embedding on commit.
    """
    changed = 0
    for content_type in content_types:
        if content_type.semantic_search_enabled != enabled:
            cms_services.content_type_update(content_type=content_type, semantic_search_enabled=enabled)
            changed += 1
    return changed


def content_types_reindex(*, content_types: Sequence[ContentType]) -> int:
    """`reindex --content-type X --async` for each type: failed chunks and chunks lacking a
    current vector of their workspace's active model go back to pending at once (one UPDATE); the re-chunking of every entry is queued
    (chunks_sync_content_type_task), and so is the embedding. Returns how many were requeued."""
    content_types = list(content_types)
    if not content_types:
        return 0
    requeued = 0
    for workspace_id in sorted({ct.workspace_id for ct in content_types}):
        requeued += services.chunks_requeue(
            content_types=[ct for ct in content_types if ct.workspace_id == workspace_id], include_assets=False,
            model_name=selectors.embedding_models(workspace=workspace_id).active,
        )
    for content_type in content_types:
        chunks_sync_content_type_enqueue_on_commit(content_type_id=content_type.pk)
    if requeued:
        for workspace_id in sorted({ct.workspace_id for ct in content_types}):
            chunks_embed_enqueue_on_commit(workspace_id=workspace_id)
    return requeued


def chunks_retry_failed(*, workspace: Workspace, content_types: Sequence[ContentType] | None = None) -> int:
    """Put the workspace's failed chunks (of these types, or all including assets) back to
    pending and queue their embedding. Returns how many."""
    requeued = services.chunks_requeue(
        workspace=workspace,
        content_types=None if content_types is None else list(content_types),
        include_assets=content_types is None,
    )
    if requeued:
        chunks_embed_enqueue_on_commit(workspace_id=workspace.pk)
    return requeued
