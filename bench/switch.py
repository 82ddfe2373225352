#!/usr/bin/env python
"""Query latency while a model switch backfills 100,000 chunks, and the storage cost of two models.

Run from the repo root:  .venv/bin/python bench/switch.py [--chunks N] [--queries Q]

1. Load. A dedicated database (cms_bench_switch) gets --chunks chunks in one workspace by
   binary COPY, each with a synthetic 512-d vector of the active model (use-multilingual-v3:
   clustered, i.e. a random centre plus Gaussian noise, re-normalised, as real chunk sets
   are), then the model's HNSW index (migration 0006's definition) is built.
2. Without a backfill: Q searches, each what semantic_search runs in the database: the
   workspace's active model, the vector SQL (set_config + HNSW walk + the gated exact CTE),
   and the pending count. The query's own embedding is left out (a CPU cost in the web
   process, the same with or without a backfill); query vectors are chunk vectors plus noise.
3. During a backfill: `embedding_switch start` to all-minilm-l6-v2 (384-d, its own HNSW index),
   and a worker process on the same machine runs the ordinary embed loop
   (services.chunks_embed_pending) with a cheap stand-in for the model (hashed vectors): the
   database work (claims, hash-guarded upserts into the HNSW index, settling) is the real one,
   and no model time hides it. It paces itself as configured (EMBED_BACKFILL_PAUSE; run with
   EMBED_BACKFILL_PAUSE=0 for full speed). The same Q searches run while it works, 50 ms
   apart in both phases; then it finishes.
4. Prints p50/p95 of both phases and their ratio (target: p95 during <= 1.5x without), the
   backfill's rate, and the storage of each model's vectors and index once both are held.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(0, str(REPO_ROOT / "bench"))

import bench_django  # noqa: E402
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import vectorload  # noqa: E402

BENCH_DB = os.environ.get("BENCH_SWITCH_DB", "cms_bench_switch")
ACTIVE, ACTIVE_DIMS = "use-multilingual-v3", 512
TARGET, TARGET_DIMS = "all-minilm-l6-v2", 384
CLUSTERS = 2000
TOP_K = 10
GAP_SECONDS = 0.05


def django_setup() -> None:
    # A dedicated database: the bench truncates and bulk-loads the chunk table.
    bench_django.django_setup(BENCH_DB)


def create_database() -> None:
    import psycopg
    from django.conf import settings

    db = settings.DATABASES["default"]
    params = {"dbname": "postgres", "user": db.get("USER") or "postgres", "host": db.get("HOST") or None,
              "port": db.get("PORT") or None, "password": db.get("PASSWORD") or None, "autocommit": True}
    with psycopg.connect(**{k: v for k, v in params.items() if v is not None}) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [BENCH_DB]).fetchone():
            conn.execute(f'CREATE DATABASE "{BENCH_DB}" TEMPLATE template0 ENCODING UTF8')


class CheapTargetBackend:
    """Stands in for the target model in the worker: hashed 384-d vectors, no model time."""

    @staticmethod
    def build():
        from ingestion.embeddings.base import BaseEmbeddingBackend

        class Cheap(BaseEmbeddingBackend):
            model_name = TARGET
            dimensions = TARGET_DIMS
            max_batch_texts = 128

            def _embed(self, texts: list[str], *, input_type: str) -> list[list[float]]:
                seeds = [int.from_bytes(hashlib.sha256(t.encode()).digest()[:8], "little") for t in texts]
                out = np.stack([np.random.default_rng(s).standard_normal(TARGET_DIMS) for s in seeds])
                out /= np.linalg.norm(out, axis=1, keepdims=True)
                return out.astype(np.float32).tolist()

        return Cheap(price_per_million_tokens=0.02)


def worker(workspace_id: int) -> None:
    """The backfill worker: the embed loop the Celery task runs, until nothing is pending."""
    from ingestion import services

    backend = CheapTargetBackend.build()
    while True:
        report = services.chunks_embed_pending(workspace=workspace_id, limit=5000, backends={TARGET: backend})
        if report.claimed == 0:
            return


def load(total: int) -> int:
    from django.core.management import call_command
    from django.db import connection
    from pgvector.psycopg import register_vector
    from psycopg.types.json import Jsonb

    from cms.models import ContentType, Entry, Workspace
    from ingestion.models import Chunk

    call_command("migrate", verbosity=0)
    ws, _ = Workspace.objects.get_or_create(slug="bench-switch", defaults={"name": "Bench switch"})
    ct, _ = ContentType.objects.get_or_create(workspace=ws, api_id="article", defaults={
        "name": "Article", "fields": [{"id": "title", "label": "Title", "type": "text"}]})
    entry = Entry.objects.filter(workspace=ws).first() or Entry.objects.create(
        workspace=ws, content_type=ct, data={"title": "Bench"}, status="published")
    with connection.cursor() as cursor:
        vectorload.truncate_and_drop_vector_indexes(cursor)
        cursor.execute("TRUNCATE ingestion_embeddingusage")
    rng = np.random.default_rng(20261201)
    centres = rng.standard_normal((CLUSTERS, ACTIVE_DIMS)).astype(np.float32)
    centres /= np.linalg.norm(centres, axis=1, keepdims=True)
    raw = connection.connection
    register_vector(raw)
    started = time.perf_counter()
    metadata = Jsonb({"content_type": "article", "status": "published", "source_kind": "entry", "fields": {}})

    def rows():
        step = 10_000
        for start in range(0, total, step):
            n = min(step, total - start)
            vectors = centres[rng.integers(0, CLUSTERS, size=n)] + rng.normal(
                0.0, 0.035, size=(n, ACTIVE_DIMS)).astype(np.float32)
            vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
            for k in range(n):
                i = start + k
                text = f"Chunk {i} of the switch bench: synthetic text about topic {i % CLUSTERS}."
                yield (ws.pk, entry.pk, i, text, hashlib.sha256(text.encode()).hexdigest(), len(text) // 4,
                       f"Chunk {i}", metadata, vectors[k])

    vectorload.copy_chunks(raw, rows(), model=ACTIVE, dimensions=ACTIVE_DIMS)
    print(f"  COPY {total} chunks and their {ACTIVE} vectors: {time.perf_counter() - started:.1f} s", flush=True)
    started = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute("SET maintenance_work_mem = '1GB'")
        vectorload.build_vector_indexes(cursor)
        cursor.execute("ANALYZE ingestion_chunk")
    print(f"  HNSW index build: {time.perf_counter() - started:.1f} s", flush=True)
    assert Chunk.objects.count() == total
    return ws.pk


def query_vectors(count: int) -> list[list[float]]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT embedding::real[] FROM ingestion_chunkvector WHERE model = %s"
                       " ORDER BY random() LIMIT %s", [ACTIVE, count])
        rows = np.asarray([row[0] for row in cursor.fetchall()], dtype=np.float32)
    rows += np.random.default_rng(5).normal(0.0, 0.05, size=rows.shape).astype(np.float32)
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    return rows.tolist()


def search_once(workspace_id: int, vector: list[float]) -> tuple[float, str, int]:
    """What semantic_search does in the database for one query; returns (ms, model, hits)."""
    from ingestion.selectors import embedding_models
    from search.engine.filters.compile import CompiledFilter
    from search.engine.legs.vector_leg import DEFAULT_EF_SEARCH, chunks_pending_count as _pending_count, vector_candidates as _vector_candidates

    started = time.perf_counter()
    model = embedding_models(workspace=workspace_id).active
    hits = _vector_candidates(workspace_id=workspace_id, model_name=model, dimensions=ACTIVE_DIMS,
                              query_vector=vector, limit=TOP_K,
                              where=CompiledFilter("(c.metadata ->> 'status') = %s", ["published"]),
                              ef_search=DEFAULT_EF_SEARCH)
    _pending_count(workspace_id=workspace_id)
    return (time.perf_counter() - started) * 1000, model, len(hits)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(p * len(ordered))) - 1))]


def run_queries(workspace_id: int, vectors: list[list[float]], gap: float = 0.0
                ) -> tuple[list[float], set[str], int]:
    """Each query alone, `gap` seconds apart (so the during-backfill sample spans many of the
    worker's claim cycles rather than one burst)."""
    times, models, fewest = [], set(), TOP_K
    for vector in vectors:
        time.sleep(gap)
        ms, model, hits = search_once(workspace_id, vector)
        times.append(ms)
        models.add(model)
        fewest = min(fewest, hits)
    return times, models, fewest


def storage() -> list[tuple[str, int, int, int]]:
    """Per model: vectors, bytes of their rows in the heap (+ the unique and lookup b-tree
    share), and bytes of the model's HNSW index."""
    from django.db import connection

    indexes = vectorload.indexes_module()
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*), pg_total_relation_size('ingestion_chunkvector') FROM ingestion_chunkvector")
        total_rows, total_bytes = cursor.fetchone()
        hnsw_total = 0
        rows = []
        for model in (ACTIVE, TARGET):
            cursor.execute("SELECT pg_relation_size(%s)", [indexes.index_name(model)])
            hnsw = cursor.fetchone()[0]
            hnsw_total += hnsw
            cursor.execute("SELECT count(*), coalesce(sum(pg_column_size(v.*)), 0) FROM ingestion_chunkvector v"
                           " WHERE model = %s", [model])
            count, heap_bytes = cursor.fetchone()
            rows.append((model, count, heap_bytes, hnsw))
        # What is left of the table's total (page overhead, the b-trees, TOAST) is shared by row count.
        rest = total_bytes - hnsw_total - sum(r[2] for r in rows)
        return [(m, n, heap + (rest * n // max(1, total_rows)), hnsw) for m, n, heap, hnsw in rows]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--worker", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker is not None:
        django_setup()
        worker(args.worker)
        return
    from django.conf import settings as _settings  # noqa: F401 - settings load before the database exists

    create_database()
    django_setup()
    from cms.models import Workspace
    from ingestion.selectors import embedding_switch_progress
    from ingestion.services import switch

    print(f"Loading {args.chunks} chunks into {BENCH_DB}...", flush=True)
    workspace_id = load(args.chunks)
    vectors = query_vectors(args.queries)
    run_queries(workspace_id, vectors[:50])  # warm the index pages
    before, models_before, fewest_before = run_queries(workspace_id, vectors, GAP_SECONDS)

    workspace = Workspace.objects.get(pk=workspace_id)
    switch.embedding_switch_start(workspace=workspace, model=TARGET)
    started = time.perf_counter()
    proc = subprocess.Popen([sys.executable, __file__, "--worker", str(workspace_id)], cwd=REPO_ROOT,
                            env={**os.environ, "BENCH_SWITCH_DB": BENCH_DB})
    time.sleep(3.0)  # the worker is loaded and storing
    covered_start = embedding_switch_progress(workspace=workspace)["covered"]
    during, models_during, fewest_during = [], set(), TOP_K
    while len(during) < args.queries and proc.poll() is None:
        t, m, f = run_queries(workspace_id, vectors[len(during):len(during) + 25], GAP_SECONDS)
        during += t
        models_during |= m
        fewest_during = min(fewest_during, f)
    covered_end = embedding_switch_progress(workspace=workspace)["covered"]
    window = time.perf_counter() - started - 3.0
    load1, load5, _ = os.getloadavg()

    from django.conf import settings

    print(f"\n{args.chunks} chunks, top_k={TOP_K}, ef_search 100, filter status=published, "
          f"EMBED_BACKFILL_PAUSE={settings.EMBED_BACKFILL_PAUSE}; "
          f"load average {load1:.1f}/{load5:.1f} on {os.cpu_count()} CPUs (shared machine: other work runs too)")
    print(f"{'phase':<26} {'queries':>7} {'p50 ms':>8} {'p95 ms':>8} {'models':<22} {'fewest hits':>11}")
    for label, times, models, fewest in [("no backfill", before, models_before, fewest_before),
                                         ("during backfill", during, models_during, fewest_during)]:
        print(f"{label:<26} {len(times):>7} {statistics.median(times):>8.2f} {percentile(times, 0.95):>8.2f} "
              f"{','.join(sorted(models)):<22} {fewest:>11}", flush=True)
    if during:
        print(f"ratio during/without: p50 {statistics.median(during) / statistics.median(before):.2f}x, "
              f"p95 {percentile(during, 0.95) / percentile(before, 0.95):.2f}x (target p95 <= 1.5x)")
    print(f"backfill while measured: {covered_end - covered_start} vectors in {window:.1f} s "
          f"({(covered_end - covered_start) / max(window, 1e-9):.0f}/s)", flush=True)
    proc.wait()
    backfill_seconds = time.perf_counter() - started
    progress = embedding_switch_progress(workspace=workspace)
    print(f"whole backfill {progress['covered']}/{progress['chunks']} in {backfill_seconds:.1f} s; "
          f"{progress['tokens']} tokens, ${progress['cost_usd']:.4f} at the stand-in's price")

    print("\nstorage with both models held (ingestion_chunkvector):")
    print(f"{'model':<22} {'vectors':>8} {'rows MB':>8} {'HNSW MB':>8} {'total MB':>9} {'bytes/chunk':>11}")
    rows = storage()
    for model, count, heap, hnsw in rows:
        print(f"{model:<22} {count:>8} {heap / 1e6:>8.1f} {hnsw / 1e6:>8.1f} {(heap + hnsw) / 1e6:>9.1f} "
              f"{(heap + hnsw) / max(1, count):>11.0f}")
    one = rows[0][2] + rows[0][3]
    both = sum(h + x for _, _, h, x in rows)
    print(f"two models cost {both / one:.2f}x the storage of {ACTIVE} alone ({both / 1e6:.1f} MB vs {one / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
