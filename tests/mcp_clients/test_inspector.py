"""The MCP Inspector's CLI (@modelcontextprotocol/inspector --cli) against the server, over
Streamable HTTP (gunicorn, DEBUG off, the Bearer key in its --header) and over stdio
(`manage.py mcp_serve --api-key KEY`), in every protocol era the Inspector offers.

Each era: tools/list 20 times in a row, each answer the five tools (never an empty list),
and every tool called once with arguments whose answer is known from the seeded content
(tests/search/live_app.py: workspace acme), with nothing of the other tenant or of drafts.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.figures import figure_record
from tests.mcp_clients.node_clients import INSPECTOR, NODE, node_env
from tests.search.live_app import BEHIND_PROXY, DRAFT_MARKER, GLOBEX_MARKER
from tests.search.mcp_helpers import TOOL_NAMES
from tests.servers import REPO, database_env

pytestmark = [pytest.mark.django_db, pytest.mark.node]

ERAS = ("legacy", "auto", "modern")  # --protocol-era
LIST_RUNS = 20
STDIO_PARALLEL = 3  # each stdio run starts Django (~6 s); HTTP runs take ~1 s and run one by one
# s; a healthy run takes 1-3 s over HTTP, 5-20 s over stdio (Django starts) on a busy machine.
RUN_TIMEOUT = {"http": 20, "stdio": 90}
CONNECT_TIMEOUT_MS = {"http": "15000", "stdio": "60000"}
CASES = [
    pytest.param(transport, era, id=f"{transport}-{era}")
    for transport in ("stdio", "http") for era in ERAS
]
# (tool, arguments, check of the structured answer)
CALLS = [
    ("list_content_types", {}, lambda answer: (
        answer["workspace"] == "acme" and answer["statuses"] == ["published"]
        and {ct["api_id"] for ct in answer["content_types"]} == {"article", "product"})),
    ("search_entries", {"query": "Osaka"}, lambda answer: (
        [hit["matched_fields"] for hit in answer["results"]] == [["body"]]
        and "Osaka" in json.dumps(answer["results"][0], ensure_ascii=False))),
    ("semantic_search", {"query": "Return any item within 30 days for a full refund.", "top_k": 2}, lambda answer: (
        answer["sources"][0]["metadata"]["title"] == "Refund policy")),
    ("hybrid_search", {"query": "full refund", "top_k": 3}, lambda answer: (
        "Refund policy" in [source["metadata"]["title"] for source in answer["sources"]]
        and answer["meta"]["legs_used"] == ["keyword", "semantic"])),
    ("agentic_search", {"query": "How long do refunds take, and where do orders ship from?", "top_k": 2},
     lambda answer: (
         answer["meta"]["path"] == "agentic" and len(answer["meta"]["parts"]) == 2
         and "Shipping times" in [source["metadata"]["title"] for source in answer["sources"]])),
    ("agentic_search", {"query": "refunds and shipping", "queries": ["full refund", "orders ship from Osaka"],
                        "top_k": 2}, lambda answer: (
        answer["meta"]["parts"] == ["full refund", "orders ship from Osaka"]
        and answer["meta"]["parts_source"] == "request"
        and "Shipping times" in [source["metadata"]["title"] for source in answer["sources"]])),
]


def target_args(transport: str, app) -> list[str]:
    """The Inspector's arguments that name the server."""
    if transport == "http":
        return [app.mcp_url, "--transport", "http", "--header", f"Authorization: Bearer {app.key}",
                *[arg for name, value in BEHIND_PROXY.items() for arg in ("--header", f"{name}: {value}")]]
    # The Inspector hands a stdio server only the variables given with -e (and PATH, HOME...).
    db = database_env()
    server_env = {"DEBUG": "true", "DATABASE_URL": db["DATABASE_URL"], "EMBEDDING_PROVIDER": "fake",
                  "RERANK_PROVIDER": "fake", "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"}
    return ["--transport", "stdio", "--cwd", str(REPO), *[arg for name, value in server_env.items()
                                                          for arg in ("-e", f"{name}={value}")],
            "--", sys.executable, "manage.py", "mcp_serve", "--api-key", app.key]


def inspector(app, transport: str, era: str, *method_args: str) -> tuple[dict | None, str]:
    """One Inspector CLI run; returns (its JSON answer or None, what went wrong)."""
    # Options go before `--`, the stdio server's command after it.
    target = target_args(transport, app)
    command_tail = target[target.index("--"):] if "--" in target else []
    options = target[:target.index("--")] if "--" in target else target
    command = [str(NODE), str(INSPECTOR), "--cli", *options, "--protocol-era", era,
               "--connect-timeout", CONNECT_TIMEOUT_MS[transport], *method_args, *command_tail]
    try:
        run = subprocess.run(command, env=node_env(app.tmp), capture_output=True, text=True,
                             timeout=RUN_TIMEOUT[transport], cwd=app.tmp)
    except subprocess.TimeoutExpired as timeout:
        return None, f"no answer within {RUN_TIMEOUT[transport]} s; stderr: {(timeout.stderr or b'')[-500:]!r}"
    try:
        return json.loads(run.stdout), f"exit {run.returncode}; stderr: {run.stderr[-500:]}"
    except json.JSONDecodeError:
        return None, f"exit {run.returncode}; stdout: {run.stdout[-500:]!r}; stderr: {run.stderr[-500:]}"


def tools_listed(app, transport: str, era: str) -> tuple[set[str] | None, str]:
    answer, problem = inspector(app, transport, era, "--method", "tools/list")
    if answer is None or "tools" not in answer:
        return None, f"{problem}; answer: {json.dumps(answer)[:300]}"
    return {tool["name"] for tool in answer["tools"]}, problem


@pytest.mark.parametrize(("transport", "era"), CASES)
def test_tools_list_twenty_runs_in_a_row_each_lists_every_tool(mcp_app, transport, era):
    started = time.monotonic()
    if transport == "stdio":
        with ThreadPoolExecutor(STDIO_PARALLEL) as pool:
            runs = list(pool.map(lambda _: tools_listed(mcp_app, transport, era), range(LIST_RUNS)))
    else:
        runs = []
        for _ in range(LIST_RUNS):
            runs.append(tools_listed(mcp_app, transport, era))
            if runs[-1][0] is None and "no answer" in runs[-1][1]:
                break  # a hung server: the other runs would wait as long
    seconds = time.monotonic() - started

    good = sum(names == TOOL_NAMES for names, _ in runs)
    empty = sum(names == set() for names, _ in runs)
    figure_record(f"Inspector CLI tools/list, {transport}, era {era}: {good}/{len(runs)} runs (of {LIST_RUNS}) listed the "
                  f"{len(TOOL_NAMES)} tools, {empty} empty, in {seconds:.0f} s")
    wrong = [(i, sorted(names) if names is not None else None, problem)
             for i, (names, problem) in enumerate(runs) if names != TOOL_NAMES]
    assert len(runs) == LIST_RUNS and not wrong, wrong


@pytest.mark.parametrize(("transport", "era"), CASES)
def test_each_tool_answers_with_the_seeded_content(mcp_app, transport, era):
    def call(case):
        tool, arguments, _ = case
        tool_args = [f"{name}={json.dumps(value) if not isinstance(value, str) else value}"
                     for name, value in arguments.items()]
        return inspector(mcp_app, transport, era, "--method", "tools/call", "--tool-name", tool,
                         *(["--tool-arg", *tool_args] if tool_args else []))

    started = time.monotonic()
    if transport == "stdio":
        with ThreadPoolExecutor(STDIO_PARALLEL) as pool:
            answers = list(pool.map(call, CALLS))
    else:
        answers = []
        for case in CALLS:
            answers.append(call(case))
            if answers[-1][0] is None and "no answer" in answers[-1][1]:
                break  # a hung server: the other calls would wait as long
    seconds = time.monotonic() - started

    wrong = []
    for (tool, arguments, check), (answer, problem) in zip(CALLS, answers + [(None, "not run")] * len(CALLS)):
        structured = (answer or {}).get("structuredContent")
        text = json.dumps(answer, ensure_ascii=False).lower()
        try:
            ok = bool(structured) and not answer.get("isError") and check(structured)
        except (KeyError, IndexError, TypeError):
            ok = False
        if not ok or GLOBEX_MARKER in text or DRAFT_MARKER in text:
            wrong.append((tool, arguments, problem, json.dumps(answer, ensure_ascii=False)[:600]))
    figure_record(f"Inspector CLI tools/call, {transport}, era {era}: {len(CALLS) - len(wrong)}/{len(CALLS)} "
                  f"calls answered as expected, in {seconds:.0f} s")
    assert {tool for tool, _, _ in CALLS} == TOOL_NAMES
    assert not wrong, wrong
