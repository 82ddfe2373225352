"""A local fake of Voyage's HTTP API (POST /v1/embeddings and /v1/rerank) speaking its real wire format.

Tests serve it with pytest-httpserver; the backends under test reach it through the real
`voyageai` client and requests, so only the far side of the network is fake.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import threading
import time

import numpy as np
from werkzeug import Request, Response

API_KEY = "pa-test-key"
DIMENSIONS = 1024


def expected_vector(text: str) -> list[float]:
    """What the fake returns for `text` (as float32, which is what crosses the wire)."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    raw = np.array([digest[i % 32] - 127.5 for i in range(DIMENSIONS)], dtype="<f4")
    return (raw / np.linalg.norm(raw)).astype("<f4").tolist()


def expected_relevance(query: str, document: str) -> float:
    """What the fake's reranker scores: the share of the query's words in the document,
    plus a small hash-derived part so that documents rarely tie."""
    query_words = set(re.findall(r"\w+", query.lower()))
    shared = len(query_words & set(re.findall(r"\w+", document.lower())))
    overlap = shared / len(query_words) if query_words else 0.0
    return round(0.9 * overlap + 0.1 * hashlib.sha256(document.encode("utf-8")).digest()[0] / 255, 6)


class FakeVoyage:
    """Answers like api.voyageai.com/v1/embeddings and /v1/rerank: checks the key and the
    body, counts one token per character, refuses over-limit requests with Voyage's 400, and
    can be scripted to fail (status codes) or stall (sleep) on the next requests."""

    def __init__(self) -> None:
        self.bodies: list[dict] = []
        self.headers: list[dict] = []
        self.script: list[tuple[str, float]] = []  # ("status", 429) or ("sleep", 1.0)
        self.max_batch_tokens = 320_000
        self.max_rerank_tokens = 600_000  # query tokens × documents + document tokens
        self.shuffle = False
        self._lock = threading.Lock()

    def __call__(self, request: Request) -> Response:
        body = request.get_json()
        with self._lock:
            self.bodies.append(body)
            self.headers.append(dict(request.headers))
            action = self.script.pop(0) if self.script else None
        if request.headers.get("Authorization") != f"Bearer {API_KEY}":
            return _json(401, {"detail": "Provided API key is invalid."})
        if action and action[0] == "sleep":
            time.sleep(action[1])
        elif action:
            return _json(int(action[1]), {"detail": f"Scripted failure {action[1]}."})
        if request.path.endswith("/rerank"):
            return self._rerank(body)
        return self._embeddings(body)

    def _embeddings(self, body: dict) -> Response:
        texts = body["input"]
        if len(texts) > 1000:
            return _json(400, {"detail": f"The batch size limit is 1000. Your batch size is {len(texts)}."})
        tokens = sum(len(text) for text in texts)
        if tokens > self.max_batch_tokens:
            return _json(400, {"detail": _too_many_tokens(body["model"], self.max_batch_tokens, tokens)})
        data = [
            {"object": "embedding", "embedding": self._encode(expected_vector(text), body), "index": index}
            for index, text in enumerate(texts)
        ]
        if self.shuffle:
            data.reverse()
        return _json(200, {"object": "list", "data": data, "model": body["model"], "usage": {"total_tokens": tokens}})

    def _rerank(self, body: dict) -> Response:
        query, documents, top_k = body["query"], body["documents"], body.get("top_k")
        if not documents or len(documents) > 1000:
            return _json(400, {"detail": f"The number of documents must be 1 to 1000; got {len(documents)}."})
        if len(query) > 8000:
            return _json(400, {"detail": "The query exceeds the maximum allowed 8000 tokens."})
        tokens = len(query) * len(documents) + sum(len(document) for document in documents)
        if tokens > self.max_rerank_tokens:
            return _json(400, {"detail": _too_many_tokens(body["model"], self.max_rerank_tokens, tokens)})
        data = sorted(
            ({"index": index, "relevance_score": expected_relevance(query, document)}
             for index, document in enumerate(documents)),
            key=lambda item: -item["relevance_score"],
        )[: top_k or None]
        return _json(200, {"object": "list", "data": data, "model": body["model"], "usage": {"total_tokens": tokens}})

    @staticmethod
    def _encode(vector: list[float], body: dict):
        if body.get("encoding_format") == "base64":
            return base64.b64encode(np.array(vector, dtype="<f4").tobytes()).decode("ascii")
        return vector

    @property
    def batch_sizes(self) -> list[int]:
        return [len(body.get("input") or body.get("documents")) for body in self.bodies]


def _too_many_tokens(model: str, limit: int, tokens: int) -> str:
    return (
        f"Request to model '{model}' failed. The max allowed tokens per submitted batch is "
        f"{limit}. Your batch has {tokens} tokens after truncation. Please lower the "
        "number of tokens in the batch."
    )


def _json(status: int, payload: dict) -> Response:
    return Response(json.dumps(payload), status=status, content_type="application/json")
