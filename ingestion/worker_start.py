"""Worker start: load the embedding model when a worker process starts, so the first batch waits for no load.

Prefork (the default pool, `make run`): each pool process loads its own in
`worker_process_init`, after the fork; the parent, which embeds nothing, loads none. The solo
pool sends `worker_process_init` too, in the worker's own process. The threads pool sends
neither to its process: it loads in `worker_init`. Off with
EMBEDDING_WORKER_PRELOAD=false (the lazy load, for bench/first_embedding.py's "before").
"""

from __future__ import annotations

import logging
import time

from celery.signals import worker_init, worker_process_init
from django.conf import settings

from ingestion.embeddings import EmbeddingNotConfigured, get_embedding_backend

logger = logging.getLogger(__name__)

# Pools that send worker_process_init (prefork in each child, solo in the worker itself).
PROCESS_INIT_POOLS = ("prefork", "processes", "solo")


def embedding_backend_preload() -> None:
    """Load the configured embedding backend in this process; never raise (a worker must start)."""
    if not getattr(settings, "EMBEDDING_WORKER_PRELOAD", True):
        return
    started = time.monotonic()
    try:
        backend = get_embedding_backend()
        backend.load()
    except EmbeddingNotConfigured:
        return
    except Exception:  # the first task loads it again, and reports the error there
        logger.exception("Loading the embedding model at worker start failed; the first task will try again.")
        return
    logger.info("Embedding model %s loaded at worker start in %.2f s.", backend.model_name, time.monotonic() - started)


def _pool_sends_process_init(pool_cls) -> bool:
    name = pool_cls if isinstance(pool_cls, str) else f"{pool_cls.__module__}.{pool_cls.__name__}"
    return any(kind in name.lower() for kind in PROCESS_INIT_POOLS)


@worker_init.connect(dispatch_uid="ingestion.worker_init_preload")
def on_worker_init(sender=None, **kwargs) -> None:
    if sender is not None and not _pool_sends_process_init(getattr(sender, "pool_cls", "prefork")):
        embedding_backend_preload()


@worker_process_init.connect(dispatch_uid="ingestion.worker_process_init_preload")
def on_worker_process_init(**kwargs) -> None:
    embedding_backend_preload()
