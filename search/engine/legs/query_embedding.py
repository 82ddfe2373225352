"""The query vectors of every search that embeds a query (semantic, hybrid, agentic): the one
way a query is embedded. They are made in one provider call on a thread, while hybrid's keyword
leg runs its SQL on the request's thread (semantic waits for its vector at once).

Several queries (the parts of a compound question) go to the provider in one `embed_queries`
call; the call's usage is counted once, against the workspace (written by the process's
next usage flush: ingestion.services.usage).
"""

from __future__ import annotations

import threading
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_noop

from ingestion.embeddings import EmbeddingNotConfigured, EmbeddingProviderError
from ingestion.selectors import embedding_backend_active
from ingestion.services.usage import usage_record_call, usage_reported_by
from search.contract.errors import SearchError, provider_error_code
from search.engine.query_work import query_work_memo
from search.engine.db.statements import search_cursor


class QueryEmbeddings:
    """The vectors of one request's queries, being made in one provider call on a thread."""

    def __init__(self, *, backend: Any, workspace_id: int, queries: list[str]):
        self.backend, self.workspace_id, self.queries = backend, workspace_id, queries
        self.future: Future = _EMBEDDER.submit(_embed_on_thread, backend, queries)
        self._lock = threading.Lock()
        self._outcome: list[list[float]] | SearchError | None = None

    def vectors(self) -> list[list[float]] | SearchError:
        """Waits for the vectors; records the call's usage once."""
        with self._lock:
            if self._outcome is None:
                try:
                    vectors, reported = self.future.result()
                    usage_record_call(backend=self.backend, texts_by_workspace={self.workspace_id: self.queries},
                                      reported=reported, deferred=True)
                    self._outcome = vectors
                except EmbeddingProviderError as exc:
                    self._outcome = SearchError(provider_error_code(transient=exc.transient), gettext_noop(
                        "The embedding provider could not embed the query: %(reason)s"), status=503, reason=str(exc))
            return self._outcome


@dataclass
class QueryEmbedding:
    """The semantic leg's first half: the model, and this query's vector being made (`batch`, at `index`)."""

    model: str | None = None
    dimensions: int | None = None
    batch: QueryEmbeddings | None = None
    index: int = 0
    error: SearchError | None = None

    def vector(self) -> list[float] | None:
        """The query vector (waits for it), or None with `error` set."""
        if self.batch is None:
            return None
        outcome = self.batch.vectors()
        if isinstance(outcome, SearchError):
            self.error = outcome
            return None
        return outcome[self.index]


# One embedding call at a time per request, made while the keyword leg's SQL runs.
_EMBEDDER = ThreadPoolExecutor(max_workers=4, thread_name_prefix="hybrid-query-embed")


def query_embeddings_start(*, workspace_id: int, queries: list[str], model: str | None = None,
                           vectors_required: bool = True) -> list[QueryEmbedding]:
    """Start embedding the queries, in one provider call, unless the semantic leg cannot run
    (then each one's `error` says why). One per query, in order.

    `model`: the workspace's active model when None (trusted code only names another:
    `embedding_switch compare`). `vectors_required`: a workspace with no vector of the model
    yet gets `vectors_pending` instead of a call (hybrid then answers from keywords; semantic
    embeds anyway and answers with its pending count). Within one search call
    (search.engine.query_work), a query embedded already is not sent again."""
    memo = query_work_memo()
    if memo is None:
        return _embeddings_start(workspace_id=workspace_id, queries=queries, model=model,
                                 vectors_required=vectors_required)
    keys = [("query_embedding", workspace_id, model, vectors_required, query) for query in queries]
    missing = list(dict.fromkeys(q for q, key in zip(queries, keys) if key not in memo))
    if missing:
        started = _embeddings_start(workspace_id=workspace_id, queries=missing, model=model,
                                    vectors_required=vectors_required)
        for query, embedding in zip(missing, started):
            memo[("query_embedding", workspace_id, model, vectors_required, query)] = embedding
    return [memo[key] for key in keys]


def _embeddings_start(*, workspace_id: int, queries: list[str], model: str | None,
                      vectors_required: bool) -> list[QueryEmbedding]:
    try:
        backend = embedding_backend_active(workspace=workspace_id, model=model)
    except EmbeddingNotConfigured as exc:
        return [QueryEmbedding(error=SearchError("not_configured", str(exc), status=503)) for _ in queries]
    if vectors_required and not _has_vectors(workspace_id=workspace_id, model_name=backend.model_name):
        error = SearchError("vectors_pending", gettext_noop(
            "No chunk of this workspace has a %(model)s vector yet (embedding is pending)."), status=503,
            model=backend.model_name)
        return [QueryEmbedding(error=error) for _ in queries]
    batch = QueryEmbeddings(backend=backend, workspace_id=workspace_id, queries=list(queries))
    return [QueryEmbedding(model=backend.model_name, dimensions=backend.dimensions, batch=batch, index=i)
            for i in range(len(queries))]


def _embed_on_thread(backend: Any, queries: list[str]) -> tuple[list[list[float]], tuple[int, int] | None]:
    """The provider call only: no database work off the request's thread. The backend's call
    statistics are per thread, so what the provider reported is read here. One query is
    `embed_query`; several are one `embed_queries` call where the backend has it."""
    if len(queries) == 1:
        vectors = [backend.embed_query(queries[0])]
    elif hasattr(backend, "embed_queries"):
        vectors = backend.embed_queries(queries)
    else:
        vectors = [backend.embed_query(query) for query in queries]
    return vectors, usage_reported_by(backend)


def _has_vectors(*, workspace_id: int, model_name: str) -> bool:
    with search_cursor() as cursor:
        cursor.execute(
            "SELECT EXISTS (SELECT 1 FROM ingestion_chunkvector WHERE workspace_id = %s AND model = %s)",
            [workspace_id, model_name],
        )
        return bool(cursor.fetchone()[0])
