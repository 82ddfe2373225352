"""The app served by a real server process (runserver or gunicorn) on the test database."""

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
        "DJANGO_SETTINGS_MODULE": "cms.settings",
        "DEBUG": "true",
        "DATABASE_URL": f"postgres://{params.get('user', 'postgres')}@/{connection.settings_dict['NAME']}"
        f"?host={params['host']}",
        **extra,
    }


@contextmanager
def serving(kind: str, *, env: dict[str, str] | None = None) -> Iterator[int]:
    """Serve the app with `kind` on a free loopback port; yield the port.

    "runserver", "gunicorn" (its defaults), or "gunicorn-deployed" (with docker/Dockerfile's options).
    """
    port = free_port()
    if kind == "runserver":
        command = [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"]
    else:
        command = [sys.executable, "-m", "gunicorn", "cms.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "1"]
        if kind == "gunicorn-deployed":
            command += deployed_gunicorn_options()
    process = subprocess.Popen(command, cwd=REPO, env=env or database_env(),
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _wait_until_listening(port, process)
        yield port
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stderr:
            process.stderr.close()


def _wait_until_listening(port: int, process: subprocess.Popen, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited: {process.stderr.read().decode(errors='replace')[-2000:]}")
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
