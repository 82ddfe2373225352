"""Rerank backends: one contract every backend passes, and Voyage against a fake of POST /v1/rerank."""

from __future__ import annotations

import pytest
from pytest_httpserver import HTTPServer

from ingestion import services
from ingestion.embeddings import (
    EmbeddingProviderError,
    RerankNotConfigured,
    get_rerank_backend,
    reset_rerank_backends,
)
from ingestion.embeddings.fake import FakeRerankBackend
from ingestion.embeddings.voyage_rerank import VoyageRerankBackend
from ingestion.models import EmbeddingUsage
from ingestion.services.usage import usage_flush
from tests.ingestion.fake_voyage import API_KEY, FakeVoyage, expected_relevance

QUERY = "how long do refunds take"
DOCUMENTS = [
    "The office is closed on Sundays.",
    "Refunds take 5 days: how long it takes depends on the bank.",
    "Shipping is free above 50 euros.",
    "Refunds are sent to the original card.",
]


@pytest.fixture(scope="module")
def server():
    server = HTTPServer(host="127.0.0.1", port=0, threaded=True)
    server.start()
    yield server
    server.clear()
    server.stop()


@pytest.fixture
def fake(server):
    server.clear()
    fake = FakeVoyage()
    server.expect_request("/v1/rerank", method="POST").respond_with_handler(fake)
    return fake


@pytest.fixture
def make_backend(server):
    def make(**options) -> VoyageRerankBackend:
        options = {
            "api_key": API_KEY,
            "base_url": f"http://127.0.0.1:{server.port}/v1",
            "timeout": 5.0,
            "max_retries": 3,
            "retry_base_delay": 0.01,
            **options,
        }
        return VoyageRerankBackend(**options)

    return make


def voyage_order(query: str, documents: list[str]) -> list[tuple[int, float]]:
    """The (index, score) list the fake's scores give, best first, ties by index."""
    scored = [(index, expected_relevance(query, document)) for index, document in enumerate(documents)]
    return sorted(scored, key=lambda pair: (-pair[1], pair[0]))


# --- the contract -----------------------------------------------------------------------------

class RerankBackendContract:
    """What every rerank backend does; a subclass provides the `backend` fixture."""

    @pytest.fixture
    def backend(self):
        raise NotImplementedError

    def test_every_document_is_scored_once_best_first(self, backend):
        results = backend.rerank(QUERY, DOCUMENTS)

        assert sorted(result.index for result in results) == list(range(len(DOCUMENTS)))
        scores = [result.relevance_score for result in results]
        assert scores == sorted(scores, reverse=True)
        assert all(isinstance(score, float) for score in scores)

    def test_the_document_that_answers_ranks_first(self, backend):
        assert backend.rerank(QUERY, DOCUMENTS)[0].index == 1

    def test_top_k_keeps_only_the_best(self, backend):
        everything = backend.rerank(QUERY, DOCUMENTS)

        assert backend.rerank(QUERY, DOCUMENTS, top_k=2) == everything[:2]

    def test_top_k_above_the_document_count_returns_every_document(self, backend):
        assert len(backend.rerank(QUERY, DOCUMENTS, top_k=50)) == len(DOCUMENTS)

    def test_no_documents_give_no_results_and_no_request(self, backend):
        assert backend.rerank(QUERY, []) == []
        assert backend.last_call_stats["requests"] == 0

    def test_more_documents_than_one_request_takes_are_all_scored(self, backend):
        documents = [f"document {i} about refunds" for i in range(backend.max_documents_per_request + 3)]

        results = backend.rerank(QUERY, documents)

        assert sorted(result.index for result in results) == list(range(len(documents)))
        assert backend.last_call_stats["requests"] == 2

    def test_last_call_stats_count_the_documents_and_tokens(self, backend):
        backend.rerank(QUERY, DOCUMENTS)

        stats = backend.last_call_stats
        assert (stats["requests"], stats["texts"]) == (1, len(DOCUMENTS))
        assert stats["tokens"] > 0

    @pytest.mark.parametrize("top_k", [0, -1, 2.5, True])
    def test_top_k_that_is_not_a_positive_whole_number_is_refused(self, backend, top_k):
        with pytest.raises(ValueError, match="top_k"):
            backend.rerank(QUERY, DOCUMENTS, top_k=top_k)

    def test_a_query_over_the_query_limit_fails_permanently_before_any_request(self, backend):
        with pytest.raises(EmbeddingProviderError) as raised:
            backend.rerank("返" * (backend.max_query_tokens + 1), DOCUMENTS)

        assert raised.value.transient is False
        assert backend.last_call_stats["requests"] == 0

    def test_model_name_is_set(self, backend):
        assert backend.model_name


class TestFakeRerankBackend(RerankBackendContract):
    @pytest.fixture
    def backend(self):
        return FakeRerankBackend()


class TestVoyageRerankBackend(RerankBackendContract):
    @pytest.fixture
    def backend(self, fake, make_backend):
        return make_backend()


# --- Voyage on the wire ----------------------------------------------------------------------

def test_request_carries_the_key_query_documents_model_top_k_and_truncation(fake, make_backend):
    make_backend().rerank(QUERY, DOCUMENTS, top_k=2)

    assert fake.headers[0]["Authorization"] == f"Bearer {API_KEY}"
    assert fake.bodies[0] == {"query": QUERY, "documents": DOCUMENTS, "model": "rerank-2.5", "top_k": 2,
                              "truncation": True}


def test_results_are_voyages_scores_best_first(fake, make_backend):
    results = make_backend().rerank(QUERY, DOCUMENTS)

    assert [(r.index, r.relevance_score) for r in results] == voyage_order(QUERY, DOCUMENTS)


def test_rate_limit_is_retried_then_succeeds(fake, make_backend):
    fake.script = [("status", 429)]

    results = make_backend().rerank(QUERY, DOCUMENTS)

    assert len(fake.bodies) == 2
    assert [(r.index, r.relevance_score) for r in results] == voyage_order(QUERY, DOCUMENTS)


def test_server_errors_past_the_retry_cap_are_transient(fake, make_backend):
    fake.script = [("status", 503)] * 10

    with pytest.raises(EmbeddingProviderError) as raised:
        make_backend(max_retries=2).rerank(QUERY, DOCUMENTS)

    assert raised.value.transient is True
    assert len(fake.bodies) == 3


def test_rejected_key_fails_permanently_naming_the_key_after_one_request(fake, make_backend):
    with pytest.raises(EmbeddingProviderError) as raised:
        make_backend(api_key="pa-revoked").rerank(QUERY, DOCUMENTS)

    assert raised.value.transient is False
    assert "Voyage rejected the API key (401): set VOYAGE_API_KEY" in str(raised.value)
    assert "rerank-2.5" in str(raised.value)
    assert len(fake.bodies) == 1


def test_2500_documents_take_three_requests_and_merge_into_one_ranking(fake, make_backend):
    documents = [f"refund note {i}" + (" how long" if i % 7 == 0 else "") for i in range(2500)]

    results = make_backend().rerank(QUERY, documents, top_k=20)

    assert fake.batch_sizes == [1000, 1000, 500]
    assert [body["top_k"] for body in fake.bodies] == [20, 20, 20]
    assert [(r.index, r.relevance_score) for r in results] == voyage_order(QUERY, documents)[:20]


def test_documents_over_the_token_limit_are_packed_into_several_requests(fake, make_backend):
    backend = make_backend()
    documents = [f"{i:04d}" + "返金は5営業日以内に行います。" * 60 for i in range(700)]  # ~900 characters each

    results = backend.rerank(QUERY, documents)

    estimated = [backend.request_tokens(backend.estimate_tokens(QUERY), body["documents"]) for body in fake.bodies]
    assert backend.request_tokens(backend.estimate_tokens(QUERY), documents) > 600_000
    assert len(fake.bodies) == 2
    assert max(estimated) <= 600_000
    assert sorted(r.index for r in results) == list(range(700))


def test_request_refused_as_too_large_is_halved_and_the_scores_merge(fake, make_backend):
    fake.max_rerank_tokens = 300  # Voyage counted more tokens than we estimated
    documents = [f"{i} refunds " + "x" * 80 for i in range(8)]  # ~115 tokens each with the query, for the fake

    results = make_backend().rerank(QUERY, documents)

    assert fake.batch_sizes == [8, 4, 2, 2, 4, 2, 2]
    assert [(r.index, r.relevance_score) for r in results] == voyage_order(QUERY, documents)


def test_single_document_refused_as_too_large_fails_permanently(fake, make_backend):
    fake.max_rerank_tokens = 50

    with pytest.raises(EmbeddingProviderError) as raised:
        make_backend().rerank(QUERY, ["x" * 100])

    assert raised.value.transient is False
    assert "too large" in str(raised.value)


def test_last_call_stats_report_the_tokens_voyage_counted(fake, make_backend):
    fake.script = [("status", 500)]
    backend = make_backend()

    backend.rerank("refund", ["abc", "defgh"])

    assert backend.last_call_stats == {"requests": 1, "texts": 2, "tokens": 6 * 2 + 8, "attempts": 2}


def test_missing_api_key_is_not_configured():
    with pytest.raises(RerankNotConfigured, match="VOYAGE_API_KEY"):
        VoyageRerankBackend(api_key="")


def test_unknown_model_is_not_configured():
    with pytest.raises(RerankNotConfigured, match="rerank-99"):
        VoyageRerankBackend(api_key=API_KEY, model="rerank-99")


# --- chosen by alias in settings -------------------------------------------------------------

@pytest.fixture
def rerank_settings(settings):
    def use(config: dict | None) -> None:
        settings.SEARCH_RERANK_BACKENDS = {"default": config}
        reset_rerank_backends()

    yield use
    reset_rerank_backends()


def test_no_configured_reranker_raises_not_configured(rerank_settings):
    rerank_settings(None)

    with pytest.raises(RerankNotConfigured, match="No reranker is configured"):
        get_rerank_backend()


def test_voyage_without_key_in_settings_is_not_configured(rerank_settings):
    rerank_settings({"BACKEND": "ingestion.embeddings.voyage_rerank.VoyageRerankBackend", "OPTIONS": {"api_key": ""}})

    with pytest.raises(RerankNotConfigured):
        get_rerank_backend()


def test_backend_built_from_settings_options_reranks(fake, server, rerank_settings):
    rerank_settings({
        "BACKEND": "ingestion.embeddings.voyage_rerank.VoyageRerankBackend",
        "OPTIONS": {"api_key": API_KEY, "base_url": f"http://127.0.0.1:{server.port}/v1", "model": "rerank-2.5",
                    "timeout": 5.0, "max_retries": 1, "retry_base_delay": 0.01},
    })

    results = get_rerank_backend().rerank(QUERY, DOCUMENTS)

    assert results[0].index == 1


# --- usage, through the service ---------------------------------------------------------------

@pytest.fixture
def voyage_reranker(server, rerank_settings):
    rerank_settings({
        "BACKEND": "ingestion.embeddings.voyage_rerank.VoyageRerankBackend",
        "OPTIONS": {"api_key": API_KEY, "base_url": f"http://127.0.0.1:{server.port}/v1", "max_retries": 1,
                    "retry_base_delay": 0.01},
        "PRICE_PER_MILLION_TOKENS": 0.05,
    })


def test_service_records_the_rerank_usage_for_the_workspace(fake, voyage_reranker, workspace):
    outcome = services.documents_rerank(workspace_id=workspace.pk, query="refund", documents=["abc", "defgh"])

    usage_flush()
    usage = EmbeddingUsage.objects.get(workspace=workspace)
    assert (usage.model, usage.requests, usage.texts, usage.tokens) == ("rerank-2.5", 1, 2, 20)
    assert float(usage.cost_usd) == pytest.approx(20 * 0.05 / 1_000_000)
    assert outcome.model == "rerank-2.5"
    assert [r.index for r in outcome.results] == [i for i, _ in voyage_order("refund", ["abc", "defgh"])]


def test_service_records_no_usage_when_the_key_is_rejected(fake, server, rerank_settings, workspace):
    rerank_settings({
        "BACKEND": "ingestion.embeddings.voyage_rerank.VoyageRerankBackend",
        "OPTIONS": {"api_key": "pa-revoked", "base_url": f"http://127.0.0.1:{server.port}/v1"},
    })

    with pytest.raises(EmbeddingProviderError):
        services.documents_rerank(workspace_id=workspace.pk, query="refund", documents=["abc"])

    usage_flush()
    assert not EmbeddingUsage.objects.filter(workspace=workspace).exists()


def test_service_without_a_reranker_raises_not_configured(rerank_settings, workspace):
    rerank_settings(None)

    with pytest.raises(RerankNotConfigured):
        services.documents_rerank(workspace_id=workspace.pk, query="refund", documents=["abc"])
