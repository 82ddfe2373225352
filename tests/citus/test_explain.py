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

import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from search.engine.db import statements as statements_module
from search.engine.db.statements import SearchCursor, search_cursor
from search.engine.legs import vector_leg
from tests.citus.searches import Tenant, content_load, search_request
from tests.figures import figure_record
from tests.search.pipeline_helpers import fake_embeddings  # noqa: F401 - fixture

# Committed content, each search and each EXPLAIN a transaction of its own: EXPLAIN between the
# searches inside one test transaction trips Citus's local execution of the reference tables'
# placements on the coordinator ("cannot switch local execution status").
pytestmark = pytest.mark.django_db(transaction=True)

ENGINE = Path(statements_module.__file__).parent.parent  # search/engine
QUERY = "express shipping"
# Each kind's main statements, by the engine function that sent them (`statement_origin`).
MAIN_STATEMENTS = {
    "entries": {"fulltext._search"},
    "semantic": {"vector_leg.vector_exact_sql"},
    "semantic, HNSW walk": {"vector_leg.vector_candidates_sql"},
    "hybrid": {"keyword._ranked", "vector_leg.vector_exact_sql"},
    "agentic": {"keyword._ranked", "vector_leg.vector_exact_sql"},
    "suggest": {"suggest.term_completions", "suggest.title_completions"},
}


@dataclass
class Statement:
    origin: str
    sql: str
    params: list[Any]
    local_settings: dict[str, str]
    plan: list[str] = field(default_factory=list)

    @property
    def citus_scan(self) -> bool:
        return any("Custom Scan (Citus" in line for line in self.plan)

    @property
    def task_counts(self) -> list[str]:
        return [line.strip() for line in self.plan if line.strip().startswith("Task Count:")]


def statement_origin() -> str:
    """`module.function` of the engine code that sent the statement being recorded; for the vector
    leg's `ranked`, the plan it was given (exact ranking or the HNSW walk)."""
    frame = sys._getframe(2)
    while frame is not None:
        path = Path(frame.f_code.co_filename)
        if path.is_relative_to(ENGINE) and path.parent.name != "db":
            if frame.f_code.co_name == "ranked" and "plan_sql" in frame.f_locals:
                return f"{path.stem}.{frame.f_locals['plan_sql'].__name__}"
            return f"{path.stem}.{frame.f_code.co_name}"
        frame = frame.f_back
    return "elsewhere"


@pytest.fixture
def recorded(monkeypatch) -> Iterator[list[Statement]]:
    """Every statement a SearchCursor runs, recorded before it runs as the product sends it."""
    statements: list[Statement] = []
    execute = SearchCursor.execute

    def recording(self, sql, params=(), *, local_settings=None):
        statements.append(Statement(statement_origin(), sql, list(params), dict(local_settings or {})))
        return execute(self, sql, params, local_settings=local_settings)

    monkeypatch.setattr(SearchCursor, "execute", recording)
    yield statements


def explained(statements: list[Statement]) -> list[Statement]:
    """Each statement's EXPLAIN on the coordinator, run as the product runs the statement."""
    for statement in statements:
        with search_cursor(atomic=True) as cursor:
            cursor.execute(f"EXPLAIN {statement.sql}", statement.params, local_settings=statement.local_settings)
            statement.plan = [row[0] for row in cursor.fetchall()]
    return statements


def suggest_request(tenant: Tenant, _kind: str, query: str):
    return tenant.client().get(f"/api/v1/workspaces/{tenant.slug}/search/suggest", {"q": query[:3]})


def kind_statements(recorded: list[Statement], tenant: Tenant, kind: str,
                    request: Callable = search_request) -> list[Statement]:
    recorded.clear()
    response = request(tenant, kind, QUERY)
    assert response.status_code == 200, response.content
    return explained(list(recorded))


def test_every_search_kinds_statements_are_planned_as_one_task_on_the_workspaces_shard(
        fake_embeddings, recorded, monkeypatch):  # noqa: F811
    tenant = content_load()[0]
    by_kind = {kind: kind_statements(recorded, tenant, kind) for kind in ("entries", "semantic", "hybrid", "agentic")}
    by_kind["suggest"] = kind_statements(recorded, tenant, "suggest", suggest_request)
    # The vector walk itself: a workspace of a few chunks is ranked exactly (every distance),
    # a large one by the HNSW walk; with the exact plan off, these chunks take the walk too.
    monkeypatch.setattr(vector_leg, "EXACT_MAX_ROWS", 0)
    by_kind["semantic, HNSW walk"] = kind_statements(recorded, tenant, "semantic")
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
