"""POST /api/v1/workspaces/<slug>/search/agentic: agentic search (compound questions), as JSON in and out.

The request is hybrid search's plus `queries` (the parts, when the caller has split the
question itself); the response is hybrid's, with the path taken and the parts in `meta`.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from search.agentic import agentic_search
from search.api.hybrid import HybridSearchRequestSerializer, HybridSearchView
from search.api.schema import (
    AGENTIC_400_CODES,
    PROVIDER_CODES,
    AgenticSearchRequestDoc,
    AgenticSearchResponseDoc,
    error_responses,
)
from search.api.semantic import AnyJSONField
from search.semantic import SearchResult


class AgenticSearchRequestSerializer(HybridSearchRequestSerializer):
    # Validated by agentic_search, so every interface reports it with the same codes.
    queries = AnyJSONField(required=False, allow_null=True, default=None)


class AgenticSearchView(HybridSearchView):
    request_serializer = AgenticSearchRequestSerializer

    @extend_schema(
        tags=["search"],
        operation_id="agentic_search",
        summary="Agentic search: a compound question searched part by part, every part in the top k",
        description="For a question that asks several things at once (\"How do I reset my password, and can I "
        "delete my account?\", 「返品の期限と送料は？」). The question is split into parts (pass `queries` when you "
        "have split it yourself), each part runs the hybrid search, and each part's best passages reach the top k "
        "(scores over each part's best), so no part is starved by another; with `rerank` the merged list is reranked against the whole question. "
        "If splitting, a part's search or the reranker fails, the plain hybrid search of the whole question "
        "answers: `meta.path` is `agentic` or `standard`, `meta.fallback_reason` says why. Same response as "
        "hybrid search.",
        parameters=[OpenApiParameter("slug", OpenApiTypes.STR, OpenApiParameter.PATH, description="The workspace slug.")],
        request=AgenticSearchRequestDoc,
        responses={200: AgenticSearchResponseDoc,
                   **error_responses(family="SemanticSearch", bad_request=AGENTIC_400_CODES,
                                     forbidden=["status_not_visible", "permission_denied"], unavailable=PROVIDER_CODES,
                                     json_body=True)},
    )
    def post(self, request: Request, slug: str) -> Response:
        return super().post(request, slug)

    def search(self, **params: Any) -> SearchResult:
        return agentic_search(**params)
