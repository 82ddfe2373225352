"""Reads of the chunk table: the ingestion status report and the sweep's stalled work, usage by day."""

from __future__ import annotations

import datetime
from dataclasses import asdict, dataclass, field
from typing import Any

from django.db.models import Count, Max, Min, Q
from django.utils import timezone

from cms.models import ContentType, Workspace
from ingestion.embeddings import EmbeddingNotConfigured, get_embedding_backend
from ingestion.models import Chunk, ChunkStatus, EmbeddingUsage


def chunk_stalled_workspace_ids(*, older_than_seconds: float) -> list[int]:
    """Workspaces with a pending chunk that no worker holds, that is due, and that has waited too long.

    A workspace where some chunk has a live lease is left out: a worker is working through
    it and claims until nothing is left, so another task would only queue up behind it.
    Chunks backing off after a transient error (`retry_at` in the future) are not due yet.
    """
    now = timezone.now()
    cutoff = now - datetime.timedelta(seconds=older_than_seconds)
    busy = Chunk.objects.pending().filter(leased_until__gte=now).values("workspace_id")
    return list(
        Chunk.objects.pending()
        .filter(Q(leased_until__isnull=True) | Q(leased_until__lt=now), updated_at__lte=cutoff)
        .filter(Q(retry_at__isnull=True) | Q(retry_at__lte=now))
        .exclude(workspace_id__in=busy)
        .order_by("workspace_id")
        .values_list("workspace_id", flat=True)
        .distinct()
    )


@dataclass
class ModelCounts:
    model: str
    pending: int = 0
    embedded: int = 0
    failed: int = 0


@dataclass
class WorkspaceStatus:
    workspace: str
    models: list[ModelCounts] = field(default_factory=list)
    pending: int = 0
    embedded: int = 0
    failed: int = 0
    leased: int = 0
    # Pending chunks waiting out a backoff after a transient provider error, and when the next is due.
    retrying: int = 0
    next_retry_at: str | None = None
    oldest_pending_seconds: float | None = None
    last_error: str = ""
    last_error_at: str | None = None


def ingestion_status(*, workspace: Workspace | None = None) -> dict[str, Any]:
    """Counts per workspace and model, the oldest pending age, the last error, and the provider.

    The provider is reported as {"configured": false, "code": "not_configured"} when chunks
    cannot be embedded at all: then pending is expected to grow, not a fault of the workers.
    """
    now = timezone.now()
    chunks = Chunk.objects.all() if workspace is None else Chunk.objects.for_workspace(workspace)
    rows = (
        chunks.values("workspace__slug", "embedding_model")
        .annotate(
            pending=Count("id", filter=Q(status=ChunkStatus.PENDING)),
            embedded=Count("id", filter=Q(status=ChunkStatus.EMBEDDED)),
            failed=Count("id", filter=Q(status=ChunkStatus.FAILED)),
            leased=Count("id", filter=Q(status=ChunkStatus.PENDING, leased_until__gt=now)),
            retrying=Count("id", filter=Q(status=ChunkStatus.PENDING, retry_at__gt=now)),
            next_retry=Min("retry_at", filter=Q(status=ChunkStatus.PENDING, retry_at__gt=now)),
            oldest_pending=Min("updated_at", filter=Q(status=ChunkStatus.PENDING)),
        )
        .order_by("workspace__slug", "embedding_model")
    )
    by_workspace: dict[str, WorkspaceStatus] = {}
    oldest: dict[str, datetime.datetime] = {}
    for row in rows:
        slug = row["workspace__slug"]
        status = by_workspace.setdefault(slug, WorkspaceStatus(workspace=slug))
        status.models.append(
            ModelCounts(model=row["embedding_model"] or "", pending=row["pending"], embedded=row["embedded"],
                        failed=row["failed"])
        )
        status.pending += row["pending"]
        status.embedded += row["embedded"]
        status.failed += row["failed"]
        status.leased += row["leased"]
        status.retrying += row["retrying"]
        if row["next_retry"] and (status.next_retry_at is None or row["next_retry"].isoformat() < status.next_retry_at):
            status.next_retry_at = row["next_retry"].isoformat()
        if row["oldest_pending"] and (slug not in oldest or row["oldest_pending"] < oldest[slug]):
            oldest[slug] = row["oldest_pending"]
    for slug, created in oldest.items():
        by_workspace[slug].oldest_pending_seconds = round((now - created).total_seconds(), 1)
    errors = (
        chunks.exclude(last_error="")
        .values("workspace__slug")
        .annotate(at=Max("updated_at"))
        .order_by()
    )
    for row in errors:
        slug = row["workspace__slug"]
        latest = chunks.filter(workspace__slug=slug).exclude(last_error="").order_by("-updated_at", "-id").first()
        if latest is not None and slug in by_workspace:
            by_workspace[slug].last_error = latest.last_error
            by_workspace[slug].last_error_at = latest.updated_at.isoformat()
    return {
        "provider": _provider_status(),
        "workspaces": [asdict(s) for s in by_workspace.values()],
    }


def _provider_status() -> dict[str, Any]:
    from django.conf import settings

    try:
        backend = get_embedding_backend()
    except EmbeddingNotConfigured as exc:
        return {"configured": False, "code": "not_configured", "message": str(exc)}
    except Exception as exc:  # noqa: BLE001 - a broken provider setup is a status, not a crash
        return {"configured": False, "code": "provider_error", "message": str(exc)}
    return {"configured": True, "provider": settings.EMBEDDING_PROVIDER, "model": backend.model_name,
            "dimensions": backend.dimensions}


@dataclass
class ContentTypeIngestion:
    """One content type's flag, entry count and chunk counts, for the status page."""

    content_type: ContentType
    entries: int
    pending: int = 0
    embedded: int = 0
    failed: int = 0


def content_type_ingestion_list(*, workspace: Workspace) -> tuple[list[ContentTypeIngestion], ModelCounts]:
    """The workspace's content types with their chunk counts, and the counts of its assets' chunks."""
    content_types = ContentType.objects.for_workspace(workspace).annotate(entry_count=Count("entries"))
    types = {
        ct.pk: ContentTypeIngestion(content_type=ct, entries=ct.entry_count)
        for ct in content_types.order_by("name", "api_id")
    }
    assets = ModelCounts(model="")
    rows = (
        Chunk.objects.for_workspace(workspace)
        .values("entry__content_type_id", "status")
        .annotate(n=Count("id"))
        .order_by()
    )
    for row in rows:
        target = types.get(row["entry__content_type_id"]) if row["entry__content_type_id"] else assets
        if target is not None and row["status"] in (ChunkStatus.PENDING, ChunkStatus.EMBEDDED, ChunkStatus.FAILED):
            setattr(target, row["status"], getattr(target, row["status"]) + row["n"])
    return list(types.values()), assets


def embedding_usage_by_day(*, workspace: Workspace, days: int = 30) -> list[EmbeddingUsage]:
    """The workspace's provider usage per UTC day and model over the last `days` days, newest first."""
    since = timezone.now().astimezone(datetime.UTC).date() - datetime.timedelta(days=days - 1)
    return list(EmbeddingUsage.objects.filter(workspace=workspace, day__gte=since).order_by("-day", "model"))


def chunk_pending_count(*, workspace: Workspace) -> int:
    """Chunks of the workspace still waiting for a vector (one count over chunk_ws_status_model)."""
    return Chunk.objects.for_workspace(workspace).pending().count()


def embedding_model_name() -> str | None:
    """The configured provider's model, or None when semantic search has no provider."""
    try:
        return get_embedding_backend().model_name
    except EmbeddingNotConfigured:
        return None


def embedding_provider_status() -> dict[str, Any]:
    """The provider's state: {"configured": true, "provider", "model", "dimensions"} or the
    reason it cannot embed ({"configured": false, "code", "message"})."""
    return _provider_status()
