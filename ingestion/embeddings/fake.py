"""A deterministic provider for plumbing tests: equal texts get equal vectors, no model, no network.

Its vectors carry no meaning; search-quality tests use the local model.
"""

from __future__ import annotations

import hashlib
import math

from ingestion.embeddings.base import BaseEmbeddingBackend


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
