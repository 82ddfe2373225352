"""Loading, at a process's start, the embedding models the workspaces use beside the configured one.

After the default became multilingual-e5-small, an upgraded deployment's workspaces stay on USE
(migration ingestion.0015). A process that loaded only the configured model would load USE in
its first task or search for such a workspace: each Celery pool process on its own, unshared
(ingestion/worker_start.py), and each gunicorn worker in a search that waits for it
(search/operations/preload.py).
"""

from __future__ import annotations

import logging
import time

from django.db import connections

from ingestion.embeddings import EmbeddingNotConfigured, get_embedding_backend_for_model
from ingestion.selectors import embedding_models_in_use

logger = logging.getLogger(__name__)


def workspace_models_preload(*, configured: str, searched_only: bool = False) -> list[str]:
    """Load each model a workspace has active (and, unless `searched_only`, a running switch's
    target: a worker embeds for it, a search does not) but the configured one; the names loaded.
    One that fails, or lacks its key, is left to its first use; nothing raises."""
    try:
        names = sorted(embedding_models_in_use(targets=not searched_only) - {configured})
    except Exception as error:  # no database yet, or not migrated: the process starts all the same
        logger.warning("Could not read the workspaces' embedding models at start (%s); each loads in its first use.",
                       str(error).splitlines()[0] if str(error) else type(error).__name__)
        return []
    finally:
        # Celery's main process must close it before the pool forks; a web worker's preload thread
        # must not leave its own connection open behind it.
        connections.close_all()
    loaded = []
    for name in names:
        started = time.monotonic()
        try:
            backend = get_embedding_backend_for_model(name)
            backend.load()
        except EmbeddingNotConfigured:
            continue
        except Exception:
            logger.exception("Loading embedding model %s at start failed; its first use will try again.", name)
            continue
        loaded.append(name)
        logger.info("Embedding model %s loaded at worker start in %.2f s.", backend.model_name,
                    time.monotonic() - started)
    return loaded
