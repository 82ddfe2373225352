"""Whether the database is a Citus coordinator: the few statements that would reach every
shard take a per-workspace form there (docs/operators.md "Going to Citus").

Asked once per process and database, on the driver's own cursor, so it never shows among
the statements a test counts; citus_distribute forgets it.
"""

from __future__ import annotations

from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper

_known: dict[tuple, bool] = {}


def citus_active(connection: BaseDatabaseWrapper | None = None) -> bool:
    connection = connection or connections["default"]
    settings = connection.settings_dict
    key = (connection.alias, settings.get("NAME"), settings.get("HOST"), settings.get("PORT"), settings.get("PGDATA"))
    if key not in _known:
        connection.ensure_connection()
        with connection.connection.cursor() as cursor:
            cursor.execute("SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus')")
            installed = cursor.fetchone()[0]
            if installed:  # and some table laid out: before citus_distribute, nothing is sharded
                cursor.execute("SELECT EXISTS (SELECT 1 FROM pg_dist_partition)")
                installed = cursor.fetchone()[0]
        _known[key] = bool(installed)
    return _known[key]


def citus_active_forget() -> None:
    _known.clear()


def same_workspace(left: str, right: str) -> str:
    """` AND left.workspace_id = right.workspace_id` on Citus, for a join between two tenant tables
    on an id: Citus runs a join of colocated tables on one shard, or on each shard, only when the
    join includes the distribution column. On one PostgreSQL nothing: the foreign keys already
    keep both rows in one workspace, and a second join column changes the planner's estimates
    (search/engine/legs/vector_leg.py)."""
    return f" AND {left}.workspace_id = {right}.workspace_id" if citus_active() else ""


def workspace_unindexed(alias: str) -> str:
    """`alias.workspace_id + 0`, the workspace test the planner cannot serve from a workspace
    index (where the workspace-keyed grams already confine the rows, search/engine/fulltext.py); on
    Citus the bare column, which is what routes the statement to the workspace's shard."""
    return f"{alias}.workspace_id" if citus_active() else f"{alias}.workspace_id + 0"


def workspace_named(alias: str) -> str:
    """` AND alias.workspace_id = %s` on Citus (its parameter: `workspace_param`), for a table a
    statement reads by id after the workspace's other tables: Citus runs the statement on one
    shard when every tenant table in it names the workspace. On one PostgreSQL nothing."""
    return f" AND {alias}.workspace_id = %s" if citus_active() else ""


def workspace_param(workspace_id: int) -> list[int]:
    return [workspace_id] if citus_active() else []
