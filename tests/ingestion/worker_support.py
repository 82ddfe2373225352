"""Real Celery worker processes for tests: a broker (Redis or the filesystem transport), a pool of
`celery -A config worker` subprocesses on the test database, and waiting for what they do.

Used by tests/ingestion/test_worker.py, test_faults.py and the switch worker tests. Redis is
shared with other test runs, so each broker's queue name is unique and only its keys are removed.
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

from ingestion.models import Chunk
from tests.ingestion.conftest import celery_broker

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

    def start(self, *, provider: str, beat: bool = False, queues: list[str] | None = None,
              **extra_env: str) -> subprocess.Popen:
        """A worker on every queue (the default one and the named ingestion queues), or on
        `queues` (kinds of ingestion/queues.py, e.g. ["backfill"]) only."""
        params = connection.get_connection_params()
        database_url = f"postgres://{params.get('user', 'postgres')}@/{connection.settings_dict['NAME']}?host={params['host']}"
        env = {
            **os.environ,
            **self.broker.env,
            "DJANGO_SETTINGS_MODULE": "config.settings",
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
            str(Path(sys.executable).parent / "celery"), "-A", "config", "worker",
            "--pool=solo", "--without-mingle", "--without-gossip", "--without-heartbeat",
            "-n", f"{self.broker.queue}-{n}@%h", "--loglevel=WARNING",
        ]
        if queues:
            from ingestion.queues import queue_name

            command += ["-Q", ",".join(queue_name(kind, self.broker.queue) for kind in queues)]
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
