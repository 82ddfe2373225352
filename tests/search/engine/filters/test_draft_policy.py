"""Drafts reach only callers whose role sees them, through every search and every interface.

The policy lives in cms/access.py; these tests pin that each interface (API, MCP, admin,
commands) goes through it, for full-text and semantic search alike.
"""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from mcp import Client
from rest_framework.test import APIClient

from cms.access import workspace_access_for_user
from cms.models import EntryStatus, Role
from search.engine.fulltext import search_entries
from search.interfaces.mcp.server import api_key_caller, build_mcp_server, user_caller
from search.engine.semantic import semantic_search
from tests.factories import MembershipFactory, UserFactory, api_key_make
from tests.mcp_here import mcp_session_here
from tests.search.semantic_helpers import chunk_make, entry_for, plain_type

# The MCP tools' work runs on the test's thread (tests/mcp_here.py): each test's transaction
# rolls back what it adds, and no test flushes every table.
pytestmark = pytest.mark.django_db

PUBLISHED_TITLE = "Refund policy"
DRAFT_TITLE = "Refund plan (unannounced)"


@pytest.fixture
def content(local_embeddings, workspace):
    notes = plain_type(workspace)
    published = entry_for(notes, title=PUBLISHED_TITLE, body="Return any item within 30 days for a refund.")
    draft = entry_for(notes, title=DRAFT_TITLE, body="Refunds will take 90 days from next year.",
                      status=EntryStatus.DRAFT)
    chunk_make(published, "Return any item within 30 days for a full refund.")
    chunk_make(draft, "Refunds will take 90 days from next year.")
    return published, draft


def member(workspace, role: str):
    user = UserFactory()
    MembershipFactory(user=user, workspace=workspace, role=role)
    return user


@pytest.fixture
def viewer(workspace):
    return member(workspace, Role.VIEWER)


@pytest.fixture
def writer(workspace):
    return member(workspace, Role.EDITOR)


def fulltext_ids(user, **kwargs) -> set[int]:
    access = workspace_access_for_user(user=user, slug="acme")
    return {hit.entry_id for hit in search_entries(access=access, query="refund", **kwargs).hits}


def semantic_entry_ids(user, **kwargs) -> set[int]:
    access = workspace_access_for_user(user=user, slug="acme")
    return {hit.entry_id for hit in semantic_search(access=access, query="refund", **kwargs).hits}


def test_viewer_full_text_search_never_returns_drafts(content, viewer):
    published, _ = content

    assert fulltext_ids(viewer) == {published.pk}


def test_editor_full_text_search_returns_drafts(content, writer):
    assert fulltext_ids(writer) == {entry.pk for entry in content}


def test_viewer_asking_for_drafts_is_refused_not_widened(content, viewer):
    from search.contract.errors import SearchError

    with pytest.raises(SearchError) as caught:
        fulltext_ids(viewer, status="draft")

    assert caught.value.code == "status_not_visible" and caught.value.status == 403


def test_viewer_semantic_search_never_returns_draft_chunks(content, viewer):
    published, _ = content

    assert semantic_entry_ids(viewer) == {published.pk}


def test_viewer_status_filter_that_excludes_drafts_only_narrows(content, viewer):
    assert semantic_entry_ids(viewer, filter={"status": {"$ne": "draft"}}) == {content[0].pk}
    assert semantic_entry_ids(viewer, filter={"status": {"$ne": "published"}}) == set()


def test_viewer_status_filter_asking_for_drafts_is_refused_not_widened(content, viewer):
    """As in the full-text search; tests/security/test_status_forging.py covers every interface."""
    from search.contract.errors import SearchError

    with pytest.raises(SearchError) as caught:
        semantic_entry_ids(viewer, filter={"$or": [{"status": "draft"}, {"status": "published"}]})

    assert caught.value.code == "status_not_visible" and caught.value.status == 403


def test_editor_semantic_search_returns_draft_chunks(content, writer):
    assert semantic_entry_ids(writer) == {entry.pk for entry in content}


def test_api_hides_drafts_from_a_viewer_in_both_searches(content, viewer):
    client = APIClient()
    client.force_login(viewer)

    entries = client.get("/api/v1/workspaces/acme/search/entries", {"q": "refund"}).json()
    semantic = client.post("/api/v1/workspaces/acme/search/semantic", {"query": "refund"}, format="json").json()

    assert {hit["id"] for hit in entries["results"]} == {content[0].pk}
    assert {s["metadata"]["entry_id"] for s in semantic["sources"]} == {content[0].pk}
    refused = client.get("/api/v1/workspaces/acme/search/entries", {"q": "refund", "status": "draft"})
    assert refused.status_code == 403 and refused.json()["code"] == "status_not_visible"


def mcp_entry_ids(caller) -> tuple[set[int], set[int]]:
    """Entry ids that the MCP full-text and semantic tools return for "refund"."""

    async def run(run_sync):
        async with Client(build_mcp_server(caller=caller, run_sync=run_sync)) as client:
            entries = await client.call_tool("search_entries", {"query": "refund"})
            semantic = await client.call_tool("semantic_search", {"query": "refund"})
            return entries.structured_content, semantic.structured_content

    entries, semantic = mcp_session_here(run)
    return {hit["id"] for hit in entries["results"]}, {s["metadata"]["entry_id"] for s in semantic["sources"]}


def api_entry_ids(client: APIClient) -> tuple[set[int], set[int]]:
    """Entry ids that the API's full-text and semantic searches return for "refund"."""
    entries = client.get("/api/v1/workspaces/acme/search/entries", {"q": "refund"}).json()
    semantic = client.post("/api/v1/workspaces/acme/search/semantic", {"query": "refund"}, format="json").json()
    return {hit["id"] for hit in entries["results"]}, {s["metadata"]["entry_id"] for s in semantic["sources"]}


def test_mcp_tools_hide_drafts_from_a_viewer(content, viewer):
    published, _ = content

    assert mcp_entry_ids(user_caller(username=viewer.username, workspace="acme")) == ({published.pk}, {published.pk})


def test_api_key_without_drafts_flag_never_sees_drafts_in_any_api_search(content, workspace):
    _, secret = api_key_make(workspace)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")

    assert api_entry_ids(client) == ({content[0].pk}, {content[0].pk})
    refused = client.get("/api/v1/workspaces/acme/search/entries", {"q": "refund", "status": "draft"})
    assert refused.status_code == 403 and refused.json()["code"] == "status_not_visible"


def test_api_key_with_drafts_flag_sees_drafts_in_every_api_search(content, workspace):
    _, secret = api_key_make(workspace, include_drafts=True)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")

    every = {entry.pk for entry in content}
    assert api_entry_ids(client) == (every, every)


def test_api_key_without_drafts_flag_never_sees_drafts_in_mcp_tools(content, workspace):
    _, secret = api_key_make(workspace)

    assert mcp_entry_ids(api_key_caller(secret)) == ({content[0].pk}, {content[0].pk})


def test_api_key_with_drafts_flag_sees_drafts_in_mcp_tools(content, workspace):
    _, secret = api_key_make(workspace, include_drafts=True)

    every = {entry.pk for entry in content}
    assert mcp_entry_ids(api_key_caller(secret)) == (every, every)


def test_search_commands_hide_drafts_when_acting_as_a_viewer(content, viewer):
    full_text, semantic = StringIO(), StringIO()
    call_command("search_entries", "acme", "refund", "--json", "--user", viewer.username, stdout=full_text)
    call_command("semantic_search", "acme", "refund", "--json", "--user", viewer.username, stdout=semantic)

    assert {hit["id"] for hit in json.loads(full_text.getvalue())["results"]} == {content[0].pk}
    assert {s["metadata"]["entry_id"] for s in json.loads(semantic.getvalue())["sources"]} == {content[0].pk}


def test_search_commands_published_only_flag_hides_drafts_from_the_operator(content):
    out = StringIO()
    call_command("search_entries", "acme", "refund", "--json", "--published-only", stdout=out)

    assert {hit["id"] for hit in json.loads(out.getvalue())["results"]} == {content[0].pk}


def test_admin_changelist_and_search_hide_drafts_from_a_viewer(content, viewer, client):
    client.force_login(viewer)

    listing = client.get("/admin/cms/entry/").content.decode()
    searched = client.get("/admin/cms/entry/", {"q": "refund"}).content.decode()

    assert PUBLISHED_TITLE in listing and DRAFT_TITLE not in listing
    assert PUBLISHED_TITLE in searched and DRAFT_TITLE not in searched


def test_admin_change_page_of_a_draft_is_not_found_for_a_viewer(content, viewer, client):
    client.force_login(viewer)

    response = client.get(f"/admin/cms/entry/{content[1].pk}/change/", follow=True)

    assert DRAFT_TITLE not in response.content.decode()
