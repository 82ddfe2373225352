"""GET /api/v1/workspaces/<slug>/search/entries: the full-text search over entries, as JSON."""

from __future__ import annotations

from urllib.parse import parse_qsl

from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from search.api.base import WorkspaceAPIView, api_error_from
from search.errors import SearchError, SearchInputError
from search.fulltext import DEFAULT_LIMIT, MAX_LIMIT, MAX_OFFSET, search_entries, search_int_param


class SnippetSerializer(serializers.Serializer):
    field = serializers.CharField()
    text = serializers.CharField()
    highlights = serializers.ListField(child=serializers.ListField(child=serializers.IntegerField()))


class EntryHitSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="entry_id")
    content_type = serializers.CharField()
    status = serializers.CharField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    matched_fields = serializers.ListField(child=serializers.CharField())
    snippet = SnippetSerializer(allow_null=True)


class EntrySearchResultSerializer(serializers.Serializer):
    query = serializers.CharField(trim_whitespace=False)
    limit = serializers.IntegerField()
    offset = serializers.IntegerField()
    has_more = serializers.BooleanField()
    plan = serializers.CharField()
    results = EntryHitSerializer(source="hits", many=True)


def _query_params(request: Request) -> dict[str, str]:
    """The query string decoded strictly: Django replaces invalid UTF-8 with U+FFFD, which
    would turn a broken query into a search for a character nobody typed."""
    try:
        pairs = parse_qsl(request.META.get("QUERY_STRING", ""), keep_blank_values=True, errors="strict")
    except UnicodeDecodeError as exc:
        raise SearchInputError("query_invalid_encoding", "The query string is not valid UTF-8.") from exc
    return dict(pairs)


class EntrySearchView(WorkspaceAPIView):
    """Search entries of the workspace: ?q=&content_type=&status=&limit=&offset= (members only)."""

    def get(self, request: Request, slug: str) -> Response:
        access = self.get_access()
        try:
            params = _query_params(request)
            result = search_entries(
                access=access,
                query=params.get("q", ""),
                content_type=params.get("content_type") or None,
                status=params.get("status") or None,
                limit=search_int_param(
                    name="limit", raw=params.get("limit"), default=DEFAULT_LIMIT, minimum=1, maximum=MAX_LIMIT
                ),
                offset=search_int_param(name="offset", raw=params.get("offset"), default=0, minimum=0, maximum=MAX_OFFSET),
            )
        except SearchError as exc:
            raise api_error_from(exc) from exc
        return Response(EntrySearchResultSerializer(result).data)
