"""A real streaming replica of the embedded PostgreSQL, for the replica tests.

`pg_basebackup -R` copies the primary (the test database included) and writes the standby's
connection to it; a second `postgres` from the same binaries serves the copy on another port,
in hot standby. The replica joins Django's connections as `REPLICA_ALIAS`, a test mirror of
the primary's test database.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connections

from tests.postgres_servers import EmbeddedServer, run_as_server, server_root_made
from tests.servers import free_port

REPLICA_ALIAS = "replica_1"


@dataclass
class Replica(EmbeddedServer):
    """The standby: an embedded-binary server on its socket only, in hot standby."""

    primary_socket: str = ""

    def start(self) -> None:
        super().start(ready_sql="SELECT pg_is_in_recovery()")

    def execute(self, sql: str, dbname: str | None = None):
        with self.connect(dbname or connections["default"].settings_dict["NAME"]) as conn:
            cursor = conn.execute(sql)
            return cursor.fetchone() if cursor.description else None

    def cut_off(self) -> str:
        """Point the standby's primary_conninfo at nothing (issue 32's reproduction): its WAL
        receiver stops and does not come back. Returns the setting to give `reconnect`."""
        original = self.execute("SHOW primary_conninfo", dbname="postgres")[0]
        self.execute("ALTER SYSTEM SET primary_conninfo = 'host=/nonexistent port=1 user=postgres'", dbname="postgres")
        self.execute("SELECT pg_reload_conf()", dbname="postgres")
        deadline = time.monotonic() + 30
        while self.execute("SELECT count(*) FROM pg_stat_wal_receiver WHERE status = 'streaming'",
                           dbname="postgres")[0]:
            assert time.monotonic() < deadline, "the standby's WAL receiver did not stop"
            time.sleep(0.05)
        return original

    def reconnect(self, conninfo: str) -> None:
        self.execute(f"ALTER SYSTEM SET primary_conninfo = '{conninfo.replace(chr(39), chr(39) * 2)}'",
                     dbname="postgres")
        self.execute("SELECT pg_reload_conf()", dbname="postgres")

    def caught_up(self, timeout: float = 30) -> None:
        """Wait until the replica has replayed everything the primary has written so far."""
        with connections["default"].cursor() as cursor:
            cursor.execute("SELECT pg_current_wal_lsn()::text")
            target = cursor.fetchone()[0]
        deadline = time.monotonic() + timeout
        while not self.execute(f"SELECT pg_last_wal_replay_lsn() >= '{target}'::pg_lsn")[0]:
            assert time.monotonic() < deadline, "the replica did not catch up"
            time.sleep(0.05)


@pytest.fixture(scope="session")
def streaming_replica(django_db_setup, django_db_blocker) -> Iterator[Replica]:
    if "PGDATA" not in connections["default"].settings_dict:
        pytest.skip("the replica tests build their replica from the embedded PostgreSQL (DATABASE_URL is set)")
    with django_db_blocker.unblock():
        socket_dir = connections["default"].get_connection_params()["host"]
    root = server_root_made(Path(settings.EMBEDDED_PGDATA).parent / f"replica-{os.getpid()}")
    run_as_server(["pg_basebackup", "-D", str(root / "data"), "-R", "-X", "stream", "-c", "fast",
                   "-h", socket_dir, "-U", "postgres"])
    replica = Replica(root=root, port=free_port(), options=("shared_buffers=128MB", "hot_standby=on"),
                      primary_socket=socket_dir)
    try:
        replica.start()
    except BaseException:
        replica.stop()
        shutil.rmtree(root, ignore_errors=True)
        raise
    try:
        name = connections["default"].settings_dict["NAME"]
        connections.settings[REPLICA_ALIAS] = connections.configure_settings({
            "default": connections.settings["default"],
            REPLICA_ALIAS: {
                "ENGINE": "django.db.backends.postgresql", "NAME": name, "USER": "postgres",
                "HOST": str(root), "PORT": str(replica.port), "OPTIONS": {"connect_timeout": 2},
                "CONN_MAX_AGE": 60, "CONN_HEALTH_CHECKS": True, "TEST": {"MIRROR": "default"},
            }
        })[REPLICA_ALIAS]
        yield replica
    finally:
        if REPLICA_ALIAS in connections.settings:
            connections[REPLICA_ALIAS].close()
            del connections.settings[REPLICA_ALIAS]
        replica.stop()
        shutil.rmtree(root, ignore_errors=True)
