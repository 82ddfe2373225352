"""GET /metrics: Prometheus's text format, for a superuser session or HEALTH_TOKEN.

What the processes counted (search/operations/metrics.py) is read from PROMETHEUS_MULTIPROC_DIR when it
is set, summed over every gunicorn worker; otherwise from this process. What the data says is
asked of the database at scrape time, so every process (web or Celery) agrees on it:

- chunks pending, backfilling and failed per workspace: the METRICS_TOP_WORKSPACES workspaces
  with the most, by slug, and the rest summed as `other` (the label set stays bounded however
  many workspaces there are);
- provider tokens per model and kind (`embedding` or `rerank`), from EmbeddingUsage rows;
- the live Celery workers (their heartbeats, ingestion/heartbeat.py), per queue they consume,
  and the oldest pending chunk's age;
- each read replica's replay lag and whether searches use it.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import DatabaseError, connection
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.http import require_GET
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily

from cms.models import Workspace
from ingestion.models import Chunk, ChunkStatus, EmbeddingUsage
from ingestion.worker_status import worker_status
from search.operations.monitoring_access import may_see_deployment_details
from search.engine.db.replicas import replica_aliases, replicas_report

logger = logging.getLogger(__name__)

OTHER = "other"
_CHUNK_STATES = (ChunkStatus.PENDING, ChunkStatus.BACKFILL, ChunkStatus.FAILED)


class DatabaseCollector:
    """Gauges the database answers at each scrape."""

    def collect(self):
        try:
            yield from self._chunks()
            yield from self._tokens()
            yield from self._workers()
        except DatabaseError:
            logger.warning("/metrics: the database did not answer; its gauges are left out.", exc_info=True)
        if replica_aliases():
            yield from self._replicas()

    def _chunks(self):
        top = max(0, int(settings.METRICS_TOP_WORKSPACES))
        family = GaugeMetricFamily("cms_chunks", "Chunks waiting or failed, per workspace (top N by count, then other).",
                                   labels=["workspace", "status"])
        with connection.cursor() as cursor:
            # One pass over the queued and failed chunks (partial indexes serve the statuses);
            # ranked per workspace by their total, the tail folded into `other`.
            cursor.execute(
                f"""
                WITH counts AS (
                    SELECT workspace_id,
                           count(*) FILTER (WHERE status = %s) AS pending,
                           count(*) FILTER (WHERE status = %s) AS backfill,
                           count(*) FILTER (WHERE status = %s) AS failed
                    FROM {Chunk._meta.db_table} WHERE status = ANY(%s) GROUP BY workspace_id
                ), ranked AS (
                    SELECT *, row_number() OVER (ORDER BY pending + backfill + failed DESC, workspace_id) AS rank
                    FROM counts
                )
                SELECT CASE WHEN r.rank <= %s THEN w.slug ELSE %s END AS label,
                       sum(r.pending), sum(r.backfill), sum(r.failed)
                FROM ranked r JOIN {Workspace._meta.db_table} w ON w.id = r.workspace_id
                GROUP BY 1
                """,
                [*_CHUNK_STATES, list(_CHUNK_STATES), top, OTHER],
            )
            for label, pending, backfill, failed in cursor.fetchall():
                for status, value in zip(_CHUNK_STATES, (pending, backfill, failed)):
                    family.add_metric([label, str(status)], int(value))
        yield family

    def _tokens(self):
        rerank_models = {backend["OPTIONS"].get("model") for backend in settings.SEARCH_RERANK_BACKENDS.values()
                         if backend}
        family = CounterMetricFamily("cms_provider_tokens", "Tokens sent to embedding and rerank providers.",
                                     labels=["model", "kind"])
        totals = EmbeddingUsage.objects.values("model").order_by("model").annotate(tokens=Sum("tokens"))
        for row in totals:
            kind = "rerank" if row["model"] in rerank_models else "embedding"
            family.add_metric([row["model"], kind], int(row["tokens"] or 0))
        yield family

    def _workers(self):
        status = worker_status()
        alive = GaugeMetricFamily("cms_workers_alive", "Celery workers whose heartbeat is recent (ingestion/heartbeat.py).")
        alive.add_metric([], len(status.alive))
        per_queue = GaugeMetricFamily("cms_queue_workers_alive", "Live Celery workers consuming each queue.",
                                      labels=["queue"])
        counts: dict[str, int] = {}
        for worker in status.workers:
            for queue in worker.queues:
                # A queue only gone workers consumed is shown at 0: alert on it, not on its absence.
                counts[queue] = counts.get(queue, 0) + (1 if worker.alive else 0)
        for queue, count in sorted(counts.items()):
            per_queue.add_metric([queue], count)
        oldest = GaugeMetricFamily("cms_chunks_oldest_pending_seconds",
                                   "Age of the oldest pending chunk, across workspaces (0: none pending).")
        oldest.add_metric([], status.oldest_pending_seconds or 0.0)
        yield alive
        yield per_queue
        yield oldest

    def _replicas(self):
        lag = GaugeMetricFamily("cms_replica_lag_seconds", "Replay lag of each read replica (absent: unreachable).",
                                labels=["replica"])
        in_use = GaugeMetricFamily("cms_replica_in_use", "1 while searches read from the replica.",
                                   labels=["replica"])
        for report in replicas_report():
            if report["lag_seconds"] is not None:
                lag.add_metric([report["alias"]], report["lag_seconds"])
            in_use.add_metric([report["alias"]], 1 if report["in_use"] else 0)
        yield lag
        yield in_use


def metrics_registry() -> CollectorRegistry:
    """The counts of every worker (multiprocess mode) or of this process, and the database's gauges."""
    registry = CollectorRegistry()
    if settings.PROMETHEUS_MULTIPROC_DIR:
        from prometheus_client import multiprocess

        multiprocess.MultiProcessCollector(registry)
    else:
        for collector in _process_collectors():
            registry.register(collector)
    registry.register(DatabaseCollector())
    return registry


def _process_collectors():
    from search.operations import metrics

    return [metrics.SEARCH_DURATION, metrics.SEARCH_RESULTS, metrics.SEARCH_FAILURES, metrics.API_ERRORS]


@require_GET
def metrics_view(request: HttpRequest) -> HttpResponse:
    if not may_see_deployment_details(request):
        return JsonResponse(
            {"code": "permission_denied",
             "message": "Metrics are for a superuser, or a caller presenting the health token."},
            status=403,
        )
    return HttpResponse(generate_latest(metrics_registry()), content_type=CONTENT_TYPE_LATEST)

