"""Parity: every declared option of every search kind works in every interface, or is absent
from it on purpose (listed with the reason), and the same bad input gets the same code and
message everywhere.

The interfaces are built from the declarations (search/kinds.py, search/contract/options.py); these
tests walk the declarations, so an option added to a kind is checked in the API, MCP, the
command and the admin page with no new test beyond its sample value below.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import override_settings
from mcp.server.mcpserver.exceptions import ToolError
from rest_framework.test import APIClient

from cms.access import workspace_access_for_operator
from ingestion.services import chunks_embed_pending
from search.interfaces.admin.options import NOT_ON_PAGE, PAGE_OWN_OPTIONS, option_labels
from search.interfaces.api.searches import QUERY_PARAMETER_NAMES
from search.contract.errors import SearchInputError, localized_text
from search.kinds import SEARCH_KINDS, SearchKind
from search.interfaces.commands.search_command import argument_name
from search.interfaces.mcp.server import build_mcp_server
from tests.factories import ContentTypeFactory, WorkspaceFactory, api_key_make, entry_make
from tests.mcp_here import mcp_call_here
from tests.module_rows import rows_for_the_module
from tests.search.semantic_helpers import LOCAL_BACKEND

pytestmark = pytest.mark.django_db

# A valid value of every option that is not its default: a new option needs one here.
SAMPLES: dict[str, Any] = {
    "query": "refund",
    "content_type": "article",
    "status": "published",
    "limit": 5,
    "offset": 1,
    "top_k": 3,
    "min_score": 0.0,
    "filter": {"status": "published"},
    "ef_search": 40,
    "include_vectors": True,
    "include_sources": False,
    "raw_chunks": True,
    "fusion": "rrf",
    "keyword_weight": 0.7,
    "semantic_weight": 0.3,
    "rerank": False,
    "rerank_weights": {"rerank": 0.5},
    "queries": ["refund policy", "shipping time"],
    "typo_tolerance": False,
    "exhaustive_facets": True,
    "prefix": True,
    "facets": ["content_type", "status"],
    "min_confidence": 0.5,
    "include_candidates": True,
}
# Options an interface does not offer, and why. Only the admin page leaves some out.
ABSENT: dict[str, dict[str, str]] = {
    "api": {},
    "mcp": {},
    "command": {},
    "admin": {**NOT_ON_PAGE, "limit": PAGE_OWN_OPTIONS["limit"], "facets": PAGE_OWN_OPTIONS["facets"]},
}
KIND_OPTIONS = [(kind.name, name) for kind in SEARCH_KINDS.values() for name in kind.options().fields]


@pytest.fixture(scope="module")
def _world_rows(django_db_setup, django_db_blocker, local_model):
    """The workspace and its three embedded entries, made once for the module's ~190 tests (they
    took 1.75 s of setup each, docs/design/suite.md); each test's transaction rolls back its own."""
    def build():
        with override_settings(SEARCH_EMBEDDING_BACKENDS={"default": LOCAL_BACKEND}):
            workspace = WorkspaceFactory(slug="acme")
            article = ContentTypeFactory(workspace=workspace, api_id="article", semantic_search_enabled=True)
            entry_make(article, title="Refund policy", body="<p>Refunds take 5 days once the item is back.</p>")
            entry_make(article, title="Refund form", body="<p>Fill in the refund form to return an item.</p>")
            entry_make(article, title="Shipping times", body="<p>Orders ship within two days.</p>")
            chunks_embed_pending()
            return workspace

    yield from rows_for_the_module(django_db_blocker, build)


@pytest.fixture
def world(_world_rows, local_embeddings, superuser):
    return _world_rows


def _request(kind: SearchKind, option: str) -> dict[str, Any]:
    return {"query": "refund", option: SAMPLES[option]}


def _as_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return json.dumps(value)
    return str(value)


# --- each interface accepts each option -------------------------------------------------------

def api_call(kind: SearchKind, options: dict[str, Any]):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {api_key_make(_workspace(), include_drafts=True)[1]}")
    url = f"/api/v1/workspaces/acme/search/{kind.mode if kind.chunks else 'entries'}"
    if kind.chunks:
        return client.post(url, options, format="json")
    return client.get(url, {QUERY_PARAMETER_NAMES.get(k, k): _as_text(v) for k, v in options.items()})


def mcp_call(kind: SearchKind, arguments: dict[str, Any]) -> dict[str, Any]:
    """The tool's JSON answer, or {"error": {code, message}}."""
    access = workspace_access_for_operator(workspace=_workspace())
    try:
        result = mcp_call_here(lambda: access, kind.name, arguments)
    except ToolError as exc:
        if exc.__cause__ is not None and not isinstance(exc.__cause__, ToolError):
            raise exc.__cause__  # a crash, not a refusal
        return {"error": json.loads(str(exc))}
    assert result.structured_content is not None, result
    return result.structured_content


def command_argv(kind: SearchKind, options: dict[str, Any]) -> list[str]:
    argv = ["acme", options["query"]]
    for name, value in options.items():
        if name == "query":
            continue
        flag = argument_name(name)
        if isinstance(value, bool):
            argv.append(flag if value else "--no-" + flag[2:])
        elif isinstance(value, list):
            for item in value:
                argv += [flag, item]
        else:
            argv += [flag, _as_text(value)]
    return argv


def admin_params(kind: SearchKind, options: dict[str, Any]) -> dict[str, str]:
    params = {"mode": kind.mode}
    for name, value in options.items():
        if isinstance(value, bool):
            if value:
                params[name] = "on"
            continue
        params["q" if name == "query" else name] = _as_text(value)
    return params


def _workspace():
    from cms.models import Workspace

    return Workspace.objects.get(slug="acme")


@pytest.mark.parametrize(("kind_name", "option"), KIND_OPTIONS)
def test_the_api_accepts_every_option(world, kind_name, option):
    response = api_call(SEARCH_KINDS[kind_name], _request(SEARCH_KINDS[kind_name], option))

    assert response.status_code == 200, response.json()


@pytest.mark.parametrize(("kind_name", "option"), KIND_OPTIONS)
def test_the_mcp_tool_accepts_every_option(world, kind_name, option):
    kind = SEARCH_KINDS[kind_name]
    schema = asyncio.run(build_mcp_server(caller=lambda: None).list_tools())
    properties = next(tool.input_schema["properties"] for tool in schema if tool.name == kind.name)

    answer = mcp_call(kind, _request(kind, option))

    assert option in properties
    assert "error" not in answer, answer


@pytest.mark.parametrize(("kind_name", "option"), KIND_OPTIONS)
def test_the_command_accepts_every_option(world, kind_name, option, capsys):
    kind = SEARCH_KINDS[kind_name]

    call_command(kind.name, *command_argv(kind, _request(kind, option)), "--json")

    assert json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(("kind_name", "option"), KIND_OPTIONS)
def test_the_admin_page_accepts_every_option_it_offers(world, kind_name, option, client, superuser):
    if option in ABSENT["admin"]:
        pytest.skip(f"not on the admin page: {ABSENT['admin'][option]}")
    kind = SEARCH_KINDS[kind_name]
    client.force_login(superuser)

    response = client.get("/admin/search/acme/", admin_params(kind, _request(kind, option)))

    assert response.status_code == 200
    assert [str(m) for m in response.context["messages"]] == []
    html = response.content.decode()
    assert f'name="{"q" if option == "query" else option}"' in html or option == "offset"
    assert response.context["result"] is not None


def test_every_option_has_a_sample_and_every_absence_a_reason():
    options = {name for _, name in KIND_OPTIONS}

    assert options <= set(SAMPLES), options - set(SAMPLES)
    for interface, absent in ABSENT.items():
        assert set(absent) <= options, (interface, set(absent) - options)
        assert all(reason.strip() for reason in absent.values())


# --- the same bad input, the same answer ------------------------------------------------------

BAD: dict[str, dict[str, Any]] = {
    "search_entries": {"query": "refund", "offset": -1},
    "semantic_search": {"query": "refund", "top_k": 0},
    "hybrid_search": {"query": "refund", "keyword_weight": 2},
    "agentic_search": {"query": "refund", "queries": ["refund", " "]},
}
INTERFACES = ["api", "mcp", "command", "admin"]


def _expected(kind: SearchKind, interface: str = "api") -> tuple[str, str]:
    """The code and message every interface gives; the admin says the same sentence but names the
    option by the label its page shows (option_labels: "How many results", not top_k)."""
    with pytest.raises(SearchInputError) as refused:
        kind.options.validated(BAD[kind.name])
    if interface == "admin":
        return refused.value.code, localized_text(refused.value.message, labels=option_labels())
    return refused.value.code, refused.value.message


def _answered(interface: str, kind: SearchKind, client, superuser) -> tuple[str, str]:
    options = BAD[kind.name]
    if interface == "api":
        body = api_call(kind, options).json()
        return body["code"], body["message"]
    if interface == "mcp":
        error = mcp_call(kind, options)["error"]
        return error["code"], error["message"]
    if interface == "command":
        with pytest.raises(CommandError) as raised:
            call_command(kind.name, *command_argv(kind, options))
        code, message = str(raised.value).split("] ", 1)
        return code.lstrip("["), message.split(" (at ")[0]
    client.force_login(superuser)
    params = admin_params(kind, options)
    shown = list(client.get("/admin/search/acme/", params).context["messages"])
    return shown[0].extra_tags, str(shown[0])  # the sentence shown, its code in the page's data-code


@pytest.mark.parametrize("interface", INTERFACES)
@pytest.mark.parametrize("kind_name", list(SEARCH_KINDS))
def test_the_same_bad_input_gets_the_same_code_and_message(world, kind_name, interface, client, superuser):
    kind = SEARCH_KINDS[kind_name]
    if interface == "admin" and "queries" in BAD[kind_name]:
        pytest.skip("queries is not on the admin page (NOT_ON_PAGE)")

    assert _answered(interface, kind, client, superuser) == _expected(kind, interface)


@pytest.mark.parametrize("value", ["5", True, 5.0])
@pytest.mark.parametrize("interface", ["api", "mcp"])
def test_a_top_k_of_the_wrong_type_is_refused_alike(world, interface, value):
    kind = SEARCH_KINDS["hybrid_search"]
    options = {"query": "refund", "top_k": value}

    if interface == "api":
        body = api_call(kind, options).json()
    else:
        body = mcp_call(kind, options)["error"]

    assert body["code"] == "top_k_invalid"
