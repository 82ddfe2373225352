#!/usr/bin/env python
"""Load soak: mixed full-text, semantic and hybrid traffic through gunicorn on loopback.

Run by hand from the repo root (not part of the test run):

    .venv/bin/python bench/soak.py [--minutes 10] [--clients 32] [--workers 4] [--mix full-text=2,semantic=1,hybrid=1]

What it does:

1. Data. A dedicated database (cms_soak on the embedded server; BENCH_SOAK_DB) gets the demo
   workspace (seed_demo) plus --docs documents of the eval corpora (../shared/eval) as entries
   of a semantic content type, chunked and embedded with the local model. Built once; later
   runs reuse it.
2. gunicorn (sync workers, DEBUG off, persistent database connections, the app's settings,
   the local model) serves config.wsgi on 127.0.0.1. A short warm-up loads the model in every
   worker and opens its connection; memory is measured after it ("start").
3. --clients threads send requests for --minutes with a workspace API key, each picking a
   search by the --mix weights and cycling through fixed queries. An error is anything but
   a 200 (or an exception); they are counted by status and code.
4. Every --sample-seconds, and at the start and the end, the RSS (and USS: the memory only
   that process holds) of the gunicorn master, each worker, and each PostgreSQL backend
   serving this database (found through pg_stat_activity), with the load average.
5. Prints p50/p95/p99 per search and overall, requests per second, the errors, the memory
   table, and flags growth: a gunicorn process whose USS grew by more than
   max(--growth-mb, --growth-pct of its start) between the first sample after warm-up and the
   end. PostgreSQL backends come and go (CONN_MAX_AGE recycles them), so they are reported
   as a set (count, total and largest), not per process.

The machine is shared (2 cores): the load average is printed beside the figures.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import subprocess
import sys
import threading
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(0, str(REPO_ROOT / "bench"))

import served_app  # noqa: E402
from served_app import WORKSPACE, ensure_dataset, percentiles  # noqa: E402
served_app.production_like_environment("bench-soak")

import psutil  # noqa: E402 - after the environment is set

SOAK_DB = os.environ.get("BENCH_SOAK_DB", "cms_soak")
PORT = int(os.environ.get("BENCH_SOAK_PORT", "8767"))
FULLTEXT_QUERIES = ["refund", "返品", "policy", "kettle", "配送", "password", "TEA-CUP", "protein", "cell",
                    "東京", "install", "error", "vitamin", "shipping times"]
RANKED_QUERIES = ["how do I get my money back?", "返品できますか", "how long does shipping take?",
                  "reset my password", "does vitamin D affect bone density?", "how to install a package",
                  "日本の首都はどこですか", "cancer cells and mutations", "delete my account", "tea cup price"]
SEARCHES = ("full-text", "semantic", "hybrid")


# --- data -----------------------------------------------------------------------------------

def soak_key() -> str:
    return served_app.bench_api_key("bench/soak.py")[1]


# --- traffic --------------------------------------------------------------------------------

def request_for(kind: str, index: int, key: str) -> tuple[str, str, bytes | None, dict[str, str]]:
    headers = {"Authorization": f"Bearer {key}", "Host": "127.0.0.1"}
    if kind == "full-text":
        query = FULLTEXT_QUERIES[index % len(FULLTEXT_QUERIES)]
        return "GET", f"/api/v1/workspaces/{WORKSPACE}/search/entries?q={quote(query)}", None, headers
    body = json.dumps({"query": RANKED_QUERIES[index % len(RANKED_QUERIES)], "top_k": 5}).encode()
    return "POST", f"/api/v1/workspaces/{WORKSPACE}/search/{kind}", body, {**headers, "Content-Type": "application/json"}


def one_request(kind: str, index: int, key: str) -> str | None:
    """Send one search; None if it answered 200, else what went wrong ("503 search_timeout")."""
    method, path, body, headers = request_for(kind, index, key)
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=120)
    try:
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        payload = response.read()
        if response.status == 200:
            return None
        try:
            code = json.loads(payload).get("code", "")
        except ValueError:
            code = payload[:60].decode(errors="replace")
        return f"{response.status} {code}".strip()
    except OSError as exc:
        return f"{type(exc).__name__}"
    finally:
        conn.close()


@dataclass
class Traffic:
    samples: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: Counter = field(default_factory=Counter)
    sent: int = 0  # requests answered so far (read while the clients run)
    lock: threading.Lock = field(default_factory=threading.Lock)


def drive(kinds: list[str], weights: list[float], clients: int, seconds: float, key: str, traffic: Traffic) -> None:
    deadline = time.monotonic() + seconds
    counter = iter(range(10**12))

    def client(seed: int) -> None:
        pick = random.Random(seed)
        local: dict[str, list[float]] = defaultdict(list)
        errors: Counter = Counter()
        while time.monotonic() < deadline:
            kind = pick.choices(kinds, weights)[0]
            with traffic.lock:
                index = next(counter)
                traffic.sent += 1
            started = time.perf_counter()
            error = one_request(kind, index, key)
            local[kind].append((time.perf_counter() - started) * 1000)
            if error:
                errors[f"{kind}: {error}"] += 1
        with traffic.lock:
            for kind, values in local.items():
                traffic.samples[kind].extend(values)
            traffic.errors.update(errors)

    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()





# --- memory ---------------------------------------------------------------------------------

@dataclass
class Snapshot:
    at: float
    load: tuple[float, float, float]
    gunicorn: dict[str, tuple[int, int]]  # "master 123" / "worker 456" -> (rss, uss) bytes
    postgres: dict[int, tuple[int, int]]  # backend pid -> (rss, uss)


def _memory(pid: int) -> tuple[int, int] | None:
    try:
        info = psutil.Process(pid).memory_full_info()
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return None
    return info.rss, info.uss


def backend_pids() -> list[int]:
    """PostgreSQL backends connected to the soak database (the web workers'), not this script's."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s AND backend_type = 'client backend' "
                       "AND pid <> pg_backend_pid()", [SOAK_DB])
        return [row[0] for row in cursor.fetchall()]


def snapshot(master: psutil.Process, started: float) -> Snapshot:
    gunicorn = {}
    if (memory := _memory(master.pid)) is not None:
        gunicorn[f"master {master.pid}"] = memory
    for child in master.children():
        if (memory := _memory(child.pid)) is not None:
            gunicorn[f"worker {child.pid}"] = memory
    postgres = {pid: memory for pid in backend_pids() if (memory := _memory(pid)) is not None}
    return Snapshot(at=time.monotonic() - started, load=os.getloadavg(), gunicorn=gunicorn, postgres=postgres)


def mb(value: int) -> str:
    return f"{value / 2**20:.1f}"


def memory_report(snapshots: list[Snapshot], growth_mb: float, growth_pct: float) -> list[str]:
    """The memory table (start, samples, end) and the growth flags; returns the flags."""
    first, last = snapshots[0], snapshots[-1]
    names = sorted(set(first.gunicorn) | set(last.gunicorn), key=lambda n: (not n.startswith("master"), n))
    print("\nMemory of the gunicorn processes, MB (RSS / USS), after warm-up and at the end:")
    print(f"{'process':<16} {'start RSS':>10} {'start USS':>10} {'end RSS':>10} {'end USS':>10} {'USS growth':>11}")
    flags = []
    for name in names:
        start, end = first.gunicorn.get(name), last.gunicorn.get(name)
        if start is None or end is None:
            flags.append(f"{name}: {'appeared' if start is None else 'gone'} during the soak (a worker restarted)")
            print(f"{name:<16} {mb(start[0]) if start else '-':>10} {mb(start[1]) if start else '-':>10} "
                  f"{mb(end[0]) if end else '-':>10} {mb(end[1]) if end else '-':>10} {'-':>11}")
            continue
        growth = end[1] - start[1]
        print(f"{name:<16} {mb(start[0]):>10} {mb(start[1]):>10} {mb(end[0]):>10} {mb(end[1]):>10} {mb(growth):>11}")
        if growth > max(growth_mb * 2**20, start[1] * growth_pct / 100):
            flags.append(f"{name}: USS grew {mb(growth)} MB ({growth / start[1] * 100:.1f}%)")
    print("\nPostgreSQL backends of the soak database (recycled by CONN_MAX_AGE, so as a set), MB:")
    print(f"{'when':<6} {'backends':>8} {'total RSS':>10} {'total USS':>10} {'max RSS':>9} {'max USS':>9}")
    for label, snap in (("start", first), ("end", last)):
        rss = [m[0] for m in snap.postgres.values()] or [0]
        uss = [m[1] for m in snap.postgres.values()] or [0]
        print(f"{label:<6} {len(snap.postgres):>8} {mb(sum(rss)):>10} {mb(sum(uss)):>10} {mb(max(rss)):>9} "
              f"{mb(max(uss)):>9}")
    if last.postgres and first.postgres:
        largest_start = max(m[1] for m in first.postgres.values())
        largest_end = max(m[1] for m in last.postgres.values())
        if largest_end - largest_start > max(growth_mb * 2**20, largest_start * growth_pct / 100):
            flags.append(f"largest PostgreSQL backend USS grew {mb(largest_end - largest_start)} MB")
    print("\nSamples (USS of the gunicorn workers, MB; total USS of the backends):")
    for snap in snapshots:
        workers = " ".join(mb(m[1]) for n, m in sorted(snap.gunicorn.items()) if n.startswith("worker"))
        backends = mb(sum(m[1] for m in snap.postgres.values()))
        print(f"  t={snap.at:6.0f} s  load {snap.load[0]:5.2f}  workers {workers}  backends {backends} "
              f"({len(snap.postgres)})")
    return flags


# --- gunicorn -------------------------------------------------------------------------------

def start_gunicorn(workers: int) -> subprocess.Popen:
    return served_app.start_gunicorn(database=SOAK_DB, port=PORT, workers=workers)


def available_searches() -> list[str]:
    """The searches this checkout's API serves (hybrid arrived after full-text and semantic)."""
    from django.urls import NoReverseMatch, reverse

    found = []
    for kind in SEARCHES:
        try:
            reverse(f"search-{'entries' if kind == 'full-text' else kind}", kwargs={"slug": WORKSPACE})
            found.append(kind)
        except NoReverseMatch:
            pass
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--workers", type=int, default=4, help="gunicorn sync workers")
    parser.add_argument("--docs", type=int, default=1500, help="eval-corpus documents beside the demo data")
    parser.add_argument("--mix", default="full-text=2,semantic=1,hybrid=1", help="search=weight, comma-separated")
    parser.add_argument("--sample-seconds", type=float, default=60.0)
    parser.add_argument("--growth-mb", type=float, default=10.0, help="flag a process whose USS grew more than this")
    parser.add_argument("--growth-pct", type=float, default=10.0, help="... and more than this %% of its start")
    args = parser.parse_args()

    served_app.django_setup(SOAK_DB)
    ensure_dataset(args.docs)
    from django.db import connection

    from cms.models import Entry
    from ingestion.models import Chunk

    key = soak_key()
    offered = available_searches()
    mix = {name: float(weight) for name, weight in (part.split("=") for part in args.mix.split(","))}
    kinds = [kind for kind in mix if kind in offered]
    missing = sorted(set(mix) - set(kinds))
    weights = [mix[kind] for kind in kinds]
    print(f"Data: {Entry.objects.filter(workspace__slug=WORKSPACE).count()} entries, "
          f"{Chunk.objects.filter(workspace__slug=WORKSPACE, status='embedded').count()} embedded chunks in "
          f"{WORKSPACE!r} (database {SOAK_DB}); gunicorn {args.workers} sync workers; {args.clients} clients for "
          f"{args.minutes:g} min; mix " + ", ".join(f"{k} {w:g}" for k, w in zip(kinds, weights))
          + (f" (not served by this checkout: {', '.join(missing)})" if missing else "")
          + f"; {os.cpu_count()} CPUs")
    print(f"Load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)

    server = start_gunicorn(args.workers)
    master = psutil.Process(server.pid)
    try:
        drive(kinds, weights, args.workers * 2, 20.0, key, Traffic())  # warm-up: models, connections
        started = time.monotonic()
        snapshots = [snapshot(master, started)]
        traffic = Traffic()
        runner = threading.Thread(target=drive, args=(kinds, weights, args.clients, args.minutes * 60, key, traffic))
        runner.start()
        while True:
            runner.join(args.sample_seconds)
            if not runner.is_alive():
                break
            snapshots.append(snapshot(master, started))
            print(f"  t={snapshots[-1].at:5.0f} s  load {snapshots[-1].load[0]:.2f}  requests {traffic.sent}", flush=True)
        elapsed = time.monotonic() - started
        snapshots.append(snapshot(master, started))

        print(f"\n{'search':<10} {'requests':>9} {'req/s':>7} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'errors':>7}")
        every: list[float] = []
        for kind in kinds:
            samples = traffic.samples[kind]
            every += samples
            p50, p95, p99 = percentiles(samples)
            errors = sum(n for what, n in traffic.errors.items() if what.startswith(f"{kind}:"))
            print(f"{kind:<10} {len(samples):>9} {len(samples) / elapsed:>7.1f} {p50:>8.1f} {p95:>8.1f} {p99:>8.1f} "
                  f"{errors:>7}")
        p50, p95, p99 = percentiles(every)
        print(f"{'all':<10} {len(every):>9} {len(every) / elapsed:>7.1f} {p50:>8.1f} {p95:>8.1f} {p99:>8.1f} "
              f"{sum(traffic.errors.values()):>7}")
        print(f"Errors: {sum(traffic.errors.values())}" + "".join(f"\n  {what}: {n}" for what, n in
                                                                 traffic.errors.most_common()))
        flags = memory_report(snapshots, args.growth_mb, args.growth_pct)
        print("\nGrowth: " + ("; ".join(flags) if flags else
                              f"none flagged (no gunicorn process's USS grew more than "
                              f"max({args.growth_mb:g} MB, {args.growth_pct:g}%))"))
        print(f"Load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    finally:
        connection.close()
        server.terminate()
        server.wait(30)


if __name__ == "__main__":
    main()
