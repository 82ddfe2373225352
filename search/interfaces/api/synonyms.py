"""The workspace's synonym sets over the API: GET lists them, POST adds one, DELETE removes one.

Reading needs what search needs (any member or key of the workspace); writing needs the roles
that write entries (owner, editor), as in the admin. A set's terms are checked by
cms.services.synonym_set_check: each refusal is a 400 with a code.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from cms import services
from cms.access import DRAFT_ROLES
from cms.api.errors import ApiError
from cms.models import SynonymKind, SynonymSet
from search.interfaces.api.base import WorkspaceAPIView
from search.interfaces.api.limits import BoundedJSONParser
from search.interfaces.api.schema import error_responses

# The 403 and 503 components are the other endpoints' (one enum of codes each, named once).
FORBIDDEN_CODES = ["status_not_visible", "permission_denied"]
SYNONYM_CODES = ["synonym_set_too_small", "synonym_set_too_large", "synonym_kind_invalid", "synonym_term_invalid",
                 "synonym_terms_invalid", "synonym_source_taken", "synonym_set_duplicate", "invalid_request",
                 "unknown_parameter"]


class SynonymSetSerializer(serializers.Serializer):
    id = serializers.UUIDField(read_only=True)
    kind = serializers.ChoiceField(SynonymKind.values, default=SynonymKind.MULTI_WAY,
                                   help_text="multi_way: each term finds the others; one_way: `source` finds "
                                   "`terms`, not back.")
    source = serializers.CharField(required=False, allow_blank=True, default="",
                                   help_text="one_way only: the word that also finds `terms`.")
    terms = serializers.ListField(child=serializers.CharField(), help_text="2-50 words or phrases (one_way: 1-50).")


def synonym_set_dict(synonym_set: SynonymSet) -> dict[str, Any]:
    return {"id": str(synonym_set.id), "kind": synonym_set.kind, "source": synonym_set.source,
            "terms": list(synonym_set.terms)}


def _refused(exc: ValidationError) -> ApiError:
    return ApiError(exc.code or "invalid_request", " ".join(exc.messages))


class SynonymSetsView(WorkspaceAPIView):
    """GET: the workspace's synonym sets; POST: add one (owner or editor)."""

    parser_classes = [BoundedJSONParser]  # JSON only (415 otherwise), nesting bounded

    @extend_schema(tags=["synonyms"], operation_id="synonym_sets_list", summary="The workspace's synonym sets",
                   responses={200: SynonymSetSerializer(many=True),
                              **error_responses(family="EntrySearch", bad_request=["invalid_request"])})
    def get(self, request: Request, slug: str) -> Response:
        access = self.get_access()
        return Response([synonym_set_dict(s) for s in SynonymSet.objects.for_workspace(access.workspace)])

    @extend_schema(tags=["synonyms"], operation_id="synonym_set_create", summary="Add a synonym set",
                   description="Searches use it at once (query time, no reindex); `meta.expanded` shows it.",
                   request=SynonymSetSerializer,
                   responses={201: SynonymSetSerializer,
                              **error_responses(family="EntrySearch", bad_request=SYNONYM_CODES,
                                                forbidden=FORBIDDEN_CODES, json_body=True)})
    def post(self, request: Request, slug: str) -> Response:
        access = self.get_access()
        if access.role not in DRAFT_ROLES:
            raise ApiError("permission_denied", "Only the workspace's owners and editors edit synonyms.", status_code=403)
        body = request.data if isinstance(request.data, dict) else None
        if body is None:
            raise ApiError("invalid_request", "The body must be a JSON object with `terms`.")
        unknown = sorted(set(body) - {"kind", "source", "terms"}, key=str)
        if unknown:
            raise ApiError("unknown_parameter", f"Unknown parameter(s): {', '.join(map(str, unknown))[:200]}. "
                           "Accepted: kind, source, terms.")
        try:
            created = services.synonym_set_create(workspace=access.workspace, terms=body.get("terms"),
                                                  kind=body.get("kind") or SynonymKind.MULTI_WAY,
                                                  source=body.get("source") or "")
        except ValidationError as exc:
            raise _refused(exc) from exc
        return Response(synonym_set_dict(created), status=201)


class SynonymSetView(WorkspaceAPIView):
    """DELETE one synonym set (owner or editor)."""

    @extend_schema(tags=["synonyms"], operation_id="synonym_set_delete", summary="Delete a synonym set",
                   parameters=[OpenApiParameter("set_id", OpenApiTypes.UUID, OpenApiParameter.PATH)],
                   responses={204: None, **error_responses(family="EntrySearch", bad_request=["invalid_request"],
                                                           forbidden=FORBIDDEN_CODES)})
    def delete(self, request: Request, slug: str, set_id: Any) -> Response:
        access = self.get_access()
        if access.role not in DRAFT_ROLES:
            raise ApiError("permission_denied", "Only the workspace's owners and editors edit synonyms.", status_code=403)
        synonym_set = SynonymSet.objects.for_workspace(access.workspace).filter(id=set_id).first()
        if synonym_set is None:
            raise ApiError("not_found", "No such synonym set in this workspace.", status_code=404)
        services.synonym_set_delete(synonym_set=synonym_set)
        return Response(status=204)
