"""Real Celery worker processes, on Redis and on the filesystem broker.

Each test commits its data (transactional test database) and starts `celery -A config worker`
as a subprocess pointed at the same test database, a private queue, and the chosen broker.
Redis is shared with other test runs, so the queue name is unique and only its keys are
removed afterwards.
"""

from __future__ import annotations

import pytest
from django.db import connection

from ingestion.embeddings.fake import FakeEmbeddingBackend
from ingestion.models import Chunk, ChunkStatus
from tests.factories import ContentTypeFactory, entry_make
from tests.ingestion.conftest import celery_broker, current_vector
from tests.ingestion.worker_support import all_embedded, wait_until

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]



def test_saved_entry_is_embedded_by_a_worker_and_found_by_a_vector_query(workspace, workers):
    from ingestion.embeddings.local import LocalEmbeddingBackend

    doc = ContentTypeFactory(workspace=workspace, api_id="doc", semantic_search_enabled=True)
    refund = entry_make(doc, title="Refund policy", body="<p>You can return any item within 30 days of delivery "
                        "for a full refund, as long as it is unused.</p>")
    entry_make(doc, title="Shipping times", body="<p>Orders ship from our Osaka warehouse within two days.</p>")
    entry_make(doc, title="Password reset", body="<p>Open Settings, choose Security, and follow the link.</p>")
    total = Chunk.objects.count()
    workers.start(provider="local")
    wait_until(all_embedded(total), workers, "the worker to embed every chunk")

    query = LocalEmbeddingBackend().embed_query("返品")
    literal = "[" + ",".join(map(str, query)) + "]"
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.entry_id FROM ingestion_chunkvector v JOIN ingestion_chunk c ON c.id = v.chunk_id"
            " WHERE v.workspace_id = %s AND v.model = %s"
            " ORDER BY (v.embedding::vector(512)) <=> %s::vector(512) LIMIT 1",
            [workspace.pk, "use-multilingual-v3", literal],
        )
        assert cursor.fetchone()[0] == refund.pk


def test_worker_killed_mid_batch_loses_no_chunk(workspace, workers, tmp_path):
    doc = ContentTypeFactory(workspace=workspace, api_id="doc", semantic_search_enabled=True)
    for i in range(12):
        entry_make(doc, title=f"Durable text number {i}")
    marker = tmp_path / "batches"
    env = {"SLOW_BACKEND_MARKER": str(marker), "SLOW_BACKEND_SECONDS": "1.0", "EMBED_BATCH_MAX_CHUNKS": "4",
           "INGESTION_LEASE_SECONDS": "3"}
    provider = "tests.ingestion.worker_backends.SlowFakeBackend"
    first = workers.start(provider=provider, **env)
    wait_until(lambda: marker.exists() and len(marker.read_text().splitlines()) >= 2, workers,
               "the second batch to start")
    workers.kill(first)  # SIGKILL while the second batch is in flight
    assert Chunk.objects.embedded().count() < 12
    assert Chunk.objects.filter(leased_until__isnull=False, status=ChunkStatus.PENDING).exists()

    # Nothing re-sends the lost task: the restarted worker's beat sweep finds the chunks.
    workers.start(provider=provider, beat=True, **env)
    wait_until(all_embedded(12), workers, "every chunk to be embedded after the restart")
    fake = FakeEmbeddingBackend()
    for chunk in Chunk.objects.all():
        assert list(current_vector(chunk).embedding) == pytest.approx(fake._vector(chunk.text), abs=1e-6)
        assert chunk.leased_until is None


def test_beat_sweep_enqueues_chunks_saved_while_the_broker_was_down(workspace, workers):
    doc = ContentTypeFactory(workspace=workspace, api_id="doc", semantic_search_enabled=True)
    with celery_broker("redis://127.0.0.1:1/0"):  # nothing listens there: the enqueue fails
        entry = entry_make(doc, title="Saved while the broker was down")
    assert Chunk.objects.get(entry=entry).status == ChunkStatus.PENDING
    workers.start(provider="fake", beat=True)  # its beat sweeps every second
    wait_until(all_embedded(1), workers, "the sweep to re-enqueue the chunk")


def test_reindex_from_the_admin_is_carried_out_by_a_worker(workspace, workers, client, editor):
    doc = ContentTypeFactory(workspace=workspace, api_id="doc", semantic_search_enabled=True)
    for i in range(3):
        entry_make(doc, title=f"Reindexed text {i}")
    Chunk.objects.all().delete()  # as if chunking had been lost: only a re-sync brings them back
    client.force_login(editor)
    response = client.post(f"/admin/ingestion/status/{workspace.slug}/", {"action": "reindex", "content_types": [doc.pk]})
    assert response.status_code == 302 and not Chunk.objects.exists()  # queued, not done in the request
    workers.start(provider="fake")
    wait_until(lambda: Chunk.objects.embedded().count() == 3, workers, "the worker to re-chunk and embed the type")
