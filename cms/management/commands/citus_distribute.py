"""Lay the tables out on a Citus cluster: reference tables, then tenant tables by workspace_id.

On plain PostgreSQL (no citus extension in the database) it refuses, saying so, and changes
nothing. On Citus it refuses while the schema breaks a rule (cms/citus_layout.py lists them),
because create_distributed_table would stop half-way. Otherwise it makes the reference tables,
then distributes every tenant table by workspace_id, colocated with the first (parents before
the tables that reference them), in one transaction. A table already laid out is skipped, so
running it again changes nothing. `--plan` prints the statements and runs nothing.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction

from cms.citus_layout import (
    citus_installed,
    citus_violations,
    distribution_statements,
    foreign_keys_to_reference_tables,
)
from cms.citus_mode import citus_active_forget

NOT_CITUS = ("Citus is not installed in this database (no citus extension), so nothing was distributed: "
             "run this on a Citus coordinator, after CREATE EXTENSION citus and adding the workers "
             "(docs/operators.md \"Going to Citus\").")


class Command(BaseCommand):
    help = "Distribute the tenant tables by workspace_id on Citus (refuses on plain PostgreSQL)."

    def add_arguments(self, parser):
        parser.add_argument("--plan", action="store_true", help="Print the statements and run nothing.")

    def handle(self, *args, plan: bool = False, verbosity: int = 1, **options):
        statements = distribution_statements()
        if plan:
            for sql, params in statements:
                self.stdout.write(sql.replace("%s", "{}").format(*(f"'{p}'" for p in params)) + ";")
            return
        if not citus_installed():
            raise CommandError(NOT_CITUS)
        violations = citus_violations()
        if violations:
            raise CommandError("The schema is not ready for Citus yet; nothing was distributed:\n"
                               + "\n".join(f"  {v}" for v in violations))
        with connection.cursor() as cursor:
            cursor.execute("SELECT logicalrelid::regclass::text FROM pg_dist_partition")
            done = {row[0] for row in cursor.fetchall()}
        todo = [(sql, params) for sql, params in statements if params[0] not in done]
        functions = self._functions_distributed(verbosity)
        if not todo:
            if verbosity >= 1 and not functions:
                self.stdout.write(f"Every table is laid out already ({len(statements)} tables): nothing to do.")
            return
        with transaction.atomic(), connection.cursor() as cursor:
            # One connection per worker for the whole transaction: the reference tables made in it
            # are read by the tenant tables' foreign keys, which parallel connections could not see.
            cursor.execute("SET LOCAL citus.multi_shard_modify_mode TO 'sequential'")
            # The keyword postings' statement triggers (ingestion 0004) append to the keyword
            # deltas of the same workspace, a colocated shard on the same node: Citus allows it
            # once told (a trigger reaching another node would fail, and none does).
            cursor.execute("SET LOCAL citus.enable_unsafe_triggers TO on")
            # A tenant table with a foreign key to a reference table would become a Citus local
            # table when the reference table is made, and could not be distributed after (Django's
            # identity columns): its keys to reference tables wait until it is distributed.
            waiting = foreign_keys_to_reference_tables(params[0] for sql, params in todo if "distributed" in sql)
            for table, name, _definition in waiting:
                cursor.execute(f'ALTER TABLE "{table}" DROP CONSTRAINT "{name}"')
            for sql, params in todo:
                cursor.execute(sql, params)
                if verbosity >= 1:
                    self.stdout.write(f"{params[0]}: {'reference' if 'reference' in sql else 'distributed'}")
            for table, name, definition in waiting:
                cursor.execute(f'ALTER TABLE "{table}" ADD CONSTRAINT "{name}" {definition}')
        citus_active_forget()

    def _functions_distributed(self, verbosity: int) -> list[str]:
        """The migrations' SQL functions (cms_search_grams_query and the like, which statements
        call on the shards) made on every node, by create_distributed_function; those of
        extensions come with their extension."""
        with connection.cursor() as cursor:
            cursor.execute(
                """
                SELECT p.oid::regprocedure::text FROM pg_proc p
                WHERE p.pronamespace = 'public'::regnamespace AND p.prokind = 'f'
                  AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')
                  AND NOT EXISTS (SELECT 1 FROM pg_dist_object o WHERE o.classid = 'pg_proc'::regclass
                                  AND o.objid = p.oid)
                ORDER BY 1
                """
            )
            functions = [row[0] for row in cursor.fetchall()]
            for function in functions:
                cursor.execute("SELECT create_distributed_function(%s)", [function])
                if verbosity >= 1:
                    self.stdout.write(f"{function}: on every node")
        return functions

