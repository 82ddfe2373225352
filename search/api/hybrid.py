"""POST /api/v1/workspaces/<slug>/search/hybrid: the hybrid search, as JSON in and out.

The request and response are semantic search's (search/api/semantic.py) plus the fusion and
rerank parameters; each source also carries its per-leg scores and ranks (`legs`).
"""

from __future__ import annotations

from typing import Any

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

    def search(self, **params: Any) -> SearchResult:
        return hybrid_search(**params)
