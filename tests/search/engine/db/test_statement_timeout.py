"""Search statements run under SEARCH_STATEMENT_TIMEOUT_MS: a slow one is a clean 503 `search_timeout`.

Statements are made slow for real: either a test-only execute wrapper adds a `pg_sleep`
to the search's own statement (same connection), or another connection holds a lock the
statement must wait for (any thread or process). Either way PostgreSQL cancels the
statement; nothing here mocks the database.
"""

from __future__ import annotations

import asyncio
import json
import re
from contextlib import contextmanager

import psycopg
import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from mcp import Client
from rest_framework.test import APIClient

from search.contract.errors import SearchTimeout
from search.engine.fulltext import search_entries
from search.interfaces.mcp.server import api_key_caller, build_mcp_server
from search.engine.semantic import semantic_search
from tests.factories import api_key_make, entry_make, full_access
from tests.search.semantic_helpers import REFUND_EN, chunk_make, entry_for, plain_type

TIMEOUT_MS = 200
# The FROM clause of the vector search (search/engine/semantic.py), where sleeping() injects its wait.
# The vector leg's two plans (search/engine/legs/vector_leg.py): the HNSW walk, and the exact ranking of a
# small matching set (what this module's few chunks take) whose first scan lists the ids.
VECTOR_FROM = ("ingestion_chunkvector v JOIN ingestion_chunk c ON c.id = v.chunk_id", "ingestion_chunk c")


@pytest.fixture(autouse=True)
def short_timeout(settings):
    settings.SEARCH_STATEMENT_TIMEOUT_MS = TIMEOUT_MS


@contextmanager
def sleeping(table_alias: str | tuple[str, ...], *, only_if: str = ""):
    """Make this connection's statements that read `table_alias` (e.g. "cms_entry e") sleep
    5 s, in the statement itself; `only_if`: only in messages containing that text."""

    def wrapper(execute, sql, params, many, context):
        if only_if in sql:
            # A one-time filter: it runs first, whether or not any row matches.
            sources = "|".join(map(re.escape, (table_alias,) if isinstance(table_alias, str) else table_alias))
            sql = re.sub(rf"(FROM (?:{sources})\s+)WHERE\s", r"\1WHERE (SELECT true FROM pg_sleep(5)) AND ",
                         sql, count=1)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(wrapper):
        yield


@contextmanager
def table_locked(table: str):
    """Another connection holds an ACCESS EXCLUSIVE lock on `table`: any read of it waits."""
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    with psycopg.connect(**params) as other:
        other.execute(f"LOCK TABLE {table} IN ACCESS EXCLUSIVE MODE")
        yield


def settings_now() -> tuple[str, str, str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('statement_timeout'), current_setting('enable_seqscan'),"
                       " current_setting('enable_indexscan')")
        return cursor.fetchone()


@pytest.fixture
def refund_entry(article_type):
    return entry_make(article_type, title="Refund policy")


# --- full-text ------------------------------------------------------------------------------

def test_slow_recent_scan_is_search_timeout_with_503(workspace, refund_entry):
    with sleeping("cms_entry e"), pytest.raises(SearchTimeout) as caught:
        search_entries(access=full_access(workspace), query="refund")
    assert (caught.value.code, caught.value.status) == ("search_timeout", 503)
    assert f"{TIMEOUT_MS} ms" in caught.value.message


def test_after_a_timeout_the_connection_and_settings_are_as_before(workspace, refund_entry, filler_entries):
    before = settings_now()
    with sleeping("cms_entry e", only_if="enable_seqscan"), pytest.raises(SearchTimeout):
        search_entries(access=full_access(workspace), query="xqzzy")  # the recent scan runs; the index statement sleeps
    assert settings_now() == before
    assert [h.entry_id for h in search_entries(access=full_access(workspace), query="refund").hits] == [refund_entry.pk]


def test_search_leaves_the_callers_timeout_in_place(workspace, refund_entry):
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL statement_timeout = '7s'")
    search_entries(access=full_access(workspace), query="refund")
    assert settings_now()[0] == "7s"


@pytest.mark.django_db(transaction=True)
def test_in_autocommit_a_timeout_leaves_the_connection_usable(workspace, refund_entry, filler_entries):
    with sleeping("cms_entry e", only_if="enable_seqscan"), pytest.raises(SearchTimeout):
        search_entries(access=full_access(workspace), query="xqzzy")
    assert settings_now() == ("0", "on", "on")
    assert [h.entry_id for h in search_entries(access=full_access(workspace), query="refund").hits] == [refund_entry.pk]


def test_zero_means_no_limit_of_its_own(settings, workspace, refund_entry):
    settings.SEARCH_STATEMENT_TIMEOUT_MS = 0
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL statement_timeout = '150ms'")
    # The caller's (or the server's) timeout stays in force, and is answered the same way.
    with sleeping("cms_entry e"), pytest.raises(SearchTimeout) as caught:
        search_entries(access=full_access(workspace), query="refund")
    assert "0 ms" not in caught.value.message
    assert settings_now()[0] == "150ms"


# --- semantic -------------------------------------------------------------------------------

@pytest.fixture
def refund_chunk(local_embeddings, workspace):
    return chunk_make(entry_for(plain_type(workspace), title="Returns"), REFUND_EN)


def test_slow_vector_search_is_search_timeout(workspace, refund_chunk):
    with sleeping(VECTOR_FROM), pytest.raises(SearchTimeout):
        semantic_search(access=full_access(workspace), query="refund")
    assert semantic_search(access=full_access(workspace), query="refund").hits[0].id == refund_chunk.id


# --- every interface answers it the same way -----------------------------------------------

def test_api_full_text_answers_503_search_timeout(client, editor, refund_entry):
    client.force_login(editor)
    with sleeping("cms_entry e"):
        response = client.get("/api/v1/workspaces/acme/search/entries?q=refund")
    assert (response.status_code, response.json()["code"]) == (503, "search_timeout")


def test_api_semantic_answers_503_search_timeout(editor, refund_chunk):
    api = APIClient()
    api.force_login(editor)
    with sleeping(VECTOR_FROM):
        response = api.post("/api/v1/workspaces/acme/search/semantic", data=json.dumps({"query": "refund"}),
                            content_type="application/json")
    assert (response.status_code, response.json()["code"]) == (503, "search_timeout")


def test_command_reports_search_timeout(refund_entry):
    with sleeping("cms_entry e"), pytest.raises(CommandError, match="search_timeout"):
        call_command("search_entries", "acme", "refund")


def test_semantic_command_reports_search_timeout(refund_chunk):
    with sleeping(VECTOR_FROM), pytest.raises(CommandError, match="search_timeout"):
        call_command("semantic_search", "acme", "refund")


def test_admin_search_shows_the_timeout_message(client, editor, refund_entry):
    client.force_login(editor)
    with sleeping("cms_entry e"):
        page = client.get("/admin/cms/entry/", {"q": "refund"}).content.decode()
    assert "took longer than its limit" in page


@pytest.mark.django_db(transaction=True)
def test_mcp_tool_error_is_search_timeout(workspace, refund_entry):
    server = build_mcp_server(caller=api_key_caller(api_key_make(workspace)[1]))

    def call(query: str):
        async def run():
            async with Client(server) as client:
                return await client.call_tool("search_entries", {"query": query})

        return asyncio.run(run())

    with table_locked("cms_entry"):  # the tool runs on a connection of its own and waits for the lock
        result = call("refund")
    text = result.content[0].text
    assert result.is_error and json.loads(text[text.index("{"):])["code"] == "search_timeout"
    assert not call("refund").is_error


# --- hybrid ---------------------------------------------------------------------------------

@pytest.fixture
def keyword_indexed(workspace, no_embeddings):
    from tests.factories import ContentTypeFactory

    doc_type = ContentTypeFactory(workspace=workspace, api_id="doc", semantic_search_enabled=True)
    return entry_make(doc_type, title="Returns", body="<p>Refunds within 30 days.</p>")


@pytest.mark.django_db(transaction=True)
def test_slow_keyword_leg_is_search_timeout(workspace, keyword_indexed):
    from search.engine.hybrid import hybrid_search

    with table_locked("ingestion_keywordposting"), pytest.raises(SearchTimeout):
        hybrid_search(access=full_access(workspace), query="refund")
    assert hybrid_search(access=full_access(workspace), query="refund").hits[0].entry_id == keyword_indexed.pk


@pytest.mark.django_db(transaction=True)
def test_api_hybrid_answers_503_search_timeout(editor, keyword_indexed):
    api = APIClient()
    api.force_login(editor)
    with table_locked("ingestion_keywordposting"):
        response = api.post("/api/v1/workspaces/acme/search/hybrid", data=json.dumps({"query": "refund"}),
                            content_type="application/json")
    assert (response.status_code, response.json()["code"]) == (503, "search_timeout")
