"""Full-text search's `filter`: the chunk searches' filter language on entries, in every plan,
the did-you-mean checks and pinned entries, within the caller's visibility, alike in the API,
MCP and the command."""

from __future__ import annotations

import json
import random

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import override_settings
from mcp.server.mcpserver.exceptions import ToolError

from cms import services
from cms.access import WorkspaceAccess
from cms.models import Entry, EntryStatus, Role
from ingestion.embeddings import reset_embedding_backends
from search.engine import fulltext_plans
from search.contract.errors import SearchError
from search.engine.fulltext import SearchPlan, search_entries
from tests.factories import WorkspaceFactory, api_key_make, bearer, entry_make, full_access
from tests.mcp_here import mcp_call_here
from tests.module_rows import rows_for_the_module
from tests.search.pipeline_helpers import (  # noqa: F401 - fake_embeddings is a fixture
    FAKE_BACKEND, embed_all, fake_embeddings, field, semantic_type, titles_found)

pytestmark = pytest.mark.django_db

URL = "/api/v1/workspaces/acme/search/entries"
FIELDS = [{**field("tags", "tags"), "facet": True}, field("featured", "boolean"),
          {**field("price", "number"), "facet": True, "facet_ranges": [10, 100]}, field("released", "date"),
          field("category", "text")]
SPECS = [
    {"tags": {"$in": ["sale"]}},
    {"tags": "sale", "featured": True},
    {"price": {"$gte": 10, "$lt": 100}},
    {"released": {"$gte": "2024-02-01", "$lt": "2024-03-01"}},
    {"$or": [{"content_type": "faq"}, {"category": "shoes"}]},
    {"tags": {"$nin": ["sale", "new"]}},
    {"$not": {"status": "published"}},
    {"category": {"$exists": False}},
    {"fields.price": {"$not": {"$gt": 50}}, "source_kind": "entry"},
]


@pytest.fixture(scope="module")
def _shop_rows(django_db_setup, django_db_blocker):
    """40 entries with every kind of field, and another workspace whose entries match every filter:
    made once for the module's ~50 tests (each test's transaction rolls back its own, tests/module_rows.py)."""
    def build():
        with override_settings(SEARCH_EMBEDDING_BACKENDS={"default": FAKE_BACKEND}):
            reset_embedding_backends()
            try:
                workspace, other_workspace = WorkspaceFactory(slug="acme"), WorkspaceFactory(slug="globex")
                rng = random.Random(20)
                kinds = [semantic_type(workspace, api_id, FIELDS) for api_id in ("article", "faq")]
                for i in range(40):
                    data = {"tags": rng.sample(["new", "sale", "used"], rng.randint(0, 2)),
                            "featured": rng.choice([True, False]), "price": rng.choice([5, 50, 500]),
                            "released": f"2024-0{rng.randint(1, 3)}-15", "category": rng.choice(["shoes", "hats", None])}
                    entry_make(kinds[i % 2], status="draft" if i % 7 == 0 else "published", title=f"widget {i}",
                               body=f"<p>Widget notes {i}.</p>", **{k: v for k, v in data.items() if v not in (None, [])})
                other = semantic_type(other_workspace, "faq", FIELDS)
                entry_make(other, title="widget elsewhere", body="<p>Widget notes.</p>", tags=["sale"], featured=True,
                           price=50, released="2024-02-15", category="shoes")
                embed_all()
                return workspace
            finally:
                reset_embedding_backends()

    yield from rows_for_the_module(django_db_blocker, build)


@pytest.fixture
def shop(_shop_rows, fake_embeddings):
    return _shop_rows


@pytest.fixture
def workspace(_shop_rows):
    """The module's acme (made once above): a test that names `workspace` adds its rows to it."""
    return _shop_rows


def full_text_titles(workspace, spec, **options) -> set[str]:
    result = search_entries(access=full_access(workspace), query="widget", filter=spec, limit=100, **options)
    return {Entry.objects.get(pk=hit.entry_id).title for hit in result.hits}


@pytest.mark.parametrize("spec", SPECS, ids=[json.dumps(spec) for spec in SPECS])
def test_a_filter_finds_the_entries_whose_chunks_it_finds(shop, spec):
    # The same filter, the same entries: full-text reads the entry row, semantic its chunks' metadata.
    found = full_text_titles(shop, spec)

    assert found == titles_found(shop, spec)
    assert found and found != full_text_titles(shop, None)


def test_a_filter_narrows_within_the_content_type_option(shop):
    assert full_text_titles(shop, {"tags": "sale"}, content_type="faq") == titles_found(
        shop, {"tags": "sale"}, content_type="faq")


# Module constants that force each plan (search/engine/fulltext_plans.py): the recent scan reads the whole
# workspace; a first scan of 8 rows, then the longer scan; a scan of one row, then the index.
PLANS = {
    "recent_scan": ({"RECENT_SCAN_MIN_ROWS": 10_000, "RECENT_SCAN_MAX_ROWS": 10_000}, SearchPlan.RECENT_SCAN),
    "longer_recent_scan": ({"RECENT_SCAN_MIN_ROWS": 8, "RECENT_SCAN_ROWS_PER_HIT": 1,
                            "RECENT_SCAN_EXTEND_MIN_RATE": 1e-9, "RECENT_SCAN_EXTEND_MARGIN": 1_000,
                            "RECENT_SCAN_EXTEND_MAX_ROWS": 10_000}, SearchPlan.RECENT_SCAN),
    "gram_index": ({"RECENT_SCAN_MIN_ROWS": 1, "RECENT_SCAN_ROWS_PER_HIT": 0, "RECENT_SCAN_EXTEND_MIN_RATE": 2.0},
                   SearchPlan.GRAM_INDEX),
}


@pytest.mark.parametrize("plan", list(PLANS))
@pytest.mark.parametrize("offset", [0, 3])
def test_every_plan_pages_through_the_filtered_entries_newest_first(shop, monkeypatch, plan, offset):
    constants, expected_plan = PLANS[plan]
    for name, value in constants.items():
        monkeypatch.setattr(fulltext_plans, name, value)
    spec = {"tags": {"$in": ["sale"]}, "price": {"$lt": 100}}
    matching = [e.pk for e in Entry.objects.filter(workspace=shop).order_by("-created_at", "-id")
                if "sale" in e.data.get("tags", []) and e.data["price"] < 100]
    assert len(matching) > offset + 4

    result = search_entries(access=full_access(shop), query="widget", filter=spec, limit=4, offset=offset)

    assert result.plan == expected_plan
    assert [hit.entry_id for hit in result.hits] == matching[offset:offset + 4]
    assert result.has_more == (len(matching) > offset + 4)


def test_without_the_filter_the_same_page_holds_other_entries(shop):
    # The test above would pass for a filter that is ignored only if every entry matched it.
    spec = {"tags": {"$in": ["sale"]}, "price": {"$lt": 100}}
    unfiltered = search_entries(access=full_access(shop), query="widget", limit=4)
    filtered = search_entries(access=full_access(shop), query="widget", limit=4, filter=spec)

    assert [h.entry_id for h in unfiltered.hits] != [h.entry_id for h in filtered.hits]


def test_an_empty_filter_is_no_filter(shop):
    assert full_text_titles(shop, {}) == full_text_titles(shop, None)


def test_did_you_mean_offers_only_corrections_the_filter_lets_through(doc_type, workspace):
    tagged = semantic_type(workspace, "note", [field("tags", "tags")])
    entry_make(tagged, title="Refund policy", body="<p>Refunds within 30 days.</p>", tags=["sale"])

    assert search_entries(access=full_access(workspace), query="refnud", filter={"tags": "sale"}).suggestions == (
        "refund",)
    assert search_entries(access=full_access(workspace), query="refnud", filter={"tags": "used"}).suggestions == ()


def test_a_pinned_entry_the_filter_leaves_out_is_not_pinned(shop):
    entries = {e.title: e for e in Entry.objects.filter(workspace=shop)}
    on_sale = next(e for e in entries.values() if "sale" in e.data.get("tags", []))
    not_on_sale = next(e for e in entries.values() if "sale" not in e.data.get("tags", []))
    services.promotion_create(workspace=shop, phrase="widget", entry=not_on_sale)
    services.promotion_create(workspace=shop, phrase="widget", entry=on_sale)

    result = search_entries(access=full_access(shop), query="widget", filter={"tags": "sale"})

    assert result.hits[0].entry_id == on_sale.pk and result.hits[0].promoted
    assert not_on_sale.pk not in [hit.entry_id for hit in result.hits]


# --- what the caller may see ------------------------------------------------------------------

def test_a_viewer_asking_for_drafts_through_the_filter_is_refused(shop):
    viewer = WorkspaceAccess(workspace=shop, role=Role.VIEWER, include_drafts=False)

    with pytest.raises(SearchError) as refused:
        search_entries(access=viewer, query="widget", filter={"$or": [{"status": "draft"}, {"tags": "sale"}]})

    assert (refused.value.code, refused.value.status) == ("status_not_visible", 403)


def test_a_viewers_filter_that_excludes_drafts_finds_only_published_entries(shop):
    viewer = WorkspaceAccess(workspace=shop, role=Role.VIEWER, include_drafts=False)

    result = search_entries(access=viewer, query="widget", filter={"status": {"$ne": "draft"}, "tags": "sale"},
                            limit=100)

    assert result.hits and {hit.status for hit in result.hits} == {EntryStatus.PUBLISHED}


def test_a_published_only_key_cannot_filter_to_drafts_through_the_api(client, shop):
    _, secret = api_key_make(shop)

    response = client.get(URL, {"q": "widget", "filter": '{"status": "draft"}'}, **bearer(secret))

    assert response.status_code == 403
    assert response.json()["code"] == "status_not_visible"


# --- bad filters: the same 400 codes in every interface ----------------------------------------

BAD_FILTERS = [
    ('{"colour": "red"}', "unknown_filter_key"),
    ('{"price": {"$near": 3}}', "unknown_operator"),
    ('{"price": {"$gt": "cheap"}}', "filter_type_mismatch"),
    ('["sale"]', "invalid_filter"),
    ('"sale"', "invalid_filter"),
    ('{"$and": []}', "invalid_filter"),
    ('{"tags": "sale"', "malformed_json"),
    ("[" * 100 + "]" * 100, "json_too_deep"),
]


@pytest.mark.parametrize(("text", "code"), BAD_FILTERS)
def test_a_bad_filter_is_a_400_with_its_code_from_the_api(client, shop, text, code):
    _, secret = api_key_make(shop, include_drafts=True)

    response = client.get(URL, {"q": "widget", "filter": text}, **bearer(secret))

    assert (response.status_code, response.json()["code"]) == (400, code)
    assert response.json()["message"]


@pytest.mark.parametrize(("text", "code"), [(t, c) for t, c in BAD_FILTERS if c not in ("malformed_json",
                                                                                         "json_too_deep")])
def test_a_bad_filter_is_a_tool_error_with_its_code_from_mcp(shop, text, code):
    access = full_access(shop)

    with pytest.raises(ToolError) as refused:
        mcp_call_here(lambda: access, "search_entries", {"query": "widget", "filter": json.loads(text)})

    assert json.loads(str(refused.value))["code"] == code


def test_the_mcp_tool_filters_and_refuses_drafts_to_a_published_only_caller(shop):
    viewer = WorkspaceAccess(workspace=shop, role=Role.VIEWER, include_drafts=False)

    answer = mcp_call_here(lambda: viewer, "search_entries",
                           {"query": "widget", "filter": {"tags": "sale"}, "limit": 100}).structured_content
    with pytest.raises(ToolError) as refused:
        mcp_call_here(lambda: viewer, "search_entries", {"query": "widget", "filter": {"status": "draft"}})

    assert {hit["id"] for hit in answer["results"]} == {
        e.pk for e in Entry.objects.filter(workspace=shop, status="published") if "sale" in e.data.get("tags", [])}
    assert json.loads(str(refused.value))["code"] == "status_not_visible"


@pytest.mark.parametrize(("text", "code"), BAD_FILTERS[:3])
def test_a_bad_filter_is_refused_with_its_code_by_the_command(shop, text, code):
    with pytest.raises(CommandError) as refused:
        call_command("search_entries", "acme", "widget", "--filter", text)

    assert str(refused.value).startswith(f"[{code}]")


def test_the_command_filters(shop, capsys):
    call_command("search_entries", "acme", "widget", "--filter", '{"tags": "sale"}', "--limit", "100", "--json")

    found = {hit["id"] for hit in json.loads(capsys.readouterr().out)["results"]}
    assert found == {e.pk for e in Entry.objects.filter(workspace=shop) if "sale" in e.data.get("tags", [])}
