"""Voyage AI embeddings (voyage-3.5 by default); requests, retries and errors go through voyage_client."""

from __future__ import annotations

from collections.abc import Sequence

import voyageai

from ingestion.embeddings.base import BaseEmbeddingBackend, EmbeddingNotConfigured, EmbeddingProviderError
from ingestion.embeddings.voyage_client import (
    MalformedResponse,
    VoyageBackendMixin,
    VoyageClient,
    client_options,
    split_on_refusal,
)

# model -> (dimensions, tokens per request). Every model takes at most 1,000 texts a request.
KNOWN_MODELS: dict[str, tuple[int, int]] = {
    "voyage-3.5": (1024, 320_000),
    "voyage-3.5-lite": (1024, 1_000_000),
    "voyage-3-large": (1024, 120_000),
    "voyage-code-3": (1024, 120_000),
    "voyage-multilingual-2": (1024, 120_000),
}


class VoyageEmbeddingBackend(VoyageBackendMixin, BaseEmbeddingBackend):
    """Voyage embeddings; `input_type` is "document" for chunks and "query" for queries.

    `_embed` packs texts into requests within `max_batch_texts` and `max_batch_tokens`,
    splits a batch Voyage still refuses as too large in halves (a single refused text is a
    permanent error), and retries as VoyageClient does. `last_call_stats` counts the tokens
    Voyage reported, plus "attempts": every HTTP request made, including retried and
    refused ones.
    """

    max_batch_texts = 1000
    max_batch_tokens = 320_000

    def __init__(
        self,
        *,
        api_key: str = "",
        model: str = "voyage-3.5",
        dimensions: int | None = None,
        query_timeout: float = 2.0,
        query_max_retries: int = 1,
        query_retry_max_delay: float = 0.5,
        **options,
    ):
        client = client_options(options)
        super().__init__(**options)
        if not api_key:
            raise EmbeddingNotConfigured(
                "Voyage is the embedding provider but VOYAGE_API_KEY is not set. Set it, or set "
                "EMBEDDING_PROVIDER=local for the offline model."
            )
        known = KNOWN_MODELS.get(model)
        if known is None and not dimensions:
            raise EmbeddingNotConfigured(
                f"Unknown Voyage model {model!r}: its dimension is not known. Use one of "
                f"{', '.join(sorted(KNOWN_MODELS))}, or pass `dimensions` in the backend OPTIONS."
            )
        self.model_name = model
        self.dimensions = int(dimensions or known[0])
        if known is not None:
            self.max_batch_tokens = known[1]
        self._client = VoyageClient(api_key=api_key, model=model, **client)
        # A query has a caller waiting: a short timeout and at most one quick retry, then the
        # search answers 503. Documents (ingestion) keep the patient client above.
        self._query_client = VoyageClient(
            api_key=api_key, model=model, **{
                **client, "timeout": query_timeout, "max_retries": query_max_retries,
                "retry_max_delay": query_retry_max_delay,
            },
        )

    def _embed(self, texts: list[str], *, input_type: str) -> list[list[float]]:
        vectors: list[list[float]] = []
        for batch in self.batches(texts):
            vectors.extend(split_on_refusal(
                [texts[i] for i in batch],
                lambda part: self._request(part, input_type),
                describe_one=lambda text: f"a single text of about {self.estimate_tokens(text)} tokens",
            ))
        return vectors

    def _request(self, texts: Sequence[str], input_type: str) -> list[list[float]]:
        texts = list(texts)
        client = self._query_client if input_type == "query" else self._client
        return client.request(
            voyageai.Embedding,
            what=f"a batch of {len(texts)} texts",
            parse=lambda response: self._vectors_from(response, texts),
            on_attempt=self._count_attempt,
            input=texts,
            input_type=input_type,
            truncation=True,
        )

    def _vectors_from(self, response, texts: list[str]) -> list[list[float]]:
        """Vectors in input order (sorted by `index`), after recording the usage Voyage reports."""
        data = list(response["data"])
        indexes = sorted(item["index"] for item in data)
        if indexes != list(range(len(texts))):
            raise MalformedResponse(f"{len(texts)} texts sent, indexes {indexes[:5]}... returned")
        vectors = [[float(x) for x in item["embedding"]] for item in sorted(data, key=lambda item: item["index"])]
        if any(len(vector) != self.dimensions for vector in vectors):
            raise EmbeddingProviderError(
                f"Voyage returned {len(vectors[0])}-dimension vectors for {self.model_name}; "
                f"{self.dimensions} were expected.",
                transient=False,
            )
        usage = response.get("usage") or {}
        tokens = int(usage.get("total_tokens") or 0) or sum(self.estimate_tokens(t) for t in texts)
        self._record_request(texts=len(texts), tokens=tokens)
        return vectors
