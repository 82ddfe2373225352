"""Named Celery queues, so one kind of ingestion work never waits behind another.

- `<default>.content`: new and edited content (embedding pending chunks, a content type's re-sync);
- `<default>.backfill`: a model switch's backfill (chunks searchable already, lacking the
  target model's vector);
- `<default>.maintenance`: the beat sweep (expired leases, lost tasks, keyword statistics) and the
  search log's pruning.

`<default>` is CELERY_TASK_DEFAULT_QUEUE ("cms"), which keeps every other task. A worker started
without `-Q` consumes all four (`make run`); production runs a worker per queue and scales each
on its own (docs/operators.md, "Queues and workers"). Names follow the app's default queue
at the time a task is sent, so a deployment (or a test) that renames it keeps its queues apart
from another's on a shared broker.
"""

from __future__ import annotations

CONTENT = "content"
BACKFILL = "backfill"
MAINTENANCE = "maintenance"
KINDS = (CONTENT, BACKFILL, MAINTENANCE)

TASK_QUEUE_KINDS = {
    "ingestion.chunks_embed_pending": CONTENT,
    "ingestion.chunks_sync_content_type": CONTENT,
    "ingestion.chunks_embed_backfill": BACKFILL,
    "ingestion.chunks_sweep": MAINTENANCE,
    # The search app's beat task (search/tasks.py), named here so one router places every task.
    "search.search_log_prune": MAINTENANCE,
}


def queue_name(kind: str, default_queue: str) -> str:
    return f"{default_queue}.{kind}"


def queue_names(default_queue: str) -> list[str]:
    """Every queue a worker without `-Q` consumes: the default one and the named ones."""
    return [default_queue, *(queue_name(kind, default_queue) for kind in KINDS)]


def queue_name_current(kind: str) -> str:
    """The queue of `kind` under the app's default queue as configured now (health and the
    status pages ask whether a live worker consumes it)."""
    from config.celery import app

    return queue_name(kind, app.conf.task_default_queue)


def route_task(name, args, kwargs, options, task=None, **kw):
    """Celery router (CELERY_TASK_ROUTES): an ingestion task's named queue; None for the rest."""
    kind = TASK_QUEUE_KINDS.get(name)
    if kind is None:
        return None
    if task is not None:
        app = task.app
    else:
        from config.celery import app
    return {"queue": queue_name(kind, app.conf.task_default_queue)}
