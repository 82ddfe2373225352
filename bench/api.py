#!/usr/bin/env python
"""The search API through gunicorn on loopback, against the same searches called in-process.

Run from the repo root:  .venv/bin/python bench/api.py [--seconds S] [--workers W] [--clients 1,8,32]
                                                      [--search-log compare --rounds R]

What it does:

1. Data. A dedicated database (cms_bench_api on the embedded server) gets the demo
   workspace (seed_demo) plus --docs documents of the eval corpora (../shared/eval:
   SciFact, StackFAQ, JSQuAD) as entries of a semantic content type, chunked and embedded
   with the local model. Built once; later runs reuse it.
2. In-process. Each search runs --iterations times through the function the API calls
   (search_entries, semantic_search) with the key's access: the floor HTTP adds to.
3. HTTP. gunicorn (sync workers, DEBUG off, persistent connections, the app's settings)
   serves config.wsgi on 127.0.0.1. 1, 8 and 32 client threads send requests with a workspace
   API key for --seconds each, cycling through the same queries; each request opens its
   own connection (sync workers close it). Errors are anything but a 200.
   The MCP endpoint is measured the same way: POST /mcp/ with a tools/call of
   search_entries (the SDK's stateless JSON mode, bridged into the WSGI app).
4. Prints p50/p95/p99 latency (ms), requests per second and errors per level, the
   in-process p50 beside it, the HTTP overhead at 1 client (HTTP p50 - in-process p50;
   target <= 3 ms) and the load average (the machine is shared: compare on a quiet one).

The throttles stay on, with a rate no run reaches, so their cost is in the figures.

`--search-log compare` measures what the search log (search/insights/search_log.py) costs a request
instead: full-text searches through gunicorn at each --clients level with the workspace's
log switched off and on (the switch is read per request: no restart), alternating --rounds
times so drift on a shared machine falls on both; prints p50/p95 of each, the p50
difference (target <= +1 ms) and the ratio, the rows the workers wrote, and the load average.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(0, str(REPO_ROOT / "bench"))

import served_app  # noqa: E402
from served_app import WORKSPACE, ensure_dataset, percentiles  # noqa: E402
served_app.production_like_environment("bench-api")

BENCH_DB = os.environ.get("BENCH_API_DB", "cms_bench_api")
FULLTEXT_QUERIES = ["refund", "返品", "policy", "kettle", "配送", "password", "TEA-CUP", "protein", "cell",
                    "東京", "install", "error"]
SEMANTIC_QUERIES = ["how do I get my money back?", "返品できますか", "how long does shipping take?",
                    "reset my password", "does vitamin D affect bone density?", "how to install a package",
                    "日本の首都はどこですか", "cancer cells and mutations", "delete my account",
                    "tea cup price"]
PORT = int(os.environ.get("BENCH_API_PORT", "8765"))


# --- data -----------------------------------------------------------------------------------

def bench_key() -> tuple[object, str]:
    return served_app.bench_api_key("bench/api.py")


# --- measuring ------------------------------------------------------------------------------




def in_process(kind: str, access, iterations: int) -> list[float]:
    from search.engine.fulltext import search_entries
    from search.engine.semantic import semantic_search

    queries = FULLTEXT_QUERIES if kind != "semantic" else SEMANTIC_QUERIES
    run = (lambda q: search_entries(access=access, query=q)) if kind != "semantic" else (
        lambda q: semantic_search(access=access, query=q, top_k=5))
    for query in queries:  # warm up
        run(query)
    samples = []
    for i in range(iterations):
        started = time.perf_counter()
        run(queries[i % len(queries)])
        samples.append((time.perf_counter() - started) * 1000)
    return samples


def request_for(kind: str, index: int, key: str) -> tuple[str, str, bytes | None, dict[str, str]]:
    headers = {"Authorization": f"Bearer {key}", "Host": "127.0.0.1"}
    if kind == "full-text":
        query = FULLTEXT_QUERIES[index % len(FULLTEXT_QUERIES)]
        return "GET", f"/api/v1/workspaces/{WORKSPACE}/search/entries?q={quote(query)}", None, headers
    if kind == "semantic":
        body = json.dumps({"query": SEMANTIC_QUERIES[index % len(SEMANTIC_QUERIES)], "top_k": 5}).encode()
        return "POST", f"/api/v1/workspaces/{WORKSPACE}/search/semantic", body, {
            **headers, "Content-Type": "application/json"}
    query = FULLTEXT_QUERIES[index % len(FULLTEXT_QUERIES)]
    body = json.dumps({"jsonrpc": "2.0", "id": index, "method": "tools/call",
                       "params": {"name": "search_entries", "arguments": {"query": query}}}).encode()
    return "POST", "/mcp/", body, {**headers, "Content-Type": "application/json",
                                   "Accept": "application/json, text/event-stream",
                                   "MCP-Protocol-Version": "2025-06-18"}


def one_request(kind: str, index: int, key: str) -> bool:
    method, path, body, headers = request_for(kind, index, key)
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=60)
    try:
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        payload = response.read()
        if response.status != 200:
            return False
        return kind != "mcp" or (b'"result"' in payload and b'"isError":true' not in payload)
    finally:
        conn.close()


@dataclass
class Level:
    clients: int
    samples: list[float] = field(default_factory=list)
    errors: int = 0
    elapsed: float = 0.0


def drive(kind: str, clients: int, seconds: float, key: str) -> Level:
    level = Level(clients)
    lock = threading.Lock()
    deadline = time.monotonic() + seconds
    counter = iter(range(10**9))

    def client() -> None:
        local, errors = [], 0
        while time.monotonic() < deadline:
            with lock:
                index = next(counter)
            started = time.perf_counter()
            try:
                ok = one_request(kind, index, key)
            except OSError:
                ok = False
            local.append((time.perf_counter() - started) * 1000)
            errors += not ok
        with lock:
            level.samples.extend(local)
            level.errors += errors

    started = time.monotonic()
    threads = [threading.Thread(target=client) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    level.elapsed = time.monotonic() - started
    return level


# --- gunicorn -------------------------------------------------------------------------------

def start_gunicorn(workers: int) -> subprocess.Popen:
    return served_app.start_gunicorn(database=BENCH_DB, port=PORT, workers=workers)


def warm_up(kind: str, key: str, workers: int) -> None:
    """Each worker opens its connection and (for semantic) loads the model before timing."""
    drive(kind, workers * 2, 3.0 if kind == "semantic" else 1.0, key)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=8.0, help="seconds per concurrency level")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn sync workers")
    parser.add_argument("--clients", default="1,8,32")
    parser.add_argument("--iterations", type=int, default=300, help="in-process calls per search")
    parser.add_argument("--docs", type=int, default=1500, help="eval-corpus documents beside the demo data")
    parser.add_argument("--searches", default="full-text,semantic,mcp")
    parser.add_argument("--search-log", choices=["as-is", "compare"], default="as-is",
                        help="compare: full-text with the workspace's search log off and on")
    parser.add_argument("--rounds", type=int, default=3, help="off/on alternations with --search-log compare")
    args = parser.parse_args()
    levels = [int(c) for c in args.clients.split(",")]

    served_app.django_setup(BENCH_DB)
    ensure_dataset(args.docs)
    from django.db import connection

    from cms.access import workspace_access_for_api_key
    from cms.models import Entry
    from ingestion.models import Chunk

    api_key, secret = bench_key()
    access = workspace_access_for_api_key(api_key=api_key)
    print(f"Data: {Entry.objects.filter(workspace=access.workspace).count()} entries, "
          f"{Chunk.objects.filter(workspace=access.workspace, status='embedded').count()} embedded chunks "
          f"in workspace {WORKSPACE!r}; key cms_{api_key.prefix}; gunicorn {args.workers} sync workers; "
          f"{os.cpu_count()} CPUs")
    print(f"Load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)

    if args.search_log == "compare":
        search_log_compare(args, secret, levels)
        return

    floors = {}
    for kind in args.searches.split(","):
        samples = in_process("full-text" if kind == "mcp" else kind, access, args.iterations)
        floors[kind] = statistics.median(samples)
    connection.close()

    server = start_gunicorn(args.workers)
    try:
        print()
        print(f"{'search':<10} {'clients':>7} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'req/s':>8} "
              f"{'requests':>8} {'errors':>6}")
        overheads = {}
        for kind in args.searches.split(","):
            warm_up(kind, secret, args.workers)
            print(f"{kind:<10} {'in-proc':>7} {floors[kind]:>8.2f} {'':>8} {'':>8} {'':>8} {'':>8} {'':>6}")
            for clients in levels:
                level = drive(kind, clients, args.seconds, secret)
                p50, p95, p99 = percentiles(level.samples)
                rate = len(level.samples) / level.elapsed
                print(f"{kind:<10} {clients:>7} {p50:>8.2f} {p95:>8.2f} {p99:>8.2f} {rate:>8.1f} "
                      f"{len(level.samples):>8} {level.errors:>6}", flush=True)
                if clients == 1:
                    overheads[kind] = p50 - floors[kind]
        print()
        for kind, overhead in overheads.items():
            verdict = "meets" if overhead <= 3.0 else "misses"
            print(f"HTTP overhead at 1 client, {kind}: {overhead:.2f} ms (target <= 3 ms: {verdict})")
        print(f"Load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    finally:
        server.terminate()
        server.wait(30)


def search_log_compare(args, secret: str, levels: list[int]) -> None:
    """Full-text through gunicorn with the search log off, then on, --rounds times; both printed."""
    from django.db import connection

    from cms.models import Workspace
    from search.models import SearchLog

    def switch(enabled: bool) -> None:
        Workspace.objects.filter(slug=WORKSPACE).update(search_log_enabled=enabled)
        connection.close()

    # In-process: what logging adds to one search (the append), and what one batch write costs
    # the background thread, timed apart from any request.
    from cms.access import workspace_access_for_operator
    from search.insights.search_log import BUFFER, search_log_flush, search_log_record

    switch(True)
    access = workspace_access_for_operator(workspace=Workspace.objects.get(slug=WORKSPACE))
    calls = 20_000
    BUFFER.discard()
    started = time.perf_counter()
    for i in range(calls):
        search_log_record(access=access, kind="fulltext", interface="api", query=f"Refund policy {i % 50}",
                          results=3, latency_ms=1.5)
    per_call_us = (time.perf_counter() - started) / calls * 1e6
    BUFFER.discard()
    batch_ms = []
    for _ in range(5):
        for i in range(200):
            search_log_record(access=access, kind="fulltext", interface="api", query=f"bench {i}", results=1,
                              latency_ms=1.0)
        started = time.perf_counter()
        search_log_flush()
        batch_ms.append((time.perf_counter() - started) * 1000)
    SearchLog.objects.filter(query__startswith="bench ").delete()
    print(f"In-process: search_log_record {per_call_us:.1f} us a search (normalise, redact, hash, id, append; "
          f"{calls} calls); a batch of 200 rows written in {statistics.median(batch_ms):.1f} ms (median of 5), "
          f"off the request path")

    rows_before = SearchLog.objects.count()
    server = start_gunicorn(args.workers)
    samples: dict[tuple[int, bool], list[float]] = {}
    errors = 0
    try:
        switch(True)
        warm_up("full-text", secret, args.workers)
        for _ in range(args.rounds):
            for enabled in (False, True):
                switch(enabled)
                for clients in levels:
                    level = drive("full-text", clients, args.seconds, secret)
                    samples.setdefault((clients, enabled), []).extend(level.samples)
                    errors += level.errors
        switch(True)
    finally:
        server.terminate()  # a graceful stop: each worker writes what it still holds
        server.wait(30)
    written = SearchLog.objects.count() - rows_before
    logged_requests = sum(len(v) for (c, enabled), v in samples.items() if enabled)
    print()
    print(f"Search log cost, full-text through gunicorn ({args.workers} workers), {args.rounds} rounds of "
          f"{args.seconds:.0f} s per state and level, off and on alternating; errors {errors}")
    print(f"{'clients':>7} {'off p50':>8} {'on p50':>8} {'diff ms':>8} {'ratio':>6} {'off p95':>8} {'on p95':>8} "
          f"{'off n':>7} {'on n':>7}")
    for clients in levels:
        off, on = samples[(clients, False)], samples[(clients, True)]
        off50, off95, _ = percentiles(off)
        on50, on95, _ = percentiles(on)
        verdict = "meets" if on50 - off50 <= 1.0 else "misses"
        print(f"{clients:>7} {off50:>8.2f} {on50:>8.2f} {on50 - off50:>+8.2f} {on50 / off50:>6.3f} {off95:>8.2f} "
              f"{on95:>8.2f} {len(off):>7} {len(on):>7}   (+1 ms target: {verdict})")
    print(f"Rows the workers wrote: {written} for {logged_requests} logged requests (warm-up included: "
          f"{written >= logged_requests})")
    print(f"Load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
