"""What cms/library_internals.py assumes of each library's non-public names, pinned against the
installed libraries: an upgrade that moves one fails here first. The drf-spectacular mapper is
the one search/contract/option_schemas.py sets up outside a schema run. No database."""

from __future__ import annotations

import pgserver
from django.test import RequestFactory
from rest_framework import serializers

from cms.library_internals import (
    pgserver_handle_forget,
    request_body_replace,
    spectacular_basic_serializer_schema,
    spectacular_field_schema,
    spectacular_serializer_schema,
)
from search.contract.option_schemas import openapi_mapper


class Nested(serializers.Serializer):
    size = serializers.IntegerField(min_value=1, max_value=9)


class Options(serializers.Serializer):
    name = serializers.CharField(max_length=5, help_text="a name")
    nested = Nested(required=False)


def test_a_field_maps_to_its_schema_with_its_validators_bounds():
    schema = spectacular_field_schema(openapi_mapper(), serializers.IntegerField(min_value=2, max_value=7), "request")

    assert schema == {"type": "integer", "minimum": 2, "maximum": 7}


def test_a_serializer_maps_to_its_schema_and_registers_what_it_references():
    auto = openapi_mapper()

    schema = spectacular_serializer_schema(auto, Options(), "request")

    assert schema["properties"]["name"] == {"type": "string", "maxLength": 5, "description": "a name"}
    assert schema["properties"]["nested"] == {"$ref": "#/components/schemas/Nested"}
    assert auto.registry.build({})["schemas"]["Nested"]["properties"]["size"]["maximum"] == 9


def test_a_basic_serializer_maps_to_its_schema():
    schema = spectacular_basic_serializer_schema(openapi_mapper(), Options(), "request")

    assert schema["type"] == "object"
    assert schema["required"] == ["name"]
    assert set(schema["properties"]) == {"name", "nested"}


def test_a_replaced_body_serves_every_later_read():
    request = RequestFactory().post("/", data=b"old", content_type="application/json")

    request_body_replace(request, b'{"new": 1}')

    assert request.body == b'{"new": 1}'
    assert request.read() == b'{"new": 1}'


def test_pgserver_keeps_one_handle_per_data_directory_that_can_be_forgotten(tmp_path):
    cache = pgserver.PostgresServer._instances  # noqa: SLF001 - the assumption under test
    assert isinstance(cache, dict)
    cache[tmp_path] = "handle"

    pgserver_handle_forget(pgserver, tmp_path)
    pgserver_handle_forget(pgserver, tmp_path)  # a directory it does not know is no error

    assert tmp_path not in cache
