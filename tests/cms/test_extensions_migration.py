"""The app runs as a role that is not a superuser; the extensions are a superuser's job.

On the embedded server: docker/postgres-init/10-cms-role.sh creates a role, its database and
the extensions as compose would; `migrate` as that role then skips the extensions, and a role
that finds them missing stops with the statements a superuser must run.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest
from django.conf import settings
from django.db import connection
from psycopg import sql

REPO = Path(__file__).resolve().parents[2]
INIT_SCRIPT = REPO / "docker" / "postgres-init" / "10-cms-role.sh"

pytestmark = pytest.mark.skipif(
    settings.DATABASES["default"]["ENGINE"] != "config.embedded_postgres",
    reason="creates roles and databases as the embedded server's superuser",
)


@dataclass
class AppDatabase:
    socket_dir: str
    role: str
    name: str
    password: str = "app-password"

    @property
    def url(self) -> str:
        return f"postgres://{self.role}:{self.password}@/{self.name}?host={self.socket_dir}"


def _superuser(socket_dir: str, dbname: str = "postgres") -> psycopg.Connection:
    return psycopg.connect(host=socket_dir, user="postgres", dbname=dbname, autocommit=True)


def _drop(db: AppDatabase) -> None:
    with _superuser(db.socket_dir) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(db.name)))
        conn.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(db.role)))


def _new_app_database() -> AppDatabase:
    suffix = uuid.uuid4().hex[:8]
    return AppDatabase(connection.get_connection_params()["host"], f"cms_app_{suffix}", f"cms_app_{suffix}")


def _migrate(db: AppDatabase, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "DEBUG": "true", "DATABASE_URL": db.url, "DJANGO_SETTINGS_MODULE": "config.settings"}
    return subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", *args], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def initialised() -> Iterator[AppDatabase]:
    """A role and database made by the compose init script, on the embedded server."""
    db = _new_app_database()  # first: it sets up the environment pgserver imports under
    import pgserver

    env = {
        **os.environ,
        "PATH": f"{Path(pgserver.__file__).parent / 'pginstall' / 'bin'}:{os.environ['PATH']}",
        "PGHOST": db.socket_dir,
        "POSTGRES_USER": "postgres",
        "APP_DB_USER": db.role,
        "APP_DB_NAME": db.name,
        "APP_DB_PASSWORD": db.password,
    }
    result = subprocess.run(["sh", str(INIT_SCRIPT)], env=env, capture_output=True, text=True, timeout=120)
    try:
        assert result.returncode == 0, result.stdout + result.stderr
        yield db
    finally:
        _drop(db)


@pytest.fixture
def bare() -> Iterator[AppDatabase]:
    """A role that owns its database, on which no superuser created the extensions."""
    db = _new_app_database()
    with _superuser(db.socket_dir) as conn:
        conn.execute(sql.SQL("CREATE ROLE {} LOGIN NOSUPERUSER").format(sql.Identifier(db.role)))
        conn.execute(sql.SQL("CREATE DATABASE {} OWNER {} TEMPLATE template0 ENCODING 'UTF8'").format(
            sql.Identifier(db.name), sql.Identifier(db.role)))
    try:
        yield db
    finally:
        _drop(db)


def test_init_script_makes_a_non_superuser_owner_and_the_extensions(initialised):
    with _superuser(initialised.socket_dir, initialised.name) as conn:
        superuser = conn.execute("SELECT rolsuper FROM pg_roles WHERE rolname = %s", [initialised.role]).fetchone()
        owner = conn.execute(
            "SELECT pg_get_userbyid(datdba), datctype FROM pg_database WHERE datname = current_database()"
        ).fetchone()
        extensions = {row[0] for row in conn.execute("SELECT extname FROM pg_extension")}
    assert superuser == (False,)
    assert owner == (initialised.role, "C.UTF-8")
    assert {"vector", "pg_trgm"} <= extensions


def test_migrate_as_the_app_role_skips_the_existing_extensions(initialised):
    result = _migrate(initialised)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Extension vector already exists; not created again." in result.stdout
    assert "Extension pg_trgm already exists; not created again." in result.stdout


def test_migrate_as_a_role_that_cannot_create_vector_says_what_a_superuser_runs(bare):
    result = _migrate(bare, "cms", "0001")
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    assert f"The database role '{bare.role}' cannot create the extension 'vector'" in result.stderr
    assert "CREATE EXTENSION IF NOT EXISTS vector; CREATE EXTENSION IF NOT EXISTS pg_trgm;" in result.stderr
