"""The filter language (search/contract/filter_language.py) compiled to a parameterised SQL fragment.

A pure compiler: no database access. It walks a filter depth first, in document order, calling
the language's checks (so a bad filter's FilterError names its first bad part) and writes the
SQL; every refusal and its message belong to the language. `search.engine.filters.chunks.chunk_filter_compile`
and `search.engine.filters.scoped.scoped_filter_compile` are what searches call.

The compiled fragment only narrows: callers AND it with their own workspace predicate, and
nothing a filter says can add an OR outside its own parentheses. Keys and values are bound
as parameters, never spliced into the SQL.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from search.contract.filter_language import (
    FIELD_PREFIX,
    RESERVED_KEYS,
    filter_bounds_check,
    filter_contains_operand_check,
    filter_document_check,
    filter_exists_operand_check,
    filter_is_operator_object,
    filter_key_field,
    filter_key_name_check,
    filter_logical_check,
    filter_not_operand_check,
    filter_operator_check,
    filter_path,
    filter_range_operand_check,
    filter_scalar_check,
    filter_size_operand_check,
    filter_values_check,
)

# How _Compiler compiles each operator on a key (its method's name); the operators are the
# language's KEY_OPERATORS.
KEY_OPERATOR_COMPILERS = {"$eq": "_equals", "$ne": "_equals", "$gt": "_range", "$gte": "_range", "$lt": "_range",
                         "$lte": "_range", "$in": "_one_of", "$nin": "_one_of", "$exists": "_exists", "$not": "_not",
                         "$all": "_all", "$size": "_size", "$contains": "_contains"}
_RANGE_SQL = {"$gt": ">", "$gte": ">=", "$lt": "<", "$lte": "<="}


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
    filter_bounds_check(spec, path)
    compiler = _Compiler(column, field_ids, list_fields, fields_column)
    sql = compiler.document(spec, path, depth=0)
    return CompiledFilter(sql, compiler.params)


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
        spec = filter_document_check(spec, path, depth=depth)
        parts: list[str] = []
        for key, value in spec.items():
            key = filter_key_name_check(key, path)
            key_path = filter_path(path, key)
            if key.startswith("$"):
                parts.append(self.logical(key, value, key_path, depth=depth))
            else:
                parts.append(self.key_condition(key, value, key_path, depth=depth))
        if not parts:
            return "TRUE"
        return parts[0] if len(parts) == 1 else "(" + " AND ".join(parts) + ")"

    def logical(self, operator: str, value: Any, path: str, *, depth: int) -> str:
        filter_logical_check(operator, value, path)
        if operator == "$not":
            return f"(NOT {self.document(value, path, depth=depth + 1)})"
        joiner = " AND " if operator == "$and" else " OR "
        parts = [self.document(item, f"{path}[{i}]", depth=depth + 1) for i, item in enumerate(value)]
        joined = "(" + joiner.join(parts) + ")"
        return f"(NOT {joined})" if operator == "$nor" else joined

    # --- one key ------------------------------------------------------------------------
    def key_ref(self, key: str, path: str) -> tuple[str, str]:
        """Validate `key`; return the jsonb expression for it (one `%s` placeholder) and the
        placeholder's value. The expression is SQL NULL when the key is missing."""
        field_id = filter_key_field(key, path, self.field_ids)
        if field_id is None:
            return f"({self.column} -> %s)", key
        if self.fields_column is not None:
            return f"({self.fields_column} -> %s)", field_id
        return f"({self.column} -> 'fields' -> %s)", field_id

    def expr(self, ref: tuple[str, str]) -> str:
        """Emit the key's expression, binding its placeholder (call once per use, in SQL order)."""
        self.params.append(ref[1])
        return ref[0]

    def key_condition(self, key: str, value: Any, path: str, *, depth: int) -> str:
        self.key_ref(key, path)  # the key is checked before its value: errors name the first bad part
        if filter_is_operator_object(value, path):
            parts = [self.operator(key, op, operand, filter_path(path, op), depth=depth) for op, operand in value.items()]
            return parts[0] if len(parts) == 1 else "(" + " AND ".join(parts) + ")"
        return self.operator(key, "$eq", value, path, depth=depth)

    def operator(self, key: str, operator: str, operand: Any, path: str, *, depth: int) -> str:
        self.conditions += 1
        filter_operator_check(operator, self.conditions, path)
        return getattr(self, KEY_OPERATOR_COMPILERS[operator])(key, operator, operand, path, depth=depth)

    def _not(self, key: str, operator: str, operand: Any, path: str, *, depth: int) -> str:
        operand = filter_not_operand_check(operand, path, depth=depth)
        inner = [self.operator(key, op, v, filter_path(path, op), depth=depth + 1) for op, v in operand.items()]
        return "(NOT " + (inner[0] if len(inner) == 1 else "(" + " AND ".join(inner) + ")") + ")"

    def _exists(self, key: str, operator: str, operand: Any, path: str, *, depth: int) -> str:
        present = filter_exists_operand_check(operand, path)
        return f"({self.expr(self.key_ref(key, path))} IS {'NOT ' if present else ''}NULL)"

    def _equals(self, key: str, operator: str, operand: Any, path: str, *, depth: int) -> str:
        filter_scalar_check(operand, path)
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
        operand = filter_values_check(operand, path)
        self.key_ref(key, path)
        # One containment test per value, as for $eq (a BitmapOr over the GIN index, estimated
        # from statistics); null matches a missing key or a JSON null, as for $eq.
        tests, seen = [], set()
        for value in operand:  # scalars (filter_values_check), so hashable
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

    def _all(self, key: str, operator: str, operand: Any, path: str, *, depth: int) -> str:
        values = filter_values_check(operand, path)
        self.key_ref(key, path)
        if not values:
            return "FALSE"  # MongoDB: {$all: []} matches nothing
        return self.holds(key, values)

    def _size(self, key: str, operator: str, operand: Any, path: str, *, depth: int) -> str:
        size = filter_size_operand_check(operand, path)
        ref = self.key_ref(key, path)
        typed = self.expr(ref)
        expr = self.expr(ref)
        self.params.append(size)
        return f"(CASE WHEN jsonb_typeof({typed}) = 'array' THEN jsonb_array_length({expr}) = %s ELSE FALSE END)"

    def _contains(self, key: str, operator: str, operand: Any, path: str, *, depth: int) -> str:
        if isinstance(operand, list):
            return self._all(key, "$all", operand, path, depth=depth)
        filter_contains_operand_check(operand, path)
        filter_scalar_check(operand, path)
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
        json_type = filter_range_operand_check(operand, path)
        ref = self.key_ref(key, path)
        typed = self.expr(ref)  # each expr() binds the key's parameters, in placeholder order
        expr = self.expr(ref)
        # ISO dates compare as text in byte order; numbers as numeric.
        value = f"({expr} #>> '{{}}') COLLATE \"C\"" if json_type == "string" else f"({expr})::numeric"
        self.params.append(operand)
        # CASE, not AND: PostgreSQL may evaluate AND's operands in any order.
        return f"(CASE WHEN jsonb_typeof({typed}) = '{json_type}' THEN {value} {sign} %s ELSE FALSE END)"


def _jsonb(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)
