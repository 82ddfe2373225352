"""A real Celery worker writes its heartbeat (ingestion/heartbeat.py), and /api/health reads it:
ok while the worker lives, degraded once it is gone and chunks wait, naming it and the oldest
pending chunk's age."""

from __future__ import annotations

import datetime
import os
import signal

import pytest
from django.utils import timezone

from ingestion.models import Chunk, WorkerHeartbeat
from search.operations.health import broker_checks_forget
from tests.factories import ContentTypeFactory, entry_make
from tests.ingestion.worker_support import all_embedded, wait_until

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

TOKEN = "health-token-for-heartbeat-tests-0123456789"
# The worker beats every half second; this process counts it gone after 3 s of silence.
WORKER_ENV = {"WORKER_HEARTBEAT_SECONDS": "0.5"}


@pytest.fixture(autouse=True)
def _health(settings):
    settings.HEALTH_TOKEN = TOKEN
    settings.WORKER_ALIVE_SECONDS = 3
    settings.HEALTH_PENDING_MAX_AGE_SECONDS = 60
    broker_checks_forget()
    yield
    broker_checks_forget()


def health(client) -> tuple[int, dict]:
    response = client.get("/api/health", HTTP_X_HEALTH_TOKEN=TOKEN)
    return response.status_code, response.json()


@pytest.mark.parametrize("broker", ["redis"], indirect=True)
def test_health_is_ok_with_a_live_worker_and_degraded_once_it_is_killed(client, workspace, workers):
    doc = ContentTypeFactory(workspace=workspace, api_id="doc", semantic_search_enabled=True)
    entry_make(doc, title="Saved before any worker ran")
    status, body = health(client)
    assert status == 503 and body["workers"]["problem"] == "no_worker"

    worker = workers.start(provider="fake", **WORKER_ENV)
    wait_until(all_embedded(1), workers, "the worker to embed the chunk")
    wait_until(lambda: health(client)[0] == 200, workers, "health to see the worker")
    status, body = health(client)
    (alive,) = body["workers"]["alive"]
    assert alive["name"].startswith(f"{workers.broker.queue}-0@")
    assert f"{workers.broker.queue}.content" in alive["queues"]

    workers.kill(worker)
    entry_make(doc, title="Saved after the worker was killed")
    Chunk.objects.pending().update(updated_at=timezone.now() - datetime.timedelta(seconds=120))
    # Older than HEALTH_PENDING_MAX_AGE_SECONDS: degraded at once, while the worker's last heartbeat
    # is still recent; then, its heartbeat older than WORKER_ALIVE_SECONDS, for want of a worker.
    status, body = health(client)
    assert status == 503 and body["workers"]["problem"] in ("pending_too_old", "no_worker")
    wait_until(lambda: health(client)[1]["workers"].get("problem") == "no_worker", workers,
               "health to count the killed worker gone")
    status, body = health(client)
    assert status == 503 and body["status"] == "degraded"
    (gone,) = body["workers"]["gone"]
    assert gone["name"] == alive["name"] and gone["stopped"] is False and gone["seen_seconds_ago"] >= 3
    assert body["workers"]["oldest_pending_seconds"] >= 120
    assert client.get("/api/health").json() == {"ok": False, "status": "degraded"}


@pytest.mark.parametrize("broker", ["filesystem"], indirect=True)
def test_a_worker_stopped_warmly_marks_itself_stopped(client, workspace, workers):
    worker = workers.start(provider="fake", **WORKER_ENV)
    wait_until(lambda: WorkerHeartbeat.objects.filter(stopped_at__isnull=True).exists(), workers,
               "the worker's first heartbeat")
    first_seen = WorkerHeartbeat.objects.get().seen_at
    wait_until(lambda: WorkerHeartbeat.objects.get().seen_at > first_seen, workers, "a second heartbeat")
    os.killpg(worker.pid, signal.SIGTERM)  # Celery's warm shutdown
    worker.wait(timeout=60)
    row = WorkerHeartbeat.objects.get()
    assert row.stopped_at is not None and row.pid == worker.pid
    doc = ContentTypeFactory(workspace=workspace, api_id="doc", semantic_search_enabled=True)
    entry_make(doc, title="Saved after the worker stopped")
    status, body = health(client)
    assert status == 503 and body["workers"]["gone"][0]["stopped"] is True
