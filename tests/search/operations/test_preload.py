"""Web worker start (search/operations/preload.py): gunicorn, as deployed, loads the embedding
model and its confidence background on a thread once the worker is up, not in its first search."""

from __future__ import annotations

import time

import pytest
import requests

from ingestion.embeddings import get_embedding_backend_for_model, reset_embedding_backends
from ingestion.models import WorkspaceEmbedding
from search.engine import confidence
from search.operations import preload
from tests.factories import WorkspaceFactory
from tests.search.pipeline_helpers import FAKE_BACKEND
from tests.servers import database_env, deployed_gunicorn_options, gunicorn_started

USE = "use-multilingual-v3"
MINILM = "all-minilm-l6-v2"
LINE = "Query side loaded at web worker start: multilingual-e5-small and its confidence background"


def _seen(log, text: str, count: int, timeout: float = 90.0) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if (content := log.read_text()).count(text) >= count:
            return content
        time.sleep(0.2)
    raise AssertionError(f"{text!r} seen {log.read_text().count(text)} times, not {count}:\n{log.read_text()[-3000:]}")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("preload", ["true", "false"])
def test_each_gunicorn_worker_loads_the_query_side_as_it_starts(tmp_path, preload):
    # numpy: E5's onnx runtime would first build its int8 graph (tens of seconds); the preload is the same.
    env = database_env(EMBEDDING_PROVIDER="e5-small", E5_RUNTIME="numpy", EMBEDDING_WORKER_PRELOAD=preload,
                       LOG_LEVEL="INFO", CELERY_BROKER_URL="memory://")
    log = tmp_path / "gunicorn.log"
    with gunicorn_started(env, *deployed_gunicorn_options(), workers=2, log_path=log) as (base, _):
        assert requests.get(f"{base}/api/health", timeout=10).status_code == 200  # answering meanwhile
        if preload == "true":
            assert _seen(log, LINE, 2).count(LINE) == 2  # once in each worker
        else:
            time.sleep(3)
            assert "Query side loaded" not in log.read_text()


def test_only_a_model_whose_calibration_reads_the_background_embeds_it(monkeypatch):
    embedded = []
    monkeypatch.setattr(confidence, "_background_vectors", embedded.append)

    assert not confidence.background_preload(MINILM)  # no calibration fitted for it
    assert confidence.background_preload(USE)
    assert confidence.background_preload("multilingual-e5-small")
    assert embedded == [USE, "multilingual-e5-small"]


@pytest.mark.django_db(transaction=True)  # the preload closes its thread's connection, as the web worker's must
def test_the_models_workspaces_search_with_load_beside_the_configured_one(settings, monkeypatch):
    """A workspace pinned to USE (an upgraded deployment: migration ingestion.0015) while the
    configured provider is another: the web worker loads USE at start too, not in that
    workspace's first search; a running switch's target, which no search reads, it leaves."""
    settings.SEARCH_EMBEDDING_BACKENDS = {"default": FAKE_BACKEND}
    reset_embedding_backends()
    WorkspaceEmbedding.objects.create(workspace=WorkspaceFactory(), active_model=USE, target_model=MINILM)
    backgrounds = []
    monkeypatch.setattr(confidence, "_background_vectors", backgrounds.append)
    try:
        assert get_embedding_backend_for_model(USE)._model is None
        preload.query_side_preload()
        assert get_embedding_backend_for_model(USE)._model is not None
        assert get_embedding_backend_for_model(MINILM)._encoder is None  # the switch's target: the workers embed it
        assert backgrounds == [USE]  # its calibration reads the query's background, as E5's does
        assert WorkspaceEmbedding.objects.count() == 1  # the closed connection reopens for the next query
    finally:
        reset_embedding_backends()
