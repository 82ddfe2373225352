"""`make run` as a person uses it: Ctrl-C leaves no process behind, and a second run starts cleanly.

`make run` starts in a session of its own, as a terminal would start it, on a free port,
with a throwaway database on the embedded server and a throwaway broker folder. Ctrl-C is
SIGINT to the whole process group, as a terminal sends it.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path

import psutil
import psycopg
import pytest
from django.conf import settings
from django.db import connection
from psycopg import sql

from tests.servers import free_port

REPO = Path(__file__).resolve().parents[2]
START_SECONDS = 60
STOP_SECONDS = 20

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        settings.DATABASES["default"]["ENGINE"] != "config.embedded_postgres",
        reason="creates a throwaway database as the embedded server's superuser",
    ),
]


@pytest.fixture
def throwaway_database() -> Iterator[str]:
    socket_dir = connection.get_connection_params()["host"]
    name = f"cms_make_run_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(host=socket_dir, user="postgres", dbname="postgres", autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {} TEMPLATE template0 ENCODING 'UTF8'").format(sql.Identifier(name)))
    try:
        yield f"postgres://postgres@/{name}?host={socket_dir}"
    finally:
        with psycopg.connect(host=socket_dir, user="postgres", dbname="postgres", autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


class MakeRun:
    """One `make run` in its own process group, its output in a file."""

    def __init__(self, env: dict[str, str], port: int, log: Path):
        self.port = port
        self.log = log
        with log.open("w") as out:
            self.process = subprocess.Popen(["make", "run", f"PORT={port}"], cwd=REPO, env=env,
                                            stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        self.pgid = self.process.pid

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_ready(self) -> None:
        """Until health answers 200 and the worker (with its pool) and beat have started."""
        deadline = time.monotonic() + START_SECONDS
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/api/health", timeout=5) as response:
                    if response.status == 200 and " ready." in self.output() and "beat: Starting..." in self.output():
                        return
            except (urllib.error.URLError, OSError):
                pass
            assert self.process.poll() is None, f"make run exited:\n{self.output()}"
            assert time.monotonic() < deadline, f"not healthy within {START_SECONDS} s:\n{self.output()}"
            time.sleep(0.5)

    def processes(self) -> list[psutil.Process]:
        """Every live process of the group, and every descendant of make wherever it went."""
        self.process.poll()  # reap make itself once it has exited
        found: dict[int, psutil.Process] = {}
        for proc in psutil.process_iter():
            try:
                if os.getpgid(proc.pid) == self.pgid and proc.status() != psutil.STATUS_ZOMBIE:
                    found[proc.pid] = proc
            except (ProcessLookupError, psutil.Error):
                continue
        try:
            for child in psutil.Process(self.pgid).children(recursive=True):
                found[child.pid] = child
        except psutil.Error:
            pass
        return list(found.values())

    def ctrl_c(self) -> tuple[list[str], float]:
        """SIGINT to the group; the command lines still alive after STOP_SECONDS, and the time taken."""
        watched = self.processes()
        started = time.monotonic()
        os.killpg(self.pgid, signal.SIGINT)
        deadline = started + STOP_SECONDS
        while time.monotonic() < deadline:
            alive = [p for p in watched + self.processes() if _alive(p)]
            if not alive:
                return [], time.monotonic() - started
            time.sleep(0.2)
        return [" ".join(p.cmdline()) for p in alive if _alive(p)], time.monotonic() - started

    def kill(self) -> None:
        for proc in self.processes():
            proc.kill()
        self.process.wait(timeout=10)


def _alive(proc: psutil.Process) -> bool:
    try:
        return proc.is_running() and proc.status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def _tracebacks(output: str) -> str:
    """Every traceback in a run's output, whole, with the 5 lines before it (which process
    printed it): pytest would cut the log, and a traceback seen once in CI could not be read."""
    lines = output.splitlines()
    blocks = []
    for i, line in enumerate(lines):
        if line.startswith("Traceback"):
            end = i + 1
            while end < len(lines) and (lines[end].startswith(" ") or not lines[end].strip()):
                end += 1
            blocks.append("\n".join(lines[max(0, i - 5):end + 1]))
    return "a traceback in the output:\n" + "\n---\n".join(blocks)


def _python_commands(processes: list[psutil.Process]) -> list[str]:
    """The command lines of the live Python processes (not the shell that started them)."""
    return [" ".join(p.cmdline()) for p in processes if _alive(p) and "python" in p.cmdline()[0]]


@pytest.fixture
def make_run_env(throwaway_database, tmp_path) -> dict[str, str]:
    # Not DEBUG nor SECRET_KEY: `make run` sets what development needs. Not the outer make's
    # flags either (this test runs under `make test`).
    dropped = {"DEBUG", "SECRET_KEY", "MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES"}
    return {
        **{k: v for k, v in os.environ.items() if k not in dropped},
        "DATABASE_URL": throwaway_database,
        "BROKER_DIR": str(tmp_path / "broker"),
        "CELERY_BEAT_SCHEDULE_FILENAME": str(tmp_path / "celerybeat-schedule"),
        # The deterministic provider: the worker does real work without loading a model.
        "EMBEDDING_PROVIDER": "fake",
    }


def test_ctrl_c_stops_everything_and_a_second_run_starts_on_the_same_data(make_run_env, tmp_path):
    port = free_port()
    first = MakeRun(make_run_env, port, tmp_path / "first.log")
    try:
        first.wait_ready()
        commands = _python_commands(first.processes())
        assert sum("runserver" in c for c in commands) == 1, commands
        assert sum("celery -A config beat" in c for c in commands) == 1, commands
        # The worker's main process and its two pool processes.
        assert sum("celery -A config worker" in c for c in commands) == 3, commands
        left, took = first.ctrl_c()
        print(f"first run: every process gone {took:.1f} s after Ctrl-C")
        assert left == [], f"still running after Ctrl-C:\n{left}"
    finally:
        first.kill()
    assert "Created workspace 'demo'" in first.output()

    second = MakeRun(make_run_env, port, tmp_path / "second.log")
    try:
        second.wait_ready()
        assert sum("celery -A config worker" in c for c in _python_commands(second.processes())) == 3
        left, took = second.ctrl_c()
        print(f"second run: every process gone {took:.1f} s after Ctrl-C")
        assert left == [], f"still running after Ctrl-C:\n{left}"
    finally:
        second.kill()
    assert "Workspace 'demo' already exists; left as it is." in second.output()
    assert "Traceback" not in second.output(), _tracebacks(second.output())


def test_a_taken_port_stops_the_worker_and_beat_and_fails(make_run_env, tmp_path):
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        run = MakeRun(make_run_env, port, tmp_path / "taken.log")
        try:
            run.process.wait(timeout=START_SECONDS)
            left = _python_commands(run.processes())
        finally:
            run.kill()
    assert "That port is already in use" in run.output()
    assert run.process.returncode != 0
    assert left == []
