"""Health of what search stands on: database and extensions, broker, workers, embedding provider.

Cheap enough to poll every second: three small database statements (the server, the workers'
heartbeats, the head of the chunk queue through its partial indexes), and a broker check whose
result is reused for HEALTH_BROKER_CACHE_SECONDS. Failures become short codes; exception
text names hosts and users, so it goes to the log, never into a report.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from django.conf import settings
from django.db import DatabaseError, OperationalError, connection

from cms.citus_mode import citus_active
from cms.citus_nodes import citus_nodes_report
from ingestion.embeddings import EmbeddingNotConfigured, get_embedding_backend
from ingestion.worker_status import worker_status
from search.engine.db.replicas import replica_aliases, replicas_report

logger = logging.getLogger(__name__)


def health_report(*, detailed: bool) -> dict[str, Any]:
    """`ok` and `status` ("ok" or "degraded"); with `detailed`, what each part reported."""
    database = _database_report()
    broker = _broker_report()
    workers = _workers_report() if database["ok"] else {"ok": False, "error": "database_unreachable"}
    ok = database["ok"] and broker["ok"] and workers["ok"]
    report: dict[str, Any] = {"ok": ok, "status": "ok" if ok else "degraded"}
    if detailed:
        report.update(database=database, broker=broker, workers=workers, embeddings=_embeddings_report())
        if replica_aliases():
            # Each replica and its lag; one lagging or down is skipped, and the primary serves.
            report["replicas"] = replicas_report()
        if database["ok"] and citus_active():
            # The coordinator's nodes; a worker down fails the searches of its workspaces only.
            report["citus"] = citus_nodes_report()
    return report


def _database_report() -> dict[str, Any]:
    try:
        with connection.cursor() as cursor:
            cursor.execute(
                """
                SELECT current_setting('server_version'),
                       (SELECT datctype FROM pg_database WHERE datname = current_database()),
                       (SELECT extversion FROM pg_extension WHERE extname = 'vector'),
                       (SELECT extversion FROM pg_extension WHERE extname = 'pg_trgm'),
                       (SELECT extversion FROM pg_extension WHERE extname = 'pg_textsearch')
                """
            )
            server_version, ctype, vector, pg_trgm, pg_textsearch = cursor.fetchone()
    except OperationalError:
        logger.warning("Health check: the database is unreachable.", exc_info=True)
        return {"ok": False, "error": "unreachable"}
    except DatabaseError:
        logger.warning("Health check: the database query failed.", exc_info=True)
        return {"ok": False, "error": "query_failed"}
    return {
        "ok": True,
        "server_version": server_version,
        "lc_ctype": ctype,
        "extensions": {"vector": vector, "pg_trgm": pg_trgm, "pg_textsearch": pg_textsearch},
    }


def _workers_report() -> dict[str, Any]:
    """The workers alive and gone (names, queues, seconds since seen) and the oldest pending
    chunk's age. Not ok when chunks wait with no live worker on their queue (`problem`
    "no_worker", with `unserved`: content, backfill), or when the oldest pending chunk has
    waited over HEALTH_PENDING_MAX_AGE_SECONDS ("pending_too_old"). With no embedding provider
    configured, chunks wait by design (the embeddings part says why): never a worker problem."""
    try:
        status = worker_status()
    except DatabaseError:
        logger.warning("Health check: reading the workers' heartbeats failed.", exc_info=True)
        return {"ok": False, "error": "query_failed"}
    report: dict[str, Any] = {
        "ok": True,
        "alive": [worker.as_dict() for worker in status.alive],
        "gone": [worker.as_dict() for worker in status.gone],
        "oldest_pending_seconds": status.oldest_pending_seconds,
        "pending_max_age_seconds": settings.HEALTH_PENDING_MAX_AGE_SECONDS,
    }
    if not _provider_configured():
        return report
    age = status.oldest_pending_seconds
    if status.unserved:
        report.update(ok=False, problem="no_worker", unserved=status.unserved)
    elif age is not None and age > settings.HEALTH_PENDING_MAX_AGE_SECONDS:
        report.update(ok=False, problem="pending_too_old")
    return report


def _provider_configured() -> bool:
    try:
        get_embedding_backend()
    except Exception:  # noqa: BLE001 - not configured, or not buildable: the embeddings part reports which
        return False
    return True


_broker_lock = threading.Lock()
# Broker URL -> (monotonic time of the check, report).
_broker_checks: dict[str, tuple[float, dict[str, Any]]] = {}


def _broker_report() -> dict[str, Any]:
    from config.celery import app

    url = app.conf.broker_url or ""
    # Under the lock, so callers arriving together share one check (one connection).
    with _broker_lock:
        checked = _broker_checks.get(url)
        if checked and time.monotonic() - checked[0] < settings.HEALTH_BROKER_CACHE_SECONDS:
            return checked[1]
        report = _broker_check(app, url)
        _broker_checks[url] = (time.monotonic(), report)
        return report


def _broker_check(app, url: str) -> dict[str, Any]:
    transport = url.split("://", 1)[0]
    try:
        with app.connection_for_write() as conn:
            # No retry: a health check reports the broker as it is now.
            conn.ensure_connection(max_retries=0)
    except Exception:  # noqa: BLE001 - any failure is "unreachable"; the log keeps the detail
        logger.warning("Health check: the broker (%s) is unreachable.", transport, exc_info=True)
        return {"ok": False, "transport": transport, "error": "unreachable"}
    return {"ok": True, "transport": transport}


def broker_checks_forget() -> None:
    """Drop the remembered broker checks (tests, and after reconfiguring the broker)."""
    with _broker_lock:
        _broker_checks.clear()


def _embeddings_report() -> dict[str, Any]:
    try:
        backend = get_embedding_backend()
    except EmbeddingNotConfigured as exc:
        # Our own sentence naming the setting to change, not a provider's error text.
        return {"configured": False, "code": "not_configured", "message": str(exc)}
    except Exception:  # noqa: BLE001 - a backend that cannot be built; the log keeps why
        logger.warning("Health check: the embedding backend cannot be built.", exc_info=True)
        return {"configured": False, "code": "backend_error"}
    return {"configured": True, "provider": settings.EMBEDDING_PROVIDER, "model": backend.model_name,
            "dimensions": backend.dimensions}
