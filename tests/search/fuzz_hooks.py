"""schemathesis hooks and checks for the fuzz run (loaded by the CLI through SCHEMATHESIS_HOOKS).

tests/search/interfaces/api/test_fuzz.py runs `schemathesis run` with this module. The checks add to
schemathesis' own (server errors, status codes, headers and bodies against the document):

- error_has_code: every 4xx is {"code": <string>, "message": <string>};
- tenant_isolated: a 200 holds nothing of the other tenant (FUZZ_OTHER_MARKER), and no
  draft unless FUZZ_DRAFTS_VISIBLE (FUZZ_DRAFT_MARKER, and each result's status).

The hooks point the generated data at what exists, as a fuzzer is told identifiers (a click
event names a real search, FUZZ_SEARCH_ID, and a result, FUZZ_ENTRY_ID or FUZZ_CHUNK_ID): most
cases name the key's workspace (FUZZ_WORKSPACE), so they reach the search instead of stopping
at a 404; some the other tenant's, the rest whatever the schema allows. And a valid (positive)
case names one of the workspace's content types and a filter on its fields (in a JSON body, or
as JSON text in full-text's query string): which types and
fields exist is data, which the document cannot list, so a random name is rightly a 400
(`unknown_content_type`, `unknown_filter_key`). Invalid (negative) cases are left as generated,
except that one in INJECT_EVERY carries a lone UTF-16 surrogate, which no
generator produces: a JSON body gets a `\\ud800`-style escape in a value or a key (written into
the text by hand: it must reach the server as those six characters), a query string gets
`%ED%A0%80` (the surrogate's UTF-8-style encoding). Both must be a coded 400.
"""

from __future__ import annotations

import json
import os
import zlib
from typing import Any
from urllib.parse import quote_from_bytes

import schemathesis
from hypothesis import strategies as st

WORKSPACE = os.environ.get("FUZZ_WORKSPACE", "acme")
OTHER_WORKSPACE = os.environ.get("FUZZ_OTHER_WORKSPACE", "globex")
OTHER_MARKER = os.environ.get("FUZZ_OTHER_MARKER", "zanzibar")
DRAFT_MARKER = os.environ.get("FUZZ_DRAFT_MARKER", "unannounced")
DRAFTS_VISIBLE = os.environ.get("FUZZ_DRAFTS_VISIBLE", "") == "true"
# Filters over the seeded fields (tests/search/live_app.py), by the content type they fit;
# without a content type every field of the workspace may be named.
ANY_TYPE_FILTERS = [{"status": "published"}, {"$not": {"source_kind": "asset"}}]
VALID_FILTERS = {
    "article": [{"version": {"$gte": 2}}, {"featured": True}, {"published_on": {"$lt": "2024-03-01"}},
                {"title": {"$exists": True}, "version": {"$lte": 3}}],
    "product": [{"sku": {"$in": ["SKU-001", "SKU-9"]}}, {"price": {"$lte": 20}}, {"name": {"$ne": "Widget"}}],
}
CONTENT_TYPES = sorted(VALID_FILTERS)
# A real search of FUZZ_WORKSPACE and one of its results the key may see (tests/search/interfaces/api/test_fuzz.py
# makes them before the run): a valid click event names them, as a client reports its own search.
SEARCH_ID = os.environ.get("FUZZ_SEARCH_ID", "")
ENTRY_ID = int(os.environ.get("FUZZ_ENTRY_ID", "0") or 0)
CHUNK_ID = int(os.environ.get("FUZZ_CHUNK_ID", "0") or 0)
CHUNK_SEARCH_ID = os.environ.get("FUZZ_CHUNK_SEARCH_ID", "")
FACET_CHOICES = ["content_type,status", "status", "content_type"]


def json_body(content: bytes) -> Any:
    try:
        return json.loads(content)
    except ValueError:
        return None


def leaks(body: Any, *, drafts_visible: bool) -> list[str]:
    """What in an answer belongs to the other tenant, or is a draft the caller may not see."""
    if not isinstance(body, dict):
        return []
    answer = without_echo(body)
    problems = []
    text = json.dumps(answer, ensure_ascii=False).lower()
    if OTHER_MARKER in text:
        problems.append(f"{OTHER_WORKSPACE}'s text in the answer")
    if not drafts_visible and DRAFT_MARKER in text:
        problems.append("a draft's text in the answer")
    for suggestion in answer.get("suggestions") or []:
        text_of = suggestion.get("text", "") if isinstance(suggestion, dict) else ""
        if not drafts_visible and DRAFT_MARKER in str(text_of).lower():
            problems.append(f"suggestion {text_of!r} from a draft")
    for hit in answer.get("results") or []:
        if isinstance(hit, dict) and not drafts_visible and hit.get("status") != "published":
            problems.append(f"entry {hit.get('id')} with status {hit.get('status')}")
    facets = answer.get("facets")
    if isinstance(facets, dict) and not drafts_visible and (facets.get("status") or {}).get("draft"):
        problems.append(f"drafts counted in the status facet: {facets['status']}")
    for source in answer.get("sources") or []:
        metadata = source.get("metadata", {}) if isinstance(source, dict) else {}
        if metadata.get("workspace") != WORKSPACE:
            problems.append(f"chunk {source.get('id')} of workspace {metadata.get('workspace')}")
        if not drafts_visible and metadata.get("status") not in ("published", None):
            problems.append(f"chunk {source.get('id')} with status {metadata.get('status')}")
    return problems


# Where an answer repeats the caller's own words: agentic search's parts (the caller's
# `queries`, or pieces of its `query`) and the reason a fallback names them in.
ECHO_META_KEYS = ("parts", "part_results", "fallback_reason")


def without_echo(body: dict) -> dict:
    """An answer without the caller's own words, echoed: what is left must hold nothing foreign."""
    answer = {k: v for k, v in body.items() if k != "query"}
    if isinstance(answer.get("meta"), dict):
        answer["meta"] = {k: v for k, v in answer["meta"].items() if k not in ECHO_META_KEYS}
    return answer


@schemathesis.check
def error_has_code(ctx, response, case) -> bool | None:
    """Every 4xx is {"code": <string>, "message": <string>}: the client can branch on it."""
    if 400 <= response.status_code < 500:
        body = json_body(response.content)
        if not (isinstance(body, dict) and isinstance(body.get("code"), str) and body["code"]
                and isinstance(body.get("message"), str) and body["message"]):
            raise AssertionError(f"{response.status_code} without a code and a message: {response.content[:300]!r}")
    return None


@schemathesis.check
def tenant_isolated(ctx, response, case) -> bool | None:
    """A 200 holds the key's workspace's content only, and drafts only for a key that sees them."""
    if response.status_code == 200:
        problems = leaks(json_body(response.content), drafts_visible=DRAFTS_VISIBLE)
        if problems:
            raise AssertionError("; ".join(problems))
    return None


# One negative case in INJECT_EVERY carries a lone surrogate (see the module docstring).
INJECT_EVERY = 3
PLACEHOLDER = "LONE-SURROGATE-HERE"
LONE_ESCAPES = [r"\ud800", r"\udfff", r"\udbff", r"\udc00x"]
ENCODED_SURROGATES = [b"\xed\xa0\x80", b"refund\xed\xbf\xbf", b"\xed\xa0\xbd"]


def lone_surrogate_body(body: dict, pick: int) -> bytes:
    """`body` as JSON text with a lone surrogate escape put into one of its strings, or a key."""
    body = dict(body)
    escape = LONE_ESCAPES[pick % len(LONE_ESCAPES)]
    where = pick // len(LONE_ESCAPES) % 4
    if where == 0 or not isinstance(body.get("query"), str):
        body["query"] = f"refund {PLACEHOLDER}"
    elif where == 1:
        body[PLACEHOLDER] = 1  # an unknown parameter's name, which the error message echoes
    elif where == 2:
        body["filter"] = {"status": PLACEHOLDER, f"fields.{PLACEHOLDER}": [PLACEHOLDER]}
    else:
        body["queries"] = ["refund", PLACEHOLDER]
    return json.dumps(body).replace(PLACEHOLDER, escape).encode()


@schemathesis.hook
def before_call(context, case, kwargs):
    meta = case.meta
    if meta is None or meta.generation.mode.value != "negative":
        return
    pick = zlib.crc32(repr((case.operation.label, case.query, case.body)).encode())
    if pick % INJECT_EVERY:
        return
    # The request is edited once prepared, through requests' auth hook (the key travels in a
    # header, so no auth is replaced): the case's own values win over kwargs, and editing the
    # case makes schemathesis re-validate it, which bytes and lone surrogates break.
    if case.method.upper() == "POST":
        # Most negative bodies are not objects at all: those get a valid one to carry the escape.
        body = lone_surrogate_body(case.body if isinstance(case.body, dict) else {"query": "refund"},
                                   pick // INJECT_EVERY)
        kwargs["auth"] = lambda request: _with_body(request, body)
    elif case.method.upper() == "GET" and case.path.endswith(("/entries", "/suggest")):
        raw = ENCODED_SURROGATES[pick // INJECT_EVERY % len(ENCODED_SURROGATES)]
        kwargs["auth"] = lambda request: _with_query_parameter(request, "q", raw)


def _with_body(request, body: bytes):
    request.body = body
    request.headers["Content-Length"] = str(len(body))
    request.headers["Content-Type"] = "application/json"
    return request


def _with_query_parameter(request, name: str, raw: bytes):
    base, _, query = request.url.partition("?")
    kept = [pair for pair in query.split("&") if pair and pair.split("=")[0] != name]
    request.url = f"{base}?{'&'.join([*kept, f'{name}={quote_from_bytes(raw)}'])}"
    return request


@schemathesis.hook
def before_generate_path_parameters(context, strategy):
    # The slug mostly names the key's workspace or the other tenant's; a synonym set's id is
    # a well-formed one that names no set (the key may not delete: 403 before the lookup).
    extra = {"set_id": "00000000-0000-4000-8000-000000000000"} if "{set_id}" in context.operation.path else {}
    return st.one_of(st.just({"slug": WORKSPACE, **extra}), st.just({"slug": WORKSPACE, **extra}),
                     st.just({"slug": WORKSPACE, **extra}), st.just({"slug": OTHER_WORKSPACE, **extra}), strategy)


@schemathesis.hook
def map_case(context, case):
    meta = case.meta
    if meta is None or meta.generation.mode.value != "positive":
        return case
    pick = zlib.crc32(repr((case.query, case.body)).encode())
    if case.path.endswith("/search/events") and isinstance(case.body, dict):
        return _click_event(case, pick)
    if isinstance(case.query, dict) and case.query.get("content_type"):
        case.query["content_type"] = CONTENT_TYPES[pick % len(CONTENT_TYPES)]
    if isinstance(case.query, dict) and case.query.get("filter") is not None:
        # Full-text's filter: JSON text in the query string (the document's application/json content).
        chosen = _valid_filter(case.query.get("content_type"), pick)
        case.query["filter"] = json.dumps(chosen) if isinstance(case.query["filter"], str) else chosen
    # Facets that exist (a random name is rightly a 400 unknown_facet): the counts must hold
    # nothing of the other tenant and no draft the key may not see (leaks above).
    if isinstance(case.query, dict) and case.query.get("facets") is not None:
        case.query["facets"] = FACET_CHOICES[pick % len(FACET_CHOICES)]
    if isinstance(case.body, dict) and case.body.get("facets") is not None:
        case.body["facets"] = FACET_CHOICES[pick % len(FACET_CHOICES)].split(",")
    if isinstance(case.body, dict) and _semantic_leg_off(case.body):
        _searchable(case.body)
    if isinstance(case.body, dict):
        content_type = None
        if case.body.get("content_type") is not None:
            content_type = case.body["content_type"] = CONTENT_TYPES[pick % len(CONTENT_TYPES)]
        if case.body.get("filter") is not None:
            case.body["filter"] = _valid_filter(content_type, pick)
    return case


def _semantic_leg_off(body: dict) -> bool:
    """Whether hybrid/agentic would run without the semantic leg: fixed weights giving it 0,
    by the product's own rule (FusionSetting.weights: a missing weight is 1 minus the other;
    search.engine.hybrid.HybridOptions.semantic_leg)."""
    from search.engine.legs.fusion import FusionSetting  # pure: no Django in the fuzzer's process

    weights = (body.get("keyword_weight"), body.get("semantic_weight"))
    if not all(w is None or (isinstance(w, (int, float)) and not isinstance(w, bool)) for w in weights):
        return False  # not numbers: the request is refused for that, whatever the query
    setting = FusionSetting(keyword_weight=weights[0], semantic_weight=weights[1])
    return setting.fixed and setting.weights()[1] <= 0


def _searchable(body: dict) -> None:
    """With the semantic leg off, a valid query holds a word the keyword leg can search:
    otherwise it is rightly a 400 `no_searchable_terms` (found by a random seed: "\U0005c5c5\x06"
    with semantic_weight 0). Which words are searchable is the tokenizer's, which the document
    cannot say. The generated text stays, after a searchable word, within the length limit.
    (Agentic's `queries` stay as generated: a part without such a word falls back to the whole
    question, a 200 that says why.)"""
    word = "refund "
    if isinstance(body.get("query"), str):
        body["query"] = word + body["query"][len(word):]


def _valid_filter(content_type: str | None, pick: int) -> dict:
    """A filter on the seeded fields of `content_type` (any of the workspace's when None)."""
    choices = ANY_TYPE_FILTERS + (VALID_FILTERS[content_type] if content_type else [
        f for fs in VALID_FILTERS.values() for f in fs] + [{"$or": [{"version": 2}, {"sku": "SKU-002"}]}])
    return choices[pick % len(choices)]


def _click_event(case, pick: int):
    """A valid click names a real search and a result the key may see: one of entry_id and chunk_id."""
    if SEARCH_ID:
        case.body["search_id"] = SEARCH_ID
    case.body.pop("entry_id", None)
    case.body.pop("chunk_id", None)
    if pick % 2 and CHUNK_ID:
        case.body["chunk_id"] = CHUNK_ID
        case.body["search_id"] = CHUNK_SEARCH_ID  # a click names a result of its own search
    elif ENTRY_ID:
        case.body["entry_id"] = ENTRY_ID
    return case
