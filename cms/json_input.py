"""JSON from outside, parsed with one check: every interface's JSON (the API's bodies, the
commands' filters, the admin's JSON fields) passes through `json_loads_checked`.

Python's json module recurses once per level and raises RecursionError somewhere near a
thousand levels; code that walks the result recurses too. So nesting is measured first, by
a linear scan that does not recurse, and input deeper than MAX_JSON_DEPTH is refused with a
code before it is parsed.

A string may also hold a lone UTF-16 surrogate: JSON's grammar lets `"\\ud800"` through, and
so does Python's parser, but no UTF-8 text (nor the tokenizer, the database driver or a
JSON renderer) can hold one. Such input is refused with `json_invalid_character` once parsed,
wherever it is (a value, a key, a parameter's name), so no caller meets one. JSON stored as
is (a content type's fields, in a JSONB column) is refused a NUL the same way, as PostgreSQL
cannot store one; search input refuses NUL field by field, with the field's own code.

It lives in cms, the lowest layer, so that the admin's forms use the same check as the API
(search.contract.json_input raises its refusals as search errors).
"""

from __future__ import annotations

import json
import re
from typing import Any

# Far above what any request needs (a filter nests at most search.contract.filter_language.MAX_JSON_DEPTH
# levels, inside a request object), far below where Python recursion becomes a risk.
MAX_JSON_DEPTH = 64

_STRUCTURAL = re.compile(r'[\[\]{}"\\]')
# An escape that decodes to a surrogate (paired or not). Its absence, with text that encodes
# as UTF-8, proves the parsed value holds none, so most input is never walked.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_NUL_ESCAPE = re.compile(r"\\u0000")


class JSONRefused(Exception):
    """JSON the check refuses: `code` (json_too_deep, json_invalid_character) and a sentence."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code, self.message = code, message


def json_too_deep(*, what: str, limit: int) -> JSONRefused:
    return JSONRefused("json_too_deep", f"{what} nests deeper than {limit} levels.")


def json_lone_surrogate(*, what: str) -> JSONRefused:
    return JSONRefused(
        "json_invalid_character",
        f"{what} holds a lone UTF-16 surrogate (such as \\ud800), which is not a character: send "
        "text as UTF-8, or escape a character outside the BMP as a surrogate pair.",
    )


def json_nul(*, what: str) -> JSONRefused:
    return JSONRefused("json_invalid_character", f"{what} holds a NUL character (\\u0000), which cannot be stored.")


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


def json_loads_checked(text: str, *, what: str = "The JSON", limit: int = MAX_JSON_DEPTH, refuse_nul: bool = False,
                       **kwargs: Any) -> Any:
    """json.loads, after refusing input nested deeper than `limit` (`json_too_deep`); a value
    holding a lone surrogate (or, with `refuse_nul`, a NUL) is refused once parsed
    (`json_invalid_character`). Refusals raise JSONRefused; malformed JSON raises
    json.JSONDecodeError as usual."""
    if json_depth_exceeds(text, limit):
        raise json_too_deep(what=what, limit=limit)
    value = json.loads(text, **kwargs)
    if (_SURROGATE_ESCAPE.search(text) or not _is_utf8_encodable(text)) and _holds_surrogate(value):
        raise json_lone_surrogate(what=what)
    if refuse_nul and ("\x00" in text or _NUL_ESCAPE.search(text)) and _holds_nul(value):
        raise json_nul(what=what)
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


def _holds_nul(value: Any) -> bool:
    """Whether a string anywhere in the parsed `value`, key or value, holds a NUL. A walk with
    a stack (the depth is bounded already, but the walk need not recurse)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False
