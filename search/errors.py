"""Errors a search raises; the API, CLI, admin and MCP tools translate them the same way."""

from __future__ import annotations


class SearchError(Exception):
    """A search that cannot run as asked.

    `code` is stable and machine-readable; `message` is one sentence for people; `status` is
    the HTTP status the API answers with; `path` names the bad part of a structured input
    (a filter), when there is one.
    """

    status: int = 400

    def __init__(self, code: str, message: str, *, status: int | None = None, path: str | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.path = path
        if status is not None:
            self.status = status


class SearchInputError(SearchError, ValueError):
    """Bad search input the caller can fix (HTTP 400)."""
