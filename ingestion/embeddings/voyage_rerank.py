"""Voyage AI reranking (rerank-2.5 by default) over POST /v1/rerank, through voyage_client.

Wire format (https://docs.voyageai.com/reference/reranker-api): the request is
`{"query", "documents", "model", "top_k", "truncation"}`, the answer
`{"object": "list", "data": [{"index", "relevance_score"}], "model", "usage": {"total_tokens"}}`.
"""

from __future__ import annotations

from collections.abc import Sequence

import voyageai

from ingestion.embeddings.rerank import BaseRerankBackend, RerankNotConfigured, RerankResult
from ingestion.embeddings.voyage_client import (
    MalformedResponse,
    VoyageBackendMixin,
    VoyageClient,
    client_options,
    split_on_refusal,
)

# model -> (query tokens, total tokens per request), from Voyage's reranker API reference
# (docs.voyageai.com/reference/reranker-api, read 2025): every model takes at most 1,000
# documents a request; the query may have 8,000 tokens for rerank-2.5 and -lite, 4,000 for
# rerank-2, 2,000 for rerank-2-lite; "the number of query tokens × the number of documents
# + the sum of the documents' tokens" may be 600K for all four. (A query plus one document
# over the 32K context is truncated by Voyage, since we send truncation=true.)
KNOWN_MODELS: dict[str, tuple[int, int]] = {
    "rerank-2.5": (8_000, 600_000),
    "rerank-2.5-lite": (8_000, 600_000),
    "rerank-2": (4_000, 600_000),
    "rerank-2-lite": (2_000, 600_000),
}


class VoyageRerankBackend(VoyageBackendMixin, BaseRerankBackend):
    """Voyage rerank: packs documents into requests within the model's limits, merges the
    scores of several requests (Voyage's relevance scores are absolute, so they compare),
    halves a request Voyage still refuses as too large, and retries as VoyageClient does.
    `last_call_stats` counts the tokens Voyage reported, plus "attempts"."""

    max_documents_per_request = 1000

    def __init__(self, *, api_key: str = "", model: str = "rerank-2.5", **options):
        client = client_options(options)
        super().__init__(**options)
        if not api_key:
            raise RerankNotConfigured(
                "Voyage is the rerank provider but VOYAGE_API_KEY is not set. Set it, or set "
                "RERANK_PROVIDER=none to turn reranking off."
            )
        if model not in KNOWN_MODELS:
            raise RerankNotConfigured(
                f"Unknown Voyage rerank model {model!r}: its limits are not known. Use one of "
                f"{', '.join(sorted(KNOWN_MODELS))}."
            )
        self.model_name = model
        self.max_query_tokens, self.max_request_tokens = KNOWN_MODELS[model]
        self._client = VoyageClient(api_key=api_key, model=model, **client)

    def _rerank(self, query: str, documents: list[str], top_k: int | None) -> list[RerankResult]:
        results: list[RerankResult] = []
        for batch in self.request_batches(query, documents):
            results.extend(split_on_refusal(
                batch,
                lambda indexes: self._request(query, indexes, documents, top_k),
                describe_one=lambda index: f"a document of about {self.estimate_tokens(documents[index])} tokens",
            ))
        return results

    def _request(self, query: str, indexes: Sequence[int], documents: list[str],
                 top_k: int | None) -> list[RerankResult]:
        """One request for `documents[i] for i in indexes`; results carry the indexes into `documents`."""
        indexes = list(indexes)
        part = [documents[i] for i in indexes]
        # Each request's best top_k include every document of the overall best top_k.
        part_top_k = None if top_k is None or top_k >= len(part) else top_k
        return self._client.request(
            voyageai.Reranking,
            what=f"a rerank of {len(part)} documents",
            parse=lambda response: self._results_from(response, query, part, indexes, part_top_k),
            on_attempt=self._count_attempt,
            query=query,
            documents=part,
            top_k=part_top_k,
            truncation=True,
        )

    def _results_from(self, response, query: str, part: list[str], indexes: list[int],
                      top_k: int | None) -> list[RerankResult]:
        """The scores of one response, mapped back to the caller's indexes, after recording usage."""
        data = list(response["data"])
        returned = [int(item["index"]) for item in data]
        expected = len(part) if top_k is None else top_k
        if len(returned) != expected or len(set(returned)) != expected or not all(0 <= i < len(part) for i in returned):
            raise MalformedResponse(f"{len(part)} documents sent (top_k {top_k}), indexes {returned[:5]}... returned")
        results = [RerankResult(index=indexes[int(item["index"])], relevance_score=float(item["relevance_score"]))
                   for item in data]
        usage = response.get("usage") or {}
        tokens = int(usage.get("total_tokens") or 0) or self.request_tokens(self.estimate_tokens(query), part)
        self._record_request(texts=len(part), tokens=tokens)
        return results
