"""The machine-readable `code` of an error known only by its HTTP status.

Every error body is {"code", "message"} (cms/api/errors.py). When nothing more specific is
known than the status (DRF's own refusals, the MCP SDK's bare ones, gunicorn's refusals of a
request it could not parse: config/gunicorn_errors.py), the status names the code. No Django
import: gunicorn's master loads this before any app.
"""

from __future__ import annotations

STATUS_CODES = {
    400: "invalid_request",
    401: "not_authenticated",
    403: "permission_denied",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    413: "request_too_large",
    414: "uri_too_long",
    415: "unsupported_media_type",
    417: "expectation_failed",
    429: "throttled",
    431: "headers_too_large",
    500: "server_error",
    501: "not_implemented",
}


def status_code_name(status_code: int) -> str:
    """The code of an error known only by its status (406: `not_acceptable`)."""
    return STATUS_CODES.get(status_code, "error")
