"""Nested options are validated like top-level ones (review item 14: a null in rerank_weights was a 500)."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from ingestion.embeddings import reset_rerank_backends
from ingestion.services import chunks_embed_pending
from tests.factories import ContentTypeFactory, entry_make

pytestmark = pytest.mark.django_db

NULL_POSITION = {"position": None, "rerank": 0.5, "vector": 0.5}


@pytest.fixture
def api(editor):
    client = APIClient()
    client.force_login(editor)
    return client


@pytest.fixture
def fake_reranker(settings):
    settings.SEARCH_RERANK_BACKENDS = {"default": {"BACKEND": "ingestion.embeddings.fake.FakeRerankBackend"}}
    reset_rerank_backends()
    yield
    reset_rerank_backends()


@pytest.fixture
def embedded(local_embeddings, fake_reranker, workspace):
    doc_type = ContentTypeFactory(workspace=workspace, api_id="doc", semantic_search_enabled=True)
    entry_make(doc_type, title="Returns", body="<p>Refunds: return any unused item within 30 days.</p>")
    entry_make(doc_type, title="Shipping", body="<p>Parcels ship within two business days.</p>")
    chunks_embed_pending(workspace=workspace)


@pytest.mark.parametrize("kind", ["hybrid", "agentic"])
def test_null_rerank_weight_keeps_its_default(api, embedded, kind):
    response = api.post(f"/api/v1/workspaces/acme/search/{kind}", content_type="application/json",
                        data=json.dumps({"query": "refund", "rerank": True, "rerank_weights": NULL_POSITION}))

    assert response.status_code == 200, response.content
    weights = response.json()["meta"]["rerank"]["weights"]
    # rerank 0.5 : vector 0.5 : position 0.2 (its default), normalised.
    assert weights == pytest.approx({"rerank": 0.5 / 1.2, "vector": 0.5 / 1.2, "position": 0.2 / 1.2})


@pytest.mark.parametrize("kind", ["hybrid", "agentic"])
@pytest.mark.parametrize("bad", [{"position": "0.2"}, {"position": True}, {"position": [0.2]}, {"position": 2}])
def test_a_bad_nested_weight_is_a_coded_400(api, embedded, kind, bad):
    response = api.post(f"/api/v1/workspaces/acme/search/{kind}", content_type="application/json",
                        data=json.dumps({"query": "refund", "rerank_weights": bad}))

    assert response.status_code == 400, response.content
    assert response.json()["code"].startswith("rerank_weights_")


# Number literals JSON allows but a float cannot hold: an int past a float's range made
# math.isfinite raise OverflowError (a 500); 1e400 parses to infinity; NaN and Infinity are
# not JSON at all (DRF's strict parser refuses them).
HUGE = "1" + "0" * 400


@pytest.mark.parametrize("kind", ["hybrid", "agentic"])
@pytest.mark.parametrize(("option", "code"), [
    ('"keyword_weight": %s', "keyword_weight_"),
    ('"semantic_weight": %s', "semantic_weight_"),
    ('"min_score": %s', "min_score_"),
    ('"rerank": true, "rerank_weights": {"rerank": %s}', "rerank_weights_"),
    ('"rerank": true, "rerank_weights": {"position": %s, "vector": 0.5}', "rerank_weights_"),
])
@pytest.mark.parametrize("number", [HUGE, "-" + HUGE, "1e400", "-1e400"])
def test_a_number_past_a_floats_range_is_a_coded_400(api, embedded, kind, option, code, number):
    body = '{"query": "refund", ' + option % number + "}"

    response = api.post(f"/api/v1/workspaces/acme/search/{kind}", content_type="application/json", data=body)

    assert response.status_code == 400, response.content
    assert response.json()["code"].startswith(code), response.content


@pytest.mark.parametrize("kind", ["semantic", "hybrid", "agentic"])
@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_literals_anywhere_are_malformed_json(api, embedded, kind, literal):
    for body in (f'{{"query": "refund", "min_score": {literal}}}',
                 f'{{"query": "refund", "filter": {{"version": {{"$gt": {literal}}}}}}}',
                 f'{{"query": "refund", "rerank_weights": {{"rerank": {literal}}}}}'):
        response = api.post(f"/api/v1/workspaces/acme/search/{kind}", content_type="application/json", data=body)

        assert (response.status_code, response.json()["code"]) == (400, "malformed_json"), (body, response.content)
