"""POST /api/v1/workspaces/<slug>/search/agentic: hybrid's request plus `queries`, hybrid's response plus the path."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from tests.factories import ContentTypeFactory, MembershipFactory, UserFactory, WorkspaceFactory, api_key_make, bearer, entry_make

pytestmark = pytest.mark.django_db

URL = "/api/v1/workspaces/{slug}/search/agentic"
QUESTION = "How do I reset my password when the reset link expired, and what is the refund window?"


@pytest.fixture
def api(editor):
    client = APIClient()
    client.force_login(editor)
    return client


@pytest.fixture
def docs(workspace, no_embeddings):
    doc_type = ContentTypeFactory(workspace=workspace, api_id="doc", semantic_search_enabled=True)
    for i in range(4):
        entry_make(doc_type, title=f"Password {i}", body=f"<p>Reset your password: the reset link expired? "
                   f"Ask for a new password reset link ({i}).</p>")
    entry_make(doc_type, title="Refunds", body="<p>The refund window is 30 days.</p>", version=2)
    return doc_type


def post(client, body, slug="acme"):
    return client.post(URL.format(slug=slug), data=json.dumps(body), content_type="application/json")


def test_answers_in_hybrids_shape_with_the_path_and_parts(api, docs):
    response = post(api, {"query": QUESTION, "top_k": 2})

    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"relevant_context", "sources", "meta"}
    assert [s["metadata"]["title"] for s in body["sources"]][1] == "Refunds"
    assert set(body["sources"][0]) == {"id", "score", "document", "metadata", "legs", "passages"}
    meta = body["meta"]
    assert (meta["search"], meta["path"], meta["fallback_reason"]) == ("agentic", "agentic", None)
    assert meta["parts"] == ["How do I reset my password when the reset link expired?", "What is the refund window?"]
    # One row per entry: the parts place chunks among the chunks ranked to fill the page.
    assert all(p["returned"] >= 1 for p in meta["part_results"])
    assert sum(p["returned"] for p in meta["part_results"]) == meta["chunks_ranked"]


def test_queries_from_the_caller(api, docs):
    body = post(api, {"query": QUESTION, "queries": ["password reset link", "refund window"], "top_k": 2}).json()

    assert (body["meta"]["parts"], body["meta"]["parts_source"]) == (["password reset link", "refund window"], "request")


def test_a_fallback_is_a_200_that_says_why(api, docs):
    response = post(api, {"query": QUESTION, "queries": ["refund window", "and the?"]})

    assert response.status_code == 200
    meta = response.json()["meta"]
    assert (meta["path"], meta["fallback_reason"]["code"]) == ("standard", "no_searchable_terms")


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"query": QUESTION, "queries": "refund"}, "queries_invalid"),
        ({"query": QUESTION, "queries": []}, "queries_empty"),
        ({"query": QUESTION, "queries": ["a"] * 9}, "queries_too_many"),
        ({"query": QUESTION, "queries": ["a" * 2001]}, "queries_too_long"),
        ({"query": QUESTION, "fusion": "max"}, "fusion_invalid"),
        ({"query": QUESTION, "bogus": 1}, "unknown_parameter"),
        ({"queries": ["refund"]}, "query_empty"),
    ],
)
def test_bad_input_is_a_coded_400(api, docs, body, code):
    response = post(api, body)

    assert response.status_code == 400
    assert response.json()["code"] == code


def test_rerank_without_a_reranker_is_not_configured(api, docs):
    response = post(api, {"query": QUESTION, "rerank": True})

    assert (response.status_code, response.json()["code"]) == (503, "not_configured")


def test_other_workspace_is_not_found(api, docs):
    other = WorkspaceFactory(slug="globex")
    entry_make(ContentTypeFactory(workspace=other, api_id="doc", semantic_search_enabled=True),
               title="Secret", body="<p>Refund secrets.</p>")

    assert post(api, {"query": QUESTION}, slug="globex").status_code == 404


def test_a_published_only_key_gets_no_draft_from_any_part(docs, workspace):
    entry_make(docs, title="Draft refunds", body="<p>Refund window draft.</p>", status="draft")
    entry_make(docs, title="Draft password", body="<p>Password reset link draft.</p>", status="draft")
    client = APIClient()
    _, secret = api_key_make(workspace)

    body = client.post(URL.format(slug="acme"), data=json.dumps({"query": QUESTION, "top_k": 100}),
                       content_type="application/json", **bearer(secret)).json()

    assert body["meta"]["path"] == "agentic"
    assert {s["metadata"]["status"] for s in body["sources"]} == {"published"}


def test_a_viewer_gets_no_draft_from_any_part(docs, workspace):
    entry_make(docs, title="Draft refunds", body="<p>Refund window draft.</p>", status="draft")
    viewer = UserFactory()
    MembershipFactory(user=viewer, workspace=workspace, role="viewer")
    client = APIClient()
    client.force_login(viewer)

    titles = [s["metadata"]["title"] for s in post(client, {"query": QUESTION, "top_k": 100}).json()["sources"]]

    assert "Refunds" in titles and "Draft refunds" not in titles


def test_no_searchable_word_with_the_semantic_leg_off_is_a_coded_400(api, docs):
    # Found by the API fuzzer on a random seed (schemathesis, 2026-12-02): an astral character
    # and a control character, RRF with the semantic weight 0. It is schema-valid, and the
    # answer is a 400 that says why, in hybrid's words (not a 500, not an empty 200).
    body = {"content_type": None, "query": "\U0005c5c5\x06\U0005c5c5", "ef_search": None, "filter": None,
            "fusion": "rrf", "include_sources": False, "min_score": None, "rerank_weights": {},
            "semantic_weight": 0.0, "typo_tolerance": False}
    response = post(api, body)

    assert response.status_code == 400
    assert response.json()["code"] == "no_searchable_terms"
    assert "semantic leg is off" in response.json()["message"]
    # With a searchable word the same request answers from the keyword leg.
    answered = post(api, {**body, "query": "refund \U0005c5c5"})
    assert answered.status_code == 200
    assert answered.json()["meta"]["legs_used"] == ["keyword"]
