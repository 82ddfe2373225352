"""Moving the test database between migrations, for the tests of a data migration."""

from __future__ import annotations

from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate(target) -> None:
    """Every app to `target` ([(app, migration)], as `manage.py migrate` takes it)."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)


def migrate_to_latest() -> None:
    """Every app back at its newest migration: going back to an earlier one also unapplied what
    came after it (the later tests of the run need those tables and indexes)."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
