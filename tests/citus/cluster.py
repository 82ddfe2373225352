"""A real Citus cluster on the embedded PostgreSQL's binaries, for the Citus tests.

A coordinator and two workers, each a `postgres` of the wheel (`initdb`, then `postgres -D`),
in its own data directory under var/, on its own loopback port, with citus preloaded. They
trust each other's connections on 127.0.0.1 (initdb -A trust), as docker/citus does on its
network. Started once per test session (tests/citus/conftest.py), and by bench/growth.py --citus;
each node is a tests/postgres_servers.py server, stopped by pid.

Citus is built into the wheel by `make citus`; where it is not (`citus_built()` is false)
the Citus tests skip, saying so.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path

from tests.postgres_servers import EmbeddedServer, pg_bin
from tests.servers import free_port

NODE_NAMES = ("coordinator", "worker1", "worker2")
NODE_SETTINGS = ("shared_preload_libraries=citus,pg_textsearch", "shared_buffers=128MB", "max_connections=200", "fsync=off",
                 "synchronous_commit=off", "full_page_writes=off", "max_prepared_transactions=100",
                 "wal_level=logical", "citus.shard_count=8")


def citus_built() -> bool:
    """Whether `make citus` installed Citus into the wheel (citus.so and its control file)."""
    bin_dir = pg_bin()
    return ((bin_dir.parent / "lib" / "postgresql" / "citus.so").exists()
            and (bin_dir.parent / "share" / "postgresql" / "extension" / "citus.control").exists())


@dataclass
class Node(EmbeddedServer):
    """A node: an embedded-binary server on 127.0.0.1 with citus preloaded."""

    name: str = ""
    tcp: bool = True
    options: tuple[str, ...] = NODE_SETTINGS

    def start(self) -> None:
        try:
            super().start()
        except RuntimeError as exc:
            raise RuntimeError(f"the Citus {self.name}: {exc}") from None

    def execute(self, dbname: str, *statements: str) -> list[tuple]:
        with self.connect(dbname) as conn:
            rows: list[tuple] = []
            for sql in statements:
                cursor = conn.execute(sql)
                rows = cursor.fetchall() if cursor.description else []
            return rows


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
        cluster = cls(root=root, nodes=[Node(root=root / name, port=free_port(), name=name) for name in NODE_NAMES])
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
            extensions = ["citus"] if node is self.coordinator else ["citus", "vector", "pg_trgm", "pg_textsearch"]
            node.execute(dbname, *(f"CREATE EXTENSION IF NOT EXISTS {e}" for e in extensions))
        self.coordinator.execute(
            dbname, f"SELECT citus_set_coordinator_host('127.0.0.1', {self.coordinator.port})",
            *(f"SELECT citus_add_node('127.0.0.1', {worker.port})" for worker in self.workers))

    def stop(self) -> None:
        for node in reversed(self.nodes):
            node.stop()
