"""Worker start: load the embedding model when a worker starts, so the first batch waits for no load.

`worker_init` runs in the worker's main process before its pool starts: every pool loads
there. Prefork (the default pool, `make run`) then forks its pool processes from it, so each
inherits the loaded model (its arrays shared copy-on-write): one load per worker, not one
per process, and no two processes loading at once on a small machine. `worker_process_init`
(each prefork process; solo in the worker itself) loads only where nothing was inherited.
Off with EMBEDDING_WORKER_PRELOAD=false (the lazy load, bench/first_embedding.py's "before").

Beside the configured model it loads every other model a workspace has active or is switching
to (ingestion/preload.py): each pool process would otherwise load, say, USE on its own in its
first task, unshared. The database connection that read them is closed before the pool forks.

After that load, the worker's main process and beat freeze the garbage collector's view of
every object they hold (`gc.freeze()`, as the gc docs advise before forking): the pool's
processes then don't copy the pages of those objects when a collection touches them, and
Python's exit no longer walks them. That walk took 4-5 s of Ctrl-C on a loaded 2-core
machine (tests/config/test_make_run.py), against about 1.5 s frozen.
"""

from __future__ import annotations

import gc
import logging
import time

from celery.signals import beat_init, worker_init, worker_process_init
from django.conf import settings

from ingestion.embeddings import EmbeddingNotConfigured, get_embedding_backend
from ingestion.preload import workspace_models_preload

logger = logging.getLogger(__name__)

# True once this process (or the process it was forked from) has loaded the model.
_loaded = False


def embedding_backend_preload() -> None:
    """Load the configured embedding backend in this process, once, and the other models the
    workspaces use; never raise (a worker must start)."""
    global _loaded
    if _loaded or not getattr(settings, "EMBEDDING_WORKER_PRELOAD", True):
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
    _loaded = True
    logger.info("Embedding model %s loaded at worker start in %.2f s.", backend.model_name, time.monotonic() - started)
    workspace_models_preload(configured=backend.model_name)


@worker_init.connect(dispatch_uid="ingestion.worker_init_preload")
def on_worker_init(**kwargs) -> None:
    embedding_backend_preload()
    gc.freeze()


@beat_init.connect(dispatch_uid="ingestion.beat_init_freeze")
def on_beat_init(**kwargs) -> None:
    gc.freeze()


@worker_process_init.connect(dispatch_uid="ingestion.worker_process_init_preload")
def on_worker_process_init(**kwargs) -> None:
    embedding_backend_preload()
