"""What counts as one MCP message: the JSON-RPC checks the SDK's transports leave out.

MCP sends exactly one JSON-RPC message per POST body and per stdio line (batches left the
protocol in 2025-06-18), and a request's id is a string or a number, never null. The SDK's
handshake-era HTTP transport answers anything else with -32602 and a pydantic dump, its
stdio transport does not answer at all, and both read a request with `"id": null` as a
notification, which is owed no answer. `message_refusal` gives the JSON-RPC error owed
instead, as JSON-RPC 2.0 (section 5) words it: -32700 for what is not JSON, -32600 Invalid
Request for the rest, with the request's id when it has a usable one and null otherwise.
Both transports check with it before the SDK reads the message (search/interfaces/mcp/http.py,
search/interfaces/mcp/stdio.py).
"""

from __future__ import annotations

import json
from typing import Any

from mcp_types import INVALID_REQUEST, PARSE_ERROR, ErrorData, JSONRPCError, jsonrpc_message_adapter
from pydantic import ValidationError


def _usable_id(value: Any) -> bool:
    return isinstance(value, (str, int)) and not isinstance(value, bool)


def _refusal(code: int, message: str, request_id: Any = None) -> JSONRPCError:
    return JSONRPCError(jsonrpc="2.0", id=request_id, error=ErrorData(code=code, message=message))


def message_refusal(raw: bytes | str) -> JSONRPCError | None:
    """The JSON-RPC error `raw` is owed if it is not one MCP message, else None (the SDK serves it)."""
    try:
        decoded = json.loads(raw)
    except (ValueError, RecursionError):  # JSONDecodeError and bad UTF-8 are ValueErrors; deep nesting recurses
        return _refusal(PARSE_ERROR, "Parse error: the message is not JSON.")
    if isinstance(decoded, list):
        return _refusal(INVALID_REQUEST, "Invalid Request: send one JSON-RPC message at a time; MCP has no batches.")
    if not isinstance(decoded, dict):
        return _refusal(INVALID_REQUEST, "Invalid Request: a JSON-RPC message is a JSON object.")
    if "method" in decoded and "id" in decoded and not _usable_id(decoded["id"]):
        return _refusal(INVALID_REQUEST, "Invalid Request: a request's id must be a string or a number, not null.")
    try:
        jsonrpc_message_adapter.validate_python(decoded, by_name=False)
    except ValidationError:
        request_id = decoded.get("id")
        return _refusal(INVALID_REQUEST, 'Invalid Request: not a JSON-RPC 2.0 request, notification or response '
                        '(it needs "jsonrpc": "2.0" and a "method", or a "result" or "error").',
                        request_id if _usable_id(request_id) else None)
    return None


def refusal_json(refusal: JSONRPCError) -> str:
    """The refusal on the wire, with `"id": null` written out as JSON-RPC requires."""
    body = refusal.model_dump(mode="json", by_alias=True, exclude_none=True)
    body["id"] = refusal.id
    return json.dumps(body, ensure_ascii=False)
