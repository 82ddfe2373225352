"""/api/health and /metrics on the workers: degraded when chunks wait with no live worker on
their queue, or when the oldest pending chunk is older than HEALTH_PENDING_MAX_AGE_SECONDS.

Heartbeat rows are written by the worker's own service (ingestion.services.heartbeat); a real
worker writing them: tests/ingestion/test_worker_heartbeat.py.
"""

from __future__ import annotations

import datetime
import os

import pytest
from django.utils import timezone

from ingestion.models import Chunk, WorkerHeartbeat
from ingestion.queues import queue_names
from ingestion.services.heartbeat import worker_heartbeat_record, worker_heartbeat_stop
from search.operations.health import broker_checks_forget
from tests.factories import entry_make
from tests.ingestion.conftest import celery_broker, fake_backend, no_backend, semantic_type  # noqa: F401 - fixtures
from tests.search.operations.test_metrics import parse

TOKEN = "health-token-for-worker-tests-0123456789"
DETAILS = {"HTTP_X_HEALTH_TOKEN": TOKEN}


@pytest.fixture(autouse=True)
def _broker_and_token(settings):
    settings.HEALTH_TOKEN = TOKEN
    broker_checks_forget()
    with celery_broker("memory://") as queue:
        yield queue
    broker_checks_forget()


@pytest.fixture
def pending(fake_backend, semantic_type):  # noqa: F811 - fixtures imported above
    entry_make(semantic_type, title="Waits for a worker")
    assert Chunk.objects.pending().count() == 1


def beat(name: str, queues: list[str], *, seconds_ago: float = 0.0) -> None:
    worker_heartbeat_record(name=name, queues=queues, pid=os.getpid(), started_at=timezone.now())
    if seconds_ago:
        WorkerHeartbeat.objects.filter(name=name).update(seen_at=timezone.now() - datetime.timedelta(seconds=seconds_ago))


def age_pending(seconds: float) -> None:
    Chunk.objects.pending().update(updated_at=timezone.now() - datetime.timedelta(seconds=seconds))


def test_nothing_waiting_and_no_worker_is_ok(client, db, fake_backend):  # noqa: F811
    body = client.get("/api/health", **DETAILS).json()
    assert body["ok"] is True
    assert body["workers"]["alive"] == [] and body["workers"]["oldest_pending_seconds"] is None


def test_chunks_waiting_with_no_worker_ever_seen_is_degraded(client, pending, _broker_and_token):
    response = client.get("/api/health", **DETAILS)
    assert response.status_code == 503
    workers = response.json()["workers"]
    assert workers["ok"] is False and workers["problem"] == "no_worker" and workers["unserved"] == ["content"]
    assert workers["oldest_pending_seconds"] is not None
    assert client.get("/api/health").json() == {"ok": False, "status": "degraded"}


def test_a_live_worker_on_the_content_queue_makes_it_ok(client, pending, _broker_and_token):
    beat("w1@host", queue_names(_broker_and_token))
    body = client.get("/api/health", **DETAILS).json()
    assert body["ok"] is True
    assert [w["name"] for w in body["workers"]["alive"]] == ["w1@host"]


def test_a_worker_on_the_backfill_queue_only_does_not_serve_pending_chunks(client, pending, _broker_and_token):
    beat("backfill@host", [f"{_broker_and_token}.backfill"])
    workers = client.get("/api/health", **DETAILS).json()["workers"]
    assert workers["problem"] == "no_worker" and [w["name"] for w in workers["alive"]] == ["backfill@host"]


def test_a_worker_silent_longer_than_worker_alive_seconds_is_named_gone(client, pending, settings, _broker_and_token):
    settings.WORKER_ALIVE_SECONDS = 30
    beat("w1@host", queue_names(_broker_and_token), seconds_ago=31)
    workers = client.get("/api/health", **DETAILS).json()["workers"]
    assert workers["problem"] == "no_worker" and workers["alive"] == []
    (gone,) = workers["gone"]
    assert gone["name"] == "w1@host" and gone["seen_seconds_ago"] >= 31 and gone["stopped"] is False


def test_a_stopped_worker_is_gone_at_once(client, pending, _broker_and_token):
    beat("w1@host", queue_names(_broker_and_token))
    worker_heartbeat_stop(name="w1@host", pid=os.getpid())
    workers = client.get("/api/health", **DETAILS).json()["workers"]
    assert workers["problem"] == "no_worker" and workers["gone"][0]["stopped"] is True


def test_pending_older_than_the_threshold_is_degraded_even_with_a_live_worker(client, pending, settings,
                                                                              _broker_and_token):
    settings.HEALTH_PENDING_MAX_AGE_SECONDS = 600
    beat("w1@host", queue_names(_broker_and_token))
    age_pending(599)
    assert client.get("/api/health").status_code == 200
    age_pending(601)
    workers = client.get("/api/health", **DETAILS).json()["workers"]
    assert workers["problem"] == "pending_too_old" and workers["oldest_pending_seconds"] >= 601


def test_without_an_embedding_provider_waiting_chunks_are_no_worker_problem(client, pending, no_backend):  # noqa: F811
    age_pending(3600)
    body = client.get("/api/health", **DETAILS).json()
    assert body["ok"] is True and body["workers"]["oldest_pending_seconds"] >= 3600


def test_health_reads_the_queue_head_in_a_fixed_number_of_queries(client, pending, _broker_and_token,
                                                                   django_assert_max_num_queries):
    for n in range(5):
        beat(f"w{n}@host", queue_names(_broker_and_token))
    with django_assert_max_num_queries(4):  # the server, the heartbeats, the queue head (+ a savepoint-free read)
        assert client.get("/api/health").status_code == 200


def test_metrics_export_live_workers_per_queue_and_the_oldest_pending_age(client, pending, settings,
                                                                            _broker_and_token):
    settings.HEALTH_TOKEN = TOKEN
    beat("w1@host", [f"{_broker_and_token}.content"])
    beat("w2@host", [f"{_broker_and_token}.content"], seconds_ago=3600)
    age_pending(120)
    response = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    samples = parse(response.content.decode())
    assert samples[("cms_workers_alive", ())] == 1
    assert samples[("cms_queue_workers_alive", (("queue", f"{_broker_and_token}.content"),))] == 1
    assert samples[("cms_chunks_oldest_pending_seconds", ())] >= 120
