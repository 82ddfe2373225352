"""The filter compiler: the SQL it writes binds every key and value, stays small, and covers every operator. No database."""

from __future__ import annotations

import pytest

from search.contract.filter_language import KEY_OPERATORS, MAX_CONDITIONS, MAX_DEPTH, MAX_IN_VALUES
from search.engine.filters.compile import KEY_OPERATOR_COMPILERS, filter_compile


def _nested_and(levels: int, leaf: dict) -> dict:
    spec = leaf
    for _ in range(levels):
        spec = {"$and": [spec]}
    return spec


def test_the_compiler_has_a_method_for_every_operator_of_the_language():
    assert set(KEY_OPERATOR_COMPILERS) == set(KEY_OPERATORS)


def test_keys_are_bound_as_parameters_not_spliced_into_sql():
    compiled = filter_compile({"tag": "x"})
    assert "tag" not in compiled.sql
    assert compiled.params == ['{"fields": {"tag": "x"}}']  # equality is containment of a bound document
    compiled = filter_compile({"tag": {"$gt": 2}})
    assert "tag" not in compiled.sql
    assert "tag" in compiled.params


def test_empty_filter_matches_everything():
    assert filter_compile({}).sql == "TRUE"
    assert filter_compile(None).sql == "TRUE"


def test_filter_at_every_limit_still_compiles():
    deepest = _nested_and(MAX_DEPTH, {"version": {"$in": list(range(MAX_IN_VALUES))}})
    widest = {"$and": [{"version": {"$gt": i}} for i in range(MAX_CONDITIONS)]}
    assert filter_compile(deepest).sql and filter_compile(widest).sql


def test_largest_accepted_filter_compiles_to_little_sql():
    # Before every node counted, 200,000 empty objects compiled to 1.8 MB of SQL.
    spec = {"$or": [{f"tag{i}": {"$in": [f"v{j}" for j in range(8)]}} for i in range(90)]}  # 992 values
    assert len(filter_compile(spec).sql) < 20_000


@pytest.mark.parametrize("operator", sorted(KEY_OPERATORS))
def test_every_operator_in_the_table_compiles(operator):
    operand = {"$in": [1], "$nin": [1], "$exists": True, "$not": {"$eq": 1}, "$all": ["a"],
               "$contains": "a"}.get(operator, 1)

    compiled = filter_compile({"version": {operator: operand}}, column="c.metadata", field_ids={"version"})

    assert compiled.sql
