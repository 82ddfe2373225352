"""Worker start: load the embedding model when a worker starts, so the first batch waits for no load.

`worker_init` runs in the worker's main process before its pool starts: every pool loads
there. Prefork (the default pool, `make run`) then forks its pool processes from it, so each
inherits the loaded model (its arrays shared copy-on-write): one load per worker, not one
per process, and no two processes loading at once on a small machine. `worker_process_init`
(each prefork process; solo in the worker itself) loads only where nothing was inherited.
Off with EMBEDDING_WORKER_PRELOAD=false (the lazy load, bench/first_embedding.py's "before").

Beside the configured model it loads every other model a workspace has active or is switching
to: after the default became multilingual-e5-small, an upgraded deployment's workspaces stay on
USE (migration ingestion.0015), and each pool process would otherwise load USE on its own in
its first task, unshared. The database connection that read them is closed before the pool forks.

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
from django.db import connections

from ingestion.embeddings import EmbeddingNotConfigured, get_embedding_backend, get_embedding_backend_for_model
from ingestion.selectors import embedding_models_in_use

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


def workspace_models_preload(*, configured: str) -> None:
    """Load each model a workspace has active or as a switch's target, but the configured one;
    one that fails (or lacks its key) is left to its first task."""
    try:
        names = sorted(embedding_models_in_use() - {configured})
    except Exception as error:  # no database yet, or not migrated: the worker starts all the same
        logger.warning("Could not read the workspaces' embedding models at worker start (%s); each loads in its"
                       " first task.", str(error).splitlines()[0] if str(error) else type(error).__name__)
        return
    finally:
        connections.close_all()  # opened in the worker's main process: no pool process may share it
    for name in names:
        started = time.monotonic()
        try:
            backend = get_embedding_backend_for_model(name)
            backend.load()
        except EmbeddingNotConfigured:
            continue
        except Exception:
            logger.exception("Loading embedding model %s at worker start failed; its first task will try again.", name)
            continue
        logger.info("Embedding model %s loaded at worker start in %.2f s.", backend.model_name, time.monotonic() - started)


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
