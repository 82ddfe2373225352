"""POST /api/v1/workspaces/<slug>/search/semantic: auth, tenancy, errors as coded JSON."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from tests.factories import MembershipFactory, UserFactory, api_key_make
from tests.search.semantic_helpers import REFUND_EN, chunk_make, entry_for, plain_type

pytestmark = pytest.mark.django_db

URL = "/api/v1/workspaces/{slug}/search/semantic"


@pytest.fixture
def api(editor):
    client = APIClient()
    client.force_login(editor)
    return client


@pytest.fixture
def refund_chunk(local_embeddings, workspace):
    return chunk_make(entry_for(plain_type(workspace), title="Returns"), REFUND_EN)


def post(client, body, slug="acme"):
    return client.post(URL.format(slug=slug), data=json.dumps(body), content_type="application/json")


def test_member_gets_ranked_sources_and_context(api, refund_chunk):
    response = post(api, {"query": "返品", "top_k": 3})

    assert response.status_code == 200
    body = response.json()
    assert body["sources"][0]["id"] == refund_chunk.id
    assert body["sources"][0]["metadata"]["workspace"] == "acme"
    assert body["relevant_context"].startswith("[1] Returns\n")
    assert body["meta"]["model"] == "use-multilingual-v3"
    assert body["meta"]["pending"] == 0


def test_api_key_authentication_works(refund_chunk, workspace):
    _, secret = api_key_make(workspace)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")

    assert post(client, {"query": "refund"}).status_code == 200


def test_anonymous_caller_is_refused_with_401(refund_chunk):
    response = post(APIClient(), {"query": "refund"})

    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"


def test_non_member_gets_404_like_a_missing_workspace(refund_chunk, db):
    outsider = UserFactory(username="outsider")
    client = APIClient()
    client.force_login(outsider)

    response = post(client, {"query": "refund"})

    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
    assert post(client, {"query": "refund"}, slug="no-such-workspace").json() == response.json()


def test_member_of_another_workspace_sees_only_their_own_chunks(local_embeddings, refund_chunk, other_workspace):
    chunk_make(entry_for(plain_type(other_workspace), title="Theirs"), "Other tenant refund rules.")
    user = UserFactory(username="globex-user")
    MembershipFactory(user=user, workspace=other_workspace)
    client = APIClient()
    client.force_login(user)

    body = post(client, {"query": "refund", "top_k": 100}, slug="globex").json()

    assert [s["document"] for s in body["sources"]] == ["Other tenant refund rules."]
    assert post(client, {"query": "refund"}, slug="acme").status_code == 404


def test_no_provider_is_503_not_configured(api, no_embeddings):
    response = post(api, {"query": "refund"})

    assert response.status_code == 503
    assert response.json()["code"] == "not_configured"
    assert "EMBEDDING_PROVIDER" in response.json()["message"]


def test_malformed_json_is_400_with_code(api):
    response = api.post(URL.format(slug="acme"), data='{"query": "refund",', content_type="application/json")

    assert response.status_code == 400
    assert response.json()["code"] == "malformed_json"


def test_body_that_is_not_an_object_is_400(api):
    response = post(api, ["refund"])

    assert response.status_code == 400
    assert response.json()["code"] == "invalid_request"


def test_unknown_parameter_is_400_naming_it(api):
    response = post(api, {"query": "refund", "topK": 3})

    assert response.status_code == 400
    assert response.json()["code"] == "unknown_parameter"
    assert "topK" in response.json()["message"]


def test_workspace_in_the_body_is_refused(api):
    response = post(api, {"query": "refund", "workspace": "globex"})

    assert response.status_code == 400
    assert response.json()["code"] == "unknown_parameter"


def test_missing_query_is_400(api):
    response = post(api, {"top_k": 3})

    assert response.status_code == 400
    assert response.json()["code"] == "query_empty"


def test_wrong_type_for_a_flag_is_400(api):
    response = post(api, {"query": "refund", "include_vectors": "yes"})

    assert response.status_code == 400
    assert response.json()["code"] == "include_vectors_invalid"
    assert "include_vectors" in response.json()["message"]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"query": ""}, "query_empty"),
        ({"query": "x" * 2001}, "query_too_long"),
        ({"query": "refund\u0000"}, "query_invalid_character"),
        ({"query": "refund", "top_k": 0}, "top_k_out_of_range"),
        ({"query": "refund", "top_k": 101}, "top_k_out_of_range"),
        ({"query": "refund", "top_k": "ten"}, "top_k_invalid"),
        ({"query": "refund", "min_score": 2}, "min_score_out_of_range"),
        ({"query": "refund", "ef_search": 1}, "ef_search_out_of_range"),
        ({"query": "refund", "content_type": "nope"}, "unknown_content_type"),
        ({"query": "refund", "filter": "status = 'draft'"}, "invalid_filter"),
        ({"query": "refund", "filter": {"status": {"$where": "1"}}}, "unknown_operator"),
        ({"query": "refund", "filter": {"x'; DROP TABLE ingestion_chunk; --": 1}}, "unknown_filter_key"),
        ({"query": "refund", "filter": {"version": {"$lt": "soon"}}}, "filter_type_mismatch"),
    ],
)
def test_bad_input_is_400_with_code(api, local_embeddings, article_type, body, code):
    response = post(api, body)

    assert response.status_code == 400
    assert response.json()["code"] == code
    assert response.json()["message"]


def test_filter_error_message_and_details_name_the_path(api, local_embeddings, article_type):
    response = post(api, {"query": "refund", "filter": {"$or": [{"status": "draft"}, {"version": {"$gt": "x"}}]}})

    assert response.json()["code"] == "filter_type_mismatch"
    assert response.json()["details"]["path"] == "filter.$or[1].version.$gt"
    assert "filter.$or[1].version.$gt" in response.json()["message"]


def test_include_sources_false_leaves_only_context_and_meta(api, refund_chunk):
    body = post(api, {"query": "refund", "include_sources": False}).json()

    assert set(body) == {"relevant_context", "meta"}


def test_include_vectors_adds_the_vector(api, refund_chunk):
    body = post(api, {"query": "refund", "include_vectors": True}).json()

    assert len(body["sources"][0]["vector"]) == 512


def test_filter_and_min_score_pass_through(api, refund_chunk):
    body = post(api, {"query": "refund", "filter": {"status": "draft"}, "min_score": 0.1}).json()

    assert body["sources"] == []
    assert body["meta"]["returned"] == 0


def test_get_is_not_allowed(api):
    response = api.get(URL.format(slug="acme"))

    assert response.status_code == 405
    assert response.json()["code"] == "method_not_allowed"
