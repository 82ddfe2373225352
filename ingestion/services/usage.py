"""Provider usage per workspace, model and UTC day: requests, texts, tokens and estimated cost.

Two ways in. The embed loop writes a batch's usage at once (`usage_record`): one upsert per
batch of documents. A search's usage (its query embedding, its rerank call) is counted in the
process (`usage_record(..., deferred=True)`) and written by `usage_flush`: every
SEARCH_USAGE_FLUSH_SECONDS by a thread of the process, and when the process exits (atexit,
and gunicorn's worker_exit hook). One upsert per search into the workspace's single row of
the day made every search of a busy workspace queue on that row's lock (bench/hot_rows.py);
now each process touches the row once per interval.

Semantics: at least once. A flush that fails (the database is down) keeps its counts and
retries at the next interval, so a flush whose commit succeeded but whose answer was lost
can count twice. What a process counted in its last interval is lost only if it dies without
running its exit hooks (SIGKILL, OOM kill). Usage of a workspace deleted before the flush is
dropped, like its rows are.
"""

from __future__ import annotations

import atexit
import datetime
import logging
import os
import threading
import time
from collections.abc import Mapping, Sequence
from decimal import Decimal

from django.conf import settings
from django.db import DatabaseError, connection, connections
from django.utils import timezone

from ingestion.embeddings import BaseEmbeddingBackend
from cms.models import Workspace
from ingestion.models import EmbeddingUsage


logger = logging.getLogger(__name__)

# (workspace_id, model, day) -> [requests, texts, tokens, cost]
UsageKey = tuple[int, str, datetime.date]


def usage_record(
    *, workspace_id: int, model: str, requests: int, texts: int, tokens: int, cost: float, deferred: bool = False,
) -> None:
    """Add to the workspace's usage for today (UTC): now with one upsert, safe under
    concurrency, or (`deferred`, a search's usage) at the process's next `usage_flush`."""
    key = (workspace_id, model, timezone.now().astimezone(datetime.UTC).date())
    counts = [requests, texts, tokens, Decimal(str(round(cost, 6)))]
    if deferred:
        _PENDING.add(key, counts)
    else:
        _usage_upsert({key: counts})


def usage_flush() -> int:
    """Write the usage this process counted for searches; return how many rows it upserted.

    On a database error the counts go back to be retried at the next flush (at least once).
    """
    pending = _PENDING.take()
    if not pending:
        return 0
    try:
        _usage_upsert(pending)
    except DatabaseError:
        _PENDING.put_back(pending)
        raise
    return len(pending)


def usage_pending() -> dict[UsageKey, list]:
    """A copy of what this process has counted and not yet written (for tests and benches)."""
    return _PENDING.snapshot()


def usage_pending_discard() -> None:
    """Forget what this process counted (tests: counts of one test's workspaces are not the next's)."""
    _PENDING.take()


def _usage_upsert(rows: Mapping[UsageKey, list]) -> None:
    """One statement for all rows, in key order (two processes flushing never deadlock);
    rows of a workspace that no longer exists are dropped."""
    table, workspaces = EmbeddingUsage._meta.db_table, Workspace._meta.db_table
    ordered = sorted(rows.items())
    values = ", ".join(["(%s::bigint, %s::varchar, %s::date, %s::int, %s::int, %s::bigint, %s::numeric)"] * len(ordered))
    params = [value for (key, counts) in ordered for value in (*key, *counts)]
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            INSERT INTO {table} (workspace_id, model, day, requests, texts, tokens, cost_usd)
            SELECT v.workspace_id, v.model, v.day, v.requests, v.texts, v.tokens, v.cost_usd
            FROM (VALUES {values}) AS v (workspace_id, model, day, requests, texts, tokens, cost_usd)
            JOIN {workspaces} w ON w.id = v.workspace_id
            ORDER BY v.workspace_id, v.model, v.day
            ON CONFLICT (workspace_id, model, day) DO UPDATE SET
                requests = {table}.requests + EXCLUDED.requests,
                texts = {table}.texts + EXCLUDED.texts,
                tokens = {table}.tokens + EXCLUDED.tokens,
                cost_usd = {table}.cost_usd + EXCLUDED.cost_usd
            """,
            params,
        )


class _PendingUsage:
    """The process's counted, unwritten usage, and the thread that flushes it.

    Per process: after a fork (gunicorn with preload, Celery's prefork) the child starts
    empty with its own thread; the parent's counts stay the parent's.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._rows: dict[UsageKey, list] = {}
        self._pid = os.getpid()
        self._thread: threading.Thread | None = None

    def _own(self) -> None:
        if self._pid != os.getpid():  # forked: the parent's counts and thread are not ours
            self._lock = threading.Lock()
            self._rows, self._pid, self._thread = {}, os.getpid(), None

    def add(self, key: UsageKey, counts: list) -> None:
        self._own()
        with self._lock:
            row = self._rows.setdefault(key, [0, 0, 0, Decimal(0)])
            for i, value in enumerate(counts):
                row[i] += value
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="usage-flush", daemon=True)
                self._thread.start()

    def take(self) -> dict[UsageKey, list]:
        self._own()
        with self._lock:
            rows, self._rows = self._rows, {}
        return rows

    def put_back(self, rows: Mapping[UsageKey, list]) -> None:
        for key, counts in rows.items():
            with self._lock:
                row = self._rows.setdefault(key, [0, 0, 0, Decimal(0)])
                for i, value in enumerate(counts):
                    row[i] += value

    def snapshot(self) -> dict[UsageKey, list]:
        self._own()
        with self._lock:
            return {key: list(counts) for key, counts in self._rows.items()}

    def _run(self) -> None:
        """Flush every SEARCH_USAGE_FLUSH_SECONDS while there is something to flush; then end
        (the next count starts a new thread), closing this thread's database connection."""
        try:
            while True:
                started = time.monotonic()
                # Wakes at least every half second, so a changed interval (tests) or emptied
                # counts take effect without waiting out the old interval.
                while (left := started + float(settings.SEARCH_USAGE_FLUSH_SECONDS) - time.monotonic()) > 0:
                    time.sleep(min(left, 0.5))
                    with self._lock:
                        if not self._rows:
                            break
                with self._lock:
                    if not self._rows:
                        self._thread = None
                        return
                try:
                    usage_flush()
                except DatabaseError:
                    logger.warning("usage flush failed; the counts are kept for the next one", exc_info=True)
        finally:
            connections.close_all()


_PENDING = _PendingUsage()


@atexit.register
def _flush_at_exit() -> None:
    try:
        usage_flush()
    except Exception:  # the interpreter is going away: say so, never hang or raise here
        logger.exception("usage flush at exit failed; these counts are lost")


def usage_reported_by(backend: BaseEmbeddingBackend) -> tuple[int, int] | None:
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


def usage_record_call(
    *,
    backend: BaseEmbeddingBackend,
    texts_by_workspace: Mapping[int, Sequence[str]],
    reported: tuple[int, int] | None,
    deferred: bool = False,
) -> tuple[int, int]:
    """Record one embed call's usage against the workspaces whose texts it carried; return
    (requests, tokens) of the call.

    `reported` is what the provider said the call cost (see usage_reported_by); without it
    tokens are estimated. A call that served several workspaces shares the reported total
    out in proportion to each workspace's estimated tokens.
    """
    if reported is not None and len(texts_by_workspace) == 1:
        requests, total_tokens = reported
        ((workspace_id, texts),) = texts_by_workspace.items()
        shares = {workspace_id: (len(texts), total_tokens)}
    else:
        estimates = {ws: [backend.estimate_tokens(t) for t in texts] for ws, texts in texts_by_workspace.items()}
        requests, total_tokens = reported if reported is not None else (1, sum(map(sum, estimates.values())))
        total_estimate = sum(map(sum, estimates.values())) or 1
        shares = {ws: (len(ests), round(total_tokens * sum(ests) / total_estimate)) for ws, ests in estimates.items()}
    for workspace_id, (text_count, tokens) in shares.items():
        usage_record(
            workspace_id=workspace_id,
            model=backend.model_name,
            requests=requests,
            texts=text_count,
            tokens=tokens,
            cost=backend.cost_usd(tokens),
            deferred=deferred,
        )
    return requests, total_tokens
