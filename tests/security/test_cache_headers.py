"""Review item 9: the API's and MCP's answers are never stored, errors included.

Before, authenticated API and MCP answers carried no Cache-Control at all.
"""

from __future__ import annotations

import pytest

from tests.factories import api_key_make, bearer, entry_make

pytestmark = pytest.mark.django_db

ENTRIES = "/api/v1/workspaces/acme/search/entries?q=refund"
MCP_LIST = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}


def assert_not_stored(response) -> None:
    assert response["Cache-Control"] == "no-store"
    vary = {part.strip().lower() for part in response["Vary"].split(",")}
    assert {"authorization", "cookie"} <= vary


def test_a_keyed_search_answer_is_not_stored(client, workspace, article_type):
    entry_make(article_type, title="Refund policy")
    _, secret = api_key_make(workspace)

    response = client.get(ENTRIES, **bearer(secret))

    assert response.status_code == 200
    assert_not_stored(response)


def test_a_members_session_answer_is_not_stored(client, editor, workspace):
    client.force_login(editor)

    response = client.get(ENTRIES)

    assert response.status_code == 200
    assert_not_stored(response)


@pytest.mark.parametrize("path, status", [
    (ENTRIES, 401),                                              # no credentials
    ("/api/v1/workspaces/globex/search/entries?q=x", 404),        # not the key's workspace
    ("/api/v1/workspaces/acme/search/entries?q=x&limit=-1", 400),  # bad input
    ("/api/v1/no-such-route", 404),                               # no view at all
])
def test_error_answers_are_not_stored_either(client, workspace, path, status):
    _, secret = api_key_make(workspace)

    response = client.get(path, **(bearer(secret) if status != 401 else {}))

    assert response.status_code == status
    assert_not_stored(response)


def test_an_mcp_answer_is_not_stored(client, workspace):
    _, secret = api_key_make(workspace)

    response = client.post("/mcp/", MCP_LIST, content_type="application/json",
                           HTTP_ACCEPT="application/json, text/event-stream", **bearer(secret))

    assert response.status_code == 200
    assert "tools" in response.json()["result"]
    assert_not_stored(response)


def test_an_mcp_error_is_not_stored(client, workspace):
    response = client.post("/mcp/", MCP_LIST, content_type="application/json")

    assert response.status_code == 401
    assert_not_stored(response)


def test_a_body_refused_before_any_view_is_not_stored(client, settings, workspace):
    settings.API_MAX_BODY_BYTES = 100
    _, secret = api_key_make(workspace)

    response = client.post("/api/v1/workspaces/acme/search/semantic", {"q": "x" * 500},
                           content_type="application/json", **bearer(secret))

    assert response.status_code == 413
    assert_not_stored(response)
