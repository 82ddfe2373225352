"""MCP tools for AI agents: the full-text and semantic searches, scoped to one CMS user.

An agent host starts `python manage.py mcp_serve --user <username>` and talks MCP over
stdio. Every tool takes the workspace slug and answers only within the workspaces that user
is a member of (a superuser sees all); another workspace is "not found", exactly as in the
HTTP API. The tools call the same search functions as the API, the admin and the CLI.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from django.contrib.auth.models import AbstractBaseUser
from django.db import close_old_connections, connection
from django.http import Http404
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from cms.access import WorkspaceAccess, workspace_access_for_user, workspace_accesses_for_user
from search.errors import SearchError
from search.fulltext import DEFAULT_LIMIT, search_entries
from search.semantic import DEFAULT_TOP_K, semantic_search

INSTRUCTIONS = (
    "Search a headless CMS instead of reading every entry. Use search_entries for exact words, "
    "names, ids, slugs and product codes (case-insensitive substring over field values). Use "
    "semantic_search for questions and meaning (multilingual: a Japanese query finds English "
    "text); it returns relevant_context ready to quote, and sources with scores. Call "
    "list_workspaces first to learn the workspace slugs you may search."
)

_Tool = TypeVar("_Tool", bound=Callable[..., Any])


def _tool_errors(fn: _Tool) -> _Tool:
    """Run a tool on a fresh database connection and turn search errors into tool errors.

    Tools run in worker threads; each call closes its connection so none is left idle in a
    long-lived agent session. Errors reach the agent as `{"code", "message"}` JSON text.
    """

    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        close_old_connections()
        try:
            return fn(*args, **kwargs)
        except Http404 as exc:
            raise ToolError(json.dumps({"code": "not_found", "message": "No such workspace."})) from exc
        except SearchError as exc:
            raise ToolError(json.dumps({"code": exc.code, "message": exc.message}, ensure_ascii=False)) from exc
        finally:
            connection.close()

    return wrapper  # type: ignore[return-value]


def build_mcp_server(*, user: AbstractBaseUser) -> MCPServer:
    """An MCP server whose tools act as `user`."""
    server = MCPServer("cms-search", instructions=INSTRUCTIONS)

    def access_for(slug: str) -> WorkspaceAccess:
        return workspace_access_for_user(user=user, slug=slug)

    @server.tool()
    @_tool_errors
    def list_workspaces() -> list[dict[str, Any]]:
        """The workspaces you may search: slug, name, your role, and whether you see drafts."""
        return [
            {"slug": a.workspace.slug, "name": a.workspace.name, "role": a.role, "sees_drafts": a.include_drafts}
            for a in workspace_accesses_for_user(user=user)
        ]

    @server.tool(name="search_entries")
    @_tool_errors
    def search_entries_tool(
        workspace: str,
        query: str,
        content_type: str | None = None,
        status: str | None = None,
        limit: int = DEFAULT_LIMIT,
        offset: int = 0,
    ) -> dict[str, Any]:
        """Entries whose field values contain `query` (case-insensitive, literal), newest first.

        Each result names the matched fields and has a snippet around the first match.
        """
        from search.api.entries import EntrySearchResultSerializer

        result = search_entries(
            access=access_for(workspace), query=query, content_type=content_type, status=status,
            limit=limit, offset=offset,
        )
        return dict(EntrySearchResultSerializer(result).data)

    @server.tool(name="semantic_search")
    @_tool_errors
    def semantic_search_tool(
        workspace: str,
        query: str,
        top_k: int = DEFAULT_TOP_K,
        min_score: float | None = None,
        content_type: str | None = None,
        filter: dict[str, Any] | None = None,  # noqa: A002 - the public parameter name
    ) -> dict[str, Any]:
        """The chunks nearest in meaning to `query`, best first, with `relevant_context` to quote.

        `filter` is a MongoDB-style metadata filter ($eq $ne $gt $gte $lt $lte $in $nin
        $exists $and $or $not) over content_type, status, source_kind and entry field values.
        `meta.pending` says how many chunks are not embedded yet.
        """
        result = semantic_search(
            access=access_for(workspace), query=query, top_k=top_k, min_score=min_score,
            content_type=content_type, filter=filter,
        )
        return result.as_dict()

    return server
