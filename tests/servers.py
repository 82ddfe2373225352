"""The app served by a real server process (runserver or gunicorn) on the test database.

Every test that needs a server comes here: `free_port` for any port, `gunicorn_started` for
gunicorn (the one place it is started), `serving` for runserver or gunicorn by name.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.db import connection

REPO = Path(__file__).resolve().parents[1]


GUNICORN_CONF = REPO / "gunicorn.conf.py"


def deployed_gunicorn_options() -> list[str]:
    """The options docker/Dockerfile gives gunicorn: its config file, gunicorn.conf.py.

    A caller's own --bind and --workers, given after these on the command line, override the file's.
    """
    cmd = re.search(r"^CMD (\[.*?\])\s*$", (REPO / "docker" / "Dockerfile").read_text().replace("\\\n", ""),
                    re.MULTILINE | re.DOTALL)
    args = json.loads(cmd.group(1))
    assert args[:3] == ["gunicorn", "--config", GUNICORN_CONF.name], args
    return ["--config", str(GUNICORN_CONF)]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def database_env(**extra: str) -> dict[str, str]:
    """The environment of a process that uses the test database (DATABASE_URL) in DEBUG."""
    params = connection.get_connection_params()
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "true",
        "DATABASE_URL": f"postgres://{params.get('user', 'postgres')}@/{connection.settings_dict['NAME']}"
        f"?host={params['host']}",
        **extra,
    }


@contextmanager
def gunicorn_started(env: dict[str, str], *args: str, workers: int = 1, log_path: Path | None = None,
                     new_session: bool = False) -> Iterator[tuple[str, subprocess.Popen]]:
    """gunicorn serving the app with `workers` workers (and any more `args`, such as
    deployed_gunicorn_options()) on a free loopback port, once it listens; yields (base URL,
    process). Its output goes to `log_path` (or is dropped but for stderr, read on failure)."""
    port = free_port()
    command = [sys.executable, "-m", "gunicorn", "config.wsgi:application", *args,
               "--bind", f"127.0.0.1:{port}", "--workers", str(workers)]
    log = log_path.open("w") if log_path else None
    process = subprocess.Popen(command, cwd=REPO, env=env, stdout=log or subprocess.DEVNULL,
                               stderr=subprocess.STDOUT if log else subprocess.PIPE, start_new_session=new_session)
    try:
        _wait_until_listening(port, process, log_path=log_path)
        yield f"http://127.0.0.1:{port}", process
    finally:
        _stop(process)
        if log:
            log.close()
        if process.stderr:
            process.stderr.close()


@contextmanager
def serving(kind: str, *, env: dict[str, str] | None = None) -> Iterator[int]:
    """Serve the app with `kind` on a free loopback port; yield the port.

    "runserver", "gunicorn" (its defaults), or "gunicorn-deployed" (with docker/Dockerfile's options).
    """
    env = env or database_env()
    if kind != "runserver":
        options = deployed_gunicorn_options() if kind == "gunicorn-deployed" else []
        with gunicorn_started(env, *options) as (base, _):
            yield int(base.rsplit(":", 1)[1])
        return
    port = free_port()
    process = subprocess.Popen([sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
                               cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _wait_until_listening(port, process)
        yield port
    finally:
        _stop(process)
        if process.stderr:
            process.stderr.close()


def _stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def _wait_until_listening(port: int, process: subprocess.Popen, timeout: float = 60.0, *,
                          log_path: Path | None = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            output = log_path.read_text() if log_path else process.stderr.read().decode(errors="replace")
            raise RuntimeError(f"server exited: {output[-2000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing listened on port {port} within {timeout} s")


def raw_http_get(port: int, target: bytes, headers: dict[str, str]) -> tuple[int, bytes]:
    """GET `target` (raw bytes, sent exactly as given) over a socket; return (status, body)."""
    lines = [b"GET " + target + b" HTTP/1.1", b"Host: 127.0.0.1", b"Connection: close"]
    lines += [f"{name}: {value}".encode("latin-1") for name, value in headers.items()]
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(b"\r\n".join(lines) + b"\r\n\r\n")
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    head, _, body = b"".join(chunks).partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    if b"transfer-encoding: chunked" in head.lower():
        body = _unchunk(body)
    return status, body


def _unchunk(body: bytes) -> bytes:
    out, rest = [], body
    while rest:
        size_line, _, rest = rest.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            break
        out.append(rest[:size])
        rest = rest[size + 2:]
    return b"".join(out)
