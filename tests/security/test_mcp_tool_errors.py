"""MCP tool errors an agent can parse and branch on (review item 17, 5).

A tool error's text is the API's `{"code", "message"}` JSON and nothing else; arguments the
search refuses carry the code the HTTP API gives for the same bad input (the test asks the
API); the tools describe themselves cleanly and say they only read.
"""

from __future__ import annotations

import json

import pytest
import requests

from tests.search.live_app import BEHIND_PROXY
from tests.security.mcp_live import (  # noqa: F401 - live_mcp is a fixture
    HANDSHAKE_VERSION,
    StdioServer,
    live_mcp,
    post_handshake,
    post_modern,
)

API_PATHS = {"semantic_search": "semantic", "hybrid_search": "hybrid", "agentic_search": "agentic"}
# (tool, arguments): input the API refuses, sent to the MCP tool of the same search.
BAD_ARGUMENTS = [
    ("hybrid_search", {"query": "refund", "top_k": "abc"}),
    ("hybrid_search", {"query": "refund", "top_k": "5"}),
    ("hybrid_search", {"query": "refund", "top_k": True}),
    ("semantic_search", {"query": "refund", "top_k": 2.5}),
    ("hybrid_search", {"top_k": 3}),  # no query
    ("semantic_search", {"query": 42}),
    ("hybrid_search", {"query": "refund", "min_score": "high"}),
    ("hybrid_search", {"query": "refund", "rerank": "yes"}),
    ("hybrid_search", {"query": "refund", "filter": "status = draft"}),
    ("agentic_search", {"query": "refund", "queries": "x"}),
    ("agentic_search", {"query": "refund", "queries": [1, 2]}),
]

pytestmark = pytest.mark.django_db


def tool_call(app, name: str, arguments: dict) -> dict:
    response = post_handshake(app, {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                    "params": {"name": name, "arguments": arguments}}, timeout=30)
    return response.json()["result"]


def api_code(app, tool: str, body: dict) -> str:
    response = requests.post(f"{app.base_url}/api/v1/workspaces/acme/search/{API_PATHS[tool]}", json=body,
                             headers={**BEHIND_PROXY, "Authorization": f"Bearer {app.key}"}, timeout=30)
    assert response.status_code == 400, response.text
    return response.json()["code"]


def error_payload(result: dict) -> dict:
    assert result["isError"] is True, result
    return json.loads(result["content"][0]["text"])  # the whole text, as an agent would parse it


def test_tool_error_text_is_the_bare_code_and_message_json(live_mcp):
    result = tool_call(live_mcp, "hybrid_search", {"query": "refund", "top_k": 0})

    payload = error_payload(result)

    assert set(payload) == {"code", "message"} and payload["code"] == "top_k_out_of_range"
    assert payload["message"].startswith("top_k must be between 1 and ")


@pytest.mark.parametrize(("tool", "arguments"), BAD_ARGUMENTS)
def test_bad_argument_is_a_tool_error_with_the_apis_code(live_mcp, tool, arguments):
    expected = api_code(live_mcp, tool, arguments)

    payload = error_payload(tool_call(live_mcp, tool, arguments))

    assert set(payload) == {"code", "message"}
    assert payload["code"] == expected
    assert "pydantic" not in payload["message"]


def test_bad_limit_of_the_entries_search_is_a_coded_tool_error(live_mcp):
    payload = error_payload(tool_call(live_mcp, "search_entries", {"query": "refund", "limit": True}))

    assert payload["code"] == "limit_invalid"


def test_stdio_bad_argument_is_a_tool_error_with_the_apis_code(live_mcp):
    server = StdioServer(live_mcp.key)
    try:
        server.initialize()
        answer = server.request(json.dumps({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {
            "name": "hybrid_search", "arguments": {"query": "refund", "top_k": "abc"}}}))
    finally:
        server.close()

    assert error_payload(answer["result"])["code"] == api_code(live_mcp, "hybrid_search",
                                                               {"query": "refund", "top_k": "abc"})


def test_tools_say_they_only_read_and_their_descriptions_are_not_indented(live_mcp):
    modern = post_modern(live_mcp, "tools/list").json()["result"]["tools"]
    handshake = post_handshake(live_mcp, {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).json()["result"]["tools"]

    assert len(modern) == len(handshake) == 5
    for tool in modern + handshake:
        annotations = tool.get("annotations") or {}
        assert (annotations.get("readOnlyHint"), annotations.get("idempotentHint"),
                annotations.get("openWorldHint")) == (True, True, False), tool["name"]
        assert "\n    " not in tool["description"] and tool["description"] == tool["description"].strip()
    assert HANDSHAKE_VERSION  # the handshake-era listing is the same tools
