"""Writes to the chunk table: sync chunks from content, claim pending chunks, store vectors.

These services are the only writers of `Chunk` and `EmbeddingUsage`. The design in short:

* Sync (`chunks_sync_for_*`) runs inside the content's transaction (cms sends its signals
  there), so pending chunks commit or roll back with the content. Chunks are upserted by
  (source, field, ordinal): an unchanged content hash keeps its vector and status; a changed
  one goes back to pending with its vector cleared.
* Embedding claims pending chunks with `FOR UPDATE SKIP LOCKED` plus a lease
  (`leased_until`) committed at once, calls the provider with no transaction open, then
  stores each vector with one conditional UPDATE (`WHERE content_hash = <embedded hash> AND
  status = 'pending'`): a vector for text that was edited meanwhile is discarded. A worker
  killed mid-batch only delays its chunks until their lease expires.
* The same text is never embedded twice: identical texts in a batch are embedded once, and a
  vector already stored in the workspace for the same hash and model is copied instead.
"""

from __future__ import annotations

import datetime
import functools
import json
import logging
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from cms.models import (
    TEXT_ASSET_MIME_TYPES,
    TEXT_FIELD_TYPES,
    Asset,
    ContentType,
    Entry,
    FieldType,
    Workspace,
)
from ingestion.chunking import chunk_text
from ingestion.models import Chunk, ChunkStatus, EmbeddingUsage, SourceKind
from search.embeddings import (
    BaseEmbeddingBackend,
    EmbeddingNotConfigured,
    EmbeddingProviderError,
    get_embedding_backend,
)

logger = logging.getLogger(__name__)

# Sources (entries, assets) handled per transaction by the batch syncs and reindex.
SYNC_BATCH_SIZE = 200
# Scalar field types copied into chunk metadata for filtering.
METADATA_FIELD_TYPES = frozenset({FieldType.NUMBER, FieldType.BOOLEAN, FieldType.DATE, FieldType.REFERENCE})
ASSET_FIELD = "body"
TITLE_MAX_LENGTH = 500

# Token estimates stored on chunks must not depend on which provider is configured (or on
# one being configured at all): the base estimator is the conservative common one.
_TOKEN_ESTIMATOR = BaseEmbeddingBackend()

ProgressCallback = Callable[[int], None]


# --- sync: content -> chunk rows -------------------------------------------------------------


@dataclass(frozen=True)
class _DesiredChunk:
    field: str
    ordinal: int
    text: str
    content_hash: str
    heading: str


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

    def add(self, other: ChunkSyncResult) -> ChunkSyncResult:
        self.created += other.created
        self.changed += other.changed
        self.retitled += other.retitled
        self.deleted += other.deleted
        self.sources += other.sources
        return self


@dataclass(frozen=True)
class _TypeInfo:
    """A content type as read under lock: the flag and the schema that chunks depend on."""

    id: int
    workspace_id: int
    api_id: str
    fields: list[dict]
    semantic_search_enabled: bool

    @property
    def title_field_id(self) -> str | None:
        for spec in self.fields:
            if spec["type"] == FieldType.TEXT:
                return spec["id"]
        return None


def _content_type_lock_share(content_type_id: int) -> _TypeInfo | None:
    """Read a content type's flag and schema under a FOR SHARE lock.

    content_type_update locks the row FOR UPDATE, so an entry save and a toggle of its type
    are serialised: a save never writes chunks for a type that was just switched off, and a
    toggle's sync sees every entry saved before it.
    """
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT id, workspace_id, api_id, fields, semantic_search_enabled "
            f"FROM {ContentType._meta.db_table} WHERE id = %s FOR SHARE",
            [content_type_id],
        )
        row = cursor.fetchone()
    if row is None:
        return None
    fields = row[3]
    if isinstance(fields, str):  # Django's psycopg setup leaves jsonb undecoded in raw queries
        fields = json.loads(fields)
    return _TypeInfo(id=row[0], workspace_id=row[1], api_id=row[2], fields=fields, semantic_search_enabled=row[4])


def _drafts(text: str, *, fmt: str, field_id: str, title: str = "") -> Iterator[_DesiredChunk]:
    for draft in chunk_text(
        text, fmt=fmt, size=settings.CHUNK_SIZE_CHARS, overlap=settings.CHUNK_OVERLAP_CHARS, title=title
    ):
        if not draft.text.strip():
            continue
        yield _DesiredChunk(
            field=field_id,
            ordinal=draft.ordinal,
            text=draft.text,
            content_hash=draft.content_hash,
            heading=draft.heading,
        )


def _entry_desired(entry: Entry, info: _TypeInfo) -> list[_DesiredChunk]:
    """The chunks of an entry's text fields, each headed by the entry's title.

    The title field is not chunked on its own when another text field has content: every
    chunk of those fields already starts with it, and a title-only chunk gives an agent
    nothing to quote. Measured with bench/eval.py (nDCG@10, local model), titled body
    chunks without / with a title chunk of their own: SciFact 0.466 / 0.390, StackFAQ
    0.700 / 0.795, JSQuAD 0.717 / 0.703; untitled body chunks plus a title chunk (the first
    design): 0.380, 0.793, 0.697. The means are equal; StackFAQ, whose titles are the
    questions, is the hybrid search's to win back with keyword matches on titles.
    """
    title_field = info.title_field_id
    texts = [
        (spec, value)
        for spec in info.fields
        if spec["type"] in TEXT_FIELD_TYPES
        and isinstance(value := entry.data.get(spec["id"]), str)
        and value.strip()
    ]
    title = entry.data.get(title_field, "") if title_field else ""
    if any(spec["id"] != title_field for spec, _ in texts):
        texts = [(spec, value) for spec, value in texts if spec["id"] != title_field]
    else:
        title = ""  # the title is the only text: it is the chunk
    desired: list[_DesiredChunk] = []
    for spec, value in texts:
        # Rich text is HTML: the chunker strips the markup and keeps headings with their section.
        fmt = "html" if spec["type"] == FieldType.RICHTEXT else "plain"
        desired.extend(_drafts(value, fmt=fmt, field_id=spec["id"], title=title))
    return desired


def _entry_title(entry: Entry, info: _TypeInfo) -> str:
    field_id = info.title_field_id
    value = entry.data.get(field_id) if field_id else None
    return str(value)[:TITLE_MAX_LENGTH] if value else ""


def _entry_metadata(entry: Entry, info: _TypeInfo) -> dict[str, Any]:
    scalar_fields = {
        spec["id"]: entry.data[spec["id"]]
        for spec in info.fields
        if spec["type"] in METADATA_FIELD_TYPES and spec["id"] in entry.data
    }
    return {
        "content_type": info.api_id,
        "status": entry.status,
        "source_kind": SourceKind.ENTRY.value,
        "fields": scalar_fields,
    }


def _asset_is_ingested(asset: Asset) -> bool:
    return asset.mime_type in TEXT_ASSET_MIME_TYPES and bool(asset.text and asset.text.strip())


def _asset_desired(asset: Asset) -> list[_DesiredChunk]:
    fmt = "markdown" if asset.mime_type == "text/markdown" else "plain"
    return list(_drafts(asset.text or "", fmt=fmt, field_id=ASSET_FIELD))


def _asset_metadata(asset: Asset) -> dict[str, Any]:
    return {"source_kind": SourceKind.ASSET.value, "mime_type": asset.mime_type, "filename": asset.filename}


def _chunk_metadata(base: dict[str, Any], heading: str) -> dict[str, Any]:
    return {**base, "heading": heading} if heading else base


@dataclass
class _SourcePlan:
    """The chunks one source (entry or asset) should have, with its title and metadata."""

    kind: str
    source_id: int
    workspace_id: int
    title: str
    metadata: dict[str, Any]
    desired: list[_DesiredChunk]


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
    "embedding",
    "embedding_model",
    "embedding_dimensions",
    "embedded_at",
    "updated_at",
]


def _chunks_apply(plans: Sequence[_SourcePlan], *, kind: str, created: bool = False) -> ChunkSyncResult:
    """Upsert the chunks of several sources of one kind: 1 read, then at most 4 bulk writes.
    `created`: the sources are new, so there is nothing to read."""
    result = ChunkSyncResult(sources=len(plans))
    if not plans:
        return result
    source_column = "entry_id" if kind == SourceKind.ENTRY else "asset_id"
    existing_rows = [] if created else Chunk.objects.filter(
        **{f"{source_column}__in": [p.source_id for p in plans]}
    ).only("id", source_column, "field", "ordinal", "content_hash", "title", "metadata")
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
            metadata = _chunk_metadata(plan.metadata, want.heading)
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
                row.embedding = None
                row.embedding_model = ""
                row.embedding_dimensions = None
                row.embedded_at = None
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
        result.changed = len(to_reset)
    if to_retitle:
        Chunk.objects.bulk_update(to_retitle, ["title", "metadata", "updated_at"], batch_size=500)
        result.retitled = len(to_retitle)
    if to_create:
        Chunk.objects.bulk_create(to_create, batch_size=500)
        result.created = len(to_create)
    return result


def _entries_sync(entries: Sequence[Entry], info: _TypeInfo, *, created: bool = False) -> ChunkSyncResult:
    if not info.semantic_search_enabled:
        deleted = Chunk.objects.filter(entry_id__in=[e.pk for e in entries]).delete()[0]
        return ChunkSyncResult(deleted=deleted, sources=len(entries))
    plans = [
        _SourcePlan(
            kind=SourceKind.ENTRY,
            source_id=entry.pk,
            workspace_id=entry.workspace_id,
            title=_entry_title(entry, info),
            metadata=_entry_metadata(entry, info),
            desired=_entry_desired(entry, info),
        )
        for entry in entries
    ]
    return _chunks_apply(plans, kind=SourceKind.ENTRY, created=created)


@transaction.atomic(savepoint=False)  # joins the content save's transaction
def chunks_sync_for_entry(*, entry: Entry, created: bool = False) -> ChunkSyncResult:
    """Make the entry's chunks match its text fields (none if its type is not opted in).

    Unchanged chunks keep their vectors and status; changed ones become pending with their
    vector cleared; surplus ones are deleted. A status change only rewrites metadata.
    Idempotent: a second call with the same entry changes no row. `created=True` (the entry
    was inserted in this transaction, so it has no chunks yet) skips reading them.
    """
    info = _content_type_lock_share(entry.content_type_id)
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
        cursor.execute(f"SELECT 1 FROM {Asset._meta.db_table} WHERE id = %s FOR SHARE", [asset.pk])
        if cursor.fetchone() is None:
            return ChunkSyncResult()
    return _assets_sync([asset])


def _assets_sync(assets: Sequence[Asset]) -> ChunkSyncResult:
    ingested = [a for a in assets if _asset_is_ingested(a)]
    result = ChunkSyncResult()
    others = [a.pk for a in assets if not _asset_is_ingested(a)]
    if others:
        result.deleted = Chunk.objects.filter(asset_id__in=others).delete()[0]
    plans = [
        _SourcePlan(
            kind=SourceKind.ASSET,
            source_id=asset.pk,
            workspace_id=asset.workspace_id,
            title=asset.filename[:TITLE_MAX_LENGTH],
            metadata=_asset_metadata(asset),
            desired=_asset_desired(asset),
        )
        for asset in ingested
    ]
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
        info = _content_type_lock_share(content_type.pk)
        if info is None:
            return ChunkSyncResult()
        if not info.semantic_search_enabled:
            deleted = Chunk.objects.filter(entry__content_type_id=info.id).delete()[0]
            return ChunkSyncResult(deleted=deleted)
    result = ChunkSyncResult()
    last_pk = 0
    while True:
        with transaction.atomic():
            info = _content_type_lock_share(content_type.pk)
            if info is None:
                break
            batch = Entry.objects.filter(content_type_id=info.id, pk__gt=last_pk).order_by("pk")
            if lock_entries:
                batch = batch.select_for_update()
            entries = list(batch[:SYNC_BATCH_SIZE])
            if not entries:
                break
            result.add(_entries_sync(entries, info))
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
        last_pk = batch[-1].pk
        if progress:
            progress(len(batch))
    return result


@transaction.atomic
def chunks_requeue(
    *,
    workspace: Workspace | None = None,
    content_types: Sequence[ContentType] | None = None,
    include_assets: bool = True,
    model_name: str | None = None,
) -> int:
    """Put failed chunks (and, given `model_name`, chunks embedded by another model) back to
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
        # The old vector stays until the new one replaces it (the conditional write only
        # needs status = pending); searches for the configured model never read it.
        stale |= Q(status=ChunkStatus.EMBEDDED) & ~Q(embedding_model=model_name)
    return Chunk.objects.filter(id__in=chunks.filter(stale).values("id")).update(
        status=ChunkStatus.PENDING, attempts=0, last_error="", leased_until=None, updated_at=timezone.now()
    )


# --- claiming ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ClaimedChunk:
    id: int
    workspace_id: int
    text: str
    content_hash: str


def _lease_seconds_default() -> float:
    return float(getattr(settings, "INGESTION_LEASE_SECONDS", 300.0))


def chunks_claim_pending(
    *, limit: int, workspace: Workspace | int | None = None, lease_seconds: float | None = None
) -> list[ClaimedChunk]:
    """Lease up to `limit` pending chunks (oldest first) to this worker and return them.

    Rows are picked with FOR UPDATE SKIP LOCKED, so concurrent workers never wait on or take
    each other's rows, and the lease is committed before returning: other workers skip the
    chunks until `leased_until` passes. A worker killed mid-batch therefore only delays its
    chunks by the lease; the sweep (or any later run) claims them again.
    """
    if limit <= 0:
        return []
    lease = _lease_seconds_default() if lease_seconds is None else lease_seconds
    workspace_id = workspace.pk if isinstance(workspace, Workspace) else workspace
    workspace_clause = "AND workspace_id = %s" if workspace_id is not None else ""
    params: list[Any] = [workspace_id] if workspace_id is not None else []
    params += [limit, lease]
    table = Chunk._meta.db_table
    sql = f"""
        WITH picked AS (
            SELECT id FROM {table}
            WHERE status = 'pending' AND (leased_until IS NULL OR leased_until < now())
              {workspace_clause}
            ORDER BY created_at, id
            LIMIT %s
            FOR UPDATE SKIP LOCKED
        )
        UPDATE {table} AS c
        SET leased_until = now() + make_interval(secs => %s)
        FROM picked WHERE c.id = picked.id
        RETURNING c.id, c.workspace_id, c.text, c.content_hash
    """
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    return sorted((ClaimedChunk(*row) for row in rows), key=lambda c: c.id)


def _leases_release(chunk_ids: Iterable[int]) -> None:
    ids = list(chunk_ids)
    if ids:
        Chunk.objects.filter(id__in=ids, status=ChunkStatus.PENDING).update(leased_until=None)


def chunks_reclaim_expired_leases() -> int:
    """Clear leases that have expired (their worker died); returns how many."""
    return Chunk.objects.pending().filter(leased_until__lt=timezone.now()).update(leased_until=None)


# --- embedding ---------------------------------------------------------------------------------


@dataclass
class EmbedReport:
    """What an embedding run did. `not_configured` means nothing was claimed or sent."""

    model: str = ""
    claimed: int = 0
    embedded: int = 0  # chunks whose vector was stored (fresh or reused)
    reused: int = 0  # of which the vector was copied from an identical text
    discarded: int = 0  # vectors thrown away because the chunk changed meanwhile
    failed: int = 0
    requests: int = 0
    texts: int = 0
    tokens: int = 0
    not_configured: bool = False
    error: str = ""

    def add_stored(self, other: EmbedReport) -> None:
        """Add what another part of the run stored and sent (see _embed_items)."""
        for name in ("embedded", "discarded", "requests", "texts", "tokens"):
            setattr(self, name, getattr(self, name) + getattr(other, name))


@dataclass
class _WorkItem:
    """One distinct text (per workspace) and the claimed chunks that carry it."""

    workspace_id: int
    content_hash: str
    text: str
    chunk_ids: list[int] = field(default_factory=list)


@functools.lru_cache(maxsize=8)
def _vector_format(dimensions: int) -> str:
    # 9 significant digits round-trip a float32, which is what pgvector stores.
    return "[" + ",".join(["%.9g"] * dimensions) + "]"


def _vector_literal(vector: Sequence[float]) -> str:
    """pgvector's text form. printf over a tuple is ~2.5x faster than joining reprs."""
    values = tuple(vector.tolist() if hasattr(vector, "tolist") else vector)
    return _vector_format(len(values)) % values


def _vectors_store(*, backend: BaseEmbeddingBackend, rows: list[tuple[int, str, str]]) -> int:
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
                leased_until = NULL, last_error = ''
            FROM unnest(%s::bigint[], %s::text[], %s::text[]) AS v(id, content_hash, embedding)
            WHERE c.id = v.id AND c.content_hash = v.content_hash AND c.status = 'pending'
            """,
            [backend.model_name, backend.dimensions, list(ids), list(hashes), list(vectors)],
        )
        return cursor.rowcount


def _vectors_reusable(*, model_name: str, items: Sequence[_WorkItem]) -> dict[tuple[int, str], str]:
    """Vectors already stored for the same (workspace, hash) by the same model."""
    if not items:
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
            [model_name, sorted({i.workspace_id for i in items}), sorted({i.content_hash for i in items})],
        )
        return {(ws, h): vec for ws, h, vec in cursor.fetchall()}


def _chunks_mark_error(*, chunk_ids: Sequence[int], error: EmbeddingProviderError) -> int:
    """Record a failed attempt: release the lease, attempts + 1, and fail the chunk if the error
    is permanent or the attempts reach EMBED_MAX_ATTEMPTS. Returns how many failed for good."""
    if not chunk_ids:
        return 0
    table = Chunk._meta.db_table
    message = str(error)[:2000] or error.__class__.__name__
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            f"""
            UPDATE {table}
            SET attempts = attempts + 1, last_error = %s, leased_until = NULL, updated_at = now(),
                status = CASE WHEN %s OR attempts + 1 >= %s THEN 'failed' ELSE status END
            WHERE id = ANY(%s) AND status = 'pending'
            RETURNING status
            """,
            [message, not error.transient, settings.EMBED_MAX_ATTEMPTS, list(chunk_ids)],
        )
        return sum(1 for (status,) in cursor.fetchall() if status == ChunkStatus.FAILED)


def _usage_record(*, workspace_id: int, model: str, requests: int, texts: int, tokens: int, cost: float) -> None:
    """Add to the workspace's usage for today (UTC) with one upsert, safe under concurrency."""
    table = EmbeddingUsage._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            INSERT INTO {table} (workspace_id, model, day, requests, texts, tokens, cost_usd)
            VALUES (%s, %s, %s, %s, %s, %s, %s)
            ON CONFLICT (workspace_id, model, day) DO UPDATE SET
                requests = {table}.requests + EXCLUDED.requests,
                texts = {table}.texts + EXCLUDED.texts,
                tokens = {table}.tokens + EXCLUDED.tokens,
                cost_usd = {table}.cost_usd + EXCLUDED.cost_usd
            """,
            [workspace_id, model, timezone.now().astimezone(datetime.UTC).date(), requests, texts, tokens,
             Decimal(str(round(cost, 6)))],
        )


def _reported_usage(backend: BaseEmbeddingBackend) -> tuple[int, int] | None:
    """(requests, tokens) of the backend's last call, if it reports them in `last_call_stats`
    (Voyage reports the tokens it counted, and may split one call into several requests)."""
    stats = getattr(backend, "last_call_stats", None)
    if not stats:
        return None
    get = stats.get if isinstance(stats, dict) else lambda key: getattr(stats, key, None)
    tokens = next((v for v in (get("total_tokens"), get("tokens")) if isinstance(v, int) and v >= 0), None)
    if tokens is None:
        return None
    requests = get("requests")
    return (requests if isinstance(requests, int) and requests > 0 else 1), tokens


def _embed_items(backend: BaseEmbeddingBackend, items: list[_WorkItem], report: EmbedReport) -> None:
    """One embed call for `items` (one request, unless the backend splits it); store the vectors;
    record usage. Raises provider errors."""
    report.add_stored(_embed_call(backend, items)())


def _embed_call(backend: BaseEmbeddingBackend, items: list[_WorkItem]) -> Callable[[], EmbedReport]:
    """Embed `items` now; return the step that stores the vectors and records usage.

    The two halves are apart so a worker can store one batch while the model embeds the next
    (see _StoreBehind). Raises provider errors.
    """
    texts = [item.text for item in items]
    if "last_call_stats" in vars(backend):
        backend.last_call_stats = None  # a plain attribute: forget the previous call's stats
    vectors = backend.embed_documents(texts)
    if len(vectors) != len(items):
        raise EmbeddingProviderError(
            f"{backend.model_name} returned {len(vectors)} vectors for {len(items)} texts", transient=True
        )
    rows: list[tuple[int, str, str]] = []
    for item, vector in zip(items, vectors, strict=True):
        literal = _vector_literal(vector)
        rows.extend((chunk_id, item.content_hash, literal) for chunk_id in item.chunk_ids)
    reported = _reported_usage(backend)
    return functools.partial(_embed_record, backend, items, rows, reported)


def _embed_record(
    backend: BaseEmbeddingBackend,
    items: list[_WorkItem],
    rows: list[tuple[int, str, str]],
    reported: tuple[int, int] | None,
) -> EmbedReport:
    """Store embedded rows (hash-checked) and record the call's usage; return what it did."""
    report = EmbedReport()
    stored = _vectors_store(backend=backend, rows=rows)
    report.embedded += stored
    report.discarded += len(rows) - stored
    report.texts += len(items)

    texts = [item.text for item in items]
    workspace_ids = {item.workspace_id for item in items}
    if reported is not None and len(workspace_ids) == 1:
        requests, total_tokens = reported
        shares = {workspace_ids.pop(): (len(items), total_tokens)}
    else:
        # Estimate, or share the reported total out in proportion to the estimates.
        estimates = [backend.estimate_tokens(text) for text in texts]
        requests, total_tokens = reported if reported is not None else (1, sum(estimates))
        total_estimate = sum(estimates) or 1
        per_workspace: dict[int, list[int]] = {}
        for item, estimate in zip(items, estimates, strict=True):
            per_workspace.setdefault(item.workspace_id, []).append(estimate)
        shares = {
            ws: (len(ests), round(total_tokens * sum(ests) / total_estimate)) for ws, ests in per_workspace.items()
        }
    report.requests += requests
    report.tokens += total_tokens
    for workspace_id, (text_count, tokens) in shares.items():
        _usage_record(
            workspace_id=workspace_id,
            model=backend.model_name,
            requests=requests,
            texts=text_count,
            tokens=tokens,
            cost=backend.cost_usd(tokens),
        )
    return report


class _StoreBehind:
    """Runs store steps one batch behind the model: batch N is stored while N+1 is embedded.

    Storing (the hash-checked UPDATE and its HNSW insert) waits on PostgreSQL, and the local
    model computes in numpy; both release the GIL, so overlapping them hides most of the
    store time (bench/ingest.py). One store is in flight at most, on one thread with its own
    database connection, which is why this runs only outside a transaction: a transaction's
    uncommitted chunks are invisible to another connection. Inside one, steps run inline.
    """

    def __init__(self, report: EmbedReport, progress: ProgressCallback | None):
        self._report = report
        self._progress = progress
        self._executor = None if connection.in_atomic_block else ThreadPoolExecutor(1, "chunk-store")
        self._inflight: tuple[Future, list[int]] | None = None

    def submit(self, step: Callable[[], EmbedReport], chunk_ids: list[int]) -> None:
        self.wait()
        if self._executor is None:
            self._done(step(), len(chunk_ids))
        else:
            self._inflight = (self._executor.submit(step), chunk_ids)

    def wait(self) -> None:
        """Wait for the store in flight; raise its error after releasing its chunks' leases."""
        if self._inflight is None:
            return
        future, chunk_ids = self._inflight
        self._inflight = None
        try:
            stored = future.result()
        except BaseException:
            _leases_release(chunk_ids)
            raise
        self._done(stored, len(chunk_ids))

    def close(self) -> None:
        if self._executor is not None:
            # `connection` resolves per thread: this closes the store thread's own connection.
            self._executor.submit(lambda: connection.close()).result()
            self._executor.shutdown()

    def _done(self, stored: EmbedReport, chunks: int) -> None:
        self._report.add_stored(stored)
        if self._progress:
            self._progress(chunks)


def _claim_size() -> int:
    return max(1, int(settings.EMBED_BATCH_MAX_CHUNKS))


def _backend_for(report: EmbedReport, backend: BaseEmbeddingBackend | None) -> BaseEmbeddingBackend | None:
    """The backend to embed with (the configured one by default), noted on `report`; None,
    with `report.not_configured` set, when there is no provider."""
    if backend is None:
        try:
            backend = get_embedding_backend()
        except EmbeddingNotConfigured as exc:
            report.not_configured = True
            report.error = str(exc)
            return None
    report.model = backend.model_name
    return backend


def chunks_embed_pending(
    *,
    workspace: Workspace | int | None = None,
    limit: int | None = None,
    progress: ProgressCallback | None = None,
    backend: BaseEmbeddingBackend | None = None,
    lease_seconds: float | None = None,
) -> EmbedReport:
    """Claim and embed pending chunks until none are left (or `limit` chunks were claimed).

    Chunks are claimed EMBED_BATCH_MAX_CHUNKS at a time; their distinct texts are packed into
    provider requests by `backend.batches()`. A request that is not full is held back while
    more chunks may come, so a large backlog goes out in as few requests as the limits allow.

    Errors: not configured -> nothing claimed, `report.not_configured`. A provider error is
    recorded on the chunks of the failed request (see _chunks_mark_error), every other lease
    is released, and the error is raised so a task can retry transient ones with backoff.
    Idempotent: with nothing pending it makes no provider call and changes no row.
    """
    report = EmbedReport()
    backend = _backend_for(report, backend)
    if backend is None:
        return report
    claim_size = _claim_size()
    items: dict[tuple[int, str], _WorkItem] = {}  # claimed, not yet embedded
    exhausted = False
    store = _StoreBehind(report, progress)
    try:
        while True:
            remaining = None if limit is None else limit - report.claimed
            if not exhausted and (remaining is None or remaining > 0):
                want = claim_size if remaining is None else min(claim_size, remaining)
                claimed = chunks_claim_pending(limit=want, workspace=workspace, lease_seconds=lease_seconds)
                report.claimed += len(claimed)
                exhausted = len(claimed) < want or (remaining is not None and remaining - len(claimed) <= 0)
                fresh = _items_merge(items, claimed)
                _items_reuse(backend, items, fresh, report, progress)
            else:
                exhausted = True
            if not items:
                if exhausted:
                    break
                continue
            work = list(items.values())
            batches = backend.batches([item.text for item in work])
            if not exhausted and len(batches) == 1 and len(batches[0]) < backend.max_batch_texts:
                continue  # claim more before sending a request that is not full
            if not exhausted and len(batches[-1]) < backend.max_batch_texts:
                batches = batches[:-1]  # hold back the partial request; the next claim fills it
            for batch in batches:
                batch_items = [work[i] for i in batch]
                batch_ids = [cid for item in batch_items for cid in item.chunk_ids]
                try:
                    step = _embed_call(backend, batch_items)
                except EmbeddingProviderError as exc:
                    report.failed += _chunks_mark_error(chunk_ids=batch_ids, error=exc)
                    for item in batch_items:
                        items.pop((item.workspace_id, item.content_hash), None)
                    report.error = str(exc)
                    raise
                for item in batch_items:
                    items.pop((item.workspace_id, item.content_hash), None)
                store.submit(step, batch_ids)
        store.wait()
    finally:
        # Whatever was claimed but not stored (an error, a crash in this code) is released
        # now instead of waiting for its lease to expire.
        try:
            store.wait()
        finally:
            store.close()
            _leases_release(cid for item in items.values() for cid in item.chunk_ids)
    return report


def _items_merge(items: dict[tuple[int, str], _WorkItem], claimed: Sequence[ClaimedChunk]) -> list[_WorkItem]:
    """Add claimed chunks to the work items (identical texts share one); return the new items."""
    fresh: list[_WorkItem] = []
    for chunk in claimed:
        key = (chunk.workspace_id, chunk.content_hash)
        item = items.get(key)
        if item is None:
            item = items[key] = _WorkItem(chunk.workspace_id, chunk.content_hash, chunk.text)
            fresh.append(item)
        item.chunk_ids.append(chunk.id)
    return fresh


def _items_reuse(
    backend: BaseEmbeddingBackend,
    items: dict[tuple[int, str], _WorkItem],
    fresh: list[_WorkItem],
    report: EmbedReport,
    progress: ProgressCallback | None,
) -> None:
    """Store vectors already known for the same text instead of asking the provider again."""
    known = _vectors_reusable(model_name=backend.model_name, items=fresh)
    if not known:
        return
    rows: list[tuple[int, str, str]] = []
    done = 0
    for key, literal in known.items():
        item = items.pop(key, None)
        if item is None:
            continue
        rows.extend((chunk_id, item.content_hash, literal) for chunk_id in item.chunk_ids)
        done += len(item.chunk_ids)
    stored = _vectors_store(backend=backend, rows=rows)
    report.embedded += stored
    report.reused += stored
    report.discarded += len(rows) - stored
    if progress and done:
        progress(done)


def chunks_embed_batch(*, chunk_ids: Sequence[int], backend: BaseEmbeddingBackend | None = None) -> EmbedReport:
    """Embed these chunks now if they are pending and not leased by another worker.

    Claims them (same lease rules as chunks_claim_pending), so calling it twice, or while
    another worker holds them, embeds nothing twice.
    """
    report = EmbedReport()
    backend = _backend_for(report, backend)
    if backend is None:
        return report
    lease = _lease_seconds_default()
    table = Chunk._meta.db_table
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            f"""
            WITH picked AS (
                SELECT id FROM {table}
                WHERE id = ANY(%s) AND status = 'pending' AND (leased_until IS NULL OR leased_until < now())
                FOR UPDATE SKIP LOCKED
            )
            UPDATE {table} AS c SET leased_until = now() + make_interval(secs => %s)
            FROM picked WHERE c.id = picked.id
            RETURNING c.id, c.workspace_id, c.text, c.content_hash
            """,
            [list(chunk_ids), lease],
        )
        claimed = sorted((ClaimedChunk(*row) for row in cursor.fetchall()), key=lambda c: c.id)
    report.claimed = len(claimed)
    items: dict[tuple[int, str], _WorkItem] = {}
    fresh = _items_merge(items, claimed)
    try:
        _items_reuse(backend, items, fresh, report, None)
        work = list(items.values())
        for batch in backend.batches([item.text for item in work]):
            batch_items = [work[i] for i in batch]
            try:
                _embed_items(backend, batch_items, report)
            except EmbeddingProviderError as exc:
                report.failed += _chunks_mark_error(
                    chunk_ids=[cid for item in batch_items for cid in item.chunk_ids], error=exc
                )
                for item in batch_items:
                    items.pop((item.workspace_id, item.content_hash), None)
                report.error = str(exc)
                raise
            for item in batch_items:
                items.pop((item.workspace_id, item.content_hash), None)
    finally:
        _leases_release(cid for item in items.values() for cid in item.chunk_ids)
    return report


# --- estimates ---------------------------------------------------------------------------------


@dataclass
class EmbedEstimate:
    """What embedding the pending work would send: distinct texts, requests, tokens, cost."""

    model: str
    configured: bool
    chunks: int = 0
    texts: int = 0
    requests: int = 0
    tokens: int = 0
    cost_usd: float = 0.0
    sources: int = 0


def _estimator_backend() -> tuple[BaseEmbeddingBackend, bool]:
    try:
        return get_embedding_backend(), True
    except EmbeddingNotConfigured:
        return BaseEmbeddingBackend(price_per_million_tokens=settings.EMBEDDING_PRICE_PER_MILLION_TOKENS), False


def chunks_reindex_estimate(
    *,
    workspace: Workspace | None = None,
    content_types: Sequence[ContentType] = (),
    include_assets: bool = True,
    progress: ProgressCallback | None = None,
) -> EmbedEstimate:
    """Dry run of reindex: what would be embedded, in texts, requests, tokens and cost.

    Writes nothing. Counts the chunks whose text is new or changed, plus the chunks already
    pending or failed, minus texts whose vector can be reused.
    """
    backend, configured = _estimator_backend()
    estimate = EmbedEstimate(model=backend.model_name or "(none)", configured=configured)
    wanted: dict[tuple[int, str], str] = {}
    chunk_count = 0

    def collect(plans: Sequence[_SourcePlan], kind: str) -> None:
        nonlocal chunk_count
        column = "entry_id" if kind == SourceKind.ENTRY else "asset_id"
        current = {
            (getattr(row, column), row.field, row.ordinal): (row.content_hash, row.status, row.embedding_model)
            for row in Chunk.objects.filter(**{f"{column}__in": [p.source_id for p in plans]}).only(
                "id", column, "field", "ordinal", "content_hash", "status", "embedding_model"
            )
        }
        for plan in plans:
            for want in plan.desired:
                have = current.get((plan.source_id, want.field, want.ordinal))
                if (
                    have is not None
                    and have[0] == want.content_hash
                    and have[1] == ChunkStatus.EMBEDDED
                    and (not configured or have[2] == backend.model_name)
                ):
                    continue
                chunk_count += 1
                wanted.setdefault((plan.workspace_id, want.content_hash), want.text)
        estimate.sources += len(plans)
        if progress:
            progress(len(plans))

    for content_type in content_types:
        info = _TypeInfo(
            id=content_type.pk,
            workspace_id=content_type.workspace_id,
            api_id=content_type.api_id,
            fields=content_type.fields,
            semantic_search_enabled=content_type.semantic_search_enabled,
        )
        if not info.semantic_search_enabled:
            continue
        last_pk = 0
        while True:
            entries = list(Entry.objects.filter(content_type_id=info.id, pk__gt=last_pk).order_by("pk")[:SYNC_BATCH_SIZE])
            if not entries:
                break
            collect(
                [
                    _SourcePlan(SourceKind.ENTRY, e.pk, e.workspace_id, "", {}, _entry_desired(e, info))
                    for e in entries
                ],
                SourceKind.ENTRY,
            )
            last_pk = entries[-1].pk
    if include_assets:
        last_pk = 0
        while True:
            assets = Asset.objects.filter(pk__gt=last_pk).order_by("pk")
            if workspace is not None:
                assets = assets.filter(workspace=workspace)
            batch = list(assets[:SYNC_BATCH_SIZE])
            if not batch:
                break
            collect(
                [
                    _SourcePlan(SourceKind.ASSET, a.pk, a.workspace_id, "", {}, _asset_desired(a))
                    for a in batch
                    if _asset_is_ingested(a)
                ],
                SourceKind.ASSET,
            )
            last_pk = batch[-1].pk

    if configured and wanted:
        reusable = _vectors_reusable(
            model_name=backend.model_name,
            items=[_WorkItem(ws, h, "") for ws, h in wanted],
        )
        for key in reusable:
            wanted.pop(key, None)
    texts = list(wanted.values())
    estimate.chunks = chunk_count
    estimate.texts = len(texts)
    estimate.tokens = sum(backend.estimate_tokens(t) for t in texts)
    estimate.requests = len(backend.batches(texts)) if texts else 0
    estimate.cost_usd = backend.cost_usd(estimate.tokens)
    return estimate

