"""A real Celery worker loads the local embedding model when its process starts, not in the first task."""

from __future__ import annotations

import gc
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ingestion import worker_start
from ingestion.embeddings import get_embedding_backend, get_embedding_backend_for_model, reset_embedding_backends
from ingestion.models import WorkspaceEmbedding
from ingestion.worker_start import on_worker_init, on_worker_process_init
from tests.factories import WorkspaceFactory
from tests.search.pipeline_helpers import FAKE_BACKEND
from tests.search.semantic_helpers import LOCAL_BACKEND

REPO = Path(__file__).resolve().parents[2]
USE = "use-multilingual-v3"
LOADED = f"Embedding model {USE} loaded at worker start"

pytestmark = pytest.mark.worker


def _worker(tmp_path: Path, pool: str, preload: str) -> tuple[subprocess.Popen, Path]:
    log = tmp_path / f"worker-{pool}.log"
    env = {**os.environ, "CELERY_BROKER_URL": "filesystem://", "BROKER_DIR": str(tmp_path / "broker"),
           "EMBEDDING_PROVIDER": "local", "EMBEDDING_WORKER_PRELOAD": preload, "PYTHONPATH": str(REPO),
           "LOG_LEVEL": "INFO"}  # threads loads before Celery sets up logging: the settings' level applies
    command = [str(Path(sys.executable).parent / "celery"), "-A", "config", "worker", f"--pool={pool}",
               "--concurrency=1", "--without-mingle", "--without-gossip", "--without-heartbeat",
               "-n", f"preload-{pool}-{os.getpid()}@%h", "--loglevel=INFO"]
    with log.open("w") as out:
        proc = subprocess.Popen(command, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)
    return proc, log


def _wait_for(log: Path, proc: subprocess.Popen, *texts: str, seconds: float = 60.0) -> str:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        out = log.read_text(errors="replace")
        if all(text in out for text in texts):
            return out
        assert proc.poll() is None, out
        time.sleep(0.2)
    pytest.fail(f"no {texts} in the worker's log:\n{log.read_text(errors='replace')[-3000:]}")


@pytest.mark.parametrize("pool", ["prefork", "solo", "threads"])
def test_worker_loads_the_model_once_at_start(tmp_path, pool):
    proc, log = _worker(tmp_path, pool, "true")
    try:
        out = _wait_for(log, proc, LOADED, " ready.")
        # Prefork's pool process starts before "ready": a load of its own would be logged by now.
        time.sleep(1.0)
        assert log.read_text(errors="replace").count(LOADED) == 1, out
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)


def test_preload_off_leaves_the_load_to_the_first_task(tmp_path):
    proc, log = _worker(tmp_path, "solo", "false")
    try:
        out = _wait_for(log, proc, " ready.")
        assert LOADED not in out
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)


def test_signal_handlers_load_the_configured_backend_once(settings, monkeypatch):
    settings.SEARCH_EMBEDDING_BACKENDS = {"default": LOCAL_BACKEND}
    reset_embedding_backends()
    monkeypatch.setattr(worker_start, "_loaded", False)
    try:
        backend = get_embedding_backend()
        assert backend._model is None
        on_worker_init(sender=None)  # the worker's main process, before any pool process forks
        assert backend._model is not None and backend._model._backend is not None
        assert gc.get_freeze_count() > 0  # what it holds is frozen before the pool forks
        model = backend._model
        on_worker_process_init()  # a forked pool process: inherited, nothing loads again
        assert get_embedding_backend()._model is model
    finally:
        gc.unfreeze()
        reset_embedding_backends()


def test_a_worker_without_a_provider_starts(settings, monkeypatch):
    monkeypatch.setattr(worker_start, "_loaded", False)
    settings.SEARCH_EMBEDDING_BACKENDS = {"default": None}
    reset_embedding_backends()
    on_worker_process_init()  # no EmbeddingNotConfigured escapes


@pytest.mark.django_db(transaction=True)  # the preload closes the connection, as it must before the pool forks
def test_the_models_workspaces_use_are_loaded_beside_the_configured_one(settings, monkeypatch):
    """A workspace pinned to USE (migration ingestion.0015) while the configured provider is
    another: the worker loads USE at start too, not in each pool process's first task."""
    settings.SEARCH_EMBEDDING_BACKENDS = {"default": FAKE_BACKEND}
    reset_embedding_backends()
    monkeypatch.setattr(worker_start, "_loaded", False)
    WorkspaceEmbedding.objects.create(workspace=WorkspaceFactory(), active_model=USE)
    try:
        use = get_embedding_backend_for_model(USE)
        assert use._model is None
        worker_start.embedding_backend_preload()
        assert get_embedding_backend_for_model(USE)._model is not None
        assert WorkspaceEmbedding.objects.count() == 1  # the closed connection reopens for the next query
    finally:
        reset_embedding_backends()


def test_a_worker_that_cannot_read_the_workspaces_models_starts(settings, monkeypatch):
    """No database access here (pytest-django refuses it), as at a worker start before migrate."""
    settings.SEARCH_EMBEDDING_BACKENDS = {"default": FAKE_BACKEND}
    reset_embedding_backends()
    monkeypatch.setattr(worker_start, "_loaded", False)
    worker_start.embedding_backend_preload()  # nothing escapes
    assert worker_start._loaded
