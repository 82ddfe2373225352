"""The declared options (search/contract/options.py) as schemas, mapped by drf-spectacular as the
OpenAPI document maps them: each option's schema for the API's query parameters, and a
whole kind's options as a JSON Schema for its MCP tool's input.

The MCP schema is the OpenAPI one in JSON Schema's dialect: `nullable: true` becomes a
`"null"` type, and referenced components are inlined. So an agent and an API client are
told the same types, bounds and defaults.
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import ComponentRegistry
from rest_framework.views import APIView

from cms.library_internals import spectacular_field_schema, spectacular_serializer_schema
from search.contract.options import SearchOptions


def openapi_mapper() -> AutoSchema:
    """drf-spectacular's mapper outside a schema run (it wants a view and a method)."""
    auto = AutoSchema()
    auto.registry = ComponentRegistry()
    auto.method, auto.path, auto.path_regex = "POST", "/", "/"
    view = APIView()
    view.request, view.format_kwarg = None, None
    auto.view = view
    return auto


def option_openapi_schema(options: type[SearchOptions], name: str) -> dict[str, Any]:
    """One option's OpenAPI 3.0 schema (as for a query parameter)."""
    auto, field = openapi_mapper(), options().fields[name]
    schema = spectacular_field_schema(auto, field, "request")  # with its bounds, lengths and patterns
    schema.pop("description", None)  # the parameter carries it
    return schema


@cache
def options_json_schema(options: type[SearchOptions]) -> dict[str, Any]:
    """All of a kind's options as one JSON Schema object (an MCP tool's inputSchema)."""
    auto = openapi_mapper()
    schema = spectacular_serializer_schema(auto, options(), "request")
    components = {name: component for by_type in auto.registry.build({}).values() for name, component in by_type.items()}
    schema = _json_schema(schema, components)
    schema.pop("description", None)  # the tool's description says what it is for
    return schema


def _json_schema(node: Any, components: dict[str, Any]) -> Any:
    if isinstance(node, list):
        return [_json_schema(item, components) for item in node]
    if not isinstance(node, dict):
        return node
    node = dict(node)
    ref = node.pop("$ref", None)
    if ref is not None:
        node = {**copy.deepcopy(components[ref.rsplit("/", 1)[1]]), **node}
    all_of = node.get("allOf")
    if isinstance(all_of, list) and len(all_of) == 1:  # drf-spectacular's wrapper around a nullable $ref
        del node["allOf"]
        node = {**_json_schema(all_of[0], components), **node}
    node.pop("format", None) if node.get("format") == "double" else None
    for vendor in [key for key in node if key.startswith("x-")]:
        del node[vendor]
    nullable = node.pop("nullable", False)
    node = {key: _json_schema(value, components) for key, value in node.items()}
    if nullable:
        if "type" in node:
            node["type"] = [node["type"], "null"]
        if "enum" in node and None not in node["enum"]:
            node["enum"] = [*node["enum"], None]
    return node
