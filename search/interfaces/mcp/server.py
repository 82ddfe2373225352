"""MCP tools for AI agents: the hybrid, agentic, full-text and semantic searches of one workspace.

The workspace is the caller's, never a tool argument: a workspace API key names its own,
and an operator's `mcp_serve --user U --workspace W` fixes one. The caller is checked again
on EVERY tool call (`Caller`), so a key revoked or a user deactivated mid-session is
refused at the next call. The tools call the same search functions as the API, the admin
and the CLI; their errors are tool errors carrying the API's `{"code", "message"}`.

Two transports serve the same tools: stdio (`manage.py mcp_serve`) and Streamable HTTP at
/mcp/ (search/interfaces/mcp/http.py).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Awaitable, Callable
from functools import wraps
from typing import Annotated, Any, TypeVar

import anyio.to_thread

from django.contrib.auth import get_user_model
from django.db import InterfaceError, OperationalError, close_old_connections, connection
from django.http import Http404
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS, CallToolResult, GetPromptResult, InputRequiredResult, ToolAnnotations
from pydantic import SkipValidation, ValidationError
from rest_framework.fields import empty

from cms import __version__
from cms.access import WorkspaceAccess, workspace_access_for_api_key, workspace_access_for_user
from cms.api_keys import ApiKeyRejected
from cms.selectors import content_type_list
from cms.services import api_key_authenticate
from ingestion.models import SourceKind
from search.contract.errors import SearchError, argument_refused
from search.contract.filter_language import OPERATORS, RESERVED_KEYS
from search.interfaces.errors import tool_error_from
from search.kinds import SEARCH_KINDS, SearchKind
from search.interfaces.mcp.stdio import serve_stdio
from search.contract.option_schemas import options_json_schema

INSTRUCTIONS = (
    "Search one workspace of a headless CMS instead of reading every entry. Call "
    "list_content_types first: it names the content types, their fields and the status values "
    "you may filter on. For questions and anything written in words, call hybrid_search: it "
    "ranks by keywords and meaning together and returns relevant_context ready to quote, and "
    "sources with scores. When a question asks several things at once, call agentic_search and pass "
    "the parts you can split yourself as `queries`. Use search_entries for exact words, names, ids, slugs and product "
    "codes (case-insensitive substring over field values), and semantic_search only for pure "
    "paraphrase or cross-language matching (a Japanese query finding English text)."
)

# Who is asking, resolved again at every call: returns the caller's access, or raises
# CallerRefused / WorkspaceNotFound.
Caller = Callable[[], WorkspaceAccess]
# Runs a tool's synchronous work somewhere and awaits it.
RunSync = Callable[[Callable[[], Any]], Awaitable[Any]]

_Tool = TypeVar("_Tool", bound=Callable[..., Any])


class CallerRefused(Exception):
    """The acting key or user may not search (any more): the API's 401 code and message."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


# Every tool only reads the caller's workspace: the same call gives the same answer, and
# nothing outside the CMS's content is reached on the caller's behalf.
READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)


class SearchMCPServer(MCPServer):
    """The SDK's MCPServer, answering as the protocol and the API do where the SDK does not.

    - A tool error's text is the API's `{"code", "message"}` JSON alone (the SDK prefixes
      "Error executing tool <name>: "), so an agent can parse it; arguments the SDK's own
      check refuses (a missing `query`) get the code the API gives for them.
    - An unknown tool or prompt is a JSON-RPC error -32602 (Invalid params), as the spec
      says, not a tool result or an error with code 0.
    - Over stdio, a line that is not one JSON-RPC message is answered with its error.
    - `subscriptions/listen` is not served: nothing here ever changes a list, and in
      stateless HTTP a listen stream would only hold a worker. Capabilities derive from
      what is served, so neither `initialize` nor `server/discover` advertises change
      notifications.
    """

    def __init__(self, name: str, **kwargs: Any):
        super().__init__(name, version=__version__, subscriptions=False, **kwargs)

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> CallToolResult | InputRequiredResult:
        if name not in {tool.name for tool in await self.list_tools()}:
            raise MCPError(code=INVALID_PARAMS, message=f"Unknown tool: {name}", data={"name": name})
        kind = SEARCH_KINDS.get(name)
        if kind is not None:
            # The SDK would drop a name the tool does not take; the API refuses it.
            try:
                kind.options.unknown_refuse(arguments or {})
            except SearchError as exc:
                raise tool_error_from(exc) from exc
        try:
            return await super().call_tool(name, arguments, context)
        except UnexpectedToolError:
            raise  # a crash: the SDK answers with the generic text and logs it
        except ToolError as failed:
            cause = failed.__cause__
            if isinstance(cause, ValidationError):
                raise tool_error_from(_argument_refusal(cause)) from cause
            raise ToolError(str(cause) if isinstance(cause, ToolError) else str(failed)) from cause

    async def run_stdio_async(self) -> None:
        """Serve over stdio, answering every line that is not one MCP message (search/interfaces/mcp/stdio.py)."""
        await serve_stdio(self._lowlevel_server)

    async def get_prompt(self, name: str, arguments: dict[str, Any] | None = None,
                         context: Any = None) -> GetPromptResult | InputRequiredResult:
        if name not in {prompt.name for prompt in await self.list_prompts()}:
            raise MCPError(code=INVALID_PARAMS, message=f"Unknown prompt: {name}", data={"name": name})
        return await super().get_prompt(name, arguments, context)


def _argument_refusal(error: ValidationError) -> SearchError:
    """The SDK's argument check refused a call: as the API refuses the same request body.

    The tools' parameters skip pydantic's validation (_tool_signature), so the search
    functions check every value and give their own codes; what is left here is a required
    argument left out.
    """
    first = error.errors()[0]
    name = ".".join(str(part) for part in first["loc"]) or "arguments"
    problem = "This field is required." if first["type"] == "missing" else "This value is not valid."
    return argument_refused(name, problem)


def api_key_caller(raw_key: str) -> Caller:
    """The caller behind a workspace API key: the key is checked (revocation, expiry) each call."""

    def access() -> WorkspaceAccess:
        try:
            api_key = api_key_authenticate(raw_key=raw_key)
        except ApiKeyRejected as rejected:
            raise CallerRefused(rejected.code, rejected.message) from rejected
        return workspace_access_for_api_key(api_key=api_key)

    return access


def user_caller(*, username: str, workspace: str) -> Caller:
    """An operator's choice: act as a CMS user in one workspace, with that user's role, read afresh each call."""

    def access() -> WorkspaceAccess:
        user = get_user_model().objects.filter(username=username).first()
        if user is None or not user.is_active:
            raise CallerRefused("not_authenticated", f"User {username!r} does not exist or is deactivated.")
        return workspace_access_for_user(user=user, slug=workspace)

    return access


async def in_worker_thread(call: Callable[[], Any]) -> Any:
    """Run a tool's database work in one of the SDK's worker threads (stdio)."""
    return await anyio.to_thread.run_sync(call)


def _tool_calls(*, caller: Caller, run_sync: RunSync | None) -> Callable[[_Tool], _Tool]:
    """Wrap a tool: resolve the caller first, and turn every refusal into a coded tool error.

    `run_sync` decides which thread does the (synchronous, database) work. By default one of
    the SDK's worker threads, which closes its connection after each call, so none sits idle
    through a long agent session. Over HTTP, the request's own thread (search/interfaces/mcp/http.py),
    whose connection Django manages like any request's.
    """
    close_after = run_sync is None
    run = run_sync or in_worker_thread

    def decorate(fn: _Tool) -> _Tool:
        def call(**kwargs: Any) -> Any:
            if close_after:
                close_old_connections()
            try:
                return fn(caller(), **kwargs)
            except (CallerRefused, SearchError) as refused:
                raise tool_error_from(refused) from refused
            except Http404 as exc:
                raise tool_error_from(SearchError("not_found", "No such workspace.")) from exc
            except (OperationalError, InterfaceError) as exc:  # as the API's 503 (cms/api/errors.py)
                raise tool_error_from(SearchError("database_unavailable",
                                                  "The database is unavailable; retry in a few seconds.")) from exc
            finally:
                if close_after:
                    connection.close()

        @wraps(fn)
        async def tool(**kwargs: Any) -> Any:
            return await run(functools.partial(call, **kwargs))

        # The SDK reads the tool's parameters from the signature: hide the injected access.
        tool.__signature__ = _tool_signature(fn)  # type: ignore[attr-defined]
        return tool  # type: ignore[return-value]

    return decorate


def _tool_signature(fn: Callable[..., Any]) -> inspect.Signature:
    """The tool's parameters as the SDK should read them: without the injected access, and
    typed for the input schema only.

    Each value reaches the search as the client sent it (pydantic would coerce "5" or true to
    5 or 1): the declared options check it and answer with the API's code (`top_k_invalid`).
    """
    signature = inspect.signature(fn, eval_str=True)
    parameters = [
        parameter.replace(annotation=Annotated[parameter.annotation, SkipValidation()])
        for parameter in list(signature.parameters.values())[1:]
    ]
    return signature.replace(parameters=parameters)


def _options_signature(kind: SearchKind) -> inspect.Signature:
    """A search tool's parameters: its declared options, in order, with their defaults."""
    access = inspect.Parameter("access", inspect.Parameter.POSITIONAL_OR_KEYWORD)
    options = [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=Any,
                          **({} if field.default is empty else {"default": field.default}))
        for name, field in kind.options().fields.items()
    ]
    return inspect.Signature([access, *options], return_annotation=dict[str, Any])


def content_types_describe(access: WorkspaceAccess) -> dict[str, Any]:
    """What an agent may filter on in this workspace: content types with typed fields, the
    status values this caller sees, and the filter keys and operators."""
    return {
        "workspace": access.workspace.slug,
        "statuses": list(access.entry_statuses),
        "source_kinds": list(SourceKind.values),
        "filter_keys": sorted(RESERVED_KEYS) + ["fields.<field id>", "<field id>"],
        "filter_operators": sorted(OPERATORS),
        "content_types": [
            {
                "api_id": content_type.api_id,
                "name": content_type.name,
                "semantic_search": content_type.semantic_search_enabled,
                "fields": [
                    {"id": f["id"], "label": f.get("label", f["id"]), "type": f["type"],
                     "required": bool(f.get("required", False))}
                    for f in content_type.fields
                ],
            }
            for content_type in content_type_list(workspace=access.workspace)
        ],
    }


def _search_tool_function(kind: SearchKind) -> Callable[..., dict[str, Any]]:
    """The tool of one search kind: its options in, the search's JSON out."""

    def search(access: WorkspaceAccess, **options: Any) -> dict[str, Any]:
        return kind.search(access, options, interface="mcp").as_dict()

    search.__name__ = kind.name
    search.__doc__ = kind.guidance
    search.__signature__ = _options_signature(kind)  # type: ignore[attr-defined]
    return search


def build_mcp_server(*, caller: Caller, run_sync: RunSync | None = None) -> MCPServer:
    """An MCP server whose tools search the workspace `caller` resolves to, as that caller.

    `run_sync` runs each call's database work (see _tool_calls); by default a worker thread.
    """
    server = SearchMCPServer("cms-search", instructions=INSTRUCTIONS)
    tool_call = _tool_calls(caller=caller, run_sync=run_sync)

    def search_tool(name: str) -> Callable[[_Tool], _Tool]:
        """Register a read-only tool; its description is the docstring without the source's indentation."""

        def register(fn: _Tool) -> _Tool:
            wrapped = tool_call(fn)
            server.add_tool(wrapped, name=name, description=inspect.cleandoc(fn.__doc__ or ""), annotations=READ_ONLY)
            return wrapped

        return register

    @search_tool("list_content_types")
    def list_content_types_tool(access: WorkspaceAccess) -> dict[str, Any]:
        """Call this first. The workspace's content types with their fields (id, label, type),
        the entry status values you can see, and the keys and operators semantic_search's
        `filter` accepts. Use the api_id values as `content_type` in the other tools."""
        return content_types_describe(access)

    for kind in SEARCH_KINDS.values():
        search_tool(kind.name)(_search_tool_function(kind))
        # The input schema is the declaration's, as the API documents it: types, bounds, defaults.
        server._tool_manager.get_tool(kind.name).parameters = options_json_schema(kind.options)  # noqa: SLF001

    return server


__all__ = [
    "Caller",
    "CallerRefused",
    "RunSync",
    "SearchMCPServer",
    "api_key_caller",
    "build_mcp_server",
    "content_types_describe",
    "user_caller",
]
