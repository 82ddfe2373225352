"""The search commands' JSON options (`--filter`, `--rerank-weights`): text from the command line, parsed as the API parses a body."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import CommandError

from search.contract.errors import SearchError
from search.contract.json_input import json_loads_bounded
from search.interfaces.errors import command_error_from


def filter_option_parse(text: str | None, *, what: str = "--filter") -> Any:
    """The filter given as `--filter`, or None; CommandError with the API's code otherwise
    (`malformed_json`, `json_too_deep`, `json_invalid_character`)."""
    if not text:
        return None
    try:
        return json_loads_bounded(text, what=what)
    except json.JSONDecodeError as exc:
        raise CommandError(f"[malformed_json] {what} is not valid JSON: {exc}") from exc
    except SearchError as exc:
        raise command_error_from(exc) from exc
