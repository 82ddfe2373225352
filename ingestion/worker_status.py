"""Reads: which Celery workers are alive (their heartbeats, ingestion/heartbeat.py) and what waits for them.

One selector, `worker_status`, for every place that says whether work will be done: /api/health,
/metrics, `ingestion_status`, the ingestion status page and the entry page. Chunks wait on a
queue: pending ones on `<default>.content`, a switch's backfill on `<default>.backfill`
(ingestion/queues.py); work is "unserved" when it waits and no live worker consumes its queue.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.conf import settings
from django.db import connection
from django.utils import timezone

from cms.models import Workspace
from ingestion.models import Chunk, ChunkStatus, WorkerHeartbeat
from ingestion.queues import BACKFILL, CONTENT, queue_name_current


@dataclass(frozen=True)
class WorkerSeen:
    """One worker's last heartbeat: alive while younger than WORKER_ALIVE_SECONDS and not stopped."""

    name: str
    queues: tuple[str, ...]
    seen_seconds_ago: float
    alive: bool
    stopped: bool

    def as_dict(self) -> dict:
        return {"name": self.name, "queues": list(self.queues), "seen_seconds_ago": self.seen_seconds_ago,
                "stopped": self.stopped}


@dataclass(frozen=True)
class WorkerStatus:
    """The workers (alive first, then gone, most recently seen first) and the queued chunks:
    `pending` (counted only when asked), the oldest pending chunk's age in seconds, and whether
    backfill chunks wait. Across workspaces, or of one workspace."""

    workers: tuple[WorkerSeen, ...]
    pending: int | None
    pending_waiting: bool
    oldest_pending_seconds: float | None
    backfill_waiting: bool

    @property
    def alive(self) -> list[WorkerSeen]:
        return [worker for worker in self.workers if worker.alive]

    @property
    def gone(self) -> list[WorkerSeen]:
        return [worker for worker in self.workers if not worker.alive]

    def serving(self, kind: str) -> bool:
        """Whether a live worker consumes the queue of `kind` (ingestion/queues.py)."""
        name = queue_name_current(kind)
        return any(name in worker.queues for worker in self.alive)

    @property
    def unserved(self) -> list[str]:
        """The kinds of work that wait with no live worker on their queue: "content", "backfill"."""
        waiting = [(CONTENT, self.pending_waiting), (BACKFILL, self.backfill_waiting)]
        return [kind for kind, waits in waiting if waits and not self.serving(kind)]


def worker_list() -> list[WorkerSeen]:
    """Every worker with a heartbeat row (a day's worth at most), alive first."""
    now = timezone.now()
    alive_after = now - datetime.timedelta(seconds=float(settings.WORKER_ALIVE_SECONDS))
    seen = []
    for row in WorkerHeartbeat.objects.order_by("-seen_at", "name"):
        alive = row.stopped_at is None and row.seen_at >= alive_after
        seen.append(WorkerSeen(name=row.name, queues=tuple(row.queues), alive=alive, stopped=row.stopped_at is not None,
                               seen_seconds_ago=round(max(0.0, (now - row.seen_at).total_seconds()), 1)))
    return sorted(seen, key=lambda worker: not worker.alive)


def worker_status(*, workspace: Workspace | None = None, count: bool = False) -> WorkerStatus:
    """See WorkerStatus. Two small queries (three with `count`): the heartbeat rows, and the
    queue's head through the partial indexes on pending and backfill chunks."""
    scope, params = ("", []) if workspace is None else (" AND workspace_id = %s", [workspace.pk])
    table = Chunk._meta.db_table
    counted = f"(SELECT count(*) FROM {table} WHERE status = %s{scope})" if count else "NULL"
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            SELECT (SELECT min(updated_at) FROM {table} WHERE status = %s{scope}),
                   EXISTS (SELECT 1 FROM {table} WHERE status = %s{scope}),
                   {counted}
            """,
            [ChunkStatus.PENDING, *params, ChunkStatus.BACKFILL, *params,
             *([ChunkStatus.PENDING, *params] if count else [])],
        )
        oldest, backfill, pending = cursor.fetchone()
    now = timezone.now()
    return WorkerStatus(
        workers=tuple(worker_list()),
        pending=pending,
        pending_waiting=oldest is not None,
        oldest_pending_seconds=round(max(0.0, (now - oldest).total_seconds()), 1) if oldest else None,
        backfill_waiting=backfill,
    )
