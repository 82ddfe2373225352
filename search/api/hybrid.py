"""POST /api/v1/workspaces/<slug>/search/hybrid: the hybrid search, as JSON in and out.

The request and response are semantic search's (search/api/semantic.py) plus the fusion and
rerank parameters; each source also carries its per-leg scores and ranks (`legs`).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from search.api.schema import (
    HYBRID_400_CODES,
    PROVIDER_CODES,
    HybridSearchRequestDoc,
    HybridSearchResponseDoc,
    error_responses,
)
from search.api.semantic import AnyJSONField, SemanticSearchRequestSerializer, SemanticSearchView
from search.hybrid import hybrid_search
from search.semantic import SearchResult


class HybridSearchRequestSerializer(SemanticSearchRequestSerializer):
    # Validated by hybrid_search, so every interface reports them with the same codes.
    fusion = AnyJSONField(required=False, allow_null=True, default=None)
    keyword_weight = AnyJSONField(required=False, allow_null=True, default=None)
    semantic_weight = AnyJSONField(required=False, allow_null=True, default=None)
    rerank = AnyJSONField(required=False, default=False)
    rerank_weights = AnyJSONField(required=False, allow_null=True, default=None)


class HybridSearchView(SemanticSearchView):
    request_serializer = HybridSearchRequestSerializer

    @extend_schema(
        tags=["search"],
        operation_id="hybrid_search",
        summary="Hybrid search over chunks: keywords and meaning (the default for questions)",
        description="The chunks that best answer `query` by BM25 keywords and vector meaning fused, best first, "
        "with `relevant_context` ready to paste into a prompt and each source's per-leg scores and ranks. "
        "Without an embedding provider it answers from keywords (`meta.legs_used`, `meta.degraded`).",
        parameters=[OpenApiParameter("slug", OpenApiTypes.STR, OpenApiParameter.PATH, description="The workspace slug.")],
        request=HybridSearchRequestDoc,
        responses={200: HybridSearchResponseDoc,
                   # The same 403/503 bodies as semantic search (one component each, one enum).
                   **error_responses(family="SemanticSearch", bad_request=HYBRID_400_CODES,
                                     forbidden=["status_not_visible", "permission_denied"], unavailable=PROVIDER_CODES,
                                     json_body=True)},
    )
    def post(self, request: Request, slug: str) -> Response:
        return super().post(request, slug)

    def search(self, **params: Any) -> SearchResult:
        return hybrid_search(**params)
