"""A worker's heartbeat row (ingestion.models.WorkerHeartbeat), written by the worker itself (ingestion/heartbeat.py)."""

from __future__ import annotations

import datetime
import json

from django.db import connection
from django.utils import timezone

from ingestion.models import WorkerHeartbeat

# Rows of workers not seen for this long are deleted when a worker starts beating.
GONE_KEPT = datetime.timedelta(days=1)


def worker_heartbeat_record(*, name: str, queues: list[str], pid: int, started_at: datetime.datetime) -> None:
    """The worker `name` is alive now, consuming `queues`: one upsert, safe to repeat."""
    table = WorkerHeartbeat._meta.db_table
    with connection.cursor() as cursor:
        # One statement per beat (update_or_create would take three in a transaction).
        cursor.execute(
            f"""
            INSERT INTO {table} (name, queues, pid, started_at, seen_at, stopped_at)
            VALUES (%s, %s::jsonb, %s, %s, now(), NULL)
            ON CONFLICT (name) DO UPDATE SET queues = EXCLUDED.queues, pid = EXCLUDED.pid,
                started_at = EXCLUDED.started_at, seen_at = EXCLUDED.seen_at, stopped_at = NULL
            """,
            [name, json.dumps(list(queues)), pid, started_at],
        )


def worker_heartbeat_stop(*, name: str, pid: int) -> None:
    """The worker stopped consuming (a warm shutdown, or its broker connection lost): no longer
    alive, without waiting for its heartbeat to age. Another process of the same name is left alone."""
    now = timezone.now()
    WorkerHeartbeat.objects.filter(name=name, pid=pid).update(stopped_at=now, seen_at=now)


def worker_heartbeats_prune() -> int:
    """Delete the rows of workers gone for over a day; returns how many."""
    return WorkerHeartbeat.objects.filter(seen_at__lt=timezone.now() - GONE_KEPT).delete()[0]

