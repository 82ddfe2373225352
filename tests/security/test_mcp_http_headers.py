"""/mcp/'s HTTP layer: the Origin check against DNS rebinding, and GET answered as the spec says
(review item 17: 3 and 4), through gunicorn."""

from __future__ import annotations

import json

import pytest
import requests

from tests.search.live_app import BEHIND_PROXY
from tests.security.mcp_live import ACCEPT_BOTH, handshake_headers, live_mcp, post_raw  # noqa: F401 - fixture

TOOLS_LIST = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})

pytestmark = pytest.mark.django_db


# --- item 3: Origin -------------------------------------------------------------------------------

@pytest.mark.parametrize("origin", ["https://evil.example", "http://127.0.0.1.evil.example", "null"])
def test_request_from_a_foreign_origin_is_403_with_a_code(live_mcp, origin):
    response = post_raw(live_mcp, TOOLS_LIST, handshake_headers(live_mcp, Origin=origin))

    assert (response.status_code, response.json()["code"]) == (403, "origin_not_allowed")
    assert response.json()["message"]


def test_foreign_origin_is_refused_even_without_a_key(live_mcp):
    response = requests.post(live_mcp.url, data=TOOLS_LIST, timeout=10, headers={
        **BEHIND_PROXY, "Content-Type": "application/json", "Accept": ACCEPT_BOTH, "Origin": "https://evil.example"})

    assert (response.status_code, response.json()["code"]) == (403, "origin_not_allowed")


@pytest.mark.parametrize("origin", [None, "https://127.0.0.1", "http://127.0.0.1:8000"])
def test_request_without_origin_or_from_the_sites_own_host_is_served(live_mcp, origin):
    headers = handshake_headers(live_mcp, **({"Origin": origin} if origin else {}))

    response = post_raw(live_mcp, TOOLS_LIST, headers)

    assert response.status_code == 200, response.text
    assert len(response.json()["result"]["tools"]) == 5


# --- item 4: GET (a server-to-client stream) is 405, after authentication --------------------------

def test_get_asking_for_an_event_stream_is_405_allow_post(live_mcp):
    response = requests.get(live_mcp.url, timeout=10, headers={
        **BEHIND_PROXY, "Authorization": f"Bearer {live_mcp.key}", "Accept": "text/event-stream"})

    assert (response.status_code, response.json()["code"]) == (405, "method_not_allowed")
    assert response.headers["Allow"] == "POST"


def test_get_asking_for_an_event_stream_without_a_key_is_401(live_mcp):
    response = requests.get(live_mcp.url, timeout=10, headers={**BEHIND_PROXY, "Accept": "text/event-stream"})

    assert (response.status_code, response.json()["code"]) == (401, "not_authenticated")


# --- a refusal the MCP SDK sends without a body gets a code ---------------------------------------

@pytest.mark.parametrize("version", ["2025-06-18", "1999-01-01", "junk"])
@pytest.mark.parametrize("accept", ["text/event-stream", "text/html", ""])
def test_accept_without_json_is_406_with_a_code_whatever_the_protocol_version(live_mcp, version, accept):
    # A random fuzz seed found it: a version the SDK does not know goes to its stateless-era
    # handler, which answers a bare 406 (no body), where a known one gets a JSON-RPC error.
    response = post_raw(live_mcp, TOOLS_LIST, handshake_headers(live_mcp, Accept=accept, **{
        "MCP-Protocol-Version": version}))

    assert response.status_code == 406
    body = response.json()
    assert body.get("code") == "not_acceptable" or isinstance(body.get("error", {}).get("code"), int), body
    assert "application/json" in (body.get("message") or body["error"]["message"])
