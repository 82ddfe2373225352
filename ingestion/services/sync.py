"""Sync: make the chunk rows match the content they come from (entries and text assets).

Sync runs inside the content's transaction (cms sends its signals there), so pending chunks
commit or roll back with the content, and so do their keyword postings
(`ingestion.services.keyword`): a chunk is keyword-searchable when its content commits. Chunks are upserted by (source, field, ordinal): an
unchanged content hash keeps its vector and status; a changed one goes back to pending with
its vector cleared; surplus chunks are deleted. Embedding is another module's job
(`ingestion.services.embed`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.db import connection, transaction
from django.utils import timezone

from cms.models import Asset, ContentType, Entry, Workspace
from ingestion.embeddings import BaseEmbeddingBackend
from ingestion.models import Chunk, ChunkStatus, ChunkVector, SourceKind
from ingestion.services.keyword import ChunkText, keyword_index_chunks, keyword_stats_compact_on_commit
from ingestion.sources import (
    ContentTypeInfo,
    SourcePlan,
    asset_is_ingested,
    asset_plan,
    chunk_metadata_with_heading,
    content_type_info_lock_share,
    entry_plan,
)

# Called with how many sources (or chunks) a long run has just finished.
ProgressCallback = Callable[[int], None]

# Sources (entries, assets) handled per transaction by the batch syncs and reindex.
SYNC_BATCH_SIZE = 200

# Token estimates stored on chunks must not depend on which provider is configured (or on
# one being configured at all): the base estimator is the conservative common one.
_TOKEN_ESTIMATOR = BaseEmbeddingBackend()


@dataclass
class ChunkSyncResult:
    """What a sync changed. `created + changed` chunks now wait for an embedding."""

    created: int = 0
    changed: int = 0
    retitled: int = 0
    deleted: int = 0
    sources: int = 0

    @property
    def needs_embedding(self) -> bool:
        return self.created + self.changed > 0

    @property
    def keyword_changed(self) -> bool:
        """Postings were written or deleted, so the workspace has statistics deltas to fold."""
        return self.created + self.changed + self.deleted > 0

    def add(self, other: ChunkSyncResult) -> ChunkSyncResult:
        self.created += other.created
        self.changed += other.changed
        self.retitled += other.retitled
        self.deleted += other.deleted
        self.sources += other.sources
        return self


_RESET_FIELDS = [
    "text",
    "content_hash",
    "token_estimate",
    "title",
    "metadata",
    "status",
    "attempts",
    "last_error",
    "leased_until",
    "retry_at",
    "updated_at",
]


def _chunks_apply(plans: Sequence[SourcePlan], *, kind: str, created: bool = False) -> ChunkSyncResult:
    """Upsert the chunks of several sources of one kind: 1 read, then at most 4 bulk writes.
    `created`: the sources are new, so there is nothing to read."""
    result = ChunkSyncResult(sources=len(plans))
    if not plans:
        return result
    source_column = "entry_id" if kind == SourceKind.ENTRY else "asset_id"
    existing_rows = [] if created else Chunk.objects.filter(
        **{f"{source_column}__in": [p.source_id for p in plans]}
    ).only("id", "workspace_id", source_column, "field", "ordinal", "content_hash", "title", "metadata")
    existing: dict[tuple[int, str, int], Chunk] = {
        (getattr(row, source_column), row.field, row.ordinal): row for row in existing_rows
    }
    now = timezone.now()
    to_create: list[Chunk] = []
    to_reset: list[Chunk] = []
    to_retitle: list[Chunk] = []
    for plan in plans:
        for want in plan.desired:
            key = (plan.source_id, want.field, want.ordinal)
            metadata = chunk_metadata_with_heading(plan.metadata, want.heading)
            row = existing.pop(key, None)
            if row is None:
                to_create.append(
                    Chunk(
                        workspace_id=plan.workspace_id,
                        source_kind=kind,
                        **{source_column: plan.source_id},
                        field=want.field,
                        ordinal=want.ordinal,
                        text=want.text,
                        content_hash=want.content_hash,
                        token_estimate=_TOKEN_ESTIMATOR.estimate_tokens(want.text),
                        title=plan.title,
                        metadata=metadata,
                        status=ChunkStatus.PENDING,
                    )
                )
            elif row.content_hash != want.content_hash:
                row.text = want.text
                row.content_hash = want.content_hash
                row.token_estimate = _TOKEN_ESTIMATOR.estimate_tokens(want.text)
                row.title = plan.title
                row.metadata = metadata
                row.status = ChunkStatus.PENDING
                row.attempts = 0
                row.last_error = ""
                row.leased_until = None
                row.retry_at = None
                row.updated_at = now
                to_reset.append(row)
            elif row.title != plan.title or row.metadata != metadata:
                # Filters read metadata; the text (and so the vector) is unchanged.
                row.title = plan.title
                row.metadata = metadata
                row.updated_at = now
                to_retitle.append(row)
    surplus = [row.id for row in existing.values()]
    if surplus:
        result.deleted = Chunk.objects.filter(id__in=surplus).delete()[0]
    if to_reset:
        Chunk.objects.bulk_update(to_reset, _RESET_FIELDS, batch_size=500)
        # Every model's vector of the old text goes with it, in this transaction: searches join
        # vectors on the chunk id alone (search/engine/semantic.py), and a worker storing a vector of
        # the old text meanwhile waits for this commit and then skips it (vectors_store).
        ChunkVector.objects.filter(chunk_id__in=[c.id for c in to_reset]).delete()
        result.changed = len(to_reset)
        keyword_index_chunks(chunks=[ChunkText(c.id, c.workspace_id, c.text) for c in to_reset], replace=True)
    if to_retitle:
        Chunk.objects.bulk_update(to_retitle, ["title", "metadata", "updated_at"], batch_size=500)
        result.retitled = len(to_retitle)
    if to_create:
        Chunk.objects.bulk_create(to_create, batch_size=500)
        result.created = len(to_create)
        keyword_index_chunks(chunks=[ChunkText(c.id, c.workspace_id, c.text) for c in to_create], replace=False)
    return result


def _entries_sync(entries: Sequence[Entry], info: ContentTypeInfo, *, created: bool = False) -> ChunkSyncResult:
    if not info.semantic_search_enabled:
        deleted = Chunk.objects.filter(entry_id__in=[e.pk for e in entries]).delete()[0]
        return ChunkSyncResult(deleted=deleted, sources=len(entries))
    plans = [entry_plan(entry, info) for entry in entries]
    return _chunks_apply(plans, kind=SourceKind.ENTRY, created=created)


@transaction.atomic(savepoint=False)  # joins the content save's transaction
def chunks_sync_for_entry(*, entry: Entry, created: bool = False) -> ChunkSyncResult:
    """Make the entry's chunks match its text fields (none if its type is not opted in).

    Unchanged chunks keep their vectors and status; changed ones become pending with their
    vector cleared; surplus ones are deleted. A status change only rewrites metadata.
    Idempotent: a second call with the same entry changes no row. `created=True` (the entry
    was inserted in this transaction, so it has no chunks yet) skips reading them.
    """
    info = content_type_info_lock_share(entry.content_type_id)
    if info is None or not info.semantic_search_enabled:
        # Nothing to delete: turning the flag off deleted the type's chunks under this lock.
        return ChunkSyncResult()
    return _entries_sync([entry], info, created=created)


@transaction.atomic(savepoint=False)  # joins the content save's transaction
def chunks_delete_for_entry(*, entry: Entry) -> int:
    """Delete the entry's chunks; returns how many there were."""
    return Chunk.objects.filter(entry_id=entry.pk).delete()[0]


@transaction.atomic(savepoint=False)  # joins the content save's transaction
def chunks_sync_for_asset(*, asset: Asset) -> ChunkSyncResult:
    """Make a text/plain or text/markdown asset's chunks match its text (field "body").

    Other assets have no chunks. Idempotent like chunks_sync_for_entry.
    """
    with connection.cursor() as cursor:
        # Serialises with a concurrent asset_delete (reindex runs outside the upload's transaction).
        cursor.execute(f"SELECT 1 FROM {Asset._meta.db_table} WHERE id = %s AND workspace_id = %s FOR SHARE",
                       [asset.pk, asset.workspace_id])
        if cursor.fetchone() is None:
            return ChunkSyncResult()
    return _assets_sync([asset])


def _assets_sync(assets: Sequence[Asset]) -> ChunkSyncResult:
    ingested = [a for a in assets if asset_is_ingested(a)]
    result = ChunkSyncResult()
    others = [a.pk for a in assets if not asset_is_ingested(a)]
    if others:
        result.deleted = Chunk.objects.filter(asset_id__in=others).delete()[0]
    plans = [asset_plan(asset) for asset in ingested]
    result.add(_chunks_apply(plans, kind=SourceKind.ASSET))
    result.sources = len(assets)
    return result


@transaction.atomic(savepoint=False)  # joins the content save's transaction
def chunks_delete_for_asset(*, asset: Asset) -> int:
    """Delete the asset's chunks; returns how many there were."""
    return Chunk.objects.filter(asset_id=asset.pk).delete()[0]


def chunks_sync_for_content_type(
    *, content_type: ContentType, progress: ProgressCallback | None = None, lock_entries: bool = True
) -> ChunkSyncResult:
    """Flag on: sync every entry of the type, in pk order, one transaction per batch.
    Flag off: delete all of the type's chunks.

    Each batch locks its entries (FOR UPDATE), so an entry edited meanwhile is synced from
    its committed text, not a stale read. Called inside content_type_update's transaction
    (a toggle), the batches join it, so the pending chunks commit with the flag; pass
    `lock_entries=False` there: the type's row is already locked FOR UPDATE, an edit waiting
    on it re-syncs after the toggle, and locking its entry too could deadlock with it.
    """
    with transaction.atomic():
        info = content_type_info_lock_share(content_type.pk)
        if info is None:
            return ChunkSyncResult()
        if not info.semantic_search_enabled:
            deleted = Chunk.objects.filter(entry__content_type_id=info.id).delete()[0]
            keyword_stats_compact_on_commit(workspace_id=info.workspace_id)
            return ChunkSyncResult(deleted=deleted)
    result = ChunkSyncResult()
    last_pk = 0
    while True:
        with transaction.atomic():
            info = content_type_info_lock_share(content_type.pk)
            if info is None:
                break
            batch = Entry.objects.filter(content_type_id=info.id, pk__gt=last_pk).order_by("pk")
            if lock_entries:
                batch = batch.select_for_update()
            entries = list(batch[:SYNC_BATCH_SIZE])
            if not entries:
                break
            result.add(_entries_sync(entries, info))
            keyword_stats_compact_on_commit(workspace_id=info.workspace_id)
        last_pk = entries[-1].pk
        if progress:
            progress(len(entries))
    return result


def chunks_sync_for_assets(
    *, workspace: Workspace | None = None, progress: ProgressCallback | None = None
) -> ChunkSyncResult:
    """Sync the chunks of every asset (of one workspace or all), in pk order, in batches."""
    result = ChunkSyncResult()
    last_pk = 0
    while True:
        with transaction.atomic():
            assets = Asset.objects.filter(pk__gt=last_pk).order_by("pk").select_for_update()
            if workspace is not None:
                assets = assets.filter(workspace=workspace)
            batch = list(assets[:SYNC_BATCH_SIZE])
            if not batch:
                break
            result.add(_assets_sync(batch))
            for workspace_id in {asset.workspace_id for asset in batch}:
                keyword_stats_compact_on_commit(workspace_id=workspace_id)
        last_pk = batch[-1].pk
        if progress:
            progress(len(batch))
    return result
