"""Bounds on what the API reads: the size of a request body, and the nesting of its JSON.

- ApiBodyLimitMiddleware refuses a body over API_MAX_BODY_BYTES under /api/ and at /mcp/
  (MCP over HTTP) with 413 `request_too_large`, before anything reads it. Django reads at
  most Content-Length bytes, so checking the header bounds the bytes read too. A chunked
  body (no Content-Length) is read up to the limit when the server has de-chunked it
  (gunicorn sets `wsgi.input_terminated`), and refused with 411 `length_required`
  otherwise: without that, Django would read it as empty. Admin uploads are elsewhere and
  keep DATA_UPLOAD_MAX_MEMORY_SIZE.
- BoundedJSONParser (REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"], and the semantic view's
  parser) refuses JSON nested deeper than search.contract.json_input.MAX_JSON_DEPTH with 400
  `json_too_deep`, instead of the RecursionError (a 500) that the json module raises at
  some depth; and a string holding a lone UTF-16 surrogate (`"\\ud800"`, in a value, a key
  or a parameter's name) with 400 `json_invalid_character`, instead of the 500 that the
  tokenizer, the database driver or the renderer raises on meeting it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser, get_encoding
from rest_framework.utils.json import strict_constant

from cms.library_internals import request_body_replace
from search.contract.errors import SearchInputError
from search.contract.json_input import json_loads_bounded

API_PREFIX = "/api/"
MCP_PATH = "/mcp"


def _is_limited(path: str) -> bool:
    return path.startswith(API_PREFIX) or path.rstrip("/") == MCP_PATH


def _refusal(status: int, code: str, message: str) -> JsonResponse:
    # Answered without reading the body. What happens to the unread rest is the server's
    # business (gunicorn discards it or closes the connection); WSGI forbids a Connection header.
    return JsonResponse({"code": code, "message": message}, status=status)


class ApiBodyLimitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if _is_limited(request.path_info):
            refusal = self._check(request)
            if refusal is not None:
                return refusal
        return self.get_response(request)

    def _check(self, request: HttpRequest) -> HttpResponse | None:
        limit = int(settings.API_MAX_BODY_BYTES)
        declared = request.META.get("CONTENT_LENGTH") or ""
        if declared.strip():
            try:
                length = int(declared)
            except ValueError:
                return _refusal(400, "invalid_request", "The Content-Length header is not a number.")
            if length > limit:
                return _refusal(
                    413, "request_too_large", f"The request body is {length} bytes; the API accepts at most {limit}."
                )
            return None
        if "chunked" not in request.META.get("HTTP_TRANSFER_ENCODING", "").lower():
            return None
        if not request.META.get("wsgi.input_terminated"):
            return _refusal(
                411, "length_required", "Send the request body with a Content-Length header; this server cannot read "
                "a chunked body."
            )
        body = request.META["wsgi.input"].read(limit + 1)
        if len(body) > limit:
            return _refusal(413, "request_too_large", f"The request body is over the API's limit of {limit} bytes.")
        # What HttpRequest.body does once it has read a body: keep it, and serve later reads
        # from memory. Content-Length tells DRF there is a body to parse.
        request_body_replace(request, body)
        request.META["CONTENT_LENGTH"] = str(len(body))
        return None


class BoundedJSONParser(JSONParser):
    """DRF's JSONParser, refusing nesting past MAX_JSON_DEPTH with 400 `json_too_deep` and lone
    surrogates with 400 `json_invalid_character`."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: dict | None = None) -> Any:
        encoding = get_encoding(parser_context or {})
        try:
            text = stream.read().decode(encoding)
            return json_loads_bounded(
                text, what="The request body", parse_constant=strict_constant if self.strict else None
            )
        except SearchInputError as exc:  # json_too_deep, json_invalid_character
            # Imported here: cms.api.errors imports DRF's views, whose APIView reads
            # DEFAULT_PARSER_CLASSES, which names this module.
            from cms.api.errors import ApiError

            raise ApiError(exc.code, exc.message) from exc
        except ValueError as exc:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
            raise ParseError(f"JSON parse error - {exc}") from exc
