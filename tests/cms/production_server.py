"""gunicorn with DEBUG off on a freshly collected STATIC_ROOT and the test database, as
docker/Dockerfile starts it: the `production_server` fixture of the static-file tests."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.db import connection

from tests.servers import gunicorn_started

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
BEHIND_PROXY = {"X-Forwarded-Proto": "https"}


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: bytes


@dataclass
class Server:
    base_url: str

    def get(self, path: str, headers: dict[str, str] | None = None) -> Response:
        request = urllib.request.Request(self.base_url + path, headers=headers or {})
        # Redirects are answers to check, not to follow.
        opener = urllib.request.build_opener(_NoRedirect)
        try:
            with opener.open(request, timeout=10) as response:
                return Response(response.status, {k.lower(): v for k, v in response.headers.items()}, response.read())
        except urllib.error.HTTPError as error:
            return Response(error.code, {k.lower(): v for k, v in error.headers.items()}, error.read())


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


@pytest.fixture(scope="module")
def production_server(django_db_setup, tmp_path_factory) -> Iterator[Server]:
    """gunicorn with DEBUG off, on a freshly collected STATIC_ROOT and the test database."""
    tmp = tmp_path_factory.mktemp("production")
    params = connection.get_connection_params()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "STATIC_ROOT": str(tmp / "static"),
        "BROKER_DIR": str(tmp / "broker"),
        "DATABASE_URL": f"postgres://{params.get('user', 'postgres')}@/{connection.settings_dict['NAME']}"
                        f"?host={params['host']}",
    }
    collected = subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput"], cwd=REPO, env=env,
                               capture_output=True, text=True, timeout=300)
    assert collected.returncode == 0, collected.stderr
    with gunicorn_started(env, log_path=tmp / "gunicorn.log") as (base, process):
        server = Server(base)
        deadline = time.monotonic() + 60
        while True:  # listening is not serving: wait for the worker to answer
            try:
                if server.get("/api/health").status in (200, 503):
                    break
            except OSError:
                pass
            assert process.poll() is None, (tmp / "gunicorn.log").read_text()
            assert time.monotonic() < deadline, "gunicorn did not answer within 60 s"
            time.sleep(0.2)
        yield server
