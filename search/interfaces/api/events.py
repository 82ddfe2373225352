"""POST /api/v1/workspaces/<slug>/search/events: an agent or a front-end reports the result
someone opened, naming the search by its `meta.search_id` (search/insights/search_log.py)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from cms.library_internals import spectacular_basic_serializer_schema
from search.interfaces.api.base import SearchAPIView
from search.interfaces.api.limits import BoundedJSONParser
from search.interfaces.api.schema import error_responses
from search.interfaces.api.searches import request_json_object
from search.contract.errors import SearchInputError
from search.contract.option_fields import WholeNumberField
from search.insights.search_log import search_event_record

POSITION_MAX = 1000
ID_MAX = 2**63 - 1
EVENT_BAD_REQUEST_CODES = [
    "malformed_json", "json_too_deep", "json_invalid_character", "invalid_request", "unknown_parameter",
    "search_id_invalid", "entry_id_invalid", "entry_id_out_of_range", "chunk_id_invalid", "chunk_id_out_of_range",
    "position_invalid", "position_out_of_range", "target_invalid",
]


class SearchEventRequest(serializers.Serializer):
    """A click on a search result: which search, which result, at which rank."""

    search_id = serializers.RegexField(r"^[0-9a-f]{48}$", help_text="The search's `meta.search_id`.")
    # Strict JSON integers (WholeNumberField): "21" and 21.0 are refused, not coerced.
    entry_id = WholeNumberField(required=False, min_value=1, max_value=ID_MAX,
                                help_text="The entry opened (full-text results, or a chunk's entry).")
    chunk_id = WholeNumberField(required=False, min_value=1, max_value=ID_MAX,
                                help_text="The chunk opened (a semantic, hybrid or agentic source's `id`).")
    position = WholeNumberField(min_value=1, max_value=POSITION_MAX,
                                help_text="The result's rank on the page the caller showed, from 1.")

    def validated_event(self) -> dict[str, Any]:
        """The event, or SearchInputError with the first bad field's code."""
        unknown = sorted(set(self.initial_data) - set(self.fields))
        if unknown:
            raise SearchInputError("unknown_parameter", f"Unknown parameter(s): {', '.join(map(str, unknown))[:200]}.")
        if not self.is_valid():
            name, problems = next(iter(self.errors.items()))
            codes = {getattr(problem, "code", "") for problem in problems}
            if name == "search_id":
                raise SearchInputError("search_id_invalid", "search_id must be a search's meta.search_id (48 hex digits).")
            if "required" in codes:
                raise SearchInputError(f"{name}_invalid", f"{name}: this field is required.")
            suffix = "out_of_range" if codes & {"min_value", "max_value"} else "invalid"
            raise SearchInputError(f"{name}_{suffix}", f"{name}: {' '.join(map(str, problems))}")
        data = dict(self.validated_data)
        if ("entry_id" in data) == ("chunk_id" in data):
            raise SearchInputError("target_invalid", "Give exactly one of entry_id and chunk_id.")
        return data


class ClickEventBody(OpenApiSerializerExtension):
    """The document says what the view checks: only these fields (else 400 `unknown_parameter`)
    and exactly one of entry_id and chunk_id (else 400 `target_invalid`)."""

    target_class = SearchEventRequest

    def map_serializer(self, auto_schema, direction):
        schema = spectacular_basic_serializer_schema(auto_schema, self.target, direction)
        schema["additionalProperties"] = False
        schema["oneOf"] = [{"required": ["entry_id"]}, {"required": ["chunk_id"]}]
        return schema


SearchEventResponse = inline_serializer(name="SearchEventResponse", fields={
    "search_id": serializers.CharField(),
    "recorded": serializers.BooleanField(help_text="false when the workspace logs no searches (nothing is kept)."),
})


class SearchEventView(SearchAPIView):
    """Record a click on a search's result."""

    parser_classes = [BoundedJSONParser]

    @extend_schema(
        tags=["search"], operation_id="search_event", summary="Report a click on a search result",
        description="Tell the workspace's search insights which result of a search was opened: `search_id` is the "
        "search's `meta.search_id`, and exactly one of `entry_id` (a full-text result, or a chunk's entry) and "
        "`chunk_id` (a chunk search's source `id`), with its `position` from 1. The result must be one the caller "
        "may see. A search of another workspace is a 404 `search_not_found`, as for one that never was.",
        request=SearchEventRequest,
        responses={202: SearchEventResponse,
                   **error_responses(family="SearchEvent", bad_request=EVENT_BAD_REQUEST_CODES, json_body=True),
                   404: OpenApiResponse(response=inline_serializer(name="SearchEventNotFoundError", fields={
                       "code": serializers.ChoiceField(choices=["not_found", "search_not_found"]),
                       "message": serializers.CharField(),
                       "details": serializers.JSONField(required=False),
                   }), description="No such workspace (also another tenant's), or no such search in it. Codes: "
                       "`not_found`, `search_not_found`.")},
    )
    def post(self, request: Request, slug: str) -> Response:
        access = self.get_access()
        body = request_json_object(request, holding='"search_id", "position", and "entry_id" or "chunk_id"')
        data = SearchEventRequest(data=body).validated_event()
        event = search_event_record(access=access, search_id=data["search_id"], entry_id=data.get("entry_id"),
                                    chunk_id=data.get("chunk_id"), position=data["position"])
        return Response({"search_id": event.search_id, "recorded": event.recorded}, status=status.HTTP_202_ACCEPTED)
