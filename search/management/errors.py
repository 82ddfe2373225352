"""The commands' form of a coded error: one CommandError text, `[code] message`, for every command."""

from __future__ import annotations

from typing import Protocol

from django.core.management.base import CommandError


class CodedError(Protocol):
    """A search error (search.errors.SearchError) or a model-switch error: a code and a sentence."""

    code: str
    message: str


def command_error_from(error: CodedError) -> CommandError:
    """`[code] message` (and the bad part of a structured input): the code first, as the API's
    `code` field, so a script can branch on it; Django prints it and exits 1."""
    path = getattr(error, "path", None)
    where = f" (at {path})" if path and path not in error.message else ""
    return CommandError(f"[{error.code}] {error.message}{where}")
