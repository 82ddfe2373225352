"""The metadata filter language: every operator against real chunks, and what it refuses."""

from __future__ import annotations

import pytest

from search.filters import (
    MAX_CONDITIONS,
    MAX_DEPTH,
    MAX_IN_VALUES,
    MAX_LOGICAL_ITEMS,
    MAX_NODES,
    FilterError,
    filter_compile,
)
from search.semantic import SemanticSearchError, semantic_search
from tests.factories import ContentTypeFactory, full_access
from tests.search.semantic_helpers import chunk_make, entry_for, plain_type

pytestmark = pytest.mark.django_db

# name -> (entry status, content type, fields)
DOCS = {
    "alpha": ("published", "article", {"version": 1, "published_on": "2024-01-10", "featured": True, "tag": "x"}),
    "beta": ("published", "article", {"version": 2, "published_on": "2024-03-01", "featured": False, "tag": "y"}),
    "gamma": ("draft", "article", {"version": 3, "published_on": "2024-06-15", "tag": "x"}),
    "delta": ("draft", "faq", {"tag": None}),
    "epsilon": ("published", "faq", {"version": 2.5, "published_on": "2025-01-01", "featured": True}),
}


@pytest.fixture
def docs(local_embeddings, workspace, other_workspace):
    types = {"article": plain_type(workspace), "faq": ContentTypeFactory(workspace=workspace, api_id="faq")}
    for name, (status, type_id, fields) in DOCS.items():
        chunk_make(entry_for(types[type_id], title=name, status=status), f"Notes about {name}.",
                   fields=fields, entry_status=status)
    # The other tenant has a chunk that matches every filter below: it must never show up.
    other = entry_for(plain_type(other_workspace), title="intruder")
    chunk_make(other, "Notes about the intruder.",
               fields={"version": 2, "published_on": "2024-03-01", "featured": True, "tag": "x"})
    return workspace


def found(workspace, spec) -> set[str]:
    result = semantic_search(access=full_access(workspace), query="notes", top_k=100, filter=spec)
    return {hit.title for hit in result.hits}


# --- one test per operator -------------------------------------------------------------------

def test_implicit_equality(docs):
    assert found(docs, {"tag": "x"}) == {"alpha", "gamma"}


def test_eq(docs):
    assert found(docs, {"version": {"$eq": 2}}) == {"beta"}


def test_eq_null_matches_null_and_missing(docs):
    assert found(docs, {"tag": {"$eq": None}}) == {"delta", "epsilon"}


def test_ne_includes_chunks_without_the_key(docs):
    assert found(docs, {"tag": {"$ne": "x"}}) == {"beta", "delta", "epsilon"}


def test_gt(docs):
    assert found(docs, {"version": {"$gt": 2}}) == {"gamma", "epsilon"}


def test_gte(docs):
    assert found(docs, {"version": {"$gte": 2}}) == {"beta", "gamma", "epsilon"}


def test_lt(docs):
    assert found(docs, {"version": {"$lt": 2}}) == {"alpha"}


def test_lte(docs):
    assert found(docs, {"version": {"$lte": 2}}) == {"alpha", "beta"}


def test_gt_on_iso_dates(docs):
    assert found(docs, {"published_on": {"$gt": "2024-03-01"}}) == {"gamma", "epsilon"}


def test_in(docs):
    assert found(docs, {"version": {"$in": [1, 3, 99]}}) == {"alpha", "gamma"}


def test_nin(docs):
    assert found(docs, {"version": {"$nin": [1, 3]}}) == {"beta", "delta", "epsilon"}


def test_exists_true(docs):
    assert found(docs, {"featured": {"$exists": True}}) == {"alpha", "beta", "epsilon"}


def test_exists_false(docs):
    assert found(docs, {"featured": {"$exists": False}}) == {"gamma", "delta"}


def test_and(docs):
    assert found(docs, {"$and": [{"tag": "x"}, {"version": {"$gt": 1}}]}) == {"gamma"}


def test_or(docs):
    assert found(docs, {"$or": [{"version": 1}, {"featured": True}]}) == {"alpha", "epsilon"}


def test_not_on_a_key(docs):
    assert found(docs, {"version": {"$not": {"$gt": 1}}}) == {"alpha", "delta"}


def test_not_on_a_filter(docs):
    assert found(docs, {"$not": {"status": "published"}}) == {"gamma", "delta"}


def test_several_operators_on_one_key_all_hold(docs):
    assert found(docs, {"version": {"$gt": 1, "$lt": 3}}) == {"beta", "epsilon"}


def test_status_key_is_the_entry_status(docs):
    assert found(docs, {"status": "draft"}) == {"gamma", "delta"}


def test_content_type_key(docs):
    assert found(docs, {"content_type": {"$in": ["faq"]}}) == {"delta", "epsilon"}


def test_source_kind_key(docs):
    assert found(docs, {"source_kind": "entry"}) == set(DOCS)


def test_fields_prefix_and_bare_field_id_are_the_same_key(docs):
    assert found(docs, {"fields.tag": "x"}) == found(docs, {"tag": "x"}) == {"alpha", "gamma"}


def test_equality_is_typed_a_number_never_equals_its_string(docs):
    assert found(docs, {"version": "2"}) == set()


# --- a filter only narrows -----------------------------------------------------------------------

def test_a_filter_that_matches_everything_stays_in_the_workspace(docs):
    spec = {"$or": [{"tag": {"$exists": True}}, {"tag": {"$exists": False}}]}
    assert found(docs, spec) == set(DOCS)


def test_sql_in_a_value_is_only_a_value(docs):
    assert found(docs, {"tag": "x' OR '1'='1"}) == set()
    assert found(docs, {"status": {"$in": ["published') OR TRUE --"]}}) == set()


def test_a_column_name_as_key_is_only_an_entry_field(docs, other_workspace):
    # Bare keys name entry fields inside metadata.fields, never table columns.
    assert found(docs, {"workspace_id": other_workspace.pk}) == set()
    assert found(docs, {"$or": [{"workspace_id": {"$exists": False}}]}) == set(DOCS)


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


@pytest.mark.parametrize("operator", ["$where", "$regex", "$expr", "$function", "$elemMatch", "$nor", "$$eq"])
def test_operators_outside_the_list_are_refused(operator):
    with pytest.raises(FilterError) as caught:
        filter_compile({"tag": {operator: "x"}})
    assert caught.value.code == "unknown_operator"


def test_unknown_top_level_operator_is_refused():
    with pytest.raises(FilterError) as caught:
        filter_compile({"$where": "1=1"})
    assert caught.value.code == "unknown_operator"
    assert caught.value.path == "filter.$where"


def test_keys_are_bound_as_parameters_not_spliced_into_sql():
    compiled = filter_compile({"tag": "x"})
    assert "tag" not in compiled.sql
    assert compiled.params == ["tag", '"x"']


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
    ],
)
def test_malformed_filters_have_codes(spec, code):
    with pytest.raises(FilterError) as caught:
        filter_compile(spec)
    assert caught.value.code == code


def test_empty_filter_matches_everything():
    assert filter_compile({}).sql == "TRUE"
    assert filter_compile(None).sql == "TRUE"


def test_filter_error_reaches_the_search_caller_with_its_code(local_embeddings, workspace):
    with pytest.raises(SemanticSearchError) as caught:
        semantic_search(access=full_access(workspace), query="notes", filter={"version": {"$between": [1, 2]}})
    assert caught.value.code == "unknown_operator"
    assert caught.value.path == "filter.version.$between"


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


def test_filter_at_every_limit_still_compiles():
    deepest = _nested_and(MAX_DEPTH, {"version": {"$in": list(range(MAX_IN_VALUES))}})
    widest = {"$and": [{"version": {"$gt": i}} for i in range(MAX_CONDITIONS)]}
    assert filter_compile(deepest).sql and filter_compile(widest).sql


def test_largest_accepted_filter_compiles_to_little_sql():
    # Before the node limit, 200,000 empty objects compiled to 1.8 MB of SQL.
    spec = {"$or": [{"$and": [{}] * 90} for _ in range(10)]}
    assert len(filter_compile(spec).sql) < 20_000


def test_overlong_key_is_refused_with_a_short_message():
    error = _refusal({"x" * 1_000_000: 1})
    assert error.code == "unknown_filter_key"
    assert len(error.message) < 200
