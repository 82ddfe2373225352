"""What the OpenAPI document (drf-spectacular, /api/schema/) says beyond the declared options.

The request bodies are the declared options themselves (search/contract/options.py); this module adds
what the searches return, the error body and its codes per status, closed request objects,
and the Bearer scheme. tests/search/interfaces/api/test_openapi.py checks real responses against the result.
"""

from __future__ import annotations

from drf_spectacular.extensions import OpenApiAuthenticationExtension, OpenApiSerializerExtension
from drf_spectacular.utils import OpenApiResponse, inline_serializer
from rest_framework import serializers

from cms.library_internals import spectacular_basic_serializer_schema
from search.contract.options import HybridSearchOptions

# Codes each status may carry. The 400 codes are each search kind's (search/kinds.py).
AUTH_CODES = ["not_authenticated", "invalid_api_key", "api_key_expired", "api_key_revoked"]
PROVIDER_CODES = ["not_configured", "provider_unavailable", "provider_error"]
# Any endpoint that reads the database may answer this (cms/api/errors.py), with Retry-After.
DATABASE_CODES = ["database_unavailable"]


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="Machine-readable, stable: branch on this.")
    message = serializers.CharField(help_text="One plain sentence for people.")
    details = serializers.JSONField(
        required=False, help_text="Extra facts when there are any, e.g. the path of a bad filter part."
    )


_error_serializers: dict[str, type[serializers.Serializer]] = {}


def _error_serializer(name: str, codes: list[str]) -> type[serializers.Serializer]:
    """The error body with `code` limited to `codes`, as one named component (made once)."""
    if name not in _error_serializers:
        _error_serializers[name] = inline_serializer(
            name=name,
            fields={
                "code": serializers.ChoiceField(choices=codes, help_text="Machine-readable, stable: branch on this."),
                "message": serializers.CharField(help_text="One plain sentence for people."),
                "details": serializers.JSONField(required=False),
            },
        )
    return _error_serializers[name]


def _codes(codes: list[str]) -> str:
    return ", ".join(f"`{c}`" for c in codes)


def _error(name: str, codes: list[str], description: str) -> OpenApiResponse:
    return OpenApiResponse(response=_error_serializer(name, codes), description=f"{description} Codes: {_codes(codes)}.")


def error_responses(*, family: str, bad_request: list[str], forbidden: list[str] | None = None,
                    unavailable: list[str] | None = None, json_body: bool = False) -> dict[int, OpenApiResponse]:
    """The error responses of one endpoint: {status: response} with each status's codes."""
    responses = {
        400: OpenApiResponse(response=ErrorSerializer, description="The request cannot run as asked; fix it "
                             f"and retry. Codes: {_codes(bad_request)}."),
        401: _error("AuthenticationError", AUTH_CODES, "No credential, or a key that is unknown, expired or "
                    "revoked. Comes with `WWW-Authenticate: Bearer`."),
        404: _error("NotFoundError", ["not_found"], "No such workspace: also the answer for another tenant's."),
        414: _error("UriTooLongError", ["uri_too_long"], "The URL is over 8,190 bytes, the server's limit (the "
                    "longest valid request fits); answered before the app reads it."),
        429: _error("ThrottledError", ["throttled"], "Too many requests for this key or user; wait `Retry-After` seconds."),
    }
    if forbidden:
        responses[403] = _error(f"{family}Forbidden", forbidden, "The caller may not ask for this.")
    if json_body:
        responses[415] = _error("UnsupportedMediaTypeError", ["unsupported_media_type"],
                                "The body must be JSON (`Content-Type: application/json`).")
    responses[503] = _error(f"{family}Unavailable", [*(unavailable or []), *DATABASE_CODES],
                            "The search cannot run now; retry later (`Retry-After`, when given) or tell an operator.")
    return responses


class ClosedRequestBody(OpenApiSerializerExtension):
    """A search request body takes only its declared options (search/contract/options.py): anything else
    is 400 `unknown_parameter`, so the document says `additionalProperties: false`."""

    target_class = "search.contract.options.SearchOptions"
    match_subclasses = True

    def map_serializer(self, auto_schema, direction):
        schema = spectacular_basic_serializer_schema(auto_schema, self.target, direction)
        schema["additionalProperties"] = False
        if isinstance(self.target, HybridSearchOptions):
            # Both weights 0 leaves nothing to rank: 400 weights_invalid, so the document forbids it.
            schema["not"] = {
                "required": ["keyword_weight", "semantic_weight"],
                "properties": {"keyword_weight": {"enum": [0]}, "semantic_weight": {"enum": [0]}},
            }
        return schema


class ClosedRerankWeights(ClosedRequestBody):
    target_class = "search.contract.option_fields.RerankWeightsField"


class ChunkMetadataSerializer(serializers.Serializer):
    workspace = serializers.CharField()
    entry_id = serializers.IntegerField(required=False)
    asset_id = serializers.IntegerField(required=False)
    content_type = serializers.CharField(allow_null=True)
    title = serializers.CharField(allow_blank=True)
    field = serializers.CharField()
    ordinal = serializers.IntegerField()
    status = serializers.CharField(allow_null=True)
    source_kind = serializers.ChoiceField(choices=["entry", "asset"])


class ChunkSourceSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    score = serializers.FloatField(help_text="Cosine similarity: 1 is the same direction.")
    document = serializers.CharField(help_text="The chunk's text.")
    metadata = ChunkMetadataSerializer()
    vector = serializers.ListField(child=serializers.FloatField(), required=False, allow_null=True)
    promoted = serializers.BooleanField(required=False, help_text="Present (true) on an entry an editor pinned to "
                                        "this query: it comes first.")
    holds_words = serializers.BooleanField(
        required=False, help_text="Present (true) when the entry holds every word of a query that reads as keywords "
        "(after folding, typo correction and synonyms; stopwords aside): an answer whatever its confidence, ranked "
        "above entries holding none of the words (hybrid, agentic).")


class WordsMetaSerializer(serializers.Serializer):
    near_in_meaning = serializers.BooleanField(help_text="false: no passage is near the query in meaning.")
    entries = serializers.IntegerField(help_text="How many entries the caller may see hold every word of the query.")
    at_least = serializers.BooleanField(help_text="true when the count stopped at its cap.")
    follow_up = serializers.DictField(help_text='The search that lists them: {"search": "hybrid", "query": ...}.')


class SemanticMetaSerializer(serializers.Serializer):
    model = serializers.CharField()
    dimensions = serializers.IntegerField()
    top_k = serializers.IntegerField()
    ef_search = serializers.IntegerField()
    returned = serializers.IntegerField()
    pending = serializers.IntegerField(help_text="Chunks of this workspace not embedded yet.")
    exact_fallback = serializers.BooleanField()
    vector_plan = serializers.ChoiceField(
        choices=["exact", "walk", "walk_short_exact"], required=False,
        help_text="Which plan ranked the chunks: exact (few matched: every distance computed), walk (the HNSW "
        "index), walk_short_exact (the walk came back short, and every matching chunk was ranked).")
    words = WordsMetaSerializer(
        required=False, help_text="Semantic search under the floor: no passage is near in meaning, but entries hold "
        "every word of the keyword query; how many, and the search that lists them. Absent otherwise.")
    search_id = serializers.CharField(
        allow_null=True, help_text="This search's id in the workspace's search log: send it with "
        "POST .../search/events when a result is opened. null when the workspace logs no searches.")


def _chunk_search_response_doc(ref: str, source: type[serializers.Serializer],
                               meta_serializer: type[serializers.Serializer]) -> type[serializers.Serializer]:
    """A chunk search's response (semantic, hybrid, agentic) as the document shows it: the same four
    members, with the kind's own source and meta shapes. (The class has no docstring: it would
    become the component's description.)"""

    class Doc(serializers.Serializer):
        class Meta:
            ref_name = ref

        relevant_context = serializers.CharField(allow_blank=True,
                                                 help_text="The hits' text, ready to paste into a prompt.")
        sources = source(many=True, required=False, help_text="Absent when include_sources is false.")
        meta = meta_serializer()
        facets = serializers.DictField(
            child=serializers.DictField(child=serializers.IntegerField()), required=False,
            help_text='With the facets option: {facet: {value: count}}, the top 20 values and "other" '
            "(docs/design/facets.md).")

    Doc.__name__ = Doc.__qualname__ = f"{ref}Doc"
    return Doc


SemanticSearchResponseDoc = _chunk_search_response_doc("SemanticSearchResponse", ChunkSourceSerializer, SemanticMetaSerializer)


class LegScoreSerializer(serializers.Serializer):
    score = serializers.FloatField(allow_null=True, help_text="BM25 (keyword), cosine (semantic) or the fused score.")
    rank = serializers.IntegerField(required=False, allow_null=True,
                                    help_text="Rank in that leg's own list, null if the leg did not list it.")


class HybridLegsSerializer(serializers.Serializer):
    keyword = LegScoreSerializer(required=False)
    semantic = LegScoreSerializer(required=False)
    fused = LegScoreSerializer()


class HybridSourceSerializer(ChunkSourceSerializer):
    score = serializers.FloatField(help_text="The final score: fused (0..1 with weighted fusion) or reranked.")
    legs = HybridLegsSerializer()


class HybridMetaSerializer(SemanticMetaSerializer):
    model = serializers.CharField(allow_null=True, help_text="The embedding model; null when no vector leg ran.")
    dimensions = serializers.IntegerField(allow_null=True)
    search = serializers.CharField()
    legs_used = serializers.ListField(child=serializers.ChoiceField(choices=["keyword", "semantic"]))
    degraded = serializers.DictField(required=False, help_text="A leg that could not run: {leg: {code, message}}.")
    fusion = serializers.CharField()
    weights = serializers.DictField()
    candidates = serializers.IntegerField()
    legs = serializers.DictField(help_text="Facts per leg: terms, candidates, whether the keyword ranking was exhaustive.")
    rerank = serializers.DictField(required=False, help_text="With rerank: the model, weights and candidates.")


HybridSearchResponseDoc = _chunk_search_response_doc("HybridSearchResponse", HybridSourceSerializer, HybridMetaSerializer)


class AgenticPartSerializer(serializers.Serializer):
    query = serializers.CharField()
    legs_used = serializers.ListField(child=serializers.ChoiceField(choices=["keyword", "semantic"]))
    weights = serializers.DictField()
    candidates = serializers.IntegerField()
    returned = serializers.IntegerField(help_text="Sources this part placed in the answer.")


class AgenticMetaSerializer(HybridMetaSerializer):
    path = serializers.ChoiceField(choices=["agentic", "standard"],
                                  help_text="agentic: the parts answered; standard: the plain hybrid search of the "
                                  "whole question (it did not split, or a fallback).")
    parts = serializers.ListField(child=serializers.CharField(), help_text="The queries that answered.")
    parts_source = serializers.CharField(help_text="\"request\" (queries) or \"decomposer:<name>\".")
    # A dict, not a nested serializer: OpenAPI 3.0 cannot make a referenced component nullable.
    fallback_reason = serializers.DictField(
        allow_null=True, help_text="null, or why the parts did not answer: {stage: decompose | part | rerank, "
        "code: the failure's code (e.g. the part search's or the reranker's), message, parts: the parts tried}.")
    merge = serializers.CharField(required=False, help_text="How the parts' rankings were merged (agentic path).")
    part_results = AgenticPartSerializer(many=True, required=False, help_text="Per part (agentic path).")
    legs = serializers.DictField(help_text="Facts per leg; on the agentic path, per leg a list with each part's.")


class AgenticSourceSerializer(HybridSourceSerializer):
    score = serializers.FloatField(help_text="The chunk's final score within the part that placed it: sources "
                                   "are in merged order (each part's scores over its best), so scores need not decrease.")


AgenticSearchResponseDoc = _chunk_search_response_doc("AgenticSearchResponse", AgenticSourceSerializer, AgenticMetaSerializer)


class HealthResponseDoc(serializers.Serializer):
    """Superusers (and monitors with a health token) get details beside `ok`."""

    class Meta:
        ref_name = "Health"

    ok = serializers.BooleanField()


class BearerApiKeyScheme(OpenApiAuthenticationExtension):
    """The Bearer scheme of cms.api.auth.ApiKeyAuthentication in the document."""

    target_class = "cms.api.auth.ApiKeyAuthentication"
    name = "ApiKey"

    def get_security_definition(self, auto_schema):
        return {
            "type": "http",
            "scheme": "bearer",
            "bearerFormat": "cms_<prefix>_<secret>",
            "description": "A workspace API key (manage.py api_key_create, or the admin). It reaches its "
            "own workspace only; published content unless it was created with --include-drafts.",
        }
