"""Production static files: collectstatic, then gunicorn with DEBUG off serves the admin's CSS.

The app is started as docker/Dockerfile starts it (gunicorn, DEBUG off, a collected
STATIC_ROOT) on a loopback port. Requests carry `X-Forwarded-Proto: https`, as the proxy
in front of it sends. The browser test drives Debian's chromium through Playwright.
"""

from __future__ import annotations

import gzip
import os
import re
import secrets
import socket
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


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def production_server(django_db_setup, tmp_path_factory) -> Iterator[Server]:
    """gunicorn with DEBUG off, on a freshly collected STATIC_ROOT and the test database."""
    tmp = tmp_path_factory.mktemp("production")
    params = connection.get_connection_params()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "cms.settings",
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
    port = _free_port()
    log = (tmp / "gunicorn.log").open("w")
    process = subprocess.Popen(
        [str(BIN / "gunicorn"), "cms.wsgi:application", "--bind", f"127.0.0.1:{port}", "--workers", "1"],
        cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    server = Server(f"http://127.0.0.1:{port}")
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if server.get("/api/health").status in (200, 503):
                    break
            except OSError:
                pass
            assert process.poll() is None, (tmp / "gunicorn.log").read_text()
            assert time.monotonic() < deadline, "gunicorn did not answer within 60 s"
            time.sleep(0.2)
        yield server
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()


def _stylesheet_paths(html: str) -> list[str]:
    return re.findall(r'<link rel="stylesheet" href="([^"]+)"', html)


@pytest.fixture(scope="module")
def admin_stylesheet(production_server) -> str:
    """The path of the first stylesheet the admin login page links to."""
    page = production_server.get("/admin/login/", BEHIND_PROXY)
    assert page.status == 200
    paths = _stylesheet_paths(page.body.decode())
    assert paths, "the login page links no stylesheet"
    return paths[0]


def test_admin_stylesheet_is_served_as_css_under_a_hashed_name(production_server, admin_stylesheet):
    response = production_server.get(admin_stylesheet, BEHIND_PROXY)
    assert response.status == 200
    assert response.headers["content-type"].startswith("text/css")
    assert re.fullmatch(r"/static/admin/css/\w+\.[0-9a-f]{12}\.css", admin_stylesheet), admin_stylesheet
    assert b"--header-bg" in response.body


def test_hashed_stylesheet_may_be_cached_for_a_year_or_more(production_server, admin_stylesheet):
    cache_control = production_server.get(admin_stylesheet, BEHIND_PROXY).headers["cache-control"]
    max_age = int(re.search(r"max-age=(\d+)", cache_control).group(1))
    assert max_age >= 365 * 24 * 3600
    assert "immutable" in cache_control


def test_stylesheet_is_gzip_compressed_when_the_client_accepts_it(production_server, admin_stylesheet):
    plain = production_server.get(admin_stylesheet, BEHIND_PROXY)
    compressed = production_server.get(admin_stylesheet, {**BEHIND_PROXY, "Accept-Encoding": "gzip"})
    assert compressed.headers["content-encoding"] == "gzip"
    assert len(compressed.body) < len(plain.body)
    assert gzip.decompress(compressed.body) == plain.body


def test_plain_http_is_redirected_to_https(production_server):
    response = production_server.get("/admin/login/")
    assert response.status == 301
    assert response.headers["location"].startswith("https://127.0.0.1")


def test_health_answers_plain_http_for_load_balancers(production_server):
    assert production_server.get("/api/health").status in (200, 503)
