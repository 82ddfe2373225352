"""The embed loop: claim pending chunks, embed their texts, store the vectors, record usage.

The provider is called with no transaction open. The same text is never embedded twice:
identical texts in a batch are embedded once, and a vector already stored in the workspace
for the same hash and model is copied instead (`vectors.vectors_reusable`). A worker stores
one batch on a second thread while the model embeds the next (`_StoreBehind`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field

from django.conf import settings
from django.db import connection

from cms.models import Workspace
from ingestion.embeddings import (
    BaseEmbeddingBackend,
    EmbeddingNotConfigured,
    EmbeddingProviderError,
    get_embedding_backend,
)
from ingestion.services.claims import (
    ClaimedChunk,
    chunks_claim_ids,
    chunks_claim_pending,
    chunks_mark_error,
    leases_release,
)
from ingestion.services.sync import ProgressCallback
from ingestion.services.usage import usage_record_call, usage_reported_by
from ingestion.services.vectors import vector_literal, vectors_reusable, vectors_store


@dataclass
class EmbedReport:
    """What an embedding run did. `not_configured` means nothing was claimed or sent."""

    model: str = ""
    claimed: int = 0
    embedded: int = 0  # chunks whose vector was stored (fresh or reused)
    reused: int = 0  # of which the vector was copied from an identical text
    discarded: int = 0  # vectors thrown away because the chunk changed meanwhile
    failed: int = 0
    requests: int = 0
    texts: int = 0
    tokens: int = 0
    not_configured: bool = False
    error: str = ""

    def add_stored(self, other: EmbedReport) -> None:
        """Add what another part of the run stored and sent (see _embed_record)."""
        for name in ("embedded", "discarded", "requests", "texts", "tokens"):
            setattr(self, name, getattr(self, name) + getattr(other, name))


@dataclass
class WorkItem:
    """One distinct text (per workspace) and the claimed chunks that carry it."""

    workspace_id: int
    content_hash: str
    text: str
    chunk_ids: list[int] = field(default_factory=list)


def _embed_call(backend: BaseEmbeddingBackend, items: list[WorkItem]) -> Callable[[], EmbedReport]:
    """Embed `items` now; return the step that stores the vectors and records usage.

    The two halves are apart so a worker can store one batch while the model embeds the next
    (see _StoreBehind). Raises provider errors.
    """
    texts = [item.text for item in items]
    if "last_call_stats" in vars(backend):
        backend.last_call_stats = None  # a plain attribute: forget the previous call's stats
    vectors = backend.embed_documents(texts)
    if len(vectors) != len(items):
        raise EmbeddingProviderError(
            f"{backend.model_name} returned {len(vectors)} vectors for {len(items)} texts", transient=True
        )
    rows: list[tuple[int, str, str]] = []
    for item, vector in zip(items, vectors, strict=True):
        literal = vector_literal(vector)
        rows.extend((chunk_id, item.content_hash, literal) for chunk_id in item.chunk_ids)
    reported = usage_reported_by(backend)
    return functools.partial(_embed_record, backend, items, rows, reported)


def _embed_record(
    backend: BaseEmbeddingBackend,
    items: list[WorkItem],
    rows: list[tuple[int, str, str]],
    reported: tuple[int, int] | None,
) -> EmbedReport:
    """Store embedded rows (hash-checked) and record the call's usage; return what it did."""
    report = EmbedReport()
    stored = vectors_store(backend=backend, rows=rows)
    report.embedded += stored
    report.discarded += len(rows) - stored
    report.texts += len(items)

    texts_by_workspace: dict[int, list[str]] = {}
    for item in items:
        texts_by_workspace.setdefault(item.workspace_id, []).append(item.text)
    requests, tokens = usage_record_call(backend=backend, texts_by_workspace=texts_by_workspace, reported=reported)
    report.requests += requests
    report.tokens += tokens
    return report


class _StoreBehind:
    """Runs store steps one batch behind the model: batch N is stored while N+1 is embedded.

    Storing (the hash-checked UPDATE and its HNSW insert) waits on PostgreSQL, and the local
    model computes in numpy; both release the GIL, so overlapping them hides most of the
    store time (bench/ingest.py). One store is in flight at most, on one thread with its own
    database connection, which is why this runs only outside a transaction: a transaction's
    uncommitted chunks are invisible to another connection. Inside one, steps run inline.
    """

    def __init__(self, report: EmbedReport, progress: ProgressCallback | None):
        self._report = report
        self._progress = progress
        self._executor = None if connection.in_atomic_block else ThreadPoolExecutor(1, "chunk-store")
        self._inflight: tuple[Future, list[int]] | None = None

    def submit(self, step: Callable[[], EmbedReport], chunk_ids: list[int]) -> None:
        self.wait()
        if self._executor is None:
            self._done(step(), len(chunk_ids))
        else:
            self._inflight = (self._executor.submit(step), chunk_ids)

    def wait(self) -> None:
        """Wait for the store in flight; raise its error after releasing its chunks' leases."""
        if self._inflight is None:
            return
        future, chunk_ids = self._inflight
        self._inflight = None
        try:
            stored = future.result()
        except BaseException:
            leases_release(chunk_ids)
            raise
        self._done(stored, len(chunk_ids))

    def close(self) -> None:
        if self._executor is not None:
            # `connection` resolves per thread: this closes the store thread's own connection.
            self._executor.submit(lambda: connection.close()).result()
            self._executor.shutdown()

    def _done(self, stored: EmbedReport, chunks: int) -> None:
        self._report.add_stored(stored)
        if self._progress:
            self._progress(chunks)


def _batch_embed(
    backend: BaseEmbeddingBackend,
    items: dict[tuple[int, str], WorkItem],
    batch_items: list[WorkItem],
    report: EmbedReport,
) -> Callable[[], EmbedReport]:
    """Embed one provider batch and take its items out of `items`; return its store step.

    On a provider error the batch's chunks get a failed attempt recorded (their leases are
    released with it) and the error is raised for the caller's retry policy.
    """
    for item in batch_items:
        items.pop((item.workspace_id, item.content_hash), None)
    try:
        return _embed_call(backend, batch_items)
    except EmbeddingProviderError as exc:
        report.failed += chunks_mark_error(
            chunk_ids=[cid for item in batch_items for cid in item.chunk_ids], error=exc
        )
        report.error = str(exc)
        raise


def _claim_size() -> int:
    return max(1, int(settings.EMBED_BATCH_MAX_CHUNKS))


def _backend_for(report: EmbedReport, backend: BaseEmbeddingBackend | None) -> BaseEmbeddingBackend | None:
    """The backend to embed with (the configured one by default), noted on `report`; None,
    with `report.not_configured` set, when there is no provider."""
    if backend is None:
        try:
            backend = get_embedding_backend()
        except EmbeddingNotConfigured as exc:
            report.not_configured = True
            report.error = str(exc)
            return None
    report.model = backend.model_name
    return backend


def chunks_embed_pending(
    *,
    workspace: Workspace | int | None = None,
    limit: int | None = None,
    progress: ProgressCallback | None = None,
    backend: BaseEmbeddingBackend | None = None,
    lease_seconds: float | None = None,
) -> EmbedReport:
    """Claim and embed pending chunks until none are left (or `limit` chunks were claimed).

    Chunks are claimed EMBED_BATCH_MAX_CHUNKS at a time; their distinct texts are packed into
    provider requests by `backend.batches()`. A request that is not full is held back while
    more chunks may come, so a large backlog goes out in as few requests as the limits allow.

    Errors: not configured -> nothing claimed, `report.not_configured`. A provider error is
    recorded on the chunks of the failed request (see claims.chunks_mark_error), every other lease
    is released, and the error is raised so a task can retry transient ones with backoff.
    Idempotent: with nothing pending it makes no provider call and changes no row.
    """
    report = EmbedReport()
    backend = _backend_for(report, backend)
    if backend is None:
        return report
    claim_size = _claim_size()
    items: dict[tuple[int, str], WorkItem] = {}  # claimed, not yet embedded
    exhausted = False
    store = _StoreBehind(report, progress)
    try:
        while True:
            remaining = None if limit is None else limit - report.claimed
            if not exhausted and (remaining is None or remaining > 0):
                want = claim_size if remaining is None else min(claim_size, remaining)
                claimed = chunks_claim_pending(limit=want, workspace=workspace, lease_seconds=lease_seconds)
                report.claimed += len(claimed)
                exhausted = len(claimed) < want or (remaining is not None and remaining - len(claimed) <= 0)
                fresh = _items_merge(items, claimed)
                _items_reuse(backend, items, fresh, report, progress)
            else:
                exhausted = True
            if not items:
                if exhausted:
                    break
                continue
            work = list(items.values())
            batches = backend.batches([item.text for item in work])
            if not exhausted and len(batches) == 1 and len(batches[0]) < backend.max_batch_texts:
                continue  # claim more before sending a request that is not full
            if not exhausted and len(batches[-1]) < backend.max_batch_texts:
                batches = batches[:-1]  # hold back the partial request; the next claim fills it
            for batch in batches:
                batch_items = [work[i] for i in batch]
                step = _batch_embed(backend, items, batch_items, report)
                store.submit(step, [cid for item in batch_items for cid in item.chunk_ids])
        store.wait()
    finally:
        # Whatever was claimed but not stored (an error, a crash in this code) is released
        # now instead of waiting for its lease to expire.
        try:
            store.wait()
        finally:
            store.close()
            leases_release(cid for item in items.values() for cid in item.chunk_ids)
    return report


def _items_merge(items: dict[tuple[int, str], WorkItem], claimed: Sequence[ClaimedChunk]) -> list[WorkItem]:
    """Add claimed chunks to the work items (identical texts share one); return the new items."""
    fresh: list[WorkItem] = []
    for chunk in claimed:
        key = (chunk.workspace_id, chunk.content_hash)
        item = items.get(key)
        if item is None:
            item = items[key] = WorkItem(chunk.workspace_id, chunk.content_hash, chunk.text)
            fresh.append(item)
        item.chunk_ids.append(chunk.id)
    return fresh


def _items_reuse(
    backend: BaseEmbeddingBackend,
    items: dict[tuple[int, str], WorkItem],
    fresh: list[WorkItem],
    report: EmbedReport,
    progress: ProgressCallback | None,
) -> None:
    """Store vectors already known for the same text instead of asking the provider again."""
    known = vectors_reusable(model_name=backend.model_name, keys=[(i.workspace_id, i.content_hash) for i in fresh])
    if not known:
        return
    rows: list[tuple[int, str, str]] = []
    done = 0
    for key, literal in known.items():
        item = items.pop(key, None)
        if item is None:
            continue
        rows.extend((chunk_id, item.content_hash, literal) for chunk_id in item.chunk_ids)
        done += len(item.chunk_ids)
    stored = vectors_store(backend=backend, rows=rows)
    report.embedded += stored
    report.reused += stored
    report.discarded += len(rows) - stored
    if progress and done:
        progress(done)


def chunks_embed_batch(*, chunk_ids: Sequence[int], backend: BaseEmbeddingBackend | None = None) -> EmbedReport:
    """Embed these chunks now if they are pending and not leased by another worker.

    Claims them (same lease rules as chunks_claim_pending), so calling it twice, or while
    another worker holds them, embeds nothing twice.
    """
    report = EmbedReport()
    backend = _backend_for(report, backend)
    if backend is None:
        return report
    claimed = chunks_claim_ids(chunk_ids=chunk_ids)
    report.claimed = len(claimed)
    items: dict[tuple[int, str], WorkItem] = {}
    fresh = _items_merge(items, claimed)
    try:
        _items_reuse(backend, items, fresh, report, None)
        work = list(items.values())
        for batch in backend.batches([item.text for item in work]):
            report.add_stored(_batch_embed(backend, items, [work[i] for i in batch], report)())
    finally:
        leases_release(cid for item in items.values() for cid in item.chunk_ids)
    return report
