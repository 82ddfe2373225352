"""EXPLAIN of every search kind's statements on the cluster: each is a Citus router plan to the
workspace's one shard (`Task Count: 1`).

The statements are the ones the product sends: every search statement goes through
`SearchCursor.execute` (search/engine/db/statements.py), which the test wraps to record each one
(its SQL, parameters and local settings) on its way to the database, while the searches run
through the API as a client calls them (tests/citus/searches.py). Each recorded statement is then
explained on the coordinator through a SearchCursor of its own, with the same settings. The
plans of each kind's main statements are printed (`pytest -s`) and their task counts recorded
in the run's figures.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from cms.access import workspace_access_for_operator
from search.engine.hybrid import chunk_filter
from search.engine.legs import vector_leg
from search.engine.legs.keyword import keyword_candidates, keyword_query_prepare
from tests.citus.searches import Tenant, content_load, search_request
from tests.citus.statements import Statement, explained, statements_recorded
from tests.figures import figure_record
from tests.search.pipeline_helpers import fake_embeddings  # noqa: F401 - fixture

# Committed content, each search and each EXPLAIN a transaction of its own: EXPLAIN between the
# searches inside one test transaction trips Citus's local execution of the reference tables'
# placements on the coordinator ("cannot switch local execution status").
pytestmark = pytest.mark.django_db(transaction=True)

QUERY = "express shipping"
# Each kind's main statements, by the engine function that sent them (`statement_origin`).
MAIN_STATEMENTS = {
    "entries": {"fulltext_plans._recent_scan"},
    "semantic": {"vector_leg.vector_exact_sql"},
    "semantic, HNSW walk": {"vector_leg.vector_candidates_sql"},
    "hybrid": {"keyword._ranked", "vector_leg.vector_exact_sql"},
    "agentic": {"keyword._ranked", "vector_leg.vector_exact_sql"},
    "suggest": {"suggest.term_completions", "suggest.title_completions"},
}


def suggest_request(tenant: Tenant, _kind: str, query: str):
    return tenant.client().get(f"/api/v1/workspaces/{tenant.slug}/search/suggest", {"q": query[:3]})


def kind_statements(tenant: Tenant, kind: str, request: Callable = search_request) -> list[Statement]:
    with statements_recorded() as recorded:
        response = request(tenant, kind, QUERY)
    assert response.status_code == 200, response.content
    return explained(recorded)


def test_every_search_kinds_statements_are_planned_as_one_task_on_the_workspaces_shard(
        fake_embeddings, monkeypatch):  # noqa: F811
    tenant = content_load()[0]
    by_kind = {kind: kind_statements(tenant, kind) for kind in ("entries", "semantic", "hybrid", "agentic")}
    by_kind["suggest"] = kind_statements(tenant, "suggest", suggest_request)
    # The vector walk itself: a workspace of a few chunks is ranked exactly (every distance),
    # a large one by the HNSW walk; with the exact plan off, these chunks take the walk too.
    monkeypatch.setattr(vector_leg, "EXACT_MAX_ROWS", 0)
    by_kind["semantic, HNSW walk"] = kind_statements(tenant, "semantic")
    monkeypatch.undo()

    for kind, statements in by_kind.items():
        origins = {s.origin for s in statements}
        assert MAIN_STATEMENTS[kind] <= origins, (kind, sorted(origins))
        for statement in statements:
            if statement.origin in MAIN_STATEMENTS[kind]:
                assert statement.citus_scan, (kind, statement.origin, statement.plan)
            if statement.citus_scan:
                assert statement.task_counts == ["Task Count: 1"], (kind, statement.origin, statement.plan)
        main = [s for s in statements if s.origin in MAIN_STATEMENTS[kind]]
        figure_record(f"Citus EXPLAIN, {kind}: " + ", ".join(
            f"{s.origin} {'/'.join(s.task_counts)}" for s in main)
            + f"; {sum(s.citus_scan for s in statements)} of {len(statements)} statements on the cluster,"
              " each Task Count: 1")
        print(f"\n===== {kind} ({tenant.slug}, {QUERY!r}) =====")
        for statement in main:
            print(f"--- {statement.origin}")
            print("\n".join(statement.plan))


def test_the_keyword_legs_partial_reads_run_as_one_task_too(fake_embeddings):  # noqa: F811
    """Terms read only in part (a workspace large enough for a common term's postings to be
    cut to its best) rescore the kept chunks, and under a selective filter are read again
    exactly: both statements join the postings to the chunks by chunk id, and name the
    workspace for Citus to keep them on one shard. The fixed content is small, so the test
    asks for the cut (a budget and champion count of 1) that a large workspace gets."""
    tenant = content_load()[0]
    access = workspace_access_for_operator(workspace=tenant.workspace, include_drafts=False)
    prepared = keyword_query_prepare(workspace_id=tenant.workspace.pk, query="shipping orders delivery day",
                                     budget=1, champions=1)
    assert prepared.truncated, prepared.limits
    where = chunk_filter(access=access, content_type=None, spec={"tags": "shipping"}).keyword_where
    with statements_recorded() as recorded:
        unfiltered, _plan = keyword_candidates(prepared, limit=10, where=None)
        filtered, plan = keyword_candidates(prepared, limit=10, where=where)
    assert unfiltered and filtered and plan.fallback
    origins = [s.origin for s in explained(recorded)]
    assert {"keyword._ranked", "keyword._ranked_few"} <= set(origins), origins
    for statement in recorded:
        assert statement.task_counts == ["Task Count: 1"], (statement.origin, statement.plan)
    figure_record("Citus EXPLAIN, keyword leg with terms read in part: "
                  + ", ".join(f"{s.origin} {'/'.join(s.task_counts)}" for s in recorded))
