"""Errors raised before any API view runs keep the API's {"code", "message"} shape.

Found by the fuzzer (tests/search/test_fuzz.py): a workspace slug with characters a slug
cannot have matches no route, and Django answered with its HTML 404 page.
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", [
    "/api/v1/workspaces/%C2%A2/search/entries?q=refund",  # a slug no route accepts
    "/api/v1/workspaces/acme/search/nothing",
    "/api/nowhere",
])
def test_unrouted_api_path_answers_json_not_found_with_a_code(client, path):
    response = client.get(path)

    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] == "not_found" and response.json()["message"]


def test_unrouted_semantic_post_answers_json_not_found(client):
    response = client.post("/api/v1/workspaces/a b/search/semantic", {"query": "refund"},
                           content_type="application/json")

    assert (response.status_code, response.json()["code"]) == (404, "not_found")


def test_unrouted_page_outside_the_api_keeps_djangos_html_404(client):
    response = client.get("/no-such-page/")

    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def test_refused_host_on_an_api_path_answers_json_bad_request(client):
    response = client.get("/api/health", HTTP_HOST="evil.example.com")

    assert response.status_code == 400
    assert response.json()["code"] == "bad_request"


def test_crash_on_an_api_path_answers_json_server_error(rf):
    from cms.api_errors import server_error

    response = server_error(rf.get("/api/v1/workspaces/acme/search/entries"))

    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"
    assert b'"code": "server_error"' in response.content
