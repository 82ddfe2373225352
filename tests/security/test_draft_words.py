"""A published-only caller learns no word that only drafts hold: not as a typo correction, not as
a prefix completion, not through the keyword leg's plan in `meta` (search/engine/dictionary.py).

Each test runs the same request as a caller who sees drafts too, so it cannot pass by the
feature doing nothing.
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from cms.models import EntryStatus, Role
from tests.factories import ContentTypeFactory, MembershipFactory, UserFactory, api_key_make, bearer, entry_make

pytestmark = pytest.mark.django_db

HYBRID = "/api/v1/workspaces/acme/search/hybrid"


@pytest.fixture
def memo(workspace):
    notes = ContentTypeFactory(workspace=workspace, api_id="note", semantic_search_enabled=True)
    entry_make(notes, title="Launch plan", body="<p>The launch plan covers pricing and partners.</p>")
    entry_make(notes, title="Nightingale acquisition memo", status=EntryStatus.DRAFT,
               body="<p>The zebra plan: nightingale buys quokkacorp next spring.</p>")
    return notes


def client_for(workspace, *, include_drafts: bool) -> APIClient:
    _, secret = api_key_make(workspace, include_drafts=include_drafts, name=f"drafts-{include_drafts}")
    client = APIClient()
    client.credentials(**bearer(secret))
    return client


def keyword_meta(client: APIClient, **body) -> dict:
    response = client.post(HYBRID, {"semantic_weight": 0, **body}, format="json")
    assert response.status_code == 200, response.content
    return response.json()["meta"]


@pytest.mark.parametrize("typed", ["zebre plan", "nightingalle", "quokkacrop"])
def test_typo_correction_never_names_a_draft_only_word(no_embeddings, memo, workspace, typed):
    viewer = keyword_meta(client_for(workspace, include_drafts=False), query=typed)
    drafts = keyword_meta(client_for(workspace, include_drafts=True), query=typed)

    assert viewer["corrections"] == [] and "corrected_query" not in viewer
    assert drafts["corrections"], "a caller who sees drafts is corrected to the draft's word"


def test_keyword_plan_counts_a_draft_only_word_as_absent(no_embeddings, memo, workspace):
    viewer = client_for(workspace, include_drafts=False)

    draft_word = keyword_meta(viewer, query="quokkacorp", typo_tolerance=False)["legs"]["keyword"]
    no_word = keyword_meta(viewer, query="quokkacorx", typo_tolerance=False)["legs"]["keyword"]

    assert draft_word == no_word
    assert draft_word["complete_terms"] == 0
    drafts = keyword_meta(client_for(workspace, include_drafts=True), query="quokkacorp", typo_tolerance=False)
    assert drafts["legs"]["keyword"]["complete_terms"] == 1


def test_prefix_completion_never_reaches_a_draft_only_word(no_embeddings, memo, workspace):
    viewer = keyword_meta(client_for(workspace, include_drafts=False), query="nighti", prefix=True)
    drafts = keyword_meta(client_for(workspace, include_drafts=True), query="nighti", prefix=True)

    assert viewer["legs"]["keyword"]["complete_terms"] == 0
    assert drafts["legs"]["keyword"]["complete_terms"] == 1


def test_keyword_candidates_count_only_chunks_the_caller_may_see(no_embeddings, memo, workspace):
    viewer = keyword_meta(client_for(workspace, include_drafts=False), query="plan")["legs"]["keyword"]
    drafts = keyword_meta(client_for(workspace, include_drafts=True), query="plan")["legs"]["keyword"]

    assert viewer["candidates"] == viewer["returned"] < drafts["candidates"]


def test_admin_search_page_of_a_viewer_shows_no_correction_to_a_draft_word(no_embeddings, memo, workspace, client):
    viewer = UserFactory(username="viewer", is_staff=True)
    MembershipFactory(user=viewer, workspace=workspace, role=Role.VIEWER)
    client.force_login(viewer)

    page = client.get("/admin/search/acme/", {"q": "zebre plan", "mode": "hybrid"})

    assert page.status_code == 200
    assert b"zebrae" not in page.content and b"Showing results for" not in page.content
    assert b"covers pricing" in page.content  # the published entry answered


def test_pending_count_in_meta_counts_no_draft_chunk(no_embeddings, memo, workspace):
    from ingestion.models import Chunk, ChunkStatus

    Chunk.objects.filter(workspace=workspace).update(status=ChunkStatus.PENDING)

    viewer = keyword_meta(client_for(workspace, include_drafts=False), query="plan")
    drafts = keyword_meta(client_for(workspace, include_drafts=True), query="plan")

    assert (viewer["pending"], drafts["pending"]) == (1, 2)
