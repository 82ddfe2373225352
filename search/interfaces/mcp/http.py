"""MCP over Streamable HTTP at /mcp/, served by the same WSGI app as the API.

The MCP SDK serves HTTP as an ASGI app; this app runs WSGI (runserver, gunicorn sync
workers with persistent database connections). Rather than move everything to ASGI, the
SDK's session manager runs in stateless JSON-response mode on one background event loop
per process, and a DRF view hands each request to it (`_AsgiBridge`):

- stateless + JSON response: every POST is one self-contained exchange with one JSON body,
  so a synchronous view can wait for it; no session lives between requests, so any gunicorn
  worker can answer any request. GET (a server-to-client SSE stream) and DELETE (ending a
  session) have nothing to do here and answer 405 with `Allow: POST`, which the protocol
  allows; nor is `subscriptions/listen` served (search/interfaces/mcp/server.py), so no answer is ever
  a stream that would hold the worker.
- A request from a browser page must come from an allowed Origin (MCP_ALLOWED_ORIGINS), as
  the spec requires against DNS rebinding; others answer 403 `origin_not_allowed`. Clients
  that are not browsers send no Origin and are served.
- A body that is not one JSON-RPC message is answered -32600 here (search/interfaces/mcp/jsonrpc.py),
  as over stdio, before the SDK reads it.
- The view is a DRF view: the same Bearer key authentication, 401 codes and throttles as
  the search API. Each HTTP request is one tool call, so the key is checked again at every
  call; a context variable hands the key's access to the tool.
- The tools are the same functions as over stdio (search/interfaces/mcp/server.py). Their database
  work is sent back to the request's own thread (`_RequestThread`), which waits for the
  answer anyway: it uses the request's persistent connection, so an MCP call costs the
  database what an API request does, and no extra thread holds a connection.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import json
import os
import queue
import threading
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpResponse
from django.http.request import validate_host
from mcp.server.transport_security import TransportSecuritySettings
from mcp.shared.inbound import ERROR_CODE_HTTP_STATUS
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.views import APIView

from cms.access import WorkspaceAccess, workspace_access_for_api_key
from cms.api.auth import ApiKeyAuthentication
from cms.api.errors import ApiError
from cms.error_codes import status_code_name
from search.interfaces.mcp.jsonrpc import message_refusal, refusal_json
from search.interfaces.mcp.server import CallerRefused, build_mcp_server

_request_access: contextvars.ContextVar[WorkspaceAccess | None] = contextvars.ContextVar(
    "mcp_request_access", default=None
)
_request_thread: contextvars.ContextVar[_RequestThread | None] = contextvars.ContextVar(
    "mcp_request_thread", default=None
)
# Response headers the WSGI server sets itself.
_HOP_BY_HOP = frozenset({"connection", "content-length", "keep-alive", "transfer-encoding"})


def _http_caller() -> WorkspaceAccess:
    access = _request_access.get()
    if access is None:  # only reachable if a tool ran outside McpView
        raise CallerRefused("not_authenticated", "Send a workspace API key as Authorization: Bearer <key>.")
    return access


class _RequestThread:
    """Work the event loop hands back to the thread serving the HTTP request.

    The request thread runs `serve_until` while the exchange is in flight; a tool's
    `run_on_request_thread` queues its call and awaits the result.
    """

    _DONE = object()

    def __init__(self) -> None:
        self._work: queue.SimpleQueue = queue.SimpleQueue()

    def submit(self, call: Callable[[], Any]) -> concurrent.futures.Future:
        future: concurrent.futures.Future = concurrent.futures.Future()
        self._work.put((call, future))
        return future

    def finish(self, _exchange: concurrent.futures.Future | None = None) -> None:
        self._work.put(self._DONE)

    def serve_until(self, exchange: concurrent.futures.Future, *, timeout: float) -> Any:
        """Run queued calls until `exchange` is done; return its result."""
        exchange.add_done_callback(self.finish)
        deadline = time.monotonic() + timeout
        while True:
            try:
                item = self._work.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                exchange.cancel()
                raise concurrent.futures.TimeoutError() from None
            if item is self._DONE:
                return exchange.result()
            call, future = item
            if future.set_running_or_notify_cancel():
                try:
                    future.set_result(call())
                except BaseException as exc:  # noqa: BLE001 - handed to the awaiting tool
                    future.set_exception(exc)


async def run_on_request_thread(call: Callable[[], Any]) -> Any:
    """RunSync for the HTTP tools: the request's thread does the work (see _RequestThread)."""
    request_thread = _request_thread.get()
    if request_thread is None:  # only reachable if a tool ran outside McpView
        raise CallerRefused("not_authenticated", "Send a workspace API key as Authorization: Bearer <key>.")
    return await asyncio.wrap_future(request_thread.submit(call))


class _AsgiBridge:
    """Runs the SDK's stateless session manager on a background event loop, one per process.

    Started on first use, so a gunicorn worker forked from a preloading master starts its own.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._manager: Any = None
        self._pid = 0

    def _ensure_started(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is not None and self._pid == os.getpid():
                return self._loop
            server = build_mcp_server(caller=_http_caller, run_sync=run_on_request_thread)
            server.streamable_http_app(
                stateless_http=True,
                json_response=True,
                # Django checks the Host header (ALLOWED_HOSTS) and McpView the Origin, with
                # the API's error shape; the SDK's guard would answer in plain text.
                transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
            )
            self._manager = server.session_manager
            loop = asyncio.new_event_loop()
            started = threading.Event()
            thread = threading.Thread(target=self._serve, args=(loop, started), name="mcp-http", daemon=True)
            thread.start()
            started.wait(10)
            self._loop, self._pid = loop, os.getpid()
            return loop

    def _serve(self, loop: asyncio.AbstractEventLoop, started: threading.Event) -> None:
        asyncio.set_event_loop(loop)

        async def run() -> None:
            async with self._manager.run():
                started.set()
                await asyncio.Event().wait()  # for the life of the process (a daemon thread)

        loop.run_until_complete(run())

    def handle(self, scope: dict[str, Any], body: bytes, *, timeout: float) -> tuple[int, list[tuple[str, str]], bytes]:
        """Serve one request from the thread that received it; return (status, headers, body).

        The exchange runs on the loop in this thread's context (so the tools see its
        context variables), while this thread does the tools' database work.
        """
        loop = self._ensure_started()
        request_thread = _RequestThread()
        token = _request_thread.set(request_thread)
        try:
            exchange = asyncio.run_coroutine_threadsafe(self._exchange(scope, body), loop)
        finally:
            _request_thread.reset(token)
        return request_thread.serve_until(exchange, timeout=timeout)

    async def _exchange(self, scope: dict[str, Any], body: bytes) -> tuple[int, list[tuple[str, str]], bytes]:
        request_sent = False
        finished = asyncio.Event()
        status = 500
        headers: list[tuple[str, str]] = []
        chunks: list[bytes] = []

        async def receive() -> dict[str, Any]:
            nonlocal request_sent
            if not request_sent:
                request_sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            await finished.wait()  # the client stays connected until the answer is complete
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers.extend((k.decode("latin-1"), v.decode("latin-1")) for k, v in message.get("headers", []))
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))
                if not message.get("more_body", False):
                    finished.set()

        try:
            await self._manager.handle_request(scope, receive, send)
        finally:
            finished.set()
        return status, headers, b"".join(chunks)


_bridge = _AsgiBridge()


def _asgi_scope(request: Request) -> dict[str, Any]:
    return {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "method": request.method,
        "scheme": request.scheme,
        "path": "/mcp/",
        "raw_path": b"/mcp/",
        "root_path": "",
        "query_string": request.META.get("QUERY_STRING", "").encode("latin-1"),
        "headers": [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in request.headers.items()],
        "client": (request.META.get("REMOTE_ADDR", ""), 0),
        "server": (request.get_host().rsplit(":", 1)[0], int(request.get_port() or 80)),
    }


def _origin_parts(origin: str) -> tuple[str, str, int | None] | None:
    """(scheme, host, port or None) of an origin or an allowed-origin pattern; None if it is not one."""
    try:
        parts = urlsplit(origin.strip().lower())
        port = parts.port
    except ValueError:
        return None
    if not parts.scheme or not parts.hostname:
        return None
    return parts.scheme, parts.hostname, port


def origin_allowed(origin: str) -> bool:
    """Whether a browser page of `origin` may call /mcp/ (settings.MCP_ALLOWED_ORIGINS).

    A pattern matches hosts as ALLOWED_HOSTS does (".example.com" is the domain and its
    subdomains, "*" any host), and any port unless it names one; "*" alone allows every origin.
    """
    patterns = settings.MCP_ALLOWED_ORIGINS
    if "*" in patterns:
        return True
    sent = _origin_parts(origin)
    if sent is None:  # "null" (a sandboxed page, a file), or not an origin at all
        return False
    scheme, host, port = sent
    for pattern in patterns:
        allowed = _origin_parts(pattern)
        if allowed is not None and allowed[0] == scheme and validate_host(host, [allowed[1]]) \
                and allowed[2] in (None, port):
            return True
    return False


class _AnswerInJson(BaseContentNegotiation):
    """/mcp/'s own answers (401, 403, 405, 415) are JSON whatever Accept asks for.

    DRF negotiates before it authenticates or checks the method, so `Accept:
    text/event-stream` (a client opening the optional GET stream) got 406 where the spec
    says 405, and where a client without a key should hear 401. Accept on a POST is the
    SDK's to judge.
    """

    def select_parser(self, request: Request, parsers: list) -> Any:
        return parsers[0] if parsers else None

    def select_renderer(self, request: Request, renderers: list, format_suffix: str | None = None) -> tuple:
        return renderers[0], renderers[0].media_type


# The sentence of a refusal the SDK sends without a body, by status.
_BARE_REFUSALS = {406: "Accept must include application/json (MCP clients send "
                       "Accept: application/json, text/event-stream)."}


def _is_json_object(body: bytes) -> bool:
    try:
        return isinstance(json.loads(body), dict)
    except (ValueError, RecursionError):
        return False


class McpView(APIView):
    """POST /mcp/: one MCP JSON-RPC exchange, as the workspace API key in the Bearer header."""

    authentication_classes = [ApiKeyAuthentication]
    permission_classes = [IsAuthenticated]
    renderer_classes = [JSONRenderer]
    content_negotiation_class = _AnswerInJson
    schema = None  # MCP describes itself (tools/list); it is not part of the OpenAPI document
    # Stateless: no server-to-client stream to open (GET), no session to end (DELETE). Any
    # method but POST gets DRF's 405 with `Allow: POST`, and a code like every other error.
    http_method_names = ["post"]

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        # First, whatever the key: a page that a rebound DNS name points at this server gets
        # nothing, not even a 401 that tells it the endpoint exists.
        origin = request.headers.get("Origin")
        if origin and not origin_allowed(origin):
            raise ApiError("origin_not_allowed", f"Requests from the web page at {origin[:100]!r} are not allowed; "
                           "MCP clients that are not browsers send no Origin header.", status_code=403)
        super().initial(request, *args, **kwargs)

    def post(self, request: Request) -> HttpResponse:
        if request.content_type.split(";")[0].strip().lower() != "application/json":
            # The SDK would answer a plain-text 400; agents branch on a code.
            raise ApiError("unsupported_media_type", "Send the MCP message as JSON (Content-Type: application/json).",
                           status_code=415)
        refusal = message_refusal(request.body)
        if refusal is not None:
            return HttpResponse(refusal_json(refusal), status=ERROR_CODE_HTTP_STATUS.get(refusal.error.code, 400),
                                content_type="application/json")
        token = _request_access.set(workspace_access_for_api_key(api_key=request.auth))
        try:
            status, headers, body = _bridge.handle(_asgi_scope(request), request.body, timeout=settings.MCP_HTTP_TIMEOUT)
        except concurrent.futures.TimeoutError as exc:
            raise ApiError("mcp_timeout", f"The tool call took longer than {settings.MCP_HTTP_TIMEOUT:g} seconds.",
                           status_code=504) from exc
        finally:
            _request_access.reset(token)
        if 400 <= status < 500 and not _is_json_object(body):
            # The SDK refuses some requests with a status alone or a line of text: its handler
            # of protocol versions it does not know answers a bare 406 to an Accept without
            # application/json. Every /mcp/ refusal carries a code.
            text = body.decode("utf-8", "replace").strip()[:200]
            raise ApiError(status_code_name(status), _BARE_REFUSALS.get(status) or text
                           or f"The MCP layer refused the request (HTTP {status}).", status_code=status)
        response = HttpResponse(body, status=status)
        for name, value in headers:
            if name.lower() not in _HOP_BY_HOP:
                response[name] = value
        return response
