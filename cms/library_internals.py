"""Every use of a third-party library's non-public names, in one place, each behind a function.

Where a library offers no public way to do what we need, the private name is used here and
nowhere else, and tests/cms/test_library_internals.py pins what each function assumes: a
library upgrade that moves one of them fails that test, not a request in production. It sits
in `cms`, the lowest of the project's layers, so that `search`, `ingestion` and `config` may all
import it; it imports no library itself (each function is handed the library's object).

Left outside, with the reason: search/interfaces/mcp/server.py reads the MCP SDK's
`FastMCP._tool_manager` (that module is another session's to change).
"""

from __future__ import annotations

import io
from typing import Any


# --- drf-spectacular: the mapper, outside a schema run -------------------------------------------
# drf-spectacular's AutoSchema has no public method that maps one serializer field, or a
# serializer, to a schema without registering it as a component: its own extensions call these.

def spectacular_field_schema(auto_schema: Any, field: Any, direction: str) -> dict[str, Any]:
    """One serializer field's OpenAPI schema, with its validators' bounds, lengths and patterns."""
    schema = auto_schema._map_serializer_field(field, direction)  # noqa: SLF001
    auto_schema._insert_field_validators(field, schema)  # noqa: SLF001
    return schema


def spectacular_serializer_schema(auto_schema: Any, serializer: Any, direction: str) -> dict[str, Any]:
    """A serializer's OpenAPI schema as drf-spectacular maps it (extensions applied); the
    components it references land in `auto_schema.registry`."""
    return auto_schema._map_serializer(serializer, direction)  # noqa: SLF001


def spectacular_basic_serializer_schema(auto_schema: Any, serializer: Any, direction: str) -> dict[str, Any]:
    """A serializer's OpenAPI schema without the extensions (what an OpenApiSerializerExtension's
    map_serializer starts from)."""
    return auto_schema._map_basic_serializer(serializer, direction)  # noqa: SLF001


# --- Django: a request body read by hand -----------------------------------------------------------

def request_body_replace(request: Any, body: bytes) -> None:
    """Make `body` the request's body, as HttpRequest.body does once it has read one: later
    reads (`request.body`, `request.read()`, DRF's parsers) are served from memory. Django has
    no public setter for it."""
    request._body = body  # noqa: SLF001
    request._stream = io.BytesIO(body)  # noqa: SLF001


# --- pgserver: its per-directory server cache ----------------------------------------------------

def pgserver_handle_forget(pgserver: Any, pgdata: Any) -> None:
    """Drop pgserver's cached handle on the server of `pgdata`, so that the next get_server
    reads postmaster.pid again (pgserver has no public way to forget it)."""
    pgserver.PostgresServer._instances.pop(pgdata, None)  # noqa: SLF001
