"""Production static files: collectstatic, then gunicorn with DEBUG off serves the admin's CSS.

The app is started as docker/Dockerfile starts it (gunicorn, DEBUG off, a collected
STATIC_ROOT) on a loopback port. Requests carry `X-Forwarded-Proto: https`, as the proxy
in front of it sends. The browser test drives Debian's chromium through Playwright.
"""

from __future__ import annotations

import gzip
import re

import pytest

from tests.cms.production_server import BEHIND_PROXY, production_server  # noqa: F401 - fixture


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
