"""The Voyage embedding backend against a local fake of Voyage's POST /v1/embeddings (real wire format)."""

from __future__ import annotations

import time

import pytest
from pytest_httpserver import HTTPServer

from ingestion.embeddings import (
    EmbeddingNotConfigured,
    EmbeddingProviderError,
    get_embedding_backend,
    reset_embedding_backends,
)
from ingestion.embeddings.voyage import VoyageEmbeddingBackend
from tests.ingestion.fake_voyage import API_KEY, FakeVoyage, expected_vector
from tests.servers import free_port


@pytest.fixture(scope="module")
def server():
    # Threaded, so a request stalled on purpose does not hold up the client's retry.
    server = HTTPServer(host="127.0.0.1", port=0, threaded=True)
    server.start()
    yield server
    server.clear()
    server.stop()


@pytest.fixture
def fake(server):
    server.clear()
    fake = FakeVoyage()
    server.expect_request("/v1/embeddings", method="POST").respond_with_handler(fake)
    return fake


@pytest.fixture
def make_backend(server):
    def make(**options) -> VoyageEmbeddingBackend:
        options = {
            "api_key": API_KEY,
            "base_url": f"http://127.0.0.1:{server.port}/v1",
            "timeout": 5.0,
            "max_retries": 3,
            "retry_base_delay": 0.01,
            **options,
        }
        return VoyageEmbeddingBackend(**options)

    return make


def test_documents_are_sent_with_the_key_model_and_input_type_document(fake, make_backend):
    make_backend().embed_documents(["Refunds take 5 days.", "返金は5営業日以内です。"])

    assert fake.headers[0]["Authorization"] == f"Bearer {API_KEY}"
    assert fake.headers[0]["Content-Type"] == "application/json"
    assert fake.bodies[0]["input"] == ["Refunds take 5 days.", "返金は5営業日以内です。"]
    assert fake.bodies[0]["model"] == "voyage-3.5"
    assert fake.bodies[0]["input_type"] == "document"


def test_query_is_sent_with_input_type_query(fake, make_backend):
    vector = make_backend().embed_query("how long do refunds take")

    assert fake.bodies[0]["input"] == ["how long do refunds take"]
    assert fake.bodies[0]["input_type"] == "query"
    assert vector == expected_vector("how long do refunds take")


def test_vectors_have_the_model_dimensions(fake, make_backend):
    backend = make_backend()

    vectors = backend.embed_documents(["one", "two"])

    assert backend.model_name == "voyage-3.5"
    assert backend.dimensions == 1024
    assert [len(v) for v in vectors] == [1024, 1024]


def test_vectors_come_back_in_input_order_when_the_response_is_shuffled(fake, make_backend):
    fake.shuffle = True
    texts = [f"paragraph {i}" for i in range(5)]

    vectors = make_backend().embed_documents(texts)

    assert vectors == [expected_vector(t) for t in texts]


def test_no_texts_make_no_request(fake, make_backend):
    assert make_backend().embed_documents([]) == []
    assert fake.bodies == []


def test_2500_short_texts_take_three_requests_of_at_most_1000(fake, make_backend):
    texts = [f"short chunk number {i}" for i in range(2500)]

    vectors = make_backend().embed_documents(texts)

    assert fake.batch_sizes == [1000, 1000, 500]
    assert vectors[2499] == expected_vector(texts[2499])


def test_texts_over_the_token_limit_are_packed_into_several_requests(fake, make_backend):
    backend = make_backend()
    texts = [f"{i:04d}" + "返金は5営業日以内に行います。" * 66 for i in range(300)]  # ~1,000 chars each

    backend.embed_documents(texts)

    estimated = [sum(backend.estimate_tokens(t) for t in body["input"]) for body in fake.bodies]
    assert sum(backend.estimate_tokens(t) for t in texts) > 320_000
    assert len(fake.bodies) == 2
    assert max(estimated) <= 320_000
    assert sum(fake.batch_sizes) == 300


def test_japanese_is_estimated_at_least_one_token_per_character(make_backend):
    assert make_backend().estimate_tokens("返金は5営業日以内に行います。") >= len("返金は5営業日以内に行います。")


def test_batch_refused_as_too_large_is_split_in_halves(fake, make_backend):
    fake.max_batch_tokens = 250  # Voyage counts more tokens than we estimated
    texts = [f"{i} " + "x" * 98 for i in range(8)]  # 100 tokens each for the fake

    vectors = make_backend().embed_documents(texts)

    assert fake.batch_sizes == [8, 4, 2, 2, 4, 2, 2]
    assert vectors == [expected_vector(t) for t in texts]


def test_single_text_refused_as_too_large_fails_permanently(fake, make_backend):
    fake.max_batch_tokens = 50

    with pytest.raises(EmbeddingProviderError) as raised:
        make_backend().embed_documents(["x" * 100])

    assert raised.value.transient is False
    assert "too large" in str(raised.value)
    assert len(fake.bodies) == 1


def test_rate_limit_is_retried(fake, make_backend):
    fake.script = [("status", 429)]

    vectors = make_backend().embed_documents(["a", "b"])

    assert fake.batch_sizes == [2, 2]
    assert vectors == [expected_vector("a"), expected_vector("b")]


@pytest.mark.parametrize("status", [500, 502, 503])
def test_server_error_is_retried(fake, make_backend, status):
    fake.script = [("status", status), ("status", status)]

    vectors = make_backend().embed_documents(["a"])

    assert len(fake.bodies) == 3
    assert vectors == [expected_vector("a")]


def test_retries_stop_at_max_retries_with_a_transient_error(fake, make_backend):
    fake.script = [("status", 503)] * 10

    with pytest.raises(EmbeddingProviderError) as raised:
        make_backend(max_retries=2).embed_documents(["a"])

    assert raised.value.transient is True
    assert len(fake.bodies) == 3


def test_client_library_does_not_retry_on_its_own(fake, make_backend):
    fake.script = [("status", 429)]

    with pytest.raises(EmbeddingProviderError):
        make_backend(max_retries=0).embed_documents(["a"])

    assert len(fake.bodies) == 1


def test_rejected_key_fails_permanently_with_a_clear_message_after_one_request(fake, make_backend):
    with pytest.raises(EmbeddingProviderError) as raised:
        make_backend(api_key="pa-revoked").embed_documents(["a", "b"])

    assert raised.value.transient is False
    assert "Voyage rejected the API key (401): set VOYAGE_API_KEY" in str(raised.value)
    assert len(fake.bodies) == 1


def test_forbidden_fails_permanently_without_retry(fake, make_backend):
    fake.script = [("status", 403)]

    with pytest.raises(EmbeddingProviderError) as raised:
        make_backend().embed_documents(["a"])

    assert raised.value.transient is False
    assert "(403)" in str(raised.value)
    assert len(fake.bodies) == 1


def test_other_client_error_fails_permanently_without_retry(fake, make_backend):
    fake.script = [("status", 422)]

    with pytest.raises(EmbeddingProviderError) as raised:
        make_backend().embed_documents(["a"])

    assert raised.value.transient is False
    assert len(fake.bodies) == 1


def test_timeout_is_retried(fake, make_backend):
    fake.script = [("sleep", 1.5)]

    started = time.monotonic()
    vectors = make_backend(timeout=0.3).embed_documents(["a"])

    assert len(fake.bodies) == 2
    assert vectors == [expected_vector("a")]
    assert time.monotonic() - started < 1.5  # the retry did not wait for the stalled request


def test_unreachable_server_is_retried_then_transient(make_backend):
    port = free_port()  # nothing listens there

    with pytest.raises(EmbeddingProviderError) as raised:
        make_backend(base_url=f"http://127.0.0.1:{port}/v1", max_retries=1).embed_documents(["a"])

    assert raised.value.transient is True
    assert "failed 2 times" in str(raised.value)


def test_last_call_stats_report_the_tokens_voyage_counted(fake, make_backend):
    fake.script = [("status", 503)]
    backend = make_backend()

    backend.embed_documents(["abc", "defgh"])

    assert backend.last_call_stats == {"requests": 1, "texts": 2, "tokens": 8, "attempts": 2}


def test_last_call_stats_count_each_request_of_a_split_call(fake, make_backend):
    backend = make_backend()

    backend.embed_documents([f"chunk {i}" for i in range(1500)])

    assert backend.last_call_stats["requests"] == 2
    assert backend.last_call_stats["texts"] == 1500


def test_missing_api_key_is_not_configured():
    with pytest.raises(EmbeddingNotConfigured, match="VOYAGE_API_KEY"):
        VoyageEmbeddingBackend(api_key="", model="voyage-3.5")


def test_get_embedding_backend_reports_voyage_without_key_as_not_configured(settings):
    settings.SEARCH_EMBEDDING_BACKENDS = {
        "default": {"BACKEND": "ingestion.embeddings.voyage.VoyageEmbeddingBackend", "OPTIONS": {"api_key": ""}}
    }
    reset_embedding_backends()
    try:
        with pytest.raises(EmbeddingNotConfigured):
            get_embedding_backend()
    finally:
        reset_embedding_backends()


def test_unknown_model_without_dimensions_is_not_configured():
    with pytest.raises(EmbeddingNotConfigured, match="voyage-99"):
        VoyageEmbeddingBackend(api_key=API_KEY, model="voyage-99")


def test_backend_built_from_settings_options_embeds(fake, server, settings):
    settings.SEARCH_EMBEDDING_BACKENDS = {
        "default": {
            "BACKEND": "ingestion.embeddings.voyage.VoyageEmbeddingBackend",
            "OPTIONS": {
                "api_key": API_KEY,
                "base_url": f"http://127.0.0.1:{server.port}/v1",
                "model": "voyage-3.5",
                "timeout": 5.0,
                "max_retries": 1,
                "retry_base_delay": 0.01,
                "threads": 1,  # the local model's option: every backend receives the same OPTIONS
            },
        }
    }
    reset_embedding_backends()
    try:
        vector = get_embedding_backend().embed_query("refund")
    finally:
        reset_embedding_backends()

    assert vector == expected_vector("refund")


def test_query_gets_one_quick_retry_while_documents_keep_their_patient_retries(fake, make_backend):
    backend = make_backend(max_retries=3, query_max_retries=1, query_retry_max_delay=0.01)
    fake.script = [("status", 503)] * 3

    assert backend.embed_documents(["a"]) == [expected_vector("a")]  # fourth attempt succeeded
    fake.script = [("status", 503)] * 3
    with pytest.raises(EmbeddingProviderError) as raised:
        backend.embed_query("a")
    assert raised.value.transient is True
    assert "failed 2 times" in str(raised.value)


def test_query_uses_its_own_short_timeout(fake, make_backend):
    fake.script = [("sleep", 1.5), ("sleep", 1.5)]

    with pytest.raises(EmbeddingProviderError):
        make_backend(timeout=5.0, query_timeout=0.2, query_max_retries=1, query_retry_max_delay=0.01).embed_query("a")

    assert len(fake.bodies) == 2  # both attempts timed out at 0.2 s, not 5 s
