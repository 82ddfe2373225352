"""Lay the tables out on a Citus cluster: reference tables, then tenant tables by workspace_id.

On plain PostgreSQL (no citus extension) it does nothing and says so. On Citus it refuses
while the schema breaks a rule (cms/citus_layout.py lists them), because
create_distributed_table would stop half-way; `--plan` prints the statements either way.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction

from cms.citus_layout import citus_installed, citus_violations, distribution_statements


class Command(BaseCommand):
    help = "Distribute the tenant tables by workspace_id on Citus (does nothing on plain PostgreSQL)."

    def add_arguments(self, parser):
        parser.add_argument("--plan", action="store_true", help="Print the statements and run nothing.")

    def handle(self, *args, plan: bool = False, verbosity: int = 1, **options):
        statements = distribution_statements()
        if plan:
            for sql, params in statements:
                self.stdout.write(sql.replace("%s", "{}").format(*(f"'{p}'" for p in params)) + ";")
            return
        if not citus_installed():
            self.stdout.write("Citus is not installed in this database (no citus extension): nothing to distribute.")
            return
        violations = citus_violations()
        if violations:
            raise CommandError("The schema is not ready for Citus yet; nothing was distributed:\n"
                               + "\n".join(f"  {v}" for v in violations))
        with connection.cursor() as cursor:
            cursor.execute("SELECT logicalrelid::regclass::text FROM pg_dist_partition")
            done = {row[0] for row in cursor.fetchall()}
        with transaction.atomic():
            for sql, params in statements:
                if params[0] in done:
                    continue
                with connection.cursor() as cursor:
                    cursor.execute(sql, params)
                if verbosity >= 1:
                    self.stdout.write(f"{params[0]}: {'reference' if 'reference' in sql else 'distributed'}")
