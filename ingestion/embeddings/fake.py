"""Deterministic providers for plumbing tests: no model, no network.

Equal texts get equal vectors, which carry no meaning (search-quality tests use the local
model); the fake reranker scores word overlap.
"""

from __future__ import annotations

import hashlib
import math
import re

from ingestion.embeddings.base import BaseEmbeddingBackend
from ingestion.embeddings.rerank import BaseRerankBackend, RerankResult


class FakeEmbeddingBackend(BaseEmbeddingBackend):
    model_name = "fake-hash-16"
    dimensions = 16
    max_batch_texts = 8
    max_batch_tokens = 10_000

    calls: list[tuple[str, int]] = []  # (input_type, number of texts), for tests to inspect

    def _embed(self, texts: list[str], *, input_type: str) -> list[list[float]]:
        FakeEmbeddingBackend.calls.append((input_type, len(texts)))
        return [self._vector(text) for text in texts]

    def _vector(self, text: str) -> list[float]:
        digest = hashlib.sha256(text.encode("utf-8")).digest()
        raw = [b - 127.5 for b in digest[: self.dimensions]]
        norm = math.sqrt(sum(x * x for x in raw)) or 1.0
        return [x / norm for x in raw]


class FakeRerankBackend(BaseRerankBackend):
    """Scores a document by the share of the query's distinct words it contains (0 to 1).

    Deterministic and meaningful enough to check plumbing: a document that repeats the
    query scores 1, one that shares no word scores 0.
    """

    model_name = "fake-overlap"
    max_documents_per_request = 8

    calls: list[int] = []  # documents per request, for tests to inspect

    def _rerank(self, query: str, documents: list[str], top_k: int | None) -> list[RerankResult]:
        query_words = _words(query)
        results: list[RerankResult] = []
        for batch in self.request_batches(query, documents):
            FakeRerankBackend.calls.append(len(batch))
            part = [documents[index] for index in batch]
            self._record_request(texts=len(batch), tokens=self.request_tokens(self.estimate_tokens(query), part))
            for index in batch:
                shared = len(query_words & _words(documents[index]))
                score = shared / len(query_words) if query_words else 0.0
                results.append(RerankResult(index=index, relevance_score=score))
        return results


def _words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.lower()))
