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


class SearchTimeout(SearchError):
    """A search statement ran past its time limit and was cancelled (HTTP 503).

    Not the caller's fault, nor a result: the statement was rolled back and the same search
    may succeed later, or a more specific query sooner. `timeout_ms` is the limit the search
    set (SEARCH_STATEMENT_TIMEOUT_MS), or None when the database's own limit struck.
    """

    status = 503

    def __init__(self, *, timeout_ms: int | None):
        limit = f"its limit of {timeout_ms} ms" if timeout_ms else "the database's time limit"
        super().__init__(
            "search_timeout",
            f"The search took longer than {limit} and was stopped. Try a more specific query, or try again later.",
        )
        self.timeout_ms = timeout_ms


def provider_error_code(*, transient: bool) -> str:
    """The code of an embedding or rerank provider's failure (HTTP 503 either way), in one place:
    `provider_unavailable` when the same call may work later (a timeout, a 429, a 5xx), and
    `provider_error` when it will not."""
    return "provider_unavailable" if transient else "provider_error"


def argument_refused(name: str, problem: str) -> SearchInputError:
    """A request argument refused before any search ran (left out, or not even of a JSON type
    the parameter takes): `query_empty` for the query, there being nothing to search for, and
    `invalid_request` otherwise. The API's request bodies and the MCP tools' arguments both
    answer with it."""
    return SearchInputError("query_empty" if name == "query" else "invalid_request", f"{name}: {problem}")
