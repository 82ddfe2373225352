"""The search statements the product sends, recorded on their way to the database, and their
plans: for tests/citus/test_explain.py and bench/growth.py --citus.

Every search statement goes through `SearchCursor.execute` (search/engine/db/statements.py);
`statements_recorded` wraps it for a block (the real method still runs) and keeps each
statement's SQL, parameters, the settings in force for it (the search transaction's and its
own), the engine function that sent it, and how long it
took. `explained` runs EXPLAIN (or EXPLAIN ANALYZE) of each through a SearchCursor of its own,
with the same settings.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from search.engine.db import statements as statements_module
from search.engine.db.statements import SearchCursor, search_cursor

ENGINE = Path(statements_module.__file__).parent.parent  # search/engine


@dataclass
class Statement:
    origin: str
    sql: str
    params: list[Any]
    local_settings: dict[str, str]
    ms: float = 0.0
    settings_only: bool = False
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


@contextmanager
def statements_recorded() -> Iterator[list[Statement]]:
    """Every statement a SearchCursor runs in the block, in order, with its time."""
    recorded: list[Statement] = []
    execute, settings_set = SearchCursor.execute, SearchCursor.settings_set

    def recording(self, sql, params=(), *, local_settings=None, transaction_settings=None):
        # The settings in force for the statement: the search transaction's and its own.
        kept = self.__dict__.setdefault("recorded_settings", {})
        kept.update(transaction_settings or {})
        statement = Statement(statement_origin(), sql, list(params), {**kept, **(local_settings or {})},
                              settings_only=self.__dict__.get("settings_only_now", False))
        recorded.append(statement)
        started = time.perf_counter()
        try:
            return execute(self, sql, params, local_settings=local_settings, transaction_settings=transaction_settings)
        finally:
            statement.ms = (time.perf_counter() - started) * 1000

    def recording_settings(self, settings):
        self.__dict__.setdefault("recorded_settings", {}).update(settings)
        self.settings_only_now = True
        try:
            return settings_set(self, settings)
        finally:
            self.settings_only_now = False

    SearchCursor.execute, SearchCursor.settings_set = recording, recording_settings
    try:
        yield recorded
    finally:
        SearchCursor.execute, SearchCursor.settings_set = execute, settings_set


def explained(statements: list[Statement], *, analyze: bool = False) -> list[Statement]:
    """Each statement's plan on the database the searches read, run as the product runs the statement."""
    for statement in statements:
        if statement.settings_only:  # its settings are among the next statements' own
            continue
        with search_cursor(atomic=True) as cursor:
            cursor.execute(f"EXPLAIN {'(ANALYZE, BUFFERS) ' if analyze else ''}{statement.sql}", statement.params,
                           local_settings=statement.local_settings)
            statement.plan = [row[0] for row in cursor.fetchall()]
    return statements
