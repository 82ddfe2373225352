"""MCP's JSON-RPC answers, over HTTP through gunicorn and over stdio (review item 17: 1 and 5).

Item 1: a `subscriptions/listen` (2026-07-28) never completed in stateless JSON mode and held
a sync worker until it was killed; a few of them took the API down. Every method the server
does not serve must be answered at once with a JSON-RPC error, and what `initialize` and
`server/discover` advertise must be what the server does.

Item 5: protocol errors are JSON-RPC errors with the spec's codes, on both transports.
"""

from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

import cms
from tests.security.mcp_live import (  # noqa: F401 - live_mcp is a fixture
    HANDSHAKE_VERSION,
    BEHIND_PROXY,
    StdioServer,
    handshake_headers,
    live_mcp,
    post_handshake,
    post_modern,
    post_raw,
)

INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS = -32600, -32601, -32602
# Methods of the protocol this server has no handler for: each must be a JSON-RPC error, at once.
UNSERVED_METHODS = ["subscriptions/listen", "resources/subscribe", "logging/setLevel", "completion/complete",
                    "sampling/createMessage", "no/such/method"]
LISTEN_PARAMS = {"notifications": {"toolsListChanged": True, "promptsListChanged": True,
                                   "resourcesListChanged": True}}
UNSERVED_PARAMS = {"subscriptions/listen": LISTEN_PARAMS, "resources/subscribe": {"uri": "cms://x"},
                   "logging/setLevel": {"level": "info"},
                   "completion/complete": {"ref": {"type": "ref/prompt", "name": "x"},
                                           "argument": {"name": "a", "value": "b"}}}

pytestmark = pytest.mark.django_db


@pytest.fixture
def stdio(live_mcp):
    server = StdioServer(live_mcp.key)
    yield server
    server.close()


def timed(call):
    start = time.monotonic()
    result = call()
    return result, time.monotonic() - start


def error_code(response: requests.Response) -> int:
    body = response.json()
    assert set(body) >= {"jsonrpc", "id", "error"}, body
    return body["error"]["code"]


# --- item 1: nothing waits on what cannot arrive -----------------------------------------------

def test_every_method_the_server_does_not_serve_is_a_jsonrpc_error_at_once(live_mcp):
    answers = {}
    for method in UNSERVED_METHODS:
        params = UNSERVED_PARAMS.get(method, {})
        # The client gives up after 3 s: before the fix, the listen request held its worker for a minute.
        response, seconds = timed(lambda: post_modern(live_mcp, method, params, timeout=3))
        answers[method] = (response.json()["id"], error_code(response), seconds < 1)

    assert answers == {method: (1, METHOD_NOT_FOUND, True) for method in UNSERVED_METHODS}


def test_initialize_and_discovery_advertise_the_same_capabilities_and_no_notifications(live_mcp):
    initialized = post_handshake(live_mcp, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": HANDSHAKE_VERSION, "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}})
    discovered = post_modern(live_mcp, "server/discover")

    by_initialize = initialized.json()["result"]["capabilities"]
    by_discovery = discovered.json()["result"]["capabilities"]

    assert by_discovery == by_initialize
    # Change notifications travel on subscriptions/listen streams, which this server does not serve.
    advertised = json.dumps(by_discovery)
    assert '"listChanged": true' not in advertised and '"subscribe": true' not in advertised
    assert "tools" in by_discovery


def test_parallel_listen_requests_do_not_hold_the_workers(live_mcp):
    """gunicorn runs 2 sync workers here; 6 listen requests at once must leave /api/health answering."""

    def listen() -> tuple[int, float]:
        response, seconds = timed(lambda: post_modern(live_mcp, "subscriptions/listen", LISTEN_PARAMS, timeout=5))
        return error_code(response), seconds

    with ThreadPoolExecutor(max_workers=7) as pool:
        listens = [pool.submit(listen) for _ in range(6)]
        time.sleep(0.2)
        health = pool.submit(lambda: timed(
            lambda: requests.get(f"{live_mcp.base_url}/api/health", headers=BEHIND_PROXY, timeout=5)))
        health_response, health_seconds = health.result()
        answers = [future.result() for future in listens]

    assert health_response.status_code == 200 and health_seconds < 2
    assert [code for code, _ in answers] == [METHOD_NOT_FOUND] * 6
    assert max(seconds for _, seconds in answers) < 2


# --- item 5: protocol errors are JSON-RPC errors with the spec's codes --------------------------

def test_unknown_tool_is_invalid_params_over_http(live_mcp):
    modern = post_modern(live_mcp, "tools/call", {"name": "no_such_tool", "arguments": {}},
                         **{"Mcp-Name": "no_such_tool"})
    handshake = post_handshake(live_mcp, {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                                          "params": {"name": "no_such_tool", "arguments": {}}})

    assert (error_code(modern), error_code(handshake)) == (INVALID_PARAMS, INVALID_PARAMS)
    assert "no_such_tool" in handshake.json()["error"]["message"]


def test_unknown_prompt_is_invalid_params(live_mcp):
    response = post_handshake(live_mcp, {"jsonrpc": "2.0", "id": 3, "method": "prompts/get",
                                         "params": {"name": "no_such_prompt"}})

    assert (response.json()["id"], error_code(response)) == (3, INVALID_PARAMS)


@pytest.mark.parametrize("body", [
    [{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}],  # a batch: MCP has none since 2025-06-18
    {"jsonrpc": "2.0", "id": 1},  # neither request nor response
    {"id": 1, "method": "tools/list"},  # no "jsonrpc"
    {"hello": "world"},
    42,
])
def test_what_is_not_one_jsonrpc_message_is_invalid_request_over_http(live_mcp, body):
    response = post_raw(live_mcp, json.dumps(body), handshake_headers(live_mcp))

    assert error_code(response) == INVALID_REQUEST
    assert "validation error" not in response.text.lower() and "pydantic" not in response.text


def test_null_id_is_answered_invalid_request_over_http(live_mcp):
    response = post_raw(live_mcp, json.dumps({"jsonrpc": "2.0", "id": None, "method": "tools/list"}),
                        handshake_headers(live_mcp))

    assert response.status_code == 400
    assert (response.json()["id"], error_code(response)) == (None, INVALID_REQUEST)


def test_server_info_carries_the_apps_version(live_mcp, stdio):
    over_http = post_handshake(live_mcp, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": HANDSHAKE_VERSION, "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}})
    over_stdio = stdio.initialize()

    version = getattr(cms, "__version__", None)
    assert version
    assert over_http.json()["result"]["serverInfo"]["version"] == version
    assert over_stdio["result"]["serverInfo"]["version"] == version


# --- the same over stdio: every line that is owed an answer gets one ---------------------------

def test_stdio_unknown_tool_and_prompt_are_invalid_params(stdio):
    stdio.initialize()

    tool = stdio.request(json.dumps({"jsonrpc": "2.0", "id": 5, "method": "tools/call",
                                     "params": {"name": "no_such_tool", "arguments": {}}}))
    prompt = stdio.request(json.dumps({"jsonrpc": "2.0", "id": 6, "method": "prompts/get",
                                       "params": {"name": "no_such_prompt"}}))

    assert (tool["id"], tool["error"]["code"]) == (5, INVALID_PARAMS)
    assert (prompt["id"], prompt["error"]["code"]) == (6, INVALID_PARAMS)


@pytest.mark.parametrize(("line", "answered_id"), [
    ('[{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}]', None),
    ('{"jsonrpc": "2.0", "id": 8}', 8),
    ('{"jsonrpc": "1.0", "id": 9, "method": "tools/list"}', 9),
    ('{"jsonrpc": "2.0", "id": null, "method": "tools/list"}', None),
    ('{"jsonrpc": "2.0", "id": {"a": 1}, "method": "tools/list"}', None),
    ('{"hello": "world"}', None),
    ("42", None),
])
def test_stdio_line_that_is_not_one_jsonrpc_message_is_answered_invalid_request(stdio, line, answered_id):
    stdio.initialize()

    answer = stdio.request(line)
    after = stdio.request(json.dumps({"jsonrpc": "2.0", "id": "next", "method": "ping"}))

    assert (answer["id"], answer["error"]["code"]) == (answered_id, INVALID_REQUEST)
    assert after == {"jsonrpc": "2.0", "id": "next", "result": {}}  # the server goes on serving


def test_stdio_line_that_is_not_json_is_a_parse_error(stdio):
    stdio.initialize()

    answer = stdio.request("{not json")

    assert (answer["id"], answer["error"]["code"]) == (None, -32700)
