"""Drafts as a property: a published-only caller's every answer is the same whether or not the
workspace has drafts.

Hypothesis builds two workspaces with the same published entries, through the real pipeline
(services, sync, the keyword index, the fake provider's vectors): "plain" has nothing else,
"drafted" has drafts besides, written with words no published entry holds (and some that
they do), each draft pinned to the probes' phrases. A published-only API key of each asks
the same thing through every interface (the API's four searches and suggest, the MCP tools,
and, for a viewer, the admin's search page, its promotions and entries lists, and the ingestion
status pages with their live fragment), with typo
tolerance, prefix completion and facets on and off, and queries that aim at the drafts: their
words, those words misspelt, their first letters. The two answers must be equal once what
names a row (ids), what measures the run (search ids, latency) and the ranking scores are
taken out (BM25's statistics count every chunk, as Elasticsearch's document-level security
does: docs/design/tenancy.md).

This is the test that would have caught round three's corrections, promotions and `$contains`
findings (tests/security/test_draft_words.py pins each one).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from hypothesis import given, settings
from hypothesis import strategies as st
from mcp import Client as McpClient

from cms import services
from cms.models import EntryStatus, Role
from ingestion.services import chunks_embed_pending, keyword_stats_compact_all
from search.interfaces.mcp.server import api_key_caller, build_mcp_server
from tests.factories import MembershipFactory, UserFactory
from tests.figures import figure_record
from tests.search.pipeline_helpers import fake_embeddings  # noqa: F401 - fixture
from tests.search.tenancy import Tally
from tests.search.tenancy_checks import no_rate_limits, rolled_back  # noqa: F401 - no_rate_limits: an autouse fixture

pytestmark = pytest.mark.django_db

PUBLISHED_WORDS = ["refund", "shipping", "invoice", "policy", "warehouse", "返品", "配送", "launch"]
# Words only drafts hold (a draft may hold published words too).
DRAFT_WORDS = ["zebra", "nightingale", "quokkacorp", "xylograph", "kangaroo", "ペンギン", "秘密計画"]
# What a caller may type to reach them: the words, misspelt, or begun.
DRAFT_PROBES = ["zebre", "nightingalle", "quokkacrop", "xylogrph", "kangaroos", "nighti", "quok", "zeb", "ぺんぎん"]
FIELDS = [
    {"id": "title", "label": "Title", "type": "text", "required": True},
    {"id": "body", "label": "Body", "type": "richtext"},
    {"id": "topic", "label": "Topic", "type": "text", "facet": True},
]
EXAMPLES = max(4, settings.default.max_examples // 4)

published_specs = st.lists(st.lists(st.sampled_from(PUBLISHED_WORDS), min_size=1, max_size=3, unique=True),
                           min_size=1, max_size=4)
draft_specs = st.lists(st.tuples(st.lists(st.sampled_from(DRAFT_WORDS), min_size=1, max_size=2, unique=True),
                                 st.lists(st.sampled_from(PUBLISHED_WORDS), max_size=2, unique=True)),
                       min_size=1, max_size=3)
query_specs = st.tuples(
    st.lists(st.sampled_from(PUBLISHED_WORDS + DRAFT_WORDS + DRAFT_PROBES), min_size=1, max_size=3),
    st.fixed_dictionaries({"typo_tolerance": st.booleans(), "prefix": st.booleans(), "facets": st.booleans()}),
)


@dataclass(frozen=True)
class Side:
    slug: str
    secret: str


def side_build(slug: str, published: list[list[str]], drafts: list[tuple[list[str], list[str]]],
               viewer, editor) -> Side:
    """One workspace: the published entries, then the drafts (none for "plain"), each pinned."""
    workspace = services.workspace_create(slug=slug, name="Docs")
    kind = services.content_type_create(workspace=workspace, api_id="doc", name="Doc",
                                        fields=[dict(f) for f in FIELDS], semantic_search_enabled=True)
    for n, words in enumerate(published):
        text = " ".join(words)
        entry = services.entry_create(content_type=kind, status=EntryStatus.PUBLISHED,
                                      data={"title": f"Published {n}: {text}", "body": f"<p>{text}.</p>",
                                            "topic": words[0]})
        services.promotion_create(workspace=workspace, phrase=words[0], entry=entry, position=n)
    for n, (own, shared) in enumerate(drafts):
        text = " ".join([*own, *shared])
        entry = services.entry_create(content_type=kind, status=EntryStatus.DRAFT,
                                      data={"title": f"Draft {n}: {text}", "body": f"<p>{text}.</p>",
                                            "topic": own[0]})
        for phrase in dict.fromkeys([*own, *shared, *PUBLISHED_WORDS[:2]]):
            services.promotion_create(workspace=workspace, phrase=phrase, entry=entry, position=100 + n)
    MembershipFactory(user=viewer, workspace=workspace, role=Role.VIEWER)
    MembershipFactory(user=editor, workspace=workspace, role=Role.EDITOR)
    _, secret = services.api_key_create(workspace=workspace, name="published only", include_drafts=False)
    return Side(slug=slug, secret=secret)


# --- what two answers may differ in ---------------------------------------------------------------

# Names of rows and runs, and the ranking's measures (scores depend on BM25's workspace-wide
# statistics, and with them fusion's weights and the legs' ranks).
VOLATILE = {"id", "entry_id", "chunk_id", "search_id", "latency_ms", "took_ms", "score", "scores", "weights",
            "rank", "legs", "features", "workspace", "url", "created_at", "updated_at", "vector", "distance"}


def normal(value: Any) -> Any:
    """The answer without its volatile parts, lists of objects as multisets (order is ranking)."""
    if isinstance(value, dict):
        kept = {k: normal(v) for k, v in value.items() if k not in VOLATILE}
        if isinstance(value.get("part_results"), list):  # how many each part placed: the merge's ranking
            kept["part_results"] = normal([{k: v for k, v in part.items() if k != "returned"}
                                           for part in value["part_results"] if isinstance(part, dict)])
        if isinstance(value.get("legs"), dict):  # the plan of each leg: everything but its scores
            kept["legs"] = {leg: normal({k: v for k, v in plan.items() if k not in {"score", "rank"}})
                            if isinstance(plan, dict) else plan for leg, plan in value["legs"].items()}
        return kept
    if isinstance(value, list):
        items = [normal(v) for v in value]
        if all(isinstance(v, dict) for v in items):
            return sorted(items, key=lambda v: json.dumps(v, sort_keys=True, ensure_ascii=False))
        return items
    if isinstance(value, str) and _CONTEXT_MARK.match(value):  # relevant_context: passages in rank order
        return sorted(_CONTEXT_MARK.sub("", part) for part in value.split("\n\n"))
    if isinstance(value, str):
        return re.sub(r"/(acme|globex)/", "/<slug>/", value)
    return value


_CONTEXT_MARK = re.compile(r"^\[\d+\] ", re.M)
_TAGS = re.compile(r"<[^>]+>")
_ID_CELLS = re.compile(r'<(th|td) class="field-id">.*?</\1>', re.S)  # a changelist's id column
_NUMBERS = re.compile(r"\d+\.\d+|#\d+|\b\d{2,}\b")


def page_text(html: str) -> str:
    """An admin page as a person reads its content: text, no markup, no ids or scores, no slug."""
    start = html.find('id="content"')
    html = _ID_CELLS.sub(" ", html)
    text = _TAGS.sub(" ", html[start:html.find('id="footer"', start) if 'id="footer"' in html else None])
    text = _NUMBERS.sub("<n>", text.replace("acme", "<slug>").replace("globex", "<slug>"))
    return " ".join(sorted(text.split()))


# --- the interfaces ---------------------------------------------------------------------------------

def api_answers(side: Side, query: str, flags: dict) -> dict[str, Any]:
    client = Client(HTTP_AUTHORIZATION=f"Bearer {side.secret}")
    base = f"/api/v1/workspaces/{side.slug}"
    facets = ["status", "content_type", "topic"] if flags["facets"] else None
    ranked = {"query": query, "top_k": 50, "facets": facets}
    keyword = {"typo_tolerance": flags["typo_tolerance"], "prefix": flags["prefix"]}
    answers: dict[str, Any] = {}
    for name, path, body in [("semantic", "semantic", ranked), ("hybrid", "hybrid", {**ranked, **keyword}),
                             ("agentic", "agentic", {**ranked, **keyword, "queries": [query, "refund policy"]})]:
        response = client.post(f"{base}/search/{path}", json.dumps({k: v for k, v in body.items() if v is not None}),
                               content_type="application/json")
        answers[f"API {name}"] = (response.status_code, normal(response.json()))
    # Full-text and suggest take the last word: a substring, or what is being typed.
    word = query.split()[-1]
    params = {"q": word, "limit": 50, **({"facets": facets} if facets else {})}
    response = client.get(f"{base}/search/entries", params)
    answers["API full-text"] = (response.status_code, normal(response.json()))
    response = client.get(f"{base}/search/suggest", {"q": word[:4]})
    answers["API suggest"] = (response.status_code, normal(response.json()))
    return answers


def mcp_answers(side: Side, query: str, flags: dict) -> dict[str, Any]:
    from tests.mcp_here import mcp_session_here
    from tests.search.interfaces.test_tenancy_property import tool_answer

    arguments = {
        "search_entries": {"query": query.split()[-1], "limit": 50},
        "semantic_search": {"query": query, "top_k": 50},
        "hybrid_search": {"query": query, "top_k": 50, "typo_tolerance": flags["typo_tolerance"],
                          "prefix": flags["prefix"]},
        "list_content_types": {},
    }

    async def session(back_here) -> dict[str, Any]:
        server = build_mcp_server(caller=api_key_caller(side.secret), run_sync=back_here)
        async with McpClient(server) as client:
            return {f"MCP {tool}": tool_answer(await client.call_tool(tool, args)) for tool, args in arguments.items()}

    return {name: (status, normal(body)) for name, (status, body) in mcp_session_here(session).items()}


def admin_answers(side: Side, viewer, query: str, flags: dict) -> dict[str, Any]:
    client = Client()
    client.force_login(viewer)
    answers = {}
    for mode in ("fulltext", "hybrid"):
        page = client.get(f"/admin/search/{side.slug}/", {"q": query.split()[-1] if mode == "fulltext" else query,
                                                           "mode": mode,
                                                           "typo_tolerance": str(flags["typo_tolerance"]).lower()})
        answers[f"admin search ({mode})"] = (page.status_code, page_text(page.content.decode()))
    workspace_id = services_workspace_id(side.slug)
    for name, path in [("promotions", "/admin/cms/promotion/"), ("entries", "/admin/cms/entry/")]:
        page = client.get(path, {"workspace__id__exact": workspace_id})
        answers[f"admin {name} list"] = (page.status_code, page_text(page.content.decode()))
    return {**answers, **status_answers(side, client)}


def status_answers(side: Side, client: Client) -> dict[str, Any]:
    """The ingestion status pages as `client` sees them: the index's line for this workspace,
    the workspace's page and its live fragment (the counts, vectors per model and usage)."""
    index = client.get("/admin/ingestion/status/")
    line = re.search(rf'<tr data-workspace="{side.slug}">.*?</tr>', index.content.decode(), re.S)
    answers = {"admin status index line": (index.status_code, fragment_text(line.group(0)) if line else "")}
    for name, params in [("admin status page", {}), ("admin status live fragment", {"fragment": "live"})]:
        page = client.get(f"/admin/ingestion/status/{side.slug}/", params)
        answers[name] = (page.status_code, fragment_text(page.content.decode()))
    return answers


def fragment_text(html: str) -> str:
    """page_text of a page, or of a part of one (a table row, the live fragment, a bare 403)."""
    return page_text(html if 'id="content"' in html else f'<div id="content">{html}')


def editor_sees_the_drafts_in_the_status(plain: Side, drafted: Side, editor) -> None:
    """The other side of the status pages' property: an editor gets them, drafts counted."""
    client = Client()
    client.force_login(editor)
    without, with_drafts = status_answers(plain, client), status_answers(drafted, client)
    for name, (status, text) in without.items():
        assert status == with_drafts[name][0] == 200, name
        assert text != with_drafts[name][1], (name, "the drafts' chunks are not counted")


def services_workspace_id(slug: str) -> int:
    from cms.models import Workspace

    return Workspace.objects.get(slug=slug).pk


def difference(a: Any, b: Any, path: str = "") -> list[str]:
    """Where two answers differ, for the failure message."""
    if isinstance(a, dict) and isinstance(b, dict):
        return [d for k in sorted(set(a) | set(b)) for d in difference(a.get(k), b.get(k), f"{path}.{k}")]
    if a != b:
        return [f"{path}: {json.dumps(a, ensure_ascii=False)[:300]} != {json.dumps(b, ensure_ascii=False)[:300]}"]
    return []


# --- the property --------------------------------------------------------------------------------------

def test_a_published_only_caller_gets_the_same_answers_with_or_without_drafts():
    tally = Tally()

    @settings(max_examples=EXAMPLES)
    @given(published=published_specs, drafts=draft_specs, probes=st.lists(query_specs, min_size=1, max_size=2))
    def same_answers(published, drafts, probes) -> None:
        with rolled_back():
            viewer = UserFactory(username="viewer", is_staff=True)
            editor = UserFactory(username="editor", is_staff=True)
            plain = side_build("acme", published, [], viewer, editor)
            drafted = side_build("globex", published, drafts, viewer, editor)
            chunks_embed_pending()
            keyword_stats_compact_all()
            editor_sees_the_drafts_in_the_status(plain, drafted, editor)
            for words, flags in probes:
                query = " ".join(words)
                interfaces: list[Callable[[Side], dict[str, Any]]] = [
                    lambda side: api_answers(side, query, flags),
                    lambda side: mcp_answers(side, query, flags),
                    lambda side: admin_answers(side, viewer, query, flags),
                ]
                for answers_of in interfaces:
                    without, with_drafts = answers_of(plain), answers_of(drafted)
                    for name, answer in without.items():
                        assert with_drafts[name] == answer, (name, query, flags,
                                                             difference(answer[1], with_drafts[name][1]))
                        status, body = answer
                        found = status == 200 and bool(body.get("results") or body.get("sources")
                                                        or body.get("suggestions")) if isinstance(body, dict) \
                            else status == 200
                        tally.record(name, "same, with results" if found else f"same, {status} empty")

    same_answers()
    for line in sorted({interface for interface, _ in tally.outcomes}):
        figure_record(f"drafts-or-not property, {tally.summary(line)}")
    assert any(outcome == "same, with results" for _, outcome in tally.outcomes), tally.outcomes
