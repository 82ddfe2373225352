#!/usr/bin/env python
"""Speed and recall of semantic search at 100,000 chunks of real embeddings.

Run from the repo root:  .venv/bin/python bench/semantic.py [--chunks N] [--queries Q] [--ef 40,100,200,400]

What it does:

1. Vectors. The eval corpora (../shared/eval: SciFact, StackFAQ, JSQuAD) are cut into
   ~500-character chunks and embedded with the local model (use-multilingual-v3, 512
   dims), ~19k real chunks. The rest up to --chunks are sampled from their distribution:
   a random real vector plus Gaussian noise (sigma 0.035 per dimension, i.e. cosine ~0.8 to
   its source), re-normalised: near-duplicates and paraphrase-like neighbours, as real
   chunk sets have, rather than uniform random vectors (a worst case no corpus has).
   Queries are real queries from the same sets. Everything is cached in var/bench/*.npy.
2. Load. A dedicated database (cms_bench_semantic on the same server) is migrated, the
   chunks go in by binary COPY, then the per-model HNSW index is built with the exact
   definition of ingestion/migrations/0006 and the table is analysed.
3. Measure. Each query runs through search.engine.legs.vector_leg.vector_candidates, the SQL the API
   runs (set_config for ef_search and iterative scan, ORDER BY the distance operator,
   LIMIT 10), timed end to end from Python (the query's embedding is not included; its
   cost is printed separately). Recall@10 is measured against exact search: the same SQL
   with index scans disabled, which computes every distance.
   Scenarios: the big workspace (99% of rows: effectively unfiltered), a small workspace
   holding 1% of rows, and the big workspace with a filter keeping 1% of its rows, on a
   number field (`{"bucket": 7}`) and on a text field (`{"category": "category-07"}`), and
   a text `$in` keeping 3% (filters only the HNSW iterative scan can serve). Filters are
   compiled by search.engine.filters.chunks.chunk_filter_compile, as the API does. Each chunk's
   metadata carries what ingestion stores for an entry: its title, a category, and its rich
   text body cut to 256 characters (ingestion.sources.FILTER_TEXT_MAX_CHARS). `short` counts queries
   that came back with fewer than top_k rows although enough rows matched; `exact fallback`
   counts queries where the index walk came back short and the statement's gated exact
   ranking answered instead (see search/engine/semantic.py).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(0, str(REPO_ROOT / "bench"))

import bench_django  # noqa: E402
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from evalsets import SETS, load_set, split_text  # noqa: E402
import vectorload  # noqa: E402

BENCH_DB = os.environ.get("BENCH_SEMANTIC_DB", "cms_bench_semantic")
CACHE_DIR = REPO_ROOT / "var" / "bench"
MODEL = "use-multilingual-v3"
DIMENSIONS = 512
NOISE_SIGMA = 0.035
TOP_K = 10
FILTER_BUCKETS = 100
CATEGORIES = 100


def django_setup() -> None:
    # A dedicated database: the bench truncates and bulk-loads the chunk table.
    bench_django.django_setup(BENCH_DB)


# --- vectors ------------------------------------------------------------------------------

def real_chunk_texts() -> list[str]:
    texts: list[str] = []
    for name in SETS:
        for doc in load_set(name).corpus:
            body = f"{doc.get('title') or ''}. {doc.get('text') or ''}".strip(". ")
            texts.extend(split_text(body, 500))
    return texts


def query_texts(count: int) -> list[str]:
    rng = np.random.default_rng(11)
    per_set = max(1, count // len(SETS))
    texts: list[str] = []
    for name in SETS:
        queries = load_set(name).queries
        picks = rng.choice(len(queries), size=min(per_set, len(queries)), replace=False)
        texts.extend(queries[i]["text"] for i in sorted(picks))
    return texts[:count]


def embed_cached(name: str, texts: list[str]) -> np.ndarray:
    from ingestion.embeddings.local import LocalEmbeddingBackend

    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    path = CACHE_DIR / f"{name}-{len(texts)}.npy"
    if path.exists():
        return np.load(path)
    backend = LocalEmbeddingBackend(threads=2)
    out = np.zeros((len(texts), DIMENSIONS), dtype=np.float32)
    started = time.perf_counter()
    step = 256
    for i in range(0, len(texts), step):
        out[i : i + step] = np.asarray(backend.embed_documents(texts[i : i + step]), dtype=np.float32)
        if (i // step) % 10 == 0:
            print(f"  embedded {min(i + step, len(texts))}/{len(texts)} {name} "
                  f"({time.perf_counter() - started:.0f} s)", flush=True)
    np.save(path, out)
    return out


def sampled_vectors(real: np.ndarray, count: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """`count` vectors near real ones (real + Gaussian noise, re-normalised), and their sources."""
    sources = rng.integers(0, len(real), size=count)
    vectors = real[sources] + rng.normal(0.0, NOISE_SIGMA, size=(count, real.shape[1])).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors.astype(np.float32), sources


# --- loading ------------------------------------------------------------------------------

def load_chunks(vectors: np.ndarray, texts: list[str], workspace_of: np.ndarray, ws_ids: dict[str, int],
                entry_ids: dict[str, int]) -> None:
    from django.db import connection
    from pgvector.psycopg import register_vector
    from psycopg.types.json import Jsonb

    from ingestion.sources import FILTER_TEXT_MAX_CHARS

    with connection.cursor() as cursor:
        # The keyword index's postings reference chunks; its statistics go with them.
        vectorload.truncate_and_drop_vector_indexes(cursor)
        cursor.execute("DROP INDEX IF EXISTS chunk_text_trgm")
    raw = connection.connection
    register_vector(raw)
    started = time.perf_counter()

    def rows():
        for i in range(len(vectors)):
            ws = "small" if workspace_of[i] else "big"
            metadata = {"content_type": "article", "status": "published", "source_kind": "entry",
                        "fields": {"bucket": i % FILTER_BUCKETS, "title": f"Chunk {i}",
                                   "body": texts[i][:FILTER_TEXT_MAX_CHARS], "category": category_of(i)}}
            yield (ws_ids[ws], entry_ids[ws], i, texts[i], f"{i:064x}", len(texts[i]) // 3, f"Chunk {i}",
                   Jsonb(metadata), vectors[i])

    vectorload.copy_chunks(raw, rows(), model=MODEL, dimensions=DIMENSIONS)
    print(f"  COPY {len(vectors)} chunks: {time.perf_counter() - started:.1f} s", flush=True)
    started = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute("SET maintenance_work_mem = '2GB'")
        cursor.execute("SET max_parallel_maintenance_workers = 1")
        vectorload.build_vector_indexes(cursor)
        cursor.execute("ANALYZE ingestion_chunk")
    print(f"  HNSW index build (m=16, ef_construction=64): {time.perf_counter() - started:.1f} s", flush=True)


def category_of(i: int) -> str:
    # Spread differently from bucket, so the text and number filters pick different rows.
    return f"category-{(i * 7 + 3) % CATEGORIES:02d}"


def ensure_dataset(total: int, rebuild: bool) -> tuple[dict[str, int], np.ndarray]:
    """Load `total` chunks unless the bench database already holds exactly this data set."""
    from django.core.management import call_command
    from django.db import connection

    from ingestion.models import Chunk

    call_command("migrate", verbosity=0)
    # A data set loaded by an older bench has no category field: bench_workspaces adds it.
    ws_ids, entry_ids = bench_django.bench_workspaces([{"id": "category", "label": "Category", "type": "text"}])

    rng = np.random.default_rng(20260101)
    texts = real_chunk_texts()
    real = embed_cached("chunks", texts)
    if total <= len(real):
        vectors, all_texts = real[:total], texts[:total]
    else:
        extra, sources = sampled_vectors(real, total - len(real), rng)
        vectors = np.vstack([real, extra])
        all_texts = texts + [f"{texts[s][:300]} [generated variant {k}]" for k, s in enumerate(sources)]
    order = rng.permutation(total)
    vectors = vectors[order]
    all_texts = [all_texts[i] for i in order]
    workspace_of = np.zeros(total, dtype=bool)
    workspace_of[rng.choice(total, size=total // 100, replace=False)] = True  # 1% in the small workspace

    with connection.cursor() as cursor:
        cursor.execute("SELECT to_regclass('chunk_vector_hnsw_use_multilingual_v3') IS NOT NULL")
        has_index = cursor.fetchone()[0]
        cursor.execute("SELECT metadata -> 'fields' ? 'category' FROM ingestion_chunk LIMIT 1")
        row = cursor.fetchone()
        has_text_metadata = bool(row and row[0])
    if rebuild or Chunk.objects.count() != total or not has_index or not has_text_metadata:
        print(f"Loading {total} chunks ({len(real)} real, {max(0, total - len(real))} sampled) into {BENCH_DB}...",
              flush=True)
        load_chunks(vectors, all_texts, workspace_of, ws_ids, entry_ids)
    else:
        print(f"Reusing the {total} chunks already in {BENCH_DB} (--rebuild to reload).", flush=True)
    return ws_ids, workspace_of


# --- measuring ----------------------------------------------------------------------------

def run_exact(sql: str, params: list) -> list[int]:
    from django.db import connection, transaction

    with transaction.atomic(), connection.cursor() as cursor:
        # No index scan: every candidate row's distance is computed, so the top 10 is exact.
        cursor.execute("SET LOCAL enable_indexscan = off")
        cursor.execute(sql, params)
        return [row[0] for row in cursor.fetchall()]


def plan_of(sql: str, params: list, ef_search: int) -> str:
    from django.db import connection, transaction

    from search.engine.legs.vector_leg import search_settings

    settings = search_settings(ef_search)
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT " + ", ".join(f"set_config('{name}', %s, true)" for name in settings),
                       list(settings.values()))
        cursor.execute("EXPLAIN " + sql, params)
        lines = [row[0] for row in cursor.fetchall()]
    for line in lines:
        if "Index Scan using chunk_vector_hnsw" in line:
            return "hnsw"
    for line in lines:
        if "Index" in line or "Bitmap" in line:
            return "btree+sort"
    return "seqscan+sort"


def measure(args: argparse.Namespace) -> None:
    from cms.access import workspace_access_for_operator
    from cms.models import Workspace
    from cms.selectors import content_type_schemas
    from search.engine.filters.chunks import chunk_filter_compile
    from search.engine.filters.compile import CompiledFilter
    from search.engine.legs.vector_leg import vector_candidates as _vector_candidates, vector_literal as _vector_literal, vector_candidates_params, vector_candidates_sql

    total = args.chunks
    ws_ids, workspace_of = ensure_dataset(total, args.rebuild)

    qtexts = query_texts(args.queries)
    qvectors = embed_cached("queries", qtexts)

    # The query's own embedding cost (not part of the SQL timings below).
    from ingestion.embeddings.local import LocalEmbeddingBackend

    backend = LocalEmbeddingBackend(threads=1)
    backend.embed_query("warm up")
    embed_times = []
    for text in qtexts[:30]:
        started = time.perf_counter()
        backend.embed_query(text)
        embed_times.append((time.perf_counter() - started) * 1000)

    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('shared_buffers'), pg_size_pretty(pg_relation_size(%s)),"
                       " pg_relation_size(%s) > pg_size_bytes(current_setting('shared_buffers'))",
                       ["chunk_vector_hnsw_use_multilingual_v3"] * 2)
        shared_buffers, index_size, index_too_big = cursor.fetchone()
        try:
            cursor.execute("CREATE EXTENSION IF NOT EXISTS pg_prewarm")
            cursor.execute("SELECT pg_prewarm('chunk_vector_hnsw_use_multilingual_v3'), pg_prewarm('ingestion_chunk')")
        except Exception:  # noqa: BLE001 - optional: the warm-up queries below still run
            pass
    server_note = f"shared_buffers {shared_buffers}, HNSW index {index_size}"
    if index_too_big:
        server_note += (" -- the index does not fit in shared_buffers, so queries copy its pages from the OS"
                        " cache; a server sized for it (ALTER SYSTEM SET shared_buffers = '1GB', restart) is faster")

    big_rows = int((~workspace_of).sum())
    big = Workspace.objects.get(pk=ws_ids["big"])

    def big_filter(spec: dict) -> CompiledFilter:
        return chunk_filter_compile(spec, content_type=None, access=workspace_access_for_operator(workspace=big),
                                    schemas=content_type_schemas(workspace=big))

    def big_count(keep) -> int:
        return int(sum(1 for i in range(total) if not workspace_of[i] and keep(i)))

    three = ["category-07", "category-42", "category-91"]
    scenarios = [
        ("unfiltered (ws 99%)", ws_ids["big"], CompiledFilter("TRUE", []), big_rows),
        ("workspace 1%", ws_ids["small"], CompiledFilter("TRUE", []), int(workspace_of.sum())),
        ("ws 99% + number 1%", ws_ids["big"], big_filter({"bucket": 7}),
         big_count(lambda i: i % FILTER_BUCKETS == 7)),
        ("ws 99% + text 1%", ws_ids["big"], big_filter({"category": "category-07"}),
         big_count(lambda i: category_of(i) == "category-07")),
        ("ws 99% + text $in 3%", ws_ids["big"], big_filter({"category": {"$in": three}}),
         big_count(lambda i: category_of(i) in three)),
    ]
    efs = [int(x) for x in args.ef.split(",")]
    print(f"\n{total} chunks, {len(qvectors)} real queries (SciFact, StackFAQ, JSQuAD), top_k={TOP_K}, "
          f"model {MODEL}; query embedding p50 {statistics.median(embed_times):.1f} ms (not included below)")
    load1, load5, _ = os.getloadavg()
    print(f"{server_note}; load average {load1:.1f}/{load5:.1f} on {os.cpu_count()} CPUs (timings include any"
          " contention)\n")
    header = f"{'scenario':<22} {'rows':>7} {'plan':<12} {'ef_search':>9} {'p50 ms':>8} {'p95 ms':>8} " \
             f"{'recall@10':>9} {'short':>6} {'exact fallback':>14}"
    print(header)
    print("-" * len(header))
    for label, ws_id, where, rows in scenarios:
        exact: list[set[int]] = []
        sql = vector_candidates_sql(dimensions=DIMENSIONS, where_sql=where.sql, include_vectors=False, bounded=False)
        for q in qvectors:
            params = vector_candidates_params(vector_text=_vector_literal(q.tolist()), workspace_id=ws_id,
                                              model_name=MODEL, where=where, limit=TOP_K, max_distance=None)
            exact.append(set(run_exact(sql, params)))
        params0 = vector_candidates_params(vector_text=_vector_literal(qvectors[0].tolist()), workspace_id=ws_id,
                                           model_name=MODEL, where=where, limit=TOP_K, max_distance=None)
        for ef in efs:
            plan = plan_of(sql, params0, ef)
            for q in qvectors[:20]:  # warm the index pages for this setting
                _vector_candidates(workspace_id=ws_id, model_name=MODEL, dimensions=DIMENSIONS,
                                   query_vector=q.tolist(), limit=TOP_K, where=where, ef_search=ef)
            latencies, recalls, short, fallbacks, exact_plans = [], [], 0, 0, 0
            for q, truth in zip(qvectors, exact):
                started = time.perf_counter()
                hits = _vector_candidates(workspace_id=ws_id, model_name=MODEL, dimensions=DIMENSIONS,
                                          query_vector=q.tolist(), limit=TOP_K, where=where, ef_search=ef)
                latencies.append((time.perf_counter() - started) * 1000)
                found = {hit.id for hit in hits}
                recalls.append(len(found & truth) / max(1, len(truth)))
                if len(hits) < min(TOP_K, rows):
                    short += 1
                if any(hit.exact for hit in hits):
                    fallbacks += 1
                if any(hit.exact_plan for hit in hits):
                    exact_plans += 1
            latencies.sort()
            p95 = latencies[min(len(latencies) - 1, int(round(0.95 * len(latencies))) - 1)]
            # The walk's plan (EXPLAIN of the HNSW statement) unless the exact plan answered
            # (search/engine/legs/vector_leg.py: at most EXACT_MAX_ROWS matching rows), which ran instead.
            if exact_plans:
                plan = "exact" if exact_plans == len(qvectors) else f"exact {exact_plans}/{len(qvectors)}"
            print(f"{label:<22} {rows:>7} {plan:<12} {ef:>9} {statistics.median(latencies):>8.2f} {p95:>8.2f} "
                  f"{statistics.mean(recalls):>9.3f} {short:>6} {fallbacks:>14}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--ef", default="40,100,200,400", help="comma-separated ef_search values")
    parser.add_argument("--rebuild", action="store_true", help="reload the chunks even if already loaded")
    parser.add_argument("--load-only", action="store_true", help="load the chunks and build the index, then stop")
    args = parser.parse_args()
    django_setup()
    if args.load_only:
        ensure_dataset(args.chunks, args.rebuild)
        return
    measure(args)


if __name__ == "__main__":
    main()
