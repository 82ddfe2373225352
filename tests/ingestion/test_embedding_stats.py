"""Every backend reports what its last call cost in `last_call_stats` (for usage accounting)."""

from __future__ import annotations

import threading

from ingestion.embeddings.fake import FakeEmbeddingBackend
from ingestion.embeddings.local import LocalEmbeddingBackend


def test_stats_are_empty_before_any_call():
    assert FakeEmbeddingBackend().last_call_stats == {"requests": 0, "texts": 0, "tokens": 0}


def test_fake_backend_counts_one_request_per_call_with_estimated_tokens():
    backend = FakeEmbeddingBackend()

    backend.embed_documents(["Refunds take 5 days.", "返金は5営業日以内です。"])

    expected_tokens = backend.estimate_tokens("Refunds take 5 days.") + backend.estimate_tokens("返金は5営業日以内です。")
    assert backend.last_call_stats == {"requests": 1, "texts": 2, "tokens": expected_tokens}


def test_stats_describe_only_the_last_call():
    backend = FakeEmbeddingBackend()
    backend.embed_documents(["one", "two", "three"])

    backend.embed_query("refund")

    assert backend.last_call_stats["texts"] == 1


def test_stats_are_kept_per_thread():
    backend = FakeEmbeddingBackend()
    backend.embed_documents(["one", "two"])

    other = threading.Thread(target=backend.embed_documents, args=(["a", "b", "c", "d"],))
    other.start()
    other.join()

    assert backend.last_call_stats["texts"] == 2


def test_local_backend_counts_one_request_per_call_with_estimated_tokens():
    backend = LocalEmbeddingBackend(threads=1)

    vectors = backend.embed_documents(["Refunds take 5 days.", "返金は5営業日以内です。"])

    assert len(vectors) == 2
    assert backend.last_call_stats["requests"] == 1
    assert backend.last_call_stats["texts"] == 2
    assert backend.last_call_stats["tokens"] > 0
