"""The search endpoints under /api/v1/workspaces/<slug>/search/: one view per search kind,
built from its declaration (search/kinds.py).

- `entries` (full-text) and `suggest` are GETs, one view each built by `query_string_view`:
  their options are query parameters (`q` is the query), read as text and turned into values
  by the options themselves.
- `semantic`, `hybrid` and `agentic` are POSTs of a JSON object holding the options.

Either way the view only maps its input names and hands the options to the kind's `search`,
which checks them (search/contract/options.py); every refusal is answered by search.interfaces.errors.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote_to_bytes

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import ParseError
from rest_framework.request import Request
from rest_framework.response import Response

from cms.api.errors import ApiError
from search.interfaces.api.base import SearchAPIView
from search.interfaces.api.limits import BoundedJSONParser
from search.interfaces.api.schema import (
    PROVIDER_CODES,
    AgenticSearchResponseDoc,
    HybridSearchResponseDoc,
    SemanticSearchResponseDoc,
    error_responses,
)
from search.contract.errors import SearchInputError
from search.kinds import AGENTIC_SEARCH, HYBRID_SEARCH, SEARCH_ENTRIES, SEMANTIC_SEARCH, SUGGEST, SearchKind
from search.contract.option_schemas import option_openapi_schema
from search.contract.options import option_from_texts
from search.contract.option_fields import JSON_BODY_CODES

# The API's own names for options, where they differ from the declaration's.
QUERY_PARAMETER_NAMES = {"query": "q"}
FORBIDDEN_CODES = ["status_not_visible", "permission_denied"]
_SLUG = OpenApiParameter("slug", OpenApiTypes.STR, OpenApiParameter.PATH, description="The workspace slug.")


class SearchView(SearchAPIView):
    """A search endpoint: `kind` says which search and what it accepts."""

    kind: SearchKind


# --- GET with query parameters: full-text and suggest ---------------------------------------

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
    promoted = serializers.BooleanField(required=False, help_text="Present (true) on an entry an editor pinned to "
                                        "this query: first on the first page.")


class EntrySearchMetaSerializer(serializers.Serializer):
    search_id = serializers.CharField(
        allow_null=True, help_text="This search's id in the workspace's search log: send it with "
        "POST .../search/events when a result is opened. null when the workspace logs no searches.")
    suggestions = serializers.ListField(
        child=serializers.CharField(), help_text="Did-you-mean: when nothing was found, up to 3 corrected queries "
        "that each find at least one entry (checked, with the same filters). Empty otherwise.")
    also_searched = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="What else was searched besides the query: its "
        "variants by the workspace's synonyms (an entry containing any of them matches). Absent when none.")
    corrected_query = serializers.CharField(
        required=False, help_text="The query found nothing, so this correction (the first suggestion) was searched "
        "instead (typo_tolerance, default true). Absent otherwise.")
    facets_exhaustive = serializers.BooleanField(
        required=False, help_text="With `facets`: false when the counts are a deterministic sample's, scaled "
        "(past 2,000 matches); exhaustive_facets=true forces exact counts.")
    facets_sample_rate = serializers.FloatField(
        required=False, help_text="With facets_exhaustive false: the share of the workspace's entries sampled.")


class EntrySearchResultSerializer(serializers.Serializer):
    """The response as the OpenAPI document describes it; EntrySearchResult.as_dict() writes it
    (a serializer per hit cost about as much as the search itself)."""

    query = serializers.CharField(trim_whitespace=False)
    limit = serializers.IntegerField()
    offset = serializers.IntegerField()
    has_more = serializers.BooleanField()
    plan = serializers.CharField()
    results = EntryHitSerializer(source="hits", many=True)
    facets = serializers.DictField(
        child=serializers.DictField(child=serializers.IntegerField()), required=False,
        help_text='With facets=...: {facet: {value: count}} over every matching entry, the top 20 values and "other".')
    meta = EntrySearchMetaSerializer()


def query_string_parse(request: Request) -> dict[str, list[str]]:
    """The query string parsed as `request.GET` parses it (each name's values, in order), but decoded strictly.

    Like Django, it takes the raw bytes (WSGI hands them over as latin-1 text), so UTF-8 sent
    unencoded (`curl ".../entries?q=返品"` through runserver) reads the same as
    percent-encoded UTF-8. Unlike Django, invalid UTF-8 is refused instead of replaced with
    U+FFFD, which would turn a broken query into a search for a character nobody typed.
    """
    raw = request.META.get("QUERY_STRING", "").encode("iso-8859-1", errors="replace")
    params: dict[str, list[str]] = {}
    for pair in raw.split(b"&") if raw else ():
        if not pair:
            continue
        name, _, value = pair.partition(b"=")
        try:
            key = unquote_to_bytes(name.replace(b"+", b" ")).decode("utf-8")
            params.setdefault(key, []).append(unquote_to_bytes(value.replace(b"+", b" ")).decode("utf-8"))
        except UnicodeDecodeError as exc:
            raise SearchInputError("query_invalid_encoding", "The query string is not valid UTF-8.") from exc
    return params


def _json_query_parameters(kind: SearchKind) -> frozenset[str]:
    """The query parameters given as JSON text (an object option, such as `filter`)."""
    return frozenset(QUERY_PARAMETER_NAMES.get(name, name) for name, field in kind.options().fields.items()
                     if isinstance(field, (serializers.DictField, serializers.Serializer)))


class QueryStringSchema(AutoSchema):
    """drf-spectacular's schema of a search view (`kind`) read by GET, with each JSON-text query parameter described as OpenAPI 3.0
    describes one: `content: {application/json: {schema}}`, not a `schema` of type object
    (which means `?key=value&...`, one parameter per property)."""

    def get_operation(self, *args: Any, **kwargs: Any) -> dict[str, Any] | None:
        operation = super().get_operation(*args, **kwargs)
        json_parameters = _json_query_parameters(self.view.kind)
        for parameter in (operation or {}).get("parameters", []):
            if parameter["in"] == "query" and parameter["name"] in json_parameters:
                parameter["content"] = {"application/json": {"schema": parameter.pop("schema")}}
        return operation


def _query_parameters(kind: SearchKind) -> list[OpenApiParameter]:
    fields = kind.options().fields
    return [
        OpenApiParameter(QUERY_PARAMETER_NAMES.get(name, name), option_openapi_schema(kind.options, name),
                         required=field.required, description=str(field.help_text or ""))
        for name, field in fields.items()
    ]


def query_string_view(kind: SearchKind, response: type[serializers.Serializer]) -> type[SearchView]:
    """The GET endpoint of a search read from query parameters, documented from its declaration."""

    @extend_schema(
        tags=["search"], operation_id=kind.name, summary=kind.summary, description=kind.description,
        parameters=[_SLUG, *_query_parameters(kind)],
        responses={200: response,
                   **error_responses(family="EntrySearch", bad_request=list(kind.bad_request_codes),
                                     forbidden=FORBIDDEN_CODES)},
    )
    def get(self: SearchView, request: Request, slug: str) -> Response:
        access = self.get_access()
        by_api_name = {QUERY_PARAMETER_NAMES.get(name, name): name for name in self.kind.options().fields}
        # A parameter that is no option is ignored, as query strings go (caches and trackers add them).
        params = {by_api_name[key]: option_from_texts(self.kind.options, by_api_name[key], values)
                  for key, values in query_string_parse(request).items() if key in by_api_name}
        params.setdefault("query", "")
        return Response(self.kind.search(access, params, interface="api").as_dict())

    return type(_view_name(kind), (SearchView,), {
        "kind": kind, "get": get, "__doc__": kind.summary, "__module__": __name__, "schema": QueryStringSchema(),
    })


def _view_name(kind: SearchKind) -> str:
    return "".join(part.title() for part in kind.name.split("_")) + "View"


# --- as-you-type suggestions' answer ---------------------------------------------------------

class SuggestionSerializer(serializers.Serializer):
    text = serializers.CharField(help_text="The completed text to put in the search box.")
    kind = serializers.ChoiceField(["title", "term"], help_text="title: an entry's or asset's title starting with "
                                   "the prefix; term: a frequent word completing the last word.")
    corrected = serializers.BooleanField(required=False, help_text="Present (true) when nothing completes what was "
                                         "typed and this completes it with its last word's typo corrected (one edit).")


class SuggestResultSerializer(serializers.Serializer):
    query = serializers.CharField(trim_whitespace=False)
    suggestions = SuggestionSerializer(many=True)


EntrySearchView = query_string_view(SEARCH_ENTRIES, EntrySearchResultSerializer)
SuggestView = query_string_view(SUGGEST, SuggestResultSerializer)


# --- chunk searches: POST with a JSON body --------------------------------------------------

def request_json_object(request: Request, *, holding: str = '"query"') -> dict[str, Any]:
    """The request's JSON body, which must be an object; `holding` says what it must hold at least."""
    try:
        body = request.data
    except ParseError as exc:
        raise ApiError("malformed_json", f"The request body is not valid JSON: {exc.detail}") from exc
    if not isinstance(body, dict):
        raise ApiError("invalid_request", f"The request body must be a JSON object with at least {holding}.")
    return body


def chunk_search_view(kind: SearchKind, response: type[serializers.Serializer]) -> type[SearchView]:
    """The POST endpoint of a chunk search, documented from its declaration."""

    @extend_schema(
        tags=["search"], operation_id=kind.name, summary=kind.summary, description=kind.description,
        parameters=[_SLUG], request=kind.options,
        responses={200: response,
                   # One 403 and one 503 component for every chunk search (one enum each).
                   **error_responses(family="SemanticSearch",
                                     bad_request=list(dict.fromkeys([*JSON_BODY_CODES, *kind.bad_request_codes])),
                                     forbidden=FORBIDDEN_CODES, unavailable=PROVIDER_CODES, json_body=True)},
    )
    def post(self: SearchView, request: Request, slug: str) -> Response:
        access = self.get_access()
        return Response(self.kind.search(access, request_json_object(request), interface="api").as_dict())

    return type(_view_name(kind), (SearchView,), {
        "kind": kind, "post": post, "__doc__": kind.summary, "__module__": __name__,
        "parser_classes": [BoundedJSONParser],  # JSON only (415 otherwise), nesting bounded
    })


SemanticSearchView = chunk_search_view(SEMANTIC_SEARCH, SemanticSearchResponseDoc)
HybridSearchView = chunk_search_view(HYBRID_SEARCH, HybridSearchResponseDoc)
AgenticSearchView = chunk_search_view(AGENTIC_SEARCH, AgenticSearchResponseDoc)
