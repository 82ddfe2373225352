"""The OpenAPI document: valid, served with local docs, and true to what the API really answers."""

from __future__ import annotations

import datetime
import functools
import json
import re
from pathlib import Path

import pytest
import yaml
from django.contrib.staticfiles import finders
from django.core.cache import caches
from django.core.management import call_command
from django.utils import timezone
from hypothesis import given, settings
from hypothesis import strategies as st
from openapi_core import OpenAPI
from openapi_core.contrib.django import DjangoOpenAPIRequest, DjangoOpenAPIResponse
from rest_framework.test import APIClient

from cms.models import ApiKey
from cms.services import api_key_revoke
from search.contract.errors import SearchError
from tests.factories import api_key_make, entry_make
from tests.search.semantic_helpers import REFUND_EN, chunk_make, entry_for, plain_type

pytestmark = pytest.mark.django_db

ENTRIES = "/api/v1/workspaces/{slug}/search/entries"
SEMANTIC = "/api/v1/workspaces/{slug}/search/semantic"


def test_schema_is_valid_and_generates_without_warnings(tmp_path: Path):
    target = tmp_path / "schema.yaml"

    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(target))

    assert yaml.safe_load(target.read_text())["openapi"].startswith("3.")


@pytest.fixture
def openapi(client) -> OpenAPI:
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    return OpenAPI.from_dict(json.loads(response.content))


def test_schema_describes_every_endpoint_with_the_bearer_scheme(openapi):
    spec = openapi.spec.read_value() if hasattr(openapi.spec, "read_value") else openapi.spec.contents()
    paths = spec["paths"]

    assert set(paths) == {"/api/health", "/api/v1/workspaces/{slug}/search/entries",
                          "/api/v1/workspaces/{slug}/search/semantic", "/api/v1/workspaces/{slug}/search/hybrid",
                          "/api/v1/workspaces/{slug}/search/agentic", "/api/v1/workspaces/{slug}/search/events",
                          "/api/v1/workspaces/{slug}/search/suggest",
                          "/api/v1/workspaces/{slug}/synonyms", "/api/v1/workspaces/{slug}/synonyms/{set_id}"}
    assert spec["components"]["securitySchemes"]["ApiKey"] == {**spec["components"]["securitySchemes"]["ApiKey"],
                                                              "type": "http", "scheme": "bearer"}
    for path in paths.values():
        for operation in path.values():
            assert {"200", "201", "202", "204"} & set(operation["responses"])  # events: 202, accepted for the log
    searches = [paths[p][m] for p, m in [("/api/v1/workspaces/{slug}/search/entries", "get"),
                                         ("/api/v1/workspaces/{slug}/search/semantic", "post"),
                                         ("/api/v1/workspaces/{slug}/search/hybrid", "post"),
                                         ("/api/v1/workspaces/{slug}/search/agentic", "post"),
                                         ("/api/v1/workspaces/{slug}/search/events", "post"),
                                         ("/api/v1/workspaces/{slug}/search/suggest", "get")]]
    for operation in searches:
        assert {"ApiKey": []} in operation["security"]
        assert {"400", "401", "404", "429"} <= set(operation["responses"])


def test_documented_request_bodies_are_the_declared_options(openapi):
    from search.kinds import SEARCH_KINDS

    spec = openapi.spec.read_value() if hasattr(openapi.spec, "read_value") else openapi.spec.contents()
    for kind in SEARCH_KINDS.values():
        if not kind.chunks:
            continue
        operation = spec["paths"][f"/api/v1/workspaces/{{slug}}/search/{kind.mode}"]["post"]
        ref = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
        component = spec["components"]["schemas"][ref.rsplit("/", 1)[1]]
        assert list(component["properties"]) == list(kind.options().fields)
        assert component["additionalProperties"] is False


def test_docs_page_uses_local_assets_not_a_cdn(client):
    page = client.get("/api/docs/").content.decode()

    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/" in page
    assert "cdn" not in page.lower() and "https://" not in page
    assert finders.find("drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js")


# --- real responses against the document ----------------------------------------------------

@pytest.fixture(autouse=True)
def _fresh_throttle_counts():
    caches["throttle"].clear()
    yield
    caches["throttle"].clear()


@pytest.fixture
def keys(workspace):
    _, secret = api_key_make(workspace)
    revoked, revoked_secret = api_key_make(workspace, name="revoked")
    api_key_revoke(api_key=revoked)
    expired, expired_secret = api_key_make(workspace, name="expired",
                                           expires_at=timezone.now() + datetime.timedelta(days=1))
    ApiKey.objects.filter(pk=expired.pk).update(expires_at=timezone.now() - datetime.timedelta(seconds=1))
    return {"valid": secret, "revoked": revoked_secret, "expired": expired_secret}


def as_key(secret: str | None) -> APIClient:
    client = APIClient()
    if secret:
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    return client


def check(openapi: OpenAPI, response, status: int) -> None:
    """The response has the expected status and matches the document (status, headers, body)."""
    assert response.status_code == status, response.content
    openapi.validate_response(DjangoOpenAPIRequest(response.wsgi_request), DjangoOpenAPIResponse(response))


def test_entry_search_200_matches(openapi, keys, article_type):
    entry_make(article_type, title="Refund policy")

    check(openapi, as_key(keys["valid"]).get(ENTRIES.format(slug="acme"), {"q": "refund"}), 200)


def test_entry_search_200_with_no_hits_matches(openapi, keys, article_type):
    check(openapi, as_key(keys["valid"]).get(ENTRIES.format(slug="acme"), {"q": "nothing"}), 200)


@pytest.mark.parametrize(("key", "params", "status"), [
    ("valid", {"q": ""}, 400),
    ("valid", {"q": "refund", "limit": "ten"}, 400),
    (None, {"q": "refund"}, 401),
    ("revoked", {"q": "refund"}, 401),
    ("expired", {"q": "refund"}, 401),
    ("valid", {"q": "refund", "status": "draft"}, 403),
])
def test_entry_search_errors_match(openapi, keys, article_type, key, params, status):
    check(openapi, as_key(keys.get(key)).get(ENTRIES.format(slug="acme"), params), status)


def test_entry_search_filter_is_documented_as_json_text_and_its_answers_match(openapi, keys, article_type):
    entry_make(article_type, title="Refund policy")
    client = as_key(keys["valid"])
    document = openapi.spec.read_value() if hasattr(openapi.spec, "read_value") else openapi.spec.contents()
    (parameter,) = [p for p in document["paths"][ENTRIES]["get"]["parameters"] if p["name"] == "filter"]

    assert set(parameter["content"]) == {"application/json"} and "schema" not in parameter
    found = client.get(ENTRIES.format(slug="acme"), {"q": "refund", "filter": '{"status": "published"}'})
    openapi.validate_request(DjangoOpenAPIRequest(found.wsgi_request))
    check(openapi, found, 200)
    check(openapi, client.get(ENTRIES.format(slug="acme"), {"q": "refund", "filter": '{"colour": "red"}'}), 400)
    check(openapi, client.get(ENTRIES.format(slug="acme"), {"q": "refund", "filter": '{"status": "draft"}'}), 403)


def test_entry_search_404_matches(openapi, keys, other_workspace):
    check(openapi, as_key(keys["valid"]).get(ENTRIES.format(slug="globex"), {"q": "refund"}), 404)


def test_entry_search_429_matches(openapi, keys, article_type, settings):
    settings.API_RATE_LIMIT_KEY = "1/min"
    client = as_key(keys["valid"])
    client.get(ENTRIES.format(slug="acme"), {"q": "refund"})

    response = client.get(ENTRIES.format(slug="acme"), {"q": "refund"})

    check(openapi, response, 429)
    assert response["Retry-After"]


def post_semantic(client: APIClient, body, slug: str = "acme", **kwargs):
    return client.post(SEMANTIC.format(slug=slug), body, format="json", **kwargs)


def test_semantic_search_200_matches(openapi, keys, local_embeddings, workspace):
    chunk_make(entry_for(plain_type(workspace), title="Returns"), REFUND_EN)

    check(openapi, post_semantic(as_key(keys["valid"]), {"query": "返品", "top_k": 3}), 200)


def test_semantic_search_200_with_vectors_and_without_sources_matches(openapi, keys, local_embeddings, workspace):
    chunk_make(entry_for(plain_type(workspace), title="Returns"), REFUND_EN)
    client = as_key(keys["valid"])

    check(openapi, post_semantic(client, {"query": "refund", "include_vectors": True}), 200)
    check(openapi, post_semantic(client, {"query": "refund", "include_sources": False}), 200)


@pytest.mark.parametrize(("key", "body", "status"), [
    ("valid", {"query": ""}, 400),
    ("valid", {"query": "refund", "filter": {"version": {"$bogus": 1}}}, 400),
    ("valid", {"query": "refund", "colour": "red"}, 400),
    (None, {"query": "refund"}, 401),
    ("revoked", {"query": "refund"}, 401),
])
def test_semantic_search_errors_match(openapi, keys, local_embeddings, key, body, status):
    check(openapi, post_semantic(as_key(keys.get(key)), body), status)


def test_semantic_search_404_matches(openapi, keys, local_embeddings, other_workspace):
    check(openapi, post_semantic(as_key(keys["valid"]), {"query": "refund"}, slug="globex"), 404)


def test_semantic_search_415_matches(openapi, keys, local_embeddings):
    response = as_key(keys["valid"]).post(SEMANTIC.format(slug="acme"), "query=refund",
                                          content_type="application/x-www-form-urlencoded")

    assert response.status_code == 415
    openapi.validate_response(DjangoOpenAPIRequest(response.wsgi_request), DjangoOpenAPIResponse(response))


def test_semantic_search_503_matches(openapi, keys, no_embeddings):
    check(openapi, post_semantic(as_key(keys["valid"]), {"query": "refund"}), 503)


def test_health_matches(openapi, client):
    response = client.get("/api/health")

    assert response.status_code in (200, 503)
    openapi.validate_response(DjangoOpenAPIRequest(response.wsgi_request), DjangoOpenAPIResponse(response))


# --- hybrid ---------------------------------------------------------------------------------------

HYBRID = "/api/v1/workspaces/{slug}/search/hybrid"


def post_hybrid(client: APIClient, body, slug: str = "acme"):
    return client.post(HYBRID.format(slug=slug), body, format="json")


@pytest.fixture
def hybrid_docs(workspace):
    from tests.factories import ContentTypeFactory, entry_make

    doc_type = ContentTypeFactory(workspace=workspace, api_id="doc", semantic_search_enabled=True)
    entry_make(doc_type, title="Returns", body="<p>Refunds: return any unused item within 30 days.</p>")


def test_hybrid_search_200_matches_with_both_legs(openapi, keys, local_embeddings, hybrid_docs, workspace):
    from ingestion.services import chunks_embed_pending

    chunks_embed_pending(workspace=workspace)

    check(openapi, post_hybrid(as_key(keys["valid"]), {"query": "refund", "top_k": 3}), 200)
    check(openapi, post_hybrid(as_key(keys["valid"]), {"query": "refund", "fusion": "rrf",
                                                        "include_sources": False}), 200)


def test_hybrid_search_200_matches_when_degraded_to_keywords(openapi, keys, no_embeddings, hybrid_docs):
    check(openapi, post_hybrid(as_key(keys["valid"]), {"query": "refund"}), 200)


@pytest.mark.parametrize(("key", "body", "status"), [
    ("valid", {"query": "refund", "fusion": "max"}, 400),
    ("valid", {"query": "refund", "keyword_weight": 2}, 400),
    (None, {"query": "refund"}, 401),
])
def test_hybrid_search_errors_match(openapi, keys, no_embeddings, hybrid_docs, key, body, status):
    check(openapi, post_hybrid(as_key(keys.get(key)), body), status)


def test_hybrid_search_rerank_503_matches(openapi, keys, no_embeddings, hybrid_docs, settings):
    settings.SEARCH_RERANK_BACKENDS = {"default": None}

    check(openapi, post_hybrid(as_key(keys["valid"]), {"query": "refund", "rerank": True}), 503)


# --- agentic --------------------------------------------------------------------------------------

AGENTIC = "/api/v1/workspaces/{slug}/search/agentic"
COMPOUND = "What is the refund period for returns, and how long does shipping take?"


def post_agentic(client: APIClient, body, slug: str = "acme"):
    return client.post(AGENTIC.format(slug=slug), body, format="json")


@pytest.fixture
def agentic_docs(hybrid_docs, workspace):
    from tests.factories import ContentTypeFactory, entry_make

    doc_type = ContentTypeFactory(workspace=workspace, api_id="ship", semantic_search_enabled=True)
    entry_make(doc_type, title="Shipping", body="<p>Shipping takes two business days.</p>")


def test_agentic_search_200_matches_on_both_paths(openapi, keys, local_embeddings, agentic_docs, workspace):
    from ingestion.services import chunks_embed_pending

    chunks_embed_pending(workspace=workspace)
    agentic = post_agentic(as_key(keys["valid"]), {"query": COMPOUND, "top_k": 3})
    standard = post_agentic(as_key(keys["valid"]), {"query": "refund"})
    fallback = post_agentic(as_key(keys["valid"]), {"query": COMPOUND, "queries": ["refund", "and the?"]})

    check(openapi, agentic, 200)
    check(openapi, standard, 200)
    assert [r.json()["meta"]["path"] for r in (agentic, standard)] == ["agentic", "standard"]
    check(openapi, fallback, 200)


@pytest.mark.parametrize(("key", "body", "status"), [
    ("valid", {"query": "refund", "queries": []}, 400),
    ("valid", {"query": "refund", "queries": "refund"}, 400),
    (None, {"query": "refund"}, 401),
])
def test_agentic_search_errors_match(openapi, keys, no_embeddings, hybrid_docs, key, body, status):
    check(openapi, post_agentic(as_key(keys.get(key)), body), status)


# Lone surrogates too (category Cs, which hypothesis leaves out unless asked): what invalid
# UTF-8 in argv becomes, and what a JSON `\ud800` escape would be if its parser let it through.
QUERY_TEXT = st.text(st.characters(exclude_categories=["Cs"]), max_size=40) | st.text(
    st.characters(categories=["Cs", "Ll", "Lo", "Zs"]), max_size=8) | st.sampled_from(
    ["", " ", "\u3000", "\t\n", "a\x00", "a\x1f", "a\x85", "\x7f", "返品", "a" * 500, "a" * 501, " a ", "%_\\",
     "\ud800", "refund \udfff", "\ude00\ud83d", "\U0001f600"])


@settings(max_examples=200)
@given(value=QUERY_TEXT | st.sampled_from(["a" * 2000, "a" * 2001, " " + "a" * 2000]))
def test_documented_agentic_part_is_exactly_what_the_search_accepts(value):
    from search.contract.options import AgenticSearchOptions

    queries = AgenticSearchOptions().fields["queries"]

    schema = _document()["components"]["schemas"]["AgenticSearchRequest"]["properties"]["queries"]
    assert (schema["minItems"], schema["maxItems"]) == (1, 8)
    assert _allowed(schema["items"], value) == _accepted(lambda v: queries.check([v]), value), repr(value)


# --- what the document promises about requests ----------------------------------------------
# Found by the fuzzer (tests/search/interfaces/api/test_fuzz.py): requests the document allowed were refused
# (an empty or blank query, limit=0, an extra body field). A request the document allows must
# be one the search accepts, and what it forbids must be refused.

@functools.cache
def _document() -> dict:
    from drf_spectacular.generators import SchemaGenerator

    return SchemaGenerator().get_schema(request=None, public=True)


def _entry_parameter(name: str) -> dict:
    operation = _document()["paths"]["/api/v1/workspaces/{slug}/search/entries"]["get"]
    return next(p for p in operation["parameters"] if p["name"] == name)["schema"]


def _semantic_query() -> dict:
    return _document()["components"]["schemas"]["SemanticSearchRequest"]["properties"]["query"]


def _allowed(schema: dict, value: str) -> bool:
    # A string holding a lone surrogate is no JSON text (RFC 8259 section 8.2, I-JSON), so no
    # schema can allow it, and a pattern cannot exclude it (a JavaScript validator sees every
    # character outside the BMP as two surrogates). The searches must refuse it all the same.
    if not _is_unicode_text(value):
        return False
    return schema.get("minLength", 0) <= len(value) <= schema.get("maxLength", len(value)) and bool(
        re.search(schema["pattern"], value))


def _is_unicode_text(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _accepted(validate, value: str) -> bool:
    try:
        validate(value)
    except SearchError:
        return False
    return True



@settings(max_examples=300)
@given(value=QUERY_TEXT)
def test_documented_full_text_query_is_exactly_what_the_search_accepts(value):
    from search.contract.option_fields import entry_query_check

    assert _allowed(_entry_parameter("q"), value) == _accepted(entry_query_check, value), repr(value)


@settings(max_examples=300)
@given(value=QUERY_TEXT | st.text(min_size=1995, max_size=2005, alphabet="ab ") | st.sampled_from([" " + "a" * 2000]))
def test_documented_semantic_query_is_exactly_what_the_search_accepts(value):
    from search.contract.option_fields import chunk_query_check

    # Found by the fuzzer: the search measured the query after stripping it, so 2,001
    # characters with a space around passed, though the document says at most 2,000.
    assert _allowed(_semantic_query(), value) == _accepted(chunk_query_check, value), repr(value)


def test_documented_content_type_parameter_may_not_be_empty():
    assert _entry_parameter("content_type")["minLength"] == 1


def test_documented_page_bounds_are_the_searchs():
    from search.contract.options import MAX_LIMIT, MAX_OFFSET

    assert (_entry_parameter("limit")["minimum"], _entry_parameter("limit")["maximum"]) == (1, MAX_LIMIT)
    assert (_entry_parameter("offset")["minimum"], _entry_parameter("offset")["maximum"]) == (0, MAX_OFFSET)


def test_semantic_request_body_allows_no_undocumented_field(keys, local_embeddings):
    schema = _document()["components"]["schemas"]["SemanticSearchRequest"]
    response = post_semantic(as_key(keys["valid"]), {"query": "refund", "colour": "blue"})

    assert schema["additionalProperties"] is False
    assert (response.status_code, response.json()["code"]) == (400, "unknown_parameter")
