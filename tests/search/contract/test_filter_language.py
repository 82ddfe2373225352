"""The filter language's refusals: what a caller may not send, with its code and the path to the first bad part.

The checks are search/contract/filter_language.py's; filter_compile (the engine's compiler) is
the door that walks a whole filter through them, in document order. No database.
"""

from __future__ import annotations

import pytest

from search.contract.filter_language import (
    MAX_CONDITIONS,
    MAX_DEPTH,
    MAX_IN_VALUES,
    MAX_LOGICAL_ITEMS,
    MAX_NODES,
    MAX_STRING_LENGTH,
    FilterError,
)
from search.engine.filters.compile import filter_compile


@pytest.mark.parametrize(
    "key",
    [
        "tag' OR '1'='1",
        'tag") OR TRUE --',
        "fields.tag'); DROP TABLE ingestion_chunk; --",
        "Title",
        "fields.",
        "fields.tag.sub",
        "tag\x00",
    ],
)
def test_keys_outside_the_whitelist_are_refused(key):
    with pytest.raises(FilterError) as caught:
        filter_compile({key: 1})
    assert caught.value.code == "unknown_filter_key"


@pytest.mark.parametrize("operator", ["$where", "$regex", "$expr", "$function", "$elemMatch", "$$eq"])
def test_operators_outside_the_list_are_refused(operator):
    with pytest.raises(FilterError) as caught:
        filter_compile({"tag": {operator: "x"}})
    assert caught.value.code == "unknown_operator"


def test_a_logical_operator_on_a_key_is_refused():
    with pytest.raises(FilterError) as caught:
        filter_compile({"tag": {"$nor": [{"tag": "x"}]}})
    assert caught.value.code == "invalid_filter"


def test_unknown_top_level_operator_is_refused():
    with pytest.raises(FilterError) as caught:
        filter_compile({"$where": "1=1"})
    assert caught.value.code == "unknown_operator"
    assert caught.value.path == "filter.$where"


# --- errors name the path -------------------------------------------------------------------

def test_type_mismatch_names_the_path():
    with pytest.raises(FilterError) as caught:
        filter_compile({"$and": [{"tag": "x"}, {"version": {"$gt": "two"}}]})
    assert caught.value.code == "filter_type_mismatch"
    assert caught.value.path == "filter.$and[1].version.$gt"
    assert "filter.$and[1].version.$gt" in caught.value.message


def test_unknown_key_names_the_path():
    with pytest.raises(FilterError) as caught:
        filter_compile({"$or": [{"tag": "x"}, {"Bad-Key": 1}]})
    assert caught.value.path == "filter.$or[1].Bad-Key"


@pytest.mark.parametrize(
    ("spec", "code"),
    [
        ("status", "invalid_filter"),
        ([{"status": "draft"}], "invalid_filter"),
        ({"$and": {"status": "draft"}}, "invalid_filter"),
        ({"$or": []}, "invalid_filter"),
        ({"version": {"$in": 2}}, "filter_type_mismatch"),
        ({"version": {"$in": [[1]]}}, "filter_type_mismatch"),
        ({"version": {"$gt": True}}, "filter_type_mismatch"),
        ({"version": {"$gt": None}}, "filter_type_mismatch"),
        ({"version": {"$exists": "yes"}}, "filter_type_mismatch"),
        ({"version": {"a": 1}}, "filter_type_mismatch"),
        ({"version": [1, 2]}, "filter_type_mismatch"),
        ({"version": {"$gt": 1, "plain": 2}}, "invalid_filter"),
        ({"version": {"$not": 3}}, "invalid_filter"),
        ({"tag": "a\x00b"}, "filter_invalid_character"),
        ({"$not": {"$not": {"$not": {"$not": {"$not": {"$not": {"$not": {"$not": {"$not": {}}}}}}}}}},
         "filter_too_deep"),
        ({"$not": {}}, "invalid_filter"),
        ({"version": {"$not": {}}}, "invalid_filter"),
        ({"$and": [{}]}, "invalid_filter"),
        ({"$or": [{"tag": "x"}, {}]}, "invalid_filter"),
        ({"$and": []}, "invalid_filter"),
        ({"tag": "x" * (MAX_STRING_LENGTH + 1)}, "filter_value_too_long"),
        ({"tag": {"$in": ["x", "y" * (MAX_STRING_LENGTH + 1)]}}, "filter_value_too_long"),
        ({"price": {"$gt": "100"}}, "filter_type_mismatch"),
    ],
)
def test_malformed_filters_have_codes(spec, code):
    with pytest.raises(FilterError) as caught:
        filter_compile(spec)
    assert caught.value.code == code


# --- bounded input: limits hold before any work that grows with the input -------------------

def _refusal(spec) -> FilterError:
    with pytest.raises(FilterError) as caught:
        filter_compile(spec)
    return caught.value


def _nested_and(levels: int, leaf: dict) -> dict:
    spec = leaf
    for _ in range(levels):
        spec = {"$and": [spec]}
    return spec


def test_empty_objects_count_against_the_limit():
    error = _refusal({"$and": [{}] * 200_000})
    assert (error.code, error.path) == ("filter_too_complex", "filter.$and")
    assert str(MAX_IN_VALUES) in error.message


def test_and_list_longer_than_its_limit_is_refused():
    error = _refusal({"$and": [{}] * (MAX_LOGICAL_ITEMS + 1)})
    assert (error.code, error.path) == ("filter_too_complex", "filter.$and")
    assert str(MAX_LOGICAL_ITEMS) in error.message


def test_every_node_counts_nested_lists_included():
    error = _refusal({"$or": [{"$and": [{}] * 90}] * 12})  # 12 x 90 empty objects, no condition
    assert error.code == "filter_too_complex"
    assert error.path.startswith("filter.$or[10].$and[")
    assert str(MAX_NODES) in error.message


def test_in_list_longer_than_its_limit_is_refused():
    error = _refusal({"version": {"$in": list(range(MAX_IN_VALUES + 1))}})
    assert (error.code, error.path) == ("filter_too_complex", "filter.version.$in")


def test_too_many_conditions_are_refused():
    error = _refusal({"$and": [{"version": {"$gt": i}} for i in range(MAX_CONDITIONS + 1)]})
    assert error.code == "filter_too_complex"
    assert str(MAX_CONDITIONS) in error.message


def test_nesting_past_the_limit_names_the_limit_and_the_path():
    error = _refusal(_nested_and(MAX_DEPTH + 1, {"tag": "x"}))
    assert error.code == "filter_too_deep"
    assert error.path.startswith("filter" + ".$and[0]" * MAX_DEPTH)
    assert f"at most {MAX_DEPTH} levels" in error.message


def test_nesting_a_hundred_thousand_levels_deep_is_refused_without_recursing():
    spec = leaf = {}
    for _ in range(100_000):
        leaf["$not"] = {}
        leaf = leaf["$not"]
    error = _refusal(spec)
    assert error.code == "filter_too_deep"
    assert len(error.message) < 300


def test_overlong_key_is_refused_with_a_short_message():
    error = _refusal({"x" * 1_000_000: 1})
    assert error.code == "unknown_filter_key"
    assert len(error.message) < 200
