"""POST /api/v1/workspaces/<slug>/search/hybrid: the semantic request/response shape plus fusion, per-leg scores, coded errors."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from ingestion.services import chunks_embed_pending
from tests.factories import ContentTypeFactory, MembershipFactory, UserFactory, WorkspaceFactory, entry_make

pytestmark = pytest.mark.django_db

URL = "/api/v1/workspaces/{slug}/search/hybrid"


@pytest.fixture
def api(editor):
    client = APIClient()
    client.force_login(editor)
    return client


@pytest.fixture
def docs(workspace):
    doc_type = ContentTypeFactory(workspace=workspace, api_id="doc", semantic_search_enabled=True)
    entry_make(doc_type, title="Returns", body="<p>Refunds: return any unused item within 30 days.</p>", version=2)
    entry_make(doc_type, title="Shipping", body="<p>Parcels ship within two business days.</p>", version=1)
    return doc_type


@pytest.fixture
def embedded(local_embeddings, docs, workspace):
    chunks_embed_pending(workspace=workspace)


def post(client, body, slug="acme"):
    return client.post(URL.format(slug=slug), data=json.dumps(body), content_type="application/json")


def test_answers_in_the_semantic_shape_with_per_leg_scores(api, embedded):
    response = post(api, {"query": "refund for an unused item", "top_k": 2})

    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"relevant_context", "sources", "meta"}
    top = body["sources"][0]
    assert top["metadata"]["title"] == "Returns"
    # holds_words (issue #51): the query reads as keywords and Returns holds every one of its words.
    assert set(top) == {"id", "score", "document", "metadata", "legs", "passages", "confidence", "holds_words"}
    assert top["holds_words"] is True
    assert top["legs"]["keyword"]["rank"] == 1 and top["legs"]["keyword"]["score"] > 0
    assert top["legs"]["semantic"]["rank"] is not None
    assert body["meta"]["legs_used"] == ["keyword", "semantic"]
    assert body["relevant_context"].startswith("[1] Returns\n")


def test_fusion_overrides_are_accepted(api, embedded):
    body = post(api, {"query": "refund", "fusion": "rrf", "keyword_weight": 0.8, "semantic_weight": 0.2}).json()

    assert body["meta"]["fusion"] == "rrf"
    assert body["meta"]["weights"] == {"keyword": 0.8, "semantic": 0.2, "source": "request"}


def test_include_sources_false_leaves_only_context_and_meta(api, embedded):
    body = post(api, {"query": "refund", "include_sources": False}).json()

    assert "sources" not in body and body["relevant_context"]


def test_filter_narrows_results(api, embedded):
    # The floor off: "refund parcels" is only half about shipping, and this is about the filter.
    body = post(api, {"query": "refund parcels", "filter": {"version": 1}, "min_confidence": 0}).json()

    assert [s["metadata"]["title"] for s in body["sources"]] == ["Shipping"]


def test_without_a_provider_answers_from_keywords_and_says_why(api, docs, no_embeddings):
    response = post(api, {"query": "refund"})

    assert response.status_code == 200
    body = response.json()
    assert body["meta"]["legs_used"] == ["keyword"]
    assert body["meta"]["degraded"]["semantic"]["code"] == "not_configured"
    assert body["meta"]["model"] is None
    assert body["sources"][0]["metadata"]["title"] == "Returns"


def test_rerank_without_a_reranker_is_not_configured(api, docs, no_embeddings):
    response = post(api, {"query": "refund", "rerank": True})

    assert response.status_code == 503
    assert response.json()["code"] == "not_configured"


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"query": "refund", "fusion": "max"}, "fusion_invalid"),
        ({"query": "refund", "keyword_weight": -1}, "keyword_weight_out_of_range"),
        ({"query": "refund", "bogus": 1}, "unknown_parameter"),
        ({"query": "refund", "min_score": 2}, "min_score_out_of_range"),
        ({"top_k": 3}, "query_empty"),
        ({"query": "refund", "typo_tolerance": None}, "typo_tolerance_invalid"),
        ({"query": "refund", "rerank": None}, "rerank_invalid"),
    ],
)
def test_bad_input_is_a_coded_400(api, docs, no_embeddings, body, code):
    response = post(api, body)

    assert response.status_code == 400
    assert response.json()["code"] == code


def test_other_workspace_is_not_found(api, docs, no_embeddings):
    other = WorkspaceFactory(slug="globex")
    entry_make(ContentTypeFactory(workspace=other, api_id="doc", semantic_search_enabled=True),
               title="Secret", body="<p>Refund secrets.</p>")

    assert post(api, {"query": "refund"}, slug="globex").status_code == 404


def test_viewer_gets_published_chunks_only(docs, no_embeddings, workspace):
    entry_make(docs, title="Draft refunds", body="<p>Refund plan for next year.</p>", status="draft")
    viewer = UserFactory()
    MembershipFactory(user=viewer, workspace=workspace, role="viewer")
    client = APIClient()
    client.force_login(viewer)

    titles = [s["metadata"]["title"] for s in post(client, {"query": "refund", "top_k": 10}).json()["sources"]]

    assert "Returns" in titles and "Draft refunds" not in titles
