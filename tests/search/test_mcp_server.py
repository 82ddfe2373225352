"""The MCP tools: the same searches for agents, scoped to the serving user's workspaces."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

import pytest
from django.db import connection
from mcp import Client, StdioServerParameters

from cms.models import Role
from ingestion.services import chunks_embed_pending
from search.mcp_server import build_mcp_server
from tests.factories import ContentTypeFactory, MembershipFactory, UserFactory, WorkspaceFactory, entry_make
from tests.search.semantic_helpers import LOCAL_BACKEND

pytestmark = pytest.mark.django_db(transaction=True)
REPO = Path(__file__).resolve().parents[2]


def call(server, tool: str, arguments: dict | None = None):
    async def run():
        async with Client(server) as client:
            return await client.call_tool(tool, arguments or {})

    return asyncio.run(run())


def error_of(result) -> dict:
    assert result.is_error
    text = result.content[0].text
    return json.loads(text[text.index("{"):])


@pytest.fixture
def agent(settings, local_model):
    from ingestion.embeddings import reset_embedding_backends

    settings.SEARCH_EMBEDDING_BACKENDS = {"default": LOCAL_BACKEND}
    reset_embedding_backends()
    user = UserFactory(username="agent")
    acme = WorkspaceFactory(slug="acme")
    MembershipFactory(user=user, workspace=acme, role=Role.VIEWER)
    articles = ContentTypeFactory(workspace=acme, api_id="article", semantic_search_enabled=True)
    entry_make(articles, title="Refund policy", body="<p>Return any item within 30 days for a full refund.</p>")
    entry_make(articles, title="Shipping times", body="<p>Orders ship from Osaka within two business days.</p>")
    globex = WorkspaceFactory(slug="globex")
    secret = ContentTypeFactory(workspace=globex, api_id="article", semantic_search_enabled=True)
    entry_make(secret, title="Globex refund secret", body="<p>Refunds for Globex staff only.</p>")
    chunks_embed_pending()
    yield build_mcp_server(user=user)
    reset_embedding_backends()


def test_list_workspaces_shows_only_the_users(agent):
    result = call(agent, "list_workspaces")
    assert not result.is_error
    assert [ws["slug"] for ws in result.structured_content["result"]] == ["acme"]


def test_search_entries_finds_the_exact_word(agent):
    result = call(agent, "search_entries", {"workspace": "acme", "query": "OSAKA"})
    assert not result.is_error
    hits = result.structured_content["results"]
    assert [hit["matched_fields"] for hit in hits] == [["body"]]


def test_semantic_search_finds_english_refund_text_for_japanese_query(agent):
    result = call(agent, "semantic_search", {"workspace": "acme", "query": "返品", "top_k": 1})
    assert not result.is_error
    source = result.structured_content["sources"][0]
    assert source["metadata"]["title"] == "Refund policy"
    assert "Refund policy" in result.structured_content["relevant_context"]


def test_another_workspace_is_not_found(agent):
    for tool in ("search_entries", "semantic_search"):
        result = call(agent, tool, {"workspace": "globex", "query": "refund"})
        assert error_of(result) == {"code": "not_found", "message": "No such workspace."}


def test_bad_query_is_a_coded_tool_error(agent):
    result = call(agent, "search_entries", {"workspace": "acme", "query": "   "})
    assert error_of(result)["code"] == "query_empty"


def test_stdio_server_lists_the_tools(db):
    UserFactory(username="stdio-agent")
    params = connection.get_connection_params()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "cms.settings",
        "DATABASE_URL": f"postgres://{params.get('user', 'postgres')}@/{connection.settings_dict['NAME']}"
        f"?host={params['host']}",
    }
    server = StdioServerParameters(
        command=sys.executable, args=["manage.py", "mcp_serve", "--user", "stdio-agent"], env=env, cwd=str(REPO)
    )

    async def run():
        async with Client(server) as client:
            return await client.list_tools()

    names = {tool.name for tool in asyncio.run(run()).tools}
    assert names == {"list_workspaces", "search_entries", "semantic_search"}
