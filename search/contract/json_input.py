"""JSON from outside (API bodies, command-line filters), parsed with a bound on its nesting:
cms.json_input's one check (the admin's JSON fields pass through it too), its refusals raised
as search errors (`json_too_deep`, `json_invalid_character`).
"""

from __future__ import annotations

from typing import Any

from cms.json_input import MAX_JSON_DEPTH, JSONRefused, json_depth_exceeds, json_loads_checked
from search.contract.errors import SearchInputError

__all__ = ["MAX_JSON_DEPTH", "JSONInputRefused", "json_depth_exceeds", "json_loads_bounded"]


class JSONInputRefused(SearchInputError):
    """One of cms.json_input's refusals, as a search input error with its code."""


def json_loads_bounded(text: str, *, what: str = "The JSON", limit: int = MAX_JSON_DEPTH, **kwargs: Any) -> Any:
    """json.loads, after refusing input nested deeper than `limit` (`json_too_deep`); a value
    holding a lone surrogate raises `json_invalid_character`. Both are SearchInputErrors.
    Malformed JSON raises json.JSONDecodeError as usual."""
    try:
        return json_loads_checked(text, what=what, limit=limit, **kwargs)
    except JSONRefused as exc:
        raise JSONInputRefused(exc.code, exc.message) from exc
