#!/usr/bin/env python
"""First embedding after `make run`: seconds from the start of `make run` until every demo chunk
is embedded by the local model, with the model loaded lazily by the first task (before) and
when each worker process starts (after, EMBEDDING_WORKER_PRELOAD=true, the default).

Each run is a real `make run` (migrate, seed_demo, the Celery worker with two prefork
processes, beat, runserver) on a throwaway database of the embedded server and a throwaway
broker folder; the database is polled every 0.1 s, then the run is stopped with Ctrl-C (SIGINT
to its process group) and the database dropped. Also printed: when the worker said "ready".
Run from the repo root:
    .venv/bin/python bench/first_embedding.py [--runs 2]
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
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cms.settings")

import django  # noqa: E402

django.setup()

import psycopg  # noqa: E402
from django.db import connection  # noqa: E402
from psycopg import sql  # noqa: E402

from ingestion.models import Chunk  # noqa: E402

DEADLINE_SECONDS = 300.0


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _admin_connect(socket_dir: str):
    return psycopg.connect(host=socket_dir, user="postgres", dbname="postgres", autocommit=True)


def one_run(*, preload: bool) -> dict[str, float]:
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
        "EMBEDDING_PROVIDER": "local",
        "EMBEDDING_WORKER_PRELOAD": "true" if preload else "false",
    }
    log = tmp / "make-run.log"
    table = Chunk._meta.db_table
    figures: dict[str, float] = {}
    started = time.monotonic()
    with log.open("w") as out:
        process = subprocess.Popen(["make", "run", f"PORT={_free_port()}"], cwd=REPO, env=env, stdout=out,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    try:
        with psycopg.connect(host=socket_dir, user="postgres", dbname=name, autocommit=True) as db:
            while time.monotonic() - started < DEADLINE_SECONDS:
                if "ready" not in figures and " ready." in log.read_text(errors="replace"):
                    figures["ready"] = time.monotonic() - started
                try:
                    total, embedded = db.execute(
                        f"SELECT count(*), count(*) FILTER (WHERE status = 'embedded') FROM {table}"
                    ).fetchone()
                except psycopg.errors.UndefinedTable:
                    total = embedded = 0  # not migrated yet
                if "seeded" not in figures and total:
                    figures["seeded"] = time.monotonic() - started
                if total and embedded == total:
                    figures["embedded"] = time.monotonic() - started
                    figures["chunks"] = total
                    break
                assert process.poll() is None, f"make run exited:\n{log.read_text(errors='replace')}"
                time.sleep(0.1)
            else:
                raise SystemExit(f"not embedded within {DEADLINE_SECONDS} s:\n{log.read_text(errors='replace')[-3000:]}")
    finally:
        os.killpg(process.pid, signal.SIGINT)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        with _admin_connect(socket_dir) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=2, help="runs of each variant (default 2)")
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    results: dict[str, list[dict[str, float]]] = {"before (lazy load)": [], "after (preload)": []}
    for _ in range(args.runs):  # interleaved, so a busy spell on the machine hits both alike
        for label, preload in (("before (lazy load)", False), ("after (preload)", True)):
            figures = one_run(preload=preload)
            results[label].append(figures)
            print(f"  {label}: demo chunks {int(figures['chunks'])} seeded at {figures['seeded']:.1f} s, "
                  f"worker ready at {figures.get('ready', float('nan')):.1f} s, "
                  f"all embedded at {figures['embedded']:.1f} s (load {os.getloadavg()[0]:.2f})")
    print("From `make run` to every demo chunk embedded (median of runs):")
    for label, runs in results.items():
        each = ", ".join(f"{r['embedded']:.1f}" for r in runs)
        print(f"  {label:20s} {statistics.median(r['embedded'] for r in runs):6.1f} s   (runs: {each})")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
