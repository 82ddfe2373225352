"""bench/growth.py --citus: growth.py's measurements on a Citus cluster against one node, in one run.

    .venv/bin/python bench/growth.py --citus --sizes 30000 [--queries 60] [--real 3000]

A coordinator and two workers are started from the embedded PostgreSQL's binaries
(tests/citus/cluster.py, Citus built by `make citus`), under var/bench/, and stopped at the end.
For each size the same data set (growth.load: real chunks of the eval corpora embedded by the
local model, the rest their noisy variants) is loaded twice on the coordinator's server:

- one node: a plain database (no citus extension), as a single PostgreSQL runs;
- Citus: a database on every node, the tables laid out by `manage.py citus_distribute`
  (8 shards, on the two workers), loaded through the coordinator.

Printed per size: the load figures (COPY, HNSW build, keyword index through the product's
service) and the ingestion throughput ratio (Citus / one node, chunks per second); keyword,
semantic and hybrid p50/p95 on the big workspace and the ratio (Citus / one node); where the
time of one hybrid search goes (each statement's time from Python on both, and EXPLAIN ANALYZE
of the keyword and vector legs' statements on both). The load average with every figure.
"""

from __future__ import annotations

import os
import shutil
import statistics
import time

import growth
from bench_django import pct

from tests.citus.cluster import Cluster, citus_built

LEG_STATEMENTS = ("keyword._ranked", "keyword._ranked_few", "vector_leg.vector_exact_sql",
                  "vector_leg.vector_candidates_sql")
PLAN_LINES = ("Custom Scan", "Task Count", "Node:", "Execution Time", "Planning Time", "Limit", "Index Scan using",
              "Index Only Scan", "Bitmap Heap Scan")


def default_database_at(port: int) -> None:
    """Django's default database is the coordinator's server (before Django is set up)."""
    from django.conf import settings

    default = {**settings.DATABASES["default"], "ENGINE": "django.db.backends.postgresql",
               "HOST": "127.0.0.1", "PORT": str(port), "USER": "postgres", "PASSWORD": ""}
    default.pop("PGDATA", None)
    default.pop("SERVER_SETTINGS", None)
    settings.DATABASES["default"] = default


def database_use(name: str) -> None:
    from django.db import connection

    from cms.citus_mode import citus_active_forget

    connection.close()
    connection.settings_dict["NAME"] = name
    citus_active_forget()
    connection.ensure_connection()


def database_prepare(cluster: Cluster, name: str, *, citus: bool) -> None:
    """A fresh database `name`: on the coordinator's server alone (one node), or on every node
    with the tables migrated and distributed (Citus)."""
    from django.core.management import call_command

    if citus:
        cluster.database_created(name)
    else:
        cluster.coordinator.execute("postgres", f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)',
                                    f"CREATE DATABASE \"{name}\" TEMPLATE template0 ENCODING 'UTF8' LOCALE 'C.UTF-8'")
    database_use(name)
    call_command("migrate", verbosity=0)
    if citus:
        call_command("citus_distribute", verbosity=0)


def where_the_time_goes(ws_id: int, text: str) -> tuple[list, list]:
    """One hybrid search's statements, each with its time from Python; then EXPLAIN ANALYZE
    of its legs' statements (run again, warm)."""
    from cms.access import workspace_access_for_operator
    from cms.models import Workspace
    from search.engine.hybrid import hybrid_search
    from tests.citus.statements import explained, statements_recorded

    access = workspace_access_for_operator(workspace=Workspace.objects.get(pk=ws_id))
    hybrid_search(access=access, query=text, top_k=growth.TOP_K)  # warm
    with statements_recorded() as recorded:
        hybrid_search(access=access, query=text, top_k=growth.TOP_K)
    legs = explained([s for s in recorded if s.origin in LEG_STATEMENTS], analyze=True)
    return recorded, legs


def measured(cluster: Cluster, total: int, real: int, texts: list[str], *, citus: bool) -> dict:
    label = "Citus" if citus else "one node"
    name = f"cms_bench_growth_{total}_{'citus' if citus else 'one'}"
    print(f"\n{total} chunks, {label} ({name}) {growth.load_avg()}", flush=True)
    database_prepare(cluster, name, citus=citus)
    ws_ids, figures = growth.load(total, real)
    timings = growth.measure_size(total, ws_ids, texts, ("keyword", "semantic", "hybrid"))
    print(f"  {label}: " + "  ".join(f"{kind} p50 {statistics.median(ms):.1f} p95 {pct(ms, 0.95):.1f} ms"
                                     for kind, ms in timings.items()) + f"  {growth.load_avg()}", flush=True)
    statements, legs = where_the_time_goes(ws_ids["big"], texts[len(texts) // 2])
    return {"figures": figures, "timings": timings, "statements": statements, "legs": legs}


def report(total: int, one: dict, cit: dict, texts: list[str]) -> None:
    print(f"\n===== {total} chunks: Citus (coordinator + 2 workers, 8 shards) / one node; {len(texts)} queries;"
          f" {growth.load_avg()} on {os.cpu_count()} CPUs =====")
    print(f"{'search':<10} {'one p50':>8} {'one p95':>8} {'citus p50':>9} {'citus p95':>9} {'p50 x':>6} {'p95 x':>6}")
    for kind in ("keyword", "semantic", "hybrid"):
        a, b = one["timings"][kind], cit["timings"][kind]
        print(f"{kind:<10} {pct(a, 0.5):>8.1f} {pct(a, 0.95):>8.1f} {pct(b, 0.5):>9.1f} {pct(b, 0.95):>9.1f}"
              f" {pct(b, 0.5) / pct(a, 0.5):>6.2f} {pct(b, 0.95) / pct(a, 0.95):>6.2f}")
    hybrid_ratio = pct(cit["timings"]["hybrid"], 0.95) / pct(one["timings"]["hybrid"], 0.95)
    print(f"hybrid p95 ratio (Citus / one node): {hybrid_ratio:.2f}x (target <= 1.5x)")
    print(f"\n{'ingestion':<22} {'one s':>7} {'citus s':>8} {'one chunks/s':>13} {'citus chunks/s':>15} {'throughput x':>13}")
    for key, what in (("copy_s", "COPY chunks+vectors"), ("hnsw_build_s", "HNSW index build"),
                      ("keyword_build_s", "keyword index")):
        a, b = one["figures"][key], cit["figures"][key]
        print(f"{what:<22} {a:>7} {b:>8} {total / a:>13.0f} {total / b:>15.0f} {a / b:>13.2f}")
    a = sum(one["figures"][k] for k in ("copy_s", "hnsw_build_s", "keyword_build_s"))
    b = sum(cit["figures"][k] for k in ("copy_s", "hnsw_build_s", "keyword_build_s"))
    print(f"{'all three':<22} {a:>7.1f} {b:>8.1f} {total / a:>13.0f} {total / b:>15.0f} {a / b:>13.2f}")
    print("\nwhere one hybrid search's time goes (the statements it sent, ms from Python, warm):")
    print(f"{'statement':<40} {'one node':>9} {'Citus':>9}")
    for left, right in zip(one["statements"], cit["statements"]):
        origin = left.origin if left.origin == right.origin else f"{left.origin} / {right.origin}"
        print(f"{origin:<40} {left.ms:>9.1f} {right.ms:>9.1f}")
    print(f"{'total':<40} {sum(s.ms for s in one['statements']):>9.1f} {sum(s.ms for s in cit['statements']):>9.1f}")
    for label, run in (("one node", one), ("Citus", cit)):
        for statement in run["legs"]:
            print(f"\n--- EXPLAIN ANALYZE, {label}: {statement.origin}")
            print("\n".join(line for line in statement.plan if any(key in line for key in PLAN_LINES)))


def main(sizes: list[int], query_count: int, real: int) -> None:
    if not citus_built():
        raise SystemExit("Citus is not built into the embedded PostgreSQL: run `make citus` first")
    root = growth.CACHE_DIR / f"citus-{os.getpid()}"
    started = time.perf_counter()
    cluster = Cluster.started(root)
    try:
        default_database_at(cluster.coordinator.port)
        growth.django_setup(sizes[0])
        embed_ms = growth.memoise_query_vectors()
        texts = growth.queries(query_count)
        print(f"cluster up under {root} (coordinator :{cluster.coordinator.port}, workers "
              f"{', '.join(f':{w.port}' for w in cluster.workers)}); query embedding {embed_ms:.0f} ms (memoised)",
              flush=True)
        for total in sizes:
            one = measured(cluster, total, real, texts, citus=False)
            cit = measured(cluster, total, real, texts, citus=True)
            report(total, one, cit, texts)
    finally:
        from django.db import connections

        from ingestion.services.usage import usage_flush

        usage_flush()  # the provider usage the bench's embeddings counted, while the database is up
        connections.close_all()
        cluster.stop()
        shutil.rmtree(root, ignore_errors=True)
        print(f"\ncluster stopped and removed; {time.perf_counter() - started:.0f} s in all, {growth.load_avg()}")


if __name__ == "__main__":
    raise SystemExit("run it as: bench/growth.py --citus")
