"""Filters on a tags field against a brute-force count, through the real pipeline; the GIN index serves them.

Entries with random tags are saved through cms.services, ingestion writes their chunks, and
semantic_search answers each filter; the expected set is computed in Python from the saved
data with MongoDB's list semantics.
"""

from __future__ import annotations

import random

import pytest
from django.db import connection

from search.engine.filters.chunks import chunk_filter_compile
from tests.factories import entry_make, full_access
from tests.search.pipeline_helpers import embed_all, fake_embeddings, field, semantic_type, titles_found  # noqa: F401

pytestmark = pytest.mark.django_db

VOCABULARY = ["new", "sale", "used", "premium", "refurbished"]


@pytest.fixture
def tagged(fake_embeddings, workspace, other_workspace):
    rng = random.Random(20)
    kind = semantic_type(workspace, "product", [field("tags", "tags"), field("label", "text")])
    data = {}
    for i in range(24):
        tags = rng.sample(VOCABULARY, rng.randint(0, 3))
        title = f"p{i:02d}"
        fields = {"label": f"{title} label"} | ({"tags": tags} if tags else {})
        entry_make(kind, title=title, body=f"<p>Notes on {title}.</p>", **fields)
        data[title] = tags
    # Another tenant's entry holds every tag: it must never be counted.
    entry_make(semantic_type(other_workspace, "product", [field("tags", "tags")]), title="intruder",
               body="<p>Notes on the intruder.</p>", tags=VOCABULARY)
    embed_all()
    return workspace, data


def expected(data, test) -> set[str]:
    return {title for title, tags in data.items() if test(tags)}


CASES = [
    ({"tags": "new"}, lambda t: "new" in t),
    ({"tags": {"$ne": "new"}}, lambda t: "new" not in t),
    ({"tags": {"$in": ["sale", "used"]}}, lambda t: bool({"sale", "used"} & set(t))),
    ({"tags": {"$nin": ["sale", "used"]}}, lambda t: not {"sale", "used"} & set(t)),
    ({"tags": {"$all": ["new", "sale"]}}, lambda t: {"new", "sale"} <= set(t)),
    ({"tags": {"$all": []}}, lambda t: False),
    ({"tags": {"$size": 2}}, lambda t: len(t) == 2),
    ({"tags": {"$size": 0}}, lambda t: False),  # an empty list is not stored: the field is missing
    ({"tags": {"$exists": False}}, lambda t: not t),
    ({"tags": {"$contains": "premium"}}, lambda t: "premium" in t),
    ({"tags": {"$not": {"$all": ["new", "used"]}}}, lambda t: not {"new", "used"} <= set(t)),
    ({"$nor": [{"tags": "new"}, {"tags": {"$size": 1}}]}, lambda t: "new" not in t and len(t) != 1),
    ({"$or": [{"tags": {"$in": ["refurbished"]}}, {"tags": {"$exists": False}}]},
     lambda t: "refurbished" in t or not t),
]


@pytest.mark.parametrize(("spec", "test"), CASES, ids=[str(spec) for spec, _ in CASES])
def test_a_tags_filter_matches_the_brute_force_count(tagged, spec, test):
    workspace, data = tagged

    assert titles_found(workspace, spec) == expected(data, test)


def test_contains_is_a_substring_of_a_text_field(tagged):
    workspace, data = tagged

    assert titles_found(workspace, {"label": {"$contains": "p1"}}) == {t for t in data if t.startswith("p1")}
    assert titles_found(workspace, {"label": {"$contains": "P1"}}) == set()  # case-sensitive


def test_the_gin_index_answers_a_tags_containment(tagged):
    workspace, _ = tagged
    schemas = {"product": [{"id": "tags", "type": "tags"}]}
    compiled = chunk_filter_compile({"tags": {"$all": ["new"]}}, content_type=None,
                                    access=full_access(workspace), schemas=schemas)
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        # Without the workspace predicate (its btree wins on a table this small), to see that
        # the containment alone can be answered from the GIN index.
        cursor.execute(f"EXPLAIN SELECT c.id FROM ingestion_chunk c WHERE {compiled.sql}", compiled.params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "chunk_metadata_gin" in plan
