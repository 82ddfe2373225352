"""The API's error shape: every 4xx/5xx body is {"code": <machine-readable>, "message": <sentence>}."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DatabaseError, InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from cms.api.auth import auth_failure_record
from cms.error_codes import status_code_name


class ApiError(exceptions.APIException):
    """An error the client can act on. `code` is stable; `message` is for people."""

    status_code = status.HTTP_400_BAD_REQUEST

    def __init__(self, code: str, message: str, *, status_code: int | None = None, details: Any = None):
        super().__init__(detail=message, code=code)
        self.code = code
        self.message = message
        self.details = details
        if status_code is not None:
            self.status_code = status_code


# Keys of DRF's error bodies that are not names of request fields: their text stands alone.
_PLAIN_KEYS = frozenset({"detail", "non_field_errors"})


def _message(detail: Any) -> str:
    """DRF's error detail as plain sentences: "No such workspace.", not "detail: No such workspace."."""
    if isinstance(detail, list):
        return " ".join(_message(d) for d in detail)
    if isinstance(detail, dict):
        return " ".join(_message(v) if k in _PLAIN_KEYS else f"{k}: {_message(v)}" for k, v in detail.items())
    return str(detail)


# Seconds a client should wait before retrying when the database is unreachable (a restart
# or a failover takes a few seconds).
DATABASE_RETRY_AFTER_SECONDS = 2


def _code(exc: Exception, status_code: int) -> str:
    """A code given when the exception was raised (e.g. `api_key_expired`), else the status's."""
    codes = exc.get_codes() if isinstance(exc, exceptions.APIException) else None
    if isinstance(codes, str) and codes != getattr(type(exc), "default_code", None):
        return codes
    return status_code_name(status_code)


def exception_handler(exc: Exception, context: dict) -> Response | None:
    if isinstance(exc, (OperationalError, InterfaceError)) and not _is_query_error(exc):
        # The database went away (a restart, a failover, a dropped connection): a clean 503
        # the client can retry. Django discards the broken connection at the end of the
        # request, so the next one reconnects without restarting the web process.
        response = Response(
            {"code": "database_unavailable", "message": "The database is unavailable; retry in a few seconds."},
            status=503,
        )
        response["Retry-After"] = str(DATABASE_RETRY_AFTER_SECONDS)
        return response
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(exc.message_dict if hasattr(exc, "error_dict") else exc.messages)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(str(exc) or "Not found.")
    if isinstance(exc, ApiError):
        body: dict[str, Any] = {"code": exc.code, "message": exc.message}
        if exc.details is not None:
            body["details"] = exc.details
        return Response(body, status=exc.status_code)
    if isinstance(exc, (exceptions.NotAuthenticated, exceptions.AuthenticationFailed)) and "request" in context:
        # Every 401 of the API and /mcp/ counts against the client's address (cms/api/auth.py).
        exc = auth_failure_record(context["request"]) or exc
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    body = {"code": _code(exc, response.status_code), "message": _message(response.data)}
    if isinstance(exc, exceptions.ValidationError):
        body["code"] = "invalid_request"
        body["details"] = response.data
    response.data = body
    return response


def _is_query_error(exc: DatabaseError) -> bool:
    """Whether the statement itself failed (a cancel, a timeout), not the connection: those
    are the search's to answer (search/contract/errors.py), never 'database unavailable'."""
    cause = exc.__cause__
    return cause is not None and type(cause).__name__ in {"QueryCanceled", "LockNotAvailable"}


# --- errors raised before any API view runs ---------------------------------------------------
# A URL no route matches (a slug with characters a slug cannot have), a request Django refuses
# (a bad Host header), or a crash: Django answers these with its HTML pages. Under the API's
# and MCP's paths the answer keeps the API's shape instead, so a client can still branch on it.

API_PATH_PREFIXES = ("/api/", "/mcp")


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PATH_PREFIXES)


def _error_response(code: str, message: str, status: int) -> JsonResponse:
    return JsonResponse({"code": code, "message": message}, status=status, json_dumps_params={"ensure_ascii": False})


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return _error_response("bad_request", "The request could not be understood.", 400)
    return defaults.bad_request(request, exception)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return _error_response("not_found", "No such endpoint or workspace.", 404)
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    if _is_api(request):
        return _error_response("server_error", "Something went wrong on our side; it has been logged.", 500)
    return defaults.server_error(request)
