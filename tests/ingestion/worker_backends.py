"""Embedding backends for tests that run a real worker process (named by dotted path in
EMBEDDING_PROVIDER, so the worker imports them).

OtherFakeBackend is a second model to switch to (another name and dimension), which can
log its requests (JSON lines: pid, texts) to $OTHER_BACKEND_MARKER and sleep $OTHER_BACKEND_SECONDS in each.
SlowFakeBackend sleeps in every request, so a test can kill the worker mid-batch, and
appends a line per request to $SLOW_BACKEND_MARKER so the test knows when that is.
"""

from __future__ import annotations

import json
import os
import time

import pytest

from ingestion.embeddings import reset_embedding_backends
from ingestion.embeddings.base import EmbeddingProviderError
from ingestion.embeddings.fake import FakeEmbeddingBackend


class SlowFakeBackend(FakeEmbeddingBackend):
    max_batch_texts = 4

    def _embed(self, texts: list[str], *, input_type: str) -> list[list[float]]:
        marker = os.environ.get("SLOW_BACKEND_MARKER")
        if marker:
            with open(marker, "a", encoding="utf-8") as handle:
                handle.write(f"{os.getpid()} {len(texts)}\n")
        time.sleep(float(os.environ.get("SLOW_BACKEND_SECONDS", "1.0")))
        return super()._embed(texts, input_type=input_type)


class OtherFakeBackend(FakeEmbeddingBackend):
    """A second model for switch tests: another name, 8 dimensions, its own call log."""

    model_name = "fake-other-8"
    dimensions = 8
    max_batch_texts = 4
    calls: list[tuple[str, list[str]]] = []

    def _embed(self, texts: list[str], *, input_type: str) -> list[list[float]]:
        marker = os.environ.get("OTHER_BACKEND_MARKER")
        if marker:
            with open(marker, "a", encoding="utf-8") as handle:
                handle.write(json.dumps({"pid": os.getpid(), "texts": texts}) + "\n")
        time.sleep(float(os.environ.get("OTHER_BACKEND_SECONDS", "0")))
        OtherFakeBackend.calls.append((input_type, list(texts)))
        return [self._vector(text) for text in texts]


class FailingBackend(FakeEmbeddingBackend):
    """Every request fails with a provider error, transient or not as the test sets the class attribute."""

    transient = True

    def _embed(self, texts, *, input_type):
        raise EmbeddingProviderError("provider said 503", transient=FailingBackend.transient)


# The second model the switch tests move to, and the worker environment that registers it.
OTHER = "fake-other-8"
EXTRA = {"EMBEDDING_BACKENDS_EXTRA": "other=tests.ingestion.worker_backends.OtherFakeBackend"}


@pytest.fixture
def other_model(settings):
    """OtherFakeBackend as the `other` model in this process too (the workers get EXTRA)."""
    settings.SEARCH_EMBEDDING_MODELS = {
        **settings.SEARCH_EMBEDDING_MODELS,
        "other": {"BACKEND": "tests.ingestion.worker_backends.OtherFakeBackend", "OPTIONS": {}},
    }
    reset_embedding_backends()
