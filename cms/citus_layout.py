"""How the tables would be laid out on Citus, and what in the schema does not fit yet.

Citus distributes a table by one column and runs a statement on one shard when it filters on
that column. Here that column is `workspace_id`: every search, every ingestion claim and every
admin page works inside one workspace. The rules Citus sets:

- every tenant table (a model with a `workspace_id` column) is distributed by it, colocated
  with the others, so joins between them stay on one node;
- its primary key and every unique constraint or unique index include `workspace_id`;
- its foreign keys either include `workspace_id` on both sides (to another tenant table) or
  point at a reference table (copied to every node: REFERENCE_MODELS below), and a reference
  table's point only at reference tables.

The tables come from the models (`apps.get_models()`), their constraints from the database
catalog, so constraints made in raw SQL by a migration are checked too. `citus_violations()`
lists what breaks a rule; tests/cms/test_citus_layout.py keeps that list from growing, and
`manage.py citus_distribute` refuses to distribute while it is not empty.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.apps import apps
from django.db import connection

DISTRIBUTION_COLUMN = "workspace_id"
# Our apps: their every model is a tenant table or a reference table.
APPS = ("cms", "ingestion", "search")
# Small, read by every shard's statements, written rarely: copied to every node. An API key is
# found by its prefix before its workspace is known (every request), a membership or content
# type is read beside nearly every tenant statement (access, visibility), and a workspace has
# a handful of each: as reference tables they are local reads everywhere, and the tenant
# tables' foreign keys to them need no workspace_id.
# Workers' heartbeats belong to no workspace (a worker serves them all): a few rows, one write
# per worker every WORKER_HEARTBEAT_SECONDS.
REFERENCE_MODELS = ("cms.Workspace", "auth.User", "cms.ApiKey", "cms.Membership", "cms.ContentType",
                    "ingestion.WorkerHeartbeat")


@dataclass(frozen=True, order=True)
class Violation:
    table: str
    rule: str
    detail: str

    def __str__(self) -> str:
        return f"{self.table}: {self.rule}: {self.detail}"


def _models():
    return [m for m in apps.get_models() if m._meta.managed and not m._meta.proxy]


def tenant_tables() -> list[str]:
    """The tables of every model with a workspace_id column, parents before the tables that
    reference them (the order create_distributed_table needs for colocated foreign keys)."""
    references = set(reference_tables())
    tables = sorted({m._meta.db_table for m in _models() if m._meta.db_table not in references
                     and any(f.column == DISTRIBUTION_COLUMN for f in m._meta.concrete_fields)})
    parents = {t: set() for t in tables}
    for source, _name, _columns, target, _target_columns in _foreign_keys(tables):
        if target in parents and target != source:
            parents[source].add(target)
    ordered: list[str] = []
    while parents:
        ready = sorted(t for t, ps in parents.items() if not ps - set(ordered))
        if not ready:  # a cycle: keep the rest in name order
            ready = sorted(parents)
        for table in ready:
            ordered.append(table)
            del parents[table]
    return ordered


def reference_tables() -> list[str]:
    return [apps.get_model(label)._meta.db_table for label in REFERENCE_MODELS]


def citus_violations() -> list[Violation]:
    """Every way the current schema breaks the rules of the module's docstring."""
    tenants = tenant_tables()
    references = set(reference_tables())
    violations: list[Violation] = []
    for model in _models():
        if model._meta.app_label in APPS and model._meta.db_table not in tenants \
                and model._meta.db_table not in references:
            violations.append(Violation(model._meta.db_table, "not a tenant table",
                                        f"{model._meta.label} has no {DISTRIBUTION_COLUMN} and is no reference table"))
    for table, name, columns in _keys(tenants):
        if DISTRIBUTION_COLUMN not in columns:
            violations.append(Violation(table, "key without workspace_id", f"{name} ({', '.join(columns)})"))
    for source, name, columns, target, target_columns in _foreign_keys(tenants):
        if target in references:
            continue
        if target not in tenants:
            violations.append(Violation(source, "foreign key to a table neither tenant nor reference",
                                        f"{name} -> {target}"))
        elif DISTRIBUTION_COLUMN not in columns or DISTRIBUTION_COLUMN not in target_columns:
            violations.append(Violation(source, "foreign key without workspace_id",
                                        f"({', '.join(columns)}) -> {target} ({', '.join(target_columns)})"))
    for source, name, _columns, target, _target_columns in _foreign_keys(references):
        if target not in references:
            violations.append(Violation(source, "reference table with a foreign key to a distributed table",
                                        f"{name} -> {target}"))
    # Tables of other apps that point into a tenant table would be split from their rows.
    for source, name, _columns, target, _target_columns in _foreign_keys_into(tenants):
        violations.append(Violation(source, "foreign key into a tenant table from a table without workspace_id",
                                    f"{name} -> {target}"))
    return sorted(violations)


def _keys(tables: Iterable[str]) -> list[tuple[str, str, list[str]]]:
    """(table, name, columns) of every primary key, unique constraint and unique index."""
    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT c.relname, i.relname, array_agg(a.attname ORDER BY k.ord)
            FROM pg_index x
            JOIN pg_class c ON c.oid = x.indrelid
            JOIN pg_class i ON i.oid = x.indexrelid
            CROSS JOIN LATERAL unnest(x.indkey) WITH ORDINALITY AS k(attnum, ord)
            LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
            WHERE x.indisunique AND c.relname = ANY(%s) AND c.relnamespace = 'public'::regnamespace
            GROUP BY c.relname, i.relname ORDER BY 1, 2
            """,
            [list(tables)],
        )
        return [(table, name, [c or "(expression)" for c in columns]) for table, name, columns in cursor.fetchall()]


_FK_SQL = """
    SELECT s.relname, f.conname,
           (SELECT array_agg(a.attname ORDER BY k.ord) FROM unnest(f.conkey) WITH ORDINALITY k(n, ord)
              JOIN pg_attribute a ON a.attrelid = f.conrelid AND a.attnum = k.n),
           t.relname,
           (SELECT array_agg(a.attname ORDER BY k.ord) FROM unnest(f.confkey) WITH ORDINALITY k(n, ord)
              JOIN pg_attribute a ON a.attrelid = f.confrelid AND a.attnum = k.n)
    FROM pg_constraint f
    JOIN pg_class s ON s.oid = f.conrelid
    JOIN pg_class t ON t.oid = f.confrelid
    WHERE f.contype = 'f' AND s.relnamespace = 'public'::regnamespace AND {where}
    ORDER BY 1, 2
"""


def _foreign_keys(tables: Iterable[str]) -> list[tuple[str, str, list[str], str, list[str]]]:
    with connection.cursor() as cursor:
        cursor.execute(_FK_SQL.format(where="s.relname = ANY(%s)"), [list(tables)])
        return cursor.fetchall()


def _foreign_keys_into(tables: Iterable[str]) -> list[tuple[str, str, list[str], str, list[str]]]:
    tables = list(tables)
    with connection.cursor() as cursor:
        cursor.execute(_FK_SQL.format(where="t.relname = ANY(%s) AND NOT s.relname = ANY(%s)"), [tables, tables])
        return cursor.fetchall()


def citus_installed() -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus')")
        return bool(cursor.fetchone()[0])


def distribution_statements() -> list[tuple[str, list[str]]]:
    """The statements that lay the tables out: reference tables first, then every tenant table
    distributed by workspace_id and colocated with the first."""
    statements = [("SELECT create_reference_table(%s)", [table]) for table in reference_tables()]
    tenants = tenant_tables()
    for table in tenants:
        colocate = "default" if table == tenants[0] else tenants[0]
        statements.append(("SELECT create_distributed_table(%s, %s, colocate_with => %s)",
                           [table, DISTRIBUTION_COLUMN, colocate]))
    return statements


def foreign_keys_to_reference_tables(tables: Iterable[str]) -> list[tuple[str, str, str]]:
    """(table, name, definition) of each foreign key from `tables` to a reference table.

    citus_distribute drops them while it lays the tables out and makes them again after: a
    local table with a foreign key to a reference table becomes a Citus local table, and one
    with an identity column (Django's AutoField) cannot then be distributed."""
    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT s.relname, f.conname, pg_get_constraintdef(f.oid)
            FROM pg_constraint f JOIN pg_class s ON s.oid = f.conrelid JOIN pg_class t ON t.oid = f.confrelid
            WHERE f.contype = 'f' AND s.relnamespace = 'public'::regnamespace
              AND s.relname = ANY(%s) AND t.relname = ANY(%s)
            ORDER BY 1, 2
            """,
            [list(tables), reference_tables()],
        )
        return cursor.fetchall()

