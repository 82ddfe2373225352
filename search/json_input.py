"""JSON from outside (API bodies, command-line filters), parsed with a bound on its nesting.

Python's json module recurses once per level and raises RecursionError somewhere near a
thousand levels; code that walks the result recurses too. So nesting is measured first, by
a linear scan that does not recurse, and input deeper than MAX_JSON_DEPTH is refused with a
code before it is parsed.
"""

from __future__ import annotations

import json
import re
from typing import Any

from search.errors import SearchInputError

# Far above what any request needs (a filter nests at most search.filters.MAX_JSON_DEPTH
# levels, inside a request object), far below where Python recursion becomes a risk.
MAX_JSON_DEPTH = 64

_STRUCTURAL = re.compile(r'[\[\]{}"\\]')


class JSONTooDeep(SearchInputError):
    def __init__(self, *, what: str, limit: int):
        super().__init__("json_too_deep", f"{what} nests deeper than {limit} levels.")


def json_depth_exceeds(text: str, limit: int) -> bool:
    """Whether `text` opens more than `limit` arrays/objects inside one another, strings
    aside. Linear in the text; meaningful for valid JSON, and safe (never recursive, never
    quadratic) for anything else, which the parser then rejects."""
    if text.count("[") + text.count("{") <= limit:
        return False
    depth, in_string, skip_to = 0, False, -1
    for match in _STRUCTURAL.finditer(text):
        at = match.start()
        if at < skip_to:  # the character after a backslash in a string
            continue
        char = text[at]
        if in_string:
            if char == "\\":
                skip_to = at + 2
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


def json_loads_bounded(text: str, *, what: str = "The JSON", limit: int = MAX_JSON_DEPTH, **kwargs: Any) -> Any:
    """json.loads, after refusing input nested deeper than `limit` with JSONTooDeep
    (`json_too_deep`). Malformed JSON raises json.JSONDecodeError as usual."""
    if json_depth_exceeds(text, limit):
        raise JSONTooDeep(what=what, limit=limit)
    return json.loads(text, **kwargs)
