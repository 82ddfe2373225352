"""Embedding the query of a search: fast failure when the provider stalls, usage recorded."""

from __future__ import annotations

import socket
import threading
import time

import pytest
from rest_framework.test import APIClient

from ingestion.embeddings import reset_embedding_backends
from ingestion.models import EmbeddingUsage
from ingestion.services.usage import usage_flush
from tests.factories import api_key_make
from tests.ingestion.fake_voyage import API_KEY, FakeVoyage
from tests.search.semantic_helpers import LOCAL_MODEL

pytestmark = pytest.mark.django_db

URL = "/api/v1/workspaces/acme/search/semantic"
QUERY_TIMEOUT = 1.0
QUERY_MAX_RETRIES = 1
# Two attempts of QUERY_TIMEOUT and one backoff of at most 0.5 s, plus generous slack for a
# busy machine. Ingestion's settings in the same backend would take 5 x 30 s.
ANSWER_BOUND_SECONDS = 2 * QUERY_TIMEOUT + 0.5 + 2.5


class StalledServer:
    """Accepts TCP connections and never answers: a provider that hangs."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.connections: list[socket.socket] = []
        self.accepted = 0
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            self.connections.append(conn)
            self.accepted += 1

    def close(self) -> None:
        self.listener.close()
        for conn in self.connections:
            conn.close()


def voyage_backend(base_url: str) -> dict:
    return {
        "BACKEND": "ingestion.embeddings.voyage.VoyageEmbeddingBackend",
        "OPTIONS": {
            "api_key": API_KEY,
            "base_url": base_url,
            "model": "voyage-3.5",
            # Ingestion's patient settings stay as in production...
            "timeout": 30.0,
            "max_retries": 4,
            "retry_base_delay": 1.0,
            # ...and the query path has its own.
            "query_timeout": QUERY_TIMEOUT,
            "query_max_retries": QUERY_MAX_RETRIES,
        },
        "PRICE_PER_MILLION_TOKENS": 0.06,
    }


@pytest.fixture
def stalled_voyage(settings):
    server = StalledServer()
    settings.SEARCH_EMBEDDING_BACKENDS = {"default": voyage_backend(f"http://127.0.0.1:{server.port}/v1")}
    reset_embedding_backends()
    yield server
    reset_embedding_backends()
    server.close()


@pytest.fixture
def agent(workspace):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {api_key_make(workspace)[1]}")
    return client


def test_stalled_provider_answers_503_provider_unavailable_within_the_bound(stalled_voyage, agent):
    started = time.monotonic()
    response = agent.post(URL, {"query": "refund"}, format="json")
    elapsed = time.monotonic() - started

    assert (response.status_code, response.json()["code"]) == (503, "provider_unavailable")
    assert elapsed < ANSWER_BOUND_SECONDS, f"answered after {elapsed:.1f} s"


def test_stalled_provider_gets_one_retry_for_a_query(stalled_voyage, agent):
    agent.post(URL, {"query": "refund"}, format="json")

    assert stalled_voyage.accepted == 1 + QUERY_MAX_RETRIES


def test_failed_query_embedding_records_no_usage(stalled_voyage, agent, workspace):
    agent.post(URL, {"query": "refund"}, format="json")

    usage_flush()
    assert not EmbeddingUsage.objects.filter(workspace=workspace).exists()


@pytest.fixture
def fake_voyage(settings, httpserver):
    fake = FakeVoyage()
    httpserver.expect_request("/v1/embeddings", method="POST").respond_with_handler(fake)
    settings.SEARCH_EMBEDDING_BACKENDS = {"default": voyage_backend(httpserver.url_for("/v1"))}
    reset_embedding_backends()
    yield fake
    reset_embedding_backends()


def test_query_embedding_is_recorded_with_the_tokens_voyage_counted(fake_voyage, agent, workspace):
    agent.post(URL, {"query": "refund policy"}, format="json")
    agent.post(URL, {"query": "返品"}, format="json")

    usage_flush()
    usage = EmbeddingUsage.objects.get(workspace=workspace, model="voyage-3.5")
    # The fake counts one token per character, as Voyage's usage.total_tokens would report.
    assert (usage.requests, usage.texts, usage.tokens) == (2, 2, len("refund policy") + len("返品"))
    assert usage.cost_usd > 0


def test_query_embedding_with_the_local_model_is_recorded(local_embeddings, agent, workspace):
    agent.post(URL, {"query": "refund"}, format="json")

    usage_flush()
    usage = EmbeddingUsage.objects.get(workspace=workspace, model=LOCAL_MODEL)
    assert (usage.requests, usage.texts) == (1, 1)
