"""Named queues (ingestion/queues.py) with real Celery workers on Redis: a model switch's
backfill of 10,000 chunks does not hold up the embedding of a new entry by more than one batch."""

from __future__ import annotations

import hashlib
import time

import pytest

from config.celery import app as celery_app
from ingestion import queues, tasks
from ingestion.embeddings.fake import FakeEmbeddingBackend
from ingestion.models import Chunk, ChunkStatus, ChunkVector, SourceKind
from ingestion.services import switch
from tests.factories import ContentTypeFactory, entry_make
from tests.figures import figure_record
from tests.ingestion.worker_backends import EXTRA, OTHER, other_model  # noqa: F401 - fixture
from tests.ingestion.worker_support import wait_until

BACKLOG = 10_000
BATCH = 64  # EMBED_BATCH_MAX_CHUNKS in the workers: the chunks of one claim


def test_every_ingestion_task_has_a_named_queue_and_others_keep_the_default(settings):
    routes = {name: celery_app.amqp.router.route({}, name, (), {})["queue"].name
              for name in (*queues.TASK_QUEUE_KINDS, "some.other_task")}
    default = celery_app.conf.task_default_queue
    assert routes == {
        "ingestion.chunks_embed_pending": f"{default}.content",
        "ingestion.chunks_sync_content_type": f"{default}.content",
        "ingestion.chunks_embed_backfill": f"{default}.backfill",
        "ingestion.chunks_sweep": f"{default}.maintenance",
        "search.search_log_prune": f"{default}.maintenance",
        "some.other_task": default,
    }
    # Every task the ingestion and search apps define is routed: a new one must be given its queue.
    # The tasks modules a worker imports at its start (autodiscovery), whichever tests ran before in
    # this process: alone, only ingestion.tasks was imported, and search.search_log_prune was missing.
    celery_app.loader.import_default_modules()
    ingestion_tasks = {name for name in celery_app.tasks if name.startswith(("ingestion.", "search."))}
    assert ingestion_tasks == set(queues.TASK_QUEUE_KINDS)
    # A worker without -Q (make run) consumes them all (as configured; the test's broker renamed the default).
    configured = settings.CELERY_TASK_DEFAULT_QUEUE
    assert {q.name for q in celery_app.conf.task_queues} == {configured, *(f"{configured}.{kind}" for kind in
                                                                          ("content", "backfill", "maintenance"))}


def _backlog(workspace) -> None:
    """BACKLOG chunks embedded by the active model (the fake one), in two statements."""
    entry = entry_make(ContentTypeFactory(workspace=workspace, api_id="archive"), title="Archive")
    fake = FakeEmbeddingBackend()
    texts = [f"Archived note number {i} about topic {i % 97}" for i in range(BACKLOG)]
    chunks = Chunk.objects.bulk_create([
        Chunk(workspace=workspace, source_kind=SourceKind.ENTRY, entry=entry, field="body", ordinal=i, text=text,
              content_hash=hashlib.sha256(text.encode()).hexdigest(), title="Archive",
              metadata={"content_type": "archive", "status": "published", "source_kind": "entry", "fields": {}},
              status=ChunkStatus.EMBEDDED)
        for i, text in enumerate(texts)
    ], batch_size=2000)
    ChunkVector.objects.bulk_create([
        ChunkVector(chunk=chunk, workspace_id=workspace.pk, model=fake.model_name, dimensions=fake.dimensions,
                    embedding=fake._vector(chunk.text), content_hash=chunk.content_hash)
        for chunk in chunks
    ], batch_size=2000)


@pytest.mark.worker
@pytest.mark.usefixtures("other_model")
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("broker", ["redis"], indirect=True)
def test_a_backfill_of_ten_thousand_chunks_delays_a_new_entry_by_at_most_one_batch(
        workspace, workers, settings):
    settings.SEARCH_EMBEDDING_BACKENDS = {"default": {"BACKEND": "ingestion.embeddings.fake.FakeEmbeddingBackend",
                                                      "OPTIONS": {}, "PRICE_PER_MILLION_TOKENS": 0.06}}
    _backlog(workspace)
    switch.embedding_switch_start(workspace=workspace, model="other")  # enqueues the backfill on commit
    assert Chunk.objects.filter(status=ChunkStatus.BACKFILL).count() == BACKLOG
    env = {"EMBED_BATCH_MAX_CHUNKS": str(BATCH), "OTHER_BACKEND_SECONDS": "0.05", **EXTRA}
    workers.start(provider="fake", queues=[queues.BACKFILL], **env)
    workers.start(provider="fake", queues=[queues.CONTENT], **env)

    def covered() -> int:
        return ChunkVector.objects.filter(model=OTHER).count()

    wait_until(lambda: covered() >= 2 * BATCH, workers, "the backfill to store two batches")
    started, start_count = time.monotonic(), covered()
    doc = ContentTypeFactory(workspace=workspace, api_id="doc", semantic_search_enabled=True)
    saved_at = time.monotonic()
    new = entry_make(doc, title="A brand new refund policy")  # enqueued on the content queue
    wait_until(lambda: Chunk.objects.filter(entry=new).exclude(status=ChunkStatus.PENDING).count()
               == Chunk.objects.filter(entry=new).count() > 0, workers, "the new entry to be embedded")
    latency = time.monotonic() - saved_at
    # How long one batch of the backfill takes, measured over the same moments.
    wait_until(lambda: covered() >= start_count + 2 * BATCH, workers, "two more backfill batches")
    batch_seconds = (time.monotonic() - started) / ((covered() - start_count) / BATCH)
    remaining = Chunk.objects.filter(status=ChunkStatus.BACKFILL).count()
    figure_record(f"queues: new entry embedded after {latency:.2f} s; one backfill batch of {BATCH} takes {batch_seconds:.2f} s; "
          f"{remaining} of {BACKLOG} chunks still to backfill")
    assert remaining > BACKLOG / 2  # the backfill was far from done
    assert latency <= batch_seconds
    # The new entry's chunk has the active model's vector and the target's.
    assert set(ChunkVector.objects.filter(chunk__entry=new).values_list("model", flat=True)) == {"fake-hash-16", OTHER}


def test_sweep_sends_stalled_pending_and_backfill_chunks_to_their_own_queues(workspace, settings, monkeypatch):
    sent: list[tuple[str, dict]] = []
    monkeypatch.setattr(tasks.chunks_embed_pending_task, "delay", lambda **kw: sent.append(("content", kw)))
    monkeypatch.setattr(tasks.chunks_embed_backfill_task, "delay", lambda **kw: sent.append(("backfill", kw)))
    other = ContentTypeFactory(workspace=workspace, api_id="other").workspace  # same workspace, another type
    entry = entry_make(ContentTypeFactory(workspace=workspace, api_id="notes"), title="x")
    for i, status in enumerate((ChunkStatus.PENDING, ChunkStatus.BACKFILL)):
        Chunk.objects.create(workspace=other, source_kind=SourceKind.ENTRY, entry=entry, field="body", ordinal=i,
                             text=f"t{i}", content_hash=f"h{i}", status=status)
    Chunk.objects.update(updated_at="2000-01-01T00:00:00Z")
    tasks.chunks_sweep_task.apply(kwargs={"older_than_seconds": 60})
    assert sorted(sent) == [("backfill", {"workspace_id": workspace.pk}), ("content", {"workspace_id": workspace.pk})]
