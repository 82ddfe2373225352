"""rerank: true: the fused candidates reordered by the configured reranker, combined like Mastra's
(rerank, vector, position); against the deterministic fake backend and the fake Voyage server."""

from __future__ import annotations

import pytest
from pytest_httpserver import HTTPServer

from ingestion.embeddings import reset_rerank_backends
from ingestion.embeddings.fake import FakeRerankBackend
from ingestion.models import EmbeddingUsage
from ingestion.services.usage import usage_flush
from search.contract.errors import SearchError
from search.engine.hybrid import hybrid_search
from tests.factories import ContentTypeFactory, entry_make, full_access
from tests.ingestion.fake_voyage import API_KEY, FakeVoyage, expected_relevance

pytestmark = pytest.mark.django_db

QUERY = "refund unused items within 30 days"


@pytest.fixture
def docs(workspace, no_embeddings):
    doc_type = ContentTypeFactory(workspace=workspace, api_id="doc", semantic_search_enabled=True)
    entry_make(doc_type, title="Refunds", body="<p>Refunds refunds refunds: ask support.</p>")
    entry_make(doc_type, title="Refund window", body="<p>A refund for unused items within 30 days of delivery.</p>")
    entry_make(doc_type, title="Delivery", body="<p>Delivery of unused parcels takes days.</p>")


@pytest.fixture
def rerank_settings(settings):
    def use(config: dict | None) -> None:
        settings.SEARCH_RERANK_BACKENDS = {"default": config}
        reset_rerank_backends()

    yield use
    reset_rerank_backends()


@pytest.fixture
def fake_reranker(rerank_settings):
    """ingestion.embeddings.fake's reranker: the share of the query's words a document has."""
    rerank_settings({"BACKEND": "ingestion.embeddings.fake.FakeRerankBackend"})
    FakeRerankBackend.calls.clear()
    return FakeRerankBackend


@pytest.fixture
def voyage(rerank_settings):
    """Voyage rerank-2.5 through the real backend, against a local fake of Voyage's /v1/rerank."""
    server = HTTPServer(host="127.0.0.1", port=0, threaded=True)
    server.start()
    fake = FakeVoyage()
    server.expect_request("/v1/rerank", method="POST").respond_with_handler(fake)
    rerank_settings({
        "BACKEND": "ingestion.embeddings.voyage_rerank.VoyageRerankBackend",
        "OPTIONS": {"api_key": API_KEY, "base_url": f"http://127.0.0.1:{server.port}/v1", "timeout": 5.0,
                    "max_retries": 2, "retry_base_delay": 0.01},
        "PRICE_PER_MILLION_TOKENS": 0.05,
    })
    yield fake
    server.clear()
    server.stop()


def expected_final(fused_hits, relevance) -> list[float]:
    """Mastra's combination with the default weights, over the fused order."""
    best = fused_hits[0].score
    return sorted((0.4 * relevance(hit.text) + 0.4 * hit.score / best + 0.2 * (1 - i / len(fused_hits))
                   for i, hit in enumerate(fused_hits)), reverse=True)


def test_rerank_combines_relevance_fused_score_and_position(docs, workspace, fake_reranker):
    fused = hybrid_search(access=full_access(workspace), query=QUERY, top_k=10)

    result = hybrid_search(access=full_access(workspace), query=QUERY, top_k=10, rerank=True)

    words = set(QUERY.split())
    share = lambda text: len(words & set(text.lower().replace(":", " ").replace(".", " ").split())) / len(words)  # noqa: E731
    assert [hit.score for hit in result.hits] == pytest.approx(expected_final(fused.hits, share))
    assert result.hits[0].title == "Refund window"
    assert result.extra_meta["rerank"] == {"model": "fake-overlap", "candidates": len(fused.hits),
                                           "weights": {"rerank": 0.4, "vector": 0.4, "position": 0.2}}


def test_rerank_weights_can_be_set_per_request(docs, workspace, fake_reranker):
    result = hybrid_search(access=full_access(workspace), query=QUERY, rerank=True,
                           rerank_weights={"rerank": 1.0, "vector": 0.0, "position": 0.0})

    assert result.hits[0].score == pytest.approx(1.0)
    assert result.extra_meta["rerank"]["weights"] == {"rerank": 1.0, "vector": 0.0, "position": 0.0}


def test_rerank_weights_are_relative_and_fill_in_the_defaults(docs, workspace, fake_reranker):
    # Found by the fuzzer: {"rerank": 0.9} was schema-valid but refused for not adding up to 1.
    result = hybrid_search(access=full_access(workspace), query=QUERY, rerank=True, rerank_weights={"rerank": 0.9})

    weights = result.extra_meta["rerank"]["weights"]
    assert sum(weights.values()) == pytest.approx(1.0)
    assert weights["rerank"] / weights["vector"] == pytest.approx(0.9 / 0.4)
    assert weights["position"] / weights["vector"] == pytest.approx(0.2 / 0.4)


def test_rerank_false_never_calls_the_reranker(docs, workspace, fake_reranker):
    hybrid_search(access=full_access(workspace), query="refund")

    assert fake_reranker.calls == []


def test_rerank_without_a_reranker_is_not_configured(docs, workspace, rerank_settings):
    rerank_settings(None)

    with pytest.raises(SearchError) as caught:
        hybrid_search(access=full_access(workspace), query="refund", rerank=True)

    assert (caught.value.code, caught.value.status) == ("not_configured", 503)


# --- Voyage rerank-2.5 at the wire ---------------------------------------------------------------

def test_voyage_rerank_reorders_by_its_relevance(docs, workspace, voyage):
    fused = hybrid_search(access=full_access(workspace), query=QUERY, top_k=10)

    result = hybrid_search(access=full_access(workspace), query=QUERY, top_k=10, rerank=True)

    assert [hit.score for hit in result.hits] == pytest.approx(
        expected_final(fused.hits, lambda text: expected_relevance(QUERY, text)), abs=1e-5)
    assert result.extra_meta["rerank"]["model"] == "rerank-2.5"
    assert voyage.bodies[0]["query"] == QUERY
    assert sorted(voyage.bodies[0]["documents"]) == sorted(hit.text for hit in fused.hits)
    usage_flush()
    usage = EmbeddingUsage.objects.get(workspace=workspace, model="rerank-2.5")
    assert (usage.requests, usage.texts) == (1, len(fused.hits))


def test_voyage_rate_limit_is_retried_then_reranks(docs, workspace, voyage):
    voyage.script = [("status", 429)]

    result = hybrid_search(access=full_access(workspace), query=QUERY, rerank=True)

    assert result.extra_meta["rerank"]["model"] == "rerank-2.5"
    assert len(voyage.bodies) == 2
    assert result.hits[0].title == "Refund window"


def test_voyage_rejected_key_is_a_failed_request_with_a_code(docs, workspace, voyage, rerank_settings, settings):
    config = dict(settings.SEARCH_RERANK_BACKENDS["default"])
    rerank_settings({**config, "OPTIONS": {**config["OPTIONS"], "api_key": "pa-revoked"}})

    with pytest.raises(SearchError) as caught:
        hybrid_search(access=full_access(workspace), query=QUERY, rerank=True)

    assert (caught.value.code, caught.value.status) == ("provider_error", 503)
    assert len(voyage.bodies) == 1  # a rejected key is not retried


def test_voyage_down_past_the_retries_is_provider_unavailable(docs, workspace, voyage):
    voyage.script = [("status", 503)] * 3

    with pytest.raises(SearchError) as caught:
        hybrid_search(access=full_access(workspace), query=QUERY, rerank=True)

    assert (caught.value.code, caught.value.status) == ("provider_unavailable", 503)
