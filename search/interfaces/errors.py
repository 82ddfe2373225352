"""Each interface's form of a search error: the one mapping from SearchError (or any coded
error) to an HTTP answer, an MCP tool error and a command's error. The admin pages show the
same message in the editor's language (search.contract.errors.localized_text) with the code in
the message's extra tags (data-code).

Every form carries the same `code` and `message`, so a caller gets the same answer for the
same bad input whichever way it asks.
"""

from __future__ import annotations

import json
from typing import Protocol

from django.core.management.base import CommandError
from mcp.server.mcpserver.exceptions import ToolError

from cms.api.errors import ApiError


class CodedError(Protocol):
    """A search error (search.contract.errors.SearchError) or a model-switch error: a code and a sentence."""

    code: str
    message: str


def api_error_from(error: CodedError) -> ApiError:
    """The API's answer: the error's HTTP status, its code and message (and the bad path)."""
    path = getattr(error, "path", None)
    return ApiError(error.code, error.message, status_code=getattr(error, "status", 400),
                    details={"path": path} if path else None)


def tool_error_from(error: CodedError) -> ToolError:
    """An MCP tool error whose text is the API's `{"code", "message"}` JSON alone."""
    return ToolError(json.dumps({"code": error.code, "message": error.message}, ensure_ascii=False))


def command_error_from(error: CodedError) -> CommandError:
    """`[code] message` (and the bad part of a structured input): the code first, as the API's
    `code` field, so a script can branch on it; Django prints it and exits 1."""
    path = getattr(error, "path", None)
    where = f" (at {path})" if path and path not in error.message else ""
    return CommandError(f"[{error.code}] {error.message}{where}")
