"""A filter asking for a status the caller cannot see is 403 `status_not_visible`, as in the full-text search.

Review item 12: a viewer (or a published-only API key) filtering semantic, hybrid or agentic
search on `status: draft` got an empty list, while the full-text search answered 403. The
rule now lives where the chunk filter meets the caller's access
(search.engine.filters.chunks.chunk_filter_compile): a condition that *selects* a hidden status is
refused, one that only excludes it narrows as before.
"""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from mcp import Client as McpClient
from rest_framework.test import APIClient

from cms.models import EntryStatus, Role
from ingestion.services import chunks_embed_pending
from search.interfaces.mcp.server import build_mcp_server, user_caller
from tests.factories import ContentTypeFactory, MembershipFactory, UserFactory, api_key_make, entry_make
from tests.mcp_here import mcp_session_here

# The MCP tools' work runs on the test's thread (tests/mcp_here.py): each test's transaction
# rolls back what it adds, and no test flushes every table.
pytestmark = pytest.mark.django_db

KINDS = ["semantic", "hybrid", "agentic"]
# Filters that ask for drafts: alone, beside published, or through $not.
FORGING = [
    {"status": "draft"},
    {"status": {"$eq": "draft"}},
    {"status": {"$in": ["draft"]}},
    {"status": {"$in": ["draft", "published"]}},
    {"$or": [{"status": "draft"}, {"status": "published"}]},
    {"$and": [{"fields.version": {"$gte": 1}}, {"status": "draft"}]},
    {"$not": {"status": {"$ne": "draft"}}},
    {"status": {"$not": {"$nin": ["draft"]}}},
    # Operators that select by a pattern, not by name (round three, finding 9).
    {"status": {"$contains": "draft"}},
    {"status": {"$contains": "raf"}},
    # Round four, item 8: $all named drafts and answered 200 with nothing.
    {"status": {"$all": ["draft"]}},
    {"status": {"$all": ["draft", "published"]}},
]
# Filters that name drafts only to leave them out: they narrow, so they stay allowed.
EXCLUDING = [
    {"status": "published"},
    {"status": {"$ne": "draft"}},
    {"status": {"$nin": ["draft"]}},
    {"$not": {"status": "draft"}},
    {"fields.status": "draft"},  # an entry field named status, not the entry's status
    {"status": {"$contains": "pub"}},
    {"$not": {"status": {"$contains": "raf"}}},
    {"$not": {"status": {"$all": ["draft"]}}},
]
DRAFT_TITLE = "Refund plan (unannounced)"


@pytest.fixture
def content(local_embeddings, workspace):
    notes = ContentTypeFactory(workspace=workspace, api_id="note", semantic_search_enabled=True, fields=[
        {"id": "title", "label": "Title", "type": "text"}, {"id": "body", "label": "Body", "type": "richtext"},
        {"id": "version", "label": "Version", "type": "number"}, {"id": "status", "label": "Status", "type": "text"},
    ])
    entry_make(notes, title="Refund policy", body="<p>Return any item within 30 days for a full refund.</p>",
               version=1)
    entry_make(notes, status=EntryStatus.DRAFT, title=DRAFT_TITLE,
               body="<p>Refunds will take 90 days from next year.</p>", version=2)
    chunks_embed_pending(workspace=workspace)


@pytest.fixture
def viewer(workspace):
    user = UserFactory(username="viewer")
    MembershipFactory(user=user, workspace=workspace, role=Role.VIEWER)
    return user


def viewer_client(viewer) -> APIClient:
    client = APIClient()
    client.force_login(viewer)
    return client


def key_client(workspace, *, include_drafts: bool = False) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {api_key_make(workspace, include_drafts=include_drafts)[1]}")
    return client


def search(client: APIClient, kind: str, spec: dict):
    body = {"query": "refund", "filter": spec, "top_k": 10}
    if kind == "agentic":
        body["queries"] = ["refund", "refund days"]
    return client.post(f"/api/v1/workspaces/acme/search/{kind}", json.dumps(body), content_type="application/json")


def titles(body: dict) -> set[str]:
    return {source["metadata"].get("title", "") for source in body["sources"]}


@pytest.mark.parametrize("caller", ["viewer", "published_key"])
@pytest.mark.parametrize("kind", KINDS)
def test_api_filter_asking_for_drafts_is_403_for_a_caller_without_drafts(content, workspace, viewer, caller, kind):
    client = viewer_client(viewer) if caller == "viewer" else key_client(workspace)

    answers = {json.dumps(spec): search(client, kind, spec) for spec in FORGING}

    wrong = {spec: (r.status_code, r.json().get("code")) for spec, r in answers.items()
             if (r.status_code, r.json().get("code")) != (403, "status_not_visible")}
    assert not wrong, wrong
    first = answers[json.dumps(FORGING[0])].json()
    assert first["details"]["path"] == "filter.status" and "draft" in first["message"]


@pytest.mark.parametrize("caller", ["viewer", "published_key"])
@pytest.mark.parametrize("kind", KINDS)
def test_api_filter_excluding_drafts_still_narrows(content, workspace, viewer, caller, kind):
    client = viewer_client(viewer) if caller == "viewer" else key_client(workspace)

    for spec in EXCLUDING:
        response = search(client, kind, spec)
        assert response.status_code == 200, (spec, response.content)
        assert DRAFT_TITLE not in titles(response.json()), spec


@pytest.mark.parametrize("kind", KINDS)
def test_api_caller_with_drafts_gets_them_from_a_draft_filter(content, workspace, kind):
    response = search(key_client(workspace, include_drafts=True), kind, {"status": "draft"})

    assert response.status_code == 200, response.content
    assert titles(response.json()) == {DRAFT_TITLE}


def mcp_http_call(client: APIClient, tool: str, arguments: dict) -> dict:
    """One tools/call over Streamable HTTP (/mcp/, stateless JSON mode): the JSON-RPC result."""
    response = client.post(
        "/mcp/",
        json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool, "arguments": arguments}}),
        content_type="application/json", HTTP_ACCEPT="application/json, text/event-stream",
    )
    assert response.status_code == 200, response.content
    return json.loads(response.content)["result"]


def tool_error_code(result: dict) -> str | None:
    if not result.get("isError"):
        return None
    text = result["content"][0]["text"]
    return json.loads(text[text.index("{"):])["code"]


@pytest.mark.parametrize("tool", ["semantic_search", "hybrid_search", "agentic_search"])
def test_mcp_over_http_published_key_asking_for_drafts_is_status_not_visible(content, workspace, tool):
    client = key_client(workspace)

    codes = [tool_error_code(mcp_http_call(client, tool, {"query": "refund", "filter": spec})) for spec in FORGING]
    allowed = mcp_http_call(client, tool, {"query": "refund", "filter": {"status": {"$ne": "draft"}}})

    assert codes == ["status_not_visible"] * len(FORGING)
    assert not allowed.get("isError"), allowed


def test_mcp_viewer_asking_for_drafts_is_status_not_visible(content, viewer):
    caller = user_caller(username=viewer.username, workspace="acme")

    async def run(run_sync) -> dict[str, object]:
        async with McpClient(build_mcp_server(caller=caller, run_sync=run_sync)) as mcp:
            return {tool: await mcp.call_tool(tool, {"query": "refund", "filter": {"status": {"$in": ["draft"]}}})
                    for tool in ("semantic_search", "hybrid_search", "agentic_search")}

    for tool, result in mcp_session_here(run).items():
        assert result.is_error, tool
        text = result.content[0].text
        assert json.loads(text[text.index("{"):])["code"] == "status_not_visible", (tool, text)


@pytest.mark.parametrize("command", ["semantic_search", "hybrid_search", "agentic_search"])
@pytest.mark.parametrize("as_whom", [["--published-only"], ["--user", "viewer"]])
def test_command_acting_without_drafts_asking_for_drafts_is_status_not_visible(content, viewer, command, as_whom):
    with pytest.raises(CommandError, match=r"\[status_not_visible\]"):
        call_command(command, "acme", "refund", "--filter", json.dumps({"status": "draft"}), *as_whom,
                     stdout=StringIO())


@pytest.mark.parametrize("command", ["semantic_search", "hybrid_search", "agentic_search"])
def test_command_as_operator_finds_drafts_by_filter(content, command):
    out = StringIO()
    call_command(command, "acme", "refund", "--filter", json.dumps({"status": "draft"}), "--json", stdout=out)

    assert titles(json.loads(out.getvalue())) == {DRAFT_TITLE}
