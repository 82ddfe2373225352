#!/usr/bin/env python
"""First embedding after `make run`, with the local model loaded lazily by the first task (before,
EMBEDDING_WORKER_PRELOAD=false) and when each worker process starts (after, the default).

1. Fresh start: seconds from the start of `make run` until every demo chunk is embedded.
2. First edit after a restart: `make run` again on the same data; once the worker is up and
   idle (8 s after it says "ready"), one demo article is edited (cms.services.entry_update in
   `manage.py shell`); seconds from the edit's commit until its chunk is embedded.

Each run is a real `make run` (migrate, seed_demo, the Celery worker with two prefork
processes, beat, runserver) on a throwaway database of the embedded server and a throwaway
broker folder; the database is polled every 0.1 s; each `make run` is stopped with Ctrl-C
(SIGINT to its process group) and the database dropped at the end. Run from the repo root:
    .venv/bin/python bench/first_embedding.py [--runs 3] [--provider e5-small] [--preload-only]

--provider names the EMBEDDING_PROVIDER of the runs (default `local`); --preload-only runs the
default (after) alone: issue 37's "demo searchable by meaning within 60 s" per model.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

import psycopg  # noqa: E402
from django.db import connection  # noqa: E402
from psycopg import sql  # noqa: E402

from ingestion.models import Chunk  # noqa: E402

DEADLINE_SECONDS = 300.0
IDLE_SECONDS = 8.0
EDIT = """
import time
from cms import services
from cms.models import Entry
entry = Entry.objects.filter(workspace__slug="demo", content_type__api_id="article").order_by("pk").first()
services.entry_update(entry=entry, data={**entry.data, "body": entry.data["body"] + "<p>Edited at %f.</p>" % time.time()})
print("committed", time.time())
"""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _admin_connect(socket_dir: str):
    return psycopg.connect(host=socket_dir, user="postgres", dbname="postgres", autocommit=True)


def _make_run(env: dict[str, str], log: Path) -> subprocess.Popen:
    with log.open("w") as out:
        return subprocess.Popen(["make", "run", f"PORT={_free_port()}"], cwd=REPO, env=env, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)


def _ctrl_c(process: subprocess.Popen) -> None:
    os.killpg(process.pid, signal.SIGINT)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def _counts(db, table: str) -> tuple[int, int]:
    try:
        return db.execute(f"SELECT count(*), count(*) FILTER (WHERE status = 'embedded') FROM {table}").fetchone()
    except psycopg.errors.UndefinedTable:
        return 0, 0  # not migrated yet


def _wait(condition, process: subprocess.Popen, log: Path, what: str) -> float:
    started = time.monotonic()
    while time.monotonic() - started < DEADLINE_SECONDS:
        if condition():
            return time.time()
        assert process.poll() is None, f"make run exited:\n{log.read_text(errors='replace')}"
        time.sleep(0.1)
    raise SystemExit(f"no {what} within {DEADLINE_SECONDS} s:\n{log.read_text(errors='replace')[-3000:]}")


def one_run(*, preload: bool, provider: str = "local") -> dict[str, float]:
    socket_dir = connection.get_connection_params()["host"]
    name = f"bench_first_embedding_{uuid.uuid4().hex[:8]}"
    with _admin_connect(socket_dir) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {} TEMPLATE template0 ENCODING 'UTF8'").format(sql.Identifier(name)))
    tmp = Path(tempfile.mkdtemp(prefix="bench-first-embedding-"))
    dropped = {"SECRET_KEY", "MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES"}
    env = {
        **{k: v for k, v in os.environ.items() if k not in dropped},
        "DATABASE_URL": f"postgres://postgres@/{name}?host={socket_dir}",
        "BROKER_DIR": str(tmp / "broker"),
        "CELERY_BEAT_SCHEDULE_FILENAME": str(tmp / "celerybeat-schedule"),
        "EMBEDDING_PROVIDER": provider,
        "EMBEDDING_WORKER_PRELOAD": "true" if preload else "false",
    }
    table = Chunk._meta.db_table
    figures: dict[str, float] = {}
    try:
        with psycopg.connect(host=socket_dir, user="postgres", dbname=name, autocommit=True) as db:
            # 1. Fresh start.
            log = tmp / "first.log"
            started = time.time()
            process = _make_run(env, log)
            try:
                def all_embedded() -> bool:
                    total, embedded = _counts(db, table)
                    if total and "seeded" not in figures:
                        figures["seeded"] = time.time() - started
                    if "ready" not in figures and " ready." in log.read_text(errors="replace"):
                        figures["ready"] = time.time() - started
                    figures["chunks"] = total
                    return bool(total) and embedded == total

                figures["embedded"] = _wait(all_embedded, process, log, "demo embedded") - started
            finally:
                _ctrl_c(process)
            # 2. Restart, wait until idle, edit one entry.
            log = tmp / "second.log"
            process = _make_run(env, log)
            try:
                _wait(lambda: " ready." in log.read_text(errors="replace"), process, log, "worker ready")
                time.sleep(IDLE_SECONDS)  # the worker idles, as it does before an editor's first save
                edit = subprocess.run([sys.executable, "manage.py", "shell", "-c", EDIT], cwd=REPO, env=env,
                                      capture_output=True, text=True, check=True)
                committed = float(edit.stdout.split("committed")[-1].strip())
                done = _wait(lambda: _counts(db, table)[0] == _counts(db, table)[1], process, log, "edit embedded")
                figures["edit"] = done - committed
            finally:
                _ctrl_c(process)
    finally:
        with _admin_connect(socket_dir) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of each variant (default 3)")
    parser.add_argument("--provider", default="local", help="EMBEDDING_PROVIDER of the runs (default local)")
    parser.add_argument("--preload-only", action="store_true", help="only the default (preload) variant")
    args = parser.parse_args()
    print(f"provider {args.provider}; load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    variants = [("before (lazy load)", False), ("after (preload)", True)][1 if args.preload_only else 0:]
    results: dict[str, list[dict[str, float]]] = {label: [] for label, _ in variants}
    for n in range(args.runs):  # interleaved, first one then the other, so a busy spell (or the
        for label, preload in variants[:: 1 if n % 2 == 0 else -1]:  # cold first run) hits both alike
            figures = one_run(preload=preload, provider=args.provider)
            results[label].append(figures)
            print(f"  {label}: demo chunks {int(figures['chunks'])} seeded at {figures['seeded']:.1f} s, "
                  f"worker ready at {figures.get('ready', float('nan')):.1f} s, "
                  f"all embedded at {figures['embedded']:.1f} s; first edit after a restart embedded "
                  f"{figures['edit']:.2f} s after its commit (load {os.getloadavg()[0]:.2f})")
    for key, title in (("embedded", "1. From `make run` to every demo chunk embedded"),
                       ("edit", "2. First edit after a restart: commit to its chunk embedded")):
        print(f"{title} (median of {args.runs}):")
        for label, runs in results.items():
            each = ", ".join(f"{r[key]:.2f}" for r in runs)
            print(f"  {label:20s} {statistics.median(r[key] for r in runs):6.2f} s   (runs: {each})")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
