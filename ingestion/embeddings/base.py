"""The one interface every embedding provider implements, and what rerank backends share with it."""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence



def greedy_batches(tokens: Sequence[int], *, max_items: int, max_tokens: int) -> list[list[int]]:
    """Indices of items, in order, packed into batches of at most `max_items` items and
    `max_tokens` tokens (an item over the token limit on its own gets a batch alone)."""
    batches: list[list[int]] = []
    current: list[int] = []
    current_tokens = 0
    for index, item_tokens in enumerate(tokens):
        if current and (len(current) >= max_items or current_tokens + item_tokens > max_tokens):
            batches.append(current)
            current, current_tokens = [], 0
        current.append(index)
        current_tokens += item_tokens
    if current:
        batches.append(current)
    return batches

class EmbeddingNotConfigured(Exception):
    """No provider is configured (or it lacks its key). Chunks wait as pending."""


class EmbeddingProviderError(Exception):
    """A provider call of this layer failed (an embedding or a rerank request).

    `transient` errors (rate limits, 5xx, timeouts left after the backend's own retries)
    may succeed later; the others (a bad key, a rejected input) will not, and the work is
    marked failed with `str(error)` as the reason.
    """

    def __init__(self, message: str, *, transient: bool):
        super().__init__(message)
        self.transient = transient


class BaseProviderBackend:
    """What every backend of this layer shares: the price, usage of the last call, token estimates.

    After each public call, `last_call_stats` tells the caller what the call cost, for usage
    accounting: `{"requests": provider requests that returned results, "texts": texts sent,
    "tokens": tokens}`. A backend whose provider reports usage calls
    `_record_request(texts=..., tokens=...)` once per request (and may add keys of its own
    through `_empty_stats`); otherwise the public method records one request with estimated
    tokens. The stats are per thread, so a shared backend instance is safe.
    """

    model_name: str = ""

    def __init__(self, *, price_per_million_tokens: float = 0.0, **options):
        self.price_per_million_tokens = price_per_million_tokens
        self.options = options

    # --- usage of the last call ----------------------------------------------------------
    @property
    def last_call_stats(self) -> dict[str, int]:
        """What the last public call in this thread cost (a copy)."""
        return dict(getattr(self._thread_state, "stats", None) or self._empty_stats())

    def _record_request(self, *, texts: int, tokens: int) -> None:
        """For hook implementations: count one provider request that returned results."""
        stats = self._current_stats()
        stats["requests"] += 1
        stats["texts"] += texts
        stats["tokens"] += tokens
        self._thread_state.recorded = True

    @property
    def _thread_state(self) -> threading.local:
        # Created on first use, so subclasses that skip super().__init__ still work.
        return self.__dict__.setdefault("_thread_state_local", threading.local())

    def _empty_stats(self) -> dict[str, int]:
        return {"requests": 0, "texts": 0, "tokens": 0}

    def _current_stats(self) -> dict[str, int]:
        """The stats being filled by the call in progress (started if a hook is called directly)."""
        if getattr(self._thread_state, "stats", None) is None:
            self._begin_call()
        return self._thread_state.stats

    def _begin_call(self) -> None:
        self._thread_state.stats = self._empty_stats()
        self._thread_state.recorded = False

    def _record_estimate_unless_reported(self, texts: Sequence[str]) -> None:
        """After a hook: one request of estimated tokens, if the hook recorded nothing itself."""
        if not self._thread_state.recorded:
            self._record_request(texts=len(texts), tokens=sum(self.estimate_tokens(t) for t in texts))

    def estimate_tokens(self, text: str) -> int:
        """A conservative (over-)estimate of the provider's token count for `text`.

        Non-ASCII characters (Japanese, mostly) count one token each; ASCII counts one per
        three characters, which is above what English costs with modern tokenizers.
        """
        ascii_chars = sum(1 for ch in text if ord(ch) < 128)
        return max(1, math.ceil(ascii_chars / 3) + (len(text) - ascii_chars))

    def cost_usd(self, tokens: int) -> float:
        return tokens * self.price_per_million_tokens / 1_000_000


class BaseEmbeddingBackend(BaseProviderBackend):
    """Turns texts into L2-normalised vectors of `dimensions` floats, made by `model_name`.

    Subclasses set the class attributes and implement `_embed(texts, input_type)`.
    Callers pass batches that respect `max_batch_texts` and `max_batch_tokens` (see
    `batches`); a backend may still split further if its provider refuses a batch.

    `last_call_stats` (see BaseProviderBackend) describes the last `embed_documents` /
    `embed_query`; by default one `_embed` call is one request of `estimate_tokens` tokens.
    """

    dimensions: int = 0
    max_batch_texts: int = 128
    max_batch_tokens: int = 100_000

    # --- the hook ------------------------------------------------------------------------
    def _embed(self, texts: list[str], *, input_type: str) -> list[list[float]]:
        raise NotImplementedError

    def load(self) -> None:
        """Make the backend ready to embed (a local model's weights in memory), so the first
        batch waits for no load. Safe to call twice. Default: nothing to load (an HTTP API)."""

    # --- the contract --------------------------------------------------------------------
    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        """Vectors for chunks being stored, in the order given."""
        texts = list(texts)
        if not texts:
            self._begin_call()
            return []
        return self._embed_recorded(texts, input_type="document")

    def embed_query(self, text: str) -> list[float]:
        """The vector for a search query (providers may embed queries differently)."""
        return self._embed_recorded([text], input_type="query")[0]

    def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        """Vectors for several search queries in one call (the parts of a compound question), in order."""
        texts = list(texts)
        if not texts:
            self._begin_call()
            return []
        return self._embed_recorded(texts, input_type="query")

    def _embed_recorded(self, texts: list[str], *, input_type: str) -> list[list[float]]:
        self._begin_call()
        vectors = self._embed(texts, input_type=input_type)
        self._record_estimate_unless_reported(texts)
        return vectors

    def batches(self, texts: Sequence[str]) -> list[list[int]]:
        """Split `texts` into lists of indices, each within both batch limits (greedy packing)."""
        return greedy_batches([self.estimate_tokens(text) for text in texts], max_items=self.max_batch_texts,
                              max_tokens=self.max_batch_tokens)
