"""The metadata filter language: every operator against chunks the pipeline wrote, and what it refuses.

Entries are saved through cms.services; ingestion writes their chunks (and the field values
filters read); the fake provider embeds them; semantic_search answers.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.models.expressions import RawSQL

from cms import services as cms_services
from cms.models import Entry
from ingestion import sources
from search.engine.filters.chunks import chunk_filter_compile
from search.contract.errors import SearchError, SearchInputError
from search.contract.filter_language import MAX_STRING_LENGTH
from search.engine.filters.compile import filter_compile
from search.engine.semantic import semantic_search
from tests.factories import entry_make, full_access
from tests.search.pipeline_helpers import embed_all, fake_embeddings, field, semantic_type, titles_found  # noqa: F401

pytestmark = pytest.mark.django_db

# name -> (entry status, content type, fields)
DOCS = {
    "alpha": ("published", "article", {"version": 1, "published_on": "2024-01-10", "featured": True, "tag": "x"}),
    "beta": ("published", "article", {"version": 2, "published_on": "2024-03-01", "featured": False, "tag": "y"}),
    "gamma": ("draft", "article", {"version": 3, "published_on": "2024-06-15", "tag": "x"}),
    "delta": ("draft", "faq", {"tag": None}),
    "epsilon": ("published", "faq", {"version": 2.5, "published_on": "2025-01-01", "featured": True}),
}
FIELDS = [field("version", "number"), field("published_on", "date"), field("featured", "boolean"),
          field("tag", "text")]


@pytest.fixture
def docs(fake_embeddings, workspace, other_workspace):
    types = {"article": semantic_type(workspace, "article", FIELDS), "faq": semantic_type(workspace, "faq", FIELDS)}
    for name, (status, type_id, fields) in DOCS.items():
        entry_make(types[type_id], status=status, title=name, body=f"<p>Notes about {name}.</p>", **fields)
    # The other tenant has an entry that matches every filter below: it must never show up.
    entry_make(semantic_type(other_workspace, "article", FIELDS), title="intruder",
               body="<p>Notes about the intruder.</p>", version=2, published_on="2024-03-01", featured=True, tag="x")
    embed_all()
    return workspace


def found(workspace, spec, **kwargs) -> set[str]:
    return titles_found(workspace, spec, **kwargs)


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


def test_equality_compares_numbers_by_value(docs):
    # Equality is containment of {"fields": {key: value}}: 2 and 2.0 are the same number.
    assert found(docs, {"version": 2.0}) == {"beta"}
    assert found(docs, {"version": {"$ne": 2.0}}) == set(DOCS) - {"beta"}


def test_in_with_null_matches_null_and_missing_as_eq_does(docs):
    # $in is one containment test per value; null keeps $eq's meaning (missing or JSON null).
    assert found(docs, {"tag": {"$in": [None, "y"]}}) == {"beta", "delta", "epsilon"}
    assert found(docs, {"tag": {"$nin": [None, "y"]}}) == {"alpha", "gamma"}
    assert found(docs, {"version": {"$in": [2.0, 3]}}) == {"beta", "gamma"}
    assert found(docs, {"tag": {"$in": []}}) == set()
    assert found(docs, {"tag": {"$nin": []}}) == set(DOCS)


def test_equality_on_a_field_holding_a_list_is_not_membership(docs):
    # Only a tags field matches any value of its list; a text field that happens to hold a
    # list in its metadata must not match one of its items (a containment test would, at
    # the top level of a document: it is only ever nested here).
    from ingestion.models import Chunk

    Chunk.objects.filter(workspace=docs, title="beta").update(
        metadata=RawSQL("jsonb_set(metadata, '{fields,tag}', '[\"x\"]')", []))
    assert found(docs, {"tag": "x"}) == {"alpha", "gamma"}


def test_equality_uses_the_metadata_index_when_it_is_selective(docs):
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        compiled = filter_compile({"tag": "x"}, column="c.metadata")
        cursor.execute("EXPLAIN SELECT id FROM ingestion_chunk c WHERE " + compiled.sql, compiled.params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "chunk_metadata_gin" in plan, plan


# --- a filter only narrows -----------------------------------------------------------------------

def test_a_filter_that_matches_everything_stays_in_the_workspace(docs):
    spec = {"$or": [{"tag": {"$exists": True}}, {"tag": {"$exists": False}}]}
    assert found(docs, spec) == set(DOCS)


def test_sql_in_a_value_is_only_a_value(docs):
    assert found(docs, {"tag": "x' OR '1'='1"}) == set()
    assert found(docs, {"status": {"$in": ["published') OR TRUE --"]}}) == set()


def test_a_column_name_as_key_is_only_an_entry_field(docs, other_workspace):
    # Bare keys name entry fields inside metadata.fields, never table columns; no type has this one.
    with pytest.raises(SearchError) as caught:
        found(docs, {"workspace_id": other_workspace.pk})
    assert caught.value.code == "unknown_filter_key"


def test_filter_error_reaches_the_search_caller_with_its_code(docs):
    with pytest.raises(SearchError) as caught:
        semantic_search(access=full_access(docs), query="notes", filter={"version": {"$between": [1, 2]}})
    assert caught.value.code == "unknown_operator"
    assert caught.value.path == "filter.version.$between"


# --- text values reach the filter ----------------------------------------------------------------

def test_text_field_equality_finds_the_entries_with_that_value(docs):
    assert found(docs, {"tag": "x"}) == {"alpha", "gamma"}


def test_ne_nin_and_not_on_a_text_field_leave_out_the_matching_entries(docs):
    everything_but_x = {"beta", "delta", "epsilon"}
    assert found(docs, {"tag": {"$ne": "x"}}) == everything_but_x
    assert found(docs, {"tag": {"$nin": ["x"]}}) == everything_but_x
    assert found(docs, {"tag": {"$not": {"$eq": "x"}}}) == everything_but_x
    assert found(docs, {"$not": {"tag": "x"}}) == everything_but_x


def test_the_title_and_rich_text_body_are_filterable_as_stored(docs):
    assert found(docs, {"title": "beta"}) == {"beta"}
    assert found(docs, {"body": "<p>Notes about gamma.</p>"}) == {"gamma"}


def test_an_edit_is_what_the_filter_sees_next(docs):
    alpha = Entry.objects.get(workspace=docs, data__title="alpha")
    cms_services.entry_update(entry=alpha, data={**alpha.data, "tag": "z"})
    # The tag is a short field: a context line in the entry's chunks (docs/design/entries.md), so
    # the edit changes their text and they are embedded again, as the workers would.
    embed_all()

    assert found(docs, {"tag": "z"}) == {"alpha"}
    assert found(docs, {"tag": "x"}) == {"gamma"}


@pytest.fixture
def long_note(fake_embeddings, workspace):
    notes = semantic_type(workspace, "note", [field("summary", "text")])
    summary = "2024-05-01: " + "a long summary of what changed, " * 20  # ~650 characters
    entry_make(notes, title="long", body="<p>Notes, long.</p>", summary=summary)
    entry_make(notes, title="short", body="<p>Notes, short.</p>", summary="2023-12-31: short")
    embed_all()
    return summary


def test_a_long_text_value_is_stored_cut_and_still_exists(workspace, long_note):
    assert found(workspace, {"summary": {"$exists": True}}) == {"long", "short"}
    assert found(workspace, {"summary": {"$exists": False}}) == set()


def test_a_cut_text_value_never_equals_a_filter_value(workspace, long_note):
    assert found(workspace, {"summary": long_note[:MAX_STRING_LENGTH]}) == set()
    assert found(workspace, {"summary": {"$ne": long_note[:MAX_STRING_LENGTH]}}) == {"long", "short"}


def test_a_filter_value_longer_than_stored_text_is_an_error_not_a_miss(workspace, long_note):
    with pytest.raises(SearchError) as caught:
        found(workspace, {"summary": long_note})
    assert caught.value.code == "filter_value_too_long"
    assert caught.value.status == 400


def test_a_date_range_on_a_cut_text_value_compares_the_whole_value(workspace, long_note):
    assert found(workspace, {"summary": {"$gt": "2024-05-01"}}) == {"long"}
    assert found(workspace, {"summary": {"$lt": "2024-01-01"}}) == {"short"}


def test_stored_text_is_cut_one_past_the_longest_filter_value():
    assert sources.FILTER_TEXT_MAX_CHARS == MAX_STRING_LENGTH + 1


# --- keys must exist in the content types in scope -----------------------------------------------

def test_a_key_no_content_type_has_is_unknown_and_the_message_lists_the_keys(docs):
    with pytest.raises(SearchError) as caught:
        found(docs, {"$or": [{"tag": "x"}, {"category": "books"}]})

    assert caught.value.code == "unknown_filter_key"
    assert caught.value.status == 400
    assert caught.value.path == "filter.$or[1].category"
    assert "body, featured, published_on, tag, title, version" in caught.value.message


def test_a_key_of_another_content_type_is_unknown_when_the_search_names_one_type(docs):
    semantic_type(docs, "product", [field("price", "number")])

    assert found(docs, {"price": {"$gt": 1}}) == set()
    with pytest.raises(SearchError) as caught:
        found(docs, {"price": {"$gt": 1}}, content_type="article")
    assert caught.value.code == "unknown_filter_key"
    assert "price" not in caught.value.message.split("fields:")[1]


def test_a_content_type_of_another_workspace_is_unknown(docs, other_workspace):
    semantic_type(other_workspace, "secret", [])

    with pytest.raises(SearchError) as caught:
        found(docs, None, content_type="secret")
    assert caught.value.code == "unknown_content_type"


def test_an_empty_not_is_refused_instead_of_matching_nothing(docs):
    with pytest.raises(SearchError) as caught:
        found(docs, {"$not": {}})
    assert caught.value.code == "invalid_filter"
    assert caught.value.path == "filter.$not"


# --- one compiled filter for every chunk search --------------------------------------------------

def test_chunk_filter_compile_works_over_any_chunk_alias(docs):
    schemas = {"article": [*FIELDS, {"id": "title", "type": "text"}]}
    compiled = chunk_filter_compile({"tag": "x"}, content_type="article", access=full_access(docs),
                                    schemas=schemas, alias="k")

    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT DISTINCT k.title FROM ingestion_chunk k WHERE k.workspace_id = %s AND {compiled.sql}",
            [docs.pk, *compiled.params],
        )
        titles = {row[0] for row in cursor.fetchall()}
    assert titles == {"alpha", "gamma"}
    assert "c." not in compiled.sql


def test_chunk_filter_compile_refuses_an_unknown_content_type():
    with pytest.raises(SearchInputError) as caught:
        chunk_filter_compile(None, content_type="nope", access=None, schemas={"article": []})
    assert caught.value.code == "unknown_content_type"
