"""Receivers of cms signals. Each calls one ingestion service; no logic lives here.

The signals fire inside the content service's transaction, so the pending chunks (and their
keyword postings) commit with the content; embedding is enqueued, and the keyword
statistics compacted, on commit.
"""

from __future__ import annotations

from django.dispatch import receiver

from cms import signals
from ingestion import services
from ingestion.tasks import chunks_embed_enqueue_on_commit


@receiver(signals.entry_saved, dispatch_uid="ingestion.entry_saved")
def on_entry_saved(sender, entry, created=False, **kwargs) -> None:
    _after_sync(services.chunks_sync_for_entry(entry=entry, created=created), workspace_id=entry.workspace_id)


@receiver(signals.entry_deleted, dispatch_uid="ingestion.entry_deleted")
def on_entry_deleted(sender, entry, **kwargs) -> None:
    if services.chunks_delete_for_entry(entry=entry):
        services.keyword_stats_compact_on_commit(workspace_id=entry.workspace_id)


@receiver(signals.asset_saved, dispatch_uid="ingestion.asset_saved")
def on_asset_saved(sender, asset, **kwargs) -> None:
    _after_sync(services.chunks_sync_for_asset(asset=asset), workspace_id=asset.workspace_id)


def _after_sync(result, *, workspace_id: int) -> None:
    """Once a source's chunks are synced: embed what is new, compact the keyword statistics."""
    if result.needs_embedding:
        chunks_embed_enqueue_on_commit(workspace_id=workspace_id)
    if result.keyword_changed:
        services.keyword_stats_compact_on_commit(workspace_id=workspace_id)


@receiver(signals.asset_deleted, dispatch_uid="ingestion.asset_deleted")
def on_asset_deleted(sender, asset, **kwargs) -> None:
    if services.chunks_delete_for_asset(asset=asset):
        services.keyword_stats_compact_on_commit(workspace_id=asset.workspace_id)


@receiver(signals.semantic_search_toggled, dispatch_uid="ingestion.semantic_search_toggled")
def on_semantic_search_toggled(sender, content_type, enabled, **kwargs) -> None:
    # Synced inside the toggle's transaction (not in a task) so the pending chunks are as
    # durable as the flag: a broker down at this moment loses nothing.
    result = services.chunks_sync_for_content_type(content_type=content_type, lock_entries=False)
    if result.needs_embedding:
        chunks_embed_enqueue_on_commit(workspace_id=content_type.workspace_id)
