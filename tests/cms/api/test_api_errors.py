"""Errors raised before any API view runs keep the API's {"code", "message"} shape.

Found by the fuzzer (tests/search/interfaces/api/test_fuzz.py): a workspace slug with characters a slug
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
    from cms.api.errors import server_error

    response = server_error(rf.get("/api/v1/workspaces/acme/search/entries"))

    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"
    assert b'"code": "server_error"' in response.content


# Found by the fuzzer: `Accept: text/html` got DRF's browsable HTML page, errors included.

@pytest.mark.parametrize("accept", ["text/html", "text/html,application/xhtml+xml,*/*;q=0.8"])
def test_api_answers_json_whatever_the_accept_header(client, accept):
    response = client.get("/api/v1/workspaces/acme/search/entries", {"q": "refund"}, HTTP_ACCEPT=accept)

    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] in ("not_authenticated", "not_acceptable")


def test_mcp_answers_json_to_a_client_that_asks_for_html(client):
    response = client.post("/mcp/", "{}", content_type="application/json", HTTP_ACCEPT="text/html")

    assert response["Content-Type"] == "application/json"
    assert response.json()["code"]
