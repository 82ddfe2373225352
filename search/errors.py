"""Errors a search raises for input the caller can fix; the API, CLI and admin translate them."""

from __future__ import annotations


class SearchInputError(ValueError):
    """Bad search input. `code` is stable and machine-readable; `message` is one sentence for people.

    The API answers it with HTTP 400 `{"code", "message"}`, the command with a CommandError.
    """

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message
