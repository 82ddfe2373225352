"""JSON from outside (API bodies, command-line filters), parsed with a bound on its nesting.

Python's json module recurses once per level and raises RecursionError somewhere near a
thousand levels; code that walks the result recurses too. So nesting is measured first, by
a linear scan that does not recurse, and input deeper than MAX_JSON_DEPTH is refused with a
code before it is parsed.

A string may also hold a lone UTF-16 surrogate: JSON's grammar lets `"\\ud800"` through, and
so does Python's parser, but no UTF-8 text (nor the tokenizer, the database driver or a
JSON renderer) can hold one. Such input is refused with `json_invalid_character` once parsed,
wherever it is (a value, a key, a parameter's name), so no caller meets one.
"""

from __future__ import annotations

import json
import re
from typing import Any

from search.contract.errors import SearchInputError

# Far above what any request needs (a filter nests at most search.contract.filter_language.MAX_JSON_DEPTH
# levels, inside a request object), far below where Python recursion becomes a risk.
MAX_JSON_DEPTH = 64

_STRUCTURAL = re.compile(r'[\[\]{}"\\]')
# An escape that decodes to a surrogate (paired or not). Its absence, with text that encodes
# as UTF-8, proves the parsed value holds none, so most input is never walked.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


class JSONTooDeep(SearchInputError):
    def __init__(self, *, what: str, limit: int):
        super().__init__("json_too_deep", f"{what} nests deeper than {limit} levels.")


class JSONInvalidCharacter(SearchInputError):
    def __init__(self, *, what: str):
        super().__init__(
            "json_invalid_character",
            f"{what} holds a lone UTF-16 surrogate (such as \\ud800), which is not a character: send "
            "text as UTF-8, or escape a character outside the BMP as a surrogate pair.",
        )


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
    (`json_too_deep`); a value holding a lone surrogate raises JSONInvalidCharacter
    (`json_invalid_character`). Malformed JSON raises json.JSONDecodeError as usual."""
    if json_depth_exceeds(text, limit):
        raise JSONTooDeep(what=what, limit=limit)
    value = json.loads(text, **kwargs)
    if (_SURROGATE_ESCAPE.search(text) or not _is_utf8_encodable(text)) and _holds_surrogate(value):
        raise JSONInvalidCharacter(what=what)
    return value


def _is_utf8_encodable(text: str) -> bool:
    """False when `text` holds surrogates itself (invalid UTF-8 in argv, decoded with
    surrogateescape), rather than as escapes."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _holds_surrogate(value: Any) -> bool:
    """Whether a string anywhere in the parsed `value`, key or value, holds a surrogate code
    point: a pair of escapes decodes to one character outside the BMP, so any left is lone.
    Re-encoding walks the value in C, without recursion in Python."""
    try:
        json.dumps(value, ensure_ascii=False, allow_nan=True).encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False
