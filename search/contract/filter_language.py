"""The metadata filter language (MongoDB-style operators) compiled to a parameterised SQL fragment.

A pure compiler: no database access. `search.engine.filters.chunks.chunk_filter_compile` is what
searches call; it passes the field ids that exist and adds the read policy.

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
import json
import math
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
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
# How _Compiler compiles each operator on a key (its method's name).
KEY_OPERATOR_COMPILERS = {"$eq": "_equals", "$ne": "_equals", "$gt": "_range", "$gte": "_range", "$lt": "_range",
                         "$lte": "_range", "$in": "_one_of", "$nin": "_one_of", "$exists": "_exists", "$not": "_not",
                         "$all": "_all", "$size": "_size", "$contains": "_contains"}
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

_RANGE_SQL = {"$gt": ">", "$gte": ">=", "$lt": "<", "$lte": "<="}

# Limits, checked before any work that grows with the input (see _bounds_check). Every
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


@dataclass(frozen=True)
class CompiledFilter:
    """A boolean SQL expression over `<alias>.metadata` with `%s` placeholders, and its params."""

    sql: str
    params: list[Any] = field(default_factory=list)


def filter_compile(
    spec: Any, *, column: str = "metadata", path: str = "filter", field_ids: Collection[str] | None = None,
    list_fields: Collection[str] = (), fields_column: str | None = None,
) -> CompiledFilter:
    """Validate `spec` and compile it; raise FilterError naming the path to the first bad part.

    `column` is the metadata column expression (trusted, from the caller's code, never from
    input). `field_ids`, when given, are the entry fields a key may name; None checks only
    the field id's form. `list_fields` are the field ids that hold a list (tags) in some
    content type in scope: their equality operators match any value of the list.
    `fields_column` (trusted too), when given, is the fields object itself, read instead of
    `column -> 'fields'` (full-text reads `e.data` as it is, instead of a copy inside a
    built metadata object per condition). An empty filter (None or {}) compiles to TRUE.
    """
    if spec is None:
        return CompiledFilter("TRUE", [])
    _bounds_check(spec, path)
    compiler = _Compiler(column, field_ids, list_fields, fields_column)
    sql = compiler.document(spec, path, depth=0)
    return CompiledFilter(sql, compiler.params)


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
    `{"$eq": ...}`, an `$in` list, and under an odd number of `$not`s a `$ne` or `$nin`; and,
    outside a `$not`, any other operator that selects one of `statuses` (the known statuses)
    by a pattern (`$contains: "raf"`), each status it selects. Conditions that
    exclude a status (`$ne`, `$nin`, a pattern under `$not`) only narrow, so they ask for nothing.
    Used with the caller's access (search.engine.filters.chunks) so that asking for a status one
    cannot see is refused, as the full-text search refuses `status=draft`. Call it on a spec
    that filter_compile accepted: its nesting is bounded there.
    """
    found: list[tuple[str, str]] = []

    def document(node: Any, where: str, negated: bool) -> None:
        if not isinstance(node, dict):
            return
        for key, value in node.items():
            key_path = _join(where, key)
            if key in ("$and", "$or", "$nor") and isinstance(value, list):
                for i, item in enumerate(value):
                    document(item, f"{key_path}[{i}]", negated != (key == "$nor"))
            elif key == "$not":
                document(value, key_path, not negated)
            elif key == "status":
                if isinstance(value, dict):
                    for op, operand in value.items():
                        condition(op, operand, _join(key_path, op), negated)
                else:
                    condition("$eq", value, key_path, negated)

    def condition(op: str, operand: Any, where: str, negated: bool) -> None:
        if op == "$not" and isinstance(operand, dict):
            for inner, value in operand.items():
                condition(inner, value, _join(where, inner), not negated)
        elif op == ("$ne" if negated else "$eq") and isinstance(operand, str):
            found.append((operand, where))
        elif op == ("$nin" if negated else "$in") and isinstance(operand, list):
            found.extend((item, f"{where}[{i}]") for i, item in enumerate(operand) if isinstance(item, str))
        elif not negated and op in _STATUS_PATTERNS and isinstance(operand, str):
            found.extend((status, where) for status in statuses if _STATUS_PATTERNS[op](status, operand))

    document(spec, path, False)
    return found


def _join(path: str, key: str) -> str:
    return f"{path}.{key}"


def _bounds_check(spec: Any, path: str) -> None:
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
                children.append((item, _join(where, key) if isinstance(key, str) else where, depth + 1))
        stack.extend(reversed(children))  # depth first, in document order: errors name the first bad part


class _Compiler:
    def __init__(self, column: str, field_ids: Collection[str] | None = None, list_fields: Collection[str] = (),
                 fields_column: str | None = None):
        self.column = column
        self.fields_column = fields_column
        self.field_ids = None if field_ids is None else frozenset(field_ids)
        self.list_fields = frozenset(list_fields)
        self.params: list[Any] = []
        self.conditions = 0

    # --- documents: {key: condition, "$and": [...], ...} -------------------------------
    def document(self, spec: Any, path: str, *, depth: int) -> str:
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
        parts: list[str] = []
        for key, value in spec.items():
            if not isinstance(key, str):  # only reachable from Python callers
                raise FilterError("invalid_filter", f"{path}: keys must be strings.", path=path)
            key_path = _join(path, key)
            if key.startswith("$"):
                parts.append(self.logical(key, value, key_path, depth=depth))
            else:
                parts.append(self.key_condition(key, value, key_path, depth=depth))
        if not parts:
            return "TRUE"
        return parts[0] if len(parts) == 1 else "(" + " AND ".join(parts) + ")"

    def logical(self, operator: str, value: Any, path: str, *, depth: int) -> str:
        if operator not in LOGICAL_OPERATORS:
            hint = " It applies to a key, e.g. {\"version\": {\"%s\": ...}}." % operator if operator in OPERATORS else ""
            known = ", ".join(sorted(LOGICAL_OPERATORS))
            code = "invalid_filter" if operator in OPERATORS else "unknown_operator"
            raise FilterError(code, f"{path}: {operator} is not allowed here; use one of {known}.{hint}", path=path)
        if operator == "$not":
            return f"(NOT {self.document(value, path, depth=depth + 1)})"
        if not isinstance(value, list) or not value:
            raise FilterError("invalid_filter", f"{path} must be a non-empty list of filters.", path=path)
        if len(value) > MAX_LOGICAL_ITEMS:
            raise FilterError(
                "filter_too_complex", f"{path} holds {len(value)} filters; the limit is {MAX_LOGICAL_ITEMS}.", path=path
            )
        joiner = " AND " if operator == "$and" else " OR "
        parts = [self.document(item, f"{path}[{i}]", depth=depth + 1) for i, item in enumerate(value)]
        joined = "(" + joiner.join(parts) + ")"
        return f"(NOT {joined})" if operator == "$nor" else joined

    # --- one key ------------------------------------------------------------------------
    def key_ref(self, key: str, path: str) -> tuple[str, str]:
        """Validate `key`; return the jsonb expression for it (one `%s` placeholder) and the
        placeholder's value. The expression is SQL NULL when the key is missing."""
        if key in RESERVED_KEYS:
            return f"({self.column} -> %s)", key
        field_id = key[len(FIELD_PREFIX):] if key.startswith(FIELD_PREFIX) else key
        if not FIELD_ID_PATTERN.match(field_id):
            raise FilterError(
                "unknown_filter_key",
                f"{path}: unknown key {key[:80]!r}. Filter on content_type, status, source_kind, or an "
                f"entry field as fields.<field_id> (field ids are lowercase letters, digits and _).",
                path=path,
            )
        if self.field_ids is not None and field_id not in self.field_ids:
            names = sorted(self.field_ids)
            listed = ", ".join(names[:MAX_KEYS_LISTED]) + (", ..." if len(names) > MAX_KEYS_LISTED else "")
            raise FilterError(
                "unknown_filter_key",
                f"{path}: no content type in this search has a field {field_id!r}. Filter on content_type, "
                f"status, source_kind" + (f", or one of these fields: {listed}." if names else " (no content "
                "type in this search has fields)."),
                path=path,
            )
        if self.fields_column is not None:
            return f"({self.fields_column} -> %s)", field_id
        return f"({self.column} -> 'fields' -> %s)", field_id

    def expr(self, ref: tuple[str, str]) -> str:
        """Emit the key's expression, binding its placeholder (call once per use, in SQL order)."""
        self.params.append(ref[1])
        return ref[0]

    def key_condition(self, key: str, value: Any, path: str, *, depth: int) -> str:
        self.key_ref(key, path)  # the key is checked before its value: errors name the first bad part
        if isinstance(value, dict) and any(isinstance(k, str) and k.startswith("$") for k in value):
            if not all(isinstance(k, str) and k.startswith("$") for k in value):
                raise FilterError(
                    "invalid_filter", f"{path}: mix of operators and plain keys; use operators only.", path=path
                )
            if not value:
                raise FilterError("invalid_filter", f"{path} has no operator.", path=path)
            parts = [self.operator(key, op, operand, _join(path, op), depth=depth) for op, operand in value.items()]
            return parts[0] if len(parts) == 1 else "(" + " AND ".join(parts) + ")"
        if isinstance(value, dict):
            raise FilterError(
                "filter_type_mismatch",
                f"{path}: expected a value or an operator object such as {{\"$eq\": ...}}, not a plain object.",
                path=path,
            )
        return self.operator(key, "$eq", value, path, depth=depth)

    def operator(self, key: str, operator: str, operand: Any, path: str, *, depth: int) -> str:
        self.conditions += 1
        if self.conditions > MAX_CONDITIONS:
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
        return getattr(self, KEY_OPERATOR_COMPILERS[operator])(key, operator, operand, path, depth=depth)

    def _not(self, key: str, operator: str, operand: Any, path: str, *, depth: int) -> str:
        if not isinstance(operand, dict) or not operand or not all(
            isinstance(k, str) and k.startswith("$") for k in operand
        ):
            raise FilterError(
                "invalid_filter", f"{path} must be an operator object such as {{\"$gt\": 2}}.", path=path
            )
        if depth + 1 > MAX_DEPTH:
            raise FilterError("filter_too_deep", f"{path}: filters nest at most {MAX_DEPTH} levels deep.", path=path)
        inner = [self.operator(key, op, v, _join(path, op), depth=depth + 1) for op, v in operand.items()]
        return "(NOT " + (inner[0] if len(inner) == 1 else "(" + " AND ".join(inner) + ")") + ")"

    def _exists(self, key: str, operator: str, operand: Any, path: str, *, depth: int) -> str:
        if not isinstance(operand, bool):
            raise FilterError("filter_type_mismatch", f"{path} takes true or false.", path=path)
        return f"({self.expr(self.key_ref(key, path))} IS {'NOT ' if operand else ''}NULL)"

    def _equals(self, key: str, operator: str, operand: Any, path: str, *, depth: int) -> str:
        self._check_scalar(operand, path)
        if operand is None:
            # A missing key compares as JSON null (MongoDB: {"x": null} matches docs without x).
            expr = self.expr(self.key_ref(key, path))
            self.params.append(_jsonb(operand))
            test = f"(COALESCE({expr}, 'null'::jsonb) = %s::jsonb)"
        else:
            # Containment of the value itself: `metadata @> {"fields": {key: value}}` holds
            # exactly when the key's value equals it (a scalar is never contained in a nested
            # list, and numbers compare by value, 1 = 1.0). Unlike `metadata -> ... = value`,
            # the GIN index on chunk metadata answers it, and the planner estimates it from the
            # column's statistics instead of a fixed 0.5%: a filter keeping 1% of a workspace
            # is found through the index, not by reading every chunk (bench/selective.py).
            self.key_ref(key, path)
            test = self.holds(key, operand)
            if self.is_list(key):
                test = f"({test} OR {self.holds(key, [operand])})"
        return test if operator == "$eq" else f"(NOT {test})"

    def _one_of(self, key: str, operator: str, operand: Any, path: str, *, depth: int) -> str:
        operand = self._values_list(operand, path)
        self.key_ref(key, path)
        # One containment test per value, as for $eq (a BitmapOr over the GIN index, estimated
        # from statistics); null matches a missing key or a JSON null, as for $eq.
        tests, seen = [], set()
        for value in operand:  # scalars (_values_list), so hashable
            if (type(value), value) in seen:
                continue  # a repeated value adds nothing (`True == 1`, so the type is compared too)
            seen.add((type(value), value))
            if value is None:
                tests.append(f"(COALESCE({self.expr(self.key_ref(key, path))}, 'null'::jsonb) = 'null'::jsonb)")
                continue
            tests.append(self.holds(key, value))
            if self.is_list(key):
                tests.append(self.holds(key, [value]))
        test = "(" + " OR ".join(tests) + ")" if tests else "FALSE"  # MongoDB: {$in: []} matches nothing
        return test if operator == "$in" else f"(NOT {test})"

    # --- lists (tags) ----------------------------------------------------------------------
    def is_list(self, key: str) -> bool:
        field_id = key[len(FIELD_PREFIX):] if key.startswith(FIELD_PREFIX) else key
        return key not in RESERVED_KEYS and field_id in self.list_fields

    def holds(self, key: str, values: Any) -> str:
        """`column @> {"fields": {key: values}}`: the key is a list holding every value of a
        list, or equals a scalar (the jsonb_path_ops GIN index on chunk metadata answers it)."""
        field_id = key[len(FIELD_PREFIX):] if key.startswith(FIELD_PREFIX) else key
        if key not in RESERVED_KEYS and self.fields_column is not None:
            self.params.append(_jsonb({field_id: values}))
            return f"({self.fields_column} @> %s::jsonb)"
        doc = {key: values} if key in RESERVED_KEYS else {"fields": {field_id: values}}
        self.params.append(_jsonb(doc))
        return f"({self.column} @> %s::jsonb)"

    def _values_list(self, operand: Any, path: str) -> list[Any]:
        if not isinstance(operand, list):
            raise FilterError("filter_type_mismatch", f"{path} takes a list of values.", path=path)
        if len(operand) > MAX_IN_VALUES:
            raise FilterError("filter_too_complex", f"{path} takes at most {MAX_IN_VALUES} values.", path=path)
        for i, item in enumerate(operand):
            self._check_scalar(item, f"{path}[{i}]")
        return operand

    def _all(self, key: str, operator: str, operand: Any, path: str, *, depth: int) -> str:
        values = self._values_list(operand, path)
        self.key_ref(key, path)
        if not values:
            return "FALSE"  # MongoDB: {$all: []} matches nothing
        return self.holds(key, values)

    def _size(self, key: str, operator: str, operand: Any, path: str, *, depth: int) -> str:
        if isinstance(operand, bool) or not isinstance(operand, int) or operand < 0:
            raise FilterError("filter_type_mismatch", f"{path} takes a whole number of values (0 or more).",
                              path=path)
        ref = self.key_ref(key, path)
        typed = self.expr(ref)
        expr = self.expr(ref)
        self.params.append(operand)
        return f"(CASE WHEN jsonb_typeof({typed}) = 'array' THEN jsonb_array_length({expr}) = %s ELSE FALSE END)"

    def _contains(self, key: str, operator: str, operand: Any, path: str, *, depth: int) -> str:
        if isinstance(operand, list):
            return self._all(key, "$all", operand, path, depth=depth)
        if isinstance(operand, dict):
            raise FilterError("filter_type_mismatch",
                              f"{path} takes a string (a substring), a value or a list of values, not an object.",
                              path=path)
        self._check_scalar(operand, path)
        if not isinstance(operand, str):
            return self._equals(key, "$eq", operand, path, depth=depth)  # Mastra: equality for other scalars
        ref = self.key_ref(key, path)
        typed = self.expr(ref)
        expr = self.expr(ref)
        self.params.append(operand)
        test = f"(CASE WHEN jsonb_typeof({typed}) = 'string' THEN strpos({expr} #>> '{{}}', %s) > 0 ELSE FALSE END)"
        return f"({test} OR {self.holds(key, [operand])})" if self.is_list(key) else test

    def _range(self, key: str, operator: str, operand: Any, path: str, *, depth: int) -> str:
        sign = _RANGE_SQL[operator]
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
            json_type = "string"
        elif isinstance(operand, float) and not math.isfinite(operand):
            raise FilterError("filter_type_mismatch", f"{path} takes a finite number.", path=path)
        else:
            json_type = "number"
        ref = self.key_ref(key, path)
        typed = self.expr(ref)  # each expr() binds the key's parameters, in placeholder order
        expr = self.expr(ref)
        # ISO dates compare as text in byte order; numbers as numeric.
        value = f"({expr} #>> '{{}}') COLLATE \"C\"" if json_type == "string" else f"({expr})::numeric"
        self.params.append(operand)
        # CASE, not AND: PostgreSQL may evaluate AND's operands in any order.
        return f"(CASE WHEN jsonb_typeof({typed}) = '{json_type}' THEN {value} {sign} %s ELSE FALSE END)"

    def _check_scalar(self, value: Any, path: str) -> None:
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


def _jsonb(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


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
