"""The metadata filter language (MongoDB-style operators): what a caller may send, and every rule and refusal.

This module is the language: its operators and keys, its limits, and the checks that refuse a bad
filter (FilterError, with a code and the path to the first bad part). The SQL compiler,
`search.engine.filters.compile.filter_compile`, walks a filter calling these checks in document
order and writes the SQL; `search.engine.filters.chunks.chunk_filter_compile` is what searches
call (it passes the field ids that exist and adds the read policy). No database access here.

A filter is a JSON object over chunk metadata (`ingestion_chunk.metadata`):

    {"status": "published"}                                  implicit $eq
    {"version": {"$gte": 2, "$lt": 4}}                        several operators: all must hold
    {"$or": [{"content_type": "faq"}, {"fields.featured": true}]}
    {"published_on": {"$not": {"$lt": "2024-01-01"}}}

Keys (a whitelist; anything else is `unknown_filter_key`):

- `content_type`, `status`, `source_kind`: the chunk's content type api id, its entry's
  status (draft/published) and whether it came from an entry or an asset;
- `fields.<field_id>`: an entry field value of any type, e.g. `fields.version` or
  `fields.category` (ingestion copies every field value into the chunks' metadata; text
  and rich text cut to 256 characters, see ingestion.sources.FILTER_TEXT_MAX_CHARS);
- a bare `<field_id>` (e.g. `version`) is shorthand for `fields.<field_id>`. The three
  names above win over a field of the same name: write `fields.status` for that field.

Field ids match ^[a-z][a-z0-9_]{0,63}$ (the schema's rule), so a key can never carry quotes
or SQL; even so, keys are bound as parameters, like every value. Given `field_ids` (the
fields of the content types in scope), a field no content type has is `unknown_filter_key`,
and the message lists the keys that exist.

Operators: $eq $ne $gt $gte $lt $lte $in $nin $exists $all $size $contains (on a key) and
$and $or $nor $not ($not also on a key, negating that key's operators). Semantics follow
MongoDB: a missing key equals null, so `$ne`/`$nin`/`$not` match chunks that lack the key.
On a tags field (a list, `list_fields`) `$eq`/`$in` match when any value of the list does,
`$ne`/`$nin` when none does, `$all` when every value given is in the list, `$size` on its
length; these are tested with jsonb containment (`metadata @> {...}`), which the GIN
index on chunk metadata serves. `$contains` is a substring of a text value (case-sensitive;
text is stored cut to 256 characters, so only its start is searched) or, on a tags field,
a value it holds (a list operand: every value). `$gt`-style operators
take a number, or an ISO date/datetime string (compared as text, which orders ISO dates
correctly), and match only values of that JSON type. Where this differs from Mastra's
pgvector filter (kept on purpose; see docs/design/filters.md): `$not` is a true complement, so chunks
without the key match; an empty `$and`/`$or` list, an empty `$not` and an empty filter
inside a logical operator are refused; a range on a string that is not an ISO date (a
numeric string such as "100") is `filter_type_mismatch`. Text compared for equality may
have at most MAX_STRING_LENGTH characters (`filter_value_too_long`): stored text is cut
to one more than that, so a cut value can never equal a filter value by accident.

Size: a filter holds at most MAX_NODES JSON values (objects, empty ones too, lists and their
items), MAX_CONDITIONS conditions, MAX_LOGICAL_ITEMS filters per $and/$or, MAX_IN_VALUES
values per $in/$nin, and nests MAX_DEPTH levels deep; past a limit it is
`filter_too_complex` or `filter_too_deep`, naming the limit and the path. These are checked
before compiling, without recursion, so refusing a huge filter costs little.

The compiled fragment only narrows: callers AND it with their own workspace predicate, and
nothing a filter says can add an OR outside its own parentheses.
"""

from __future__ import annotations

import datetime
import math
import re
from collections.abc import Callable, Collection
from typing import Any

from search.contract.errors import SearchInputError

FIELD_ID_PATTERN = re.compile(r"^[a-z][a-z0-9_]{0,63}$")
# Top-level metadata keys a filter may name (see ingestion.models.Chunk.metadata).
RESERVED_KEYS = frozenset({"content_type", "status", "source_kind"})
FIELD_PREFIX = "fields."

# The operators, each with what it does: the one list the compiler dispatches on and from
# which the API's and MCP's descriptions and docs/agents.md are written (filter_help).
# `$not` is both: on a key it negates that key's operators, at the top it negates a filter.
KEY_OPERATORS: dict[str, str] = {
    "$eq": "equals (the default: {\"status\": \"published\"})",
    "$ne": "does not equal (also matches a missing key)",
    "$gt": "greater than a number or an ISO date",
    "$gte": "greater than or equal",
    "$lt": "less than",
    "$lte": "less than or equal",
    "$in": "equals one of a list",
    "$nin": "equals none of a list (also matches a missing key)",
    "$exists": "the key is present (true) or absent (false)",
    "$all": "a tags field holds every value of a list (an empty list matches nothing)",
    "$size": "a tags field holds exactly this many values",
    "$contains": "a text value contains this substring (case-sensitive, within its first 256 characters); "
                 "a tags field holds this value, or every value of a list",
    "$not": "negates the key's operators",
}
LOGICAL_OPERATOR_HELP: dict[str, str] = {
    "$and": "every filter of a list holds",
    "$or": "at least one filter of a list holds",
    "$nor": "no filter of a list holds",
    "$not": "the filter does not hold",
}
COMPARISON_OPERATORS = frozenset(KEY_OPERATORS)
LOGICAL_OPERATORS = frozenset(LOGICAL_OPERATOR_HELP)
OPERATORS = COMPARISON_OPERATORS | LOGICAL_OPERATORS


def filter_help() -> str:
    """One paragraph on the filter language, for the API's and the MCP tools' descriptions."""
    names = " ".join(dict.fromkeys([*KEY_OPERATORS, *LOGICAL_OPERATOR_HELP]))
    return (f"MongoDB-style filter ({names}) over content_type, status, source_kind and entry fields, e.g. "
            '{"status": "published", "version": {"$gte": 2}}. It only narrows what the caller may see.')


def filter_operator_table() -> str:
    """The operators as a Markdown table (docs/agents.md holds a copy; a test keeps it equal)."""
    rows = [f"| `{op}` | on a key | {text} |" for op, text in KEY_OPERATORS.items()]
    rows += [f"| `{op}` | on filters | {text} |" for op, text in LOGICAL_OPERATOR_HELP.items()]
    return "\n".join(["| operator | applies | meaning |", "|---|---|---|", *rows])


# Limits, checked before any work that grows with the input (see filter_bounds_check). Every
# value of the filter counts as a node: objects (empty ones too), lists and their items.
MAX_DEPTH = 8  # $and/$or/$not levels
MAX_NODES = 1_000
MAX_CONDITIONS = 100  # key conditions ({"version": {"$gt": 2}} is one per operator)
MAX_LOGICAL_ITEMS = 100  # filters in one $and or $or list
MAX_IN_VALUES = 500
# One less than ingestion.sources.FILTER_TEXT_MAX_CHARS (see the module docstring).
MAX_STRING_LENGTH = 255
# How many existing keys an unknown_filter_key message lists.
MAX_KEYS_LISTED = 40
MAX_KEY_LENGTH = len(FIELD_PREFIX) + 64  # "fields." and the longest field id
# The JSON nesting a filter within MAX_DEPTH can reach: the top object, an object and a list
# per $and/$or level, then a key's operator object and an $in list.
MAX_JSON_DEPTH = 2 * MAX_DEPTH + 3


class FilterError(SearchInputError):
    """A filter the caller must fix. `path` names the bad part, e.g. `filter.$and[1].version.$gt`."""

    def __init__(self, code: str, message: str, *, path: str):
        super().__init__(code, message, path=path)


# The operators that select statuses by a pattern rather than by name, as the SQL compares text
# (`$contains` within the first 256 characters; a status is shorter). The ordering operators
# take numbers and dates only (filter_type_mismatch on a text key).
_STATUS_PATTERNS: dict[str, Callable[[str, str], bool]] = {
    "$contains": lambda status, operand: operand in status,
}


def filter_statuses_requested(spec: Any, path: str = "filter", *, statuses: Collection[str] = ()
                              ) -> list[tuple[str, str]]:
    """The entry statuses a valid filter asks for, as (status, path) pairs.

    A condition asks for a status when it selects chunks *having* it: `status: "draft"` or
    `{"$eq": ...}`, an `$in` or `$all` list, and under an odd number of `$not`s a `$ne` or `$nin`; and,
    outside a `$not`, any other operator that selects one of `statuses` (the known statuses)
    by a pattern (`$contains: "raf"`), each status it selects. Conditions that
    exclude a status (`$ne`, `$nin`, a pattern under `$not`) only narrow, so they ask for nothing.
    Used with the caller's access (search.engine.filters.chunks) so that asking for a status one
    cannot see is refused, as the full-text search refuses `status=draft`. Call it on a spec
    that the compiler (search.engine.filters.compile) accepted: its nesting is bounded there.
    """
    found: list[tuple[str, str]] = []

    def document(node: Any, where: str, negated: bool) -> None:
        if not isinstance(node, dict):
            return
        for key, value in node.items():
            key_path = filter_path(where, key)
            if key in ("$and", "$or", "$nor") and isinstance(value, list):
                for i, item in enumerate(value):
                    document(item, f"{key_path}[{i}]", negated != (key == "$nor"))
            elif key == "$not":
                document(value, key_path, not negated)
            elif key == "status":
                if isinstance(value, dict):
                    for op, operand in value.items():
                        condition(op, operand, filter_path(key_path, op), negated)
                else:
                    condition("$eq", value, key_path, negated)

    def condition(op: str, operand: Any, where: str, negated: bool) -> None:
        if op == "$not" and isinstance(operand, dict):
            for inner, value in operand.items():
                condition(inner, value, filter_path(where, inner), not negated)
        elif op == ("$ne" if negated else "$eq") and isinstance(operand, str):
            found.append((operand, where))
        elif op in (("$nin",) if negated else ("$in", "$all")) and isinstance(operand, list):
            # `$all` on the status (one value per entry) selects entries having every status
            # listed: it names each, as `$in` does, even though no entry can have two.
            found.extend((item, f"{where}[{i}]") for i, item in enumerate(operand) if isinstance(item, str))
        elif not negated and op in _STATUS_PATTERNS and isinstance(operand, str):
            found.extend((status, where) for status in statuses if _STATUS_PATTERNS[op](status, operand))

    document(spec, path, False)
    return found


def filter_path(path: str, key: str) -> str:
    """The path of `key` inside the part at `path` (`filter.$and[1]` and `version`: `filter.$and[1].version`)."""
    return f"{path}.{key}"


def filter_bounds_check(spec: Any, path: str) -> None:
    """Raise FilterError if `spec` is bigger or deeper than the limits allow.

    Runs before compiling, without recursion, and stops at the first node over a limit:
    its work is bounded by MAX_NODES and MAX_JSON_DEPTH, not by the size of the input (a
    list of 200,000 empty objects is refused after reading its length).
    """
    nodes = 0
    stack: list[tuple[Any, str, int]] = [(spec, path, 1)]
    while stack:
        value, where, depth = stack.pop()
        nodes += 1
        if nodes > MAX_NODES:
            raise FilterError(
                "filter_too_complex",
                f"{where}: a filter may hold at most {MAX_NODES} values (objects, lists and their items).",
                path=where,
            )
        if not isinstance(value, (dict, list)):
            continue
        if depth > MAX_JSON_DEPTH:
            raise FilterError("filter_too_deep", f"{where}: filters nest at most {MAX_DEPTH} levels deep.", path=where)
        if isinstance(value, list):
            if len(value) > MAX_IN_VALUES:
                raise FilterError(
                    "filter_too_complex", f"{where}: a list in a filter holds at most {MAX_IN_VALUES} items.", path=where
                )
            children = [(item, f"{where}[{i}]", depth + 1) for i, item in enumerate(value)]
        else:
            if len(value) > MAX_NODES - nodes:
                raise FilterError(
                    "filter_too_complex",
                    f"{where}: a filter may hold at most {MAX_NODES} values (objects, lists and their items).",
                    path=where,
                )
            children = []
            for key, item in value.items():
                if isinstance(key, str) and len(key) > MAX_KEY_LENGTH:
                    raise FilterError(
                        "unknown_filter_key",
                        f"{where}: unknown key {key[:40]!r}… (keys are at most {MAX_KEY_LENGTH} characters).",
                        path=where,
                    )
                children.append((item, filter_path(where, key) if isinstance(key, str) else where, depth + 1))
        stack.extend(reversed(children))  # depth first, in document order: errors name the first bad part


# --- the checks the compiler calls as it walks a filter, in document order -------------------
# Each raises FilterError naming the path; together with filter_bounds_check they are every
# refusal of the language, so the compiler only writes SQL.

def filter_document_check(spec: Any, path: str, *, depth: int) -> dict:
    """`spec` as a filter document (an object of conditions) at nesting `depth`."""
    if depth > MAX_DEPTH:
        raise FilterError("filter_too_deep", f"{path}: filters nest at most {MAX_DEPTH} levels deep.", path=path)
    if not isinstance(spec, dict):
        raise FilterError(
            "invalid_filter", f"{path} must be an object such as {{\"status\": \"published\"}}.", path=path
        )
    if not spec and depth > 0:
        # {"$not": {}} would compile to NOT TRUE and silently match nothing.
        raise FilterError(
            "invalid_filter", f"{path} is empty: give it a condition such as {{\"status\": \"published\"}}.",
            path=path,
        )
    return spec


def filter_key_name_check(key: Any, path: str) -> str:
    """A document's key is a string (only a Python caller can send another)."""
    if not isinstance(key, str):
        raise FilterError("invalid_filter", f"{path}: keys must be strings.", path=path)
    return key


def filter_logical_check(operator: str, value: Any, path: str) -> None:
    """`operator` (a `$` key of a document) is a logical operator, and its operand a filter list
    ($and/$or/$nor: non-empty, at most MAX_LOGICAL_ITEMS; $not's document is checked as one)."""
    if operator not in LOGICAL_OPERATORS:
        hint = " It applies to a key, e.g. {\"version\": {\"%s\": ...}}." % operator if operator in OPERATORS else ""
        known = ", ".join(sorted(LOGICAL_OPERATORS))
        code = "invalid_filter" if operator in OPERATORS else "unknown_operator"
        raise FilterError(code, f"{path}: {operator} is not allowed here; use one of {known}.{hint}", path=path)
    if operator == "$not":
        return
    if not isinstance(value, list) or not value:
        raise FilterError("invalid_filter", f"{path} must be a non-empty list of filters.", path=path)
    if len(value) > MAX_LOGICAL_ITEMS:
        raise FilterError(
            "filter_too_complex", f"{path} holds {len(value)} filters; the limit is {MAX_LOGICAL_ITEMS}.", path=path
        )


def filter_key_field(key: str, path: str, field_ids: Collection[str] | None) -> str | None:
    """The entry field id `key` names, or None for a top-level key (RESERVED_KEYS).

    `fields.<id>` and a bare `<id>` name the same field; its id must have the schema's form and,
    given `field_ids` (the fields of the content types in scope), be one of them."""
    if key in RESERVED_KEYS:
        return None
    field_id = key[len(FIELD_PREFIX):] if key.startswith(FIELD_PREFIX) else key
    if not FIELD_ID_PATTERN.match(field_id):
        raise FilterError(
            "unknown_filter_key",
            f"{path}: unknown key {key[:80]!r}. Filter on content_type, status, source_kind, or an "
            f"entry field as fields.<field_id> (field ids are lowercase letters, digits and _).",
            path=path,
        )
    if field_ids is not None and field_id not in field_ids:
        names = sorted(field_ids)
        listed = ", ".join(names[:MAX_KEYS_LISTED]) + (", ..." if len(names) > MAX_KEYS_LISTED else "")
        raise FilterError(
            "unknown_filter_key",
            f"{path}: no content type in this search has a field {field_id!r}. Filter on content_type, "
            f"status, source_kind" + (f", or one of these fields: {listed}." if names else " (no content "
            "type in this search has fields)."),
            path=path,
        )
    return field_id


def filter_is_operator_object(value: Any, path: str) -> bool:
    """Whether a key's condition is an operator object (`{"$gt": 2}`) rather than a value (implicit $eq).

    A plain object, or one mixing operators and plain keys, or an empty one, is refused."""
    if isinstance(value, dict) and any(isinstance(k, str) and k.startswith("$") for k in value):
        if not all(isinstance(k, str) and k.startswith("$") for k in value):
            raise FilterError(
                "invalid_filter", f"{path}: mix of operators and plain keys; use operators only.", path=path
            )
        if not value:
            raise FilterError("invalid_filter", f"{path} has no operator.", path=path)
        return True
    if isinstance(value, dict):
        raise FilterError(
            "filter_type_mismatch",
            f"{path}: expected a value or an operator object such as {{\"$eq\": ...}}, not a plain object.",
            path=path,
        )
    return False


def filter_operator_check(operator: str, conditions: int, path: str) -> None:
    """`operator` applies to a key, and the filter's `conditions` so far (this one counted) are within MAX_CONDITIONS."""
    if conditions > MAX_CONDITIONS:
        raise FilterError(
            "filter_too_complex", f"{path}: a filter may hold at most {MAX_CONDITIONS} conditions.", path=path
        )
    if operator not in COMPARISON_OPERATORS:
        raise FilterError(
            "unknown_operator" if operator not in OPERATORS else "invalid_filter",
            f"{path}: {operator} is not a supported operator on a key; use one of "
            f"{', '.join(sorted(COMPARISON_OPERATORS))}.",
            path=path,
        )


def filter_not_operand_check(operand: Any, path: str, *, depth: int) -> dict:
    """`$not` on a key takes an operator object, one level deeper than `depth`."""
    if not isinstance(operand, dict) or not operand or not all(
        isinstance(k, str) and k.startswith("$") for k in operand
    ):
        raise FilterError(
            "invalid_filter", f"{path} must be an operator object such as {{\"$gt\": 2}}.", path=path
        )
    if depth + 1 > MAX_DEPTH:
        raise FilterError("filter_too_deep", f"{path}: filters nest at most {MAX_DEPTH} levels deep.", path=path)
    return operand


def filter_exists_operand_check(operand: Any, path: str) -> bool:
    if not isinstance(operand, bool):
        raise FilterError("filter_type_mismatch", f"{path} takes true or false.", path=path)
    return operand


def filter_scalar_check(value: Any, path: str) -> None:
    """A value compared for equality: null, a boolean, a finite number, or text of at most
    MAX_STRING_LENGTH characters without NUL."""
    if value is None or isinstance(value, bool):
        return
    if isinstance(value, (int, float)):
        if isinstance(value, float) and not math.isfinite(value):
            raise FilterError("filter_type_mismatch", f"{path} takes a finite number.", path=path)
        return
    if isinstance(value, str):
        if "\x00" in value:
            raise FilterError("filter_invalid_character", f"{path} contains a NUL character.", path=path)
        if len(value) > MAX_STRING_LENGTH:
            raise FilterError(
                "filter_value_too_long",
                f"{path} is {len(value)} characters; filters compare text of at most {MAX_STRING_LENGTH}.",
                path=path,
            )
        return
    raise FilterError(
        "filter_type_mismatch",
        f"{path} takes a string, number, boolean or null, not {_json_type(value)}.",
        path=path,
    )


def filter_values_check(operand: Any, path: str) -> list[Any]:
    """The list operand of $in/$nin/$all: at most MAX_IN_VALUES values, each a scalar (filter_scalar_check)."""
    if not isinstance(operand, list):
        raise FilterError("filter_type_mismatch", f"{path} takes a list of values.", path=path)
    if len(operand) > MAX_IN_VALUES:
        raise FilterError("filter_too_complex", f"{path} takes at most {MAX_IN_VALUES} values.", path=path)
    for i, item in enumerate(operand):
        filter_scalar_check(item, f"{path}[{i}]")
    return operand


def filter_size_operand_check(operand: Any, path: str) -> int:
    if isinstance(operand, bool) or not isinstance(operand, int) or operand < 0:
        raise FilterError("filter_type_mismatch", f"{path} takes a whole number of values (0 or more).",
                          path=path)
    return operand


def filter_contains_operand_check(operand: Any, path: str) -> None:
    """`$contains` takes a list (then it is `$all`), or a scalar: not an object."""
    if isinstance(operand, dict):
        raise FilterError("filter_type_mismatch",
                          f"{path} takes a string (a substring), a value or a list of values, not an object.",
                          path=path)


def filter_range_operand_check(operand: Any, path: str) -> str:
    """The operand of $gt/$gte/$lt/$lte: a finite number or an ISO date string; returns its JSON
    type ("number" or "string"), the only type of value the range then matches."""
    if isinstance(operand, bool) or not isinstance(operand, (int, float, str)):
        raise FilterError(
            "filter_type_mismatch",
            f"{path} takes a number or an ISO date such as \"2024-05-01\", not {_json_type(operand)}.",
            path=path,
        )
    if isinstance(operand, str):
        if not _is_iso_date(operand):
            raise FilterError(
                "filter_type_mismatch",
                f"{path} takes a number or an ISO date such as \"2024-05-01\", not the string {operand[:40]!r}.",
                path=path,
            )
        return "string"
    if isinstance(operand, float) and not math.isfinite(operand):
        raise FilterError("filter_type_mismatch", f"{path} takes a finite number.", path=path)
    return "number"


def _json_type(value: Any) -> str:
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    return type(value).__name__


def _is_iso_date(text: str) -> bool:
    if len(text) > 40:
        return False
    try:
        datetime.date.fromisoformat(text)
        return True
    except ValueError:
        pass
    try:
        datetime.datetime.fromisoformat(text)
        return True
    except ValueError:
        return False
