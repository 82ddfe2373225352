"""The MCP tools under bounded input: a filter nested too deep is a coded tool error, never a crash.

The MCP SDK parses each JSON-RPC message itself (pydantic-core, which refuses nesting past
its own recursion limit of a few hundred levels). Up to that limit the arguments reach the
tool, and search.contract.filter_language answers `filter_too_deep`; past it the SDK drops (stdio) or refuses
(HTTP) the message it cannot parse, and keeps serving. Either way: no crash and no
traceback. Over HTTP, /mcp/ bodies are capped like the API's (413 `request_too_large`).
"""

from __future__ import annotations

import json
import select
import subprocess
import sys

import httpx2
import pytest

from search.contract.filter_language import MAX_DEPTH
from tests.factories import WorkspaceFactory, api_key_make
from tests.servers import REPO, database_env

pytestmark = pytest.mark.django_db(transaction=True)

DEEP_FILTER = '{"$and": [' * (4 * MAX_DEPTH) + "{}" + "]}" * (4 * MAX_DEPTH)  # past the filter limit, within the SDK's
VERY_DEEP = "[" * 100_000 + "]" * 100_000  # past every parser's limit


def tool_call(request_id: int, name: str, arguments_json: str) -> str:
    return ('{"jsonrpc": "2.0", "id": %d, "method": "tools/call", "params": {"name": "%s", "arguments": %s}}'
            % (request_id, name, arguments_json))


def tool_error_code(result: dict) -> str:
    assert result["isError"], result
    text = result["content"][0]["text"]
    return json.loads(text[text.index("{"):])["code"]


@pytest.fixture
def key(db):
    return api_key_make(WorkspaceFactory(slug="acme"))[1]


# --- stdio ------------------------------------------------------------------------------------

class StdioSession:
    """`manage.py mcp_serve --api-key` as an agent host runs it, spoken to line by line."""

    def __init__(self, key: str):
        self.process = subprocess.Popen(
            [sys.executable, "manage.py", "mcp_serve", "--api-key", key], cwd=str(REPO),
            env=database_env(EMBEDDING_PROVIDER="none"),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        self.send(json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}}))
        assert self.receive()["id"] == 0
        self.send('{"jsonrpc": "2.0", "method": "notifications/initialized"}')

    def send(self, line: str) -> None:
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def receive(self, timeout: float = 30.0) -> dict:
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        assert ready, "no answer"
        return json.loads(self.process.stdout.readline())

    def close(self) -> str:
        self.process.stdin.close()
        self.process.wait(timeout=30)
        return self.process.stderr.read()


@pytest.fixture
def session(key):
    stdio = StdioSession(key)
    yield stdio
    stdio.process.kill()


def test_stdio_filter_nested_past_the_limit_is_a_coded_tool_error(session):
    session.send(tool_call(1, "semantic_search", '{"query": "x", "filter": %s}' % DEEP_FILTER))
    answer = session.receive()
    assert answer["id"] == 1 and tool_error_code(answer["result"]) == "filter_too_deep"


def test_stdio_json_nested_a_hundred_thousand_levels_leaves_the_server_serving(session):
    session.send(tool_call(1, "semantic_search", '{"query": "x", "filter": %s}' % VERY_DEEP))
    # The SDK cannot parse the message, so (today) it cannot answer its id; the next call is served.
    session.send(tool_call(2, "search_entries", '{"query": "x"}'))
    answers = {}
    while 2 not in answers:
        answer = session.receive()
        answers[answer.get("id")] = answer
    assert not answers[2]["result"]["isError"]
    assert all("error" in a or a["result"]["isError"] for request_id, a in answers.items() if request_id != 2)
    stderr = session.close()
    assert "Traceback" not in stderr and "RecursionError" not in stderr


# --- HTTP (/mcp/) -----------------------------------------------------------------------------

def post_mcp(live_server, key: str, body: str) -> httpx2.Response:
    return httpx2.post(f"{live_server.url}/mcp/", content=body.encode(), timeout=60, headers={
        "Authorization": f"Bearer {key}", "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-06-18",
    })


def test_http_filter_nested_past_the_limit_is_a_coded_tool_error(key, live_server):
    response = post_mcp(live_server, key, tool_call(1, "semantic_search", '{"query": "x", "filter": %s}' % DEEP_FILTER))
    assert response.status_code == 200
    assert tool_error_code(response.json()["result"]) == "filter_too_deep"


def test_http_json_nested_a_hundred_thousand_levels_is_refused_not_a_500(key, live_server):
    response = post_mcp(live_server, key, tool_call(1, "semantic_search", '{"query": "x", "filter": %s}' % VERY_DEEP))
    assert 400 <= response.status_code < 500
    assert post_mcp(live_server, key, tool_call(2, "search_entries", '{"query": "x"}')).status_code == 200


def test_http_body_over_the_limit_is_413(key, live_server):
    response = post_mcp(live_server, key, tool_call(1, "search_entries", '{"query": "%s"}' % ("x" * 300_000)))
    assert (response.status_code, response.json()["code"]) == (413, "request_too_large")
