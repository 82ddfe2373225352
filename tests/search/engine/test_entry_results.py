"""One row per entry (issue 34): no entry twice on a page, `passages`, raw_chunks, top_k counts
entries, a promoted entry once, short fields as context, in the API, MCP, the command and the admin."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from cms import services
from cms.access import workspace_access_for_api_key
from ingestion.models import Chunk
from search.engine.entry_results import MAX_PASSAGES, hits_by_entry
from search.kinds import SEARCH_KINDS
from tests.factories import api_key_make, entry_make, full_access
from tests.mcp_here import mcp_call_here
from tests.search.pipeline_helpers import embed_all, fake_embeddings, field, semantic_type  # noqa: F401

pytestmark = pytest.mark.django_db
CHUNK_KINDS = ["semantic_search", "hybrid_search", "agentic_search"]
# Three sections: three chunks of one entry, each about refunds.
LONG_BODY = "".join(f"<h2>Refund part {n}</h2><p>{'Refunds are paid back to the card within days. ' * 9}</p>"
                    for n in range(3))


@pytest.fixture
def shop(fake_embeddings, workspace):
    kind = semantic_type(workspace, "faq", [{**field("category", "text"), "facet": True}])
    entries = {
        "long": entry_make(kind, title="Refund guide", body=LONG_BODY, category="Payments"),
        "short": entry_make(kind, title="Refund desk", body="<p>Refunds at the desk.</p>", category="Shipping"),
        "other": entry_make(kind, title="Returns", body="<p>Refund a return by post.</p>", category="Shipping"),
        "draft": entry_make(kind, status="draft", title="Refund draft", body=LONG_BODY, category="Secret"),
    }
    embed_all()
    return workspace, entries


def entry_ids(body: dict) -> list[int]:
    return [source["metadata"]["entry_id"] for source in body["sources"]]


def test_hits_by_entry_keeps_the_first_hit_and_bounds_the_passages():
    from search.contract.results import ChunkHit

    def hit(chunk_id, entry_id):
        return ChunkHit(id=chunk_id, score=1 - chunk_id / 100, text=f"t{chunk_id}", title="", field="body",
                        ordinal=chunk_id, source_kind="entry", entry_id=entry_id, asset_id=None, metadata={})

    rows = hits_by_entry([hit(1, 7), hit(2, 8), *[hit(n, 7) for n in range(3, 10)]])

    assert [(row.id, row.entry_id) for row in rows] == [(1, 7), (2, 8)]
    assert [p.id for p in rows[0].passages] == [3, 4, 5][:MAX_PASSAGES] and rows[1].passages == ()


@pytest.mark.parametrize("kind", CHUNK_KINDS)
def test_an_entry_appears_once_with_its_other_passages(shop, kind):
    workspace, entries = shop
    body = SEARCH_KINDS[kind].search(full_access(workspace), {"query": "refunds paid to the card"},
                                     interface="api").as_dict()
    raw = SEARCH_KINDS[kind].search(full_access(workspace), {"query": "refunds paid to the card", "raw_chunks": True},
                                    interface="api").as_dict()

    ids = entry_ids(body)
    assert len(ids) == len(set(ids)) and entries["long"].pk in ids
    long_row = body["sources"][ids.index(entries["long"].pk)]
    assert len(long_row["passages"]) == 2 and all(p["id"] != long_row["id"] for p in long_row["passages"])
    assert body["meta"]["results"] == "entries"
    assert entry_ids(raw).count(entries["long"].pk) == 3 and raw["meta"]["results"] == "chunks"
    assert all("passages" not in source for source in raw["sources"])


@pytest.mark.parametrize("kind", CHUNK_KINDS)
def test_top_k_counts_entries(shop, kind):
    workspace, entries = shop
    body = SEARCH_KINDS[kind].search(full_access(workspace), {"query": "refund", "top_k": 3}, interface="api").as_dict()
    raw = SEARCH_KINDS[kind].search(full_access(workspace), {"query": "refund", "top_k": 3, "raw_chunks": True},
                                    interface="api").as_dict()

    assert len(set(entry_ids(body))) == 3 == len(body["sources"]) == body["meta"]["returned"]
    assert body["meta"]["top_k"] == 3 and len(raw["sources"]) == 3


@pytest.mark.parametrize("kind", CHUNK_KINDS)
def test_a_promoted_entry_appears_once_pinned(shop, kind):
    workspace, entries = shop
    services.promotion_create(workspace=workspace, phrase="refund", entry=entries["long"])

    body = SEARCH_KINDS[kind].search(full_access(workspace), {"query": "refund"}, interface="api").as_dict()

    assert entry_ids(body)[0] == entries["long"].pk and body["sources"][0]["promoted"] is True
    assert entry_ids(body).count(entries["long"].pk) == 1


def test_a_published_only_caller_sees_no_draft_passage(shop):
    workspace, entries = shop
    key, _ = api_key_make(workspace, include_drafts=False)
    draft_chunks = set(Chunk.objects.filter(entry=entries["draft"]).values_list("id", flat=True))
    for kind in CHUNK_KINDS:
        body = SEARCH_KINDS[kind].search(workspace_access_for_api_key(api_key=key), {"query": "refunds paid"},
                                         interface="api").as_dict()
        shown = {s["id"] for s in body["sources"]} | {p["id"] for s in body["sources"] for p in s["passages"]}
        assert entries["draft"].pk not in entry_ids(body) and not shown & draft_chunks


def test_a_category_is_context_not_a_chunk_and_still_filters_and_facets(shop):
    workspace, entries = shop
    chunks = list(Chunk.objects.filter(entry=entries["short"]))

    assert [c.field for c in chunks] == ["body"]
    assert chunks[0].text.endswith("\nCategory: Shipping")
    body = SEARCH_KINDS["hybrid_search"].search(
        full_access(workspace), {"query": "refund", "filter": {"category": "Shipping"}, "facets": ["category"]},
        interface="api").as_dict()
    assert sorted(entry_ids(body)) == sorted([entries["short"].pk, entries["other"].pk])
    assert body["facets"]["category"]["Shipping"] == 2


def test_the_api_answers_entries_and_raw_chunks(shop, editor):
    workspace, entries = shop
    client = APIClient()
    client.force_login(editor)
    url = f"/api/v1/workspaces/{workspace.slug}/search/hybrid"

    grouped = client.post(url, data=json.dumps({"query": "refunds paid"}), content_type="application/json").json()
    raw = client.post(url, data=json.dumps({"query": "refunds paid", "raw_chunks": True}),
                      content_type="application/json").json()
    bad = client.post(url, data=json.dumps({"query": "refunds paid", "raw_chunks": "yes"}),
                      content_type="application/json")

    assert len(entry_ids(grouped)) == len(set(entry_ids(grouped))) and "passages" in grouped["sources"][0]
    assert entry_ids(raw).count(entries["long"].pk) == 3
    assert bad.status_code == 400 and bad.json()["code"] == "raw_chunks_invalid"


def test_the_command_prints_each_entry_once(shop):
    workspace, entries = shop
    out = StringIO()
    call_command("hybrid_search", workspace.slug, "refunds paid", "--json", stdout=out)
    body = json.loads(out.getvalue())

    assert len(entry_ids(body)) == len(set(entry_ids(body)))


def test_mcp_answers_each_entry_once_and_raw_chunks_when_asked(shop):
    workspace, entries = shop
    access = full_access(workspace)

    body = mcp_call_here(lambda: access, "semantic_search", {"query": "refunds paid to the card"}).structured_content
    raw = mcp_call_here(lambda: access, "semantic_search",
                        {"query": "refunds paid to the card", "raw_chunks": True}).structured_content

    assert entry_ids(raw).count(entries["long"].pk) == 3
    assert len(entry_ids(body)) == len(set(entry_ids(body))) and body["meta"]["results"] == "entries"


def test_the_admin_shows_one_row_per_entry_and_more_passages(shop, client, editor):
    workspace, entries = shop
    client.force_login(editor)
    html = client.get(f"/admin/search/{workspace.slug}/", {"q": "refunds paid to the card", "mode": "semantic"}
                      ).content.decode()

    assert html.count('data-chunk-id=') == len(set(Chunk.objects.filter(
        status="embedded", entry__status="published").values_list("entry_id", flat=True)) | {entries["draft"].pk})
    assert "2 more passages" in html and '<details class="passages">' in html


@pytest.mark.parametrize("kind", CHUNK_KINDS)
@pytest.mark.parametrize("raw_chunks", [False, True])
def test_one_validation_per_search(shop, kind, raw_chunks, monkeypatch):
    """The entry grouping hands its validated options to the chunk search it wraps, which does not
    check them again (search/contract/options.py ValidatedOptions): DRF builds a serializer's
    fields anew for each validation, 0.3 ms of a 3 ms keyword search."""
    from search.contract.options import SearchOptions

    checked = []
    is_valid = SearchOptions.is_valid

    def counted(self, **kwargs):
        checked.append(type(self))
        return is_valid(self, **kwargs)

    monkeypatch.setattr(SearchOptions, "is_valid", counted)
    workspace, _ = shop

    result = SEARCH_KINDS[kind].run(full_access(workspace), {"query": "refund", "raw_chunks": raw_chunks})

    assert result.hits and len(checked) == 1, checked


def test_options_changed_after_validation_are_checked_again():
    from search.contract.options import HybridSearchOptions, SearchInputError, ValidatedOptions

    options = HybridSearchOptions.validated({"query": "refund"})
    again = HybridSearchOptions.validated(options)

    assert isinstance(again, ValidatedOptions) and again == options and again is not options
    with pytest.raises(SearchInputError) as refused:  # a plain dict again: checked again
        HybridSearchOptions.validated({**options, "top_k": 0})
    assert refused.value.code == "top_k_out_of_range"
