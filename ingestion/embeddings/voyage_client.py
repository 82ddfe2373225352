"""The one path to Voyage's HTTP API, shared by the embedding and rerank backends: requests, retries, errors.

Retries are ours alone. We call the `voyageai` resource classes (`voyageai.Embedding.create`,
`voyageai.Reranking.create`), the requests that `voyageai.Client.embed` / `.rerank` make
inside their tenacity retry loops, for two reasons: those loops would retry
429/502-504/timeouts on their own schedule (1-16 s waits) under ours, and `Client.embed`
drops each vector's `index`, which we need to return vectors in input order. The one retry
left inside the library is requests' connection-level retry on https (at most 2 reconnects
when a TCP connection cannot be opened, before any request is sent); it is bounded and
cannot double a request.
"""

from __future__ import annotations

import logging
import math
import random
import re
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from voyageai import error as voyage_error

from ingestion.embeddings.base import EmbeddingProviderError

logger = logging.getLogger(__name__)

Item = TypeVar("Item")
Result = TypeVar("Result")

# Voyage's tokenizer counts more tokens than tiktoken-like estimates, and rarer kanji take
# more than one token each; padding the base estimate keeps packed batches under the limit
# (a batch refused anyway is split, but that costs a request).
TOKEN_ESTIMATE_MARGIN = 1.25

# How Voyage words a batch over its limits, e.g. "The max allowed tokens per submitted batch
# is 320000. Your batch has 345678 tokens ..." or "The batch size limit is 1000 ...".
_TOO_LARGE_MESSAGE = re.compile(
    r"too large|too many|too long|max(imum)? allowed|batch size|limit|context length|exceed", re.IGNORECASE
)

# The options every Voyage backend takes in SEARCH_*_BACKENDS["OPTIONS"], beside api_key and model.
CLIENT_OPTIONS = ("base_url", "timeout", "max_retries", "retry_base_delay", "retry_max_delay")


class BatchTooLarge(Exception):
    """Voyage refused a request as over its size limits; the caller may split it."""


class MalformedResponse(Exception):
    """A 200 whose body does not say what was asked; retried like a transient failure."""


class VoyageClient:
    """Sends one logical request to Voyage, retrying what may succeed later.

    `request` retries 429, 5xx, timeouts, connection errors and malformed responses with
    capped, jittered exponential backoff up to `max_retries` times (honouring Retry-After up
    to the cap). It never retries 401/403 (a permanent error naming VOYAGE_API_KEY) or other
    4xx; a 413, or a 400 that says the request is over a limit, raises BatchTooLarge.
    """

    def __init__(
        self,
        *,
        api_key: str,
        model: str,
        base_url: str = "",
        timeout: float = 30.0,
        max_retries: int = 4,
        retry_base_delay: float = 1.0,
        retry_max_delay: float = 30.0,
    ):
        self.api_key = api_key
        self.model = model
        self.base_url = base_url or None  # None: the client's default for this key
        self.timeout = float(timeout)
        self.max_retries = max(0, int(max_retries))
        self.retry_base_delay = float(retry_base_delay)
        self.retry_max_delay = float(retry_max_delay)

    def request(
        self,
        resource: Any,
        *,
        what: str,
        parse: Callable[[Any], Result],
        on_attempt: Callable[[], None] = lambda: None,
        **params: Any,
    ) -> Result:
        """`resource.create(model=..., **params)` with retries; `parse(response)` the answer.

        `what` names the request in error messages ("a batch of 3 texts"); `parse` may
        raise MalformedResponse (or a KeyError/TypeError/ValueError on a missing field),
        which is retried. `on_attempt` is called before every HTTP request.
        """
        last_problem = ""
        retry_after: float | None = None
        for attempt in range(self.max_retries + 1):
            if attempt:
                time.sleep(self.backoff_seconds(attempt, retry_after))
            on_attempt()
            retry_after = None
            try:
                response = resource.create(
                    model=self.model,
                    api_key=self.api_key,
                    base_url=self.base_url,
                    request_timeout=self.timeout,
                    **params,
                )
                return parse(response)
            except voyage_error.VoyageError as failure:
                self._raise_if_permanent(failure, what=what)
                last_problem = _describe(failure)
                retry_after = _retry_after_seconds(failure)
            except (MalformedResponse, AttributeError, KeyError, TypeError, ValueError) as failure:
                last_problem = f"malformed response: {failure!r}"
            logger.warning(
                "Voyage request failed (attempt %d of %d): %s", attempt + 1, self.max_retries + 1, last_problem
            )
        raise EmbeddingProviderError(
            f"Voyage failed {self.max_retries + 1} times; last error: {last_problem}", transient=True
        )

    def _raise_if_permanent(self, failure: voyage_error.VoyageError, *, what: str) -> None:
        """Raise for failures that retrying cannot fix; return for transient ones."""
        if isinstance(failure, (voyage_error.Timeout, voyage_error.APIConnectionError)):
            return
        status = failure.http_status
        if status in (401, 403):
            raise EmbeddingProviderError(
                f"Voyage rejected the API key ({status}): set VOYAGE_API_KEY to a valid key "
                f"with access to {self.model}. Voyage said: {_describe(failure)}",
                transient=False,
            ) from failure
        if status == 413 or (status == 400 and _TOO_LARGE_MESSAGE.search(_describe(failure))):
            raise BatchTooLarge(_describe(failure)) from failure
        if isinstance(status, int) and 400 <= status < 500 and status not in (408, 429):
            raise EmbeddingProviderError(
                f"Voyage refused the request ({status}) for {what}: {_describe(failure)}",
                transient=False,
            ) from failure

    def backoff_seconds(self, attempt: int, retry_after: float | None) -> float:
        """Exponential backoff from `retry_base_delay`, with jitter so workers spread out;
        a Retry-After header is honoured up to `retry_max_delay`."""
        delay = min(self.retry_max_delay, self.retry_base_delay * 2 ** (attempt - 1))
        delay *= random.uniform(0.5, 1.0)
        if retry_after is not None:
            delay = max(delay, min(retry_after, self.retry_max_delay))
        return delay


def split_on_refusal(
    items: Sequence[Item],
    send: Callable[[Sequence[Item]], list[Result]],
    *,
    describe_one: Callable[[Item], str],
) -> list[Result]:
    """`send(items)`, or, if Voyage refuses it as too large, `send` of each half, concatenated.

    Halving ends at single items (a refused single item is a permanent error worded by
    `describe_one`), so this makes at most 2n - 1 requests.
    """
    try:
        return send(items)
    except BatchTooLarge as refusal:
        if len(items) == 1:
            raise EmbeddingProviderError(
                f"Voyage refused {describe_one(items[0])} as too large: {refusal}", transient=False
            ) from refusal
        middle = len(items) // 2
        logger.info("Voyage refused %d items as too large; splitting in two", len(items))
        return (split_on_refusal(items[:middle], send, describe_one=describe_one)
                + split_on_refusal(items[middle:], send, describe_one=describe_one))


class VoyageBackendMixin:
    """What every Voyage backend adds to its base class: padded token estimates and an
    "attempts" count (every HTTP request made, including retried and refused ones)."""

    def estimate_tokens(self, text: str) -> int:
        """The base estimate with a 25% margin: see TOKEN_ESTIMATE_MARGIN."""
        return math.ceil(super().estimate_tokens(text) * TOKEN_ESTIMATE_MARGIN)

    def _empty_stats(self) -> dict[str, int]:
        return {**super()._empty_stats(), "attempts": 0}

    def _count_attempt(self) -> None:
        self._current_stats()["attempts"] += 1


def client_options(options: dict[str, Any]) -> dict[str, Any]:
    """Remove and return the VoyageClient options from a backend's OPTIONS."""
    return {name: options.pop(name) for name in CLIENT_OPTIONS if name in options}


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
