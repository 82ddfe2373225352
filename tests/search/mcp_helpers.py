"""Two tenants with real content for the MCP tests, and ways to talk to the server.

Workspace A ("acme") and B ("globex"); every text of B carries the marker word "Zanzibar",
so a test can prove none of B's data reached A's caller by searching answers for it.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import httpx2
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from cms.models import Entry, EntryStatus, Role, Workspace
from ingestion.services import chunks_embed_pending
from tests.factories import ContentTypeFactory, MembershipFactory, UserFactory, WorkspaceFactory, api_key_make, entry_make
from tests.search.fuzz_hooks import without_echo
from tests.servers import REPO, database_env

B_MARKER = "zanzibar"
TOOL_NAMES = {"list_content_types", "search_entries", "semantic_search", "hybrid_search", "agentic_search"}


@dataclass
class Tenants:
    acme: Workspace
    globex: Workspace
    published: Entry
    draft: Entry
    acme_key: str
    acme_drafts_key: str
    globex_key: str


def tenants_make() -> Tenants:
    """A and B with entries embedded by the configured (local) model, and a key for each."""
    acme = WorkspaceFactory(slug="acme")
    articles = ContentTypeFactory(workspace=acme, api_id="article", semantic_search_enabled=True)
    published = entry_make(articles, title="Refund policy", body="<p>Return any item within 30 days for a full refund.</p>")
    entry_make(articles, title="Shipping times", body="<p>Orders ship from Osaka within two business days.</p>")
    draft = entry_make(articles, status=EntryStatus.DRAFT, title="Refund plan (unannounced)",
                       body="<p>Refunds will take 90 days from next year.</p>")
    globex = WorkspaceFactory(slug="globex")
    memos = ContentTypeFactory(workspace=globex, api_id="globex_memo", semantic_search_enabled=True)
    entry_make(memos, title="Zanzibar refund memo", body="<p>Zanzibar staff get refunds within a day.</p>")
    entry_make(memos, status=EntryStatus.DRAFT, title="Zanzibar draft", body="<p>Zanzibar refund rules, draft.</p>")
    chunks_embed_pending()
    return Tenants(
        acme=acme, globex=globex, published=published, draft=draft,
        acme_key=api_key_make(acme)[1], acme_drafts_key=api_key_make(acme, include_drafts=True)[1],
        globex_key=api_key_make(globex)[1],
    )


def member_make(workspace: Workspace, role: str = Role.VIEWER, username: str = "agent-user"):
    user = UserFactory(username=username)
    MembershipFactory(user=user, workspace=workspace, role=role)
    return user


# Arguments an agent of A might try in order to reach B. The tools take no workspace, so
# each call either answers with A's data only or is a tool error.
CROSS_TENANT_CALLS: list[tuple[str, dict[str, Any]]] = [
    ("search_entries", {"query": "refund", "workspace": "globex"}),
    ("search_entries", {"query": "refund", "content_type": "globex_memo"}),
    ("search_entries", {"query": "Zanzibar"}),
    ("search_entries", {"query": "refund", "status": "draft"}),
    ("semantic_search", {"query": "refund", "workspace": "globex", "top_k": 100}),
    ("semantic_search", {"query": "refund", "content_type": "globex_memo"}),
    ("semantic_search", {"query": "refund", "filter": {"workspace": "globex"}}),
    ("semantic_search", {"query": "refund", "filter": {"content_type": "globex_memo"}}),
    ("semantic_search", {"query": "refund", "filter": {"$or": [{"content_type": "globex_memo"}, {"status": "draft"}]}}),
    ("semantic_search", {"query": "Zanzibar staff refunds", "top_k": 100}),
    ("hybrid_search", {"query": "refund", "workspace": "globex", "top_k": 100}),
    ("hybrid_search", {"query": "refund", "content_type": "globex_memo"}),
    ("hybrid_search", {"query": "refund", "filter": {"$or": [{"content_type": "globex_memo"}, {"status": "draft"}]}}),
    ("hybrid_search", {"query": "Zanzibar staff refunds", "top_k": 100}),
    ("hybrid_search", {"query": "Zanzibar", "semantic_weight": 0, "top_k": 100}),
    ("agentic_search", {"query": "refund, and how fast do orders ship?", "workspace": "globex", "top_k": 100}),
    ("agentic_search", {"query": "refund", "queries": ["Zanzibar staff refunds", "Zanzibar refund rules"],
                        "top_k": 100}),
    ("agentic_search", {"query": "refund", "queries": ["refund", "Zanzibar"], "semantic_weight": 0, "top_k": 100}),
    ("agentic_search", {"query": "refund", "queries": ["refund", "draft"], "filter": {"status": "draft"}}),
    ("list_content_types", {"workspace": "globex"}),
]


def answer_text(result) -> str:
    """What a tool answered, lowercased, without the echo of the caller's own query."""
    if result.is_error:
        payload: Any = error_of(result)
        payload.pop("message", None)  # may quote the caller's argument back
    else:
        payload = without_echo(dict(result.structured_content or {}))
    return json.dumps(payload, ensure_ascii=False).lower()


def error_of(result) -> dict:
    assert result.is_error, result
    text = result.content[0].text
    return json.loads(text[text.index("{"):])


def stdio_server(*args: str) -> StdioServerParameters:
    """`manage.py mcp_serve ...` as a subprocess on the test database, with the local model."""
    env = database_env(EMBEDDING_PROVIDER="local")
    env.pop("CMS_API_KEY", None)
    return StdioServerParameters(command=sys.executable, args=["manage.py", "mcp_serve", *args], env=env, cwd=str(REPO))


@asynccontextmanager
async def http_session(url: str, key: str | None, *, mode: str = "auto") -> AsyncIterator[Client]:
    """The SDK's client over Streamable HTTP, sending `key` as a Bearer key."""
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    async with httpx2.AsyncClient(headers=headers, timeout=60) as http:
        async with Client(streamable_http_client(url, http_client=http), mode=mode) as client:
            yield client


def run(coroutine):
    return asyncio.run(coroutine)
