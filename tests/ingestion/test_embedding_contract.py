"""What every embedding backend does: one contract class, subclassed per backend (STYLE.md).

The fake, the offline models (USE multilingual, MiniLM, multilingual-E5-small) and Voyage (against the fake
Voyage HTTP server) pass the same tests; each subclass only provides its `backend`.
"""

from __future__ import annotations

import math

import pytest
from pytest_httpserver import HTTPServer

from ingestion.embeddings.e5 import RUNTIMES, E5EmbeddingBackend
from ingestion.embeddings.fake import FakeEmbeddingBackend
from ingestion.embeddings.local import LocalEmbeddingBackend
from ingestion.embeddings.minilm import MiniLMEmbeddingBackend
from ingestion.embeddings.voyage import VoyageEmbeddingBackend
from tests.ingestion.fake_voyage import API_KEY, FakeVoyage

TEXTS = ["Refunds take five business days.", "Orders ship from Osaka.", "返品は30日以内に受け付けます。"]


def norm(vector: list[float]) -> float:
    return math.sqrt(sum(x * x for x in vector))


def cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True)) / (norm(a) * norm(b))


class EmbeddingBackendContract:
    """A subclass provides the `backend` fixture."""

    @pytest.fixture
    def backend(self):
        raise NotImplementedError

    def test_one_vector_per_text_of_the_model_dimensions(self, backend):
        vectors = backend.embed_documents(TEXTS)

        assert len(vectors) == len(TEXTS)
        assert all(len(vector) == backend.dimensions for vector in vectors)
        assert all(isinstance(x, float) for x in vectors[0])

    def test_vectors_are_unit_length(self, backend):
        for vector in backend.embed_documents(TEXTS):
            assert norm(vector) == pytest.approx(1.0, abs=1e-3)

    def test_vectors_follow_the_input_order(self, backend):
        together = backend.embed_documents(TEXTS)
        one_by_one = [backend.embed_documents([text])[0] for text in TEXTS]

        for a, b in zip(together, one_by_one, strict=True):
            assert cosine(a, b) == pytest.approx(1.0, abs=1e-4)

    def test_the_same_text_gives_the_same_vector(self, backend):
        first, second = backend.embed_documents([TEXTS[0], TEXTS[0]])

        assert cosine(first, second) == pytest.approx(1.0, abs=1e-5)

    def test_a_query_gives_one_vector(self, backend):
        vector = backend.embed_query("refund")

        assert len(vector) == backend.dimensions
        assert norm(vector) == pytest.approx(1.0, abs=1e-3)

    def test_queries_in_one_call_are_each_the_query_vector(self, backend):
        together = backend.embed_queries(TEXTS[:2])

        assert backend.last_call_stats["texts"] == 2
        for vector, text in zip(together, TEXTS[:2], strict=True):
            assert cosine(vector, backend.embed_query(text)) == pytest.approx(1.0, abs=1e-4)

    def test_no_texts_give_no_vectors(self, backend):
        assert backend.embed_documents([]) == []

    def test_last_call_stats_count_the_texts(self, backend):
        backend.embed_documents(TEXTS)

        stats = backend.last_call_stats
        assert stats["texts"] == len(TEXTS) and stats["requests"] >= 1 and stats["tokens"] > 0

    def test_batches_respect_the_limits(self, backend):
        texts = [f"text number {i} " * 20 for i in range(backend.max_batch_texts * 2 + 1)]

        batches = backend.batches(texts)

        assert sorted(i for batch in batches for i in batch) == list(range(len(texts)))
        assert all(len(batch) <= backend.max_batch_texts for batch in batches)

    def test_load_twice_then_embed_is_the_same_as_embedding(self, backend):
        # The worker-start hook (ingestion/worker_start.py): ready to embed, no request, no change.
        before = backend.embed_documents(["warm"])
        backend.load()
        backend.load()
        assert backend.embed_documents(["warm"]) == before

    def test_model_name_and_dimensions_are_set(self, backend):
        assert backend.model_name and backend.dimensions > 0


class TestFakeEmbeddingBackend(EmbeddingBackendContract):
    @pytest.fixture
    def backend(self):
        return FakeEmbeddingBackend()


# The offline models load their weights once per module.
@pytest.fixture(scope="module")
def use_model():
    return LocalEmbeddingBackend(threads=1)


@pytest.fixture(scope="module")
def minilm_model():
    return MiniLMEmbeddingBackend(threads=1)


class TestLocalEmbeddingBackend(EmbeddingBackendContract):
    @pytest.fixture
    def backend(self, use_model):
        return use_model


class TestMiniLMEmbeddingBackend(EmbeddingBackendContract):
    @pytest.fixture
    def backend(self, minilm_model):
        return minilm_model

    def test_it_reproduces_the_published_model(self, backend):
        # sentence-transformers' own example for all-MiniLM-L6-v2: "A man is eating food." is
        # 0.7553 from "A man is eating a piece of bread." and 0.2474 from "A man is riding a
        # horse." (what the PyTorch model prints); a numpy forward pass that is right gives
        # the same to four places.
        food, bread, horse = backend.embed_documents(
            ["A man is eating food.", "A man is eating a piece of bread.", "A man is riding a horse."]
        )

        assert cosine(food, bread) == pytest.approx(0.7553, abs=5e-4)
        assert cosine(food, horse) == pytest.approx(0.2474, abs=5e-4)

    def test_a_paraphrase_is_nearer_than_another_topic(self, backend):
        query = backend.embed_query("How do I get my money back?")
        refund, shipping = backend.embed_documents(["Refund policy: return any item within 30 days.",
                                                    "Orders ship from our warehouse within two days."])

        assert cosine(query, refund) > cosine(query, shipping) + 0.2

    def test_long_text_is_truncated_not_refused(self, backend):
        (vector,) = backend.embed_documents(["refund " * 2000])

        assert norm(vector) == pytest.approx(1.0, abs=1e-3)


@pytest.fixture(scope="module", params=RUNTIMES)
def e5_model(request, tmp_path_factory):
    return E5EmbeddingBackend(threads=1, e5_runtime=request.param, e5_cache_dir=str(tmp_path_factory.mktemp("e5")))


class TestE5EmbeddingBackend(EmbeddingBackendContract):
    """Both runtimes, `onnx` (int8, the default) and `numpy` (fp32)."""

    @pytest.fixture
    def backend(self, e5_model):
        return e5_model

    def test_a_paraphrase_is_nearer_than_another_topic(self, backend):
        query = backend.embed_query("How do I get my money back?")
        refund, shipping = backend.embed_documents(["Refund policy: return any item within 30 days.",
                                                    "Orders ship from our warehouse within two days."])

        # E5's cosines lie in a narrow band (about 0.7 to 0.9): its margins are small ones.
        assert cosine(query, refund) > cosine(query, shipping) + 0.02

    def test_a_japanese_query_finds_english_text(self, backend):
        query = backend.embed_query("返金にはどのくらいかかりますか")
        refund, shipping = backend.embed_documents(["Refunds take five business days.",
                                                    "Orders ship from Osaka."])

        assert cosine(query, refund) > cosine(query, shipping)


@pytest.fixture(scope="module")
def voyage_server():
    server = HTTPServer(host="127.0.0.1", port=0, threaded=True)
    server.start()
    server.expect_request("/v1/embeddings", method="POST").respond_with_handler(FakeVoyage())
    yield server
    server.clear()
    server.stop()


class TestVoyageEmbeddingBackend(EmbeddingBackendContract):
    @pytest.fixture
    def backend(self, voyage_server):
        return VoyageEmbeddingBackend(api_key=API_KEY, base_url=f"http://127.0.0.1:{voyage_server.port}/v1",
                                      timeout=5.0, max_retries=1, retry_base_delay=0.01)
