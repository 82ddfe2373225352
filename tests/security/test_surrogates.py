"""A lone UTF-16 surrogate is a coded 400, not a 500 (review item 2).

`{"query": "\\ud800"}` is JSON that Python's parser accepts, but the string it yields is no
text: the local model's tokenizer, psycopg (encoding a filter value) and the JSON renderer
(echoing a bad parameter name) each crashed on it. The API's JSON parser and the commands'
`--filter` loader (search.contract.json_input) now refuse it with `json_invalid_character`, wherever it
is; a surrogate that arrives through argv (invalid UTF-8) is `query_invalid_encoding` like
the full-text search's. The bodies below are written by hand: json.dumps would escape the
surrogate the same way, but spelling them out shows what goes on the wire.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from io import StringIO

import pytest
import requests
from django.core.management import call_command
from django.core.management.base import CommandError
from rest_framework.test import APIClient

from ingestion.services import chunks_embed_pending
from tests.factories import ContentTypeFactory, api_key_make, entry_make
from tests.search.live_app import BEHIND_PROXY, collectstatic, database_flush, gunicorn_serving, production_env, tenants_seed

KINDS = ["semantic", "hybrid", "agentic"]
# Raw request bodies: a lone escape in every place a body can hold a string.
LONE_SURROGATE_BODIES = {
    "query": r'{"query": "\ud800"}',
    "query, low half": r'{"query": "refund \udfff"}',
    "query, reversed pair": r'{"query": "\ude00\ud83d"}',
    "filter value": r'{"query": "refund", "filter": {"status": "\ud800"}}',
    "filter $in value": r'{"query": "refund", "filter": {"version": {"$in": [1, "\udc00"]}}}',
    "filter key": r'{"query": "refund", "filter": {"\ud800": 1}}',
    "operator": r'{"query": "refund", "filter": {"version": {"$\ud800": 1}}}',
    "content_type": r'{"query": "refund", "content_type": "\ud800"}',
    "unknown parameter name": r'{"query": "refund", "\ud800": 1}',
    "nested option": r'{"query": "refund", "rerank_weights": {"\ud800": 0.5}}',
}
AGENTIC_ONLY_BODIES = {"queries": r'{"query": "refund", "queries": ["refund", "\ud800x"]}'}


@pytest.fixture
def api(editor, local_embeddings, workspace):
    notes = ContentTypeFactory(workspace=workspace, api_id="doc", semantic_search_enabled=True)
    entry_make(notes, title="Returns", body="<p>Refunds: return any unused item within 30 days.</p>")
    chunks_embed_pending(workspace=workspace)
    client = APIClient(raise_request_exception=False)
    client.force_login(editor)
    return client


@pytest.mark.django_db
@pytest.mark.parametrize("kind", KINDS)
def test_lone_surrogate_anywhere_in_a_body_is_json_invalid_character(api, kind):
    bodies = {**LONE_SURROGATE_BODIES, **(AGENTIC_ONLY_BODIES if kind == "agentic" else {})}

    answers = {where: api.post(f"/api/v1/workspaces/acme/search/{kind}", data=body, content_type="application/json")
               for where, body in bodies.items()}

    wrong = {where: (r.status_code, r.content[:120]) for where, r in answers.items()
             if (r.status_code, r.json().get("code")) != (400, "json_invalid_character")}
    assert not wrong, wrong
    assert "surrogate" in answers["query"].json()["message"]


@pytest.mark.django_db
@pytest.mark.parametrize("kind", KINDS)
def test_a_surrogate_pair_is_one_character_and_searches(api, kind):
    response = api.post(f"/api/v1/workspaces/acme/search/{kind}", data=r'{"query": "refund \ud83d\ude00"}',
                        content_type="application/json")

    assert response.status_code == 200, response.content


@pytest.mark.django_db
@pytest.mark.parametrize("query_string", ["q=%ED%A0%80", "q=refund%ED%B0%80", "q=%ED%A0%BD%ED%B8%80"])
def test_full_text_encoded_surrogate_in_the_query_string_is_invalid_encoding(api, query_string):
    # Already refused before item 2 (UTF-8 forbids encoded surrogates): pinned here beside the rest.
    response = api.get(f"/api/v1/workspaces/acme/search/entries?{query_string}")

    assert (response.status_code, response.json()["code"]) == (400, "query_invalid_encoding")


@pytest.mark.django_db
@pytest.mark.parametrize("tool", ["search_entries", "semantic_search", "hybrid_search", "agentic_search"])
def test_mcp_over_http_lone_surrogate_is_a_coded_refusal(api, workspace, tool):
    # MCP's own parser (pydantic) already refused these before item 2; pinned so it stays so.
    secret = api_key_make(workspace)[1]
    body = ('{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "%s", '
            r'"arguments": {"query": "\ud800", "filter": {"\udc00": "x"}}}}' % tool)

    response = api.post("/mcp/", data=body, content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {secret}",
                        HTTP_ACCEPT="application/json, text/event-stream")

    assert response.status_code < 500, response.content
    answer = json.loads(response.content)
    refused = "error" in answer or answer.get("result", {}).get("isError")
    assert refused, answer


@pytest.mark.django_db
@pytest.mark.parametrize("command", ["semantic_search", "hybrid_search", "agentic_search"])
@pytest.mark.parametrize("spec", [r'{"status": "\ud800"}', r'{"\udc00": 1}', '{"status": "\udcff"}'])
def test_command_filter_with_a_lone_surrogate_is_json_invalid_character(api, command, spec):
    with pytest.raises(CommandError, match=r"\[json_invalid_character\]"):
        call_command(command, "acme", "refund", "--filter", spec, stdout=StringIO())


@pytest.mark.django_db
@pytest.mark.parametrize("command", ["semantic_search", "hybrid_search", "agentic_search"])
def test_command_query_from_invalid_utf8_argv_is_query_invalid_encoding(api, command):
    undecodable = b"refund \xff".decode("utf-8", errors="surrogateescape")  # what Python makes of such argv

    with pytest.raises(CommandError, match=r"\[query_invalid_encoding\]"):
        call_command(command, "acme", undecodable, stdout=StringIO())


@pytest.mark.django_db
def test_agentic_command_part_from_invalid_utf8_argv_is_queries_invalid_encoding(api):
    undecodable = b"refund \xff".decode("utf-8", errors="surrogateescape")

    with pytest.raises(CommandError, match=r"\[queries_invalid_encoding\]"):
        call_command("agentic_search", "acme", "refund", "--part", "refund", "--part", undecodable, stdout=StringIO())


# --- through gunicorn: the renderer path (a 500 there is what a client actually met) -----------

@pytest.fixture(scope="module")
def served(django_db_setup, django_db_blocker, tmp_path_factory) -> Iterator[tuple[str, str]]:
    """gunicorn (DEBUG off) over the seeded tenants; yields (base URL, a published-only key)."""
    tmp = tmp_path_factory.mktemp("surrogates")
    with django_db_blocker.unblock():
        keys = tenants_seed()
        env = production_env(tmp)
        collectstatic(env)
        try:
            with gunicorn_serving(env, tmp / "gunicorn.log", workers=1) as (base_url, _):
                yield base_url, keys["key"]
        finally:
            database_flush()


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("where", ["query", "filter value", "unknown parameter name"])
def test_through_gunicorn_lone_surrogate_is_a_coded_400(served, kind, where):
    base_url, key = served

    response = requests.post(f"{base_url}/api/v1/workspaces/acme/search/{kind}",
                             data=LONE_SURROGATE_BODIES[where].encode(), timeout=60,
                             headers={**BEHIND_PROXY, "Authorization": f"Bearer {key}",
                                      "Content-Type": "application/json"})

    assert (response.status_code, response.json()["code"]) == (400, "json_invalid_character"), response.content
