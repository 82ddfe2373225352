"""Promoted results: pinned entries first with promoted: true in every kind, only when the caller may see them."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from cms import services
from cms.access import WorkspaceAccess, workspace_access_for_api_key
from cms.models import Promotion, Role, promotion_phrase_normalise
from search.engine.fulltext import search_entries
from search.kinds import SEARCH_KINDS
from tests.factories import MembershipFactory, UserFactory, api_key_make, entry_make, full_access
from tests.search.pipeline_helpers import embed_all, fake_embeddings, semantic_type  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture
def shop(fake_embeddings, workspace, other_workspace):
    kind = semantic_type(workspace, "faq", [])
    entries = {
        "refund": entry_make(kind, title="Refund policy", body="<p>Refunds within 30 days.</p>"),
        "shipping": entry_make(kind, title="Shipping", body="<p>Refunds do not cover shipping.</p>"),
        "returns": entry_make(kind, title="Returns desk", body="<p>Bring the parcel to the desk.</p>"),
        "draft": entry_make(kind, status="draft", title="New refund rules", body="<p>Draft refund rules.</p>"),
    }
    foreign = entry_make(semantic_type(other_workspace, "faq", []), title="Globex refund",
                         body="<p>Refunds at Globex.</p>")
    embed_all()
    return workspace, entries, foreign


def test_the_phrase_is_normalised_for_case_width_and_whitespace():
    assert promotion_phrase_normalise("  Ｒｅｆｕｎｄ\u3000 POLICY\n") == "refund policy"


def test_an_entry_of_another_workspace_cannot_be_pinned(shop):
    workspace, _, foreign = shop
    with pytest.raises(ValidationError) as caught:
        services.promotion_create(workspace=workspace, phrase="refund", entry=foreign)
    assert "entry" in caught.value.message_dict
    assert not Promotion.objects.exists()


def test_full_text_puts_the_pinned_entry_first_marked_promoted(shop):
    workspace, entries, _ = shop
    services.promotion_create(workspace=workspace, phrase="Refund", entry=entries["returns"])

    results = search_entries(access=full_access(workspace), query="ＲＥＦＵＮＤ ").as_dict()["results"]

    assert results[0]["id"] == entries["returns"].pk
    assert results[0]["promoted"] is True
    assert all("promoted" not in r for r in results[1:])
    assert [r["id"] for r in results].count(entries["returns"].pk) == 1


@pytest.mark.parametrize("kind", ["semantic_search", "hybrid_search", "agentic_search"])
def test_chunk_searches_put_the_pinned_entrys_best_chunk_first(shop, kind):
    workspace, entries, _ = shop
    services.promotion_create(workspace=workspace, phrase="refund", entry=entries["returns"])

    body = SEARCH_KINDS[kind].search(full_access(workspace), {"query": "Refund", "top_k": 3},
                                     interface="api").as_dict()

    first = body["sources"][0]
    assert first["metadata"]["entry_id"] == entries["returns"].pk
    assert first["promoted"] is True
    assert len(body["sources"]) <= 3
    assert all("promoted" not in s for s in body["sources"][1:])


@pytest.mark.parametrize("kind", ["search_entries", "semantic_search", "hybrid_search", "agentic_search"])
def test_a_pinned_draft_is_shown_to_an_editor_but_never_to_a_viewer_or_a_published_only_key(shop, kind):
    workspace, entries, _ = shop
    services.promotion_create(workspace=workspace, phrase="refund", entry=entries["draft"])
    viewer = UserFactory(username="viewer")
    MembershipFactory(user=viewer, workspace=workspace, role=Role.VIEWER)
    key, _ = api_key_make(workspace, include_drafts=False)
    search = SEARCH_KINDS[kind]

    def promoted_ids(access: WorkspaceAccess) -> list[int]:
        body = search.search(access, {"query": "refund"}, interface="api").as_dict()
        rows = body["results"] if kind == "search_entries" else body["sources"]
        return [(r["id"] if kind == "search_entries" else r["metadata"]["entry_id"]) for r in rows if r.get("promoted")]

    assert promoted_ids(full_access(workspace)) == [entries["draft"].pk]
    assert promoted_ids(WorkspaceAccess(workspace=workspace, role=Role.VIEWER, include_drafts=False)) == []
    assert promoted_ids(workspace_access_for_api_key(api_key=key)) == []


def test_pinned_entries_follow_their_position(shop):
    workspace, entries, _ = shop
    services.promotion_create(workspace=workspace, phrase="refund", entry=entries["shipping"], position=2)
    services.promotion_create(workspace=workspace, phrase="refund", entry=entries["returns"], position=1)

    results = search_entries(access=full_access(workspace), query="refund").as_dict()["results"]

    assert [r["id"] for r in results[:2]] == [entries["returns"].pk, entries["shipping"].pk]
    assert [r.get("promoted") for r in results[:3]] == [True, True, None]


@pytest.mark.parametrize("pins", [["returns"], ["shipping", "returns"], ["refund"]])
def test_full_text_pages_hold_every_entry_once_with_the_pins_first(shop, pins):
    workspace, entries, _ = shop
    for position, name in enumerate(pins):
        services.promotion_create(workspace=workspace, phrase="refund", entry=entries[name], position=position)
    access = full_access(workspace)
    whole = [r["id"] for r in search_entries(access=access, query="refund", limit=20).as_dict()["results"]]

    pages = [search_entries(access=access, query="refund", limit=1, offset=offset).as_dict()
             for offset in range(len(whole) + 1)]

    assert [entries[name].pk for name in pins] == whole[:len(pins)]
    assert [page["results"][0]["id"] for page in pages[:-1]] == whole
    assert pages[-1]["results"] == [] and len(set(whole)) == len(whole)
    assert [page["has_more"] for page in pages] == [True] * (len(whole) - 1) + [False, False]


@pytest.mark.parametrize("kind", ["semantic_search", "hybrid_search"])
def test_a_pin_below_min_score_is_not_shown(shop, kind):
    workspace, entries, _ = shop
    services.promotion_create(workspace=workspace, phrase="refund", entry=entries["returns"])
    run = SEARCH_KINDS[kind].run

    floor = run(full_access(workspace), {"query": "refund", "min_score": 0.99})
    plain = run(full_access(workspace), {"query": "refund"})

    assert entries["returns"].pk not in [hit.entry_id for hit in floor.hits]
    assert plain.hits[0].entry_id == entries["returns"].pk and plain.hits[0].promoted


def test_promotions_admin_hides_a_pinned_draft_from_a_viewer(shop, client):
    workspace, entries, _ = shop
    draft_pin = services.promotion_create(workspace=workspace, phrase="refund", entry=entries["draft"])
    services.promotion_create(workspace=workspace, phrase="refund", entry=entries["refund"], position=1)
    viewer = UserFactory(username="viewer", is_staff=True)
    MembershipFactory(user=viewer, workspace=workspace, role=Role.VIEWER)
    client.force_login(viewer)

    listing = client.get("/admin/cms/promotion/")
    change = client.get(f"/admin/cms/promotion/{draft_pin.pk}/change/")

    assert listing.status_code == 200 and b"Refund policy" in listing.content
    assert b"New refund rules" not in listing.content
    assert change.status_code == 302 or b"New refund rules" not in change.content
    editor = UserFactory(username="writer", is_staff=True)
    MembershipFactory(user=editor, workspace=workspace, role=Role.EDITOR)
    client.force_login(editor)
    assert b"New refund rules" in client.get("/admin/cms/promotion/").content
