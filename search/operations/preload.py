"""Web worker start: load what a search embeds with before the first search arrives.

A semantic or hybrid search embeds its query in the web process (search/engine/legs/query_embedding.py)
and, for a model whose confidence reads it, compares the query with the background sentences
(search/engine/confidence.py), embedded once per process. Loaded lazily, the first search of
each gunicorn worker paid for both: multilingual-e5-small's load (0.96 s) and its 50
background sentences (0.39 s) on the 2-CPU machine, against 11 ms for a query once loaded.

gunicorn.conf.py's post_worker_init starts `query_side_preload` on a daemon thread, so the
worker answers at once (health checks, full-text) while the model loads; a search that arrives
meanwhile waits on the backend's own lock for the load already under way rather than starting
another. The models other workspaces search with (USE, in a deployment upgraded past the
default's change) load next on the same thread (ingestion/preload.py, as Celery's workers do,
less the switches' targets, which no search reads). Celery workers preload the same models for
ingestion (ingestion/worker_start.py); one setting, EMBEDDING_WORKER_PRELOAD, turns both off.
It never raises: a failure is logged and the first search loads (and reports) as before.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import connections

from ingestion.embeddings import EmbeddingNotConfigured, get_embedding_backend, get_embedding_backend_for_model
from ingestion.preload import workspace_models_preload
from ingestion.selectors import embedding_models
from search.engine.confidence import background_preload

logger = logging.getLogger(__name__)


def query_side_preload() -> None:
    """Load the configured embedding model and its confidence background in this process, then
    every other model a workspace searches with (and its background)."""
    if not getattr(settings, "EMBEDDING_WORKER_PRELOAD", True):
        return
    try:
        configured = get_embedding_backend().model_name
    except EmbeddingNotConfigured:
        return
    if not _model_and_background_load(configured, where="web worker start"):
        return
    for name in workspace_models_preload(configured=configured, searched_only=True):
        try:
            if background_preload(name):
                logger.info("Confidence background of %s loaded at web worker start.", name)
        except Exception:  # its first search embeds it, and reports the error there
            logger.exception("Embedding the confidence background of %s at web worker start failed.", name)


def workspace_query_side_preload(workspace_id: int) -> None:
    """Load one workspace's active embedding model and its confidence background: the MCP stdio
    server's (search/interfaces/commands/mcp_serve.py), which serves one workspace, one client,
    in a process of its own, so its first semantic or hybrid tool call no longer waits for them."""
    if not getattr(settings, "EMBEDDING_WORKER_PRELOAD", True):
        return
    try:
        model = embedding_models(workspace=workspace_id).active
    except Exception:  # the first search reads it again, and reports the error there
        logger.exception("Reading the workspace's embedding model at start failed; the first search will load it.")
        return
    finally:
        connections.close_all()  # this thread's own connection
    if model is not None:  # None: no provider configured, semantic search answers not_configured
        _model_and_background_load(model, where="start")


def _model_and_background_load(model: str, *, where: str) -> bool:
    """Load `model` and, where its calibration reads it, its confidence background; log it.
    Whether it loaded: a failure is logged, and the first search loads (and reports) it again."""
    started = time.monotonic()
    try:
        get_embedding_backend_for_model(model).load()
        background = background_preload(model)
    except EmbeddingNotConfigured:
        return False
    except Exception:
        logger.exception("Loading the query side at %s failed; the first search will try again.", where)
        return False
    logger.info("Query side loaded at %s: %s%s in %.2f s.", where, model,
                " and its confidence background" if background else "", time.monotonic() - started)
    return True


def query_side_preload_started(target: Callable[..., None] = query_side_preload, *args: Any) -> threading.Thread:
    """`target` (query_side_preload, or workspace_query_side_preload and its workspace) on a
    daemon thread: a process that stops does not wait for it."""
    thread = threading.Thread(target=target, args=args, name="query-side-preload", daemon=True)
    thread.start()
    return thread
