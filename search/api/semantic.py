"""POST /api/v1/workspaces/<slug>/search/semantic: the semantic search, as JSON in and out."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import ParseError
from rest_framework.request import Request
from rest_framework.response import Response

from cms.api_errors import ApiError
from search.api.base import WorkspaceAPIView, api_error_from
from search.api.limits import BoundedJSONParser
from search.api.schema import (
    PROVIDER_CODES,
    SEMANTIC_400_CODES,
    SemanticSearchRequestDoc,
    SemanticSearchResponseDoc,
    error_responses,
)
from search.errors import SearchError, argument_refused
from search.semantic import DEFAULT_TOP_K, SearchResult, semantic_search


class AnyJSONField(serializers.Field):
    """Passes a JSON value through untouched: the search function validates it with precise codes."""

    def to_internal_value(self, data: Any) -> Any:
        return data


class StrictBooleanField(serializers.BooleanField):
    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return data


class SemanticSearchRequestSerializer(serializers.Serializer):
    # Types are checked here; ranges, the query text and the filter by semantic_search, so
    # every interface reports them with the same codes.
    query = AnyJSONField()
    top_k = AnyJSONField(required=False, default=DEFAULT_TOP_K)
    min_score = AnyJSONField(required=False, allow_null=True, default=None)
    content_type = AnyJSONField(required=False, allow_null=True, default=None)
    filter = AnyJSONField(required=False, allow_null=True, default=None)
    ef_search = AnyJSONField(required=False, allow_null=True, default=None)
    include_vectors = StrictBooleanField(required=False, default=False)
    include_sources = StrictBooleanField(required=False, default=True)


class SemanticSearchView(WorkspaceAPIView):
    parser_classes = [BoundedJSONParser]  # JSON only (415 otherwise), nesting bounded
    # Subclasses (the hybrid search) swap the parameters and the search function.
    request_serializer = SemanticSearchRequestSerializer

    @extend_schema(
        tags=["search"],
        operation_id="semantic_search",
        summary="Semantic search over chunks",
        description="The chunks nearest in meaning to `query`, best first, with `relevant_context` ready to "
        "paste into a prompt. For questions and topics in any wording or language.",
        parameters=[OpenApiParameter("slug", OpenApiTypes.STR, OpenApiParameter.PATH, description="The workspace slug.")],
        request=SemanticSearchRequestDoc,
        responses={200: SemanticSearchResponseDoc,
                   **error_responses(family="SemanticSearch", bad_request=SEMANTIC_400_CODES,
                                     forbidden=["status_not_visible", "permission_denied"], unavailable=PROVIDER_CODES,
                                     json_body=True)},
    )
    def post(self, request: Request, slug: str) -> Response:
        access = self.get_access()
        params = self._params(request)
        include_sources = params.pop("include_sources")
        try:
            result = self.search(access=access, **params)
        except SearchError as exc:
            raise api_error_from(exc) from exc
        return Response(result.as_dict(include_sources=include_sources,
                                       include_vectors=params["include_vectors"]))

    def search(self, **params: Any) -> SearchResult:
        return semantic_search(**params)

    def _params(self, request: Request) -> dict[str, Any]:
        try:
            body = request.data
        except ParseError as exc:
            raise ApiError("malformed_json", f"The request body is not valid JSON: {exc.detail}") from exc
        if not isinstance(body, dict):
            raise ApiError("invalid_request", "The request body must be a JSON object with at least \"query\".")
        allowed = set(self.request_serializer().fields)
        unknown = sorted(set(body) - allowed)
        if unknown:
            raise ApiError("unknown_parameter",
                           f"Unknown parameter(s): {', '.join(unknown)}. Accepted: {', '.join(sorted(allowed))}.")
        serializer = self.request_serializer(data=body)
        if not serializer.is_valid():
            name, problems = next(iter(serializer.errors.items()))
            refused = argument_refused(name, " ".join(str(p) for p in problems))
            raise ApiError(refused.code, refused.message, details=serializer.errors)
        return dict(serializer.validated_data)
