"""Web worker start (search/operations/preload.py): gunicorn, as deployed, loads the embedding
model and its confidence background on a thread once the worker is up, not in its first search."""

from __future__ import annotations

import time

import pytest
import requests

from search.engine import confidence
from tests.servers import database_env, deployed_gunicorn_options, gunicorn_started

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

    assert not confidence.background_preload("use-multilingual-v3")  # USE's fit kept the cosine alone
    assert confidence.background_preload("multilingual-e5-small")
    assert embedded == ["multilingual-e5-small"]
