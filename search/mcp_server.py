"""MCP tools for AI agents: the hybrid, agentic, full-text and semantic searches of one workspace.

The workspace is the caller's, never a tool argument: a workspace API key names its own,
and an operator's `mcp_serve --user U --workspace W` fixes one. The caller is checked again
on EVERY tool call (`Caller`), so a key revoked or a user deactivated mid-session is
refused at the next call. The tools call the same search functions as the API, the admin
and the CLI; their errors are tool errors carrying the API's `{"code", "message"}`.

Two transports serve the same tools: stdio (`manage.py mcp_serve`) and Streamable HTTP at
/mcp/ (search/mcp_http.py).
"""

from __future__ import annotations

import functools
import inspect
import json
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

from cms import __version__
from cms.access import WorkspaceAccess, workspace_access_for_api_key, workspace_access_for_user
from cms.api_keys import ApiKeyRejected
from cms.selectors import content_type_list
from cms.services import api_key_authenticate
from ingestion.models import SourceKind
from search.agentic import agentic_search
from search.errors import SearchError, argument_refused
from search.filters import OPERATORS, RESERVED_KEYS
from search.fulltext import DEFAULT_LIMIT, search_entries
from search.hybrid import hybrid_search
from search.mcp_stdio import serve_stdio
from search.semantic import DEFAULT_TOP_K, semantic_search

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


def _tool_error(code: str, message: str) -> ToolError:
    return ToolError(json.dumps({"code": code, "message": message}, ensure_ascii=False))


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
        try:
            return await super().call_tool(name, arguments, context)
        except UnexpectedToolError:
            raise  # a crash: the SDK answers with the generic text and logs it
        except ToolError as failed:
            cause = failed.__cause__
            if isinstance(cause, ValidationError):
                refused = _argument_refusal(cause)
                raise _tool_error(refused.code, refused.message) from cause
            raise ToolError(str(cause) if isinstance(cause, ToolError) else str(failed)) from cause

    async def run_stdio_async(self) -> None:
        """Serve over stdio, answering every line that is not one MCP message (search/mcp_stdio.py)."""
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
    through a long agent session. Over HTTP, the request's own thread (search/mcp_http.py),
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
            except CallerRefused as refused:
                raise _tool_error(refused.code, refused.message) from refused
            except Http404 as exc:
                raise _tool_error("not_found", "No such workspace.") from exc
            except SearchError as exc:
                raise _tool_error(exc.code, exc.message) from exc
            except (OperationalError, InterfaceError) as exc:  # as the API's 503 (cms/api_errors.py)
                raise _tool_error("database_unavailable", "The database is unavailable; retry in a few seconds.") from exc
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

    Each value reaches the search function as the client sent it, as the API's request
    serializers pass it (search/api/semantic.py AnyJSONField): the search checks it and
    answers with the API's code (`top_k_invalid`), where pydantic would coerce "5" or true
    to 5 or 1, and refuse "abc" with a dump of its own.
    """
    signature = inspect.signature(fn, eval_str=True)
    parameters = [
        parameter.replace(annotation=Annotated[parameter.annotation, SkipValidation()])
        for parameter in list(signature.parameters.values())[1:]
    ]
    return signature.replace(parameters=parameters)


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

    @search_tool("search_entries")
    def search_entries_tool(
        access: WorkspaceAccess,
        query: str,
        content_type: str | None = None,
        status: str | None = None,
        limit: int = DEFAULT_LIMIT,
        offset: int = 0,
    ) -> dict[str, Any]:
        """Use for an exact word or code: names, ids, slugs, SKUs, error codes, a quoted phrase.

        Entries whose field values contain `query` (case-insensitive, literal), newest first;
        each result names the matched fields and has a snippet around the first match. Not for
        questions or meaning: use hybrid_search for those. `status` narrows to "draft" or
        "published" (only those list_content_types shows you); page with limit and offset.
        """
        result = search_entries(
            access=access, query=query, content_type=content_type, status=status, limit=limit, offset=offset
        )
        return result.as_dict()

    @search_tool("semantic_search")
    def semantic_search_tool(
        access: WorkspaceAccess,
        query: str,
        top_k: int = DEFAULT_TOP_K,
        min_score: float | None = None,
        content_type: str | None = None,
        filter: dict[str, Any] | None = None,  # noqa: A002 - the public parameter name
    ) -> dict[str, Any]:
        """Use for a question or a topic in any wording or language ("how do refunds work?",
        「返品」 finds "refund policy"). Returns the passages nearest in meaning, best first, with
        `relevant_context` ready to quote and `sources` with scores. For an exact code or name use
        search_entries. `filter` is MongoDB-style ($eq $ne $gt $gte $lt $lte $in $nin $exists $and
        $or $not) over content_type, status, source_kind and entry fields (list_content_types
        names them). `meta.pending` counts chunks not embedded yet.
        """
        result = semantic_search(
            access=access, query=query, top_k=top_k, min_score=min_score, content_type=content_type, filter=filter
        )
        return result.as_dict()

    @search_tool("hybrid_search")
    def hybrid_search_tool(
        access: WorkspaceAccess,
        query: str,
        top_k: int = DEFAULT_TOP_K,
        min_score: float | None = None,
        content_type: str | None = None,
        filter: dict[str, Any] | None = None,  # noqa: A002 - the public parameter name
        fusion: str | None = None,
        keyword_weight: float | None = None,
        semantic_weight: float | None = None,
        rerank: bool = False,
    ) -> dict[str, Any]:
        """THE DEFAULT SEARCH for natural-language questions: keywords (BM25) and meaning fused.

        Returns the best passages, best first, with `relevant_context` ready to quote and
        `sources` (each with its keyword and semantic scores and ranks). Exact words in the
        question (names, error codes, 返品) count, and so does meaning. `filter` is the same
        MongoDB-style filter as semantic_search. Leave the weights unset (fitted defaults);
        `fusion` "rrf" ranks by reciprocal ranks instead; `rerank` true reorders with the
        reranker if one is configured. `meta.legs_used` says which legs answered.
        """
        result = hybrid_search(
            access=access, query=query, top_k=top_k, min_score=min_score, content_type=content_type,
            filter=filter, fusion=fusion, keyword_weight=keyword_weight, semantic_weight=semantic_weight,
            rerank=rerank,
        )
        return result.as_dict()

    @search_tool("agentic_search")
    def agentic_search_tool(
        access: WorkspaceAccess,
        query: str,
        queries: list[str] | None = None,
        top_k: int = DEFAULT_TOP_K,
        min_score: float | None = None,
        content_type: str | None = None,
        filter: dict[str, Any] | None = None,  # noqa: A002 - the public parameter name
        fusion: str | None = None,
        keyword_weight: float | None = None,
        semantic_weight: float | None = None,
        rerank: bool = False,
    ) -> dict[str, Any]:
        """FOR A QUESTION THAT ASKS SEVERAL THINGS AT ONCE ("How do I reset my password, and can I
        delete my account?", 「返品の期限と送料は？」): each part is searched on its own and every part
        gets passages in the top_k, where hybrid_search would favour whichever half dominates.

        If you can split the question yourself, DO: pass the whole question as `query` and the
        self-contained sub-questions as `queries` (e.g. ["How do I reset my password?", "Can I
        delete my account?"]); otherwise the server splits `query` by rule. Same options and
        answer as hybrid_search; with `rerank` the passages are reranked against `query`.
        `meta.path` is "agentic" when the parts answered, "standard" when the whole question was
        searched instead (it did not split, or something failed: `meta.fallback_reason`).
        """
        result = agentic_search(
            access=access, query=query, queries=queries, top_k=top_k, min_score=min_score,
            content_type=content_type, filter=filter, fusion=fusion, keyword_weight=keyword_weight,
            semantic_weight=semantic_weight, rerank=rerank,
        )
        return result.as_dict()

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
