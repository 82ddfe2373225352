"""Real Celery worker processes, on Redis and on the filesystem broker.

Each test commits its data (transactional test database) and starts `celery -A cms worker`
as a subprocess pointed at the same test database, a private queue, and the chosen broker.
Redis is shared with other test runs, so the queue name is unique and only its keys are
removed afterwards.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.db import connection

from ingestion.models import Chunk, ChunkStatus
from ingestion.embeddings.fake import FakeEmbeddingBackend
from tests.factories import ContentTypeFactory, entry_make
from tests.ingestion.conftest import celery_broker, current_vector

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

REPO = Path(__file__).resolve().parents[2]
REDIS_URL = "redis://127.0.0.1:6379/11"
DEADLINE_SECONDS = 60.0


@dataclass
class Broker:
    kind: str
    url: str
    transport_options: dict
    env: dict
    queue: str


def _redis_cleanup(queue: str) -> None:
    import redis

    client = redis.Redis.from_url(REDIS_URL)
    try:
        for key in client.scan_iter(match=f"*{queue}*"):
            client.delete(key)
        for key in client.scan_iter(match="_kombu.binding.*"):
            for member in client.smembers(key):
                if queue.encode() in member:
                    client.srem(key, member)
        # Messages a killed worker left unacknowledged: ours only.
        for tag, payload in client.hgetall("unacked").items():
            if queue.encode() in payload:
                client.hdel("unacked", tag)
                client.zrem("unacked_index", tag)
    finally:
        client.close()


@pytest.fixture(params=["redis", "filesystem"])
def broker(request, tmp_path) -> Iterator[Broker]:
    queue = f"test-ingest-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    if request.param == "redis":
        import redis

        try:
            redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
        except redis.exceptions.ConnectionError:
            pytest.skip("Redis is not running on 127.0.0.1:6379 (.ci/run starts it)")
        yield Broker("redis", REDIS_URL, {"visibility_timeout": 3600}, {"CELERY_BROKER_URL": REDIS_URL}, queue)
        _redis_cleanup(queue)
    else:
        broker_dir = tmp_path / "broker"
        (broker_dir / "queue").mkdir(parents=True)
        (broker_dir / "processed").mkdir()
        options = {
            "data_folder_in": str(broker_dir / "queue"),
            "data_folder_out": str(broker_dir / "queue"),
            "processed_folder": str(broker_dir / "processed"),
            "store_processed": False,
            "control_folder": str(broker_dir / "control"),
        }
        env = {"CELERY_BROKER_URL": "filesystem://", "BROKER_DIR": str(broker_dir)}
        yield Broker("filesystem", "filesystem://", options, env, queue)


@pytest.fixture
def app_on_broker(broker):
    """This process publishes to the test's broker and queue, like the web process would."""
    with celery_broker(broker.url, transport_options=broker.transport_options, queue=broker.queue):
        yield broker


class Workers:
    """Starts worker subprocesses on the test database; kills whatever is left at the end."""

    def __init__(self, broker: Broker, tmp_path: Path):
        self.broker = broker
        self.tmp_path = tmp_path
        self.procs: list[subprocess.Popen] = []

    def start(self, *, provider: str, beat: bool = False, **extra_env: str) -> subprocess.Popen:
        params = connection.get_connection_params()
        database_url = f"postgres://{params.get('user', 'postgres')}@/{connection.settings_dict['NAME']}?host={params['host']}"
        env = {
            **os.environ,
            **self.broker.env,
            "DJANGO_SETTINGS_MODULE": "cms.settings",
            "DATABASE_URL": database_url,
            "CELERY_TASK_DEFAULT_QUEUE": self.broker.queue,
            "EMBEDDING_PROVIDER": provider,
            "INGESTION_SWEEP_SECONDS": "1",
            "PYTHONPATH": str(REPO),
            "LOG_LEVEL": "WARNING",
            **extra_env,
        }
        n = len(self.procs)
        command = [
            str(Path(sys.executable).parent / "celery"), "-A", "cms", "worker",
            "--pool=solo", "--without-mingle", "--without-gossip", "--without-heartbeat",
            "-n", f"{self.broker.queue}-{n}@%h", "--loglevel=WARNING",
        ]
        if beat:
            command += ["-B", "-s", str(self.tmp_path / f"beat-{n}")]
        log = open(self.tmp_path / f"worker-{n}.log", "w")  # noqa: SIM115 - closed with the process
        proc = subprocess.Popen(command, cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True)
        self.procs.append(proc)
        return proc

    def kill(self, proc: subprocess.Popen) -> None:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)

    def stop_all(self) -> None:
        # The test's assertions are done: no need for a graceful (slow) warm shutdown.
        for proc in self.procs:
            self.kill(proc)

    def logs(self) -> str:
        return "\n".join(p.read_text(errors="replace")[-3000:] for p in sorted(self.tmp_path.glob("worker-*.log")))


@pytest.fixture
def workers(app_on_broker, tmp_path):
    pool = Workers(app_on_broker, tmp_path)
    yield pool
    pool.stop_all()


def wait_until(condition: Callable[[], bool], workers: Workers, what: str) -> None:
    deadline = time.monotonic() + DEADLINE_SECONDS
    while time.monotonic() < deadline:
        if condition():
            return
        if any(p.poll() is not None for p in workers.procs if p.returncode not in (None, -signal.SIGKILL)):
            break
        time.sleep(0.2)
    pytest.fail(f"Timed out waiting for {what}. Worker logs:\n{workers.logs()}")


def all_embedded(count: int) -> Callable[[], bool]:
    return lambda: Chunk.objects.embedded().count() == count


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
