"""GET /api/v1/workspaces/<slug>/search/entries: the full-text search over entries, as JSON."""

from __future__ import annotations

from urllib.parse import unquote_to_bytes

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from search.api.base import WorkspaceAPIView, api_error_from
from search.api.schema import ENTRY_400_CODES, FULLTEXT_QUERY_SCHEMA, LIMIT_SCHEMA, OFFSET_SCHEMA, error_responses
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
    """The response as the OpenAPI document describes it; EntrySearchResult.as_dict() writes it
    (a serializer per hit cost about as much as the search itself)."""

    query = serializers.CharField(trim_whitespace=False)
    limit = serializers.IntegerField()
    offset = serializers.IntegerField()
    has_more = serializers.BooleanField()
    plan = serializers.CharField()
    results = EntryHitSerializer(source="hits", many=True)


def _query_params(request: Request) -> dict[str, str]:
    """The query string parsed as `request.GET` parses it, but decoded strictly.

    Like Django, it takes the raw bytes (WSGI hands them over as latin-1 text), so UTF-8 sent
    unencoded (`curl ".../entries?q=返品"` through runserver) reads the same as
    percent-encoded UTF-8. Unlike Django, invalid UTF-8 is refused instead of replaced with
    U+FFFD, which would turn a broken query into a search for a character nobody typed.
    """
    raw = request.META.get("QUERY_STRING", "").encode("iso-8859-1", errors="replace")
    params: dict[str, str] = {}
    for pair in raw.split(b"&") if raw else ():
        if not pair:
            continue
        name, _, value = pair.partition(b"=")
        try:
            key = unquote_to_bytes(name.replace(b"+", b" ")).decode("utf-8")
            params[key] = unquote_to_bytes(value.replace(b"+", b" ")).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise SearchInputError("query_invalid_encoding", "The query string is not valid UTF-8.") from exc
    return params


def _optional(params: dict[str, str], name: str, *, empty_code: str) -> str | None:
    """An optional parameter's value, None when absent. Present but empty (`status=`) is a 400,
    never "not given": an empty `status` would otherwise silently widen the search to drafts."""
    value = params.get(name)
    if value == "":
        raise SearchInputError(empty_code, f"{name} is empty: give a value, or leave the parameter out.")
    return value


class EntrySearchView(WorkspaceAPIView):
    """Search entries of the workspace: ?q=&content_type=&status=&limit=&offset= (members only)."""

    @extend_schema(
        tags=["search"],
        operation_id="search_entries",
        summary="Full-text search over entries",
        description="Entries whose field values contain `q` (case-insensitive, literal: `%` and `_` are "
        "ordinary characters), newest first. For exact words, names, ids, slugs and product codes. "
        "Percent-encode the query string as UTF-8 (`curl -G --data-urlencode \"q=返品\"`).",
        parameters=[
            OpenApiParameter("slug", OpenApiTypes.STR, OpenApiParameter.PATH, description="The workspace slug."),
            OpenApiParameter("q", FULLTEXT_QUERY_SCHEMA, required=True,
                             description="Text to find (1-500 characters, not only whitespace; not trimmed)."),
            OpenApiParameter("content_type", OpenApiTypes.STR, allow_blank=False,
                             description="Only entries of this content type (api_id)."),
            OpenApiParameter("status", OpenApiTypes.STR, enum=["draft", "published"],
                             description="Only entries in this status; never widens what the caller may see."),
            OpenApiParameter("limit", LIMIT_SCHEMA, description=f"Page size, 1-{MAX_LIMIT} (default {DEFAULT_LIMIT})."),
            OpenApiParameter("offset", OFFSET_SCHEMA, description=f"Results to skip, 0-{MAX_OFFSET}."),
        ],
        responses={200: EntrySearchResultSerializer,
                   **error_responses(family="EntrySearch", bad_request=ENTRY_400_CODES,
                                     forbidden=["status_not_visible", "permission_denied"])},
    )
    def get(self, request: Request, slug: str) -> Response:
        access = self.get_access()
        try:
            params = _query_params(request)
            result = search_entries(
                access=access,
                query=params.get("q", ""),
                content_type=_optional(params, "content_type", empty_code="unknown_content_type"),
                status=_optional(params, "status", empty_code="unknown_status"),
                limit=search_int_param(name="limit", raw=_optional(params, "limit", empty_code="limit_invalid"),
                                       default=DEFAULT_LIMIT, minimum=1, maximum=MAX_LIMIT),
                offset=search_int_param(name="offset", raw=_optional(params, "offset", empty_code="offset_invalid"),
                                        default=0, minimum=0, maximum=MAX_OFFSET),
            )
        except SearchError as exc:
            raise api_error_from(exc) from exc
        return Response(result.as_dict())
