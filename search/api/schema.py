"""What the OpenAPI document (drf-spectacular, /api/schema/) says about the API beyond its views.

The views' serializers describe what the searches return; this module adds what they cannot
say: the error body and its codes per status, the semantic request's types (its serializer
passes values through so the search function can validate them with precise codes), and
the Bearer scheme. tests/search/test_openapi.py checks real responses against the result.
"""

from __future__ import annotations

from django.core.validators import RegexValidator
from drf_spectacular.extensions import OpenApiAuthenticationExtension, OpenApiSerializerExtension
from drf_spectacular.utils import OpenApiResponse, inline_serializer
from rest_framework import serializers

from search import agentic, fulltext, semantic

# Codes each status may carry, by endpoint family. 400s are listed in the description only:
# filter errors name new codes as the filter language grows.
AUTH_CODES = ["not_authenticated", "invalid_api_key", "api_key_expired", "api_key_revoked"]
ENTRY_400_CODES = [
    "query_empty", "query_too_long", "query_invalid", "query_invalid_character", "query_invalid_encoding",
    "limit_invalid", "limit_out_of_range", "offset_invalid", "offset_out_of_range", "unknown_content_type",
    "unknown_status",
]
SEMANTIC_400_CODES = [
    "malformed_json", "json_too_deep", "json_invalid_character", "invalid_request", "unknown_parameter",
    "query_empty", "query_invalid", "query_invalid_character", "query_invalid_encoding", "query_too_long",
    "top_k_invalid", "top_k_out_of_range", "min_score_invalid", "min_score_out_of_range", "ef_search_invalid",
    "ef_search_out_of_range", "unknown_content_type", "invalid_filter", "unknown_filter_key", "unknown_operator",
    "filter_type_mismatch", "filter_invalid_character", "filter_value_too_long",
]
HYBRID_400_CODES = [
    *SEMANTIC_400_CODES, "fusion_invalid", "keyword_weight_invalid", "keyword_weight_out_of_range",
    "semantic_weight_invalid", "semantic_weight_out_of_range", "weights_invalid", "rerank_invalid",
    "rerank_weights_invalid", "no_searchable_terms",
]
AGENTIC_400_CODES = [
    *HYBRID_400_CODES, "queries_invalid", "queries_empty", "queries_too_many", "queries_too_long",
    "queries_invalid_character", "queries_invalid_encoding",
]
PROVIDER_CODES = ["not_configured", "provider_unavailable", "provider_error"]
# Any endpoint that reads the database may answer this (cms/api_errors.py), with Retry-After.
DATABASE_CODES = ["database_unavailable"]


# What a query may hold, as the searches check it, so that a request the document allows is one
# the search accepts. Full-text (search.fulltext.search_query_validate): something besides
# whitespace, no control character but tab and newlines. Semantic (search.semantic): something
# besides whitespace, no NUL. Each pattern is "allowed*, one non-space, allowed*": a
# non-space must be there, and no lookahead is needed (which not every generator reads).
# "Space" is spelled out as what str.strip() removes (str.isspace): `\s` differs between
# engines (ECMAScript's omits U+0085 and adds U+FEFF), so a generator reading the pattern
# took "\x85\x85" for a query with something in it (found by the fuzzer, pinned in
# tests/security/test_query_patterns.py).
_PYTHON_SPACE = r"\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
_FULLTEXT_ALLOWED = r"[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]"
_FULLTEXT_NON_SPACE = rf"[^{_PYTHON_SPACE}\x00-\x1f\x7f-\x9f]"
FULLTEXT_QUERY_SCHEMA = {
    "type": "string",
    "minLength": 1,
    "maxLength": fulltext.MAX_QUERY_CHARS,
    "pattern": f"^{_FULLTEXT_ALLOWED}*{_FULLTEXT_NON_SPACE}{_FULLTEXT_ALLOWED}*$",
}
SEMANTIC_QUERY_PATTERN = rf"^[^\x00]*[^{_PYTHON_SPACE}\x00][^\x00]*$"
LIMIT_SCHEMA = {"type": "integer", "minimum": 1, "maximum": fulltext.MAX_LIMIT}
OFFSET_SCHEMA = {"type": "integer", "minimum": 0, "maximum": fulltext.MAX_OFFSET}


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


class ClosedObjectDoc(serializers.Serializer):
    """A documented object that takes only its fields (see ClosedRequestBody)."""


class SemanticSearchRequestDoc(ClosedObjectDoc):
    """The semantic request as documented: the view's serializer has the same fields (a test pins it)."""

    class Meta:
        ref_name = "SemanticSearchRequest"

    query = serializers.CharField(min_length=1, max_length=semantic.MAX_QUERY_CHARS,
                                  validators=[RegexValidator(SEMANTIC_QUERY_PATTERN)],
                                  help_text="What to search for, in any language (not only whitespace).")
    top_k = serializers.IntegerField(min_value=1, max_value=100, default=10, required=False)
    min_score = serializers.FloatField(min_value=-1, max_value=1, required=False, allow_null=True,
                                       help_text="Drop hits under this cosine similarity.")
    content_type = serializers.CharField(required=False, allow_null=True, help_text="A content type's api_id.")
    filter = serializers.DictField(
        required=False, allow_null=True,
        help_text="MongoDB-style filter ($eq $ne $gt $gte $lt $lte $in $nin $exists $and $or $not) over "
        "content_type, status, source_kind and entry fields, e.g. "
        '{"status": "published", "version": {"$gte": 2}}. It only narrows what the caller may see.',
    )
    ef_search = serializers.IntegerField(min_value=10, max_value=1000, required=False, allow_null=True,
                                         help_text="HNSW candidate list size: higher finds more, slower.")
    include_vectors = serializers.BooleanField(default=False, required=False)
    include_sources = serializers.BooleanField(default=True, required=False)


class ClosedRequestBody(OpenApiSerializerExtension):
    """A search request body takes only its documented fields: the view answers any other with
    400 `unknown_parameter`, so the document says `additionalProperties: false`."""

    target_class = "search.api.schema.ClosedObjectDoc"
    match_subclasses = True

    def map_serializer(self, auto_schema, direction):
        schema = auto_schema._map_basic_serializer(self.target, direction)
        schema["additionalProperties"] = False
        if isinstance(self.target, HybridSearchRequestDoc):
            # Both weights 0 leaves nothing to rank: 400 weights_invalid, so the document forbids it.
            schema["not"] = {
                "required": ["keyword_weight", "semantic_weight"],
                "properties": {"keyword_weight": {"enum": [0]}, "semantic_weight": {"enum": [0]}},
            }
        return schema


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


class SemanticMetaSerializer(serializers.Serializer):
    model = serializers.CharField()
    dimensions = serializers.IntegerField()
    top_k = serializers.IntegerField()
    ef_search = serializers.IntegerField()
    returned = serializers.IntegerField()
    pending = serializers.IntegerField(help_text="Chunks of this workspace not embedded yet.")
    exact_fallback = serializers.BooleanField()


class SemanticSearchResponseDoc(serializers.Serializer):
    class Meta:
        ref_name = "SemanticSearchResponse"

    relevant_context = serializers.CharField(allow_blank=True, help_text="The hits' text, ready to paste into a prompt.")
    sources = ChunkSourceSerializer(many=True, required=False, help_text="Absent when include_sources is false.")
    meta = SemanticMetaSerializer()


class RerankWeightsDoc(ClosedObjectDoc):
    class Meta:
        ref_name = "RerankWeights"

    rerank = serializers.FloatField(min_value=0, max_value=1, required=False, help_text="The reranker's relevance.")
    vector = serializers.FloatField(min_value=0, max_value=1, required=False, help_text="The fused score.")
    position = serializers.FloatField(min_value=0, max_value=1, required=False, help_text="The fused rank.")


class HybridSearchRequestDoc(SemanticSearchRequestDoc):
    """The hybrid request as documented: the semantic fields plus fusion and rerank (a test pins it)."""

    class Meta:
        ref_name = "HybridSearchRequest"

    min_score = serializers.FloatField(min_value=0, max_value=1, required=False, allow_null=True,
                                       help_text="Drop hits under this final (fused, or reranked) score.")
    fusion = serializers.ChoiceField(choices=["weighted", "rrf"], required=False, allow_null=True,
                                     help_text="weighted (default): scores over each leg's best, weighted; "
                                     "rrf: reciprocal rank fusion.")
    keyword_weight = serializers.FloatField(min_value=0, max_value=1, required=False, allow_null=True,
                                            help_text="Unset: the fitted default for the query's script. 0 turns "
                                            "the keyword leg off.")
    semantic_weight = serializers.FloatField(min_value=0, max_value=1, required=False, allow_null=True,
                                             help_text="Unset: the complement of keyword_weight, or the fitted "
                                             "default. 0 turns the vector leg off.")
    rerank = serializers.BooleanField(default=False, required=False,
                                      help_text="Rerank the fused candidates (503 not_configured without a reranker).")
    rerank_weights = RerankWeightsDoc(
        required=False, allow_null=True,
        help_text='Relative weights of the final score, e.g. {"rerank": 0.4, "vector": 0.4, "position": 0.2} '
        "(the defaults, which also fill any weight left out); normalised to add up to 1.")


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


class HybridSearchResponseDoc(serializers.Serializer):
    class Meta:
        ref_name = "HybridSearchResponse"

    relevant_context = serializers.CharField(allow_blank=True, help_text="The hits' text, ready to paste into a prompt.")
    sources = HybridSourceSerializer(many=True, required=False, help_text="Absent when include_sources is false.")
    meta = HybridMetaSerializer()


class AgenticSearchRequestDoc(HybridSearchRequestDoc):
    """The agentic request as documented: the hybrid fields plus `queries` (a test pins it)."""

    class Meta:
        ref_name = "AgenticSearchRequest"

    queries = serializers.ListField(
        child=serializers.CharField(min_length=1, max_length=semantic.MAX_QUERY_CHARS,
                                    validators=[RegexValidator(SEMANTIC_QUERY_PATTERN)]),
        min_length=1, max_length=agentic.MAX_QUERIES, required=False, allow_null=True,
        help_text="The parts of the question, when you have split it yourself (one question each); left out, "
        "the server splits `query` by rule. The merged list is still reranked against `query`.")


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


class AgenticSearchResponseDoc(serializers.Serializer):
    class Meta:
        ref_name = "AgenticSearchResponse"

    relevant_context = serializers.CharField(allow_blank=True, help_text="The hits' text, ready to paste into a prompt.")
    sources = AgenticSourceSerializer(many=True, required=False, help_text="Absent when include_sources is false.")
    meta = AgenticMetaSerializer()


class HealthResponseDoc(serializers.Serializer):
    """Superusers (and monitors with a health token) get details beside `ok`."""

    class Meta:
        ref_name = "Health"

    ok = serializers.BooleanField()


class BearerApiKeyScheme(OpenApiAuthenticationExtension):
    """The Bearer scheme of cms.api_auth.ApiKeyAuthentication in the document."""

    target_class = "cms.api_auth.ApiKeyAuthentication"
    name = "ApiKey"

    def get_security_definition(self, auto_schema):
        return {
            "type": "http",
            "scheme": "bearer",
            "bearerFormat": "cms_<prefix>_<secret>",
            "description": "A workspace API key (manage.py api_key_create, or the admin). It reaches its "
            "own workspace only; published content unless it was created with --include-drafts.",
        }
