"""The MCP tools under bounded input: a filter nested too deep is a coded tool error, never a crash.

The MCP SDK parses each JSON-RPC message itself (pydantic-core, which refuses nesting past
its own recursion limit of a few hundred levels). Up to that limit the arguments reach the
tool, and search.filters answers `filter_too_deep`; past it the SDK drops the message it
cannot parse and keeps serving. Either way: no crash and no traceback.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from search.filters import MAX_DEPTH
from tests.factories import MembershipFactory, UserFactory, WorkspaceFactory

pytestmark = pytest.mark.django_db(transaction=True)
REPO = Path(__file__).resolve().parents[2]


class StdioSession:
    """`manage.py mcp_serve` as an agent host runs it, spoken to line by line."""

    def __init__(self, username: str):
        params = connection.get_connection_params()
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "cms.settings",
            "DATABASE_URL": f"postgres://{params.get('user', 'postgres')}@/{connection.settings_dict['NAME']}"
            f"?host={params['host']}",
        }
        self.process = subprocess.Popen(
            [sys.executable, "manage.py", "mcp_serve", "--user", username], cwd=str(REPO), env=env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        self.request({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}})
        self.send('{"jsonrpc": "2.0", "method": "notifications/initialized"}')

    def send(self, line: str) -> None:
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def receive(self, timeout: float = 30.0) -> dict | None:
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        return json.loads(self.process.stdout.readline()) if ready else None

    def request(self, message: dict) -> dict | None:
        self.send(json.dumps(message))
        return self.receive()

    def close(self) -> str:
        self.process.stdin.close()
        self.process.wait(timeout=30)
        return self.process.stderr.read()


def tool_call(request_id: int, name: str, arguments_json: str) -> str:
    return ('{"jsonrpc": "2.0", "id": %d, "method": "tools/call", "params": {"name": "%s", "arguments": %s}}'
            % (request_id, name, arguments_json))


@pytest.fixture
def session():
    user = UserFactory(username="stdio-agent")
    MembershipFactory(user=user, workspace=WorkspaceFactory(slug="acme"))
    stdio = StdioSession("stdio-agent")
    yield stdio
    stdio.process.kill()


def test_filter_nested_past_the_limit_is_a_coded_tool_error(session):
    levels = 4 * MAX_DEPTH
    deep = '{"$and": [' * levels + "{}" + "]}" * levels
    session.send(tool_call(1, "semantic_search", '{"workspace": "acme", "query": "x", "filter": %s}' % deep))
    answer = session.receive()
    assert answer["id"] == 1 and answer["result"]["isError"]
    text = answer["result"]["content"][0]["text"]
    assert json.loads(text[text.index("{"):])["code"] == "filter_too_deep"


def test_json_nested_a_hundred_thousand_levels_leaves_the_server_serving(session):
    deep = "[" * 100_000 + "]" * 100_000
    session.send(tool_call(1, "semantic_search", '{"workspace": "acme", "query": "x", "filter": %s}' % deep))
    # The SDK cannot parse the message, so (today) it cannot answer its id; the next call is served.
    session.send(tool_call(2, "search_entries", '{"workspace": "acme", "query": "x"}'))
    answers = {}
    while 2 not in answers:
        answer = session.receive()
        answers[answer.get("id")] = answer
    assert not answers[2]["result"]["isError"]
    assert all("error" in a or a["result"]["isError"] for key, a in answers.items() if key != 2)
    stderr = session.close()
    assert "Traceback" not in stderr and "RecursionError" not in stderr
