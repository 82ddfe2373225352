"""Fixtures for ingestion tests: a chosen embedding backend, and a private Celery broker.

Non-worker tests publish to an in-memory broker, so enqueued tasks go nowhere; worker tests
point the app (and their worker processes) at Redis or a filesystem broker with a queue
name unique to the test, because Redis is shared with other test runs.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterator

import pytest
from kombu import pools as kombu_pools

from config.celery import app as celery_app
from ingestion.embeddings import reset_embedding_backends
from ingestion.embeddings.fake import FakeEmbeddingBackend
from tests.factories import ContentTypeFactory


@contextlib.contextmanager
def celery_broker(url: str, *, transport_options: dict | None = None, queue: str | None = None) -> Iterator[str]:
    """Point this process's Celery app at `url` and `queue`; restore the previous setup after."""
    conf = celery_app.conf
    saved = (conf.broker_url, conf.broker_transport_options, conf.task_default_queue)
    queue = queue or f"test-{os.getpid()}-{uuid.uuid4().hex[:8]}"

    def reset_pools() -> None:
        # Close and forget every pooled connection: kombu keeps pools in a global registry
        # keyed by URL, and a closed pool left there would be handed out again.
        kombu_pools.reset()
        celery_app._pool = None
        with contextlib.suppress(KeyError):
            celery_app.__dict__["amqp"]._producer_pool = None

    reset_pools()
    conf.broker_url = url
    conf.broker_transport_options = transport_options or {}
    conf.task_default_queue = queue
    try:
        yield queue
    finally:
        reset_pools()
        conf.broker_url, conf.broker_transport_options, conf.task_default_queue = saved


@pytest.fixture(autouse=True)
def _memory_broker():
    with celery_broker("memory://") as queue:
        yield queue


def worker_alive_record(queue: str, name: str = "test-worker@host") -> None:
    """A live worker on every queue under `queue`, as its heartbeat (ingestion/heartbeat.py) writes it."""
    from django.utils import timezone

    from ingestion.queues import queue_names
    from ingestion.services.heartbeat import worker_heartbeat_record

    worker_heartbeat_record(name=name, queues=queue_names(queue), pid=os.getpid(), started_at=timezone.now())


@pytest.fixture
def live_worker(_memory_broker, db):
    """A worker's heartbeat on this test's queues: pages give estimates, not "no worker is running"."""
    worker_alive_record(_memory_broker)


def use_backend(settings, path: str, **options) -> None:
    settings.SEARCH_EMBEDDING_BACKENDS = {
        "default": {"BACKEND": path, "OPTIONS": options, "PRICE_PER_MILLION_TOKENS": 0.06}
    }
    reset_embedding_backends()


@pytest.fixture
def fake_backend(settings):
    """The deterministic test provider, with its call log emptied."""
    use_backend(settings, "ingestion.embeddings.fake.FakeEmbeddingBackend")
    FakeEmbeddingBackend.calls.clear()
    yield FakeEmbeddingBackend
    FakeEmbeddingBackend.calls.clear()
    reset_embedding_backends()


@pytest.fixture
def no_backend(settings):
    settings.SEARCH_EMBEDDING_BACKENDS = {"default": None}
    reset_embedding_backends()
    yield
    reset_embedding_backends()


@pytest.fixture
def semantic_type(workspace):
    return ContentTypeFactory(workspace=workspace, api_id="doc", semantic_search_enabled=True)


def provider_calls() -> int:
    return sum(1 for input_type, _ in FakeEmbeddingBackend.calls if input_type == "document")


def queued_tasks(queue: str) -> list[tuple[str, dict]]:
    """Take every task message waiting in `queue` and its named ingestion queues
    (ingestion/queues.py) on the current broker: (task name, kwargs), queue by queue."""
    from ingestion.queues import queue_names

    taken: list[tuple[str, dict]] = []
    with celery_app.connection_for_read() as connection:
        for name in queue_names(queue):
            simple = connection.SimpleQueue(name, no_ack=True)
            try:
                while True:
                    try:
                        message = simple.get(block=False)
                    except simple.Empty:
                        break
                    taken.append((message.headers["task"], message.decode()[1]))
            finally:
                simple.close()
    return taken


def current_vector(chunk, model: str = "fake-hash-16"):
    """The chunk's vector of `model` made from its current text (a ChunkVector), or None."""
    from ingestion.models import Chunk, ChunkVector

    chunk = Chunk.objects.get(pk=chunk.pk)
    return ChunkVector.objects.filter(chunk=chunk, model=model, content_hash=chunk.content_hash).first()


@pytest.fixture
def two_models(settings, fake_backend):
    """The configured fake (active by default) and a second model to switch to: `other`
    (tests.ingestion.worker_backends.OtherFakeBackend, fake-other-8)."""
    from tests.ingestion.worker_backends import OtherFakeBackend

    settings.SEARCH_EMBEDDING_MODELS = {
        "fake": {"BACKEND": "ingestion.embeddings.fake.FakeEmbeddingBackend", "OPTIONS": {}},
        "other": {"BACKEND": "tests.ingestion.worker_backends.OtherFakeBackend", "OPTIONS": {}},
    }
    reset_embedding_backends()
    OtherFakeBackend.calls.clear()
    yield
    OtherFakeBackend.calls.clear()


# The real-worker fixtures (a broker per transport, worker processes on it) live with their
# helpers; importing them here makes them fixtures of every ingestion test module. At the end:
# worker_support imports celery_broker from this module.
from tests.ingestion.worker_support import app_on_broker, broker, workers  # noqa: E402, F401 - fixtures
