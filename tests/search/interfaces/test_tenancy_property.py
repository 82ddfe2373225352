"""Tenancy as a property, through every interface: no result ever belongs to another workspace,
and none breaks the role and draft policy (cms/access.py).

Hypothesis generates worlds (tests/search/tenancy.py: workspaces, content types whose names
repeat across workspaces, drafts and published entries through the real pipeline, users with
roles, keys with and without drafts, expired and revoked) and probes that try to reach
elsewhere. Each example runs in a transaction that is rolled back, so worlds never mix.

The interfaces are those this checkout has: the API's full-text, semantic, hybrid and agentic
searches, the MCP tools (in-process, and over Streamable HTTP through the test client), the
admin entry changelist and its search box, and the search commands; hybrid and agentic are
found by their routes, tools and commands, so they are probed wherever they are merged.
Agentic search is probed with two parts (the probe's query and AGENTIC_SECOND_PART), so
every part's search goes through the policy.

Each test counts its cases and outcomes ("figures" section of the run) and requires some
results, so the property is never satisfied by refusing everything. Examples per test come
from the hypothesis profile: "ci" by default, HYPOTHESIS_PROFILE=long by hand.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Callable
from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command, get_commands
from django.test import Client
from hypothesis import strategies as st
from mcp import Client as McpClient

from cms.models import Entry, EntryStatus, Role
from search.interfaces.admin.views import MODES as ADMIN_MODES
from search.interfaces.mcp.server import RunSync, api_key_caller, build_mcp_server, user_caller
from tests.figures import figure_record
from tests.mcp_here import mcp_session_here
from tests.search.pipeline_helpers import fake_embeddings  # noqa: F401 - fixture
from tests.search.tenancy import (
    Expected,
    Probe,
    Tally,
    World,
    entry_violations,
    expected_for_key,
    expected_for_operator,
    expected_for_user,
    source_violations,
)
from tests.search.tenancy_checks import (
    AGENTIC_SECOND_PART,
    ENTRIES,
    answer_check,
    api_callers,
    api_client,
    api_full_text_check,
    api_ranked_check,
    api_suggest_check,
    entry_results,
    no_rate_limits,  # noqa: F401 - autouse fixture
    ranked_searches,
    run_property,
    source_results,
)

pytestmark = pytest.mark.django_db

# --- HTTP API -------------------------------------------------------------------------------------

def test_api_full_text_search_never_leaves_the_callers_workspace_or_policy():
    run_property("API full-text", api_full_text_check, api_callers)


def test_api_suggest_never_leaves_the_callers_workspace_or_policy():
    run_property("API suggest", api_suggest_check, api_callers)


@pytest.mark.parametrize("search", ranked_searches())
def test_api_ranked_search_never_leaves_the_callers_workspace_or_policy(search):
    run_property(f"API {search}", api_ranked_check(search), api_callers)


# --- MCP ------------------------------------------------------------------------------------------

def mcp_callers(world: World) -> st.SearchStrategy:
    return st.one_of(
        st.tuples(st.just("key"), st.sampled_from(world.keys)),
        st.tuples(st.just("user"), st.sampled_from(world.users)),
    )


def mcp_tool_names() -> set[str]:
    """The tools the MCP server offers (hybrid_search where this checkout has it)."""

    async def names() -> set[str]:
        async with McpClient(build_mcp_server(caller=lambda: None)) as client:
            return {tool.name for tool in (await client.list_tools()).tools}

    return asyncio.run(names())


MCP_TOOLS = mcp_tool_names()
RANKED_TOOLS = {"semantic_search", "hybrid_search", "agentic_search"}


def mcp_tool_arguments(probe: Probe) -> dict[str, dict[str, Any]]:
    ranked = {"query": probe.query, "top_k": 100, "content_type": probe.content_type, "filter": probe.filter}
    arguments = {
        "search_entries": {"query": probe.query, "content_type": probe.content_type, "status": probe.status,
                           "limit": 100},
        "semantic_search": ranked,
        "hybrid_search": ranked,
        "agentic_search": {**ranked, "queries": [probe.query, AGENTIC_SECOND_PART]},
        "list_content_types": {},
    }
    assert MCP_TOOLS <= set(arguments), f"a tool this test does not probe: {MCP_TOOLS - set(arguments)}"
    return {tool: args for tool, args in arguments.items() if tool in MCP_TOOLS}


def tool_answer(result) -> tuple[int, dict]:
    """A tool result as the API's (status, body): 200 and its content, or the error's code."""
    if result.is_error:
        text = result.content[0].text
        return 400, json.loads(text[text.index("{"):])
    return 200, dict(result.structured_content or {})


TOOL_STATUS = {"api_key_expired": 401, "api_key_revoked": 401, "not_authenticated": 401, "not_found": 404,
               "status_not_visible": 403}


def tool_results(tool: str, expected: Expected) -> Callable[[dict], list[str]]:
    if tool == "search_entries":
        return entry_results(expected)
    if tool in RANKED_TOOLS:
        return source_results(expected)

    def content_types(body: dict) -> list[str]:
        body["_count"] = len(body["content_types"])
        visible = set(expected.workspace.content_types.values_list("api_id", flat=True))
        problems = [f"content type {ct['api_id']} is not {expected.workspace.slug}'s"
                    for ct in body["content_types"] if ct["api_id"] not in visible]
        if body["workspace"] != expected.workspace.slug:
            problems.append(f"described workspace {body['workspace']}")
        if "draft" in body["statuses"] and not expected.include_drafts:
            problems.append("offers the draft status to a caller without drafts")
        return problems
    return content_types


def test_mcp_tools_never_leave_the_callers_workspace_or_policy():
    def check(world: World, probe: Probe, caller, tally: Tally) -> None:
        kind, actor = caller
        if kind == "key":
            mcp_caller, expected = api_key_caller(actor.secret), expected_for_key(world, actor, None)
        else:
            mcp_caller = user_caller(username=actor.user.username, workspace=probe.slug)
            expected = expected_for_user(world, actor, probe.slug)

        async def call_tools(run_sync: RunSync) -> list[tuple[str, Any]]:
            async with McpClient(build_mcp_server(caller=mcp_caller, run_sync=run_sync)) as client:
                return [(tool, await client.call_tool(tool, arguments))
                        for tool, arguments in mcp_tool_arguments(probe).items()]

        for tool, result in mcp_session_here(call_tools):
            status, body = tool_answer(result)
            status = TOOL_STATUS.get(body.get("code"), status)
            answer_check(f"MCP {tool}", expected, probe, status, body, tool_results(tool, expected), tally)
            tally.record("MCP", "200 with results" if status == 200 and body.get("_count") else "other")

    tally = run_property("MCP", check, mcp_callers)
    for tool in sorted(MCP_TOOLS):
        figure_record(f"tenancy property, {tally.summary(f'MCP {tool}')}")
    # Not vacuous per tool either: every search tool answered some probe with results.
    empty = [tool for tool in sorted(MCP_TOOLS) if tool != "list_content_types"
             and not tally.outcomes[(f"MCP {tool}", "200 with results")]]
    assert not empty, [tally.summary(f"MCP {tool}") for tool in empty]


def mcp_http_post(client: Client, tool: str, arguments: dict) -> tuple[int, dict]:
    """One tools/call over Streamable HTTP (/mcp/, stateless JSON mode); as (status, body)."""
    response = client.post(
        "/mcp/",
        json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool, "arguments": arguments}}),
        content_type="application/json", HTTP_ACCEPT="application/json, text/event-stream",
    )
    body = json.loads(response.content)
    if response.status_code != 200:
        return response.status_code, body
    result = body["result"]
    if result.get("isError"):
        text = result["content"][0]["text"]
        error = json.loads(text[text.index("{"):])
        return TOOL_STATUS.get(error["code"], 400), error
    return 200, dict(result.get("structuredContent") or {})


def mcp_http_callers(world: World) -> st.SearchStrategy:
    return st.sampled_from([("key", key) for key in world.keys] * 3 + [("anonymous", None)])


def test_mcp_over_http_never_leaves_the_keys_workspace_or_policy():
    def check(world: World, probe: Probe, caller, tally: Tally) -> None:
        client, expected = api_client(world, caller, None)
        for tool, arguments in mcp_tool_arguments(probe).items():
            status, body = mcp_http_post(client, tool, arguments)
            answer_check("MCP over HTTP", expected, probe, status, body, tool_results(tool, expected), tally)

    run_property("MCP over HTTP", check, mcp_http_callers)


# --- admin ----------------------------------------------------------------------------------------

def admin_params(world: World, probe: Probe, data_index: int) -> dict[str, str]:
    """The changelist's search box, with filters that may name other workspaces' rows."""
    params = {"q": probe.query} if data_index % 4 else {}
    if probe.status:
        params["status__exact"] = probe.status
    if data_index % 3 == 0:
        params["workspace__id__exact"] = str(world.workspaces[data_index % len(world.workspaces)].pk)
    if data_index % 5 == 0 and world.content_types:
        params["content_type__id__exact"] = str(world.content_types[data_index % len(world.content_types)].pk)
    return params


def admin_visible(actor, entry: Entry) -> bool:
    if actor.superuser:
        return True
    role = actor.roles.get(entry.workspace_id)
    return role is not None and (entry.status == EntryStatus.PUBLISHED or role in (Role.OWNER, Role.EDITOR))


def test_admin_entry_changelist_and_search_box_show_only_what_the_user_may_see():
    def check(world: World, probe: Probe, caller, tally: Tally) -> None:
        actor, data_index = caller
        client = Client()
        client.force_login(actor.user)
        response = client.get("/admin/cms/entry/", admin_params(world, probe, data_index))
        if not actor.active:
            assert response.status_code == 302 and "/admin/login/" in response["Location"], response.status_code
            tally.record("admin changelist", "302 login")
            return
        if response.status_code == 403:  # a member of no workspace may not see the list at all
            assert not actor.roles and not actor.superuser, (actor.roles, actor.superuser)
            tally.record("admin changelist", "403 no workspace")
            return
        if response.status_code == 302:  # a lookup the changelist refuses (?e=1)
            assert "e=1" in response["Location"], response["Location"]
            tally.record("admin changelist", "302 invalid lookup")
            return
        assert response.status_code == 200, response.status_code
        shown = list(response.context["cl"].result_list)
        problems = [f"entry {e.pk} ({e.status}) of workspace {e.workspace_id}" for e in shown
                    if not admin_visible(actor, e)]
        assert not problems, (problems, actor.roles, actor.superuser)
        tally.record("admin changelist", "200 with results" if shown else "200 empty")

    run_property("admin changelist", check,
                 lambda world: st.tuples(st.sampled_from(world.users), st.integers(0, 59)))


ADMIN_SEARCH_MODES = tuple(ADMIN_MODES)  # every mode the page offers, agentic included


def test_admin_search_page_shows_only_what_the_user_may_see():
    """The admin search page, in every mode: a member's own workspace within their role's
    policy; any other workspace is the 404 of a missing one; a deactivated user logs in."""
    def check(world: World, probe: Probe, caller, tally: Tally) -> None:
        actor, data_index = caller
        mode = ADMIN_SEARCH_MODES[data_index % len(ADMIN_SEARCH_MODES)]
        client = Client()
        client.force_login(actor.user)
        params = {"q": probe.query, "mode": mode, **({"content_type": probe.content_type} if probe.content_type else {}),
                  **({"status": probe.status} if probe.status else {})}
        response = client.get(f"/admin/search/{probe.slug}/", params)
        interface = "admin search page"
        if not actor.active:
            assert response.status_code == 302 and "/admin/login/" in response["Location"], response.status_code
            tally.record(interface, "302 login")
            return
        expected = expected_for_user(world, actor, probe.slug)
        if expected.refusal is not None:
            assert response.status_code == 404, (response.status_code, expected)
            tally.record(interface, "404 not a member")
            return
        assert response.status_code == 200, response.status_code
        result = response.context["result"]
        if result is None:  # the search's own input error, shown as a message
            tally.record(interface, "200 input error")
            return
        if mode == "fulltext":
            problems = entry_violations(expected, [hit.entry_id for hit in result.hits])
        else:
            # The page's result is the search's own (no API metadata): the chunk rows decide.
            problems = source_violations(expected, [{"id": hit.id, "metadata": {"workspace": expected.workspace.slug}}
                                                    for hit in result.hits])
        assert not problems, (problems, probe, mode)
        tally.record(interface, "200 with results" if result.hits else "200 empty")

    run_property("admin search page", check,
                 lambda world: st.tuples(st.sampled_from(world.users), st.integers(0, 59)))


# --- management commands --------------------------------------------------------------------------

# The chunk search commands of this checkout (hybrid_search and agentic_search where it has them).
RANKED_COMMANDS = [name for name in ("semantic_search", "hybrid_search", "agentic_search") if name in get_commands()]


def command_callers(world: World) -> st.SearchStrategy:
    return st.one_of(
        st.tuples(st.just("operator"), st.booleans()),
        st.tuples(st.just("user"), st.sampled_from(world.users)),
    )


def command_run(name: str, world: World, probe: Probe, caller, extra: list[str]) -> tuple[Expected, dict | None]:
    """Run a search command as the caller; (expected access, its JSON answer or None if refused)."""
    kind, actor = caller
    if kind == "operator":
        options = ["--published-only"] if actor else []
        expected = expected_for_operator(world, probe.slug, published_only=actor)
    else:
        options = ["--user", actor.user.username]
        expected = expected_for_user(world, actor, probe.slug)
    if probe.content_type:
        options += ["--content-type", probe.content_type]
    out = StringIO()
    try:
        call_command(name, "--json", *options, *extra, "--", probe.slug, probe.query, stdout=out)
    except CommandError:
        return expected, None
    return expected, json.loads(out.getvalue())


def test_search_commands_never_leave_the_workspace_or_the_users_policy():
    def check(world: World, probe: Probe, caller, tally: Tally) -> None:
        status = ["--status", probe.status] if probe.status else []
        ranked = ["--top-k", "100"] + (["--filter", json.dumps(probe.filter)] if probe.filter else [])
        for name, extra, results in (
            ("search_entries", status + ["--limit", "100"], entry_results),
            *((command, ranked + ([f"--part={probe.query}", f"--part={AGENTIC_SECOND_PART}"]
                                  if command == "agentic_search" else []), source_results)
              for command in RANKED_COMMANDS),
        ):
            expected, answer = command_run(name, world, probe, caller, extra)
            interface = f"command {name}"
            if answer is None:  # refused: a CommandError with a message, as a shell user sees it
                tally.record(interface, "refused" if expected.refusal else "input error")
                tally.record("commands", "other")
                continue
            assert expected.refusal is None, (name, expected, answer)
            problems = results(expected)(answer)
            assert not problems, (problems, probe, caller)
            tally.record(interface, "200 with results" if answer["_count"] else "200 empty")
            tally.record("commands", "200 with results" if answer["_count"] else "other")

    tally = run_property("commands", check, command_callers)
    for name in ("search_entries", *RANKED_COMMANDS):
        figure_record(f"tenancy property, {tally.summary(f'command {name}')}")


# --- search log: click events and the insights page ------------------------------------------------

def test_api_click_events_take_only_the_callers_own_searches_and_visible_results():
    """A click names a search of the caller's workspace and a result the caller may see: its own
    search's first hit is accepted; that search id in any other workspace, another workspace's
    search id here, and an entry the policy hides are refused (404 / 400), never recorded."""
    from search.models import SearchClick
    from search.insights.search_log import search_id_make, search_log_flush

    interface = "API click events"

    def check(world: World, probe: Probe, caller, tally: Tally) -> None:
        client, expected = api_client(world, caller, probe.slug)
        response = client.get(ENTRIES.format(slug=probe.slug), {"q": probe.query, "limit": 100})
        if expected.refusal is not None or response.status_code != 200:
            tally.record(interface, f"search {response.status_code}")
            return
        body = response.json()
        search_id = body["meta"]["search_id"]
        assert search_id, body["meta"]
        events = f"/api/v1/workspaces/{probe.slug}/search/events"
        visible = {hit["id"] for hit in body["results"]}
        hidden = [e for e in world.entries if e.workspace_id != expected.workspace.pk
                  or (e.status != EntryStatus.PUBLISHED and not expected.include_drafts)]
        clicks_before = SearchClick.objects.count()
        # Another workspace's search id, made as the server makes them: as unknown here as a made-up one.
        foreign = [ws for ws in world.workspaces if ws.pk != expected.workspace.pk]
        if foreign:
            forged = search_id_make(foreign[0].pk, uuid.uuid4())
            answer = client.post(events, json.dumps({"search_id": forged, "entry_id": next(iter(visible), 1),
                                                     "position": 1}), content_type="application/json")
            assert (answer.status_code, answer.json()["code"]) == (404, "search_not_found"), answer.json()
        if hidden:
            answer = client.post(events, json.dumps({"search_id": search_id, "entry_id": hidden[0].pk, "position": 1}),
                                 content_type="application/json")
            assert (answer.status_code, answer.json()["code"]) == (400, "entry_id_invalid"), answer.json()
        for other in foreign:  # this search's id on another workspace's URL
            answer = client.post(f"/api/v1/workspaces/{other.slug}/search/events",
                                 json.dumps({"search_id": search_id, "entry_id": 1, "position": 1}),
                                 content_type="application/json")
            assert answer.status_code == 404, (answer.status_code, answer.json())
        search_log_flush()
        assert SearchClick.objects.count() == clicks_before
        if not visible:
            tally.record(interface, "200 empty")
            return
        answer = client.post(events, json.dumps({"search_id": search_id, "entry_id": sorted(visible)[0],
                                                 "position": 1}), content_type="application/json")
        assert answer.status_code == 202, answer.json()
        search_log_flush()
        assert SearchClick.objects.count() == clicks_before + 1
        tally.record(interface, "200 with results")

    run_property(interface, check, api_callers)


def test_admin_insights_count_only_the_workspaces_own_searches_for_its_editors():
    """The insights page after searches in several workspaces: a non-member gets the 404 of a
    missing workspace, a viewer a 403, an owner or editor the figures of that workspace's
    searches alone (its log rows, counted here by hand)."""
    from search.models import SearchLog
    from search.insights.search_log import search_log_flush

    interface = "admin insights page"

    def check(world: World, probe: Probe, caller, tally: Tally) -> None:
        actor, data_index = caller
        client = Client()
        client.force_login(actor.user)
        for workspace in world.workspaces:  # every workspace gets searched, by an operator
            try:
                call_command("search_entries", "--", workspace.slug, f"{probe.query} {workspace.slug}"[:100],
                             stdout=StringIO())
            except CommandError:  # a query the search refuses: nothing logged
                pass
        search_log_flush()
        response = client.get(f"/admin/search/{probe.slug}/insights/", {"days": 7})
        if not actor.active:
            assert response.status_code == 302, response.status_code
            tally.record(interface, "302 login")
            return
        expected = expected_for_user(world, actor, probe.slug)
        if expected.refusal is not None:
            assert response.status_code == 404, (response.status_code, expected)
            tally.record(interface, "404 not a member")
            return
        if not expected.include_drafts:
            assert response.status_code == 403, response.status_code
            tally.record(interface, "403 viewer")
            return
        assert response.status_code == 200, response.status_code
        insights = response.context["insights"]
        own = SearchLog.objects.filter(workspace=expected.workspace)
        assert insights.searches == own.count()
        own_queries = set(own.values_list("query", flat=True))
        listed = {q.query for q in insights.top_queries + insights.zero_result_queries + insights.slowest}
        assert listed <= own_queries, listed - own_queries
        tally.record(interface, "200 with results" if insights.searches else "200 empty")

    run_property(interface, check, lambda world: st.tuples(st.sampled_from(world.users), st.integers(0, 59)))
