"""Fuzzing the real app: schemathesis over every operation of /api/schema/, hypothesis over /mcp/.

gunicorn serves the app on loopback with production settings (DEBUG off) on the test
database, which holds two tenants' content saved and embedded by the real pipeline
(tests/search/live_app.py). Every request must get:

- no response >= 500;
- a 4xx whose JSON body carries a string `code` and a `message` (for /mcp/, the JSON-RPC
  error object's `code` where the MCP layer answers);
- a response the OpenAPI document allows (status, content type, headers, body schema);
- nothing of the other tenant, and no draft for a key that may not see drafts.

The API is fuzzed by schemathesis' own runner (`schemathesis run`: its examples, coverage and
fuzzing phases, every built-in check, and the checks of tests/search/fuzz_hooks.py), once
with a published-only API key and once with no credential. /mcp/ is not in the document (MCP
describes itself), so hypothesis generates its JSON-RPC bodies, headers and methods here.

FUZZ_EXAMPLES sets the examples per operation (default 100: about a minute in all here). The
run is seeded (FUZZ_SEED, hypothesis' "ci" profile derandomized) so CI is deterministic; explore
by hand with new seeds, e.g. `FUZZ_SEED=random HYPOTHESIS_PROFILE=explore FUZZ_EXAMPLES=1000
DEBUG=true .venv/bin/python -m pytest tests/search/interfaces/api/test_fuzz.py`, and pin each case found. The requests gunicorn logged, by target and status class, are
printed in the run's "figures" section.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote, urlsplit

import pytest
import requests
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cms.models import Workspace
from tests.figures import figure_record
from tests.search.fuzz_hooks import json_body, leaks
from tests.search.live_app import (
    BEHIND_PROXY,
    DRAFT_MARKER,
    GLOBEX_MARKER,
    LiveApp,
    collectstatic,
    database_flush,
    gunicorn_serving,
    production_env,
    tenants_seed,
)
from tests.servers import REPO

# The server reads the test database; the tests themselves only speak HTTP. (The mark makes
# pytest-django create the test database when this module runs alone.)
pytestmark = pytest.mark.django_db

FUZZ_EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "100"))
# schemathesis draws from this seed, so a CI run fails only when the code changes. Explore with
# FUZZ_SEED=random (and HYPOTHESIS_PROFILE=explore for /mcp/) and pin what it finds as a test.
FUZZ_SEED = os.environ.get("FUZZ_SEED", "20261201")
WORKSPACE = "acme"
OTHER_WORKSPACE = "globex"
TARGETS = {"entries", "semantic", "hybrid", "agentic", "events", "suggest", "synonyms", "health", "schema", "/mcp/",
           "insights", "insights.csv", "clicks", "entry", "add", "promotion", "acme", "pin"}
SCHEMATHESIS = Path(sys.executable).parent / "schemathesis"
SCHEMATHESIS_CONFIG = Path(__file__).with_name("schemathesis.toml")


def logged_requests(access_log: Path, start: int = 0) -> Counter[str]:
    """Requests in gunicorn's access log from line `start` on, by target and status class.

    Each line is the request line as sent (percent-encoded) and the status.
    """
    counts: Counter[str] = Counter()
    for line in access_log.read_text(errors="replace").splitlines()[start:]:
        request_line, _, status = line.rpartition(" ")
        path = request_line.split(" ")[1].split("?")[0] if request_line.count(" ") >= 1 else ""
        target = "/mcp/" if path.startswith("/mcp") else path.rstrip("/").rpartition("/")[2]
        counts[f"{target if target in TARGETS else 'other'} {status[:1]}xx"] += 1
    return counts


@pytest.fixture(scope="module")
def live_app(django_db_setup, django_db_blocker, tmp_path_factory) -> Iterator[LiveApp]:
    """gunicorn (2 workers, DEBUG off) over the seeded tenants; the tables are emptied after."""
    tmp = tmp_path_factory.mktemp("fuzz")
    with django_db_blocker.unblock():
        keys = tenants_seed()
        env = production_env(tmp)
        collectstatic(env)
        try:
            with gunicorn_serving(env, tmp / "gunicorn.log", access_log=tmp / "access.log") as (base_url, _):
                yield LiveApp(base_url=base_url, access_log=tmp / "access.log", **keys)
        finally:
            database_flush()


def access_log_lines(app: LiveApp) -> int:
    return len(app.access_log.read_text().splitlines()) if app.access_log.exists() else 0


def record_requests(label: str, app: LiveApp, start: int) -> Counter[str]:
    counts = logged_requests(app.access_log, start)
    figure_record(f"fuzz, {label}: {sum(counts.values())} requests through gunicorn ("
                  + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) + ")")
    return counts


# --- schemathesis over the OpenAPI document -----------------------------------------------------

def click_target(app: LiveApp) -> dict[str, str]:
    """A real search of the fuzzed workspace by the published-only key, and a result of it of
    each kind (an entry, a chunk): what a valid click event names (fuzz_hooks._click_event)."""
    headers = {**BEHIND_PROXY, "Authorization": f"Bearer {app.key}"}
    entries = requests.get(f"{app.base_url}/api/v1/workspaces/{WORKSPACE}/search/entries", params={"q": "refund"},
                           headers=headers, timeout=60).json()
    chunks = requests.post(f"{app.base_url}/api/v1/workspaces/{WORKSPACE}/search/hybrid",
                           json={"query": "refund", "top_k": 3}, headers=headers, timeout=60).json()
    return {"FUZZ_SEARCH_ID": entries["meta"]["search_id"], "FUZZ_ENTRY_ID": str(entries["results"][0]["id"]),
            "FUZZ_CHUNK_SEARCH_ID": chunks["meta"]["search_id"], "FUZZ_CHUNK_ID": str(chunks["sources"][0]["id"])}


def schemathesis_run(app: LiveApp, *args: str, drafts_visible: bool = False) -> subprocess.CompletedProcess:
    """`schemathesis run` over /api/schema/ with every check, ours included (fuzz_hooks)."""
    env = {
        **click_target(app),
        **os.environ, "PYTHONPATH": str(REPO), "SCHEMATHESIS_HOOKS": "tests.search.fuzz_hooks",
        "FUZZ_WORKSPACE": WORKSPACE, "FUZZ_OTHER_WORKSPACE": OTHER_WORKSPACE, "FUZZ_OTHER_MARKER": GLOBEX_MARKER,
        "FUZZ_DRAFT_MARKER": DRAFT_MARKER, "FUZZ_DRAFTS_VISIBLE": "true" if drafts_visible else "false",
    }
    return subprocess.run(
        [str(SCHEMATHESIS), "--config-file", str(SCHEMATHESIS_CONFIG), "run", f"{app.base_url}/api/schema/?format=json",
         "--checks", "all",
         "--max-examples", str(FUZZ_EXAMPLES), "--phases", "examples,coverage,fuzzing", "--mode", "all",
         # One worker: with two threads, CPython 3.11's ast.parse (hypothesis compiles code
         # as it generates) can fail with "SystemError: AST constructor recursion depth
         # mismatch", a crash of the fuzzer, not a finding; one thread is also one order.
         "--workers", "1", "--request-timeout", "60", "--suppress-health-check", "all",
         "--generation-database", "none", "--no-color",
         *([] if FUZZ_SEED == "random" else ["--seed", FUZZ_SEED]), "--continue-on-failure", "--header", "X-Forwarded-Proto: https", *args],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=1800,
    )


def test_api_with_a_key_never_errs_breaks_its_schema_or_leaks(live_app):
    start = access_log_lines(live_app)

    run = schemathesis_run(live_app, "--header", f"Authorization: Bearer {live_app.key}")

    counts = record_requests("API with a published-only key", live_app, start)
    assert run.returncode == 0, run.stdout[-12000:] + run.stderr[-3000:]
    failed = [search for search in ("entries", "semantic", "hybrid", "agentic", "events", "suggest")
              if not counts[f"{search} 2xx"]]
    assert not failed, f"no {' and no '.join(failed)} search succeeded: {counts}"


def test_api_without_a_key_never_errs_or_breaks_its_schema(live_app):
    start = access_log_lines(live_app)

    # Valid requests are refused (401) without a key: that is the point, not a rejection to report.
    run = schemathesis_run(live_app, "--exclude-checks", "positive_data_acceptance")

    record_requests("API without a key", live_app, start)
    assert run.returncode == 0, run.stdout[-12000:] + run.stderr[-3000:]


# --- hypothesis over /mcp/ (MCP describes itself: it is not in the OpenAPI document) -----------

# Text with lone surrogates too (category Cs), which hypothesis leaves out by default: sent as
# `\ud800` escapes (json.dumps' default) or as their raw UTF-8-style bytes (surrogatepass).
SURROGATE_TEXT = st.text(st.characters(categories=["Cs"]), min_size=1, max_size=3) | st.text(
    st.characters(categories=["Cs", "Lu", "Ll", "Lo", "Nd", "Zs", "So"]), max_size=12)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63) | st.floats(allow_nan=False) | st.text(max_size=20)
    | SURROGATE_TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8) | SURROGATE_TEXT, inner, max_size=3),
    max_leaves=8,
)
FILTERS = st.recursive(
    st.dictionaries(st.sampled_from(["status", "content_type", "version", "title", "workspace", "$where",
                                     "fields.version", "source_kind", "workspace_id"]),
                    JSON_VALUES | st.dictionaries(st.sampled_from(["$eq", "$ne", "$gt", "$in", "$exists", "$not",
                                                                   "$regex"]), JSON_VALUES, max_size=2),
                    max_size=3),
    lambda inner: st.lists(inner, max_size=3).map(lambda parts: {"$or": parts})
    | st.lists(inner, max_size=3).map(lambda parts: {"$and": parts}) | inner.map(lambda part: {"$not": part}),
    max_leaves=6,
)
TOOL_ARGUMENTS = st.fixed_dictionaries({}, optional={
    "query": st.sampled_from(["refund", "返品", "zanzibar", "", "%", "a" * 3000]) | JSON_VALUES,
    "top_k": st.integers(-5, 500) | JSON_VALUES,
    "limit": st.integers(-5, 500) | JSON_VALUES,
    "offset": st.integers(-5, 20_000) | JSON_VALUES,
    "min_score": st.floats(-3, 3) | JSON_VALUES,
    "content_type": st.sampled_from(["article", "product", "globex", None]) | JSON_VALUES,
    "status": st.sampled_from(["draft", "published", "archived"]) | JSON_VALUES,
    "filter": FILTERS | JSON_VALUES,
    "workspace": st.just(OTHER_WORKSPACE),
    "queries": st.lists(st.sampled_from(["refund", "返品", "zanzibar", "", "and the?", "a" * 3000]), max_size=10)
    | JSON_VALUES,
})
TOOLS = ["search_entries", "semantic_search", "list_content_types", "hybrid_search", "agentic_search", "no_such_tool"]
JSONRPC_IDS = st.integers(-1, 2**31) | st.text(max_size=8) | st.none()
MESSAGES = st.one_of(
    st.builds(lambda i, name, arguments: {"jsonrpc": "2.0", "id": i, "method": "tools/call",
                                          "params": {"name": name, "arguments": arguments}},
              JSONRPC_IDS, st.sampled_from(TOOLS), TOOL_ARGUMENTS),
    st.builds(lambda i, method, params: {"jsonrpc": "2.0", "id": i, "method": method, "params": params},
              JSONRPC_IDS, st.sampled_from(["initialize", "tools/list", "ping", "resources/list", "prompts/list",
                                            "notifications/initialized", "completion/complete", "logging/setLevel"])
              | st.text(max_size=12), JSON_VALUES),
    st.builds(lambda i: {"jsonrpc": "2.0", "id": i, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "fuzz", "version": "0"}}},
        JSONRPC_IDS),
    JSON_VALUES,
)
# Lone escapes written by hand, in each place a tool call holds a string.
LONE_SURROGATE_CALLS = [
    '{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "%s", "arguments": %s}}' % (tool, arguments)
    for tool in TOOLS[:-1]
    for arguments in (r'{"query": "refund \ud800"}', r'{"query": "refund", "filter": {"status": "\udc00"}}',
                      r'{"query": "refund", "filter": {"\udbff": 1}}', r'{"query": "refund", "\ud800": 1}',
                      r'{"query": "refund", "queries": ["refund", "\udfff"]}', r'{"query": "\ude00\ud83d"}')
] + [r'{"jsonrpc": "2.0", "id": "\ud800", "method": "tools/list"}', r'{"jsonrpc": "2.0", "id": 1, "method": "\udc00"}']
BODIES = st.one_of(
    MESSAGES.map(lambda m: json.dumps(m).encode()),
    MESSAGES.map(lambda m: json.dumps(m, ensure_ascii=False).encode("utf-8", "surrogatepass")),
    st.sampled_from(LONE_SURROGATE_CALLS).map(str.encode),
    st.lists(MESSAGES, min_size=1, max_size=3).map(lambda ms: json.dumps(ms).encode()),
    st.binary(max_size=64),
    st.integers(1, 70).map(lambda depth: ("[" * depth * 20 + "]" * depth * 20).encode()),
)
VALID_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
HEADERS = st.one_of(
    st.just(VALID_HEADERS), st.just(VALID_HEADERS), st.just({**VALID_HEADERS, "MCP-Protocol-Version": "2025-06-18"}),
    st.fixed_dictionaries({}, optional={
        "Accept": st.sampled_from(["application/json, text/event-stream", "application/json", "text/event-stream",
                                   "text/html", "*/*", ""]),
        "Content-Type": st.sampled_from(["application/json", "application/json; charset=latin-1", "text/plain",
                                         "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""]),
        "MCP-Protocol-Version": st.sampled_from(["2025-06-18", "2025-03-26", "2024-11-05", "1999-01-01", "junk"]),
        "Mcp-Session-Id": st.text(alphabet="abcdef0123456789", max_size=32),
    }),
)
# Calls each tool must answer (a result without isError), so the fuzz cannot pass on refusals alone.
VALID_QUERIES = st.sampled_from(["refund", "返品", "shipping times", "invoices by e-mail", "refund 😀"])
VALID_ARGUMENTS = {
    "search_entries": st.fixed_dictionaries({"query": VALID_QUERIES}, optional={"limit": st.integers(1, 50)}),
    "semantic_search": st.fixed_dictionaries({"query": VALID_QUERIES}, optional={"top_k": st.integers(1, 20)}),
    "hybrid_search": st.fixed_dictionaries({"query": VALID_QUERIES}, optional={"top_k": st.integers(1, 20)}),
    "agentic_search": st.fixed_dictionaries({"query": VALID_QUERIES}, optional={
        "queries": st.lists(VALID_QUERIES, min_size=1, max_size=3, unique=True)}),
    "list_content_types": st.just({}),
}
SUCCESS_TOOLS = sorted(VALID_ARGUMENTS)
VALID_CALLS = st.sampled_from(SUCCESS_TOOLS).flatmap(lambda tool: st.builds(
    lambda i, arguments: {"jsonrpc": "2.0", "id": i, "method": "tools/call",
                          "params": {"name": tool, "arguments": arguments}},
    st.integers(1, 2**31), VALID_ARGUMENTS[tool]))
MCP_METHODS = st.sampled_from(["POST"] * 8 + ["GET", "DELETE", "PUT", "PATCH", "OPTIONS", "HEAD"])
MCP_CALLERS = st.sampled_from(["key", "key", "key", "drafts_key", "revoked_key", "expired_key", "garbage", None])


def mcp_answer_problems(response: requests.Response, *, drafts_visible: bool) -> list[str]:
    """What is wrong with one /mcp/ answer: a 5xx, a 4xx without a code, or another tenant's data."""
    if response.status_code >= 500:
        return [f"{response.status_code}: {response.content[:300]!r}"]
    body = json_body(response.content)
    if 400 <= response.status_code < 500:
        if response.request.method == "HEAD":  # no body by definition; the status says it all
            return []
        # Ours: {"code": "...", "message": ...}; the MCP layer's: a JSON-RPC error object.
        ours = isinstance(body, dict) and isinstance(body.get("code"), str) and body["code"]
        json_rpc = isinstance(body, dict) and isinstance(body.get("error"), dict) and isinstance(
            body["error"].get("code"), int)
        return [] if ours or json_rpc else [f"{response.status_code} without a code: {response.content[:300]!r}"]
    problems = []
    for message in body if isinstance(body, list) else [body]:
        result = message.get("result") if isinstance(message, dict) else None
        if isinstance(result, dict) and isinstance(result.get("structuredContent"), dict):
            problems += leaks(result["structuredContent"], drafts_visible=drafts_visible)
    return problems


def test_mcp_over_http_never_errs_and_never_leaks(live_app):
    secrets = {"key": live_app.key, "drafts_key": live_app.drafts_key, "revoked_key": live_app.revoked_key,
               "expired_key": live_app.expired_key, "garbage": "cms_0123456789ab_not-a-real-secret"}

    start = access_log_lines(live_app)

    succeeded: Counter[str] = Counter()
    # Half the examples are anything at all; half a valid call of a valid key, which must succeed.
    requests_drawn = st.one_of(
        st.tuples(MCP_METHODS, BODIES, HEADERS, MCP_CALLERS),
        st.tuples(st.just("POST"), VALID_CALLS.map(lambda m: json.dumps(m, ensure_ascii=False).encode()),
                  st.just(VALID_HEADERS), st.sampled_from(["key", "drafts_key"])),
    )

    @given(request=requests_drawn)
    @settings(max_examples=FUZZ_EXAMPLES * 4, suppress_health_check=list(HealthCheck), deadline=None)
    def fuzz(request: tuple[str, bytes, dict[str, str], str | None]) -> None:
        method, body, headers, caller = request
        sent = {**BEHIND_PROXY, **headers}
        if caller is not None:
            sent["Authorization"] = f"Bearer {secrets[caller]}"
        response = requests.request(method, f"{live_app.base_url}/mcp/", data=body, headers=sent, timeout=60)
        problems = mcp_answer_problems(response, drafts_visible=caller == "drafts_key")
        assert not problems, (method, body[:300], sent, problems)
        succeeded.update(tools_succeeded(body, response))

    fuzz()
    record_requests("/mcp/ (hypothesis, keys of every state and none)", live_app, start)
    figure_record("fuzz, /mcp/ successful tool calls: " + ", ".join(f"{t} {succeeded[t]}" for t in SUCCESS_TOOLS))
    assert all(succeeded[tool] for tool in SUCCESS_TOOLS), f"a tool never answered successfully: {succeeded}"


def tools_succeeded(body: bytes, response: requests.Response) -> list[str]:
    """The tools whose call in `body` got a result without isError."""
    sent, answer = json_body(body), json_body(response.content)
    if response.status_code != 200 or not isinstance(sent, dict) or not isinstance(answer, dict):
        return []
    params = sent.get("params")
    result = answer.get("result")
    if sent.get("method") != "tools/call" or not isinstance(params, dict) or not isinstance(result, dict):
        return []
    return [params.get("name")] if not result.get("isError") and params.get("name") in VALID_ARGUMENTS else []


# --- hypothesis over the inputs of issue 32: synonyms, promotions, events, insights, facets ------
# Editors' forms and the admin pages are not in the OpenAPI document either. An editor signs in
# to the admin through gunicorn (production settings: secure cookies, CSRF) and sends text
# meant to break number and date parsing: Unicode digits ('²' passes str.isdigit(), int()
# refuses it), NUL and other control characters, lone surrogates (as their UTF-8-style bytes),
# out-of-range numbers and months (9999-12). No answer may be a 5xx; an API answer's 4xx carries
# a code.

TRICKY_TEXT = st.one_of(
    st.sampled_from(["²", "٣", "１２", "1²", "𝟗", "0", "-1", "+1", "1.0", "1e3", "9" * 30, "", " ", "30", "7", "90",
                     "9999-12", "0000-00", "2024-13", "2024-02-30", "10000-01", "-2024-01", "\x00", "1\x00", "ph\x00one",
                     "\ud800", "refund\udfff", "=1+1", "x;=1+1", "a,b", "a=>b", "#tag", "%", "null", "true"]),
    st.text(st.characters(categories=["Nd", "No", "Cs", "Cc", "Lo", "Zs", "Pd", "Sm"]), max_size=10),
    st.integers(-(2**63), 2**64).map(str),
    st.dates().map(lambda d: d.strftime("%Y-%m")),
)
TRICKY_JSON = st.one_of(TRICKY_TEXT, JSON_VALUES, st.integers(-5, 2**63), st.floats(allow_nan=True))
FACET_NAMES = st.sampled_from(["status", "content_type", "published_on", "version", "featured", "tags", "price",
                               "secret", "", "\x00", "²"]) | st.text(max_size=6)


def _query(params: list[tuple[str, str]]) -> str:
    """A query string of `params`, lone surrogates sent as their UTF-8-style bytes."""
    def encode(text: str) -> str:
        return quote(text.encode("utf-8", "surrogatepass"), safe="")
    return "&".join(f"{encode(key)}={encode(value)}" for key, value in params)


ADMIN_GETS = st.one_of(
    st.builds(lambda days: ("GET", "/admin/search/acme/insights/", [("days", days)]), TRICKY_TEXT),
    st.builds(lambda days: ("GET", "/admin/search/acme/insights.csv", [("days", days)]), TRICKY_TEXT),
    st.builds(lambda mode, facets: ("GET", "/admin/search/acme/", [("q", "refund"), ("mode", mode),
                                                                    *((f"facet.{n}", v) for n, v in facets)]),
              st.sampled_from(["fulltext", "hybrid", "semantic", "keyword", "²"]),
              st.lists(st.tuples(FACET_NAMES, TRICKY_TEXT), max_size=3)),
    st.builds(lambda workspace, q: ("GET", "/admin/cms/entry/", [("workspace__id__exact", workspace), ("q", q)]),
              TRICKY_TEXT, st.sampled_from(["refund", "launch", "返品"]) | TRICKY_TEXT),
    st.builds(lambda content_type: ("GET", "/admin/cms/entry/add/", [("content_type", content_type)]), TRICKY_TEXT),
    st.builds(lambda q: ("GET", "/admin/cms/promotion/", [("q", q)]), TRICKY_TEXT),
)
ADMIN_POSTS = st.one_of(
    st.builds(lambda fields: ("POST", "/admin/search/acme/clicks", fields), st.fixed_dictionaries(
        {}, optional={"search_id": TRICKY_TEXT | st.just("0" * 48), "entry_id": TRICKY_TEXT, "chunk_id": TRICKY_TEXT,
                      "position": TRICKY_TEXT})),
    st.builds(lambda fields: ("POST", "/admin/search/acme/synonyms/", {"action": "add", **fields}),
              st.fixed_dictionaries({"terms": TRICKY_TEXT.map(lambda t: f"refund, {t}")}, optional={
                  "kind": st.sampled_from(["multi_way", "one_way", "²", ""]), "source": TRICKY_TEXT})),
    st.builds(lambda fields: ("POST", "/admin/cms/promotion/add/", fields), st.fixed_dictionaries(
        {"phrase": TRICKY_TEXT}, optional={"workspace": TRICKY_TEXT, "entry": TRICKY_TEXT, "position": TRICKY_TEXT})),
)
# The content type form's field builder (its JSON box) and "Pin for this query" (issue 49): NUL,
# lone surrogates, integers past any float, nesting past the JSON check's 64 levels. ACME and
# ACME_ENTRY stand for acme's id and one of its entries' (test_admin_and_editor_inputs_never_err).
_FIELD_TYPES = st.sampled_from(["text", "richtext", "number", "boolean", "date", "reference", "tags", "²", ""])
_HUGE_NUMBERS = st.one_of(st.integers(-(10**400), 10**400), st.floats(allow_nan=True, allow_infinity=True),
                          st.just(10**30), st.just(-(10**4000)))


def _builder_field(label: str, kind: str, ranges: list, extra: dict) -> dict:
    return {"id": "price", "label": label, "type": kind, "facet": True, "facet_ranges": ranges, **extra}


FIELD_BUILDER_JSON = st.one_of(
    st.sampled_from([
        '[{"id": "title", "label": "Ti\\u0000tle", "type": "text"}]',
        '[{"id": "title", "label": "\\ud800", "type": "text"}]',
        '[{"id": "title", "label": "T", "type": "text", "\\udfff": 1}]',
        '[{"id": "price", "label": "Price", "type": "number", "facet": true, "facet_ranges": [1, ' + "9" * 400 + "]}]",
        '[{"id": "price", "label": "Price", "type": "number", "facet": true, "facet_ranges": [1e400]}]',
        '[{"id": "price", "label": "Price", "type": "number", "facet": true, "facet_ranges": [NaN]}]',
        "[" * 5000 + "]" * 5000,
        '[{"id": "t", "label": "T", "type": "text", "x": ' + "[" * 5000 + "]" * 5000 + "}]",
    ]),
    st.integers(1, 3000).map(lambda depth: "[" * depth + "]" * depth),
    st.integers(1, 3000).map(lambda depth: '{"a": ' * depth + "1" + "}" * depth),
    st.builds(lambda label, kind, ranges, extra: json.dumps([_builder_field(label, kind, ranges, extra)]),
              TRICKY_TEXT, _FIELD_TYPES, st.lists(_HUGE_NUMBERS, max_size=3),
              st.dictionaries(TRICKY_TEXT, TRICKY_JSON, max_size=2)),
    TRICKY_TEXT,
)
BUILDER_AND_PIN_POSTS = st.one_of(
    st.builds(lambda fields, workspace: ("POST", "/admin/cms/contenttype/add/",
                                         {"workspace": workspace, "api_id": "fuzzed", "name": "Fuzzed",
                                          "fields": fields}),
              FIELD_BUILDER_JSON, st.just("ACME") | TRICKY_TEXT),
    st.builds(lambda q, entry, back: ("POST", "/admin/search/acme/pin", {"q": q, "entry": entry, "back": back}),
              TRICKY_TEXT | st.sampled_from(["x\x00y", "\x00", "refund\ud800", "refund"]),
              st.just("ACME_ENTRY") | TRICKY_TEXT, st.just("q=refund") | TRICKY_TEXT),
)
API_BODIES = st.one_of(
    st.builds(lambda body: ("POST", "/api/v1/workspaces/acme/synonyms", body), st.one_of(
        st.fixed_dictionaries({"terms": st.lists(TRICKY_JSON, max_size=4) | TRICKY_JSON}, optional={
            "kind": st.sampled_from(["multi_way", "one_way"]) | TRICKY_JSON, "source": TRICKY_JSON,
            "extra": TRICKY_JSON}), JSON_VALUES)),
    st.builds(lambda body: ("POST", "/api/v1/workspaces/acme/search/events", body), st.one_of(
        st.fixed_dictionaries({"search_id": TRICKY_JSON | st.just("0" * 48), "position": TRICKY_JSON},
                              optional={"entry_id": TRICKY_JSON, "chunk_id": TRICKY_JSON}), JSON_VALUES)),
)


@pytest.fixture(scope="module")
def editor_session(live_app, django_db_blocker) -> dict[str, str]:
    """An editor of acme signed in to the admin through gunicorn: the headers its requests send
    (cookies by hand: they are Secure, and the fuzz speaks plain HTTP behind a 'TLS proxy')."""
    from cms.models import Role
    from tests.factories import MembershipFactory, UserFactory

    with django_db_blocker.unblock():
        user = UserFactory(username="fuzz-editor", is_staff=True)
        user.set_password("fuzz-editor-password")
        user.save()
        MembershipFactory(user=user, workspace=Workspace.objects.get(slug=WORKSPACE), role=Role.EDITOR)
    origin = "https://" + urlsplit(live_app.base_url).netloc
    login = f"{live_app.base_url}/admin/login/?next=/admin/"
    page = requests.get(login, headers=BEHIND_PROXY, timeout=60)
    cookies = {"csrftoken": page.cookies["csrftoken"]}
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)
    signed_in = requests.post(login, data={"username": "fuzz-editor", "password": "fuzz-editor-password",
                                           "csrfmiddlewaretoken": token},
                              headers={**BEHIND_PROXY, "Origin": origin, "Referer": origin + "/admin/login/",
                                       "Cookie": f"csrftoken={cookies['csrftoken']}"},
                              allow_redirects=False, timeout=60)
    assert signed_in.status_code == 302, signed_in.text[-2000:]
    cookies.update(signed_in.cookies.get_dict())
    assert "sessionid" in cookies, signed_in.headers
    return {**BEHIND_PROXY, "Origin": origin, "Referer": origin + "/admin/", "X-CSRFToken": cookies["csrftoken"],
            "Cookie": "; ".join(f"{name}={value}" for name, value in cookies.items())}


def test_admin_and_editor_inputs_never_err(live_app, editor_session):
    """Issue 32's new inputs, signed in as an editor: no 5xx, and every API 4xx has a code."""
    from cms.models import Entry, EntryStatus

    start = access_log_lines(live_app)
    statuses: Counter[str] = Counter()
    acme = Workspace.objects.get(slug=WORKSPACE)
    real = {"ACME": str(acme.pk),
            "ACME_ENTRY": str(Entry.objects.filter(workspace=acme, status=EntryStatus.PUBLISHED).values_list(
                "pk", flat=True).first())}

    @given(request=st.one_of(ADMIN_GETS, ADMIN_POSTS, BUILDER_AND_PIN_POSTS, API_BODIES))
    @settings(max_examples=FUZZ_EXAMPLES * 5, suppress_health_check=list(HealthCheck), deadline=None)
    def fuzz(request: tuple[str, str, object]) -> None:
        method, path, payload = request
        if isinstance(payload, dict):
            payload = {key: real.get(value, value) if isinstance(value, str) else value
                       for key, value in payload.items()}
        url = f"{live_app.base_url}{path}"
        headers = dict(editor_session)
        if method == "GET":
            response = requests.get(f"{url}?{_query(payload)}", headers=headers, allow_redirects=False, timeout=60)
        elif path.startswith("/api/"):
            body = json.dumps(payload, ensure_ascii=False).encode("utf-8", "surrogatepass")
            response = requests.post(url, data=body, headers={**headers, "Content-Type": "application/json"},
                                     allow_redirects=False, timeout=60)
        else:
            response = requests.post(url, data=_query(list(payload.items())), allow_redirects=False, timeout=60,
                                     headers={**headers, "Content-Type": "application/x-www-form-urlencoded"})
        target = "contenttype add" if "/contenttype/" in path else path.rstrip("/").rpartition("/")[2]
        statuses[f"{target} {response.status_code}"] += 1
        assert response.status_code < 500, (method, path, payload, response.status_code, response.text[:300])
        assert response.status_code != 403 or path.startswith("/api/"), (method, path, "CSRF?", response.text[:300])
        if (path.startswith("/api/") or target == "pin") and 400 <= response.status_code < 500:
            body = json_body(response.content)
            assert isinstance(body, dict) and isinstance(body.get("code"), str), (path, payload, response.text[:300])

    fuzz()
    record_requests("admin and editor inputs (hypothesis, signed-in editor)", live_app, start)
    figure_record("fuzz, admin and editor inputs by status: " + ", ".join(f"{k} {v}" for k, v in sorted(statuses.items())))
    assert any(key.startswith("insights ") and key.endswith(" 200") for key in statuses), statuses
    # The field builder's refusals are form errors (200), the pin's are 400s with a code.
    assert statuses["contenttype add 200"] and statuses["pin 400"], statuses
