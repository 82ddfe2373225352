"""The dry run of reindex: what embedding would send, in texts, requests, tokens and cost."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings

from cms.models import Asset, ContentType, Entry, Workspace
from ingestion.embeddings import BaseEmbeddingBackend, EmbeddingNotConfigured, get_embedding_backend
from ingestion.models import Chunk, ChunkStatus, SourceKind
from ingestion.services.sync import SYNC_BATCH_SIZE, ProgressCallback
from ingestion.services.vectors import vectors_current, vectors_reusable
from ingestion.sources import SourcePlan, asset_is_ingested, asset_plan, content_type_info, entry_plan


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
        # No provider: price the work at the configured rate, so the estimate still says what
        # turning one on would cost.
        return BaseEmbeddingBackend(price_per_million_tokens=settings.EMBEDDING_PRICE_PER_MTOK), False


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

    def collect(plans: Sequence[SourcePlan], kind: str) -> None:
        nonlocal chunk_count
        column = "entry_id" if kind == SourceKind.ENTRY else "asset_id"
        rows = list(Chunk.objects.filter(**{f"{column}__in": [p.source_id for p in plans]}).only(
            "id", column, "field", "ordinal", "content_hash", "status"
        ))
        with_vector = {cid for cid, _ in vectors_current(chunk_ids=[r.id for r in rows], models=[backend.model_name])}
        current = {
            (getattr(row, column), row.field, row.ordinal): (row.content_hash, row.status, row.id in with_vector)
            for row in rows
        }
        for plan in plans:
            for want in plan.desired:
                have = current.get((plan.source_id, want.field, want.ordinal))
                if (
                    have is not None
                    and have[0] == want.content_hash
                    and have[1] in (ChunkStatus.EMBEDDED, ChunkStatus.BACKFILL)
                    and (not configured or have[2])
                ):
                    continue
                chunk_count += 1
                wanted.setdefault((plan.workspace_id, want.content_hash), want.text)
        estimate.sources += len(plans)
        if progress:
            progress(len(plans))

    for content_type in content_types:
        info = content_type_info(content_type)
        if not info.semantic_search_enabled:
            continue
        last_pk = 0
        while True:
            entries = list(Entry.objects.filter(content_type_id=info.id, pk__gt=last_pk).order_by("pk")[:SYNC_BATCH_SIZE])
            if not entries:
                break
            collect([entry_plan(e, info) for e in entries], SourceKind.ENTRY)
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
            collect([asset_plan(a) for a in batch if asset_is_ingested(a)], SourceKind.ASSET)
            last_pk = batch[-1].pk

    if configured and wanted:
        for key in vectors_reusable(model_name=backend.model_name, keys=list(wanted)):
            wanted.pop(key, None)
    texts = list(wanted.values())
    estimate.chunks = chunk_count
    estimate.texts = len(texts)
    estimate.tokens = sum(backend.estimate_tokens(t) for t in texts)
    estimate.requests = len(backend.batches(texts)) if texts else 0
    estimate.cost_usd = backend.cost_usd(estimate.tokens)
    return estimate
