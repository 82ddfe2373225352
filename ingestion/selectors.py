"""Reads of chunks and vectors: ingestion status, stalled work, usage, each workspace's models and switch."""

from __future__ import annotations

import datetime
from dataclasses import asdict, dataclass, field
from typing import Any

from django.db import connection
from django.db.models import Count, Max, Min, Q, Sum
from django.db.models.functions import Trunc
from django.utils import timezone

from cms.citus_mode import same_workspace
from cms.models import ContentType, EntryStatus, Workspace
from ingestion.embeddings import (
    BaseEmbeddingBackend,
    EmbeddingNotConfigured,
    get_embedding_backend,
    get_embedding_backend_for_model,
)
from ingestion.keywords import BM25_INDEX, LENGTH_TERM
from ingestion.models import (
    QUEUED_STATUSES,
    Chunk,
    ChunkStatus,
    ChunkVector,
    EmbeddingUsage,
    KeywordStat,
    KeywordStatDelta,
    WorkspaceEmbedding,
)


def chunk_stalled_workspace_ids(*, older_than_seconds: float, status: str | None = None) -> list[int]:
    """Workspaces with a queued chunk (of `status`, or either) that no worker holds, that is due,
    and that has waited too long.

    A workspace where some chunk has a live lease is left out: a worker is working through
    it and claims until nothing is left, so another task would only queue up behind it.
    Chunks backing off after a transient error (`retry_at` in the future) are not due yet.
    """
    now = timezone.now()
    cutoff = now - datetime.timedelta(seconds=older_than_seconds)
    # A worker holding backfill chunks does not hide pending ones: they run on another queue.
    queued = Chunk.objects.queued() if status is None else Chunk.objects.filter(status=status)
    busy = queued.filter(leased_until__gte=now).values("workspace_id")
    return list(
        queued
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
    role: str = ""  # active, target, previous, or "" (vectors kept of an unused model)
    pending: int = 0
    embedded: int = 0
    failed: int = 0


@dataclass
class WorkspaceStatus:
    workspace: str
    models: list[ModelCounts] = field(default_factory=list)
    pending: int = 0
    # Searchable chunks waiting only for a running switch's target model.
    backfill: int = 0
    embedded: int = 0
    failed: int = 0
    leased: int = 0
    # Pending chunks waiting out a backoff after a transient provider error, and when the next is due.
    retrying: int = 0
    next_retry_at: str | None = None
    oldest_pending_seconds: float | None = None
    last_error: str = ""
    last_error_at: str | None = None
    switch: dict[str, Any] | None = None


def ingestion_status(*, workspace: Workspace | None = None) -> dict[str, Any]:
    """Counts per workspace and model, the oldest pending age, the last error, the provider,
    and a running model switch's progress (`switch`, see embedding_switch_progress).

    A chunk is pending while some model its workspace wants lacks a current vector of it;
    per model, `embedded` counts chunks holding a current vector and `pending` those lacking
    one. The provider is reported as {"configured": false, "code": "not_configured"} when
    chunks cannot be embedded at all: then pending is expected to grow, not a fault of the workers.
    """
    now = timezone.now()
    chunks = Chunk.objects.all() if workspace is None else Chunk.objects.for_workspace(workspace)
    rows = (
        chunks.values("workspace_id", "workspace__slug")
        .annotate(
            total=Count("id"),
            pending=Count("id", filter=Q(status=ChunkStatus.PENDING)),
            backfill=Count("id", filter=Q(status=ChunkStatus.BACKFILL)),
            embedded=Count("id", filter=Q(status=ChunkStatus.EMBEDDED)),
            failed=Count("id", filter=Q(status=ChunkStatus.FAILED)),
            leased=Count("id", filter=Q(status__in=QUEUED_STATUSES, leased_until__gt=now)),
            retrying=Count("id", filter=Q(status__in=QUEUED_STATUSES, retry_at__gt=now)),
            next_retry=Min("retry_at", filter=Q(status__in=QUEUED_STATUSES, retry_at__gt=now)),
            oldest_pending=Min("updated_at", filter=Q(status=ChunkStatus.PENDING)),
        )
        .order_by("workspace__slug")
    )
    by_workspace: dict[str, WorkspaceStatus] = {}
    for row in rows:
        slug = row["workspace__slug"]
        status = by_workspace[slug] = WorkspaceStatus(
            workspace=slug, pending=row["pending"], backfill=row["backfill"], embedded=row["embedded"],
            failed=row["failed"],
            leased=row["leased"], retrying=row["retrying"],
            next_retry_at=row["next_retry"].isoformat() if row["next_retry"] else None,
            oldest_pending_seconds=round((now - row["oldest_pending"]).total_seconds(), 1)
            if row["oldest_pending"] else None,
        )
        models = embedding_models(workspace=row["workspace_id"])
        current = vector_counts(workspace=row["workspace_id"])
        for model in dict.fromkeys([m for m in (models.active, models.target, models.previous) if m] + sorted(current)):
            covered = current.get(model, 0)
            status.models.append(ModelCounts(model=model, role=models.role(model), pending=row["total"] - covered,
                                             embedded=covered))
        status.switch = embedding_switch_progress(workspace=row["workspace_id"])
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


@dataclass(frozen=True)
class EmbeddingModels:
    """A workspace's models (see ingestion.models.WorkspaceEmbedding); `active` is None when
    the workspace never switched and no provider is configured."""

    active: str | None
    target: str = ""
    previous: str = ""
    switch_started_at: datetime.datetime | None = None
    covered_at_start: int = 0

    @property
    def wanted(self) -> tuple[str, ...]:
        return tuple(m for m in (self.active, self.target) if m)

    def role(self, model: str) -> str:
        return {self.active: "active", self.target: "target", self.previous: "previous"}.get(model, "")


def embedding_models(*, workspace: Workspace | int) -> EmbeddingModels:
    """The workspace's active, target and previous models. Without a switch ever run, the
    active model is the configured provider's, so nothing changes for existing setups."""
    workspace_id = workspace.pk if isinstance(workspace, Workspace) else workspace
    row = WorkspaceEmbedding.objects.filter(workspace_id=workspace_id).first()
    if row is None:
        return EmbeddingModels(active=embedding_model_name())
    return EmbeddingModels(active=row.active_model, target=row.target_model, previous=row.previous_model,
                           switch_started_at=row.switch_started_at, covered_at_start=row.switch_covered_at_start)


def vector_counts(*, workspace: Workspace | int) -> dict[str, int]:
    """Per model: the workspace's chunks holding a current vector of it (stale ones not counted)."""
    workspace_id = workspace.pk if isinstance(workspace, Workspace) else workspace
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT v.model, count(*) FROM {ChunkVector._meta.db_table} v"
            f" JOIN {Chunk._meta.db_table} c ON c.id = v.chunk_id AND c.content_hash = v.content_hash{same_workspace('c', 'v')}"
            " WHERE v.workspace_id = %s GROUP BY v.model",
            [workspace_id],
        )
        return {model: int(n) for model, n in cursor.fetchall()}


def embedding_switch_progress(*, workspace: Workspace | int) -> dict[str, Any] | None:
    """A running switch's progress, or None: coverage of the target model, the ETA at the rate
    since the start, and the target's provider usage (tokens, cost) since the day it started."""
    workspace_id = workspace.pk if isinstance(workspace, Workspace) else workspace
    models = embedding_models(workspace=workspace_id)
    if not models.target:
        return None
    total = Chunk.objects.filter(workspace_id=workspace_id).count()
    covered = vector_counts(workspace=workspace_id).get(models.target, 0)
    eta = None
    if models.switch_started_at is not None and covered < total:
        elapsed = (timezone.now() - models.switch_started_at).total_seconds()
        done = covered - models.covered_at_start
        if done > 0 and elapsed > 0:
            eta = round((total - covered) * elapsed / done, 1)
    elif covered >= total:
        eta = 0.0
    usage = EmbeddingUsage.objects.filter(workspace_id=workspace_id, model=models.target)
    if models.switch_started_at is not None:
        usage = usage.filter(day__gte=models.switch_started_at.astimezone(datetime.UTC).date())
    spent = usage.aggregate(tokens=Sum("tokens"), cost=Sum("cost_usd"))
    return {
        "active": models.active,
        "target": models.target,
        "started_at": models.switch_started_at.isoformat() if models.switch_started_at else None,
        "chunks": total,
        "covered": covered,
        "coverage_percent": round(100.0 * covered / total, 1) if total else 100.0,
        "eta_seconds": eta,
        "tokens": int(spent["tokens"] or 0),
        "cost_usd": float(spent["cost"] or 0),
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
        # A backfilling chunk is searchable: it counts as embedded here.
        status = ChunkStatus.EMBEDDED if row["status"] == ChunkStatus.BACKFILL else row["status"]
        if target is not None and status in (ChunkStatus.PENDING, ChunkStatus.EMBEDDED, ChunkStatus.FAILED):
            setattr(target, status, getattr(target, status) + row["n"])
    return list(types.values()), assets


def embedding_usage_by_day(*, workspace: Workspace, days: int = 30) -> list[EmbeddingUsage]:
    """The workspace's provider usage per UTC day and model over the last `days` days, newest first."""
    since = timezone.now().astimezone(datetime.UTC).date() - datetime.timedelta(days=days - 1)
    return list(EmbeddingUsage.objects.filter(workspace=workspace, day__gte=since).order_by("-day", "model"))


def embedding_models_in_use(*, targets: bool = True) -> set[str]:
    """Every model some workspace has active, or (`targets`) as a running switch's target (the
    workspaces without a row use the configured provider's). Across workspaces, as
    chunk_stalled_workspace_ids is: a worker embeds for all of them, a web worker searches with
    the active ones, and each loads these at start (ingestion/preload.py)."""
    if not targets:
        return set(WorkspaceEmbedding.objects.values_list("active_model", flat=True).distinct()) - {""}
    pairs = WorkspaceEmbedding.objects.values_list("active_model", "target_model").distinct()
    return {name for pair in pairs for name in pair if name}


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


def embedding_backend_active(*, workspace: Workspace | int, model: str | None = None) -> BaseEmbeddingBackend:
    """The backend of the workspace's active model (or of `model`), which embeds its queries.
    Raises EmbeddingNotConfigured when there is none (no provider, or a backend lacking its key)."""
    name = model or embedding_models(workspace=workspace).active
    if not name:
        return get_embedding_backend()  # raises EmbeddingNotConfigured with the setup help
    return get_embedding_backend_for_model(name)


def entry_chunk_list(*, workspace: Workspace, entry_id: int) -> list[Chunk]:
    """The entry's chunks in reading order (field, then position), with their state and last error."""
    return list(
        Chunk.objects.for_workspace(workspace).filter(entry_id=entry_id)
        .only("id", "field", "ordinal", "text", "status", "attempts", "last_error", "retry_at", "leased_until",
              "created_at")
        .order_by("field", "ordinal", "id")
    )


@dataclass(frozen=True)
class EmbeddingEta:
    """When an entry's queued chunks should be embedded, from the workspace's own recent pace.

    `ahead` counts the workspace's pending chunks a worker claims before the entry's last one
    (oldest first, see ingestion.services.claims), the entry's own included. `per_second` is
    the workspace's vectors made in the last `window_seconds`, over the time they took; None
    when fewer than two were made then (no pace to go by), and so is `seconds`.
    """

    waiting: int
    ahead: int
    per_second: float | None
    seconds: float | None


# How far back the pace is measured, and the shortest span it is divided by (one batch's
# vectors share a timestamp).
ETA_WINDOW_SECONDS = 600.0
ETA_MIN_SPAN_SECONDS = 1.0


def entry_embedding_eta(*, workspace: Workspace, entry_id: int, published_only: bool = False) -> EmbeddingEta:
    """See EmbeddingEta. Only this workspace's chunks and vectors are read; with
    `published_only` (a viewer's panel), only those of published entries and assets, so that
    neither the queue ahead nor the pace counts drafts (chunks carry their entry's status)."""
    queued = Chunk.objects.for_workspace(workspace).filter(status=ChunkStatus.PENDING)
    vectors = ChunkVector.objects.filter(workspace=workspace)
    if published_only:
        visible = Q(metadata__status=EntryStatus.PUBLISHED) | Q(entry__isnull=True)
        queued = queued.filter(visible)
        # The chunk's own workspace too: on Citus both tables are then pruned to one shard group.
        vectors = vectors.filter(Q(chunk__metadata__status=EntryStatus.PUBLISHED) | Q(chunk__entry__isnull=True),
                                 chunk__workspace=workspace)
    mine = queued.filter(entry_id=entry_id).aggregate(n=Count("id"), last=Max("created_at"))
    if not mine["n"]:
        return EmbeddingEta(waiting=0, ahead=0, per_second=None, seconds=0.0)
    ahead = queued.filter(created_at__lte=mine["last"]).count()
    since = timezone.now() - datetime.timedelta(seconds=ETA_WINDOW_SECONDS)
    # The pace while working: vectors over the seconds in which any was made. Dividing by the
    # whole first-to-last span counted the idle time between bursts as work, and estimated
    # 30 to 50 times too long (a batch of 10 made a minute apart from the last read 0.17/s).
    recent = vectors.filter(created_at__gte=since).aggregate(
        n=Count("id"), busy=Count(Trunc("created_at", "second"), distinct=True)
    )
    if recent["n"] < 2:
        return EmbeddingEta(waiting=mine["n"], ahead=ahead, per_second=None, seconds=None)
    span = max(float(recent["busy"]), ETA_MIN_SPAN_SECONDS)
    per_second = recent["n"] / span
    return EmbeddingEta(waiting=mine["n"], ahead=ahead, per_second=round(per_second, 2),
                        seconds=round(ahead / per_second, 1))


def workspace_length_sql(*, workspace_id: int) -> tuple[str, list]:
    """One row: the workspace's chunk count and summed length (its LENGTH_TERM statistics plus
    their deltas; every chunk has a LENGTH_TERM posting), with its params. A read: the vector leg
    and the keyword index's writer both use it."""
    stats, deltas = KeywordStat._meta.db_table, KeywordStatDelta._meta.db_table
    return (f"SELECT sum(df), sum(tf) FROM (SELECT df, tf FROM {stats} WHERE workspace_id = %s AND term = %s"
            f" UNION ALL SELECT df, tf FROM {deltas} WHERE workspace_id = %s AND term = %s) s",
            [workspace_id, LENGTH_TERM, workspace_id, LENGTH_TERM])


def keyword_bm25_index_state(name: str = BM25_INDEX) -> str:
    """A BM25 index of the keyword leg (ingestion.keywords.BM25_INDEX, or a workspace's,
    bm25_workspace_index): "valid", "invalid" (a build was interrupted, or is running: CREATE
    INDEX CONCURRENTLY) or "missing"."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT i.indisvalid AND i.indisready FROM pg_class c JOIN pg_index i ON i.indexrelid = c.oid"
                       " WHERE c.relname = %s AND c.relnamespace = current_schema()::regnamespace", [name])
        row = cursor.fetchone()
    return "missing" if row is None else ("valid" if row[0] else "invalid")
