"""Hybrid search when the embedding provider fails on the query: it answers from keywords and says why.

The provider is the real Voyage backend against a local fake of Voyage's HTTP API
(tests/ingestion/test_voyage_backend.py), failing at the wire.
"""

from __future__ import annotations

import pytest
from pytest_httpserver import HTTPServer

from ingestion.embeddings import reset_embedding_backends
from ingestion.services import chunks_embed_pending
from search.engine.hybrid import hybrid_search
from tests.factories import ContentTypeFactory, entry_make, full_access
from tests.ingestion.fake_voyage import API_KEY, FakeVoyage

pytestmark = pytest.mark.django_db


@pytest.fixture
def voyage(settings):
    server = HTTPServer(host="127.0.0.1", port=0, threaded=True)
    server.start()
    fake = FakeVoyage()
    server.expect_request("/v1/embeddings", method="POST").respond_with_handler(fake)
    settings.SEARCH_EMBEDDING_BACKENDS = {"default": {
        "BACKEND": "ingestion.embeddings.voyage.VoyageEmbeddingBackend",
        "OPTIONS": {"api_key": API_KEY, "base_url": f"http://127.0.0.1:{server.port}/v1", "timeout": 5.0,
                    "max_retries": 1, "retry_base_delay": 0.01},
    }}
    reset_embedding_backends()
    yield fake
    reset_embedding_backends()
    server.clear()
    server.stop()


@pytest.fixture
def embedded(voyage, workspace):
    doc_type = ContentTypeFactory(workspace=workspace, api_id="doc", semantic_search_enabled=True)
    entry_make(doc_type, title="Returns", body="<p>Refunds: return any unused item within 30 days.</p>")
    entry_make(doc_type, title="Shipping", body="<p>Parcels ship within two business days.</p>")
    chunks_embed_pending(workspace=workspace)
    return voyage


def test_both_legs_run_when_the_provider_answers(embedded, workspace):
    result = hybrid_search(access=full_access(workspace), query="refund")

    assert result.extra_meta["legs_used"] == ["keyword", "semantic"]
    assert result.model == "voyage-3.5"


@pytest.mark.parametrize(("failure", "code"), [(("status", 500), "provider_unavailable"),
                                               (("status", 401), "provider_error")])
def test_provider_failure_on_the_query_degrades_to_keyword(embedded, workspace, failure, code):
    embedded.script = [failure] * 5

    body = hybrid_search(access=full_access(workspace), query="refund").as_dict()

    assert body["meta"]["legs_used"] == ["keyword"]
    assert body["meta"]["degraded"]["semantic"]["code"] == code
    assert body["sources"][0]["metadata"]["title"] == "Returns"
