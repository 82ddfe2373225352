"""The PostgreSQL extensions search needs: pgvector (vectors, HNSW) and pg_trgm (trigram GIN).

The app's role should not be a superuser, and `vector` can only be created by one. So an
extension that exists already (an operator or docker/postgres-init created it) is skipped
with a message, and one the role cannot create stops `migrate` with the statements the
operator must run as a superuser.
"""

from __future__ import annotations

import sys

from django.contrib.postgres.operations import CreateExtension
from django.core.management.base import CommandError
from django.db import migrations, router

EXTENSIONS = ("vector", "pg_trgm")


def extensions_sql() -> str:
    return " ".join(f"CREATE EXTENSION IF NOT EXISTS {name};" for name in EXTENSIONS)


class EnsureExtension(CreateExtension):
    """CREATE EXTENSION when missing and the role may; never DROP it on the way back."""

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        connection = schema_editor.connection
        if connection.vendor != "postgresql" or not router.allow_migrate(connection.alias, app_label):
            return
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1 FROM pg_extension WHERE extname = %s", [self.name])
            if cursor.fetchone():
                # Written straight to stdout: a migration has no command output of its own, and
                # `migrate` prints it between "Applying cms.0001_extensions..." and "OK".
                sys.stdout.write(f"\n  Extension {self.name} already exists; not created again.")
                return
            cursor.execute(
                """
                SELECT current_user,
                       r.rolsuper,
                       has_database_privilege(current_database(), 'CREATE'),
                       coalesce(v.trusted, false),
                       v.name IS NOT NULL
                FROM pg_roles r
                LEFT JOIN pg_available_extension_versions v
                  ON v.name = %s AND v.version = (SELECT default_version FROM pg_available_extensions WHERE name = %s)
                WHERE r.rolname = current_user
                """,
                [self.name, self.name],
            )
            role, superuser, may_create, trusted, available = cursor.fetchone()
            database = connection.settings_dict["NAME"]
            if not available:
                # CommandError: `migrate` prints it as a sentence, without a traceback.
                raise CommandError(
                    f"PostgreSQL has no extension {self.name!r} installed on the server. Install it "
                    f"(pgvector for 'vector', the contrib package for 'pg_trgm'), then, as a superuser "
                    f"in database {database!r}, run: {extensions_sql()} Then run migrate again."
                )
            if not (superuser or (trusted and may_create)):
                needs = "CREATE on the database" if trusted else "a superuser"
                raise CommandError(
                    f"The database role {role!r} cannot create the extension {self.name!r}: that takes "
                    f"{needs}. As a superuser in database {database!r}, run: {extensions_sql()} "
                    f"Then run migrate again."
                )
        super().database_forwards(app_label, schema_editor, from_state, to_state)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        # Other databases on the server, or an operator, may rely on the extension.
        pass

    def describe(self) -> str:
        return f"Creates extension {self.name} unless it exists"


class Migration(migrations.Migration):
    initial = True
    dependencies = []
    operations = [EnsureExtension(name) for name in EXTENSIONS]
