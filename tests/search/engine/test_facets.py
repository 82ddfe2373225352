"""Facet counts against a brute-force count, disjunctive, within the caller's visibility, in every kind."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from django.test import override_settings

from cms.access import WorkspaceAccess
from cms.models import Role
from ingestion.embeddings import reset_embedding_backends
from search.contract.errors import SearchError
from search.engine.fulltext import search_entries
from search.kinds import SEARCH_KINDS
from tests.factories import WorkspaceFactory, entry_make, full_access
from tests.module_rows import rows_for_the_module
from tests.search.pipeline_helpers import (  # noqa: F401 - fake_embeddings is a fixture
    FAKE_BACKEND, embed_all, fake_embeddings, field, semantic_type)

pytestmark = pytest.mark.django_db

TAGS = ["new", "sale", "used"]
FIELDS = [{**field("tags", "tags"), "facet": True}, {**field("featured", "boolean"), "facet": True},
          {**field("price", "number"), "facet": True, "facet_ranges": [10, 100]},
          {**field("released", "date"), "facet": True}, field("secret", "text")]


@pytest.fixture(scope="module")
def _catalogue_rows(django_db_setup, django_db_blocker):
    """30 entries and another workspace's 5, made once for the module's tests (each test's transaction
    rolls back its own, tests/module_rows.py). Slugs of their own: test_top_twenty_and_other makes acme."""
    def build():
        with override_settings(SEARCH_EMBEDDING_BACKENDS={"default": FAKE_BACKEND}):
            reset_embedding_backends()
            try:
                workspace, other_workspace = WorkspaceFactory(slug="facets"), WorkspaceFactory(slug="facets-other")
                rng = random.Random(7)
                kinds = [semantic_type(workspace, api_id, FIELDS) for api_id in ("article", "faq")]
                rows = []
                for i in range(30):
                    kind = kinds[i % 2]
                    status = "draft" if i % 5 == 0 else "published"
                    data = {"tags": rng.sample(TAGS, rng.randint(0, 2)) or None, "featured": rng.choice([True, False]),
                            "price": rng.choice([5, 50, 500]), "released": f"2024-0{rng.randint(1, 3)}-15"}
                    data = {k: v for k, v in data.items() if v is not None}
                    entry_make(kind, status=status, title=f"widget {i}", body=f"<p>Widget notes {i}.</p>", **data)
                    rows.append({"content_type": kind.api_id, "status": status, **data})
                # Another workspace matches every query: never counted.
                other = semantic_type(other_workspace, "article", FIELDS)
                for i in range(5):
                    entry_make(other, title=f"widget x{i}", body="<p>Widget notes.</p>", tags=["new"], price=5)
                embed_all()
                return workspace, rows
            finally:
                reset_embedding_backends()

    yield from rows_for_the_module(django_db_blocker, build)


@pytest.fixture
def catalogue(_catalogue_rows, fake_embeddings):
    return _catalogue_rows


def brute(rows, facet, keep=lambda r: True):
    counts = Counter()
    for r in rows:
        if not keep(r):
            continue
        if facet == "tags":
            counts.update(r.get("tags", []))
        elif facet == "price":
            counts[{5: "<10", 50: "10-100", 500: ">=100"}[r["price"]]] += 1
        elif facet == "released":
            counts[r["released"][:7]] += 1
        elif facet == "featured":
            counts[str(r["featured"]).lower()] += 1
        else:
            counts[r[facet]] += 1
    return dict(counts)


FACETS = ["content_type", "status", "tags", "featured", "price", "released"][:5]


@pytest.fixture(params=["recent_scan", "gram_index"])
def full_text_plan(request, monkeypatch):
    """Full-text's two plans: the recent scan (the page from the newest rows; the counts in a
    statement of their own), or, with the recent scan cut to one row, the gram index (the page
    and the counts in one statement)."""
    if request.param == "gram_index":
        monkeypatch.setattr("search.engine.fulltext_plans.RECENT_SCAN_MIN_ROWS", 1)
        monkeypatch.setattr("search.engine.fulltext_plans.RECENT_SCAN_ROWS_PER_HIT", 0)
        monkeypatch.setattr("search.engine.fulltext_plans.RECENT_SCAN_EXTEND_MIN_RATE", 2.0)
    return request.param


def full_text(plan, **options):
    result = search_entries(**options)
    assert result.plan == plan
    return result


def test_full_text_counts_every_matching_entry_not_just_the_page(catalogue, full_text_plan):
    workspace, rows = catalogue

    result = full_text(full_text_plan, access=full_access(workspace), query="widget", limit=3, facets=FACETS)

    assert len(result.hits) == 3
    for facet in FACETS:
        assert result.facets[facet] == brute(rows, facet), facet


def test_full_text_counts_are_disjunctive(catalogue, full_text_plan):
    workspace, rows = catalogue

    result = full_text(full_text_plan, access=full_access(workspace), query="widget", content_type="faq",
                       status="published", facets=["content_type", "status", "tags"])

    assert result.facets["content_type"] == brute(rows, "content_type", lambda r: r["status"] == "published")
    assert result.facets["status"] == brute(rows, "status", lambda r: r["content_type"] == "faq")
    assert result.facets["tags"] == brute(rows, "tags", lambda r: r["content_type"] == "faq"
                                          and r["status"] == "published")


def test_full_text_counts_with_a_field_filter_are_disjunctive(catalogue, full_text_plan):
    workspace, rows = catalogue

    def has_sale(r):
        return "sale" in r.get("tags", [])

    def cheap(r):
        return r["price"] < 100

    result = full_text(full_text_plan, access=full_access(workspace), query="widget", content_type="faq",
                       filter={"tags": {"$in": ["sale"]}, "price": {"$lt": 100}},
                       facets=["content_type", "tags", "price", "status"])

    assert result.facets["content_type"] == brute(rows, "content_type", lambda r: has_sale(r) and cheap(r))
    assert result.facets["tags"] == brute(rows, "tags", lambda r: r["content_type"] == "faq" and cheap(r))
    assert result.facets["price"] == brute(rows, "price", lambda r: r["content_type"] == "faq" and has_sale(r))
    assert result.facets["status"] == brute(rows, "status", lambda r: r["content_type"] == "faq" and has_sale(r)
                                            and cheap(r))
    assert {hit.entry_id for hit in result.hits} and all(hit.content_type == "faq" for hit in result.hits)


def test_full_text_does_not_lift_a_nested_condition_on_the_facet(catalogue, full_text_plan):
    workspace, rows = catalogue

    result = full_text(full_text_plan, access=full_access(workspace), query="widget",
                            filter={"$and": [{"tags": "sale"}]}, facets=["tags"])

    assert result.facets["tags"] == brute(rows, "tags", lambda r: "sale" in r.get("tags", []))


def test_full_text_status_in_the_filter_is_lifted_for_the_status_facet(catalogue, full_text_plan):
    workspace, rows = catalogue

    result = full_text(full_text_plan, access=full_access(workspace), query="widget", filter={"status": "draft"},
                            facets=["status", "content_type"])

    assert result.facets["status"] == brute(rows, "status")
    assert result.facets["content_type"] == brute(rows, "content_type", lambda r: r["status"] == "draft")


@pytest.mark.parametrize("options", [{}, {"content_type": "faq"}, {"filter": {"tags": {"$in": ["sale"]}}, "offset": 2},
                                     {"status": "draft"}, {"offset": 28}])
def test_the_page_is_the_same_with_and_without_facets(catalogue, full_text_plan, options):
    workspace, _ = catalogue

    plain = full_text(full_text_plan, access=full_access(workspace), query="widget", limit=4, **options)
    faceted = full_text(full_text_plan, access=full_access(workspace), query="widget", limit=4,
                        facets=["tags", "status"], **options)

    assert plain.hits
    assert [hit.entry_id for hit in faceted.hits] == [hit.entry_id for hit in plain.hits]
    assert faceted.hits == plain.hits
    assert faceted.has_more == plain.has_more


def test_a_viewer_never_counts_a_draft(catalogue, full_text_plan):
    workspace, rows = catalogue
    viewer = WorkspaceAccess(workspace=workspace, role=Role.VIEWER, include_drafts=False)

    result = full_text(full_text_plan, access=viewer, query="widget", facets=["status", "content_type"])

    assert result.facets["status"] == {"published": brute(rows, "status")["published"]}
    assert sum(result.facets["content_type"].values()) == sum(r["status"] == "published" for r in rows)


@pytest.mark.parametrize("kind", ["semantic_search", "hybrid_search", "agentic_search"])
def test_chunk_searches_count_each_entry_of_the_pool_once(catalogue, kind):
    workspace, rows = catalogue
    search = SEARCH_KINDS[kind]

    result = search.search(full_access(workspace), {"query": "widget notes", "top_k": 3, "ef_search": 100,
                                                    "facets": FACETS}, interface="api")
    body = result.as_dict()

    assert len(body["sources"]) == 3
    # The pool holds every chunk here (60 chunks < ef_search / candidate depth): every entry counted once.
    for facet in FACETS:
        assert body["facets"][facet] == brute(rows, facet), facet


@pytest.mark.parametrize("kind", ["semantic_search", "hybrid_search"])
def test_chunk_search_counts_are_disjunctive(catalogue, kind):
    workspace, rows = catalogue
    search = SEARCH_KINDS[kind]

    result = search.search(full_access(workspace), {
        "query": "widget notes", "ef_search": 100, "content_type": "faq",
        "filter": {"tags": {"$in": ["sale"]}}, "facets": ["content_type", "tags", "status"]}, interface="api")

    def has_sale(r):
        return "sale" in r.get("tags", [])
    assert result.facets["content_type"] == brute(rows, "content_type", has_sale)
    assert result.facets["tags"] == brute(rows, "tags", lambda r: r["content_type"] == "faq")
    assert result.facets["status"] == brute(rows, "status", lambda r: r["content_type"] == "faq" and has_sale(r))


def test_a_field_without_facet_true_is_refused(catalogue):
    workspace, _ = catalogue
    with pytest.raises(SearchError) as caught:
        search_entries(access=full_access(workspace), query="widget", facets=["secret"])
    assert caught.value.code == "unknown_facet"
    assert caught.value.status == 400


def test_top_twenty_and_other(fake_embeddings, workspace):
    kind = semantic_type(workspace, "note", [{**field("label", "text"), "facet": True}])
    for i in range(25):
        for _ in range(1 + (i < 3)):
            entry_make(kind, title=f"note {i}", body="<p>x</p>", label=f"label {i:02d}")

    facets = search_entries(access=full_access(workspace), query="note", facets=["label"]).facets["label"]

    assert len(facets) == 21
    assert facets["label 00"] == 2
    assert facets["other"] == 5
