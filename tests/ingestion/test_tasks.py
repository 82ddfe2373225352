"""Celery tasks and receivers, run in-process: each task run twice, retries, enqueue on commit."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from cms import services as cms_services
from ingestion import tasks
from ingestion.models import Chunk, ChunkStatus
from tests.factories import ContentTypeFactory, entry_make
from tests.ingestion.conftest import celery_broker, use_backend
from tests.ingestion.worker_backends import FailingBackend


@pytest.fixture
def enqueued(monkeypatch):
    """Record embed tasks sent to the broker instead of sending them."""
    sent: list[dict] = []
    monkeypatch.setattr(tasks.chunks_embed_pending_task, "delay", lambda **kwargs: sent.append(kwargs))
    return sent


def rows():
    return list(Chunk.objects.order_by("id").values())


def test_embed_task_twice_second_run_makes_no_call_and_changes_no_row(semantic_type, fake_backend):
    entry_make(semantic_type, title="Refund policy", body="<p>Refunds within 30 days.</p>")
    first = tasks.chunks_embed_pending_task.apply(kwargs={"workspace_id": semantic_type.workspace_id}).get()
    assert first["embedded"] == 1
    before, calls = rows(), len(fake_backend.calls)
    second = tasks.chunks_embed_pending_task.apply(kwargs={"workspace_id": semantic_type.workspace_id}).get()
    assert second["claimed"] == 0 and len(fake_backend.calls) == calls and rows() == before


def test_embed_task_retries_are_capped_and_the_chunk_stays_pending(semantic_type, settings):
    use_backend(settings, "tests.ingestion.worker_backends.FailingBackend")
    FailingBackend.transient = True
    settings.EMBED_RETRY_BASE_SECONDS = 0  # due again at once, so every eager retry claims it
    entry_make(semantic_type, title="Refund policy")
    result = tasks.chunks_embed_pending_task.apply()
    assert result.failed()
    chunk = Chunk.objects.get()
    # One run plus TASK_MAX_RETRIES retries; a transient error never fails the chunk: it
    # stays pending for the sweep.
    assert (chunk.status, chunk.attempts) == (ChunkStatus.PENDING, 1 + tasks.TASK_MAX_RETRIES)
    assert chunk.leased_until is None


def test_embed_task_does_not_retry_permanent_errors(semantic_type, settings):
    use_backend(settings, "tests.ingestion.worker_backends.FailingBackend")
    FailingBackend.transient = False
    entry_make(semantic_type, title="Refund policy")
    assert tasks.chunks_embed_pending_task.apply().get() == {"error": "provider said 503"}
    chunk = Chunk.objects.get()
    assert (chunk.status, chunk.attempts) == (ChunkStatus.FAILED, 1)


def test_embed_task_without_provider_leaves_chunks_pending(semantic_type, no_backend):
    entry_make(semantic_type, title="Refund policy")
    before = rows()
    assert tasks.chunks_embed_pending_task.apply().get()["not_configured"] is True
    assert rows() == before


def test_sweep_enqueues_stalled_pending_chunks_and_twice_changes_no_row(semantic_type, fake_backend, enqueued):
    entry_make(semantic_type, title="Task lost")
    Chunk.objects.update(updated_at=timezone.now() - datetime.timedelta(minutes=5))
    before = rows()
    tasks.chunks_sweep_task.apply(kwargs={"older_than_seconds": 60})
    tasks.chunks_sweep_task.apply(kwargs={"older_than_seconds": 60})
    assert enqueued == [{"workspace_id": semantic_type.workspace_id}] * 2
    assert rows() == before and fake_backend.calls == []


def test_sweep_leaves_fresh_and_leased_chunks_to_their_task(semantic_type, enqueued):
    entry_make(semantic_type, title="Just saved")
    entry_make(semantic_type, title="Being embedded")
    Chunk.objects.filter(text="Being embedded").update(
        updated_at=timezone.now() - datetime.timedelta(minutes=5),
        leased_until=timezone.now() + datetime.timedelta(minutes=5),
    )
    tasks.chunks_sweep_task.apply(kwargs={"older_than_seconds": 60})
    assert enqueued == []


def test_sweep_waits_for_a_backed_off_chunk_to_be_due(semantic_type, enqueued):
    entry_make(semantic_type, title="Provider was down")
    past = timezone.now() - datetime.timedelta(minutes=5)
    Chunk.objects.update(updated_at=past, attempts=3, retry_at=timezone.now() + datetime.timedelta(minutes=2))
    tasks.chunks_sweep_task.apply(kwargs={"older_than_seconds": 60})
    assert enqueued == []

    Chunk.objects.update(retry_at=timezone.now() - datetime.timedelta(hours=1))
    tasks.chunks_sweep_task.apply(kwargs={"older_than_seconds": 60})
    assert enqueued == [{"workspace_id": semantic_type.workspace_id}]


def test_a_backed_off_chunk_does_not_hide_new_work_of_its_workspace(semantic_type, enqueued):
    entry_make(semantic_type, title="Provider was down")
    Chunk.objects.update(attempts=3, retry_at=timezone.now() + datetime.timedelta(minutes=30))
    entry_make(semantic_type, title="Saved while the broker was down")
    Chunk.objects.update(updated_at=timezone.now() - datetime.timedelta(minutes=5))
    tasks.chunks_sweep_task.apply(kwargs={"older_than_seconds": 60})
    assert enqueued == [{"workspace_id": semantic_type.workspace_id}]


def test_sweep_skips_a_workspace_a_worker_is_working_through(semantic_type, enqueued):
    entry_make(semantic_type, title="Waiting its turn")
    entry_make(semantic_type, title="In a worker's batch")
    Chunk.objects.update(updated_at=timezone.now() - datetime.timedelta(minutes=5))
    Chunk.objects.filter(text="In a worker's batch").update(leased_until=timezone.now() + datetime.timedelta(minutes=5))
    tasks.chunks_sweep_task.apply(kwargs={"older_than_seconds": 60})
    assert enqueued == []


def test_sweep_releases_expired_leases_of_killed_workers(semantic_type, enqueued):
    entry_make(semantic_type, title="Worker killed")
    Chunk.objects.update(
        updated_at=timezone.now() - datetime.timedelta(minutes=5),
        leased_until=timezone.now() - datetime.timedelta(seconds=1),
    )
    result = tasks.chunks_sweep_task.apply(kwargs={"older_than_seconds": 60}).get()
    assert result["released"] == 1 and Chunk.objects.get().leased_until is None
    assert enqueued == [{"workspace_id": semantic_type.workspace_id}]


def test_sync_content_type_task_twice_changes_nothing_the_second_time(article_type, enqueued):
    entry_make(article_type, title="Existing")
    article_type.semantic_search_enabled = True
    article_type.save()
    tasks.chunks_sync_content_type_task.apply(args=[article_type.pk])
    assert enqueued == [{"workspace_id": article_type.workspace_id}]
    before = rows()
    assert tasks.chunks_sync_content_type_task.apply(args=[article_type.pk]).get() == {
        "created": 0, "changed": 0, "deleted": 0}
    assert rows() == before and len(enqueued) == 1


def test_sync_content_type_task_for_a_deleted_type_does_nothing(db):
    assert tasks.chunks_sync_content_type_task.apply(args=[999_999]).get() == {"missing": True}


# --- receivers -----------------------------------------------------------------------------


def test_saving_an_entry_enqueues_embedding_on_commit(semantic_type, enqueued, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        entry_make(semantic_type, title="Refund policy")
    assert enqueued == [] and Chunk.objects.pending().count() == 1  # chunks written, task not yet sent
    for callback in callbacks:
        callback()
    assert enqueued == [{"workspace_id": semantic_type.workspace_id}]


def test_saving_unchanged_content_enqueues_nothing(semantic_type, enqueued, django_capture_on_commit_callbacks):
    entry = entry_make(semantic_type, title="Refund policy")
    with django_capture_on_commit_callbacks(execute=True):
        cms_services.entry_update(entry=entry, data=dict(entry.data))
        cms_services.entry_update(entry=entry, status="draft")
    assert enqueued == []


def test_toggle_on_enqueues_embedding_and_toggle_off_enqueues_nothing(
    article_type, enqueued, django_capture_on_commit_callbacks
):
    entry_make(article_type, title="Existing")
    with django_capture_on_commit_callbacks(execute=True):
        cms_services.content_type_update(content_type=article_type, semantic_search_enabled=True)
    assert enqueued == [{"workspace_id": article_type.workspace_id}]
    with django_capture_on_commit_callbacks(execute=True):
        cms_services.content_type_update(content_type=article_type, semantic_search_enabled=False)
    assert len(enqueued) == 1 and not Chunk.objects.exists()


def test_uploading_a_text_asset_enqueues_embedding(workspace, enqueued, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        cms_services.asset_upload(workspace=workspace, filename="faq.md", content=b"# FAQ\n\nText.")
    assert enqueued == [{"workspace_id": workspace.pk}]


def test_a_failed_save_leaves_no_chunks(semantic_type):
    with pytest.raises(Exception):  # noqa: B017 - the validation error from entry_data_validate
        cms_services.entry_create(content_type=semantic_type, data={"body": "<p>no title</p>"})
    assert not Chunk.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_broker_down_at_save_time_keeps_the_save_and_the_sweep_recovers(workspace, fake_backend, caplog, monkeypatch):
    semantic_type = ContentTypeFactory(workspace=workspace, api_id="doc", semantic_search_enabled=True)
    with celery_broker("redis://127.0.0.1:1/0"):  # nothing listens on port 1
        entry = entry_make(semantic_type, title="Saved while the broker was down")
    assert "the sweep will retry" in caplog.text
    chunk = Chunk.objects.get(entry=entry)
    assert chunk.status == ChunkStatus.PENDING

    Chunk.objects.update(updated_at=timezone.now() - datetime.timedelta(minutes=5))
    sent: list[dict] = []
    monkeypatch.setattr(tasks.chunks_embed_pending_task, "delay", lambda **kwargs: sent.append(kwargs))
    tasks.chunks_sweep_task.apply()
    assert sent == [{"workspace_id": workspace.pk}]
    tasks.chunks_embed_pending_task.apply(kwargs=sent[0])
    assert Chunk.objects.get(entry=entry).status == ChunkStatus.EMBEDDED
