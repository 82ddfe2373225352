"""The MCP tools, driven through the SDK's own client: in-process, over stdio and over HTTP.

The workspace comes from the API key (or the operator's --user/--workspace), never from a
tool argument; the caller is checked again at every call.
"""

from __future__ import annotations

import anyio.to_thread
import httpx2
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from django.core.management import CommandError, call_command
from django.db import connection

from cms.models import Role
from cms.services import api_key_revoke
from cms.selectors import api_key_get
from ingestion.embeddings import reset_embedding_backends
from search.interfaces.mcp.server import api_key_caller, build_mcp_server, user_caller
from tests.search.mcp_helpers import (
    B_MARKER,
    CROSS_TENANT_CALLS,
    TOOL_NAMES,
    answer_text,
    error_of,
    http_session,
    member_make,
    run,
    stdio_server,
    tenants_make,
)
from tests.search.semantic_helpers import LOCAL_BACKEND

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def tenants(settings, local_model):
    settings.SEARCH_EMBEDDING_BACKENDS = {"default": LOCAL_BACKEND}
    reset_embedding_backends()
    yield tenants_make()
    reset_embedding_backends()


async def off_loop(fn) -> None:
    """Run database work from inside the client's event loop (on a thread that then closes its connection)."""

    def work() -> None:
        try:
            fn()
        finally:
            connection.close()

    await anyio.to_thread.run_sync(work)


def revoke(secret: str) -> None:
    api_key_revoke(api_key=api_key_get(prefix=secret))


async def call_each_tool(client: Client) -> dict:
    """List the tools and call each one on the tenants' data."""
    tools = await client.list_tools()
    return {
        "tools": {tool.name: tool for tool in tools.tools},
        "list_content_types": await client.call_tool("list_content_types", {}),
        "search_entries": await client.call_tool("search_entries", {"query": "OSAKA"}),
        "semantic_search": await client.call_tool("semantic_search", {"query": "返品", "top_k": 1}),
        "hybrid_search": await client.call_tool("hybrid_search", {"query": "How long do refunds take?", "top_k": 1}),
        "agentic_search": await client.call_tool("agentic_search", {
            "query": "How long do refunds take, and where do orders ship from?", "top_k": 2}),
        "agentic_search (queries)": await client.call_tool("agentic_search", {
            "query": "refunds and shipping", "queries": ["refund days", "orders ship from"], "top_k": 2}),
    }


def assert_each_tool_answered(answers: dict) -> None:
    assert set(answers["tools"]) == TOOL_NAMES
    for tool in answers["tools"].values():
        assert "workspace" not in tool.input_schema.get("properties", {})
    types = answers["list_content_types"].structured_content
    assert (types["workspace"], types["statuses"]) == ("acme", ["published"])
    assert [ct["api_id"] for ct in types["content_types"]] == ["article"]
    hits = answers["search_entries"].structured_content["results"]
    assert [hit["matched_fields"] for hit in hits] == [["body"]]
    semantic = answers["semantic_search"].structured_content
    assert semantic["sources"][0]["metadata"]["title"] == "Refund policy"
    hybrid = answers["hybrid_search"].structured_content
    assert hybrid["sources"][0]["metadata"]["title"] == "Refund policy"
    assert hybrid["meta"]["legs_used"] == ["keyword", "semantic"]
    assert set(hybrid["sources"][0]["legs"]) == {"keyword", "semantic", "fused"}
    for answer in ("agentic_search", "agentic_search (queries)"):
        agentic = answers[answer].structured_content
        assert agentic["meta"]["path"] == "agentic" and len(agentic["meta"]["parts"]) == 2
        assert [s["metadata"]["title"] for s in agentic["sources"]] == ["Refund policy", "Shipping times"]


async def cross_tenant_answers(client: Client) -> list[str]:
    return [answer_text(await client.call_tool(tool, arguments)) for tool, arguments in CROSS_TENANT_CALLS]


# --- in process ------------------------------------------------------------------------------

def in_process(server, coroutine_fn):
    async def go():
        async with Client(server) as client:
            return await coroutine_fn(client)

    return run(go())


def test_key_server_answers_each_tool_for_the_keys_workspace(tenants):
    answers = in_process(build_mcp_server(caller=api_key_caller(tenants.acme_key)), call_each_tool)

    assert_each_tool_answered(answers)


def test_tool_descriptions_say_when_to_use_each_tool(tenants):
    answers = in_process(build_mcp_server(caller=api_key_caller(tenants.acme_key)), call_each_tool)

    descriptions = {name: tool.description for name, tool in answers["tools"].items()}
    assert "exact word" in descriptions["search_entries"]
    assert "meaning" in descriptions["semantic_search"] and "search_entries" in descriptions["semantic_search"]
    assert "first" in descriptions["list_content_types"]
    assert "DEFAULT SEARCH for natural-language questions" in descriptions["hybrid_search"]
    assert "hybrid_search" in descriptions["search_entries"]
    assert "SEVERAL THINGS AT ONCE" in descriptions["agentic_search"]
    assert "`queries`" in descriptions["agentic_search"]


def test_key_with_drafts_sees_draft_status_in_content_types(tenants):
    server = build_mcp_server(caller=api_key_caller(tenants.acme_drafts_key))

    answer = in_process(server, lambda client: client.call_tool("list_content_types", {}))

    assert answer.structured_content["statuses"] == ["draft", "published"]


def test_key_of_a_never_returns_b_data_whatever_the_arguments(tenants):
    answers = in_process(build_mcp_server(caller=api_key_caller(tenants.acme_key)), cross_tenant_answers)

    assert [B_MARKER in answer for answer in answers] == [False] * len(CROSS_TENANT_CALLS)


def test_revoked_key_is_refused_at_the_next_call(tenants):
    async def calls(client):
        before = await client.call_tool("search_entries", {"query": "refund"})
        await off_loop(lambda: revoke(tenants.acme_key))
        return before, await client.call_tool("search_entries", {"query": "refund"})

    before, after = in_process(build_mcp_server(caller=api_key_caller(tenants.acme_key)), calls)

    assert not before.is_error
    assert error_of(after)["code"] == "api_key_revoked"


def test_deactivated_user_is_refused_at_the_next_call(tenants):
    user = member_make(tenants.acme)

    async def calls(client):
        before = await client.call_tool("search_entries", {"query": "refund"})
        await off_loop(lambda: type(user).objects.filter(pk=user.pk).update(is_active=False))
        return before, await client.call_tool("search_entries", {"query": "refund"})

    before, after = in_process(build_mcp_server(caller=user_caller(username=user.username, workspace="acme")), calls)

    assert not before.is_error
    assert error_of(after)["code"] == "not_authenticated"


def test_user_mode_follows_the_users_role(tenants):
    viewer = member_make(tenants.acme, Role.VIEWER)
    server = build_mcp_server(caller=user_caller(username=viewer.username, workspace="acme"))

    answer = in_process(server, lambda client: client.call_tool("search_entries", {"query": "refund"}))

    assert {hit["id"] for hit in answer.structured_content["results"]} == {tenants.published.pk}


def test_user_mode_outside_the_users_workspaces_is_not_found(tenants):
    outsider = member_make(tenants.acme, username="outsider")
    server = build_mcp_server(caller=user_caller(username=outsider.username, workspace="globex"))

    answer = in_process(server, lambda client: client.call_tool("search_entries", {"query": "refund"}))

    assert error_of(answer) == {"code": "not_found", "message": "No such workspace."}


def test_bad_query_is_a_tool_error_with_the_api_code(tenants):
    server = build_mcp_server(caller=api_key_caller(tenants.acme_key))

    answer = in_process(server, lambda client: client.call_tool("search_entries", {"query": "   "}))

    assert error_of(answer)["code"] == "query_empty"


def test_user_mode_requires_a_workspace(db):
    with pytest.raises(CommandError, match="--workspace"):
        call_command("mcp_serve", "--user", "someone")


def test_serving_with_a_bad_key_refuses_to_start(db):
    with pytest.raises(CommandError, match="not valid"):
        call_command("mcp_serve", "--api-key", "cms_000000000000_" + "x" * 43)


# --- over stdio ------------------------------------------------------------------------------

def over_stdio(key: str, coroutine_fn):
    async def go():
        async with Client(stdio_server("--api-key", key)) as client:
            return await coroutine_fn(client)

    return run(go())


def test_stdio_server_answers_each_tool(tenants):
    assert_each_tool_answered(over_stdio(tenants.acme_key, call_each_tool))


def test_stdio_revoked_key_is_refused_at_the_next_call(tenants):
    async def calls(client):
        before = await client.call_tool("search_entries", {"query": "refund"})
        await off_loop(lambda: revoke(tenants.acme_key))
        return before, await client.call_tool("search_entries", {"query": "refund"})

    before, after = over_stdio(tenants.acme_key, calls)

    assert not before.is_error
    assert error_of(after)["code"] == "api_key_revoked"


def test_stdio_key_of_a_never_returns_b_data_whatever_the_arguments(tenants):
    answers = over_stdio(tenants.acme_key, cross_tenant_answers)

    assert [B_MARKER in answer for answer in answers] == [False] * len(CROSS_TENANT_CALLS)


@pytest.mark.parametrize("preload", ["true", "false"])
def test_stdio_server_loads_its_workspaces_model_as_it_starts(tenants, preload, tmp_path):
    """The workspace's model and its confidence background load on a thread as the server starts,
    not in the client's first semantic or hybrid call; logged on stderr, never on stdout, which
    carries the protocol alone."""
    import subprocess
    import time

    params = stdio_server("--api-key", tenants.acme_key)
    env = {**params.env, "LOG_LEVEL": "INFO", "EMBEDDING_WORKER_PRELOAD": preload}
    line = "Query side loaded at start: use-multilingual-v3 and its confidence background"
    stderr = tmp_path / "stderr.log"
    with stderr.open("wb") as err_file:
        server = subprocess.Popen([params.command, *params.args], cwd=params.cwd, env=env, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=err_file)
    try:
        # Until the line is logged (with the preload on: USE loads in a few seconds here), or, off,
        # long enough that a load would have been.
        deadline = time.monotonic() + (60 if preload == "true" else 8)
        while time.monotonic() < deadline and line not in stderr.read_text(errors="replace"):
            time.sleep(0.2)
        out, _ = server.communicate(input=b"", timeout=60)  # end of input: the server stops
    finally:
        server.kill()
    err = stderr.read_text(errors="replace")
    assert (line in err) is (preload == "true"), err[-2000:]
    assert out == b""  # no request, so no protocol message, and no log line either


# --- over HTTP (/mcp/ on a live server) ------------------------------------------------------

def over_http(live_server, key: str, coroutine_fn, *, mode: str = "auto"):
    async def go():
        async with http_session(f"{live_server.url}/mcp/", key, mode=mode) as client:
            return await coroutine_fn(client)

    return run(go())


def test_http_server_answers_each_tool(tenants, live_server):
    assert_each_tool_answered(over_http(live_server, tenants.acme_key, call_each_tool))


def test_http_server_serves_clients_of_the_initialize_handshake_too(tenants, live_server):
    assert_each_tool_answered(over_http(live_server, tenants.acme_key, call_each_tool, mode="legacy"))


def test_http_key_of_a_never_returns_b_data_whatever_the_arguments(tenants, live_server):
    answers = over_http(live_server, tenants.acme_key, cross_tenant_answers)

    assert [B_MARKER in answer for answer in answers] == [False] * len(CROSS_TENANT_CALLS)


def test_http_key_of_b_finds_b_data(tenants, live_server):
    answer = over_http(live_server, tenants.globex_key,
                       lambda client: client.call_tool("search_entries", {"query": "refund"}))

    assert B_MARKER in answer_text(answer)


def test_http_revoked_key_is_refused_at_the_next_call(tenants, live_server):
    async def calls(client):
        before = await client.call_tool("search_entries", {"query": "refund"})
        await off_loop(lambda: revoke(tenants.acme_key))
        try:
            await client.call_tool("search_entries", {"query": "refund"})
        except MCPError as refused:
            return before, refused
        return before, None

    before, refused = over_http(live_server, tenants.acme_key, calls)

    assert not before.is_error
    # The SDK reports the 401 as an error response (test_http_revoked_key_gets_401_with_its_code).
    assert isinstance(refused, MCPError)


def test_http_revoked_key_gets_401_with_its_code(tenants, live_server):
    revoke(tenants.acme_key)

    response = httpx2.post(f"{live_server.url}/mcp/", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                           headers={"Authorization": f"Bearer {tenants.acme_key}"})

    assert (response.status_code, response.json()["code"]) == (401, "api_key_revoked")
    assert response.headers["WWW-Authenticate"].startswith("Bearer")


def test_http_without_a_key_is_401_with_a_bearer_challenge(live_server):
    response = httpx2.post(f"{live_server.url}/mcp/", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"})

    assert (response.status_code, response.json()["code"]) == (401, "not_authenticated")
    assert response.headers["WWW-Authenticate"] == 'Bearer realm="cms"'


def test_agentic_tool_error_carries_the_api_code(tenants):
    server = build_mcp_server(caller=api_key_caller(tenants.acme_key))

    answer = in_process(server, lambda client: client.call_tool("agentic_search", {"query": "refund", "queries": []}))

    assert error_of(answer)["code"] == "queries_empty"


def test_http_tool_error_carries_the_api_code(tenants, live_server):
    answer = over_http(live_server, tenants.acme_key,
                       lambda client: client.call_tool("semantic_search", {"query": "refund", "top_k": 0}))

    assert error_of(answer)["code"] == "top_k_out_of_range"


# Found by the fuzzer (tests/search/interfaces/api/test_fuzz.py): these answers had no code to branch on.

def test_http_post_that_is_not_json_is_415_with_its_code(tenants, live_server):
    response = httpx2.post(f"{live_server.url}/mcp/", content=b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}',
                           headers={"Authorization": f"Bearer {tenants.acme_key}", "Content-Type": "text/plain",
                                    "Accept": "application/json, text/event-stream"})

    assert (response.status_code, response.json()["code"]) == (415, "unsupported_media_type")


@pytest.mark.parametrize("method", ["GET", "DELETE"])
def test_http_stream_and_session_methods_are_405_with_a_code(tenants, live_server, method):
    response = httpx2.request(method, f"{live_server.url}/mcp/", headers={"Authorization": f"Bearer {tenants.acme_key}"})

    assert (response.status_code, response.json()["code"]) == (405, "method_not_allowed")
    assert "POST" in response.headers["Allow"] and method not in response.headers["Allow"]
