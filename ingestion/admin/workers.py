"""Whether a worker will do what a page promises: the ingestion status page's and the entry page's worker lines.

Read through ingestion.worker_status (the workers' heartbeats). An estimate of when a chunk is
embedded means nothing while no live worker consumes its queue, so the pages say that instead.
"""

from __future__ import annotations

from dataclasses import dataclass

from cms.models import Workspace
from ingestion.queues import BACKFILL, CONTENT
from ingestion.worker_status import worker_status


@dataclass(frozen=True)
class WorkersBanner:
    """`waiting`: the workspace's pending chunks; `no_worker`: they wait and no live worker
    consumes their queue; `backfill_stalled`: a switch's backfill waits with none on its queue;
    `alive`: how many workers are alive (their names are the operators' business: /api/health)."""

    waiting: int
    no_worker: bool
    backfill_stalled: bool
    alive: int


def workers_banner(*, workspace: Workspace) -> WorkersBanner:
    status = worker_status(workspace=workspace, count=True)
    unserved = status.unserved
    return WorkersBanner(waiting=status.pending or 0, no_worker=CONTENT in unserved,
                         backfill_stalled=BACKFILL in unserved, alive=len(status.alive))
