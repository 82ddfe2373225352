"""The embed loop: claim pending chunks, embed their texts, store the vectors, record usage.

A claimed chunk is embedded by every model its workspace wants (the active model, and the
target while a switch runs; see _Models) that holds no current vector of it, each model
through its own backend. The provider is called with no transaction open. The same text is
never embedded twice by one model: identical texts in a batch are embedded once, a chunk
that holds a current vector of a model is skipped for that model, and a vector already
stored in the workspace for the same hash and model is copied instead
(`vectors.vectors_reusable`). A worker stores one batch on a second thread while the model
embeds the next (`_StoreBehind`).
"""

from __future__ import annotations

import functools
import time
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
    get_embedding_backend_for_model,
)
from ingestion.models import WorkspaceEmbedding
from ingestion.services.claims import (
    ClaimedChunk,
    chunks_claim_ids,
    chunks_claim_pending,
    chunks_mark_error,
    leases_release,
)
from ingestion.services.sync import ProgressCallback
from ingestion.services.usage import usage_record_call, usage_reported_by
from ingestion.services.vectors import (
    chunks_settle_ids,
    vector_literal,
    vectors_current,
    vectors_reusable,
    vectors_store,
)


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


def _embed_call(backend: BaseEmbeddingBackend, items: list[WorkItem], default_model: str | None = None
                ) -> Callable[[], EmbedReport]:
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
    return functools.partial(_embed_record, backend, items, rows, reported, default_model)


def _embed_record(
    backend: BaseEmbeddingBackend,
    items: list[WorkItem],
    rows: list[tuple[int, str, str]],
    reported: tuple[int, int] | None,
    default_model: str | None = None,
) -> EmbedReport:
    """Store embedded rows (hash-checked) and record the call's usage; return what it did."""
    report = EmbedReport()
    stored = vectors_store(backend=backend, rows=rows, default_model=default_model)
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
    default_model: str | None = None,
) -> Callable[[], EmbedReport]:
    """Embed one provider batch and take its items out of `items`; return its store step.

    On a provider error the batch's chunks get a failed attempt recorded (their leases are
    released with it) and the error is raised for the caller's retry policy.
    """
    for item in batch_items:
        items.pop((item.workspace_id, item.content_hash), None)
    try:
        return _embed_call(backend, batch_items, default_model)
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


class _Models:
    """One run's view of the models: which ones each workspace wants, and a backend per model.

    `default` is the backend of workspaces that never switched (the configured provider, or
    the one the caller passed); `backends` may pin other models' backends (bench/switch.py).
    """

    def __init__(self, default: BaseEmbeddingBackend, backends: dict[str, BaseEmbeddingBackend] | None = None):
        self.default = default
        self._backends = {**(backends or {}), default.model_name: default}

    @property
    def default_model(self) -> str:
        return self.default.model_name

    def wanted(self, workspace_ids: set[int]) -> dict[int, tuple[str, ...]]:
        """Read fresh for every claim: a switch may start or end while a worker runs."""
        wanted = {ws: (self.default_model,) for ws in workspace_ids}
        for row in WorkspaceEmbedding.objects.filter(workspace_id__in=workspace_ids):
            wanted[row.workspace_id] = tuple(m for m in (row.active_model, row.target_model) if m)
        return wanted

    def backend(self, model: str) -> BaseEmbeddingBackend:
        """Raises EmbeddingNotConfigured when this machine cannot build the model's backend."""
        if model not in self._backends:
            self._backends[model] = get_embedding_backend_for_model(model)
        return self._backends[model]


class _BackfillPace:
    """Rests between claims of backfill-only chunks (EMBED_BACKFILL_PAUSE times the time the
    previous such claim took), so a switch's backfill leaves the database to searches; pending
    chunks (new and edited content) are never held back."""

    def __init__(self) -> None:
        self.ratio = max(0.0, float(getattr(settings, "EMBED_BACKFILL_PAUSE", 0.0)))
        self._since: float | None = None

    def claimed(self, claimed: Sequence[ClaimedChunk]) -> None:
        backfill = bool(claimed) and all(c.status == "backfill" for c in claimed)
        self._since = time.monotonic() if backfill and self.ratio else None

    def rest(self, store: _StoreBehind) -> None:
        if self._since is not None:
            store.wait()  # the claim's work includes storing it
            time.sleep(min(30.0, self.ratio * (time.monotonic() - self._since)))
            self._since = None


# model -> (workspace id, content hash) -> the claimed chunks missing that model's vector of that text
_Work = dict[str, dict[tuple[int, str], WorkItem]]


def chunks_embed_pending(
    *,
    workspace: Workspace | int | None = None,
    limit: int | None = None,
    progress: ProgressCallback | None = None,
    backend: BaseEmbeddingBackend | None = None,
    lease_seconds: float | None = None,
    backends: dict[str, BaseEmbeddingBackend] | None = None,
    include_backfill: bool = True,
) -> EmbedReport:
    """Claim and embed pending chunks until none are left (or `limit` chunks were claimed);
    with `include_backfill` (the default) a switch's backfill chunks after them.

    Chunks are claimed EMBED_BATCH_MAX_CHUNKS at a time; for each model their workspace
    wants and they lack, their distinct texts are packed into provider requests by that
    model's `backend.batches()`. A request that is not full is held back while more chunks
    may come, so a large backlog goes out in as few requests as the limits allow.

    Errors: not configured -> nothing claimed, `report.not_configured`. A provider error is
    recorded on the chunks of the failed request (see claims.chunks_mark_error), every other lease
    is released, and the error is raised so a task can retry transient ones with backoff.
    Idempotent: with nothing pending it makes no provider call and changes no row.
    """
    report = EmbedReport()
    backend = _backend_for(report, backend)
    if backend is None:
        return report
    models = _Models(backend, backends)
    claim_size = _claim_size()
    work: _Work = {}  # claimed, not yet embedded
    exhausted = False
    store = _StoreBehind(report, progress)
    pace = _BackfillPace()
    try:
        while True:
            remaining = None if limit is None else limit - report.claimed
            if not exhausted and (remaining is None or remaining > 0):
                want = claim_size if remaining is None else min(claim_size, remaining)
                pace.rest(store)
                claimed = chunks_claim_pending(limit=want, workspace=workspace, lease_seconds=lease_seconds,
                                               include_backfill=include_backfill)
                pace.claimed(claimed)
                report.claimed += len(claimed)
                exhausted = len(claimed) < want or (remaining is not None and remaining - len(claimed) <= 0)
                _work_add(models, work, claimed, report, progress)
            else:
                exhausted = True
            if not any(work.values()):
                if exhausted:
                    break
                continue
            for model, items in work.items():
                if not items:
                    continue
                model_backend = models.backend(model)
                todo = list(items.values())
                batches = model_backend.batches([item.text for item in todo])
                if not exhausted and len(batches) == 1 and len(batches[0]) < model_backend.max_batch_texts:
                    continue  # claim more before sending a request that is not full
                if not exhausted and len(batches[-1]) < model_backend.max_batch_texts:
                    batches = batches[:-1]  # hold back the partial request; the next claim fills it
                for batch in batches:
                    batch_items = [todo[i] for i in batch]
                    step = _batch_embed(model_backend, items, batch_items, report, models.default_model)
                    store.submit(step, [cid for item in batch_items for cid in item.chunk_ids])
        store.wait()
    finally:
        # Whatever was claimed but not stored (an error, a crash in this code) is released
        # now instead of waiting for its lease to expire.
        try:
            store.wait()
        finally:
            store.close()
            leases_release(cid for items in work.values() for item in items.values() for cid in item.chunk_ids)
    return report


def _work_add(models: _Models, work: _Work, claimed: Sequence[ClaimedChunk], report: EmbedReport,
              progress: ProgressCallback | None) -> None:
    """Add claimed chunks to the work, per model they lack (identical texts share one item);
    copy vectors known for the same text; settle chunks that lack nothing."""
    if not claimed:
        return
    wanted = models.wanted({chunk.workspace_id for chunk in claimed})
    current = vectors_current(chunk_ids=[c.id for c in claimed], models={m for ms in wanted.values() for m in ms})
    complete: list[int] = []
    fresh: dict[str, list[WorkItem]] = {}
    for chunk in claimed:
        missing = [m for m in wanted[chunk.workspace_id] if (chunk.id, m) not in current]
        if not missing:
            complete.append(chunk.id)
        for model in missing:
            items = work.setdefault(model, {})
            key = (chunk.workspace_id, chunk.content_hash)
            item = items.get(key)
            if item is None:
                item = items[key] = WorkItem(chunk.workspace_id, chunk.content_hash, chunk.text)
                fresh.setdefault(model, []).append(item)
            item.chunk_ids.append(chunk.id)
    if complete:
        report.embedded += chunks_settle_ids(chunk_ids=complete, default_model=models.default_model)
        leases_release(complete)
    for model, items in fresh.items():
        try:
            model_backend = models.backend(model)
        except EmbeddingNotConfigured as exc:
            # The workspace wants a model this machine cannot make (a key was removed mid-switch):
            # the chunks fail with the reason, like a rejected key, until someone acts.
            error = EmbeddingProviderError(f"{model}: {exc}", transient=False)
            report.failed += chunks_mark_error(chunk_ids=[c for i in items for c in i.chunk_ids], error=error)
            report.error = str(error)
            for item in items:
                work[model].pop((item.workspace_id, item.content_hash), None)
            continue
        _items_reuse(model_backend, work[model], items, report, progress, models.default_model)


def _items_reuse(
    backend: BaseEmbeddingBackend,
    items: dict[tuple[int, str], WorkItem],
    fresh: list[WorkItem],
    report: EmbedReport,
    progress: ProgressCallback | None,
    default_model: str | None = None,
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
    stored = vectors_store(backend=backend, rows=rows, default_model=default_model)
    report.embedded += stored
    report.reused += stored
    report.discarded += len(rows) - stored
    if progress and done:
        progress(done)


def chunks_embed_batch(*, chunk_ids: Sequence[int], backend: BaseEmbeddingBackend | None = None) -> EmbedReport:
    """Embed these chunks now, for every model their workspace wants, if they are pending and
    not leased by another worker.

    Claims them (same lease rules as chunks_claim_pending), so calling it twice, or while
    another worker holds them, embeds nothing twice.
    """
    report = EmbedReport()
    backend = _backend_for(report, backend)
    if backend is None:
        return report
    models = _Models(backend)
    claimed = chunks_claim_ids(chunk_ids=chunk_ids)
    report.claimed = len(claimed)
    work: _Work = {}
    try:
        _work_add(models, work, claimed, report, None)
        for model, items in work.items():
            model_backend = models.backend(model)
            todo = list(items.values())
            for batch in model_backend.batches([item.text for item in todo]):
                step = _batch_embed(model_backend, items, [todo[i] for i in batch], report, models.default_model)
                report.add_stored(step())
    finally:
        leases_release(cid for items in work.values() for item in items.values() for cid in item.chunk_ids)
    return report
