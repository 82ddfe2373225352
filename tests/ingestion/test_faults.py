"""Real faults under real worker processes: the broker goes away, its disk turns read-only, the
provider stalls. In every case the saves succeed, nothing is lost, and everything is embedded
in the end (the worker SIGKILL case is in test_worker.py). Each test prints its counts.
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from pytest_httpserver import HTTPServer

from ingestion.models import Chunk, ChunkStatus
from tests.factories import ContentTypeFactory, entry_make
from tests.ingestion.conftest import celery_broker
from tests.ingestion.fake_voyage import API_KEY, FakeVoyage
from tests.ingestion.worker_support import Broker, Workers, all_embedded, wait_until
from tests.servers import free_port

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


class PrivateRedis:
    """A redis-server of this test's own on a free port, so stopping it disturbs no one else."""

    def __init__(self, tmp_path: Path):
        self.port = free_port()
        self.dir = tmp_path
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.dir)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                return
            time.sleep(0.1)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)


@pytest.fixture
def private_redis(tmp_path) -> Iterator[PrivateRedis]:
    if shutil.which("redis-server") is None:
        pytest.fail("redis-server is not installed (the machine's Redis package provides it)")
    server = PrivateRedis(tmp_path)
    server.start()
    yield server
    server.stop()


def doc_type(workspace):
    return ContentTypeFactory(workspace=workspace, api_id="doc", semantic_search_enabled=True)


def save(doc, prefix: str, count: int) -> None:
    for i in range(count):
        entry_make(doc, title=f"{prefix} {i}", body=f"<p>{prefix} body number {i}.</p>")


def test_redis_stopped_while_entries_are_saved_then_restarted(workspace, private_redis, tmp_path):
    broker = Broker("redis", private_redis.url, {"visibility_timeout": 3600},
                    {"CELERY_BROKER_URL": private_redis.url}, "faults")
    workers = Workers(broker, tmp_path)
    doc = doc_type(workspace)
    try:
        with celery_broker(broker.url, transport_options=broker.transport_options, queue=broker.queue):
            workers.start(provider="fake", beat=True)
            save(doc, "Before the outage", 3)
            wait_until(all_embedded(3), workers, "the entries saved before the outage")

            private_redis.stop()
            started = time.monotonic()
            save(doc, "During the outage", 5)  # each save succeeds; its enqueue fails and is logged
            saved_during = time.monotonic() - started
            time.sleep(2)
            # The outage really happened: the broker refused connections, and nothing embedded
            # the chunks saved meanwhile (each entry has at least one).
            with pytest.raises(redis.exceptions.ConnectionError):
                redis.Redis.from_url(private_redis.url, socket_connect_timeout=1).ping()
            pending_during = Chunk.objects.filter(status=ChunkStatus.PENDING).count()
            assert pending_during >= 5, pending_during
            private_redis.start()

            wait_until(all_embedded(8), workers, "every entry to be embedded after Redis came back")
    finally:
        workers.stop_all()
    print(f"\nRedis down: 5 saves took {saved_during:.1f} s and all committed; {pending_during} chunks pending "
          f"during the outage; after restart {Chunk.objects.embedded().count()}/8 embedded, "
          f"{Chunk.objects.failed().count()} failed")
    assert Chunk.objects.failed().count() == 0


@pytest.fixture
def read_only_capable_dir(tmp_path) -> Iterator[Path]:
    """A tmpfs mounted for this test, so it can be remounted read-only (even for root)."""
    mount_point = tmp_path / "broker"
    mount_point.mkdir()
    result = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(mount_point)],
                            capture_output=True, text=True)
    if result.returncode != 0:
        pytest.fail(f"could not mount a tmpfs for the broker folder (needs root): {result.stderr.strip()}")
    try:
        yield mount_point
    finally:
        subprocess.run(["mount", "-o", "remount,rw", str(mount_point)], check=False)
        subprocess.run(["umount", "-l", str(mount_point)], check=False)


def remount(path: Path, mode: str) -> None:
    subprocess.run(["mount", "-o", f"remount,{mode}", str(path)], check=True)


def test_read_only_broker_folder_loses_nothing(workspace, read_only_capable_dir, tmp_path):
    broker_dir = read_only_capable_dir
    for sub in ("queue", "processed", "control"):
        (broker_dir / sub).mkdir()
    options = {
        "data_folder_in": str(broker_dir / "queue"),
        "data_folder_out": str(broker_dir / "queue"),
        "processed_folder": str(broker_dir / "processed"),
        "store_processed": False,
        "control_folder": str(broker_dir / "control"),
    }
    broker = Broker("filesystem", "filesystem://", options,
                    {"CELERY_BROKER_URL": "filesystem://", "BROKER_DIR": str(broker_dir)}, "faults-fs")
    workers = Workers(broker, tmp_path)
    doc = doc_type(workspace)
    try:
        with celery_broker(broker.url, transport_options=options, queue=broker.queue):
            workers.start(provider="fake", beat=True)
            save(doc, "Before", 2)
            wait_until(all_embedded(2), workers, "the entries saved while the disk was writable")

            remount(broker_dir, "ro")
            save(doc, "Read-only", 4)  # the saves commit; publishing the task fails on the disk
            time.sleep(2)
            # The outage really happened: the folder refused writes, and the chunks saved
            # meanwhile waited (each entry has at least one).
            with pytest.raises(OSError):
                (broker_dir / "queue" / "probe").write_text("x")
            pending_during = Chunk.objects.filter(status=ChunkStatus.PENDING).count()
            assert pending_during >= 4, pending_during
            remount(broker_dir, "rw")

            wait_until(all_embedded(6), workers, "every entry to be embedded once the disk was writable again")
    finally:
        workers.stop_all()
    print(f"\nbroker folder read-only: 4 saves committed, {pending_during} chunks pending meanwhile; "
          f"then {Chunk.objects.embedded().count()}/6 embedded, {Chunk.objects.failed().count()} failed")
    assert Chunk.objects.failed().count() == 0


class StallingVoyage(FakeVoyage):
    """The fake Voyage API, stalling every request (never answering in time) until `until`."""

    def __init__(self) -> None:
        super().__init__()
        self.until = 0.0
        self.stalled = 0

    def __call__(self, request):
        if time.monotonic() < self.until:
            self.stalled += 1
            time.sleep(3.0)  # past the client's 1 s timeout
        return super().__call__(request)


@pytest.fixture
def stalling_voyage() -> Iterator[tuple[StallingVoyage, str]]:
    server = HTTPServer(host="127.0.0.1", port=0, threaded=True)
    server.start()
    fake = StallingVoyage()
    server.expect_request("/v1/embeddings", method="POST").respond_with_handler(fake)
    yield fake, f"http://127.0.0.1:{server.port}/v1"
    server.clear()
    server.stop()


def test_provider_stalling_past_its_timeout_delays_chunks_but_fails_none(
    workspace, private_redis, tmp_path, stalling_voyage
):
    fake, base_url = stalling_voyage
    broker = Broker("redis", private_redis.url, {}, {"CELERY_BROKER_URL": private_redis.url}, "faults-provider")
    workers = Workers(broker, tmp_path)
    doc = doc_type(workspace)
    env = {
        "VOYAGE_API_KEY": API_KEY,
        "VOYAGE_BASE_URL": base_url,
        "VOYAGE_TIMEOUT": "1",
        "VOYAGE_MAX_RETRIES": "1",
        "VOYAGE_RETRY_BASE_DELAY": "0.1",
        "EMBED_RETRY_BASE_SECONDS": "1",
        "EMBED_RETRY_MAX_SECONDS": "2",
    }
    try:
        with celery_broker(broker.url, queue=broker.queue):
            fake.until = float("inf")  # stalls until the test says otherwise
            save(doc, "Saved while the provider stalls", 6)
            workers.start(provider="voyage", beat=True, **env)
            wait_until(lambda: Chunk.objects.filter(attempts__gte=2).count() == 6, workers,
                       "every chunk to have failed twice against the stalled provider")
            attempts_during = sum(Chunk.objects.values_list("attempts", flat=True))
            failed_during = Chunk.objects.failed().count()
            fake.until = 0.0  # the provider answers again
            wait_until(all_embedded(6), workers, "every chunk to be embedded once the provider answers again")
    finally:
        workers.stop_all()
    print(f"\nprovider stalled {fake.stalled} requests past the 1 s timeout; {attempts_during} failed attempts "
          f"recorded on the chunks, {failed_during} failed; then {Chunk.objects.embedded().count()}/6 embedded")
    assert fake.stalled > 0 and attempts_during > 0
    assert failed_during == 0 and Chunk.objects.failed().count() == 0
