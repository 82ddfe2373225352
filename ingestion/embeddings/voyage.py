"""Voyage AI embeddings (voyage-3.5 by default) through the `voyageai` client.

Retries are ours alone. We call `voyageai.Embedding.create`, the request that
`voyageai.Client.embed` makes inside its tenacity retry loop, for two reasons: that loop
would retry 429/502-504/timeouts on its own schedule (1-16 s waits) under ours, and
`Client.embed` drops each vector's `index`, which we need to return vectors in input
order. The one retry left inside the library is requests' connection-level retry on
https (at most 2 reconnects when a TCP connection cannot be opened, before any request
is sent); it is bounded and cannot double a request.
"""

from __future__ import annotations

import logging
import math
import random
import re
import time

import voyageai
from voyageai import error as voyage_error

from ingestion.embeddings.base import BaseEmbeddingBackend, EmbeddingNotConfigured, EmbeddingProviderError

logger = logging.getLogger(__name__)

# model -> (dimensions, tokens per request). Every model takes at most 1,000 texts a request.
KNOWN_MODELS: dict[str, tuple[int, int]] = {
    "voyage-3.5": (1024, 320_000),
    "voyage-3.5-lite": (1024, 1_000_000),
    "voyage-3-large": (1024, 120_000),
    "voyage-code-3": (1024, 120_000),
    "voyage-multilingual-2": (1024, 120_000),
}

# Voyage's tokenizer counts more tokens than tiktoken-like estimates, and rarer kanji take
# more than one token each; padding the base estimate keeps packed batches under the limit
# (a batch refused anyway is split, but that costs a request).
TOKEN_ESTIMATE_MARGIN = 1.25

# How Voyage words a batch over its limits, e.g. "The max allowed tokens per submitted batch
# is 320000. Your batch has 345678 tokens ..." or "The batch size limit is 1000 ...".
_TOO_LARGE_MESSAGE = re.compile(
    r"too large|too many|too long|max(imum)? allowed|batch size|limit|context length|exceed", re.IGNORECASE
)


class _BatchTooLarge(Exception):
    pass


class _MalformedResponse(Exception):
    pass


class VoyageEmbeddingBackend(BaseEmbeddingBackend):
    """Voyage embeddings; `input_type` is "document" for chunks and "query" for queries.

    `_embed` packs texts into requests within `max_batch_texts` and `max_batch_tokens`,
    splits a batch Voyage still refuses as too large in halves (a single refused text is a
    permanent error), retries 429, 5xx, timeouts and connection errors with exponential
    backoff up to `max_retries` times, and never retries 401/403 or other 4xx.
    `last_call_stats` counts the tokens Voyage reported, plus "attempts": every HTTP
    request made, including retried and refused ones.
    """

    max_batch_texts = 1000
    max_batch_tokens = 320_000

    def __init__(
        self,
        *,
        api_key: str = "",
        base_url: str = "",
        model: str = "voyage-3.5",
        timeout: float = 30.0,
        max_retries: int = 4,
        retry_base_delay: float = 1.0,
        retry_max_delay: float = 30.0,
        dimensions: int | None = None,
        **options,
    ):
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
        self._api_key = api_key
        self._base_url = base_url or None  # None: the client's default for this key
        self.timeout = float(timeout)
        self.max_retries = max(0, int(max_retries))
        self.retry_base_delay = float(retry_base_delay)
        self.retry_max_delay = float(retry_max_delay)

    def estimate_tokens(self, text: str) -> int:
        """The base estimate with a 25% margin: see TOKEN_ESTIMATE_MARGIN."""
        return math.ceil(super().estimate_tokens(text) * TOKEN_ESTIMATE_MARGIN)

    def _empty_stats(self) -> dict[str, int]:
        return {**super()._empty_stats(), "attempts": 0}

    def _embed(self, texts: list[str], *, input_type: str) -> list[list[float]]:
        vectors: list[list[float]] = []
        for batch in self.batches(texts):
            vectors.extend(self._embed_splitting([texts[i] for i in batch], input_type))
        return vectors

    def _embed_splitting(self, texts: list[str], input_type: str) -> list[list[float]]:
        """One request for `texts`, or, if Voyage refuses it as too large, one per half.
        Halving ends at single texts, so this makes at most 2n - 1 requests."""
        try:
            return self._request_with_retries(texts, input_type)
        except _BatchTooLarge as refusal:
            if len(texts) == 1:
                raise EmbeddingProviderError(
                    f"Voyage refused a single text of about {self.estimate_tokens(texts[0])} tokens "
                    f"as too large: {refusal}",
                    transient=False,
                ) from refusal
            middle = len(texts) // 2
            logger.info("Voyage refused %d texts as too large; splitting in two", len(texts))
            return self._embed_splitting(texts[:middle], input_type) + self._embed_splitting(texts[middle:], input_type)

    def _request_with_retries(self, texts: list[str], input_type: str) -> list[list[float]]:
        last_problem = ""
        retry_after: float | None = None
        for attempt in range(self.max_retries + 1):
            if attempt:
                time.sleep(self._backoff_seconds(attempt, retry_after))
            self._current_stats()["attempts"] += 1
            retry_after = None
            try:
                response = voyageai.Embedding.create(
                    input=texts,
                    model=self.model_name,
                    input_type=input_type,
                    truncation=True,
                    api_key=self._api_key,
                    base_url=self._base_url,
                    request_timeout=self.timeout,
                )
                return self._vectors_from(response, texts)
            except voyage_error.VoyageError as failure:
                self._raise_if_permanent(failure, batch_size=len(texts))
                last_problem = _describe(failure)
                retry_after = _retry_after_seconds(failure)
            except (_MalformedResponse, AttributeError, KeyError, TypeError, ValueError) as failure:
                last_problem = f"malformed response: {failure!r}"
            logger.warning(
                "Voyage request failed (attempt %d of %d): %s", attempt + 1, self.max_retries + 1, last_problem
            )
        raise EmbeddingProviderError(
            f"Voyage failed {self.max_retries + 1} times; last error: {last_problem}", transient=True
        )

    def _raise_if_permanent(self, failure: voyage_error.VoyageError, *, batch_size: int) -> None:
        """Raise for failures that retrying cannot fix; return for transient ones."""
        if isinstance(failure, (voyage_error.Timeout, voyage_error.APIConnectionError)):
            return
        status = failure.http_status
        if status in (401, 403):
            raise EmbeddingProviderError(
                f"Voyage rejected the API key ({status}): set VOYAGE_API_KEY to a valid key "
                f"with access to {self.model_name}. Voyage said: {_describe(failure)}",
                transient=False,
            ) from failure
        if status == 413 or (status == 400 and _TOO_LARGE_MESSAGE.search(_describe(failure))):
            raise _BatchTooLarge(_describe(failure)) from failure
        if isinstance(status, int) and 400 <= status < 500 and status not in (408, 429):
            raise EmbeddingProviderError(
                f"Voyage refused the request ({status}) for a batch of {batch_size} texts: {_describe(failure)}",
                transient=False,
            ) from failure

    def _vectors_from(self, response, texts: list[str]) -> list[list[float]]:
        """Vectors in input order (sorted by `index`), after recording the usage Voyage reports."""
        data = list(response["data"])
        indexes = sorted(item["index"] for item in data)
        if indexes != list(range(len(texts))):
            raise _MalformedResponse(f"{len(texts)} texts sent, indexes {indexes[:5]}... returned")
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

    def _backoff_seconds(self, attempt: int, retry_after: float | None) -> float:
        """Exponential backoff from `retry_base_delay`, with jitter so workers spread out;
        a Retry-After header is honoured up to `retry_max_delay`."""
        delay = min(self.retry_max_delay, self.retry_base_delay * 2 ** (attempt - 1))
        delay *= random.uniform(0.5, 1.0)
        if retry_after is not None:
            delay = max(delay, min(retry_after, self.retry_max_delay))
        return delay


def _describe(failure: voyage_error.VoyageError) -> str:
    detail = failure.json_body.get("detail") if isinstance(failure.json_body, dict) else None
    text = str(detail or failure.user_message or type(failure).__name__)
    if failure.http_status and not isinstance(failure, voyage_error.Timeout):
        text = f"HTTP {failure.http_status}: {text}"
    return text[:500]


def _retry_after_seconds(failure: voyage_error.VoyageError) -> float | None:
    try:
        return float(failure.headers.get("retry-after"))
    except (TypeError, ValueError):
        return None
