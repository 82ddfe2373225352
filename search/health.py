"""Health of what search stands on: database and extensions, broker, embedding provider."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import connection

from ingestion.embeddings import EmbeddingNotConfigured, get_embedding_backend


def health_report() -> dict[str, Any]:
    report: dict[str, Any] = {}
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT extname, extversion FROM pg_extension WHERE extname IN ('vector', 'pg_trgm')")
            extensions = dict(cursor.fetchall())
            cursor.execute("SHOW server_version")
            server_version = cursor.fetchone()[0]
            cursor.execute("SELECT datctype FROM pg_database WHERE datname = current_database()")
            ctype = cursor.fetchone()[0]
        report["database"] = {
            "ok": True,
            "server_version": server_version,
            "lc_ctype": ctype,
            "extensions": {"vector": extensions.get("vector"), "pg_trgm": extensions.get("pg_trgm")},
        }
    except Exception as exc:  # noqa: BLE001 - reported, not raised: this is a health check
        report["database"] = {"ok": False, "error": str(exc)}

    report["broker"] = _broker_report()
    report["embeddings"] = _embeddings_report()
    report["ok"] = report["database"]["ok"] and report["broker"]["ok"]
    return report


def _broker_report() -> dict[str, Any]:
    from cms.celery import app

    url = settings.CELERY_BROKER_URL
    scheme = url.split("://", 1)[0]
    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
        return {"ok": True, "transport": scheme}
    except Exception as exc:  # noqa: BLE001
        return {"ok": False, "transport": scheme, "error": str(exc)}


def _embeddings_report() -> dict[str, Any]:
    try:
        backend = get_embedding_backend()
    except EmbeddingNotConfigured as exc:
        return {"configured": False, "code": "not_configured", "message": str(exc)}
    return {"configured": True, "provider": settings.EMBEDDING_PROVIDER, "model": backend.model_name,
            "dimensions": backend.dimensions}
